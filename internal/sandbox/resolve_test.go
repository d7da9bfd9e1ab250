package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/guardsh/guardsh/internal/fsview"
)

// TestResolveAllAsEvalSymlinks: the hidden and writable paths of a jail,
// resolved through one View (a home holding more than listAbove of them
// is listed once, not looked up name by name), are those
// filepath.EvalSymlinks finds, in order, without duplicates, relative
// and missing ones left out; a secret reached through a linked home and
// a linked secret directory is hidden at its real place.
func TestResolveAllAsEvalSymlinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real")
	if err := os.MkdirAll(filepath.Join(real, "keys"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{real, filepath.Join(root, "home")}, {filepath.Join(real, "keys"), filepath.Join(real, ".ssh")}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(real, ".netrc"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	paths := []string{"relative"}
	for _, n := range []string{".ssh", ".netrc", ".aws", ".npmrc", ".pypirc", ".kube", ".netrc", ".ssh/../.netrc"} {
		paths = append(paths, home+"/"+n)
	}
	var want []string
	for _, p := range paths {
		if r, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(p) && !slices.Contains(want, r) {
			want = append(want, r)
		}
	}
	if got := resolveAll(fsview.New(), paths); !slices.Equal(got, want) {
		t.Errorf("resolveAll:\n got %q\nwant %q", got, want)
	}
	if !slices.Contains(want, filepath.Join(real, "keys")) {
		t.Errorf("the linked secret directory is not hidden at its real place: %q", want)
	}
}
