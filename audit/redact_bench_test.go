package audit_test

import (
	"strings"
	"testing"

	"github.com/guardsh/guardsh/audit"
)

// BenchmarkRedactLongCommand redacts the record of a 100 KB command of
// 17,000 words (its text and its one segment's argv): plain words, and
// words that each hold a trigger (key=a, a Cookie header, -p x), the
// shapes attack run 59 timed at 52–270 ms; and one 100 KB cookie string
// given to curl -b (attack run 64: 20 s, a rescan of the text per pair).
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
	cookie := strings.Repeat("a=1; ", 20000)
	b.Run("curl -b with 20,000 pairs", func(b *testing.B) {
		for b.Loop() {
			rec := &audit.Record{Command: `curl -b "` + cookie + `" https://x`, Segments: []audit.Segment{{Argv: []string{"curl", "-b", cookie, "https://x"}}}}
			r.Record(rec)
		}
	})
}
