package interp

import "testing"

// Nested marks exactly the eval and shell -c segments whose code was static
// and analysed, and the wrappers whose command was emitted after them: only
// then may a caller treat them as running nothing else.
func TestNestedMarksAnalysedPayloads(t *testing.T) {
	cases := []struct {
		src  string
		want bool // Nested on the first segment
	}{
		{`eval 'git status'`, true},
		{`bash -c 'ls -la'`, true},
		{`/bin/sh -ec 'make test'`, true},
		{`eval "$cmd"`, false},
		{`bash -c "$1"`, false},
		{`bash script.sh`, false},
		{`sudo ls`, true},
		{`exec /bin/bash -c 'ls'`, true},
		{`exec $x`, false},
		{`command -v ls`, false},
		{`echo eval`, false},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			segs, err := Analyze(c.src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := segs[0].Nested; got != c.want {
				t.Errorf("Nested = %v, want %v (segments %+v)", got, c.want, segs)
			}
			if last := segs[len(segs)-1]; len(segs) > 1 && last.Nested {
				t.Errorf("innermost segment %v marked Nested", last)
			}
		})
	}
}
