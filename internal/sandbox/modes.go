package sandbox

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/guardsh/guardsh/internal/fsview"
	"golang.org/x/sys/unix"
)

// keptMode is a path's mode and owner as the jail's build found it.
type keptMode struct {
	path     string
	mode     fs.FileMode // permission, setuid, setgid and sticky bits
	dir      bool
	link     bool
	uid, gid uint32
	dev, ino uint64
}

// modeBits are the bits of a mode PutBack looks at.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// keepModes records the mode and owner of each of the hidden paths, of the
// entries of the hidden directories (one level, up to maxKeptModes in all;
// links left out), of the writable directories, and of every directory
// above them up to /; /proc and what lies beneath it are left out.
// Landlock governs no mode or owner change, so a jailed command may chmod
// what it may not read or write (~/.ssh/id_rsa to 0644 for other users to
// read; guardsh's config directory to 0777; the home to 0, so that the
// put-back of the workspace could not reach it) — an attack run's finds.
func keepModes(hidden, write []string) []keptMode {
	var out []keptMode
	seen := map[string]bool{}
	note := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if m, ok := modeOf(p); ok {
			out = append(out, m)
		}
	}
	above := func(p string) {
		for ; ; p = filepath.Dir(p) {
			note(p)
			if p == "/" {
				return
			}
		}
	}
	budget := maxKeptModes
	for _, h := range hidden {
		if within(h, "/proc") {
			continue
		}
		above(h)
		// What a hidden directory holds (~/.ssh's keys), one level.
		if ents, err := fsview.ReadDir(h); err == nil {
			for _, e := range ents {
				if budget--; budget < 0 {
					break
				}
				if e.Type()&fs.ModeSymlink == 0 {
					note(filepath.Join(h, e.Name()))
				}
			}
		}
	}
	for _, w := range write {
		above(w)
	}
	return out
}

// maxKeptModes bounds the entries of hidden directories keepModes records
// (a home's ~/.ssh and ~/.gnupg hold a few each; what lies deeper is
// guarded by the modes of the directories above it).
const maxKeptModes = 512

// modeOf returns p's keptMode (lstat(2)), ok false when p cannot be
// looked up.
func modeOf(p string) (keptMode, bool) { return lstatMode(p) }

// byFD names the file descriptor fd holds, for a call that takes a path
// (chmod(2) has no flag for an O_PATH descriptor): the kernel follows the
// /proc link to that very file, whatever its path now leads to.
func byFD(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

// fstatMode is modeOf through descriptor fd of path p; link reports a
// symbolic link (opened itself, with O_PATH|O_NOFOLLOW).
func fstatMode(fd int, p string) (m keptMode, ok bool) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return keptMode{}, false
	}
	return fromStat(&st, p), true
}

// lstatMode is modeOf by one lstat(2), without the allocations of
// os.Lstat.
func lstatMode(p string) (m keptMode, ok bool) {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil {
		return keptMode{}, false
	}
	return fromStat(&st, p), true
}

// fromStat is the keptMode of path p as st describes it.
func fromStat(st *unix.Stat_t, p string) keptMode {
	mode := fs.FileMode(st.Mode & 0o777)
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return keptMode{path: p, mode: mode, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR, link: st.Mode&unix.S_IFMT == unix.S_IFLNK,
		uid: st.Uid, gid: st.Gid, dev: uint64(st.Dev), ino: st.Ino}
}

// takenBack returns the mode PutBack leaves where the jail's build found
// was and the command left now: every permission, setuid and setgid bit
// the command added is taken away, none it took away is given back, and
// a sticky bit either had stays (it only restricts). A record taken while
// another jailed command had loosened a mode (two commands at once: an
// attack run's find) can so never loosen it again.
func takenBack(was, now fs.FileMode) fs.FileMode {
	keep := fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid
	return now&was&keep | (now|was)&fs.ModeSticky
}

// wanted is the mode PutBack leaves was's path at, now its mode: as
// takenBack has it, and for a Spec.Runnable program its owner's read and
// execute bits as recorded given back (only those: no write, nothing for
// others).
func (j *Jail) wanted(was keptMode, now fs.FileMode) fs.FileMode {
	want := takenBack(was.mode, now)
	if j.runnable[dirID{was.dev, was.ino}] {
		want |= was.mode & 0o500
	}
	return want
}

// PutBack takes away what the command added to the modes of the paths
// keepModes recorded — the hidden paths, what hidden directories hold, the
// writable directories and the directories above them — and gives back
// their owner where one the process owned was given away (as root,
// chown); it never gives back a permission the command took away (see
// takenBack). during, when not nil, runs in between
// (the workspace's put-back, see Kept.Restore): for its time, every
// recorded directory the process owns that the command made unsearchable
// (chmod 0 of the home, so that the workspace could not be reached) is
// searchable by its owner again. It returns what it changed, put ("PATH
// (mode 0644, was 0600)", with " (not restored)" where it failed), and
// what has fewer permissions than the record, less, left so (which
// another jailed command's own put-back may explain). A path that is
// another file now, or missing, is left alone. Call it once the command
// and everything it started have ended (StopLeftovers).
func (j *Jail) PutBack(during func()) (put, less []string) {
	euid := uint32(os.Geteuid())
	// Shallow first: a directory is reached before what it holds.
	recs := slices.SortedFunc(slices.Values(j.modes), func(a, b keptMode) int {
		return cmp.Or(cmp.Compare(strings.Count(a.path, "/"), strings.Count(b.path, "/")), strings.Compare(a.path, b.path))
	})
	// Each path to change is opened once (O_PATH, no link followed) and
	// its file changed through that descriptor: a path looked up again
	// later may lead elsewhere (another jailed command swapped a recorded
	// directory for a link to ~/.ssh while this put-back ran, and the
	// chmod followed it: an attack run's find). A path is first looked
	// at with one lstat(2): one that is the recorded file with nothing to
	// take back or reach (most of them) is not opened at all; the others
	// are opened and looked at again through the descriptor, which
	// decides.
	found := make(map[string]keptMode, len(recs)) // as the command left them
	fds := make(map[string]int, len(recs))
	defer func() {
		bound := heldBound()
		for _, fd := range fds {
			keepOpen(fd, bound)
		}
	}()
	reached := map[string]bool{} // made searchable for the put-back
	for _, was := range recs {
		now, ok := lstatMode(was.path)
		if !ok || now.dev != was.dev || now.ino != was.ino || now.link {
			continue
		}
		unreached := now.dir && now.mode&0o100 == 0 && now.uid == euid && euid != 0
		if !unreached && now.uid == was.uid && now.gid == was.gid && j.wanted(was, now.mode) == now.mode {
			found[was.path] = now // nothing to change
			continue
		}
		fd, err := unix.Open(was.path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		now, ok = fstatMode(fd, was.path)
		if !ok || now.dev != was.dev || now.ino != was.ino || now.link {
			unix.Close(fd)
			continue
		}
		found[was.path], fds[was.path] = now, fd
		if now.dir && now.mode&0o100 == 0 && now.uid == euid && euid != 0 && os.Chmod(byFD(fd), now.mode|0o100) == nil {
			reached[was.path] = true
		}
	}
	if during != nil {
		during()
	}
	// Deepest first: a directory's own mode last, after what it holds.
	for _, was := range slices.Backward(recs) {
		now, ok := found[was.path]
		if !ok {
			continue
		}
		if _, opened := fds[was.path]; !opened {
			// Nothing to take back; less, perhaps.
			if was.mode&^now.mode&fs.ModePerm != 0 {
				less = append(less, fmt.Sprintf("%s (mode %04o, was %04o)", was.path, now.mode.Perm(), was.mode.Perm()))
			}
			continue
		}
		want := j.wanted(was, now.mode)
		what := ""
		var err error
		if now.uid != was.uid || now.gid != was.gid {
			if was.uid == euid {
				what = fmt.Sprintf("%s (owner %d:%d, was %d:%d)", was.path, now.uid, now.gid, was.uid, was.gid)
				err = unix.Fchownat(fds[was.path], "", int(was.uid), int(was.gid), unix.AT_EMPTY_PATH)
			}
		}
		if want != now.mode && what == "" {
			what = fmt.Sprintf("%s (mode %04o, was %04o)", was.path, now.mode.Perm(), was.mode.Perm())
		}
		if was.mode&^want&fs.ModePerm != 0 {
			less = append(less, fmt.Sprintf("%s (mode %04o, was %04o)", was.path, want.Perm(), was.mode.Perm()))
		}
		// Also for a directory made searchable above, and after a
		// chown (which clears setuid and setgid). Through the
		// descriptor, which holds no link.
		if err == nil && (want != now.mode || reached[was.path] || what != "") {
			err = os.Chmod(byFD(fds[was.path]), want)
		}
		if what == "" {
			continue
		}
		if err != nil {
			what += " (not restored)"
		}
		put = append(put, what)
	}
	return put, less
}
