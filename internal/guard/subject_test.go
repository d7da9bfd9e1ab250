package guard

import (
	"slices"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
	"github.com/guardsh/guardsh/rules"
)

// TestSubjectsShareOneBuffer checks that the subjects Decide cuts from
// one buffer (subjectIn) hold what Subject makes for each segment alone,
// for the 948 agent commands and the benchmark's command, and that
// appending to one subject's words leaves the next subject's alone.
func TestSubjectsShareOneBuffer(t *testing.T) {
	g := benchGuardT(t, 10)
	texts := []string{benchdata.TwentySegments, "A=1 B=2 env C=3 make -j4 && export X=1 Y=2 && declare -x Z=3 W=4"}
	for _, c := range agentCommands(t) {
		texts = append(texts, c.Cmd)
	}
	for _, text := range texts {
		segs, err := g.Analyze(text)
		if err != nil {
			continue
		}
		var buf []string
		if len(segs) > 0 {
			buf = make([]string, 0, len(segs[0].Args)) // too small: it grows
		}
		var got []rules.Subject
		for _, seg := range segs {
			var s rules.Subject
			s, buf = subjectIn(seg, buf)
			got = append(got, s)
		}
		for _, s := range got {
			_ = append(s.Words, "appended") // each must copy, not write into the next
			_ = append(s.Assigns, "appended")
		}
		for i, seg := range segs {
			if want := Subject(seg); got[i].Kind != want.Kind || !slices.Equal(got[i].Words, want.Words) || !slices.Equal(got[i].Assigns, want.Assigns) {
				t.Fatalf("%q: segment %v: subjectIn %+v, Subject %+v", text, seg, got[i], want)
			}
		}
	}
}
