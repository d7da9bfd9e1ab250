package rules

import (
	"math/rand"
	"strings"
	"testing"
)

// TestOtherDescriptorQuickReject: the early answer for words that cannot
// name /proc/PID/fd/… gives what squeezing them first gives, for paths
// built from pieces that make and nearly make such a name.
func TestOtherDescriptorQuickReject(t *testing.T) {
	reference := func(p string) (string, bool) {
		s := squeeze(p)
		rest, ok := strings.CutPrefix(s, "/proc/")
		if !ok {
			return "", false
		}
		proc, rest, _ := strings.Cut(rest, "/")
		if proc == "self" || proc == "thread-self" || proc == "" {
			return "", false
		}
		if t, ok := strings.CutPrefix(rest, "task/"); ok {
			_, rest, _ = strings.Cut(t, "/")
		}
		if !strings.HasPrefix(rest, "fd/") {
			return "", false
		}
		return s, true
	}
	pieces := []string{"/", "//", ".", "./", "proc", "proc/", "12", "self", "task", "fd", "fd/", "0", "x", "dev", "/proc/1/fd/0"}
	r := rand.New(rand.NewSource(5))
	descriptors := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + r.Intn(8) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		p := b.String()
		gs, gok := otherDescriptor(p)
		ws, wok := reference(p)
		if gs != ws || gok != wok {
			t.Fatalf("%q: %q %v, squeezed first %q %v", p, gs, gok, ws, wok)
		}
		if wok {
			descriptors++
		}
	}
	if descriptors < 100 {
		t.Errorf("only %d descriptors among the paths: the test tries too little", descriptors)
	}
}
