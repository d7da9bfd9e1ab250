package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWorkspaceWriters checks that in mode auto the programs that only
// change the files they are given run when every file lies inside the
// workspace, and ask otherwise; in mode ask they still ask.
func TestWorkspaceWriters(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "f"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"sub", "nested/.git", "x/y"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws}
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"touch", "x"}, Allow},
		{[]string{"mkdir", "-p", "build/a"}, Allow},
		{[]string{"sed", "-i", "s/a/b/", "f"}, Allow},
		{[]string{"cp", "f", "g"}, Allow},
		{[]string{"rm", "-rf", "build"}, Allow},
		{[]string{"rm", "-rf", "."}, Ask},
		{[]string{"rm", "-rf", ws}, Ask},
		{[]string{"cp", "f", "out/x"}, Ask},
		{[]string{"cp", "/etc/hostname", "x"}, Ask},
		{[]string{"touch", ".git/config"}, Ask},
		{[]string{"touch", Hole}, Ask},
		{[]string{"sed", "-i", "1e id", "f"}, Ask},
		{[]string{"mkdir", filepath.Join(home, "x")}, Ask},
		{[]string{"mv", "-t" + home, "f"}, Ask},
		{[]string{"cp", "-tsub/../../.ssh", "f"}, Ask},
		{[]string{"ln", "-ft" + home, ws + "/f"}, Ask},
		{[]string{"cp", "-t", "sub", "f"}, Allow},
		{[]string{"mkdir", "-m755", "z"}, Ask},
		{[]string{"rm", "-rf", ".git"}, Ask},
		{[]string{"mv", ".git", "g2"}, Ask},
		{[]string{"cp", "-r", "nested", "n2"}, Ask},
		{[]string{"ln", "-s", "../../.ssh/id_rsa", "link"}, Ask},
		{[]string{"ln", "-s", "f", "link"}, Allow},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("auto: %q is %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
		}
	}
	// A relative symlink target is resolved from the link's directory:
	// from x/y, ../../d/k -> ../../.ssh/id_rsa points at ~/.ssh/id_rsa.
	sub := ctx
	sub.Cwd = filepath.Join(ws, "x", "y")
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"ln", "-s", "../../.ssh/id_rsa", "../../sub/k"}}, sub); v.Decision == Allow {
		t.Errorf("ln -s from a subdirectory is allowed: %s", v.Reason)
	}
	ctx.Mode = AskMode
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"touch", "x"}}, ctx); v.Decision != Ask {
		t.Errorf("ask: touch x is %v, want ask", v.Decision)
	}
}
