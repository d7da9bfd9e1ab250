package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestLookupsHas checks that a directory listing only rules out names a
// directory does not hold, and that a plain word naming a symlink in the
// working directory is still resolved (a listing must not hide it).
func TestLookupsHas(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "present"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lk := NewLookups()
	if !lk.has(dir, "present") || lk.has(dir, "absent") {
		t.Errorf("has: present %v absent %v", lk.has(dir, "present"), lk.has(dir, "absent"))
	}
	if lk.has(filepath.Join(dir, "missing"), "x") || lk.has(filepath.Join(dir, "present"), "x") {
		t.Error("a missing directory, or a file, has entries")
	}
	var nilLk *Lookups
	if !nilLk.has(dir, "absent") {
		t.Error("a nil Lookups rules a name out")
	}

	ctx := testContext(t, AskMode)
	if err := os.MkdirAll(filepath.Join(ctx.Home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ctx.Home, ".ssh", "id_rsa"), filepath.Join(ctx.Workspace, "key")); err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "rules:\n  read:\n    deny: [\"~/.ssh/*\"]\n")
	ctx.Lookups = NewLookups()
	for range 2 { // the second time from what Lookups remembers
		if v := p.Decide(exec("cat", "key"), ctx); v.Decision != Deny {
			t.Errorf("cat key (a link to ~/.ssh/id_rsa): %v (%s)", v.Decision, v.Reason)
		}
	}
}

// TestLookupsAnswerAsTheSystem checks that what Lookups answers without a
// system call, below a path it found missing or not a directory, is what
// lstat answers: the same error (ENOENT, ENOTDIR) or the same file, in
// whichever order the paths are looked up, symlinks to directories
// included, and below a missing first component looked up alone.
func TestLookupsAnswerAsTheSystem(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"d/e"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"ld": "d", "lf": "f", "lm": "missing", "ll": "ld"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, a := range []string{"d", "f", "ld", "lf", "lm", "ll", "missing"} {
		paths = append(paths, a)
		for _, b := range []string{"e", "x", "e/x"} {
			paths = append(paths, a+"/"+b, a+"/"+b+"/y")
		}
	}
	for _, order := range []string{"parents first", "children first", "the first component first"} {
		lk := NewLookups()
		ps := slices.Clone(paths)
		if order == "children first" {
			slices.Reverse(ps)
		}
		for _, q := range ps {
			if order == "the first component first" {
				first, _, _ := strings.Cut(q, "/")
				lk = NewLookups()
				lk.lstat(filepath.Join(dir, first))
			}
			p := filepath.Join(dir, q)
			want, wantErr := lstat(p)
			got, gotErr := lk.lstat(p)
			if !errors.Is(gotErr, errnoOf(wantErr)) || (wantErr == nil) != (gotErr == nil) {
				t.Errorf("%s, %s: lstat %s: %v, Lookups %v", order, q, wantErr, wantErr, gotErr)
				continue
			}
			if wantErr == nil && (got.Mode() != want.Mode() || got.Sys().(*syscall.Stat_t).Ino != want.Sys().(*syscall.Stat_t).Ino) {
				t.Errorf("%s, %s: lstat %v, Lookups %v", order, q, want.Mode(), got.Mode())
			}
			_, err := os.Lstat(p + "/e")
			if lk.has(p, "e") != (err == nil) {
				t.Errorf("%s, %s: has e: %v (lstat: %v)", order, q, lk.has(p, "e"), err)
			}
		}
	}
}

// errnoOf returns err's syscall.Errno, or err.
func errnoOf(err error) error {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return err
}

// TestLookupsStore checks Lookups' store of lstat answers (an array for
// the first fewLookups paths, a map after) against a plain map: every
// answer remembered is found, a later answer for the same path replaces
// the first, and a path never remembered is not found.
func TestLookupsStore(t *testing.T) {
	lk := NewLookups()
	want := map[string]lookup{}
	errs := []error{nil, syscall.ENOENT, syscall.ENOTDIR, syscall.EACCES}
	for i := range 3 * fewLookups {
		p := fmt.Sprintf("/d%d/f", i%(2*fewLookups)) // the second lap replaces
		r := lookup{err: errs[(i+i/(2*fewLookups))%len(errs)]}
		lk.remember(p, r.fi, r.err)
		want[p] = r
		for q, w := range want {
			if got, ok := lk.get(q); !ok || got != w {
				t.Fatalf("after %d answers, get(%q) = %v %v, want %v", i+1, q, got, ok, w)
			}
		}
		if _, ok := lk.get("/never"); ok {
			t.Fatalf("after %d answers, get of a path never remembered finds one", i+1)
		}
	}
	n := 0
	lk.each(func(p string, r lookup) {
		n++
		if w, ok := want[p]; !ok || w != r {
			t.Errorf("each gives %q %v, want %v %v", p, r, w, ok)
		}
	})
	if n != len(want) {
		t.Errorf("each gives %d answers, want %d", n, len(want))
	}
}

// TestEvalSymlinksBelowMissing: a path below one the lookups found
// missing (or a missing path) resolves to nothing without a system call,
// as filepath.EvalSymlinks would answer; one below a link that exists
// still resolves through it.
func TestEvalSymlinksBelowMissing(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	lk := NewLookups()
	for _, p := range []string{filepath.Join(dir, "gone"), filepath.Join(dir, "link")} {
		lk.lstat(p)
	}
	for _, p := range []string{filepath.Join(dir, "gone"), filepath.Join(dir, "gone", "a", "b")} {
		if r, err := lk.evalSymlinks(p); err == nil {
			t.Errorf("evalSymlinks(%s) = %q, want an error", p, r)
		}
	}
	// Made after the lookups: still answered as missing, as the
	// lookups hold the file system as it was when first looked at.
	if err := os.MkdirAll(filepath.Join(dir, "gone", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := lk.evalSymlinks(filepath.Join(dir, "gone", "a")); err == nil {
		t.Errorf("a path below one recorded missing resolved")
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(real, "sub"))
	if r, err := lk.evalSymlinks(filepath.Join(dir, "link", "sub")); err != nil || r != want {
		t.Errorf("evalSymlinks(link/sub) = %q, %v; want %q", r, err, want)
	}
}
