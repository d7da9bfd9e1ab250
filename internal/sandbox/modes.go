package sandbox

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// keptMode is a hidden path's (or a directory above one) mode and owner
// as the jail's build found it.
type keptMode struct {
	path     string
	mode     fs.FileMode // permission, setuid, setgid and sticky bits
	uid, gid uint32
	dev, ino uint64
}

// modeBits are the bits of a mode PutBack restores.
const modeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// keepModes records the mode and owner of each of the hidden paths, of
// the entries of the hidden directories (one level, up to maxKeptModes in
// all; links left out) and of every directory above them but /, /proc
// and what lies beneath it left out: Landlock governs no mode or owner change, so a jailed command may
// chmod what it may not read (~/.ssh/id_rsa to 0644 for other users to
// read; guardsh's config to 0, refusing every later command; the home
// directory to 0777) — an attack run's find.
func keepModes(hidden []string) []keptMode {
	var out []keptMode
	seen := map[string]bool{}
	budget := maxKeptModes
	for _, h := range hidden {
		if within(h, "/proc") {
			continue
		}
		for p := h; p != "/" && !seen[p]; p = filepath.Dir(p) {
			seen[p] = true
			if m, ok := modeOf(p); ok {
				out = append(out, m)
			}
		}
		// What a hidden directory holds (~/.ssh's keys), one level.
		if ents, err := os.ReadDir(h); err == nil {
			for _, e := range ents {
				if budget--; budget < 0 {
					break
				}
				if p := filepath.Join(h, e.Name()); !seen[p] && e.Type()&fs.ModeSymlink == 0 {
					seen[p] = true
					if m, ok := modeOf(p); ok {
						out = append(out, m)
					}
				}
			}
		}
	}
	return out
}

// maxKeptModes bounds the entries of hidden directories keepModes records
// (a home's ~/.ssh and ~/.gnupg hold a few each).
const maxKeptModes = 512

// modeOf returns p's keptMode (lstat(2)), ok false when p is missing.
func modeOf(p string) (keptMode, bool) {
	info, err := os.Lstat(p)
	if err != nil {
		return keptMode{}, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return keptMode{}, false
	}
	return keptMode{path: p, mode: info.Mode() & modeBits, uid: st.Uid, gid: st.Gid, dev: uint64(st.Dev), ino: st.Ino}, true
}

// PutBack gives the hidden paths, and the directories above them, the
// modes and owners they had when the jail was built, where a command
// changed them, and returns what it put back ("PATH (mode 0644, was
// 0600)"), with " (not restored)" where it could not. A path that is
// another file now (removed, replaced) is left alone. Call it once the
// command and everything it started have ended (StopLeftovers).
func (j *Jail) PutBack() []string {
	var out []string
	for _, was := range j.modes {
		now, ok := modeOf(was.path)
		if !ok || now.dev != was.dev || now.ino != was.ino || now.mode == was.mode && now.uid == was.uid && now.gid == was.gid {
			continue
		}
		what := fmt.Sprintf("%s (mode %04o, was %04o)", was.path, now.mode.Perm(), was.mode.Perm())
		if now.uid != was.uid || now.gid != was.gid {
			what = fmt.Sprintf("%s (owner %d:%d, was %d:%d)", was.path, now.uid, now.gid, was.uid, was.gid)
		}
		var err error
		if now.uid != was.uid || now.gid != was.gid {
			err = os.Lchown(was.path, int(was.uid), int(was.gid))
		}
		if err == nil {
			// chown(2) clears setuid and setgid: the mode goes back after.
			// (The paths were resolved: none is a link.)
			err = os.Chmod(was.path, was.mode)
		}
		if err != nil {
			what += " (not restored)"
		}
		out = append(out, what)
	}
	return out
}
