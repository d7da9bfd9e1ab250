package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

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
// of its line, so lines never interleave. Records are not fsynced: a line is
// in the kernel's page cache when Append returns, and survives the process
// but not necessarily a power loss.
type Log struct {
	path string

	mu     sync.Mutex // flock does not exclude goroutines sharing one file
	file   *os.File
	closed bool
}

// Open opens the audit log at path for appending, creating its missing
// parent directories (mode 0700) and the file (mode 0600) if needed; an
// existing file keeps its mode and content. Call it before running the
// command, so that a log that cannot be written refuses the command.
//
// path may also name an existing device or other non-directory file
// (/dev/stderr, /dev/full). Errors name path and what failed (creating a
// directory, opening the file) and wrap the system error (errors.Is works
// with fs.ErrPermission, syscall.ENOTDIR, …).
func Open(path string) (*Log, error) {
	if path == "" {
		return nil, errors.New("audit log: empty path")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("audit log %s: create directory: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log %s: open for appending: %w", path, err)
	}
	return &Log{path: path, file: f}, nil
}

// Path returns the path the log was opened with.
func (l *Log) Path() string { return l.path }

// Append writes r as one line: its JSON (see Record.MarshalJSON) and "\n".
// It returns an error, naming the log's path, when r is not a valid record
// (wrong V, no TS or ID, a decision other than allow/ask/deny, a segment kind
// other than exec/write/read, a negative or non-finite duration) or when the line cannot be written whole.
//
// The line is written by one write(2) while an exclusive flock(2) is held,
// so concurrent appenders (goroutines or processes) never interleave. A
// failed write (for example ENOSPC, EFBIG, EIO; errors.Is works on them)
// leaves no partial line: if the kernel wrote only part of the line, the
// file is truncated back to its size before the write, still under the
// lock, and the error says so.
func (l *Log) Append(r *Record) error {
	if r == nil {
		return fmt.Errorf("audit log %s: nil record", l.path)
	}
	if err := r.check(); err != nil {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil { // Encode ends the line with "\n"
		return fmt.Errorf("audit log %s: encode record: %w", l.path, err)
	}
	line := buf.Bytes()

	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("audit log %s: append after Close", l.path)
	}
	rc, err := l.file.SyscallConn()
	if err != nil {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	var werr error
	if err := rc.Control(func(fd uintptr) { werr = l.appendLocked(int(fd), line) }); err != nil {
		return fmt.Errorf("audit log %s: %w", l.path, err)
	}
	return werr
}

// appendLocked does the flock / write / unlock for Append on fd.
func (l *Log) appendLocked(fd int, line []byte) error {
	if err := retryEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX) }); err != nil {
		return fmt.Errorf("audit log %s: lock: %w", l.path, err)
	}
	err := l.writeLine(fd, line)
	if uerr := unix.Flock(fd, unix.LOCK_UN); uerr != nil && err == nil {
		err = fmt.Errorf("audit log %s: unlock: %w", l.path, uerr)
	}
	return err
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
	l.closed = true
	if err := l.file.Close(); err != nil {
		return fmt.Errorf("audit log %s: close: %w", l.path, err)
	}
	return nil
}
