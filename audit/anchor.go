package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Anchor receives the head of a log's hash chain, on a sink the writer of
// the log cannot rewrite (a file only root or another user may change, a
// syslog server). Verify checks the log against what an anchor received:
// a log cut short or rewritten no longer holds the anchored hash.
type Anchor interface {
	// Anchor records that the record id, whose hash is hash, is the head
	// of the log at path.
	Anchor(path, id, hash string) error
}

// AnchorLine is one anchor, as FileAnchor writes it (one JSON object a
// line) and ReadAnchors reads it.
type AnchorLine struct {
	// TS is when the anchor was written (TimeLayout).
	TS string `json:"ts"`
	// Log is the path of the anchored log.
	Log string `json:"log"`
	// ID and Hash are the record at the head of the log.
	ID   string `json:"id"`
	Hash string `json:"hash"`
	// Line is where the anchor is in its file (1-based); not written.
	Line int `json:"-"`
}

// FileAnchor appends anchors to the file Path, one AnchorLine of JSON a
// line, under an exclusive flock(2) like the log. Give it a path the agent
// cannot write (for example one owned by root with the append-only
// attribute, chattr +a).
type FileAnchor struct{ Path string }

// Anchor appends one AnchorLine to a.Path, creating the file (mode 0600)
// if needed.
func (a FileAnchor) Anchor(path, id, hash string) error {
	data, err := json.Marshal(AnchorLine{TS: Timestamp(time.Now()), Log: path, ID: id, Hash: hash})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(a.Path), 0o700); err != nil {
		return fmt.Errorf("anchor %s: %w", a.Path, err)
	}
	f, err := os.OpenFile(a.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("anchor %s: %w", a.Path, err)
	}
	defer f.Close()
	fd, err := fdOf(f)
	if err != nil {
		return fmt.Errorf("anchor %s: %w", a.Path, err)
	}
	if err := retryEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX) }); err != nil {
		return fmt.Errorf("anchor %s: lock: %w", a.Path, err)
	}
	defer unix.Flock(fd, unix.LOCK_UN)
	if _, err := f.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("anchor %s: %w", a.Path, err)
	}
	return nil
}

// anchorWord starts the text of an anchor sent as a syslog message:
// "guardsh-anchor log=PATH id=ID hash=HASH".
const anchorWord = "guardsh-anchor"

// AnchorMessage is the syslog message text of an anchor.
func AnchorMessage(path, id, hash string) string {
	return fmt.Sprintf("%s log=%s id=%s hash=%s", anchorWord, path, id, hash)
}

// ReadAnchors reads the anchors in r: FileAnchor lines, and lines holding
// an AnchorMessage anywhere (a syslog file exported from the server).
// Other lines are skipped. name names r in errors.
func ReadAnchors(r io.Reader, name string) ([]AnchorLine, error) {
	var out []AnchorLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if bytes.HasPrefix(line, []byte("{")) {
			var a AnchorLine
			if err := json.Unmarshal(line, &a); err != nil || a.Hash == "" {
				return nil, fmt.Errorf("%s:%d: not an anchor line", name, n)
			}
			a.Line = n
			out = append(out, a)
			continue
		}
		i := bytes.Index(line, []byte(anchorWord+" "))
		if i < 0 {
			continue
		}
		a := AnchorLine{Line: n}
		for _, f := range strings.Fields(string(line[i+len(anchorWord):])) {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "log":
				a.Log = v
			case "id":
				a.ID = v
			case "hash":
				a.Hash = v
			}
		}
		if a.Hash == "" {
			return nil, fmt.Errorf("%s:%d: anchor message without hash=", name, n)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// LoadAnchors reads the anchor file at path (see ReadAnchors).
func LoadAnchors(path string) ([]AnchorLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("anchor file: %w", err)
	}
	defer f.Close()
	return ReadAnchors(f, path)
}

// ParseAnchor reads the `anchor:` setting: "file:PATH" (PATH absolute) or
// "syslog" (then send is used, see Syslog). "" is no anchor.
func ParseAnchor(spec string, syslog func(string) error) (Anchor, error) {
	switch {
	case spec == "":
		return nil, nil
	case spec == "syslog":
		if syslog == nil {
			return nil, errors.New(`anchor "syslog" needs a syslog sink`)
		}
		return syslogAnchor(syslog), nil
	case strings.HasPrefix(spec, "file:") && filepath.IsAbs(spec[len("file:"):]):
		return FileAnchor{Path: filepath.Clean(spec[len("file:"):])}, nil
	}
	return nil, fmt.Errorf(`anchor %q: want "syslog" or "file:/ABSOLUTE/PATH"`, spec)
}

type syslogAnchor func(string) error

func (s syslogAnchor) Anchor(path, id, hash string) error { return s(AnchorMessage(path, id, hash)) }
