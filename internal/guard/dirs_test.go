package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// TestWorkingDirectoryAfterCd checks that relative paths after a cd with a
// static target are decided where the cd leads, and stay unknown after any
// other cd.
func TestWorkingDirectoryAfterCd(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"sub", "secrets"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "secrets", "key.pem"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte("mode: ask\nrules:\n  read:\n    deny: [\"secrets/*\"]\n  shell:\n    deny: [\"rm -rf *\"]\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.AskMode, Cwd: ws, Home: ws, Workspace: ws}}
	g.Analysis.Home = ws
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"cd sub && ls", rules.Allow},
		{"cd sub && cat ../secrets/key.pem", rules.Deny},
		{"cd secrets && cat key.pem", rules.Deny},
		{"cd sub; cd ../secrets; cat key.pem", rules.Deny},
		{"pushd secrets >/dev/null && cat key.pem; popd", rules.Deny},
		{"cd " + ws + "/secrets && cat key.pem", rules.Deny},
		{"cd sub && cat key.pem", rules.Allow},
		{`cd "$d" && cat key.pem`, rules.Ask},
		{"cd - && cat key.pem", rules.Ask},
		{"CDPATH=/x cd sub && cat key.pem", rules.Ask},
		{"shopt -s cdable_vars; cd sub && cat key.pem", rules.Ask},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}
