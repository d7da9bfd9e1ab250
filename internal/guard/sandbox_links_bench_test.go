package guard

import (
	"os"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// BenchmarkProtectedLinks measures protectedLinks, which runs for every
// command that would run jailed (and for its record of the protected
// paths), against the running user's real home: its cost is one lstat
// per path component not seen before in the call, one readlink per link
// and one listing per protected directory that exists there.
func BenchmarkProtectedLinks(b *testing.B) {
	home, err := os.UserHomeDir()
	if err != nil {
		b.Skip(err)
	}
	policy, err := rules.Parse([]byte("sandbox: workspace\n"), "c.yaml")
	if err != nil {
		b.Fatal(err)
	}
	ws := b.TempDir()
	g := &Guard{Policy: policy, Context: rules.Context{Home: home, Workspace: ws, Cwd: ws, TempDirs: []string{os.TempDir()}}}
	for b.Loop() {
		g.protectedLinks()
	}
}
