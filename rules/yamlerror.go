package rules

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxLocateLines bounds the files whose YAML errors are located line by
// line (see locateYAMLError): each line costs one parse of the lines
// before it.
const maxLocateLines = 5000

// locateYAMLError returns the line of data (1-based) a human must edit to
// fix err, a syntax error yaml.v3 returned for data, and what is wrong
// there, in words; line is 0 when the file is too long to look (then
// yaml.v3's own line stands, see yamlError).
//
// yaml.v3 names the line where the construct it was reading began, which
// is not always the line at fault, and for the parser's errors (`did not
// find expected …`) that line is counted from 0, one line early: an
// unclosed quote in `allow: ["ls *]` on line 4 is reported at line 3, a
// key indented one space too little on line 5 at line 2. So the line is
// found by parsing: it is the first line from which on no prefix of the
// file parses (the longest prefix that parses ends just before it). A key
// missing its colon reads as the start of a multi-line value, so yaml.v3
// fails on the next line ("mapping values are not allowed"): the line
// before it is named when it holds a key without a colon.
func locateYAMLError(data []byte, err error) (line int, what string) {
	lines := strings.Split(string(data), "\n")
	if len(lines) > maxLocateLines {
		return 0, ""
	}
	// The longest prefix of whole lines that parses; the fault is on the
	// line after it. A prefix ending inside a multi-line list or string
	// that the file closes later fails too, so the search goes from the
	// end and stops at the first prefix that parses.
	line = 1
	for k := len(lines) - 1; k > 0; k-- {
		if yamlParses(strings.Join(lines[:k], "\n")) {
			line = k + 1
			break
		}
	}
	if line > len(lines) {
		line = len(lines)
	}
	msg := err.Error()
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	text := lines[line-1]
	indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
	switch {
	case strings.Contains(indent, "\t"):
		return line, "indented with a tab; YAML indents with spaces only"
	case strings.Contains(msg, "mapping values are not allowed"):
		if p := prevContent(lines, line); p > 0 && keyWithoutColon(lines[p-1]) {
			return p, "a key without a ':' after it (write KEY: VALUE)"
		}
		return line, "a ': ' inside a value; quote the value"
	case strings.Contains(msg, "could not find expected ':'"):
		return line, "a key without a ':' after it (write KEY: VALUE)"
	case unclosedQuote(text) != "":
		return line, "a " + unclosedQuote(text) + " quote that is not closed on this line"
	case strings.Contains(msg, "',' or ']'"):
		return line, "a '[' list that is not closed with ']' (or a ',' missing between its items)"
	case strings.Contains(msg, "',' or '}'"):
		return line, "a '{' mapping that is not closed with '}' (or a ',' missing between its entries)"
	case strings.Contains(msg, "did not find expected key") || strings.Contains(msg, "expected '-' indicator"):
		return line, "its indentation does not match the lines above it (a key or a '- ' item must line up with the others of its list or mapping)"
	case strings.Contains(msg, "alphabetic or numeric character"):
		return line, "a value starting with '*' or '&' is an alias or anchor in YAML; quote the pattern (\"*.sh\")"
	case strings.Contains(msg, "cannot start any token"):
		return line, "a value starting with '@' or '`' must be quoted"
	}
	return line, msg
}

// yamlParses reports whether every YAML document of s parses.
func yamlParses(s string) bool {
	dec := yaml.NewDecoder(strings.NewReader(s))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// prevContent returns the number of the last line before line that is
// neither blank nor a comment, 0 when there is none.
func prevContent(lines []string, line int) int {
	for p := line - 1; p >= 1; p-- {
		if t := strings.TrimSpace(lines[p-1]); t != "" && !strings.HasPrefix(t, "#") {
			return p
		}
	}
	return 0
}

// keyWithoutColon reports a line that looks like a mapping key whose ':'
// is missing: a word at the start, no ':' anywhere, not a list item.
func keyWithoutColon(text string) bool {
	t := strings.TrimSpace(text)
	if t == "" || strings.HasPrefix(t, "-") || strings.ContainsRune(t, ':') {
		return false
	}
	c := t[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// unclosedQuote returns `"` or `'` when text, a line of YAML, opens a
// quoted string it does not close (a comment after '#' aside), "" when it
// closes every one it opens. A ' inside a plain word (don't) opens none.
func unclosedQuote(text string) string {
	var open byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case open == '"' && c == '\\':
			i++
		case open != 0 && c == open:
			if open == '\'' && i+1 < len(text) && text[i+1] == '\'' {
				i++ // '' inside a single-quoted string
				continue
			}
			open = 0
		case open == 0 && c == '#' && (i == 0 || text[i-1] == ' '):
			return ""
		case open == 0 && (c == '"' || c == '\''):
			if i == 0 || strings.IndexByte(" \t[{,:-", text[i-1]) >= 0 {
				open = c
			}
		}
	}
	if open == 0 {
		return ""
	}
	return string(open)
}

// yamlError turns a syntax error yaml.v3 returned for data into a
// ConfigError naming the file, the line to edit (see locateYAMLError) and
// what is wrong there, with the line's text and yaml.v3's own words.
func (ps *parser) yamlError(data []byte, err error) error {
	msg := err.Error()
	reported := 0
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		reported, _ = strconv.Atoi(m[1])
	}
	line, what := locateYAMLError(data, err)
	if line == 0 {
		return &ConfigError{File: ps.file, Line: reported, Problem: "invalid YAML: " + strings.TrimPrefix(yamlLineRE().ReplaceAllString(msg, "$2"), "yaml: "), Err: err}
	}
	text := strings.TrimSpace(string(bytes.Split(data, []byte("\n"))[line-1]))
	if strings.ContainsFunc(text, func(r rune) bool { return r < ' ' }) {
		text = strconv.Quote(text)
	}
	return &ConfigError{File: ps.file, Line: line, Err: err,
		Problem: "invalid YAML: " + what + "; the line reads: " + text + " (yaml.v3: " + strconv.Quote(strings.TrimPrefix(msg, "yaml: ")) + ")"}
}
