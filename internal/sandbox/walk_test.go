package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWalkNoLinks: the kernel's walk (openat2 with RESOLVE_NO_SYMLINKS)
// and guardsh's own (walkComponents) agree: a directory reached without
// links opens as that very directory; a link at the end or on the way, a
// file, and a missing path are errors.
func TestWalkNoLinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		os.MkdirAll(filepath.Join(root, "ws", ".git", "hooks"), 0o755),
		os.WriteFile(filepath.Join(root, "ws", "file"), nil, 0o644),
		os.Symlink(filepath.Join(root, "ws"), filepath.Join(root, "link")),
		os.Symlink(".git", filepath.Join(root, "ws", "gitlink")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{"ws", true}, {"ws/.git/hooks", true}, {"link", false}, {"link/.git", false},
		{"ws/gitlink", false}, {"ws/gitlink/hooks", false}, {"ws/file", false}, {"missing", false},
	} {
		p := filepath.Join(root, c.path)
		for name, walk := range map[string]func(string) (int, error){"walkNoLinks": walkNoLinks, "walkComponents": walkComponents} {
			fd, err := walk(p)
			if (err == nil) != c.ok {
				t.Errorf("%s(%s): %v, want ok %v", name, c.path, err, c.ok)
			}
			if err != nil {
				continue
			}
			var got, want unix.Stat_t
			if unix.Fstat(fd, &got) != nil || unix.Lstat(p, &want) != nil || got.Dev != want.Dev || got.Ino != want.Ino {
				t.Errorf("%s(%s) opened something else", name, c.path)
			}
			unix.Close(fd)
		}
	}
}
