package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON parser that keeps what encoding/json drops and the
// converters need: the order of an object's keys (opencode's rules are
// ordered), each value's line (for messages), and the comments and
// trailing commas of JSONC, which opencode.jsonc and Gemini CLI's
// settings.json may hold.

// jnode is a JSON value.
type jnode struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	str  string
	b    bool
	keys []string // object keys, in file order (duplicates kept)
	vals []*jnode // object values or array elements
	line int
}

// get returns the value of the last key k of object n, or nil (as
// JavaScript's JSON.parse keeps the last of duplicate keys).
func (n *jnode) get(k string) *jnode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == k {
			return n.vals[i]
		}
	}
	return nil
}

// kindName describes n's type for messages.
func (n *jnode) kindName() string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "a list"
	case 's':
		return "a string"
	case 'n':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

// text renders n compactly as JSON, for origins of entries that are not
// strings.
func (n *jnode) text() string {
	switch n.kind {
	case 's':
		return jsonQuote(n.str)
	case 'n':
		return n.str
	case 'b':
		return strconv.FormatBool(n.b)
	case 'z':
		return "null"
	case 'a':
		parts := make([]string, len(n.vals))
		for i, v := range n.vals {
			parts[i] = v.text()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	parts := make([]string, len(n.keys))
	for i, k := range n.keys {
		parts[i] = jsonQuote(k) + ": " + n.vals[i].text()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// jsonQuote returns s as a JSON string, with <, > and & as they are.
func jsonQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// parseJSONC parses data as JSON with // and /* */ comments and trailing
// commas allowed. Errors are *InputError with the line.
func parseJSONC(data []byte, file string) (*jnode, error) {
	p := &jparser{s: string(data), file: file, line: 1}
	if strings.HasPrefix(p.s, "\uFEFF") {
		p.i = 3
	}
	if !utf8.ValidString(p.s) {
		return nil, p.errorf(0, "not valid UTF-8")
	}
	p.space()
	if p.err != nil {
		return nil, p.err
	}
	if p.i == len(p.s) {
		return nil, p.errorf(0, "empty file; expected a JSON object")
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.err != nil {
		return nil, p.err
	}
	if p.i < len(p.s) {
		return nil, p.errorf(p.line, "unexpected %s after the JSON value", p.what())
	}
	return n, nil
}

type jparser struct {
	s    string
	i    int
	file string
	line int
	err  *InputError
}

func (p *jparser) errorf(line int, format string, args ...any) *InputError {
	return &InputError{File: p.file, Line: line, Problem: "invalid JSON: " + fmt.Sprintf(format, args...)}
}

// what names the character at p.i.
func (p *jparser) what() string {
	if p.i >= len(p.s) {
		return "end of file"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return strconv.QuoteRune(r)
}

// space skips white space and comments, counting lines. An unterminated
// block comment is left for the caller to trip over.
func (p *jparser) space() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '\n':
			p.line++
			p.i++
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case strings.HasPrefix(p.s[p.i:], "//"):
			end := strings.IndexByte(p.s[p.i:], '\n')
			if end < 0 {
				p.i = len(p.s)
			} else {
				p.i += end
			}
		case strings.HasPrefix(p.s[p.i:], "/*"):
			end := strings.Index(p.s[p.i+2:], "*/")
			if end < 0 {
				p.err = p.errorf(p.line, "unterminated /* comment")
				p.i = len(p.s)
				return
			}
			p.line += strings.Count(p.s[p.i:p.i+2+end], "\n")
			p.i += 2 + end + 2
		default:
			return
		}
	}
}

const maxDepth = 200

func (p *jparser) value(depth int) (*jnode, error) {
	if p.err != nil {
		return nil, p.err
	}
	if depth > maxDepth {
		return nil, p.errorf(p.line, "nested more than %d deep", maxDepth)
	}
	if p.i >= len(p.s) {
		return nil, p.errorf(p.line, "unexpected end of file")
	}
	line := p.line
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		n := &jnode{kind: 'o', line: line}
		for {
			p.space()
			if p.err != nil {
				return nil, p.err
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return n, nil
			}
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return nil, p.errorf(p.line, "expected a string key or '}', got %s", p.what())
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.errorf(p.line, "expected ':' after key %q, got %s", k, p.what())
			}
			p.i++
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.keys, n.vals = append(n.keys, k), append(n.vals, v)
			if err := p.comma('}'); err != nil {
				return nil, err
			}
		}
	case c == '[':
		p.i++
		n := &jnode{kind: 'a', line: line}
		for {
			p.space()
			if p.err != nil {
				return nil, p.err
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return n, nil
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
			if err := p.comma(']'); err != nil {
				return nil, err
			}
		}
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jnode{kind: 's', str: s, line: line}, nil
	case c == '-' || '0' <= c && c <= '9':
		j := p.i + 1
		for j < len(p.s) && strings.IndexByte("0123456789.eE+-", p.s[j]) >= 0 {
			j++
		}
		num := p.s[p.i:j]
		if _, err := strconv.ParseFloat(num, 64); err != nil {
			return nil, p.errorf(line, "bad number %q", num)
		}
		p.i = j
		return &jnode{kind: 'n', str: num, line: line}, nil
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(p.s[p.i:], lit) {
			p.i += len(lit)
			if lit == "null" {
				return &jnode{kind: 'z', line: line}, nil
			}
			return &jnode{kind: 'b', b: lit == "true", line: line}, nil
		}
	}
	return nil, p.errorf(line, "unexpected %s", p.what())
}

// comma consumes the ',' after a member or element, or sees the closing
// bracket (left for the caller). A trailing comma before it is allowed.
func (p *jparser) comma(closing byte) error {
	p.space()
	if p.err != nil {
		return p.err
	}
	if p.i < len(p.s) && p.s[p.i] == ',' {
		p.i++
		return nil
	}
	if p.i < len(p.s) && p.s[p.i] == closing {
		return nil
	}
	return p.errorf(p.line, "expected ',' or '%c', got %s", closing, p.what())
}

// str reads a string literal at p.i.
func (p *jparser) str() (string, error) {
	line := p.line
	p.i++ // the opening quote
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.errorf(line, "unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.errorf(p.line, "control character in string (escape it)")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", p.errorf(line, "unterminated string")
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errorf(p.line, `bad \u escape`)
			}
			if utf16.IsSurrogate(r) {
				if strings.HasPrefix(p.s[p.i:], `\u`) {
					p.i += 2
					if r2, ok := p.hex4(); ok {
						r = utf16.DecodeRune(r, r2)
					} else {
						return "", p.errorf(p.line, `bad \u escape`)
					}
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			return "", p.errorf(p.line, "bad escape \\%c in string", e)
		}
	}
}

func (p *jparser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}
