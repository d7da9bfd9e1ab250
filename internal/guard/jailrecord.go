package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The record of where jails wrote.
//
// What a jailed command plants (a program on PATH, a library on
// LD_LIBRARY_PATH, a nested repository's core.fsmonitor) waits for a later
// command that guardsh runs unjailed: from another directory, with no
// workspace, or in another workspace. Where that later command looks is
// checked against the places a jail may have written; the current
// command's jail is not enough to know them (an attack run planted in
// ~/proj and ran it from ~). So before every jailed command starts, guardsh
// adds the directories its jail writes (the workspace, the temp
// directories, sandbox.write) to a record in its state directory, which no
// jail can read or write (it is hidden from the jail and a protected
// path), and the checks use the current places and the recorded ones.

// JailRecordFile returns the record's path in jails, guardsh's directory of
// jail state (see sandbox.LockWorkspace); "" when jails is "".
func JailRecordFile(jails string) string {
	if jails == "" {
		return ""
	}
	return filepath.Join(jails, "written")
}

// maxRecorded and maxRecordBytes bound the record: at most 64 directories
// in at most 64 KiB. A record that would grow past either is made smaller
// by replacing the two directories with the deepest common parent by that
// parent (see shrink): it then names more than was written, never less.
// 64 is many more workspaces than one user's agents work in between two
// cleanings of the record; 64 KiB holds 64 paths of 1 KiB.
const (
	maxRecorded    = 64
	maxRecordBytes = 64 << 10
)

// recordHeader opens the record file.
const recordHeader = "# guardsh: directories a jailed command of this user may have written (README: Sandbox)\n"

// ReadJailRecord returns the directories recorded in file (absolute,
// clean, in the record's order). A missing file is an empty record. An
// error names file (and line) when the record cannot be read: it is
// larger than maxRecordBytes, holds more than maxRecorded directories or
// a line that is no absolute clean path, or the read fails. The caller
// must then take every place as one a jail may have written.
func ReadJailRecord(file string) ([]string, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("record of jails' writes: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err != nil {
		return nil, fmt.Errorf("record of jails' writes %s: %w", file, err)
	}
	return parseJailRecord(file, data)
}

// parseJailRecord parses the record's bytes (see ReadJailRecord).
func parseJailRecord(file string, data []byte) ([]string, error) {
	if len(data) > maxRecordBytes {
		return nil, fmt.Errorf("record of jails' writes %s: larger than %d bytes", file, maxRecordBytes)
	}
	var dirs []string
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !filepath.IsAbs(line) || filepath.Clean(line) != line || strings.ContainsRune(line, 0) {
			return nil, fmt.Errorf("record of jails' writes %s:%d: not an absolute clean path: %s", file, i+1, strconv.Quote(line))
		}
		dirs = append(dirs, line)
	}
	if len(dirs) > maxRecorded {
		return nil, fmt.Errorf("record of jails' writes %s: more than %d directories", file, maxRecorded)
	}
	return dirs, nil
}

// AddJailRecord adds dirs (absolute paths; links are resolved as far as
// they exist, see resolveLoose) to the record in file, creating it and its
// directory (mode 0700) when missing. A directory already beneath a
// recorded one is not added again; recorded ones beneath an added one are
// dropped; the record is then bounded (see shrink). Concurrent guardsh
// processes take turns by a lock on FILE.lock and replace the file by a
// rename, so that none loses another's directories and a reader sees the
// old record or the new one. Errors: the record cannot be read (see
// ReadJailRecord: nothing is then added, so that a broken record stays as
// it is and keeps failing closed), locked or written.
func AddJailRecord(file string, dirs []string) error {
	if file == "" {
		return errors.New("record of jails' writes: no state directory (HOME is not set)")
	}
	add := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("record of jails' writes: not an absolute path: %q", d)
		}
		add = append(add, filepath.Clean(d), resolveLoose(d))
	}
	// Nothing to do when every one is recorded: no lock, no write (the
	// common case, on every jailed command).
	have, err := ReadJailRecord(file)
	if err != nil {
		return err
	}
	if covered(add, have) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("record of jails' writes: %w", err)
	}
	lock, err := os.OpenFile(file+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("record of jails' writes: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return fmt.Errorf("record of jails' writes: lock %s: %w", lock.Name(), err)
	}
	// Read again under the lock: another process may have added since.
	if have, err = ReadJailRecord(file); err != nil {
		return err
	}
	next := shrink(merge(have, add))
	var buf bytes.Buffer
	buf.WriteString(recordHeader)
	for _, d := range next {
		buf.WriteString(d)
		buf.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".new-*")
	if err != nil {
		return fmt.Errorf("record of jails' writes: %w", err)
	}
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("record of jails' writes: %w", err)
	}
	return nil
}

// covered reports whether every one of dirs is, or lies beneath, one of
// recorded.
func covered(dirs, recorded []string) bool {
	for _, d := range dirs {
		if !JailWrites(d, recorded) {
			return false
		}
	}
	return true
}

// merge returns recorded with add added: a directory beneath one already
// there is left out, and those beneath an added one are dropped.
func merge(recorded, add []string) []string {
	out := slices.Clone(recorded)
	for _, a := range add {
		if JailWrites(a, out) {
			continue
		}
		out = slices.DeleteFunc(out, func(r string) bool { return JailWrites(r, []string{a}) })
		out = append(out, a)
	}
	return out
}

// shrink bounds dirs (see maxRecorded and maxRecordBytes): while there are
// too many or they are too long, the two with the deepest common parent
// are replaced by that parent (and what lies beneath it is dropped). The
// result names every place dirs named; it may be "/" alone, every place.
func shrink(dirs []string) []string {
	size := func() int {
		n := len(recordHeader)
		for _, d := range dirs {
			n += len(d) + 1
		}
		return n
	}
	for len(dirs) > maxRecorded || size() > maxRecordBytes {
		if len(dirs) < 2 {
			return []string{"/"} // one path longer than the bound
		}
		best, depth := "", -1
		for i := range dirs {
			for j := i + 1; j < len(dirs); j++ {
				p := commonParent(dirs[i], dirs[j])
				d := strings.Count(p, "/")
				if p == "/" {
					d = 0
				}
				if d > depth {
					best, depth = p, d
				}
			}
		}
		dirs = merge(slices.DeleteFunc(dirs, func(r string) bool { return JailWrites(r, []string{best}) }), []string{best})
	}
	return dirs
}

// commonParent returns the deepest directory a and b (absolute, clean)
// both are, or lie beneath.
func commonParent(a, b string) string {
	for {
		if a == b || strings.HasPrefix(b, a+"/") || a == "/" {
			return a
		}
		a = filepath.Dir(a)
	}
}
