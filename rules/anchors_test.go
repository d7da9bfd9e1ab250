package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAnchorsOnlyTighten: a relative deny or ask pattern holds at Root
// and at each of Context.Anchors (a nested work tree, an enclosing
// project directory); a relative allow pattern only at Root, so that an
// anchor an agent made (a .git in a subdirectory) never widens one.
func TestAnchorsOnlyTighten(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "sub")
	for _, d := range []string{"secrets", "build", "sub/secrets", "sub/build"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Parse([]byte(`mode: ask
rules:
  read: {deny: ["secrets/*"]}
  write: {allow: ["build/*"], ask: ["build/keep"]}
`), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		anchors []string
		s       Subject
		want    Decision
	}{
		{"a deny at root", nil, read(root + "/secrets/k"), Deny},
		{"no anchor: not at the nested work tree", nil, read(sub + "/secrets/k"), Allow},
		{"a deny at an anchor", []string{root, sub}, read(sub + "/secrets/k"), Deny},
		{"still at root with an anchor", []string{root, sub}, read(root + "/secrets/k"), Deny},
		{"an ask at an anchor", []string{root, sub}, write(sub + "/build/keep"), Ask},
		{"an allow at root", []string{root, sub}, write(root + "/build/x"), Allow},
		{"an allow not at an anchor", []string{root, sub}, write(sub + "/build/x"), Ask},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := Context{Mode: AskMode, Cwd: sub, Workspace: sub, Root: root, Anchors: c.anchors, Lookups: NewLookups()}
			if v := p.Decide(c.s, ctx); v.Decision != c.want {
				t.Errorf("%s %s: %s (%s), want %s", c.s.Kind, c.s.Words[0], v.Decision, v.Reason, c.want)
			}
		})
	}
}
