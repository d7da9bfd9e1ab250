package tty

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

// Event is one event line of an asciicast v2 file: Time in seconds since
// the recording began, Code "o", "i", "r", "m" (or another the format
// adds later), and Data.
type Event struct {
	Time float64
	Code string
	Data string
}

// Reader reads an asciicast v2 file: the header, then one event at a time.
type Reader struct {
	r    *bufio.Reader
	line int
	last float64
}

// NewReader reads the header of the recording in r and returns it with a
// Reader for its events. Errors (wrapping ErrNotCast): the first line is
// not a JSON object with version 2 and a positive width and height.
func NewReader(r io.Reader) (Header, *Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var h Header
	line, err := br.ReadBytes('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		return h, nil, fmt.Errorf("%w: no header line", ErrNotCast)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&h); err != nil {
		return h, nil, fmt.Errorf("%w: line 1: %v", ErrNotCast, err)
	}
	if h.Version != 2 || h.Width <= 0 || h.Height <= 0 {
		return h, nil, fmt.Errorf("%w: line 1: want version 2 and a positive width and height, got version %d, %dx%d", ErrNotCast, h.Version, h.Width, h.Height)
	}
	return h, &Reader{r: br, line: 1}, nil
}

// Next returns the next event, io.EOF after the last. Errors (wrapping
// ErrNotCast) name the line: not a 3-element array of a number, a string
// and a string; a negative time; a time before the previous event's.
func (r *Reader) Next() (Event, error) {
	for {
		line, err := r.r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) == 0 {
			if err != nil {
				if errors.Is(err, io.EOF) {
					return Event{}, io.EOF
				}
				return Event{}, err
			}
			r.line++
			continue // asciinema tolerates blank lines
		}
		r.line++
		var raw []json.RawMessage
		if jerr := json.Unmarshal(line, &raw); jerr != nil || len(raw) != 3 {
			return Event{}, fmt.Errorf("%w: line %d: an event is a 3-element JSON array", ErrNotCast, r.line)
		}
		var e Event
		if json.Unmarshal(raw[0], &e.Time) != nil || json.Unmarshal(raw[1], &e.Code) != nil || json.Unmarshal(raw[2], &e.Data) != nil {
			return Event{}, fmt.Errorf("%w: line %d: an event is [seconds, code, data]", ErrNotCast, r.line)
		}
		if e.Time < 0 || math.IsNaN(e.Time) || e.Time < r.last {
			return Event{}, fmt.Errorf("%w: line %d: time %g is negative or before the previous event's", ErrNotCast, r.line, e.Time)
		}
		r.last = e.Time
		return e, nil
	}
}

// PlayOptions say how fast Play plays.
type PlayOptions struct {
	// Speed divides every pause (2: twice as fast); 0 means 1.
	Speed float64
	// IdleLimit, when positive, caps every pause (after Speed) at this
	// long, as `asciinema play -i` does.
	IdleLimit time.Duration
	// Sleep waits; nil is time.Sleep.
	Sleep func(time.Duration)
}

// PlayResult is what Play found in the recording.
type PlayResult struct {
	Header Header
	// Events is the number of events read, Output the bytes of output
	// written.
	Events, Output int
	// Truncated: the recording ended at its size cap (TruncatedMarker).
	Truncated bool
	// Duration is the time of the last event, in seconds.
	Duration float64
}

// Play writes the output events of the recording in r to w, pausing
// between them as long as they were apart when recorded (see
// PlayOptions). Input, resize and marker events are not written. Errors
// are NewReader's and Next's, and w's.
func Play(w io.Writer, r io.Reader, opt PlayOptions) (PlayResult, error) {
	if opt.Speed <= 0 {
		opt.Speed = 1
	}
	if opt.Sleep == nil {
		opt.Sleep = time.Sleep
	}
	h, rd, err := NewReader(r)
	res := PlayResult{Header: h}
	if err != nil {
		return res, err
	}
	prev := 0.0
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		res.Events++
		res.Duration = e.Time
		switch e.Code {
		case "o":
			pause := time.Duration((e.Time - prev) / opt.Speed * float64(time.Second))
			if opt.IdleLimit > 0 && pause > opt.IdleLimit {
				pause = opt.IdleLimit
			}
			if pause > 0 {
				opt.Sleep(pause)
			}
			prev = e.Time
			n, err := io.WriteString(w, e.Data)
			res.Output += n
			if err != nil {
				return res, err
			}
		case "m":
			if e.Data == TruncatedMarker {
				res.Truncated = true
			}
		}
	}
}
