package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resolveInLong is resolveIn as it was before its lookups took their paths
// from p itself and a missing last component was returned uncleaned: the
// long way TestResolveInAsTheLongWay compares it with.
func resolveInLong(lk *Lookups, dir, p string) (string, os.FileInfo, bool) {
	rest, resolved := p, ""
	if !strings.HasPrefix(p, "/") && dir != "/" {
		resolved = dir
	}
	var info os.FileInfo
	links := 0
	for rest != "" {
		var c string
		c, rest, _ = strings.Cut(rest, "/")
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = resolved[:max(strings.LastIndexByte(resolved, '/'), 0)]
			info = nil
			continue
		}
		next := resolved + "/" + c
		fi, err := lk.lstat(next)
		if err != nil {
			return filepath.Clean(next + "/" + rest), nil, false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			resolved, info = next, fi
			continue
		}
		target, err := os.Readlink(next)
		if links++; err != nil || links > maxLinks {
			return filepath.Clean(next + "/" + rest), nil, false
		}
		if strings.HasPrefix(target, "/") {
			resolved = ""
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = target
	}
	if resolved == "" {
		return "/", info, true
	}
	return resolved, info, true
}

// TestResolveInAsTheLongWay checks resolveIn against resolveInLong on
// paths that exist, paths missing at their last component or before it,
// with dots, doubled and trailing slashes, through absolute, relative,
// dangling and looping links, absolute and relative to a directory; and
// newPathSubject's cleaned and resolved paths against it.
func TestResolveInAsTheLongWay(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b/c", "x/y"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(root+"/a/f", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"x/abs": root + "/a/b", "x/rel": "../a/b/c", "x/sib": "y", "chain": root + "/x/rel",
		"dangle": root + "/missing/file", "loop": root + "/loop",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	var rels []string
	for _, a := range []string{"a", "a/b", "a/b/c", "a/f", "x/abs", "x/rel", "x/sib", "chain", "dangle", "loop", "missing", ".", ".."} {
		for _, b := range []string{"", "/", "/new", "/new/", "/new/deeper", "//new", "/./new", "/../new", "/c", "/f/x", "/..", "/."} {
			rels = append(rels, a+b)
		}
	}
	for _, r := range rels {
		// newPathSubject resolves a path without ".." cleaned first:
		// what the long way gives for it as written.
		for _, p := range []string{root + "/" + r, root + "//" + r + "/", r} {
			ctx := Context{Cwd: root + "/x", Lookups: NewLookups()}
			ps := newPathSubject(p, ctx)
			abs := p
			if !strings.HasPrefix(p, "/") {
				abs = ctx.Cwd + "/" + p
			}
			want, _, _ := resolveInLong(NewLookups(), "", abs)
			if !ps.static || ps.resolved != want || ps.cleaned != filepath.Clean(abs) {
				t.Errorf("newPathSubject(%q): cleaned %q, resolved %q; the long way %q, %q", p, ps.cleaned, ps.resolved, filepath.Clean(abs), want)
			}
		}
	}
	for _, dir := range []string{"", "/", root, root + "/a/b"} {
		for _, r := range rels {
			for _, p := range []string{r, root + "/" + r} {
				lk := NewLookups()
				got, gotInfo, gotOK := resolveIn(lk, dir, p)
				want, wantInfo, wantOK := resolveInLong(NewLookups(), dir, p)
				if got != want || gotOK != wantOK || (gotInfo == nil) != (wantInfo == nil) ||
					gotInfo != nil && gotInfo.Mode() != wantInfo.Mode() {
					t.Errorf("resolveIn(%q, %q) = %q %v %v, the long way %q %v %v", dir, p, got, gotInfo != nil, gotOK, want, wantInfo != nil, wantOK)
				}
			}
		}
	}
}
