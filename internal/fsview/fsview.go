// Package fsview remembers what one guardsh process has looked up in the
// file system: the symbolic links resolved on the way to each path and
// the entries of the directories it listed, so that each directory is
// looked up, and each listed, once.
//
// guardsh resolves dozens of paths before a command runs (its config
// files, the workspace, the protected paths, a jail's hidden and
// writable paths) and most share their first components; on a virtual
// machine a system call costs microseconds, and the walk from the root
// for every path made up a good part of a command's start. A View answers
// as filepath.EvalSymlinks would have at the moment it first looked a
// path up: it is for the setup of one command, not for watching a file
// system that changes.
package fsview

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// View is what one process has seen of the file system. Its methods are
// safe for concurrent use.
type View struct {
	mu       sync.Mutex
	listed   map[string]listing
	resolved map[string]string // clean absolute path → canonical; "" when missing
}

type listing struct {
	entries []os.DirEntry
	err     error
}

// New returns an empty View.
func New() *View {
	return &View{listed: make(map[string]listing, 16), resolved: make(map[string]string, 32)}
}

// Entries returns the entries of directory dir (canonical), in directory
// order, listed once: opened with O_DIRECTORY and read with getdents,
// without the status calls os.Open makes for a file it might poll.
func (v *View) Entries(dir string) ([]os.DirEntry, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.entries(dir)
}

func (v *View) entries(dir string) ([]os.DirEntry, error) {
	if l, ok := v.listed[dir]; ok {
		return l.entries, l.err
	}
	var l listing
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		l.err = &os.PathError{Op: "open", Path: dir, Err: err}
	} else {
		f := os.NewFile(uintptr(fd), dir)
		l.entries, l.err = f.ReadDir(-1)
		f.Close()
	}
	v.listed[dir] = l
	return l.entries, l.err
}

// Resolve returns what absolute path p names with every symbolic link
// resolved, and whether it exists: the result of filepath.EvalSymlinks(p)
// and whether it succeeded. p's directory is resolved first (once for
// every path beneath it); then p's last component is found in that
// directory's listing if Entries made one, else looked up with lstat. A
// symbolic link on the way, and a path with "..", are left to
// filepath.EvalSymlinks.
func (v *View) Resolve(p string) (string, bool) {
	if strings.Contains(p+"/", "/../") || !filepath.IsAbs(p) {
		// ".." after a symbolic link leads to the parent of its target,
		// which cleaning the path would not.
		r, err := filepath.EvalSymlinks(p)
		return r, err == nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.resolve(filepath.Clean(p))
}

func (v *View) resolve(p string) (string, bool) {
	if p == "/" {
		return "/", true
	}
	if r, ok := v.resolved[p]; ok {
		return r, r != ""
	}
	r := ""
	if dir, ok := v.resolve(filepath.Dir(p)); ok {
		q := filepath.Join(dir, filepath.Base(p))
		mode, found := v.lookup(dir, filepath.Base(p))
		switch {
		case !found:
		case mode&os.ModeSymlink != 0:
			if t, err := filepath.EvalSymlinks(q); err == nil {
				r = t
			}
		default:
			r = q
		}
	}
	v.resolved[p] = r
	return r, r != ""
}

// lookup returns the type of entry name of directory dir (canonical) and
// whether it exists: from dir's listing when there is one, else lstat.
func (v *View) lookup(dir, name string) (os.FileMode, bool) {
	if l, ok := v.listed[dir]; ok && l.err == nil {
		for _, e := range l.entries {
			if e.Name() == name {
				return e.Type(), true
			}
		}
		return 0, false
	}
	fi, err := os.Lstat(filepath.Join(dir, name))
	if err != nil {
		return 0, false
	}
	return fi.Mode(), true
}
