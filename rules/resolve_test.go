package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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
			for _, min := range []int{probeMin, probeMinNew} {
				ctx := Context{Cwd: root + "/x", Lookups: NewLookups()}
				ps := newPathSubjectProbing(p, ctx, min)
				abs := p
				if !strings.HasPrefix(p, "/") {
					abs = ctx.Cwd + "/" + p
				}
				if _, ok := dotDotAfterMissing(abs); ok {
					// ".." after a directory not there now: an earlier
					// command could make it a link (attack run 33).
					if ps.static {
						t.Errorf("newPathSubject(%q): static %q, want unknown (.. after a missing directory)", p, ps.resolved)
					}
					continue
				}
				want, wantInfo, _ := resolveInLong(NewLookups(), "", abs)
				links := uint64(0)
				if wantInfo != nil && wantInfo.Mode().IsRegular() {
					links = hardLinks(wantInfo)
				}
				if !ps.static || ps.resolved != want || ps.cleaned != filepath.Clean(abs) || ps.links != links {
					t.Errorf("newPathSubject(%q), probes from %d components: cleaned %q, resolved %q, %d links; the long way %q, %q, %d", p, min, ps.cleaned, ps.resolved, ps.links, filepath.Clean(abs), want, links)
				}
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

// TestResolveInSharedLookups checks resolveIn against resolveInLong when
// one command's lookups serve every path in turn (in file order, reversed
// and interleaved), as a command's segments share them: what a probe
// recorded for one path (a missing path, the directories on the way to
// one that exists, see Lookups.probe) must give each later path the
// answer the long way gives it with lookups of its own; and every lstat
// answer the lookups remember must be the system's.
func TestResolveInSharedLookups(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b/c/d", "x/y", "m/n", "missingno/c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(root+"/a/f", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"x/abs": root + "/a/b", "x/rel": "../a/b/c", "a/b/sl": "c/d", "m/n/up": "../../a",
		"dangle": root + "/missing/file", "loop": root + "/loop",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, a := range []string{"a", "a/b", "a/b/c", "a/b/c/d", "a/f", "x/abs", "x/rel", "a/b/sl", "m/n/up", "dangle", "loop", "missing", "missing/deeper", "missingno", "a/b/gone"} {
		for _, b := range []string{"", "/c", "/c/d", "/d", "/f", "/new", "/new/deeper", "/b/c/d/e", "/x", "/.", "/..", "/c/.", "/./c", "/c/../d"} {
			paths = append(paths, root+"/"+a+b)
		}
	}
	type ask = struct{ dir, p string }
	var asks []ask
	for _, p := range paths {
		asks = append(asks, ask{"", p}, ask{root, strings.TrimPrefix(p, root+"/")}, ask{root + "/a/b", strings.TrimPrefix(p, root+"/")})
	}
	reversed := slices.Clone(asks)
	slices.Reverse(reversed)
	interleaved := make([]ask, 0, len(asks))
	for i := 0; i < len(asks); i += 2 {
		interleaved = append(interleaved, asks[i])
	}
	for i := 1; i < len(asks); i += 2 {
		interleaved = append(interleaved, asks[i])
	}
	// Missing paths first, then those that exist from the last: what
	// probes record of the missing (see Lookups.absent) then meets paths
	// that exist below directories not looked up yet, missingno after
	// missing.
	var missingFirst, exist []ask
	for _, a := range asks {
		if _, _, ok := resolveInLong(NewLookups(), a.dir, a.p); ok {
			exist = append(exist, a)
		} else {
			missingFirst = append(missingFirst, a)
		}
	}
	slices.Reverse(exist)
	missingFirst = append(missingFirst, exist...)
	probed := false
	// A missing name that begins an existing one, and a file that is no
	// directory, before anything else is looked up.
	prefixNames := []ask{{"", root + "/missing"}, {"", root + "/missingno/c"}, {"", root + "/a/f/x/y"}, {"", root + "/a/b/c/d"}, {"", root + "/a/f"}}
	for _, min := range []int{probeMin, probeMinNew} {
		for _, status := range []bool{true, false} {
			for name, order := range map[string][]ask{"file order": asks, "reversed": reversed, "interleaved": interleaved, "missing first": missingFirst, "prefix names": prefixNames} {
				name := fmt.Sprintf("%s, probes from %d components, status %v", name, min, status)
				probed = lookupsAsTheLongWay(t, name, order, min, status) || probed
			}
		}
	}
	if !probed && probeNoLinks("/") != syscall.ENOSYS {
		t.Error("no probe answered for a missing path")
	}
}

// lookupsAsTheLongWay resolves each of order in turn with one command's
// lookups, probing from min components, with or without the status, and
// reports whether a probe found a path missing (see
// TestResolveInSharedLookups). Without the status, a path that exists
// may come without it; one that is given must be the long way's.
func lookupsAsTheLongWay(t *testing.T, name string, order []struct{ dir, p string }, min int, status bool) bool {
	t.Helper()
	lk := NewLookups()
	for _, a := range order {
		got, gotInfo, gotOK := resolveProbing(lk, a.dir, a.p, min, status)
		want, wantInfo, wantOK := resolveInLong(NewLookups(), a.dir, a.p)
		infoDiffers := (gotInfo == nil) != (wantInfo == nil)
		if !status && gotOK && gotInfo == nil {
			infoDiffers = false
		}
		if got != want || gotOK != wantOK || infoDiffers ||
			gotInfo != nil && (wantInfo == nil || gotInfo.Mode() != wantInfo.Mode() || hardLinks(gotInfo) != hardLinks(wantInfo)) {
			t.Errorf("%s: resolveIn(%q, %q) = %q %v %v, the long way %q %v %v", name, a.dir, a.p, got, gotInfo != nil, gotOK, want, wantInfo != nil, wantOK)
		}
	}
	lk.each(func(p string, r lookup) {
		fi, err := lstat(p)
		if (err == nil) != (r.err == nil) || err != nil && err != r.err || fi != nil && fi.Mode() != r.fi.Mode() {
			t.Errorf("%s: the lookups remember lstat(%q) as %v %v, the system says %v %v", name, p, r.fi, r.err, fi, err)
		}
	})
	for d, onWay := range lk.linkFree {
		if c := canonical(d); c != d {
			t.Errorf("%s: %q noted as free of symlinks, its canonical path is %q", name, d, c)
		}
		if fi, err := os.Lstat(d); err != nil || onWay && !fi.IsDir() {
			t.Errorf("%s: %q noted as there (a directory: %v) and free of symlinks: %v", name, d, onWay, err)
		}
	}
	return len(lk.absent) > 0
}
