package interp

import (
	"slices"
	"testing"
)

// TestDeclarationWordsInOrder: a declaration's operands are shown after
// its name in the order written (a new user's refusal read
// `PYTHONPATH=… export`, as if a prefix assignment); prefix assignments
// still come first.
func TestDeclarationWordsInOrder(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`export PYTHONPATH="$PWD/.deps:${PYTHONPATH:-}"`, `export PYTHONPATH="$PWD/.deps:${PYTHONPATH:-}"`},
		{`declare -x A=1 B`, `declare -x A=1 B`},
		// In the order written: an option after an assignment is an
		// operand to bash, not an option (attack run 74 was shown
		// `export -n PYTHONPATH=/evil` for this, which unexports).
		{`export PYTHONPATH=/evil -n`, `export PYTHONPATH=/evil -n`},
		{`export A=1 B C=2`, `export A=1 B C=2`},
		{`local n=1`, `local n=1`},
		{`X=1 env`, `X=1 env`},
		{`X=1`, `X=1`},
	} {
		r, err := Analyze(c.text, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.text, err)
		}
		i := slices.IndexFunc(r, func(s Segment) bool { return s.Kind == Exec })
		if i < 0 {
			t.Fatalf("%s: no exec segment in %v", c.text, r)
		}
		if got := r[i].String(); got != c.want {
			t.Errorf("%s: shown as %q, want %q", c.text, got, c.want)
		}
	}
}
