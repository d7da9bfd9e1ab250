package guard

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/guardsh/guardsh/internal/fsview"
	"github.com/guardsh/guardsh/rules"
)

// linkedProtected is where the protected paths no workspace holds by name
// (rules.HomeProtected: shell start-up files, ~/.gitconfig, ~/.ssh, the
// agents' settings …; and what the user's git config makes git read or
// run, Guard.GlobalGit) lead when they, or a directory on their way, are
// symbolic links into places a jail writes: a dotfiles repository
// (~/.gitconfig → ~/dotfiles/gitconfig) worked in as the workspace, a temp
// directory, a sandbox.write path. A jailed command in ~/dotfiles once
// appended a core.fsmonitor to gitconfig and a line to bashrc, and both
// stayed: the human's next git and shell ran them (an attack run's find).
type linkedProtected struct {
	// files and dirs lie inside the workspace: the links on the way and
	// what they lead to, kept and put back like the workspace's own
	// .git/config (see KeepPaths).
	files, dirs []string
	// outside names the first that leads where a jail writes outside the
	// workspace ("~/.bashrc → /tmp/x/bashrc"), which guardsh cannot put
	// back safely (a temp directory is everyone's): no command runs
	// jailed while there is one, it asks. "" when there is none.
	outside string
}

// maxLinkHops bounds the symbolic links followed for one path, as the
// kernel's ELOOP limit (40) does.
const maxLinkHops = 40

// protectedLinks returns where the protected paths outside any workspace
// lead (see linkedProtected): each path is resolved as the kernel would
// open it, every link on the way noted; for a protected directory, its
// entries that are links are followed too (one level: the depth to which
// the rules resolve "DIR/*"). Cost: a directory holding listAbove or more
// of the paths (the home, ~/.config) is listed once and its entries' types
// read off the listing; otherwise one lstat(2) per path component not
// looked up before in this call; one readlink(2) per link, one listing
// per protected directory that exists.
//
// The answer (some 80 µs for a home of dotfiles, on a virtual machine) is
// kept for a Guard that decides one command of a fresh shell, for
// freshFor (see fresh): a jailed command asks for it twice, for the
// record kept before it runs (KeepPaths) and for its decision
// (linkedOutside); Keep, which takes the record again after a wait, finds
// it anew.
func (g *Guard) protectedLinks() linkedProtected {
	key := [2]string{g.Context.Workspace, g.Context.Home}
	if g.links != nil && g.fresh(g.linksWhen) && g.linksFor == key {
		return *g.links
	}
	lp := g.findProtectedLinks()
	g.links, g.linksFor, g.linksWhen = &lp, key, time.Now()
	return lp
}

// findProtectedLinks is protectedLinks without the answer kept.
func (g *Guard) findProtectedLinks() linkedProtected {
	ctx := g.Context
	var lp linkedProtected
	files, dirs := rules.HomeProtected(ctx.Home)
	// What the user's git config makes git read or run (the files it
	// includes, the programs it names, its hook directories) is as
	// dangerous in a dotfiles workspace, or a temp directory, as
	// ~/.gitconfig itself.
	files = append(slices.Clip(files), g.GlobalGit.Files...)
	files = append(files, g.GlobalGit.Programs...)
	dirs = append(slices.Clip(dirs), g.GlobalGit.Dirs...)
	w := linkWalker{seen: map[string]walked{}, listed: map[string]map[string]fs.FileMode{}}
	perDir := map[string]int{}
	for _, p := range append(slices.Clip(files), dirs...) {
		perDir[filepath.Dir(p)]++
	}
	for d, n := range perDir {
		if n < listAbove {
			continue
		}
		if _, r, ok := w.chain(d); ok {
			w.listed[r] = nil // listed when first looked in
		}
	}
	writable := g.jailWrites()
	for _, p := range slices.Clone(writable) {
		// A sandbox.write path may be a link.
		if _, r, ok := w.chain(filepath.Clean(p)); ok && r != p {
			writable = append(writable, r)
		}
	}
	ws := ctx.Workspace
	note := func(origin, p string, isDir bool) {
		switch {
		case ws != "" && (p == ws || strings.HasPrefix(p, ws+"/")):
			if p == ws {
				return // the workspace itself: what it holds is kept by name
			}
			list := &lp.files
			if isDir {
				list = &lp.dirs
			}
			if !slices.Contains(*list, p) {
				*list = append(*list, p)
			}
		case lp.outside == "" && JailWrites(p, writable):
			lp.outside = tilde(origin, ctx.Home) + " → " + p
		}
	}
	var follow func(p string, dir, entries bool)
	follow = func(p string, dir, entries bool) {
		hops, final, ok := w.chain(p)
		for _, h := range hops {
			note(p, h, false)
		}
		if !ok {
			return // a loop: nothing can be opened there
		}
		mode, exists := w.lstat(final)
		if exists && mode.IsDir() {
			dir = true
		}
		note(p, final, dir)
		if !entries || !exists || !mode.IsDir() {
			return
		}
		ents, err := fsview.ReadDir(final)
		if err != nil {
			return
		}
		for _, e := range ents {
			if e.Type()&fs.ModeSymlink != 0 {
				follow(filepath.Join(final, e.Name()), false, false)
			}
		}
	}
	for _, f := range files {
		follow(f, false, false)
	}
	for _, d := range dirs {
		follow(d, true, true)
	}
	return lp
}

// tilde writes p with the home directory as "~".
func tilde(p, home string) string {
	if rest, ok := strings.CutPrefix(p, home+"/"); ok && home != "" {
		return "~/" + rest
	}
	return p
}

// listAbove is how many protected paths a directory must hold for
// protectedLinks to list it rather than look each up: one listing costs
// about as many system calls as three lookups.
const listAbove = 3

// linkWalker resolves paths as the kernel does, remembering what each
// component is for the paths after.
type linkWalker struct {
	seen map[string]walked
	// listed holds the directories (resolved) whose entries are read off
	// one listing, name → type; nil until first looked in.
	listed map[string]map[string]fs.FileMode
}

// walked is a path as lstat(2) found it: its type, or that it is missing.
type walked struct {
	mode   fs.FileMode
	exists bool
}

// lstat returns p's type (that of a link itself), from its directory's
// listing when that directory is one to list, else from os.Lstat,
// remembered; exists is false when p cannot be looked up (missing, or a
// directory on the way may not be searched).
func (w *linkWalker) lstat(p string) (mode fs.FileMode, exists bool) {
	if s, ok := w.seen[p]; ok {
		return s.mode, s.exists
	}
	var s walked
	dir := filepath.Dir(p)
	if names, toList := w.listed[dir]; toList {
		if names == nil {
			names = map[string]fs.FileMode{}
			ents, err := fsview.ReadDir(dir)
			if err != nil {
				delete(w.listed, dir) // looked up name by name instead
				return w.lstat(p)
			}
			for _, e := range ents {
				names[e.Name()] = e.Type()
			}
			w.listed[dir] = names
		}
		s.mode, s.exists = names[filepath.Base(p)]
	} else if info, err := os.Lstat(p); err == nil {
		s = walked{mode: info.Mode(), exists: true}
	}
	w.seen[p] = s
	return s.mode, s.exists
}

// chain resolves absolute path p component by component, following
// symbolic links like the kernel (".." after a link goes up from its
// target): hops are the links met, each named by the path it was met at;
// final is the path p names, resolved as far as it exists, the missing
// rest joined as written. ok is false when more than maxLinkHops links
// were met or one could not be read.
func (w *linkWalker) chain(p string) (hops []string, final string, ok bool) {
	rest := strings.Split(p, "/")
	cur := "/"
	links := 0
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		mode, exists := w.lstat(next)
		if !exists {
			return hops, filepath.Join(append([]string{next}, rest...)...), true
		}
		if mode&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxLinkHops {
			return hops, "", false
		}
		hops = append(hops, next)
		t, err := os.Readlink(next)
		if err != nil {
			return hops, "", false
		}
		if filepath.IsAbs(t) {
			cur = "/"
		}
		rest = append(strings.Split(t, "/"), rest...)
	}
	return hops, cur, true
}
