package audit

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bounds are the limits a redaction of shell text must keep: a secret is
// one word's (an argument, an assignment's value, a here-document's body)
// and a redaction never reaches into another word, another command or a
// command substitution. Without them, a pattern whose value runs to the
// end of a line (a Cookie header's) ate the commands after it: an attack
// run hid `touch hidden.txt` behind `echo Cookie: a; …`.
type bounds struct {
	// words are the spans [start, end) of the text's words, byte
	// offsets, nested ones included (the words of a script given to
	// bash -c or eval, when the record's segments show the analysis
	// read it as one).
	words [][2]int
	// tops are, for each of words, the start of the outermost word that
	// holds it (its own start when none does; see sort).
	tops []int
	// cuts are offsets a redaction stops before: where a word or a
	// command starts.
	cuts []int
	// stops are where a substitution starts (or, in text that does not
	// parse, a separator): a redaction stops before one, and one that
	// would start there is none (a value that is $(…) holds no secret
	// the text shows).
	stops []int
	// stmts are where statements start, sorted.
	stmts []int
	// parts are the quoted and expanded parts of words ('…', "…",
	// $'…', ${…}, $((…)), @(…)): start, end and the lengths of their
	// opening and closing delimiters. A redaction replaces a part whole
	// or inside its delimiters, never one delimiter alone: the text
	// left parses as the command did, into the same commands.
	parts [][4]int
	// whole is true for text that is not shell: one word, no cuts.
	whole bool
	// text is the shell text, when not whole.
	text string
}

// clamp returns the part of [s, e) a redaction may replace under b: from
// the first word start at or after s when s lies in no word, to the end
// of the innermost word holding it (before its closing quote) or the
// first cut after it, whichever comes first, or the first substitution
// at or after s. ok is false when
// nothing is left. b's slices are sorted (sort): a clamp costs a few
// binary searches, however many words and secrets a command has.
func (b *bounds) clamp(s, e int) (int, int, bool) {
	if b == nil || b.whole {
		return s, e, s < e
	}
	k, ok := b.innermostAt(s)
	if !ok {
		// The first word starting after s, if before e.
		i, _ := slices.BinarySearchFunc(b.words, s+1, func(w [2]int, t int) int { return w[0] - t })
		if i == len(b.words) || b.words[i][0] >= e {
			return 0, 0, false
		}
		s = b.words[i][0]
		if k, ok = b.innermostAt(s); !ok {
			return 0, 0, false
		}
	}
	w := b.words[k]
	e = min(e, w[1])
	if i, _ := slices.BinarySearch(b.cuts, s+1); i < len(b.cuts) {
		e = min(e, b.cuts[i])
	}
	if i, _ := slices.BinarySearch(b.stops, s); i < len(b.stops) {
		e = min(e, b.stops[i])
	}
	// The parts from the outermost word's start: a nested script's
	// word may run across its outer word's closing quote (fuzzing
	// found such a word given to eval redacted up to that quote, and
	// what was left did not parse; TestNestedWordAcrossQuotes).
	top := w[0]
	if k < len(b.tops) {
		top = b.tops[k]
	}
	s, e = b.fitParts(s, e, top)
	// Nor is a backslash that escapes what follows the span (\" in a
	// double-quoted script): replaced, it would unquote the rest.
	if e > s && e < len(b.text) && escapes(b.text, e-1) {
		e--
	}
	return s, e, s < e
}

// escapes reports whether text[i] is a backslash that escapes what
// follows it: one preceded by an even number of backslashes (\\ is an
// escaped backslash, which escapes nothing; fuzzing found `"Cookie:\\"`
// redacted to `"Cookie:[REDACTED]\"`, its closing quote escaped).
func escapes(text string, i int) bool {
	n := 0
	for j := i; j >= 0 && text[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// oneWord reports whether offsets a and b lie in one word (always, for
// text that is not shell).
func (b *bounds) oneWord(a, c int) bool {
	if b == nil || b.whole {
		return true
	}
	w, ok := b.innermost(a)
	return ok && w[0] <= c && c < w[1]
}

// spread returns [s, e) clamped in each word it covers, for a secret
// that is its whole match (a key block whose lines are words of their
// own: printf '%s\n' BEGIN BODY END kept BODY, attack run 59); only when
// no statement starts inside it, else the first word's part alone (an
// attack run hid `touch h2` between a BEGIN and an END line written as
// arguments of two echo commands).
func (b *bounds) spread(s, e int) [][2]int {
	first := func() [][2]int {
		if s, e, ok := b.clamp(s, e); ok {
			return [][2]int{{s, e}}
		}
		return nil
	}
	if b == nil || b.whole {
		return first()
	}
	if i, _ := slices.BinarySearch(b.stmts, s+1); i < len(b.stmts) && b.stmts[i] < e {
		return first()
	}
	var out [][2]int
	for _, w := range b.words {
		if w[1] <= s || w[0] >= e {
			continue
		}
		if ws, we, ok := b.clamp(max(s, w[0]), min(e, w[1])); ok {
			out = append(out, [2]int{ws, we})
		}
	}
	return out
}

// fitParts narrows [s, e), inside the word starting at w0, so that it
// holds each part it meets whole or lies inside its delimiters: a span
// that starts in a part ends before the part's closing delimiter, one
// that reaches into a part from outside stops where the part starts.
func (b *bounds) fitParts(s, e, w0 int) (int, int) {
	first, _ := slices.BinarySearchFunc(b.parts, w0, func(p [4]int, t int) int { return p[0] - t })
	for changed := true; changed && s < e; {
		changed = false
		for _, p := range b.parts[first:] {
			if p[0] >= e {
				break
			}
			start, end, open, closing := p[0], p[1], p[2], p[3]
			switch {
			case start < s && s < start+open:
				s, changed = start, true // in the opening delimiter: the part whole
			case start < s && s < end && e > end-closing:
				e, changed = end-closing, true
			case s <= start && start < e && e < end:
				e, changed = start, true
			}
		}
	}
	return s, e
}

// innermost is the shortest word span holding offset s. Words nest or
// are disjoint, so it is the last one starting at or before s that
// reaches past it.
func (b *bounds) innermost(s int) ([2]int, bool) {
	if k, ok := b.innermostAt(s); ok {
		return b.words[k], true
	}
	return [2]int{}, false
}

// innermostAt is innermost's index in b.words.
func (b *bounds) innermostAt(s int) (int, bool) {
	i, _ := slices.BinarySearchFunc(b.words, s+1, func(w [2]int, t int) int { return w[0] - t })
	for i--; i >= 0; i-- {
		if b.words[i][1] > s {
			return i, true
		}
	}
	return 0, false
}

// sort orders the words by start (the longer first where two start
// together, so the last one holding an offset is the innermost) and
// the cuts and stops by offset.
func (b *bounds) sort() *bounds {
	slices.SortFunc(b.words, func(x, y [2]int) int { return cmp.Or(x[0]-y[0], y[1]-x[1]) })
	// Each word's outermost holder: the bottom of the stack of the words
	// still open where it starts (words nest or are disjoint).
	b.tops = make([]int, len(b.words))
	var open []int
	for i, w := range b.words {
		for len(open) > 0 && b.words[open[len(open)-1]][1] <= w[0] {
			open = open[:len(open)-1]
		}
		b.tops[i] = w[0]
		if len(open) > 0 {
			b.tops[i] = b.words[open[0]][0]
		}
		open = append(open, i)
	}
	slices.Sort(b.cuts)
	slices.Sort(b.stops)
	slices.Sort(b.stmts)
	slices.SortFunc(b.parts, func(x, y [4]int) int { return cmp.Or(x[0]-y[0], y[1]-x[1]) })
	return b
}

// maxNesting bounds how deep shellBounds follows scripts inside words.
const maxNesting = 4

// nestedPrograms returns the programs of the segments found in nested
// code (Segment.Via not empty): each one's first word after its prefix
// assignments, as the record shows it.
func nestedPrograms(segments []Segment) map[string]bool {
	var out map[string]bool
	for _, s := range segments {
		if len(s.Via) == 0 {
			continue
		}
		for _, w := range s.Argv {
			if isAssignment(w) {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			out[w] = true
			break
		}
	}
	return out
}

// isAssignment reports whether w is a prefix assignment as a segment's
// argv shows it: NAME=…, NAME+=…, NAME[…]=….
func isAssignment(w string) bool {
	i := 0
	for i < len(w) && (w[i] == '_' || 'a' <= w[i]|0x20 && w[i]|0x20 <= 'z' || i > 0 && '0' <= w[i] && w[i] <= '9') {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(w) && w[i] == '[' {
		j := strings.IndexByte(w[i:], ']')
		if j < 0 {
			return false
		}
		i += j + 1
	}
	if i < len(w) && w[i] == '+' {
		i++
	}
	return i < len(w) && w[i] == '='
}

// shellBounds returns the bounds of the shell text cmd. nested are the
// programs of the segments the analysis found in nested code
// (nestedPrograms): a word whose text parses to a script running one of
// them, as written or after quote removal, is taken for the script the
// analysis read, and its own words bound a redaction inside it (a false
// match costs at worst part of a secret, a missed one hid commands). Text that does not parse is cut at every character that may
// separate commands (; & | newline ` ( ) < >), quoted or not.
func shellBounds(cmd string, nested map[string]bool) *bounds {
	b := &bounds{text: cmd}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		b.words = [][2]int{{0, len(cmd)}}
		for i := 0; i < len(cmd); i++ {
			if strings.IndexByte(";&|\n`()<>", cmd[i]) >= 0 {
				b.stops = append(b.stops, i)
				b.cuts = append(b.cuts, i+1)
			}
		}
		return b.sort()
	}
	b.add(f, nil, nested, 0)
	return b.sort()
}

// add records the words and cuts of node n, whose offsets map to the
// original text through off (nil: they are the original's).
func (b *bounds) add(n syntax.Node, off []int, nested map[string]bool, depth int) {
	at := func(i int) int {
		if off == nil {
			return i
		}
		if i >= len(off) {
			return off[len(off)-1] + 1
		}
		return off[i]
	}
	span := func(n syntax.Node) [2]int {
		s, e := int(n.Pos().Offset()), int(n.End().Offset())
		if off == nil {
			return [2]int{s, e}
		}
		return [2]int{at(s), at(e-1) + 1}
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			sp := span(n)
			b.words = append(b.words, sp)
			b.cuts = append(b.cuts, sp[0])
			if depth < maxNesting && len(nested) > 0 {
				b.script(n, off, nested, depth)
			}
		case *syntax.CallExpr:
			// The words after a program that runs code it is given
			// (bash -c's, eval's, python -c's) are bounded as code,
			// read or not: a redaction in one never reaches past a
			// separator inside it (attack run 59: `bash -c "echo
			// Cookie: a; touch f; echo $PWD"`, a script the analysis
			// did not read, was recorded as `bash -c "echo Cookie:
			// [REDACTED]"`).
			if k := codeRunnerAt(n.Args); k >= 0 && depth < maxNesting {
				for _, w := range n.Args[k+1:] {
					b.code(w, off, span(w), nested, depth)
				}
			}
		case *syntax.Stmt:
			b.cuts = append(b.cuts, span(n)[0])
			b.stmts = append(b.stmts, span(n)[0])
		case *syntax.SglQuoted:
			b.part(span(n), len("'")+boolInt(n.Dollar), len("'"))
		case *syntax.DblQuoted:
			b.part(span(n), len(`"`)+boolInt(n.Dollar), len(`"`))
		case *syntax.ParamExp:
			if !n.Short {
				b.part(span(n), len("${"), len("}"))
			}
		case *syntax.ArithmExp:
			if !n.Bracket {
				b.part(span(n), len("$(("), len("))"))
			} else {
				b.part(span(n), len("$["), len("]"))
			}
		case *syntax.ExtGlob:
			b.part(span(n), len("@("), len(")"))
		case *syntax.CmdSubst, *syntax.ProcSubst:
			b.stops = append(b.stops, span(n)[0])
		}
		return true
	})
}

// part records a part of a word (see bounds.parts), if its span can hold
// its delimiters.
func (b *bounds) part(sp [2]int, open, closing int) {
	if sp[1]-sp[0] >= open+closing {
		b.parts = append(b.parts, [4]int{sp[0], sp[1], open, closing})
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

// script adds the words of w's text when it is a script the analysis
// read (see shellBounds).
func (b *bounds) script(w *syntax.Word, off []int, nested map[string]bool, depth int) {
	val, voff, ok := literal(w)
	if !ok {
		return
	}
	f, ok := parseScript(val, nested)
	if !ok {
		return
	}
	if off != nil {
		for i, o := range voff {
			voff[i] = off[o]
		}
	}
	b.add(f, voff, nested, depth+1)
}

// code adds the bounds of w, a word a code runner gets: the words of its
// text when it parses as shell (a script the analysis read adds them
// through script already), else a stop before and a cut after every
// character that may separate commands or statements (; & | newline `
// ( ) < >) and every backslash (an escape in $'…' may stand for one).
func (b *bounds) code(w *syntax.Word, off []int, sp [2]int, nested map[string]bool, depth int) {
	if val, voff, ok := literal(w); ok {
		if f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(val), ""); err == nil {
			if off != nil {
				for i, o := range voff {
					voff[i] = off[o]
				}
			}
			b.add(f, voff, nested, depth+1)
			return
		}
	}
	for i := sp[0]; i < sp[1] && i < len(b.text); i++ {
		if strings.IndexByte(";&|\n`()<>\\", b.text[i]) >= 0 {
			b.stops = append(b.stops, i)
			b.cuts = append(b.cuts, i+1)
		}
	}
}

// codeRunners are the programs whose arguments may be code they run:
// shells, eval and trap, interpreters, and programs that hand a string
// to a shell (su -c, ssh's remote command, watch, flock -c, script -c,
// parallel). A wrapper (sudo, env, timeout) needs no entry: the shell it
// starts is found after it. audit cannot import rules; the list is its
// own.
var codeRunners = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "fish": true, "busybox": true,
	"csh": true, "tcsh": true, "eval": true, "trap": true, "su": true, "ssh": true, "watch": true, "flock": true,
	"script": true, "parallel": true, "node": true, "nodejs": true, "deno": true, "bun": true,
	"ruby": true, "perl": true, "php": true, "lua": true, "awk": true, "gawk": true, "mawk": true, "nawk": true,
}

// isCodeRunner reports whether name (a word's value) names one of
// codeRunners, or a Python.
func isCodeRunner(name string) bool {
	name = path.Base(name)
	return codeRunners[name] || strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy")
}

// codeRunnerAt returns the index of the first of args that names a code
// runner (a literal word), or -1.
func codeRunnerAt(args []*syntax.Word) int {
	for i, w := range args {
		if v, _, ok := literal(w); ok && isCodeRunner(v) {
			return i
		}
	}
	return -1
}

// isScript reports whether text parses to a script running one of the
// nested programs (see shellBounds).
func isScript(text string, nested map[string]bool) bool {
	_, ok := parseScript(text, nested)
	return ok
}

func parseScript(val string, nested map[string]bool) (*syntax.File, bool) {
	if len(nested) == 0 || !strings.ContainsAny(val, " \t\n;&|") {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(val), "")
	if err != nil {
		return nil, false
	}
	isScript := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			name := c.Args[0]
			v, _, ok := literal(name)
			isScript = ok && nested[v] || nested[val[name.Pos().Offset():name.End().Offset()]]
		}
		return !isScript
	})
	return f, isScript
}

// literal returns the value of w after quote removal when w holds no
// expansion, with the offset in the original text of each of its bytes.
func literal(w *syntax.Word) (string, []int, bool) {
	var val []byte
	var off []int
	lit := func(s string, at int, escapes string) {
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) && (escapes == "" || strings.IndexByte(escapes, s[i+1]) >= 0) {
				i++
			}
			val = append(val, s[i])
			off = append(off, at+i)
		}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			lit(p.Value, int(p.Pos().Offset()), "")
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", nil, false
			}
			at := int(p.Left.Offset()) + 1
			for i := 0; i < len(p.Value); i++ {
				val = append(val, p.Value[i])
				off = append(off, at+i)
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", nil, false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", nil, false
				}
				lit(l.Value, int(l.Pos().Offset()), "$`\"\\\n")
			}
		default:
			return "", nil, false
		}
	}
	return string(val), off, true
}
