package importer

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/guardsh/guardsh/rules"
)

// Codex converts a Codex rules file (~/.codex/rules/*.rules, formerly
// *.codexpolicy), written in Starlark. Codex's execpolicy README
// (https://github.com/openai/codex/blob/main/codex-rs/execpolicy/README.md)
// defines the rule:
//
//	prefix_rule(
//	    pattern = ["git", ["push", "fetch"]],  # argv prefix; a list is alternatives
//	    decision = "prompt",                   # allow (default) | prompt | forbidden
//	    justification = "…",
//	    match = [["git", "push", "origin"]],   # examples, checked when Codex loads
//	    not_match = ["git status"],
//	)
//
// A rule matches a command whose argv starts with the pattern's words, so
// each combination of alternatives becomes "WORD WORD *"; forbidden becomes
// deny, prompt ask. Codex applies the strictest matching decision, as
// guardsh does.
//
// The file is not run: it is read as a sequence of calls whose arguments are
// literals (strings, lists, numbers, True/False/None), which is what Codex
// writes and its docs show. Any other statement (an assignment, a def, a
// call with a computed argument) and any call but prefix_rule is reported,
// not guessed at. A file that does not even tokenize (an unterminated
// string, an unbalanced bracket) is an *InputError with its line.
func Codex(data []byte, file string) (*Result, error) {
	toks, err := starlarkTokens(string(data), file)
	if err != nil {
		return nil, err
	}
	b := newBuilder("codex", file, "Codex rules", "allow", "prompt", "forbidden")
	b.note("A prefix_rule pattern [\"git\", \"push\"] became \"git push *\", which matches `git push` alone and with arguments; each combination of alternatives became a rule of its own.")
	src := string(data)
	for _, stmt := range splitStatements(toks) {
		where := "line " + strconv.Itoa(stmt[0].line)
		text := statementText(src, stmt)
		call, ok := parseCall(stmt)
		if !ok {
			b.skip(where, text, "is Starlark that the importer does not evaluate: it reads only calls whose arguments are literals")
			continue
		}
		switch call.name {
		case "prefix_rule":
			b.codexPrefixRule(where, call.render(), call)
		case "host_executable":
			b.skip(where, text, "says where a program's binary lives; guardsh resolves programs itself; not imported")
		default:
			b.skip(where, text, "calls "+call.name+", which is not a Codex rule the importer knows; "+whyScope)
		}
	}
	return b.res, nil
}

// codexPrefixRule converts one prefix_rule call.
func (b *builder) codexPrefixRule(where, text string, c *scall) {
	var pattern, decision, justification *sval
	for i := range c.pos {
		if i > 0 {
			b.skip(where, text, "has more than one positional argument")
			return
		}
		pattern = &c.pos[0]
	}
	for _, kw := range c.kw {
		v := kw.val
		switch kw.name {
		case "pattern":
			pattern = &v
		case "decision":
			decision = &v
		case "justification":
			justification = &v
		case "match", "not_match":
			// Examples: Codex checks them when it loads the file.
		default:
			b.skip(where, text, "has the unknown argument "+kw.name)
			return
		}
	}
	d := rules.Allow // Codex's default decision
	if decision != nil {
		switch {
		case decision.kind == 's' && decision.str == "allow":
		case decision.kind == 's' && decision.str == "prompt":
			d = rules.Ask
		case decision.kind == 's' && decision.str == "forbidden":
			d = rules.Deny
		default:
			b.skip(where, text, "has a decision other than \"allow\", \"prompt\" or \"forbidden\"")
			return
		}
	}
	if pattern == nil || pattern.kind != 'l' || len(pattern.list) == 0 {
		b.skip(where, text, "has no pattern, or one that is not a non-empty list")
		return
	}
	note := ""
	if justification != nil && justification.kind == 's' {
		note = "justification: " + justification.str
	}
	// Each position: its alternatives, less the words guardsh cannot spell.
	var alts [][]string
	combos := 1
	for _, el := range pattern.list {
		var words []string
		switch el.kind {
		case 's':
			words = []string{el.str}
		case 'l':
			for _, a := range el.list {
				if a.kind != 's' {
					b.skip(where, text, "has a pattern alternative that is not a string")
					return
				}
				words = append(words, a.str)
			}
		}
		if len(words) == 0 {
			b.skip(where, text, "has a pattern element that is neither a string nor a non-empty list of strings")
			return
		}
		var ok []string
		for _, w := range words {
			if why := tokenWhy(w); why != "" {
				b.skip(where, text, why)
				continue
			}
			ok = append(ok, w)
		}
		if len(ok) == 0 {
			return
		}
		alts = append(alts, ok)
		if combos *= len(ok); combos > 256 {
			b.skip(where, text, "has more than 256 combinations of alternatives, too many rules to spell out")
			return
		}
	}
	for _, words := range product(alts) {
		b.add("shell", d, prefixPattern(strings.Join(words, " ")), where, text, note)
	}
}

// product returns every choice of one word per position, in order.
func product(alts [][]string) [][]string {
	out := [][]string{nil}
	for _, choices := range alts {
		var next [][]string
		for _, prefix := range out {
			for _, c := range choices {
				next = append(next, append(append([]string(nil), prefix...), c))
			}
		}
		out = next
	}
	return out
}

// The Starlark subset. Tokens follow the Starlark spec
// (https://github.com/bazelbuild/starlark/blob/master/spec.md, "Lexical
// elements"): newlines inside brackets join lines, '#' starts a comment,
// strings take the prefixes r and b, single or triple quotes, and the
// escapes \a \b \f \n \r \t \v \\ \' \" \ooo \xhh \uXXXX \UXXXXXXXX.

type stok struct {
	kind     byte   // 'i' identifier, 's' string, 'b' bytes, 'n' number, 'p' punctuation, ';' end of statement
	text     string // identifier, punctuation, number; a string's value
	line     int
	off, end int // byte offsets in the source
}

func starlarkTokens(src, file string) ([]stok, error) {
	if !utf8.ValidString(src) {
		return nil, &InputError{File: file, Problem: "not valid UTF-8"}
	}
	var toks []stok
	var open []stok // unclosed brackets
	line := 1
	errorf := func(l int, format string, args ...any) error {
		return &InputError{File: file, Line: l, Problem: "invalid Starlark: " + fmt.Sprintf(format, args...)}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			if len(open) == 0 {
				toks = append(toks, stok{kind: ';', line: line, off: i, end: i})
			}
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			line++
			i += 2
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case isIdentStart(c):
			j := i
			for j < len(src) && (isIdentStart(src[j]) || '0' <= src[j] && src[j] <= '9') {
				j++
			}
			word := src[i:j]
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				switch strings.ToLower(word) {
				case "r", "b", "rb", "br":
					t, next, nl, err := starlarkString(src, j, word, line, errorf)
					if err != nil {
						return nil, err
					}
					t.off = i
					toks = append(toks, t)
					line += nl
					i = next
					continue
				}
			}
			toks = append(toks, stok{kind: 'i', text: word, line: line, off: i, end: j})
			i = j
		case c == '"' || c == '\'':
			t, next, nl, err := starlarkString(src, i, "", line, errorf)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			line += nl
			i = next
		case '0' <= c && c <= '9' || c == '.' && i+1 < len(src) && '0' <= src[i+1] && src[i+1] <= '9':
			j := i
			for j < len(src) && (isIdentStart(src[j]) || '0' <= src[j] && src[j] <= '9' || src[j] == '.') {
				j++
			}
			toks = append(toks, stok{kind: 'n', text: src[i:j], line: line, off: i, end: j})
			i = j
		default:
			t := stok{kind: 'p', text: string(c), line: line, off: i, end: i + 1}
			switch c {
			case '(', '[', '{':
				open = append(open, t)
			case ')', ']', '}':
				want := map[byte]string{')': "(", ']': "[", '}': "{"}[c]
				if len(open) == 0 || open[len(open)-1].text != want {
					return nil, errorf(line, "unbalanced %q", string(c))
				}
				open = open[:len(open)-1]
			case ';':
				if len(open) == 0 {
					t.kind = ';'
				}
			default:
				if c >= utf8.RuneSelf {
					r, _ := utf8.DecodeRuneInString(src[i:])
					return nil, errorf(line, "unexpected character %q", r)
				}
				if !strings.ContainsRune("=,:.+-*/%<>!&|^~@", rune(c)) {
					return nil, errorf(line, "unexpected character %q", string(c))
				}
			}
			toks = append(toks, t)
			i++
		}
	}
	if len(open) > 0 {
		o := open[len(open)-1]
		return nil, errorf(o.line, "%q is never closed", o.text)
	}
	return toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// starlarkString reads the string literal whose opening quote is at
// src[i], with the given prefix (r, b…). It returns the token, the offset
// after it and the newlines it spans.
func starlarkString(src string, i int, prefix string, line int, errorf func(int, string, ...any) error) (stok, int, int, error) {
	raw := strings.ContainsAny(prefix, "rR")
	kind := byte('s')
	if strings.ContainsAny(prefix, "bB") {
		kind = 'b'
	}
	q := src[i : i+1]
	if strings.HasPrefix(src[i:], q+q+q) {
		q = q + q + q
	}
	j := i + len(q)
	nl := 0
	var b strings.Builder
	for {
		if j >= len(src) {
			return stok{}, 0, 0, errorf(line, "unterminated string")
		}
		if strings.HasPrefix(src[j:], q) {
			j += len(q)
			break
		}
		c := src[j]
		if c == '\n' {
			if len(q) == 1 {
				return stok{}, 0, 0, errorf(line+nl, "unterminated string")
			}
			nl++
		}
		if c != '\\' {
			b.WriteByte(c)
			j++
			continue
		}
		if j+1 >= len(src) {
			return stok{}, 0, 0, errorf(line+nl, "unterminated string")
		}
		e := src[j+1]
		if raw {
			// A raw string keeps the backslash; it still escapes a quote
			// or a newline from ending the literal.
			b.WriteByte('\\')
			b.WriteByte(e)
			if e == '\n' {
				nl++
			}
			j += 2
			continue
		}
		j += 2
		switch e {
		case '\n':
			nl++ // line continuation: nothing
		case 'a':
			b.WriteByte('\a')
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
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"':
			b.WriteByte(e)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			k := j - 1
			for k < j+2 && k < len(src) && '0' <= src[k] && src[k] <= '7' {
				k++
			}
			v, _ := strconv.ParseUint(src[j-1:k], 8, 32)
			if v > 127 && kind == 's' {
				return stok{}, 0, 0, errorf(line+nl, "non-ASCII octal escape in a string")
			}
			b.WriteByte(byte(v))
			j = k
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if j+n > len(src) {
				return stok{}, 0, 0, errorf(line+nl, "bad \\%c escape", e)
			}
			v, err := strconv.ParseUint(src[j:j+n], 16, 32)
			if err != nil || e == 'x' && v > 127 && kind == 's' || v > utf8.MaxRune || 0xD800 <= v && v < 0xE000 {
				return stok{}, 0, 0, errorf(line+nl, "bad \\%c escape", e)
			}
			if e == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			j += n
		default:
			return stok{}, 0, 0, errorf(line+nl, "invalid escape sequence \\%c", e)
		}
	}
	return stok{kind: kind, text: b.String(), line: line, off: i, end: j}, j, nl, nil
}

// splitStatements splits tokens at top-level newlines and semicolons,
// dropping empty statements.
func splitStatements(toks []stok) [][]stok {
	var out [][]stok
	start := 0
	for i, t := range toks {
		if t.kind == ';' {
			if i > start {
				out = append(out, toks[start:i])
			}
			start = i + 1
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

// statementText is the statement's source with white space collapsed,
// shortened to 160 bytes.
func statementText(src string, stmt []stok) string {
	s := strings.Join(strings.Fields(src[stmt[0].off:stmt[len(stmt)-1].end]), " ")
	s = strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), "[ ", "[")
	s = strings.ReplaceAll(strings.ReplaceAll(s, ", )", ")"), ", ]", "]")
	if len(s) > 160 {
		cut := 157
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// sval is a literal value: 's' string, 'l' list, 'n' number, 'c' True,
// False or None.
type sval struct {
	kind byte
	str  string
	list []sval
}

type skw struct {
	name string
	val  sval
}

type scall struct {
	name string
	pos  []sval
	kw   []skw
}

// render writes the call back compactly, without the match and not_match
// examples and the justification (which the rule's note carries), for
// origins: prefix_rule(pattern=["git", "push"], decision="prompt").
func (c *scall) render() string {
	var parts []string
	for _, v := range c.pos {
		parts = append(parts, v.render())
	}
	for _, kw := range c.kw {
		if kw.name == "match" || kw.name == "not_match" || kw.name == "justification" {
			continue
		}
		parts = append(parts, kw.name+"="+kw.val.render())
	}
	return c.name + "(" + strings.Join(parts, ", ") + ")"
}

func (v sval) render() string {
	switch v.kind {
	case 's':
		return strconv.Quote(v.str)
	case 'l':
		parts := make([]string, len(v.list))
		for i, e := range v.list {
			parts[i] = e.render()
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return v.str
}

// parseCall parses a statement that is NAME(ARGS) with literal arguments.
func parseCall(ts []stok) (*scall, bool) {
	if len(ts) < 3 || ts[0].kind != 'i' || ts[1].kind != 'p' || ts[1].text != "(" {
		return nil, false
	}
	c := &scall{name: ts[0].text}
	i := 2
	for {
		if i < len(ts) && ts[i].kind == 'p' && ts[i].text == ")" {
			i++
			break
		}
		if i+1 < len(ts) && ts[i].kind == 'i' && ts[i+1].kind == 'p' && ts[i+1].text == "=" {
			name := ts[i].text
			v, next, ok := parseValue(ts, i+2, 0)
			if !ok {
				return nil, false
			}
			c.kw = append(c.kw, skw{name: name, val: v})
			i = next
		} else {
			if len(c.kw) > 0 {
				return nil, false // a positional argument after a keyword one
			}
			v, next, ok := parseValue(ts, i, 0)
			if !ok {
				return nil, false
			}
			c.pos = append(c.pos, v)
			i = next
		}
		if i < len(ts) && ts[i].kind == 'p' && ts[i].text == "," {
			i++
		} else if !(i < len(ts) && ts[i].kind == 'p' && ts[i].text == ")") {
			return nil, false
		}
	}
	return c, i == len(ts)
}

// parseValue parses a literal at ts[i], nested depth lists deep, and
// returns the index after it.
func parseValue(ts []stok, i, depth int) (sval, int, bool) {
	if i >= len(ts) || depth > maxDepth {
		return sval{}, i, false
	}
	t := ts[i]
	var v sval
	switch {
	case t.kind == 's':
		v = sval{kind: 's', str: t.text}
	case t.kind == 'n':
		v = sval{kind: 'n', str: t.text}
	case t.kind == 'i' && (t.text == "True" || t.text == "False" || t.text == "None"):
		v = sval{kind: 'c', str: t.text}
	case t.kind == 'p' && t.text == "[":
		v = sval{kind: 'l'}
		i++
		for {
			if i < len(ts) && ts[i].kind == 'p' && ts[i].text == "]" {
				break
			}
			e, next, ok := parseValue(ts, i, depth+1)
			if !ok {
				return sval{}, i, false
			}
			v.list = append(v.list, e)
			i = next
			if i < len(ts) && ts[i].kind == 'p' && ts[i].text == "," {
				i++
			} else if !(i < len(ts) && ts[i].kind == 'p' && ts[i].text == "]") {
				return sval{}, i, false
			}
		}
	default:
		return sval{}, i, false
	}
	i++
	// A literal followed by an operator ("a" + "b", "x" % y, "s".lower())
	// is an expression, not a literal.
	if i < len(ts) && ts[i].kind == 'p' && !strings.Contains(",)]", ts[i].text) {
		return sval{}, i, false
	}
	if i < len(ts) && ts[i].kind != 'p' {
		return sval{}, i, false
	}
	return v, i, true
}
