package guard

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardsh/guardsh/internal/fsview"
	"github.com/guardsh/guardsh/rules"
)

// linkedProtected is where the protected paths no workspace holds by name
// (rules.HomeProtected: shell start-up files, ~/.gitconfig, ~/.ssh, the
// agents' settings …) lead when they, or a directory on their way, are
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
// the rules resolve "DIR/*"). Cost: one lstat(2) per path component not
// looked up before in this call, one readlink(2) per link, one listing
// per protected directory that exists.
func (g *Guard) protectedLinks() linkedProtected {
	ctx := g.Context
	var lp linkedProtected
	writable := g.jailWrites()
	for _, w := range slices.Clone(writable) {
		writable = append(writable, resolveLoose(w)) // a sandbox.write path may be a link
	}
	ws := ctx.Workspace
	w := linkWalker{seen: map[string]fs.FileInfo{}}
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
		info, exists := w.lstat(final)
		if exists && info.IsDir() {
			dir = true
		}
		note(p, final, dir)
		if !entries || !exists || !info.IsDir() {
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
	files, dirs := rules.HomeProtected(ctx.Home)
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

// linkWalker resolves paths as the kernel does, remembering each
// component's lstat(2) (nil: missing) for the paths after.
type linkWalker struct{ seen map[string]fs.FileInfo }

// lstat is os.Lstat, remembered; exists is false when p cannot be
// looked up (missing, or a directory on the way may not be searched).
func (w *linkWalker) lstat(p string) (info fs.FileInfo, exists bool) {
	info, ok := w.seen[p]
	if !ok {
		info, _ = os.Lstat(p)
		w.seen[p] = info
	}
	return info, info != nil
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
		info, exists := w.lstat(next)
		if !exists {
			return hops, filepath.Join(append([]string{next}, rest...)...), true
		}
		if info.Mode()&fs.ModeSymlink == 0 {
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
