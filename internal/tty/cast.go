package tty

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// DefaultMaxBytes is the size cap of one recording when the config sets
// none: 64 MiB.
const DefaultMaxBytes = 64 << 20

// TruncatedMarker is the label of the marker event ("m") that ends a
// recording which reached its size cap; Play reports it.
const TruncatedMarker = "guardsh: recording truncated at its size cap"

// Header is the first line of an asciicast v2 file
// (https://docs.asciinema.org/manual/asciicast/v2/): the terminal's size
// when the recording began, in columns and rows; when it began (Unix
// seconds); and what guardsh adds (title, env).
type Header struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Command   string            `json:"command,omitempty"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// Recorder writes one command's terminal session as an asciicast v2 file:
// the header, then one event a line, [SECONDS, CODE, DATA] with SECONDS
// since the recording began (microsecond precision), CODE "o" (output),
// "i" (input, only when the recorder was made with input on), "r" (the
// window was resized to "COLSxROWS") or "m" (a marker). Output cut in the
// middle of a UTF-8 sequence is held until the sequence is complete;
// bytes that are not UTF-8 are written as U+FFFD, as asciinema does.
//
// A Recorder never fails its caller: the first write error is kept (Err)
// and recording stops. Past MaxBytes it writes a last marker event
// (TruncatedMarker, which may take the file up to 80 bytes past
// MaxBytes), stops, and reports Truncated; the command is not affected. Safe for concurrent
// use.
type Recorder struct {
	mu        sync.Mutex
	f         *os.File
	w         *bufio.Writer
	begin     time.Time
	max, n    int64
	input     bool
	truncated bool
	err       error
	// pending are the bytes of an incomplete UTF-8 sequence at the end of
	// the last output (or input) chunk.
	pending [2][]byte
}

// Create creates the recording file at path (which must not exist: mode
// 0600, O_EXCL) and writes h (Version is set to 2). max caps the file's
// size in bytes (DefaultMaxBytes when 0 or less); input says whether
// Input records keys. Errors name the file.
func Create(path string, h Header, max int64, input bool) (*Recorder, error) {
	if max <= 0 {
		max = DefaultMaxBytes
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	h.Version = 2
	line, err := json.Marshal(h)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("recording %s: %w", path, err)
	}
	r := &Recorder{f: f, w: bufio.NewWriterSize(f, 64<<10), begin: time.Now(), max: max, input: input}
	// The header reaches the file at once: a recording whose guardsh is
	// killed still says what it was.
	if _, err := r.w.Write(append(line, '\n')); err == nil {
		err = r.w.Flush()
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("recording %s: %w", path, err)
	}
	r.n = int64(len(line) + 1)
	return r, nil
}

// Output records p as printed by the command.
func (r *Recorder) Output(p []byte) { r.data(0, "o", p) }

// Input records p as typed, when the recorder was made with input on.
func (r *Recorder) Input(p []byte) {
	if r.input {
		r.data(1, "i", p)
	}
}

// Resize records a window size change to cols × rows.
func (r *Recorder) Resize(cols, rows int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.event("r", strconv.Itoa(cols)+"x"+strconv.Itoa(rows))
}

func (r *Recorder) data(stream int, code string, p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped() {
		return
	}
	b := append(r.pending[stream], p...)
	cut := completeUTF8(b)
	r.pending[stream] = append([]byte(nil), b[cut:]...)
	if cut > 0 {
		r.event(code, string(b[:cut]))
	}
}

// completeUTF8 returns the length of b without an incomplete UTF-8
// sequence at its end (at most 3 bytes are held back).
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		c := b[i]
		if c < 0x80 {
			return len(b)
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return len(b)
		}
	}
	return len(b)
}

func (r *Recorder) stopped() bool { return r.f == nil || r.err != nil || r.truncated }

// event writes one event line; r.mu is held.
func (r *Recorder) event(code, data string) {
	if r.stopped() {
		return
	}
	at := time.Since(r.begin)
	line := eventLine(at, code, data)
	if r.n+int64(len(line)) > r.max {
		// As much of the data as fits, cut at a character's start, then
		// the marker.
		lo, hi := 0, len(data)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if r.n+int64(len(eventLine(at, code, data[:mid]))) <= r.max {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		for lo > 0 && lo < len(data) && !utf8.RuneStart(data[lo]) {
			lo--
		}
		if lo > 0 {
			r.write(eventLine(at, code, data[:lo]))
		}
		r.truncated = true
		// The marker may take the file past max by its own length.
		r.write(eventLine(time.Since(r.begin), "m", TruncatedMarker))
		return
	}
	r.write(line)
}

func (r *Recorder) write(line []byte) {
	if _, err := r.w.Write(line); err != nil {
		r.err = err
		return
	}
	r.n += int64(len(line))
}

// eventLine is one event: [SECONDS, CODE, DATA] and a newline.
func eventLine(d time.Duration, code, data string) []byte {
	b := make([]byte, 0, len(data)+32)
	b = append(b, '[')
	b = strconv.AppendFloat(b, d.Seconds(), 'f', 6, 64)
	b = append(b, `, "`...)
	b = append(b, code...)
	b = append(b, `", `...)
	s, _ := json.Marshal(data) // a string always marshals (invalid UTF-8 becomes U+FFFD)
	b = append(b, s...)
	return append(b, "]\n"...)
}

// Truncated reports whether the recording reached its size cap.
func (r *Recorder) Truncated() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.truncated
}

// Err returns the first error writing the file, or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Close writes out what is held (an incomplete UTF-8 sequence as U+FFFD)
// and closes the file. It returns the first error of the recording.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return r.err
	}
	for i, code := range []string{"o", "i"} {
		if len(r.pending[i]) > 0 {
			r.event(code, string(r.pending[i]))
			r.pending[i] = nil
		}
	}
	if err := r.w.Flush(); err != nil && r.err == nil {
		r.err = err
	}
	if err := r.f.Close(); err != nil && r.err == nil {
		r.err = err
	}
	r.f = nil
	if r.err != nil {
		return fmt.Errorf("recording: %w", r.err)
	}
	return nil
}

// ErrNotCast is wrapped by the errors of ReadHeader and Play for a file
// that is not an asciicast v2 recording.
var ErrNotCast = errors.New("not an asciicast v2 recording")

// RecordingsDir is the directory of the recordings that belong to the
// audit log at logPath: "recordings" next to it.
func RecordingsDir(logPath string) string {
	return filepath.Join(filepath.Dir(logPath), "recordings")
}

// RecordingName is the file name of the recording of the audit record
// id: "ID.cast". Errors: id is empty or holds anything but letters,
// digits, '-' and '_' (it must not name a path).
func RecordingName(id string) (string, error) {
	if id == "" || strings.IndexFunc(id, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_')
	}) >= 0 {
		return "", fmt.Errorf("recording: %q is not an audit record id", id)
	}
	return id + ".cast", nil
}

// OpenRecording creates dir when missing (mode 0700) and the recording
// of the audit record id in it (see RecordingName and Create), returning
// the Recorder and the file's name. Errors name what failed: id, a dir
// that is not a directory of this user (a link included), the file.
func OpenRecording(dir, id string, h Header, max int64, input bool) (*Recorder, string, error) {
	name, err := RecordingName(id)
	if err != nil {
		return nil, "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, "", fmt.Errorf("recordings directory: %w", err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return nil, "", fmt.Errorf("recordings directory: %w", err)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !info.IsDir() || !ok || int(st.Uid) != os.Getuid() {
		return nil, "", fmt.Errorf("recordings directory %s: not a directory of this user", dir)
	}
	if info.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return nil, "", fmt.Errorf("recordings directory: %w", err)
		}
	}
	r, err := Create(filepath.Join(dir, name), h, max, input)
	return r, name, err
}
