package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultPath returns where the audit log is written when the configuration
// does not say: $GUARDSH_AUDIT if set (it must be an absolute path); else
// $XDG_STATE_HOME/guardsh/audit.jsonl (XDG Base Directory spec: a relative
// XDG_STATE_HOME is ignored); else $HOME/.local/state/guardsh/audit.jsonl,
// the spec's default for XDG_STATE_HOME. It returns an error when
// GUARDSH_AUDIT is relative, or when neither XDG_STATE_HOME nor HOME gives an
// absolute directory.
func DefaultPath() (string, error) {
	if p := os.Getenv("GUARDSH_AUDIT"); p != "" {
		if !filepath.IsAbs(p) {
			return "", fmt.Errorf("audit log: GUARDSH_AUDIT=%q is not an absolute path", p)
		}
		return filepath.Clean(p), nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "guardsh", "audit.jsonl"), nil
	}
	if h := os.Getenv("HOME"); h != "" && filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "guardsh", "audit.jsonl"), nil
	}
	return "", errors.New("audit log: no place for it: set GUARDSH_AUDIT, XDG_STATE_HOME or HOME to an absolute path")
}

// Log is an open audit log file. Its methods are safe for concurrent use by
// goroutines, and any number of processes may append to the same file at
// once: each Append takes an exclusive flock(2) on the file for the one write
// of its line, so lines never interleave, and reads the hash of the line
// before it under that lock, so the records form one linear hash chain (see
// Verify). Records are fsynced only with Options.Sync: otherwise a line is
// in the kernel's page cache when Append returns, and survives the process
// but not necessarily a power loss.
type Log struct {
	path string
	opt  Options

	mu     sync.Mutex // flock does not exclude goroutines sharing one file
	file   *os.File
	closed bool
	// removed says the file the log was open on had been removed (not
	// rotated) when a record was appended: Append then says so.
	removed bool
	// reserve is the file holding room for the next record (see
	// Reserve), nil when none, locked when pooled, and held its size in
	// bytes.
	reserve *os.File
	pooled  bool
	held    int64
}

// Options tune a Log. The zero value appends without fsync, never rotates,
// anchors nowhere and redacts nothing.
type Options struct {
	// Sync fsyncs the file after each line (fdatasync(2)), before the lock
	// is released.
	Sync bool
	// MaxBytes, when > 0, rotates the log before a line would take it past
	// MaxBytes bytes: the full file is renamed to RotatedName(path, t) and
	// a new file at path continues the chain (its first record's prev is
	// the last hash of the rotated file). A single line longer than
	// MaxBytes still goes into a file of its own.
	MaxBytes int64
	// Anchor, when not nil, is given the chain head after every append
	// (see Anchor). An anchor that fails makes Append return an error
	// after the record was written.
	Anchor Anchor
	// Redact, when not nil, is applied to every record before it is
	// written (see Redactor.Record).
	Redact *Redactor
	// Syslog, when not nil, is sent every record after it is written (see
	// Syslog.Record). A failed send makes Append return an error after
	// the record was written.
	Syslog *Syslog
}

// Open opens the audit log at path with the zero Options; see OpenWith.
func Open(path string) (*Log, error) { return OpenWith(path, Options{}) }

// OpenWith opens the audit log at path for appending, creating its missing
// parent directories (mode 0700) and the file (mode 0600) if needed; an
// existing file keeps its mode and content. Call it before running the
// command, so that a log that cannot be written refuses the command.
//
// path may also name an existing device or other non-directory file
// (/dev/stderr, /dev/full); records written there carry the Genesis prev,
// since nothing can be read back. Errors name path and what failed
// (creating a directory, opening the file) and wrap the system error
// (errors.Is works with fs.ErrPermission, syscall.ENOTDIR, …).
func OpenWith(path string, opt Options) (*Log, error) {
	if path == "" {
		return nil, errors.New("audit log: empty path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit log %s: create directory: %w", path, err)
	}
	f, err := openLog(path)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: open for appending: %w", path, err)
	}
	return &Log{path: path, opt: opt, file: f}, nil
}

// openLog opens path for reading (the chain's tail) and appending; a file
// that cannot be read (a write-only device) is opened for appending only.
func openLog(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	}
	return f, err
}

// Reserve holds n bytes of room on the log's file system for the next
// record, in a file of its own beside the log (allocated with
// fallocate(2), else written), which Append gives back first when the file
// system runs short of room (and Release, when a put-back needs it): a
// command that fills the disk while it runs (an attack run filled a small
// file system from a jailed command) cannot keep its record from being
// written. Call it before running a command; an error (ENOSPC: the disk
// is full already) means the record could not be promised, and names the
// log. A reservation made before is kept, and grown to n if smaller.
//
// The files are kept for the next guardsh rather than made and removed
// for each command: ".LOG.reserve.N" (N below maxPooled), each held by one
// Log at a time with an flock(2) (released at Close, or when the process
// ends); a file found too small is grown. Making and removing one cost a
// command 0.1–0.3 ms here (the unlink of its blocks, on ext4). With every
// pooled file held, a file of this process's own is made and removed as
// before.
func (l *Log) Reserve(n int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if st, err := os.Stat(l.path); err != nil || !st.Mode().IsRegular() {
		l.giveBack()
		return nil // a device (/dev/stderr): no room to hold
	}
	if l.reserve == nil {
		f, pooled, err := l.claim()
		if err != nil {
			return fmt.Errorf("audit log %s: reserve room for the record: %w", l.path, err)
		}
		l.reserve, l.pooled, l.held = f, pooled, 0
	}
	var st unix.Stat_t
	fd := int(l.reserve.Fd())
	if unix.Fstat(fd, &st) == nil && st.Size >= n && st.Blocks*512 >= n {
		l.held = st.Size
		return nil
	}
	err := unix.Fallocate(fd, 0, 0, n)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		// No fallocate here: the blocks are written.
		zeros := make([]byte, 64<<10)
		err = nil
		for off := int64(0); off < n && err == nil; off += int64(len(zeros)) {
			_, err = l.reserve.WriteAt(zeros[:min(n-off, int64(len(zeros)))], off)
		}
		if err == nil {
			err = l.reserve.Sync()
		}
	}
	if err != nil {
		l.giveBack()
		return fmt.Errorf("audit log %s: reserve %d bytes for the record: %w", l.path, n, err)
	}
	l.held = n
	return nil
}

// maxPooled is how many reservation files beside one log guardsh keeps
// for reuse (see Reserve): one per guardsh running at once.
const maxPooled = 32

// maxPooledSize is the largest reservation kept for the next guardsh, in
// bytes: a larger one (held for a record of a huge command, see
// ReserveFor) is removed at Close.
const maxPooledSize = 4 << 20

// claim opens and locks a pooled reservation file (see Reserve), or, with
// all of them held, makes one of this process's own (pooled false).
func (l *Log) claim() (f *os.File, pooled bool, err error) {
	dir, base := filepath.Dir(l.path), filepath.Base(l.path)
	for i := range maxPooled {
		p := filepath.Join(dir, fmt.Sprintf(".%s.reserve.%d", base, i))
		fd, err := unix.Open(p, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
		if err != nil {
			continue // a link or another odd file put there: not used
		}
		var st unix.Stat_t
		if unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) != nil || unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Nlink != 1 {
			// Held by another guardsh, or not a file of its own: a
			// hard link of the log (guardsh then waited forever for
			// the log's lock, which its own reservation held) or of
			// another file (grown with zeros, then emptied) — attack
			// run 56.
			unix.Close(fd)
			continue
		}
		return os.NewFile(uintptr(fd), p), true, nil
	}
	p := filepath.Join(dir, fmt.Sprintf(".%s.reserve-%d-%x", base, os.Getpid(), rand.Uint64()))
	f, err = os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	return f, false, err
}

// ReserveFor makes the room held (see Reserve) fit r, a record about to
// be appended once its command has run: twice its encoded size and 64 KiB
// for what the command adds (its exit status, a put-back's list), when
// that is more than what is held. Its error is Reserve's.
func (l *Log) ReserveFor(r *Record) error {
	body, err := appendRecord(make([]byte, 0, 1024), r)
	if err != nil {
		return fmt.Errorf("audit log %s: encode record: %w", l.path, err)
	}
	need := 2*int64(len(body)) + 64<<10
	l.mu.Lock()
	held := l.held
	l.mu.Unlock()
	if need <= held {
		return nil
	}
	return l.Reserve(need)
}

// Lend gives a put-back about to write up to need bytes the room held
// beyond what record r needs (twice its encoded size and 64 KiB, as
// ReserveFor holds), when the log's file system has less than need bytes
// available: a command that filled the disk kept a planted .git/config
// from being put back (an attack run's find), and once the put-back had
// taken all of the room, the record was lost (attack run 56: a jailed
// command deleted 400 hooks and filled the disk). Append gives back the
// rest itself when it needs it.
func (l *Log) Lend(r *Record, need int64) {
	body, err := appendRecord(make([]byte, 0, 1024), r)
	if err != nil {
		return
	}
	keep := 2*int64(len(body)) + 64<<10
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.reserve == nil || l.held <= keep || !l.short(need) {
		return
	}
	if l.reserve.Truncate(keep) == nil {
		l.held = keep
	}
}

// short reports whether the log's file system has less than need bytes
// available (statfs(2), as for an unprivileged user), or cannot tell.
func (l *Log) short(need int64) bool {
	var st unix.Statfs_t
	if unix.Fstatfs(int(l.reserve.Fd()), &st) != nil {
		return true
	}
	return int64(st.Bavail)*st.Bsize < need
}

// giveBack frees the room held: the file is emptied (when it is still a
// file of one name) and removed.
func (l *Log) giveBack() {
	if l.reserve == nil {
		return
	}
	var st unix.Stat_t
	if unix.Fstat(int(l.reserve.Fd()), &st) == nil && st.Nlink <= 1 {
		_ = l.reserve.Truncate(0)
	}
	os.Remove(l.reserve.Name())
	l.reserve.Close()
	l.reserve, l.held = nil, 0
}

// let goes of the room held at Close: a pooled file of at most
// maxPooledSize is kept, unlocked, for the next guardsh; any other is
// given back.
func (l *Log) let() {
	if l.reserve == nil {
		return
	}
	if !l.pooled || l.held > maxPooledSize {
		l.giveBack()
		return
	}
	l.reserve.Close()
	l.reserve, l.held = nil, 0
}

// Path returns the path the log was opened with.
func (l *Log) Path() string { return l.path }

// Append redacts r (Options.Redact), chains it and writes it as one line:
// its JSON (see Record.MarshalJSON) and "\n". It sets r.Prev and r.Hash. It
// returns an error, naming the log's path, when r is not a valid record
// (wrong V, no TS or ID, a decision other than allow/ask/deny, a segment kind
// other than exec/write/read, a negative or non-finite duration) or when the
// line cannot be written whole.
//
// Under an exclusive flock(2) on the file, Append checks that path still
// names the file it holds (another process may have rotated it; then it
// reopens path), reads the hash of the last line (the prev of this one,
// Genesis for an empty file), rotates when Options.MaxBytes says so, and
// writes the line with one write(2), so concurrent appenders (goroutines or
// processes) never interleave and form one chain. A failed write (for
// example ENOSPC, EFBIG, EIO; errors.Is works on them) leaves no partial
// line: if the kernel wrote only part of the line, the file is truncated
// back to its size before the write, still under the lock, and the error
// says so.
func (l *Log) Append(r *Record) error {
	if r == nil {
		return fmt.Errorf("audit log %s: nil record", l.path)
	}
	if err := r.check(); err != nil {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	if l.opt.Redact != nil {
		l.opt.Redact.Record(r)
	}
	r.Prev, r.Hash = Genesis, ""
	body, err := appendRecord(make([]byte, 0, 1024), r)
	if err != nil {
		return fmt.Errorf("audit log %s: encode record: %w", l.path, err)
	}
	// body ends `,"prev":"<64 zeros>","hash":""}`: prev is filled in
	// under the lock, hash after it.
	if !bytes.HasSuffix(body, []byte(`","hash":""}`)) {
		return fmt.Errorf("audit log %s: encode record: hash is not the last member", l.path)
	}
	body = body[:len(body)-len(`,"hash":""}`)]
	prevAt := len(body) - 1 - len(Genesis)

	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("audit log %s: append after Close", l.path)
	}
	if l.reserve != nil && l.short(2*int64(len(body))+64<<10) {
		l.giveBack() // the room held is the record's now
	}
	head, err := l.appendChained(body, prevAt)
	if err != nil && l.reserve != nil && (errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT)) {
		// Filled meanwhile: the line was taken back whole (see
		// writeChained); the room held is given back and it is
		// written again.
		l.giveBack()
		head, err = l.appendChained(body, prevAt)
	}
	if err != nil {
		return err
	}
	r.Prev, r.Hash = string(body[prevAt:prevAt+len(Genesis)]), head
	if l.opt.Syslog != nil {
		line, _ := seal(body)
		if err := l.opt.Syslog.Record(r.Decision, line[:len(line)-1]); err != nil {
			return fmt.Errorf("audit log %s: record written, not shipped: %w", l.path, err)
		}
	}
	if l.opt.Anchor != nil {
		if err := l.opt.Anchor.Anchor(l.path, r.ID, head); err != nil {
			return fmt.Errorf("audit log %s: record written, anchor failed: %w", l.path, err)
		}
	}
	if l.removed {
		l.removed = false
		// Said, not silent: a log removed while guardsh held it, the
		// next record began a new one that verify found whole (attack
		// run 74).
		return fmt.Errorf("audit log %s was removed while guardsh had it open (not rotated: no name held it any more); this record begins a new log, and the records before it are gone from this machine unless shipped (audit.syslog)", l.path)
	}
	return nil
}

// appendChained locks the file that path names, fills in prev at prevAt in
// body, appends the finished line and returns its hash.
func (l *Log) appendChained(body []byte, prevAt int) (string, error) {
	for range 100 {
		fd, err := fdOf(l.file)
		if err != nil {
			return "", fmt.Errorf("audit log %s: %w", l.path, err)
		}
		if err := retryEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX) }); err != nil {
			return "", fmt.Errorf("audit log %s: lock: %w", l.path, err)
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Flock(fd, unix.LOCK_UN)
			return "", fmt.Errorf("audit log %s: fstat: %w", l.path, err)
		}
		regular := st.Mode&unix.S_IFMT == unix.S_IFREG
		if regular {
			var now unix.Stat_t
			if err := unix.Stat(l.path, &now); err != nil || now.Ino != st.Ino || now.Dev != st.Dev {
				// Renamed away (rotation) keeps a name; removed (or
				// replaced by a rename over it) keeps none.
				l.removed = l.removed || st.Nlink == 0
				// Rotated (or removed) by another process: write to
				// what path names now.
				unix.Flock(fd, unix.LOCK_UN)
				f, err := openLog(l.path)
				if err != nil {
					return "", fmt.Errorf("audit log %s was moved or removed since guardsh opened it (rotated, or by a command) and cannot be opened again, so this record is lost: %w", l.path, err)
				}
				l.file.Close()
				l.file = f
				continue
			}
		}
		head, err := l.writeChained(fd, st.Size, regular, body, prevAt)
		if uerr := unix.Flock(fd, unix.LOCK_UN); uerr != nil && err == nil {
			err = fmt.Errorf("audit log %s: unlock: %w", l.path, uerr)
		}
		return head, err
	}
	return "", fmt.Errorf("audit log %s: the file kept being replaced while appending", l.path)
}

func fdOf(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var fd int
	err = rc.Control(func(u uintptr) { fd = int(u) })
	return fd, err
}

// writeChained, with fd locked and size its length, reads the last hash,
// rotates if needed, and writes the line.
func (l *Log) writeChained(fd int, size int64, regular bool, body []byte, prevAt int) (string, error) {
	prev := Genesis
	if regular && size > 0 {
		p, err := tailHash(fd, size)
		if err != nil {
			return "", fmt.Errorf("audit log %s: read the chain's last hash: %w", l.path, err)
		}
		prev = p
	}
	copy(body[prevAt:], prev)
	line, head := seal(body)
	if regular && l.opt.MaxBytes > 0 && size > 0 && size+int64(len(line)) > l.opt.MaxBytes {
		return head, l.rotate(line)
	}
	if err := l.writeLine(fd, line); err != nil {
		return "", err
	}
	if l.opt.Sync {
		if err := unix.Fdatasync(fd); err != nil {
			return "", fmt.Errorf("audit log %s: fsync: %w", l.path, err)
		}
	}
	return head, nil
}

// seal appends the hash member to body (a record's JSON without its
// closing brace and hash) and returns the line and the hash.
func seal(body []byte) (line []byte, hash string) {
	sum := sha256.New()
	sum.Write(body)
	sum.Write([]byte("}"))
	hash = hex.EncodeToString(sum.Sum(nil))
	line = make([]byte, 0, len(body)+len(hashTail)+len(hash)+3)
	line = append(line, body...)
	line = append(line, hashTail...)
	line = append(line, hash...)
	line = append(line, "\"}\n"...)
	return line, hash
}

// rotate, with the full log locked, writes line as the first line of a new
// file, links the full one to its rotated name and moves the new one to
// path: path always names a complete log. Writers waiting for the old
// file's lock find it replaced and reopen path.
func (l *Log) rotate(line []byte) error {
	dir := filepath.Dir(l.path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(l.path)+".new-*")
	if err != nil {
		return fmt.Errorf("audit log %s: rotate: %w", l.path, err)
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("audit log %s: rotate: %w", l.path, err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		return fail(err)
	}
	if _, err := tmp.Write(line); err != nil {
		return fail(err)
	}
	if l.opt.Sync {
		if err := tmp.Sync(); err != nil {
			return fail(err)
		}
	}
	// Another rotation in the same millisecond took the name: this one
	// gets the same name with a number after it, so that it sorts after
	// that one and before any made later (a name from a later clock
	// reading, numbered, sorted after a file written after it).
	base := RotatedName(l.path, time.Now())
	old := base
	for i := 1; ; i++ {
		err := os.Link(l.path, old)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i == 100 {
			return fail(err)
		}
		old = base + "." + strconv.Itoa(i)
	}
	if err := os.Rename(tmp.Name(), l.path); err != nil {
		os.Remove(old)
		return fail(err)
	}
	tmp.Close()
	return nil
}

// RotatedName is the name a log at path gets when it is rotated at t:
// PATH.YYYYMMDDTHHMMSS.mmmZ (UTC), so rotated files sort by name in the
// order they were written.
func RotatedName(path string, t time.Time) string {
	return path + "." + t.UTC().Format("20060102T150405.000Z")
}

// Rotated returns the rotated files of the log at path, oldest first: by
// time of rotation, then by the number a rotation in the same millisecond
// added (PATH.TIME, PATH.TIME.1, … PATH.TIME.10).
func Rotated(path string) ([]string, error) {
	m, err := filepath.Glob(escapeGlob(path) + ".[0-9]*T*Z*")
	sort.Slice(m, func(i, j int) bool {
		bi, ni := rotatedOrder(m[i])
		bj, nj := rotatedOrder(m[j])
		if bi != bj {
			return bi < bj
		}
		return ni < nj
	})
	return m, err
}

// rotatedOrder splits a rotated file's name into its name up to the time
// and the number after it (0 for none).
func rotatedOrder(name string) (string, int) {
	z := strings.LastIndexByte(name, 'Z')
	if z < 0 {
		return name, 0
	}
	n, err := strconv.Atoi(strings.TrimPrefix(name[z+1:], "."))
	if err != nil {
		return name, 0
	}
	return name[:z+1], n
}

func escapeGlob(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[\\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// hashTail is what comes between a line's prev and its hash.
const hashTail = `,"hash":"`

// Genesis is the prev of the first record of a log: 64 zeros.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// tailHash reads the hash of the last line of the file fd, of size bytes.
// A last line without one (not a guardsh record of this schema) gives
// Genesis, and Verify reports that line.
func tailHash(fd int, size int64) (string, error) {
	const n = len(hashTail) + len(Genesis) + len("\"}\n")
	if size < int64(n) {
		return Genesis, nil
	}
	var buf [n]byte
	if _, err := unix.Pread(fd, buf[:], size-int64(n)); err != nil {
		return "", err
	}
	h, ok := lineHash(buf[:n-1])
	if !ok {
		return Genesis, nil
	}
	return h, nil
}

// lineHash returns the hash member at the end of line (without "\n").
func lineHash(line []byte) (string, bool) {
	const n = len(hashTail) + len(Genesis) + len(`"}`)
	if len(line) < n || !bytes.HasPrefix(line[len(line)-n:], []byte(hashTail)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return "", false
	}
	h := line[len(line)-n+len(hashTail) : len(line)-2]
	if !isHex(h) {
		return "", false
	}
	return string(h), true
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// writeLine writes line with one write(2) on fd, which the caller has
// locked, and undoes a partial write.
func (l *Log) writeLine(fd int, line []byte) error {
	var n int
	err := retryEINTR(func() (err error) {
		n, err = unix.Write(fd, line)
		return err
	})
	if err == nil && n == len(line) {
		return nil
	}
	n = max(n, 0)
	if err == nil {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(line))
	} else {
		err = fmt.Errorf("write %d bytes: %w", len(line), err)
	}
	if n == 0 {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	// O_APPEND wrote the n bytes at the end of the file and we hold the
	// lock, so the line started at size-n.
	var st unix.Stat_t
	if ferr := unix.Fstat(fd, &st); ferr != nil {
		return fmt.Errorf("audit log %s: %w; partial line of %d bytes left: fstat: %v", l.path, err, n, ferr)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Errorf("audit log %s: %w; partial line of %d bytes written to a non-regular file", l.path, err, n)
	}
	if terr := unix.Ftruncate(fd, st.Size-int64(n)); terr != nil {
		return fmt.Errorf("audit log %s: %w; partial line of %d bytes left: truncate: %v", l.path, err, n, terr)
	}
	return fmt.Errorf("audit log %s: %w; partial line removed", l.path, err)
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// Close closes the log file. Append after Close returns an error, as does a
// second Close.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("audit log %s: already closed", l.path)
	}
	l.let()
	l.closed = true
	if err := l.file.Close(); err != nil {
		return fmt.Errorf("audit log %s: close: %w", l.path, err)
	}
	return nil
}
