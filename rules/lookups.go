package rules

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/guardsh/guardsh/internal/fsview"
)

// Lookups remembers lstat results for the decisions of one command, so
// that the path components its segments share (the working directory, the
// home directory, the workspace) are looked up once: resolving a path
// costs one lstat per component (or one probe for several, see probe),
// and a command's segments name many paths under the same directories.
// What it remembers is the file system as the command's decision found
// it: it lives as long as that one decision (Guard.Decide makes one per
// command) and is never shared with the next. See Context.Lookups.
type Lookups struct {
	// The lstat answers: the first len(few) in few, in the order looked
	// up (a command's decision makes about ten; a short list compares
	// lengths first and hashes nothing), the rest in m (see get).
	few       [fewLookups]pathLookup
	nFew      int
	m         map[string]lookup
	names     map[string]map[string]bool // directory → its entries; nil value: unknown
	linkNames map[string][]string        // directory → its entries that are symlinks (see links)
	canon     map[string][2]string       // working directory → cleaned, canonical (see pathIndex.cwdForms)
	// tmp is os.TempDir() when tmpRead: the environment is read once
	// for the command (see tempDir).
	tmp     string
	tmpRead bool
	// linkFree holds the paths a probe found to exist with no symlink
	// on their way (see probe): true for the directories on the way,
	// which resolveIn walks through without looking each up; false for
	// the path probed itself (of any type), which ends a walk that needs
	// no status without a lookup. noProbe: probing gave no answer
	// (ENOSYS, EPERM): the walk looks up every component.
	linkFree map[string]bool
	noProbe  bool
	// evals holds evalSymlinks's answers.
	evals map[string]evalAnswer
	// absent holds the paths a probe found missing (ENOENT) or below a
	// file that is no directory (ENOTDIR) with no symlink on their way.
	absent map[string]error
}

// evalAnswer is one answer of filepath.EvalSymlinks.
type evalAnswer struct {
	path string
	err  error
}

// evalSymlinks is filepath.EvalSymlinks with its answers kept for the
// decision (a walker's directory that is not there was resolved again
// for each directory a cd may lead to and each segment: 6 % of deciding
// a command). A nil Lookups keeps nothing.
func (lk *Lookups) evalSymlinks(p string) (string, error) {
	if lk == nil {
		return filepath.EvalSymlinks(p)
	}
	if a, ok := lk.evals[p]; ok {
		return a.path, a.err
	}
	if lk.deadEnd(p) != "" || lk.missing(p) {
		// The kernel resolves the same prefix, following the same
		// links: a path below one that does not exist, or below a file
		// that is no directory, or one that does not exist, resolves
		// to nothing (a walker's directory in a workspace that is not
		// there, resolved for each segment: 4 % of deciding).
		return "", &os.PathError{Op: "lstat", Path: p, Err: syscall.ENOENT}
	}
	r, err := filepath.EvalSymlinks(p)
	if lk.evals == nil {
		lk.evals = map[string]evalAnswer{}
	}
	lk.evals[p] = evalAnswer{r, err}
	return r, err
}

// tempDir returns os.TempDir(), read from the environment once for the
// command's lookups (each of its segments asks, several times); a nil lk
// reads it every time.
func (lk *Lookups) tempDir() string {
	if lk == nil {
		return os.TempDir()
	}
	if !lk.tmpRead {
		lk.tmp, lk.tmpRead = os.TempDir(), true
	}
	return lk.tmp
}

type lookup struct {
	fi  os.FileInfo
	err error
}

// fewLookups is how many lstat answers Lookups keeps in its own array
// before it makes a map for more.
const fewLookups = 16

// pathLookup is one lstat answer kept in Lookups.few.
type pathLookup struct {
	p string
	lookup
}

// get returns the lstat answer remembered for p.
func (lk *Lookups) get(p string) (lookup, bool) {
	for i := range lk.nFew {
		if lk.few[i].p == p {
			return lk.few[i].lookup, true
		}
	}
	if lk.m != nil {
		r, ok := lk.m[p]
		return r, ok
	}
	return lookup{}, false
}

// each calls f with every lstat answer remembered (for tests).
func (lk *Lookups) each(f func(p string, r lookup)) {
	for i := range lk.nFew {
		f(lk.few[i].p, lk.few[i].lookup)
	}
	for p, r := range lk.m {
		f(p, r)
	}
}

// NewLookups returns an empty Lookups. Its tables are made when first
// written: a command whose paths are all answered by probes, or that
// names none, makes no lstat table.
func NewLookups() *Lookups { return &Lookups{} }

// remember records the lstat answer for p.
func (lk *Lookups) remember(p string, fi os.FileInfo, err error) {
	for i := range lk.nFew {
		if lk.few[i].p == p {
			lk.few[i].lookup = lookup{fi, err}
			return
		}
	}
	if lk.nFew < len(lk.few) {
		lk.few[lk.nFew] = pathLookup{p, lookup{fi, err}}
		lk.nFew++
		return
	}
	if lk.m == nil {
		lk.m = make(map[string]lookup, 8)
	}
	lk.m[p] = lookup{fi, err}
}

// maxListed is the most entries a directory may have for has to list it
// (one getdents call reads a few hundred); a bigger one is looked up name
// by name.
const maxListed = 2048

// has reports whether directory dir (canonical) may have an entry name:
// false only when dir was listed (or cannot be read at all, which lstat
// below it would find too) and name is not among its entries. It lets a
// command's plain words (`git status`, `npm run build`) be told from file
// names with one directory read instead of one lstat each.
func (lk *Lookups) has(dir, name string) bool {
	if lk == nil {
		return true
	}
	names, ok := lk.names[dir]
	if !ok {
		if lk.noEntries(dir) || lk.deadEnd(dir) != "" {
			names = noNames
		} else {
			names = listNames(dir)
		}
		if lk.names == nil {
			lk.names = make(map[string]map[string]bool, 2)
		}
		lk.names[dir] = names
	}
	return names == nil || names[name]
}

// listed returns the entries of directory dir, nil when unknown (see has).
func (lk *Lookups) listed(dir string) map[string]bool {
	if lk == nil {
		return listNames(dir)
	}
	lk.has(dir, "")
	return lk.names[dir]
}

// noNames is the listing of a directory that does not exist, shared by
// all (one map less per missing directory a command names): no one
// writes to a listing (TestNoNamesStaysEmpty).
var noNames = map[string]bool{}

// listNames returns the entries of dir, an empty set when dir does not
// exist or is not a directory, and nil (unknown) when it cannot be listed
// or has more than maxListed entries.
func listNames(dir string) map[string]bool {
	list, err := dirNames(dir, maxListed+1)
	if err != nil {
		if os.IsNotExist(err) || errors.Is(err, syscall.ENOTDIR) {
			return noNames
		}
		return nil
	}
	if len(list) > maxListed {
		return nil
	}
	names := make(map[string]bool, len(list))
	for _, n := range list {
		names[n] = true
	}
	return names
}

// lstat is lstat(p), remembered; a nil lk looks every path up.
func (lk *Lookups) lstat(p string) (os.FileInfo, error) {
	if lk == nil {
		return lstat(p)
	}
	if r, ok := lk.get(p); ok {
		return r.fi, r.err
	}
	var fi os.FileInfo
	var err error
	if d := lk.deadEnd(p); d != "" {
		// What the system call would answer: the kernel walks the path
		// from the start, and below a missing file nothing exists,
		// below a file that is no directory nothing can.
		err = syscall.ENOENT
		if r, _ := lk.get(d); r.err == nil || r.err == syscall.ENOTDIR {
			err = syscall.ENOTDIR
		}
	} else {
		fi, err = lstat(p)
	}
	lk.remember(p, fi, err)
	return fi, err
}

// probe answers, with one system call instead of one lstat per
// component, where resolveIn's walk of next + "/" + rest leads: next is
// the walk's next component (its parent canonical) and rest the
// components after it, which must be plain names (not "", "." or "..");
// full is next + "/" + rest when the caller has that string at hand, else
// "" (probe joins them only when it needs the path).
// It is made only for min components or more (see probeMin), when next
// has not been looked up and lies below no dead end (those answers cost
// no call).
//
// With missing, the path has no symlink up to a component that does not
// exist or is no directory (the kernel, resolving without following
// symlinks, stops at the first symlink with ELOOP before any later
// component): full is the path, clean, as the walk would return it, and
// lk records full's lstat answer (ENOENT or ENOTDIR, what lstat of it
// gives); a later path below full is answered from that without a call.
// Without missing, when the path exists with no symlink on its way, next
// and the components after it are recorded in linkFree (the walk steps
// through them, and looks up the last only for its status); otherwise (a symlink on
// the way, or no answer: one call more than the walk) the walk looks up
// each component.
//
// What probe records holds for the command's lookups like what lstat
// records: the file system as it was at the call.
func (lk *Lookups) probe(next, rest, full string, min int) (string, bool) {
	if lk == nil || lk.noProbe || strings.Count(rest, "/")+2 < min || !plainNames(rest) {
		return "", false
	}
	if _, ok := lk.get(next); ok {
		return "", false
	}
	if _, ok := lk.linkFree[next]; ok || lk.deadEnd(next) != "" {
		return "", false
	}
	if full == "" {
		full = next + "/" + rest
	}
	for i := len(next); i <= len(full); i++ {
		if i < len(full) && full[i] != '/' {
			continue
		}
		if err, ok := lk.absent[full[:i]]; ok {
			// Below a path a probe found missing (or no directory)
			// with no symlink on the way: the kernel's walk stops at
			// the same component.
			lk.remember(full, nil, err)
			return full, true
		}
	}
	switch err := probeNoLinks(full); err {
	case nil:
		if lk.linkFree == nil {
			lk.linkFree = make(map[string]bool, 4)
		}
		for i := len(next); i < len(full); i++ {
			if full[i] == '/' {
				lk.linkFree[full[:i]] = true
			}
		}
		if _, ok := lk.linkFree[full]; !ok {
			lk.linkFree[full] = false
		}
		return "", false
	case syscall.ENOENT, syscall.ENOTDIR:
		lk.remember(full, nil, err)
		if lk.absent == nil {
			lk.absent = make(map[string]error, 4)
		}
		lk.absent[full] = err
		return full, true
	case syscall.ENOSYS, syscall.EPERM:
		lk.noProbe = true
	}
	return "", false
}

// probeMin and probeMinNew are the fewest components not yet looked up
// that a probe answers for (see Lookups.probe) when the walk returns the
// last component's status: a path that exists then costs it three calls
// (openat2, close, and lstat of the last component) against one lstat per
// component, a missing one a single call against one per component up to
// the missing one. From three components it never costs more than the
// walk; from two for the target of a write, usually a file not yet there
// (`> out.txt`, `pwd -P >| /tmp/claude-…-cwd`). A walk that needs no
// status (a canonical path alone: the working directory, a link target,
// an argument no walker descends) probes from two components, where an
// existing path costs two calls and a missing one one.
const (
	probeMin    = 3
	probeMinNew = 2
)

// plainNames reports that rest is one or more components separated by
// single slashes, none of them "." or "..".
func plainNames(rest string) bool {
	for {
		c, r, more := strings.Cut(rest, "/")
		if c == "" || c == "." || c == ".." {
			return false
		}
		if !more {
			return true
		}
		rest = r
	}
}

// deadEnd returns the longest proper prefix of p ending before a '/'
// that lk found can have no entries (see noEntries), or "".
func (lk *Lookups) deadEnd(p string) string {
	for i := strings.LastIndexByte(p, '/'); i > 0; i = strings.LastIndexByte(p[:i], '/') {
		if lk.noEntries(p[:i]) {
			return p[:i]
		}
	}
	return ""
}

// missing reports that p was looked up in lk and does not exist.
func (lk *Lookups) missing(p string) bool {
	r, ok := lk.get(p)
	return ok && r.err == syscall.ENOENT
}

// noEntries reports that dir was looked up in lk and can have no entries:
// it does not exist (ENOENT or ENOTDIR), or it is a file that is neither
// a directory nor a symlink (which may lead to one).
func (lk *Lookups) noEntries(dir string) bool {
	r, ok := lk.get(dir)
	switch {
	case !ok:
		return false
	case r.err != nil:
		return r.err == syscall.ENOENT || r.err == syscall.ENOTDIR
	}
	return !r.fi.IsDir() && r.fi.Mode()&os.ModeSymlink == 0
}

// links returns the names of the entries of directory dir that are
// symbolic links (fsview.ReadDir gives every entry's type), listed once per
// lk; none when dir cannot be listed.
func (lk *Lookups) links(dir string) []string {
	if lk != nil {
		if l, ok := lk.linkNames[dir]; ok {
			return l
		}
	}
	var out []string
	if entries, err := fsview.ReadDir(dir); err == nil {
		for _, e := range entries {
			if e.Type()&os.ModeSymlink != 0 {
				out = append(out, e.Name())
			}
		}
	}
	if lk != nil {
		if lk.linkNames == nil {
			lk.linkNames = map[string][]string{}
		}
		lk.linkNames[dir] = out
	}
	return out
}
