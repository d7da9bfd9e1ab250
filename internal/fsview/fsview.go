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
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// View is what one process has seen of the file system. Its methods are
// safe for concurrent use.
type View struct {
	mu       sync.Mutex
	listed   map[string]listing
	resolved map[string]string // clean absolute path → canonical; "" when missing
	// looked holds what lookup found for a name looked up with lstat:
	// canonical path → its type, or why it has none, so that Unknown
	// does not look again.
	looked map[string]lookedUp
}

type lookedUp struct {
	mode os.FileMode
	err  error
}

type listing struct {
	entries []os.DirEntry
	err     error
}

// New returns an empty View.
func New() *View {
	return &View{listed: make(map[string]listing, 16), resolved: make(map[string]string, 32), looked: make(map[string]lookedUp, 32)}
}

// Entries returns the entries of directory dir (canonical), in directory
// order, listed once: opened with O_DIRECTORY and read with getdents,
// without the status calls os.Open makes for a file it might poll.
func (v *View) Entries(dir string) ([]os.DirEntry, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.entries(dir)
}

// EntriesFD is Entries for a directory the caller has open for reading
// as fd: listed through fd (see ReadDirFD) when not listed before.
func (v *View) EntriesFD(dir string, fd int) ([]os.DirEntry, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if l, ok := v.listed[dir]; ok {
		return l.entries, l.err
	}
	var l listing
	l.entries, l.err = ReadDirFD(fd, dir)
	v.listed[dir] = l
	return l.entries, l.err
}

func (v *View) entries(dir string) ([]os.DirEntry, error) {
	if l, ok := v.listed[dir]; ok {
		return l.entries, l.err
	}
	var l listing
	l.entries, l.err = ReadDir(dir)
	v.listed[dir] = l
	return l.entries, l.err
}

// ReadDir returns the entries of directory dir (following a link to it),
// in directory order, unremembered: opened with O_DIRECTORY, O_NONBLOCK
// and O_CLOEXEC and read with getdents — none of the status calls os.Open
// makes for a file it might poll, and a FIFO or device put where a
// directory was is refused, never waited on. Errors are *os.PathError.
func ReadDir(dir string) ([]os.DirEntry, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	return ReadDirFD(fd, dir)
}

// ReadDirFD returns the entries of the directory open as fd (for reading),
// named dir in errors and in the entries' Info, in directory order:
// getdents(2) straight into a buffer, without the fcntl(2) and status
// calls of os.NewFile and os.File.ReadDir. An entry whose type the file
// system does not give (DT_UNKNOWN) is looked up with fstatat(2)
// relative to fd, without following a link; one gone meanwhile is left
// out. fd stays open. Errors are *os.PathError.
func ReadDirFD(fd int, dir string) ([]os.DirEntry, error) {
	bp := dirBufs.Get().(*[8 << 10]byte)
	defer dirBufs.Put(bp)
	ents, err := readDirFD(fd, dir, bp[:])
	// One allocation for the entries and one for the list, not one for
	// each entry.
	out := make([]os.DirEntry, len(ents))
	for i := range ents {
		out[i] = &ents[i]
	}
	return out, err
}

// dirBufs holds the buffers ReadDirFD reads into: reused, since on a
// virtual machine the first touch of a fresh page costs about as much
// as a system call.
var dirBufs = sync.Pool{New: func() any { return new([8 << 10]byte) }}

// readDirFD is ReadDirFD reading through buf.
func readDirFD(fd int, dir string, buf []byte) ([]dirEntry, error) {
	var out []dirEntry
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return out, &os.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64: d_ino u64, d_off s64, d_reclen
			// u16, d_type u8, d_name NUL-terminated.
			reclen := int(binary.NativeEndian.Uint16(b[16:]))
			if reclen < 19 || reclen > len(b) {
				return out, &os.PathError{Op: "readdirent", Path: dir, Err: syscall.EIO}
			}
			ino := binary.NativeEndian.Uint64(b)
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			typ := b[18]
			b = b[reclen:]
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			e := dirEntry{dir: dir, name: string(name)}
			switch typ {
			case unix.DT_DIR:
				e.typ = fs.ModeDir
			case unix.DT_LNK:
				e.typ = fs.ModeSymlink
			case unix.DT_REG:
			case unix.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case unix.DT_SOCK:
				e.typ = fs.ModeSocket
			case unix.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case unix.DT_BLK:
				e.typ = fs.ModeDevice
			default:
				var st unix.Stat_t
				if err := unix.Fstatat(fd, e.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					if err == unix.ENOENT {
						continue
					}
					return out, &os.PathError{Op: "lstat", Path: filepath.Join(dir, e.name), Err: err}
				}
				e.typ = typeOf(st.Mode)
			}
			out = append(out, e)
		}
	}
}

// typeOf returns the type bits of a stat(2) mode as an fs.FileMode.
func typeOf(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}

// dirEntry is an entry ReadDirFD found: its name and type; Info looks it
// up (lstat(2)) when asked.
type dirEntry struct {
	dir, name string
	typ       fs.FileMode
}

func (e *dirEntry) Name() string               { return e.name }
func (e *dirEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode          { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(e.dir, e.name)) }
func (e *dirEntry) String() string             { return fs.FormatDirEntry(e) }

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
		mode, err := v.lookup(dir, filepath.Base(p))
		switch {
		case err != nil:
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

// Unknown returns the deepest directory on the way to absolute path p
// (canonical) that exists but in which p's next component could not be
// looked up for a reason other than its absence — a directory that may
// not be searched (mode 000 as a user other than root), also past a
// link — and "" when every lookup on the way found its component or found
// it missing (a loop of links is missing, as for filepath.EvalSymlinks).
// Whoever must not let p be read treats that directory as holding p.
func (v *View) Unknown(p string) string {
	if !filepath.IsAbs(p) {
		return ""
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.unknown(filepath.Clean(p), 0)
}

// maxLinks bounds the links unknown follows, as the kernel's ELOOP does.
const maxLinks = 40

func (v *View) unknown(p string, links int) string {
	var up []string
	for d := p; d != "/"; d = filepath.Dir(d) {
		up = append(up, d)
	}
	for i := len(up) - 1; i >= 0; i-- {
		if _, ok := v.resolve(up[i]); ok {
			continue
		}
		dir, ok := v.resolve(filepath.Dir(up[i]))
		if !ok {
			return ""
		}
		mode, err := v.lookup(dir, filepath.Base(up[i]))
		switch {
		case err != nil && !os.IsNotExist(err) && !errors.Is(err, syscall.ENOTDIR):
			return dir
		case err == nil && mode&os.ModeSymlink != 0:
			// A link filepath.EvalSymlinks could not follow: what
			// stopped it, on the way to the rest of p through it (a
			// loop of links stops everyone, and is missing).
			t, err := os.Readlink(filepath.Join(dir, filepath.Base(up[i])))
			if err != nil || links >= maxLinks {
				return ""
			}
			if !filepath.IsAbs(t) {
				t = filepath.Join(dir, t)
			}
			if rest, _ := filepath.Rel(up[i], p); rest != "." {
				t = filepath.Join(t, rest)
			}
			return v.unknown(filepath.Clean(t), links+1)
		}
		return ""
	}
	return ""
}

// lookup returns the type of entry name of directory dir (canonical), or
// why it has none: from dir's listing when there is one (fs.ErrNotExist
// when name is not in it), else from lstat, once per name (Resolve and
// Unknown look up the same names).
func (v *View) lookup(dir, name string) (os.FileMode, error) {
	if l, ok := v.listed[dir]; ok && l.err == nil {
		for _, e := range l.entries {
			if e.Name() == name {
				return e.Type(), nil
			}
		}
		return 0, fs.ErrNotExist
	}
	p := filepath.Join(dir, name)
	if l, ok := v.looked[p]; ok {
		return l.mode, l.err
	}
	var l lookedUp
	if fi, err := os.Lstat(p); err != nil {
		l.err = err
	} else {
		l.mode = fi.Mode()
	}
	v.looked[p] = l
	return l.mode, l.err
}
