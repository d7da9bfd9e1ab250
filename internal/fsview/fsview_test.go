package fsview

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestResolveAsEvalSymlinks compares View.Resolve, which resolves a
// directory once for all paths beneath it and finds names in a listing
// when there is one, with filepath.EvalSymlinks on a tree holding
// symbolic links at every place one can stand: a linked home, a linked
// secret directory and file, a relative link with "..", a dangling link,
// a link to a link, missing paths under listed and unlisted directories,
// a path through a file, and ".." after a link.
func TestResolveAsEvalSymlinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real")
	for _, d := range []string{"home/.config/gh", "home/.aws", "keys", "other/sub", "home/.cache"} {
		must(t, os.MkdirAll(filepath.Join(real, d), 0o755))
	}
	for _, f := range []string{"home/.netrc", "home/.aws/credentials", "keys/id", "other/sub/token", "home/.config/gh/hosts.yml"} {
		must(t, os.WriteFile(filepath.Join(real, f), []byte("x"), 0o600))
	}
	must(t, os.Symlink(filepath.Join(real, "home"), filepath.Join(root, "home")))          // a linked home
	must(t, os.Symlink(filepath.Join(real, "keys"), filepath.Join(real, "home", ".ssh")))  // a linked secret directory
	must(t, os.Symlink("../other/sub/token", filepath.Join(real, "home", ".vault-token"))) // relative, with ..
	must(t, os.Symlink(filepath.Join(root, "nowhere"), filepath.Join(real, "home", ".npmrc")))
	must(t, os.Symlink(filepath.Join(real, "home", ".vault-token"), filepath.Join(real, "home", ".pypirc"))) // a link to a link
	must(t, os.Symlink(filepath.Join(real, "other"), filepath.Join(real, "home", ".cache", "guardsh")))

	home := filepath.Join(root, "home")
	var paths []string
	for _, n := range []string{".ssh", ".ssh/id", ".aws/credentials", ".aws/config", ".config/gh/hosts.yml",
		".config/gcloud", ".netrc", ".vault-token", ".npmrc", ".pypirc", ".gnupg", ".kube/config",
		".cache/guardsh", ".cache/guardsh/sub/token", ".s3cfg", ".m2/settings.xml", "../home/.netrc"} {
		paths = append(paths, filepath.Join(home, n), home+"/"+n)
	}
	paths = append(paths, "/", root, filepath.Join(root, "nowhere", "x"), filepath.Join(real, "keys", "id"), "relative/path")
	paths = append(paths, filepath.Join(real, "home", ".netrc", "x"), home+"/.cache/guardsh/../keys/id")
	for _, listed := range []bool{false, true} {
		v := New()
		if listed {
			if _, err := v.Entries(filepath.Join(real, "home")); err != nil {
				t.Fatal(err)
			}
			if _, err := v.Entries(filepath.Join(real, "home", ".cache")); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range paths {
			r, err := filepath.EvalSymlinks(p)
			got, ok := v.Resolve(p)
			if ok != (err == nil) || ok && got != r {
				t.Errorf("listed %v: Resolve(%q) = %q, %v; EvalSymlinks gives %q, %v", listed, p, got, ok, r, err)
			}
			if fresh, freshOK := New().Resolve(p); fresh != got || freshOK != ok {
				t.Errorf("Resolve(%q) in a fresh view = %q, %v; after the others %q, %v", p, fresh, freshOK, got, ok)
			}
		}
	}
}

// TestEntriesListsOnce: a directory's entries come from one listing, so
// a file made after it is not seen by Resolve (the View is for one
// command's setup), while a View made afterwards sees it.
func TestEntriesListsOnce(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "a"), nil, 0o644))
	v := New()
	ents, err := v.Entries(dir)
	if err != nil || len(ents) != 1 || ents[0].Name() != "a" {
		t.Fatalf("Entries = %v, %v", ents, err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "b"), nil, 0o644))
	if _, ok := v.Resolve(filepath.Join(dir, "b")); ok {
		t.Error("a name missing from the listing was found")
	}
	if _, ok := New().Resolve(filepath.Join(dir, "b")); !ok {
		t.Error("a new View does not see the new file")
	}
	if ents, _ := v.Entries(dir); len(ents) != 1 {
		t.Errorf("the listing was read again: %d entries", len(ents))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadDirAsOS compares ReadDir (getdents read straight) with
// os.ReadDir on a directory holding every type of entry: names, order
// and types must be the same, and so must what Info returns.
func TestReadDirAsOS(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o600))
	must(t, os.Symlink("file", filepath.Join(dir, "link")))
	must(t, os.Symlink("sub", filepath.Join(dir, "dirlink")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	ln, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for i := range 300 { // more than one getdents buffer
		must(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d-%s", i, strings.Repeat("n", 100))), nil, 0o600))
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(want, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	slices.SortFunc(got, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if len(got) != len(want) {
		t.Fatalf("ReadDir: %d entries, os.ReadDir: %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() {
			t.Errorf("entry %d: %v, os.ReadDir: %v", i, g, w)
		}
		gi, gerr := g.Info()
		wi, werr := w.Info()
		if (gerr == nil) != (werr == nil) || gerr == nil && (gi.Mode() != wi.Mode() || gi.Size() != wi.Size()) {
			t.Errorf("%s: Info %v %v, os.ReadDir's %v %v", g.Name(), gi, gerr, wi, werr)
		}
	}
	if _, err := ReadDir(filepath.Join(dir, "fifo")); err == nil {
		t.Error("a FIFO was listed")
	}
	if _, err := ReadDir(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing directory: %v", err)
	}
}
