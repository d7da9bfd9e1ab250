package audit

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// The record is encoded by hand, in exactly the bytes encoding/json writes
// for it with HTML escaping off. encoding/json builds the encoder of a type
// by reflection on its first use, and every guardsh process uses it once:
// that cost about half a millisecond of each start on the machines
// measured, more than deciding the command. TestEncodingMatchesEncodingJSON
// compares the two byte for byte on records filled at random, field by
// field from the struct tags, so a field added to Record, Segment, LLM or
// Human and not written here fails it.

// appendRecord appends r as one JSON object (no newline) to b: the members
// in the order of Record's fields, omitempty members left out when empty,
// nil Argv and Segments as []. It fails on a non-finite number, as
// encoding/json does.
func appendRecord(b []byte, r *Record) ([]byte, error) {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(r.V), 10)
	b = appendMember(b, "ts", r.TS)
	b = appendMember(b, "id", r.ID)
	if r.Session != "" {
		b = appendMember(b, "session", r.Session)
	}
	b = append(b, `,"ppid":`...)
	b = strconv.AppendInt(b, int64(r.PPID), 10)
	if r.Agent != "" {
		b = appendMember(b, "agent", r.Agent)
	}
	if c := r.CI; c != nil {
		b = append(b, `,"ci":{"system":`...)
		b = appendString(b, c.System)
		for _, m := range [...]struct{ key, v string }{{"repository", c.Repository}, {"workflow", c.Workflow}, {"run", c.Run},
			{"attempt", c.Attempt}, {"job", c.Job}, {"job_id", c.JobID}, {"step", c.Step}} {
			if m.v != "" {
				b = appendMember(b, m.key, m.v)
			}
		}
		b = append(b, '}')
	}
	b = appendMember(b, "user", r.User)
	b = appendMember(b, "cwd", r.Cwd)
	b = append(b, `,"argv":`...)
	b = appendStrings(b, r.Argv)
	b = appendMember(b, "command", r.Command)
	if r.Redacted {
		b = append(b, `,"redacted":true`...)
	}
	b = appendMember(b, "mode", r.Mode)
	b = append(b, `,"segments":[`...)
	for i := range r.Segments {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendSegment(b, &r.Segments[i]); err != nil {
			return nil, err
		}
	}
	b = append(b, ']')
	b = appendMember(b, "decision", r.Decision)
	b = appendMember(b, "decided_by", r.DecidedBy)
	b = append(b, `,"exit":`...)
	if r.Exit == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*r.Exit), 10)
	}
	b = append(b, `,"duration_ms":`...)
	b, err := appendFloat(b, r.DurationMS)
	if err != nil {
		return nil, err
	}
	if r.LLM != nil {
		b = append(b, `,"llm":`...)
		if b, err = appendLLM(b, r.LLM); err != nil {
			return nil, err
		}
	}
	if r.Sandbox != "" {
		b = appendMember(b, "sandbox", r.Sandbox)
	}
	if r.Recording != "" {
		b = appendMember(b, "recording", r.Recording)
	}
	if r.Error != "" {
		b = appendMember(b, "error", r.Error)
	}
	if r.Human != nil {
		b = append(b, `,"human":`...)
		if b, err = appendHuman(b, r.Human); err != nil {
			return nil, err
		}
	}
	b = appendMember(b, "prev", r.Prev)
	b = appendMember(b, "hash", r.Hash)
	return append(b, '}'), nil
}

// appendSegment appends s as one JSON object, nil Argv as [].
func appendSegment(b []byte, s *Segment) ([]byte, error) {
	b = append(b, `{"argv":`...)
	b = appendStrings(b, s.Argv)
	b = appendMember(b, "kind", s.Kind)
	b = appendMember(b, "class", s.Class)
	if s.Sensitivity != "" {
		b = appendMember(b, "sensitivity", s.Sensitivity)
	}
	b = appendMember(b, "decision", s.Decision)
	b = append(b, `,"rule":`...)
	if s.Rule == nil {
		b = append(b, "null"...)
	} else {
		b = appendString(b, *s.Rule)
	}
	if s.Source != "" {
		b = appendMember(b, "source", s.Source)
	}
	b = appendMember(b, "reason", s.Reason)
	if len(s.Via) > 0 {
		b = append(b, `,"via":`...)
		b = appendStrings(b, s.Via)
	}
	if s.LLM != nil {
		b = append(b, `,"llm":`...)
		var err error
		if b, err = appendLLM(b, s.LLM); err != nil {
			return nil, err
		}
	}
	if s.Sandbox {
		b = append(b, `,"sandbox":true`...)
	}
	return append(b, '}'), nil
}

// appendLLM appends l as one JSON object.
func appendLLM(b []byte, l *LLM) ([]byte, error) {
	b = append(b, `{"role":`...)
	b = appendString(b, l.Role)
	b = appendMember(b, "model", l.Model)
	b = appendMember(b, "verdict", l.Verdict)
	if l.Confident != nil {
		b = append(b, `,"confident":`...)
		b = strconv.AppendBool(b, *l.Confident)
	}
	if l.Reason != "" {
		b = appendMember(b, "reason", l.Reason)
	}
	b = appendMember(b, "effect", l.Effect)
	b = append(b, `,"latency_ms":`...)
	b, err := appendFloat(b, l.LatencyMS)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"cached":`...)
	b = strconv.AppendBool(b, l.Cached)
	if l.Error != "" {
		b = appendMember(b, "error", l.Error)
	}
	if l.Warning != "" {
		b = appendMember(b, "warning", l.Warning)
	}
	return append(b, '}'), nil
}

// appendHuman appends h as one JSON object.
func appendHuman(b []byte, h *Human) ([]byte, error) {
	b = append(b, `{"answer":`...)
	b = appendString(b, h.Answer)
	b = append(b, `,"latency_ms":`...)
	b, err := appendFloat(b, h.LatencyMS)
	if err != nil {
		return nil, err
	}
	if h.Approval != "" {
		b = appendMember(b, "approval", h.Approval)
	}
	if len(h.Rules) > 0 {
		b = append(b, `,"rules":`...)
		b = appendStrings(b, h.Rules)
	}
	if h.Message != "" {
		b = appendMember(b, "message", h.Message)
	}
	return append(b, '}'), nil
}

// appendMember appends `,"key":` and v as a JSON string.
func appendMember(b []byte, key, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

// appendStrings appends ss as a JSON array of strings, nil as [].
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does with
// HTML escaping off: `"` and `\` escaped, \b \f \n \r \t by name, other
// control characters as \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 (line terminators to JavaScript) as \u2028 and \u2029.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendFloat appends f as encoding/json does (the shortest representation
// that reads back as f, in ES6 number style: exponent form below 1e-6 and
// from 1e21, with no leading zero in a negative exponent), and fails for a
// NaN or an infinity, which JSON cannot hold.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("json: unsupported value: %v", f)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-07 → e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
