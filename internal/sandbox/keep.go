package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/guardsh/guardsh/internal/fsview"
	"golang.org/x/sys/unix"
)

// maxKept is the largest file Keep saves a copy of, in bytes: config and
// settings files are far smaller.
const maxKept = 64 << 10

// Kept is the state of protected paths inside a writable directory before
// a jailed command runs. Landlock grants rights on whole directory
// hierarchies, so a jail that may write the workspace may write the
// protected files inside it too (.git/config, .git/hooks, agent and editor
// settings); Kept lets guardsh undo that afterwards.
type Kept struct {
	files map[string]keptFile
	dirs  map[string][]string // directory → names of its entries
	// ids holds the identity of every directory on the way to a kept path
	// (its ancestors up to /, and the kept directories themselves):
	// Restore touches nothing beneath a directory that is no longer the
	// same directory, since a jailed command may have replaced it with a
	// symbolic link to anywhere, and guardsh, outside the jail, would
	// follow it.
	ids map[string]dirID
	// others holds the identity of what was on the way to a kept path but
	// no directory: a link (.git/hooks made a link to a directory of
	// hooks kept with the project, say) must still be that very link.
	others map[string]other
	// modes holds the permission bits of those directories that lie in
	// root: a jailed command that took the write bit from .git or
	// .git/hooks (chmod 555) kept the put-back from undoing its change
	// there (an attack run's find, as a user other than root).
	modes map[string]fs.FileMode
	// copied is the bytes of file contents kept so far.
	copied int
	// taken is when Keep began.
	taken time.Time
	// overflow is the first kept directory an entry of which was past
	// MaxKeptEntries, "" for none (see Overflow).
	overflow string
	// root is the directory Restore changes nothing outside of (the
	// workspace): it works through an os.Root of it, so no link, however
	// placed or swapped in meanwhile, leads a removal or a write out.
	root string
}

// Taken returns when the record began: a change another process made to
// a protected path after it is put back by Restore too.
func (k *Kept) Taken() time.Time { return k.taken }

// Overflow returns the first kept directory holding an entry past the
// MaxKeptEntries Keep records, "" when it recorded them all: a change to
// such an entry would not be put back (attack run 77: a vendored tree
// of 4,200 files under a write deny rule hid a change to the
// core.hooksPath hook after it), so a caller runs no jailed command
// with such a record.
func (k *Kept) Overflow() string {
	if k == nil {
		return ""
	}
	return k.overflow
}

// dirID identifies a directory: device and inode, as lstat(2) gives them.
type dirID struct{ dev, ino uint64 }

// other identifies what is no directory: its device and inode, and for a
// symbolic link what it says (an inode freed by removing a link is often
// the next link's).
type other struct {
	id   dirID
	link string
}

// otherOf returns what p is now as an other.
func otherOf(p string, id dirID) other {
	t, _ := os.Readlink(p)
	return other{id: id, link: t}
}

// idOf returns p's identity, ok false when p is not a directory itself
// (missing, a file, or a symbolic link).
func idOf(p string) (dirID, bool) {
	id, ok, _, _ := lookupDir(p)
	return id, ok
}

// lookupDir is idOf, also saying whether p exists at all, and whether it
// is missing for sure (ENOENT, or a file on the way: ENOTDIR) rather
// than not looked up (EACCES …): one lstat(2). id is p's identity
// whatever p is (a link's own, not its target's).
func lookupDir(p string) (id dirID, ok, exists, missing bool) {
	info, err := os.Lstat(p)
	if err != nil {
		return dirID{}, false, false, errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
	}
	st, isStat := info.Sys().(*syscall.Stat_t)
	if !isStat {
		return dirID{}, false, true, false
	}
	return dirID{uint64(st.Dev), uint64(st.Ino)}, info.IsDir(), true, false
}

// note records the identity of d and of its ancestors.
func (k *Kept) note(d string) {
	for {
		if _, seen := k.ids[d]; seen {
			return
		}
		var id dirID // missing: must stay so
		if info, err := os.Lstat(d); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				switch {
				case info.IsDir():
					id = dirID{uint64(st.Dev), uint64(st.Ino)}
					if within(d, k.root) {
						k.modes[d] = info.Mode().Perm()
					}
				default:
					k.others[d] = otherOf(d, dirID{uint64(st.Dev), uint64(st.Ino)})
				}
			}
		}
		k.ids[d] = id
		parent := filepath.Dir(d)
		if parent == d {
			return
		}
		d = parent
	}
}

// replaced returns the first directory on the way to p (its ancestors,
// and p itself when isDir), from /, that is no longer what Keep saw, or
// "". now holds what this Restore has already looked up and judged, so
// that each directory is looked at and judged once.
func (k *Kept) replaced(p string, isDir bool, now *restoreView) string {
	d := filepath.Dir(p)
	if isDir {
		d = p
	}
	return k.replacedDir(d, now)
}

// restoreView is what one Restore found of the directories on the way to
// the kept paths: ids as looked up (see idNow), and judged, for each
// directory, the first one on its way that was replaced ("" for none).
type restoreView struct {
	ids    map[string]idNow
	judged map[string]string
}

// replacedDir is replaced for directory d.
func (k *Kept) replacedDir(d string, now *restoreView) string {
	if first, ok := now.judged[d]; ok {
		return first
	}
	first := ""
	if parent := filepath.Dir(d); parent != d {
		first = k.replacedDir(parent, now)
	}
	if first == "" && k.differs(d, now.ids) {
		first = d
	}
	now.judged[d] = first
	return first
}

// differs reports whether directory d, which Keep saw on the way to a
// kept path, is no longer what Keep saw (looked up once, into now); a
// directory Keep did not see does not differ.
func (k *Kept) differs(d string, now map[string]idNow) bool {
	was, known := k.ids[d]
	if !known {
		return false
	}
	n, seen := now[d]
	if !seen {
		n.id, n.dir, n.exists, n.missing = lookupDir(d)
		now[d] = n
	}
	if was, ok := k.others[d]; ok {
		// It was a link (or a file): it must be that very one.
		return !n.exists || n.dir || otherOf(d, n.id) != was
	}
	if was == (dirID{}) {
		// It was missing: a real directory made in the jail is walked
		// (and what it holds removed); a file or a link is not.
		return n.exists && !n.dir
	}
	return !n.dir || n.id != was
}

// linkTampered marks as tampered (bad) the link on the way to p, if one
// was there at Keep, when a change beneath it could not be put back: a
// .git/hooks that links out of the workspace (where guardsh's put-back
// does not reach) to a directory the jail wrote is moved aside rather
// than left holding a planted hook.
func (k *Kept) linkTampered(p string, bad map[string]bool) {
	for d := filepath.Dir(p); d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, ok := k.others[d]; ok && within(d, k.root) {
			bad[d] = true
			return
		}
	}
}

// idNow is a directory on the way to a kept path as Restore finds it.
type idNow struct {
	id                   dirID
	dir, exists, missing bool
}

type keptFile struct {
	exists bool
	mode   fs.FileMode
	size   int64
	mtime  int64
	// ctime is the inode's change time: no call sets it back, so a write
	// that restores size and modification time still shows (an attack
	// run edited .git/config in place and put its mtime back).
	ctime int64
	// dev and ino tell a file renamed into place from the one kept.
	dev, ino uint64
	data     []byte // nil when larger than maxKept
	// link is what a symbolic link says ("" for anything else): a link
	// on the way to a protected file outside the workspace (a dotfiles
	// repository's gitconfig linking on to its real place) is put back
	// as the link it was.
	link string
}

// coarseTime is how close to Keep a file's change time may be for its
// time stamps to prove nothing: kernels before 6.13 (and file systems
// without multigrain time stamps) stamp changes with a clock that ticks
// every 1–10 ms (CONFIG_HZ 1000–100), so a file changed in the tick before
// Keep (a put-back by the previous guardsh, say) and changed again, same
// size, in the same tick by the jailed command, keeps its change time.
// Such a file is compared by its contents. 50 ms is five of the slowest
// ticks.
const coarseTime = 50 * time.Millisecond

// same reports whether a file Keep recorded as was is unchanged now: the
// same metadata, and, when was changed too close to taken for its change
// time to tell (see coarseTime), the same contents (read by contents,
// called only then). A file whose contents were not kept, so changed that
// recently, counts as changed.
func same(was, now keptFile, taken time.Time, contents func() ([]byte, error)) bool {
	if now.exists != was.exists || now.mode != was.mode || now.size != was.size || now.mtime != was.mtime || now.ctime != was.ctime || now.dev != was.dev || now.ino != was.ino {
		return false
	}
	if !was.exists || !was.mode.IsRegular() || taken.UnixNano()-was.ctime > int64(coarseTime) {
		return true
	}
	if was.data == nil {
		return false
	}
	b, err := contents()
	return err == nil && bytes.Equal(b, was.data)
}

// rewrittenAsWas reports whether a kept regular file that is no longer
// the same file (see same) holds what it held, as a plain file again: a
// regular file now (not a link), of the same permission bits and size,
// with one name only (a second name — a hard link the jail made to a file
// of the workspace — would let a later unjailed write change it), and the
// same contents (read by contents). Its contents must have been kept.
func rewrittenAsWas(was, now keptFile, info fs.FileInfo, contents func() ([]byte, error)) bool {
	if !was.exists || !was.mode.IsRegular() || was.data == nil || !now.exists || now.mode != was.mode || now.size != was.size || info == nil {
		return false
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Nlink != 1 {
		return false
	}
	b, err := contents()
	return err == nil && bytes.Equal(b, was.data)
}

// Keep records the protected paths: each file's metadata and contents
// (up to maxKept bytes), and for each directory the names of its entries
// and their files. Paths that do not exist are recorded as absent. Restore
// changes nothing outside root (the workspace): a path outside it is only
// reported.
func Keep(root string, files, dirs []string) *Kept {
	k := &Kept{files: map[string]keptFile{}, dirs: map[string][]string{}, ids: map[string]dirID{},
		modes: map[string]fs.FileMode{}, others: map[string]other{}, taken: time.Now(), root: root}
	for _, f := range files {
		k.note(filepath.Dir(f))
	}
	listed := keptIn(files, k.ids)
	for _, f := range files {
		d := filepath.Dir(f)
		if _, other := k.others[d]; k.ids[d] == (dirID{}) && !other {
			// Its directory is missing (or may not be searched): so is
			// f, without another lstat (most of the agents' settings
			// directories are missing in most workspaces).
			k.files[f] = keptFile{}
			continue
		}
		if listedMissing(listed, f) {
			k.files[f] = keptFile{} // missing from its directory's listing
			continue
		}
		k.files[f] = k.keepFile(f)
	}
	budget := MaxKeptEntries
	for _, d := range dirs {
		k.keepDir(d, &budget)
	}
	return k
}

// maxListedSize bounds the directories Keep and Restore list to tell
// which kept files are missing, by their size in bytes as stat(2) gives
// it (ext4: 4 KiB per block of entries; tmpfs: 20 bytes per entry):
// beyond it, one lstat(2) per kept file costs less than the listing.
const maxListedSize = 32 << 10

// keptIn returns, for each directory holding more than listAbove of
// paths (a workspace's root holds some forty agent and hook settings
// files, most of them missing), the names it now holds: one listing
// instead of one lstat(2) per path. A directory is listed only when it
// is the directory ids has for it (opened without following a link, the
// identity compared), and small enough (maxListedSize); else it is left
// out and its paths are looked up one by one.
func keptIn(paths []string, ids map[string]dirID) map[string]map[string]bool {
	perDir := map[string]int{}
	for _, p := range paths {
		perDir[filepath.Dir(p)]++
	}
	var out map[string]map[string]bool
	for d, n := range perDir {
		id, ok := ids[d]
		if n <= listAbove || !ok || id == (dirID{}) {
			continue
		}
		if names, ok := listNames(d, id); ok {
			if out == nil {
				out = map[string]map[string]bool{}
			}
			out[d] = names
		}
	}
	return out
}

// listNames returns the names directory d holds, each as nameKey has it,
// ok false when d is not the directory id now (or a link), is larger than
// maxListedSize, cannot be listed, or holds a name that is not plain
// ASCII. A kept path counts as missing only when its key is not among
// them: on a case-insensitive file system (ext4's casefold, vfat, a
// macOS or Windows share), .MCP.json is the .mcp.json a lookup finds (an
// attack run planted it so, and a byte-for-byte listing let it stay);
// Unicode folding (the Kelvin sign is a k there) and normalization are
// left to a lookup per path.
func listNames(d string, id dirID) (map[string]bool, bool) {
	fd, err := unix.Open(d, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || (dirID{uint64(st.Dev), st.Ino}) != id || st.Size > maxListedSize {
		return nil, false
	}
	ents, err := fsview.ReadDirFD(fd, d)
	if err != nil {
		return nil, false
	}
	names := make(map[string]bool, len(ents))
	for _, e := range ents {
		k, ok := nameKey(e.Name())
		if !ok {
			return nil, false
		}
		names[k] = true
	}
	return names, true
}

// nameKey is what a name in a directory listing is compared by: ASCII
// letters folded to lower case and trailing dots and spaces left out
// (which Windows file systems and shares drop from a name); ok is false
// for a name that is not plain ASCII.
func nameKey(name string) (key string, ok bool) {
	for i := range len(name) {
		if name[i] >= 0x80 {
			return "", false
		}
	}
	return strings.ToLower(strings.TrimRight(name, ". ")), true
}

// listedMissing reports whether a listing (see keptIn) of p's directory
// proves p missing.
func listedMissing(listed map[string]map[string]bool, p string) bool {
	names, ok := listed[filepath.Dir(p)]
	if !ok {
		return false
	}
	k, ascii := nameKey(filepath.Base(p))
	return ascii && !names[k]
}

// MaxKeptEntries bounds the entries Keep records below the kept
// directories (hooks and settings directories hold a few; a write-deny
// rule may name a big tree): past it, the record says so (Overflow).
const MaxKeptEntries = 4096

// keepDir records directory d: its entries, their files, and its
// subdirectories the same way (an attack run changed a file one level
// down a write-denied directory, which was not put back), within budget
// entries in all. Links are recorded as links, never followed.
func (k *Kept) keepDir(d string, budget *int) {
	k.note(d)
	k.dirs[d] = []string{} // a missing directory: every entry made later is new
	if _, other := k.others[d]; k.ids[d] == (dirID{}) && !other {
		return // missing, as note's lstat found (or beyond reach, as a listing would be)
	}
	ents, err := fsview.ReadDir(d)
	if err != nil {
		return
	}
	for _, e := range ents {
		k.dirs[d] = append(k.dirs[d], e.Name())
		if strings.HasSuffix(e.Name(), ".sample") {
			continue // git's examples, which git never runs
		}
		if *budget--; *budget < 0 {
			if k.overflow == "" {
				k.overflow = d
			}
			continue
		}
		p := filepath.Join(d, e.Name())
		k.files[p] = k.keepFile(p)
		if e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
			k.keepDir(p, budget)
		}
	}
}

// maxKeptTotal bounds the bytes Keep copies in all, in bytes: past it a
// changed file is reported as not restored.
const maxKeptTotal = 8 << 20

// keepFile records p with its contents, within maxKept and what is left of
// maxKeptTotal.
func (k *Kept) keepFile(p string) keptFile {
	kf := keepFile(p)
	if kf.data != nil {
		if k.copied+len(kf.data) > maxKeptTotal {
			kf.data = nil
		} else {
			k.copied += len(kf.data)
		}
	}
	return kf
}

func keepFile(p string) keptFile {
	kf, info := statFile(p)
	switch {
	case kf.exists && info.Mode().IsRegular() && info.Size() <= maxKept:
		kf.data, _ = readRegular(p)
	case kf.exists && info.Mode()&fs.ModeSymlink != 0:
		kf.link, _ = os.Readlink(p)
	}
	return kf
}

// readRegular reads p if it is a regular file (not through a link),
// without blocking on a FIFO swapped in since it was looked at.
func readRegular(p string) ([]byte, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: p, Err: err}
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, &os.PathError{Op: "read", Path: p, Err: syscall.EINVAL}
	}
	return io.ReadAll(f)
}

// walkNoLinks opens directory p (absolute, canonical) with O_PATH by a
// walk from / that follows no symbolic link: a link anywhere on the way
// is an error (ELOOP), as is anything but a directory. The kernel walks
// (openat2(2) with RESOLVE_NO_SYMLINKS, one call); where it has no
// openat2 (before Linux 5.6, or a filter refuses it), guardsh walks,
// one openat(2) per component (see walkComponents).
func walkNoLinks(p string) (int, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	switch {
	case err == nil:
		return fd, nil
	case err == unix.ENOSYS || err == unix.EPERM:
		return walkComponents(p)
	}
	return -1, &os.PathError{Op: "openat2", Path: p, Err: err}
}

// walkComponents is walkNoLinks by one openat(2) with O_NOFOLLOW per
// component of p, from /.
func walkComponents(p string) (int, error) {
	fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	for _, c := range strings.Split(strings.Trim(p, "/"), "/") {
		if c == "" {
			continue
		}
		next, err := unix.Openat(fd, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, &os.PathError{Op: "open", Path: p, Err: err}
		}
		fd = next
	}
	return fd, nil
}

// statFile returns p's metadata as keepFile records it, without its
// contents: what Restore compares.
func statFile(p string) (keptFile, fs.FileInfo) {
	info, err := os.Lstat(p)
	if err != nil {
		return keptFile{}, nil
	}
	return fromInfo(info), info
}

// fromInfo is what keepFile records of a file's metadata.
func fromInfo(info fs.FileInfo) keptFile {
	kf := keptFile{exists: true, mode: info.Mode(), size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		kf.ctime, kf.dev, kf.ino = st.Ctim.Nano(), uint64(st.Dev), st.Ino
	}
	return kf
}

// Restore puts back what changed since Keep: a new file or entry is
// removed, a changed or removed file whose contents were kept is written
// back with its mode, and a symbolic link is made again as it was. It
// returns the paths that changed, sorted, each followed by
// " (not restored)" when it could not be put back, and the
// directories on the way to a kept path that were replaced (by a symbolic
// link, a file, another directory): beneath those it touches nothing, and
// what they held is not restored.
func (k *Kept) Restore() (changed, tampered []string) {
	// The workspace is reached by a walk that follows no link and must
	// be the directory Keep saw: another jailed command that may write
	// its parent (a workspace nested in another) swapped it for a link
	// to another repository, whose .git the put-back then wrote (an attack
	// run's find).
	fd, err := walkNoLinks(k.root)
	if err != nil {
		return nil, []string{k.root}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if was, known := k.ids[k.root]; unix.Fstat(fd, &st) != nil || known && was != (dirID{uint64(st.Dev), st.Ino}) {
		return nil, []string{k.root}
	}
	r, err := os.OpenRoot(fmt.Sprintf("/proc/self/fd/%d", fd))
	if err != nil {
		// The workspace itself is gone or replaced.
		return nil, []string{k.root}
	}
	defer r.Close()
	in := func(p string) string {
		rel, err := filepath.Rel(k.root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			return "" // outside root: not Restore's to change
		}
		return rel
	}
	bad := map[string]bool{}
	now := &restoreView{ids: map[string]idNow{}, judged: map[string]string{}}
	ids := now.ids
	blocked := func(p string, isDir bool) bool {
		if d := k.replaced(p, isDir, now); d != "" {
			bad[d] = true
			return true
		}
		return false
	}
	// Directories first get back the modes they had, so that what they
	// hold can be put back (and git finds them as they were).
	for d, mode := range k.modes {
		rd := "."
		if d != k.root {
			if rd = in(d); rd == "" {
				continue
			}
		}
		if blocked(d, true) {
			continue
		}
		if info, err := r.Lstat(rd); err == nil && info.IsDir() && info.Mode().Perm() != mode {
			if err := r.Chmod(rd, mode); err != nil {
				changed = append(changed, d+" (mode not restored)")
			} else {
				changed = append(changed, d+" (mode)")
			}
		}
	}
	for d, names := range k.dirs {
		if blocked(d, true) {
			continue
		}
		rd := in(d)
		if rd == "" {
			continue
		}
		if n, seen := ids[d]; seen && n.missing {
			continue // missing (looked up by blocked): nothing in it to remove
		}
		var ents []fs.DirEntry
		// O_DIRECTORY and O_NONBLOCK: a FIFO made where a kept
		// directory was held guardsh before the put-back and the
		// record, forever (an attack run's find).
		if f, err := r.OpenFile(rd, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0); err == nil {
			ents, _ = f.ReadDir(-1)
			f.Close()
		} else {
			// Beyond r's reach (a kept link that leaves the workspace or
			// names its target by an absolute path): what is new there
			// is found, and reported as not put back.
			ents, _ = fsview.ReadDir(d)
		}
		for _, e := range ents {
			if slices.Contains(names, e.Name()) {
				continue
			}
			p := filepath.Join(d, e.Name())
			if err := r.RemoveAll(filepath.Join(rd, e.Name())); err != nil {
				changed = append(changed, p+" (not restored)")
				k.linkTampered(p, bad)
			} else {
				changed = append(changed, p)
			}
		}
	}
	// The kept files that were missing, by directory: those still
	// missing are told by a listing where a directory holds many.
	var missing []string
	for p, was := range k.files {
		if !was.exists {
			missing = append(missing, p)
		}
	}
	listed := keptIn(missing, k.ids)
	for p, was := range k.files {
		if blocked(p, false) {
			continue
		}
		rp := in(p)
		if rp == "" {
			continue
		}
		var now keptFile
		var nowInfo fs.FileInfo
		if !was.exists && listedMissing(listed, p) {
			continue // missing still (its directory is the one Keep saw: blocked, listNames)
		}
		if d, seen := ids[filepath.Dir(p)]; !seen || d.exists {
			// (beneath a directory that is gone, p is gone too) A plain
			// lstat, one system call where r's walk makes one per
			// directory: the directories on the way are those Keep saw
			// (blocked), nothing jailed runs any more to swap them, and
			// a file elsewhere could not match was's device, inode and
			// change time. What is changed goes through r.
			now, nowInfo = statFile(p)
		}
		if same(was, now, k.taken, func() ([]byte, error) { return r.ReadFile(rp) }) {
			continue
		}
		if rewrittenAsWas(was, now, nowInfo, func() ([]byte, error) { return r.ReadFile(rp) }) {
			// Written anew with what it held (git rewrites .git/config
			// through a lock file and a rename on `git branch -d`):
			// nothing to put back, and what the next Restore compares.
			now.data = was.data
			k.files[p] = now
			continue
		}
		if was.mode.IsDir() && now.mode.IsDir() {
			continue // its entries are kept themselves (see keepDir)
		}
		if !was.exists {
			if err := r.RemoveAll(rp); err != nil {
				changed = append(changed, p+" (not restored)")
				k.linkTampered(p, bad)
				continue
			}
		} else if was.data == nil && was.mode.IsRegular() && now.exists && now.mode.IsRegular() {
			// Too big to have been kept (a .git/config of 1,500
			// branches): the changed file is moved aside, so that what
			// was planted in it (a core.fsmonitor) does not apply — an
			// attack run's find; the human puts back what they review.
			to := fmt.Sprintf("%s.guardsh-changed-%d", rp, time.Now().UnixNano())
			if err := r.Rename(rp, to); err != nil {
				changed = append(changed, p+" (not restored)")
				k.linkTampered(p, bad)
			} else {
				changed = append(changed, p+" (too big to keep: moved aside to "+filepath.Base(to)+")")
			}
			continue
		} else if was.mode&fs.ModeSymlink != 0 && was.link != "" {
			if err := restoreLink(r, rp, was.link); err != nil {
				changed = append(changed, p+" (not restored)")
				k.linkTampered(p, bad)
				continue
			}
			now = statIn(r, rp)
			now.link = was.link
			k.files[p] = now
		} else if was.data == nil || !was.mode.IsRegular() || restore(r, rp, was) != nil {
			// Not written back (no room left: the command filled the
			// disk): what was planted is at least moved aside, a rename
			// needing none, so that git does not run it.
			if now.exists && now.mode.IsRegular() {
				to := fmt.Sprintf("%s.guardsh-changed-%d", rp, time.Now().UnixNano())
				if r.Rename(rp, to) == nil {
					changed = append(changed, p+" (could not be written back: moved aside to "+filepath.Base(to)+")")
					continue
				}
			}
			changed = append(changed, p+" (not restored)")
			k.linkTampered(p, bad)
			continue
		} else {
			// Restored: its new time stamp is what the next Restore compares.
			now = statIn(r, rp)
			now.data = was.data
			k.files[p] = now
		}
		changed = append(changed, p)
	}
	for d := range bad {
		tampered = append(tampered, d)
	}
	slices.Sort(changed)
	slices.Sort(tampered)
	return slices.Compact(changed), tampered
}

// restore writes was back at rel in r, replacing whatever is there: into
// a new file of a fresh name made with O_EXCL beside it (a name the jail
// planted as a link cannot be opened through; an attack run had guardsh
// write through such a link), then renamed over it. Every step goes
// through r, so nothing outside r's directory is touched.
func restore(r *os.Root, rel string, was keptFile) error {
	if info, err := r.Lstat(rel); err == nil && !info.Mode().IsRegular() {
		if err := r.RemoveAll(rel); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(rel), fmt.Sprintf(".guardsh-restore-%d-%d", os.Getpid(), time.Now().UnixNano()))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, was.mode.Perm())
	if err != nil {
		return err
	}
	_, err = f.Write(was.data)
	if err == nil {
		err = f.Chmod(was.mode.Perm())
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, rel)
	}
	if err != nil {
		r.Remove(tmp)
	}
	return err
}

// restoreLink makes rel in r the symbolic link to target it was, replacing
// whatever is there: a new link of a fresh name beside it, renamed over
// it (a directory made there is removed first, a rename cannot replace
// one). Every step goes through r.
func restoreLink(r *os.Root, rel, target string) error {
	if info, err := r.Lstat(rel); err == nil && info.IsDir() {
		if err := r.RemoveAll(rel); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(rel), fmt.Sprintf(".guardsh-restore-%d-%d", os.Getpid(), time.Now().UnixNano()))
	if err := r.Symlink(target, tmp); err != nil {
		return err
	}
	if err := r.Rename(tmp, rel); err != nil {
		r.Remove(tmp)
		return err
	}
	return nil
}

// statIn is statFile for rel in r.
func statIn(r *os.Root, rel string) keptFile {
	info, err := r.Lstat(rel)
	if err != nil {
		return keptFile{}
	}
	return fromInfo(info)
}

// Changed words Restore's result for a message: the paths relative to
// dir, joined by ", ".
func Changed(paths []string, dir string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
			p = r
		}
		out[i] = p
	}
	return strings.Join(out, ", ")
}

// Quarantine moves d, a directory on the way to protected paths that a
// jailed command replaced (one of Restore's tampered), aside to a new
// name beside it, d.guardsh-tampered-UNIXTIME[-N], and returns that name:
// a .git turned into a gitfile, or .git/hooks into a link, would
// otherwise hand the next git guardsh lets run unjailed hooks or a config
// of the jail's making. The entry itself is renamed (renameat2 with
// RENAME_NOREPLACE): no link is followed, and its parent is one Restore
// found unchanged. Only a d inside ws (the workspace) is moved, since
// nothing outside it could have been replaced by the jail; errors: d is
// outside ws, or the rename failed.
func Quarantine(d, ws string) (string, error) {
	if ws == "" || d != ws && !strings.HasPrefix(d, ws+"/") {
		return "", fmt.Errorf("sandbox: %s is outside the workspace %s: left as it is", d, ws)
	}
	// The parent is reached by a walk that follows no link: a workspace
	// swapped for a link to another repository (by a jailed command of a
	// workspace around it) had that repository's .git moved aside.
	parent, err := walkNoLinks(filepath.Dir(d))
	if err != nil {
		return "", fmt.Errorf("sandbox: moving %s aside: %w", d, err)
	}
	defer unix.Close(parent)
	base := fmt.Sprintf("%s.guardsh-tampered-%d", d, time.Now().Unix())
	for i := 0; i < 100; i++ {
		to := base
		if i > 0 {
			to = fmt.Sprintf("%s-%d", base, i)
		}
		err = unix.Renameat2(parent, filepath.Base(d), parent, filepath.Base(to), unix.RENAME_NOREPLACE)
		if err == nil {
			return to, nil
		}
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	return "", fmt.Errorf("sandbox: moving %s aside: %w", d, err)
}
