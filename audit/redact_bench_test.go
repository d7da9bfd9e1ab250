package audit_test

import (
	"strings"
	"testing"

	"github.com/guardsh/guardsh/audit"
)

// BenchmarkRedactLongCommand redacts the record of a 100 KB command of
// 17,000 words (its text and its one segment's argv): plain words, and
// words that each hold a trigger (key=a, a Cookie header, -p x), the
// shapes attack run 59 timed at 52–270 ms.
func BenchmarkRedactLongCommand(b *testing.B) {
	r, _ := audit.NewRedactor(nil)
	for _, w := range []string{"abcde", "key=a", "-p x", `-H "Cookie: a=b"`} {
		words := strings.Fields(strings.Repeat(w+" ", 17000/len(strings.Fields(w))))
		cmd := "echo " + strings.Join(words, " ")
		b.Run(w, func(b *testing.B) {
			for b.Loop() {
				rec := &audit.Record{Command: cmd, Segments: []audit.Segment{{Argv: append([]string{"echo"}, words...)}}}
				r.Record(rec)
			}
		})
	}
}
