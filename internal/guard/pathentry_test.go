package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// TestWritablePathEntry: a PATH entry counts as a place a jail writes as
// bash searches it — empty or relative, "~/…" expanded against home, a
// link resolved into the workspace, a sandbox.write path — and the
// system's directories do not (attack-run finds: a planted program was
// found through each of these).
func TestWritablePathEntry(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(ws, "tools"), filepath.Join(home, ".cargo", "bin"), filepath.Join(home, "elsewhere")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(home, "bin")
	if err := os.Symlink(filepath.Join(ws, "tools"), link); err != nil {
		t.Fatal(err)
	}
	p := rules.Default()
	p.Sandbox.Mode = rules.SandboxWorkspace
	p.Sandbox.Write = []string{"~/.cargo"}
	g := &Guard{Policy: p, Context: rules.Context{Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{tmp}}}
	for _, c := range []struct{ path, want string }{
		{"/usr/local/bin:/usr/bin:/bin", ""},
		{filepath.Join(home, "elsewhere") + ":/usr/bin", ""},
		{"/usr/bin::/bin", ". (relative)"},
		{"node_modules/.bin:/usr/bin", "node_modules/.bin (relative)"},
		{"~/.cargo/bin:/usr/bin", filepath.Join(home, ".cargo", "bin")},
		{"/usr/bin:" + link, link},
		{filepath.Join(ws, "tools"), filepath.Join(ws, "tools")},
		{filepath.Join(tmp, "x", "bin"), filepath.Join(tmp, "x", "bin")},
		{"~other/bin", "~other/bin"},
	} {
		writable, err := g.mayHaveWritten(true)
		if err != nil {
			t.Fatal(err)
		}
		if got := writablePathEntry(c.path, home, writable); got != c.want {
			t.Errorf("writablePathEntry(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}
