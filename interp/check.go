package interp

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// readingError is a text that parses but where the parser's reading may
// differ from the shell's: the analysis would then see other commands than
// the ones that run. Off is a byte offset in the text parsed.
type readingError struct {
	Off    int
	Reason string
}

func (e *readingError) Error() string { return e.Reason }

// checkReading refuses parsed text where mvdan.cc/sh and bash (or dash) are
// known to read differently:
//
//   - a comment whose line ends in a backslash: the shell ends the comment
//     at the newline, the parser continues the line after it;
//   - a line continuation (backslash-newline) that the shell removes before
//     it looks for tokens, joining characters the parser keeps apart: "$\"
//     newline "(" is "$(" to bash, and the same holds for "<(", "&&", "<<",
//     "((" and the like. A continuation is accepted when a blank, a newline
//     or the text's start comes before it or a blank or newline after it (the
//     usual "cmd \" newline "  --flag"), or when it joins two word characters
//     (letters, digits, "_", ".", ",", "/", "-" and non-ASCII bytes); never
//     after "$". In single quotes and quoted here-document bodies it is
//     plain text;
//   - an unquoted here-document body with a line continuation that makes
//     the shell end the body elsewhere than the parser does;
//   - a single-quoted string where the shell does not treat single quotes
//     as quotes: inside the operand of a ${…} expansion in double quotes or
//     in an unquoted here-document body, and in arithmetic (ArithmExp,
//     ((…)), array subscripts, ${x:offset:length}, for ((…))). There bash
//     expands what the parser takes as quoted text ("${x:-'$(cmd)'}" and
//     $(( '$(cmd)' )) run cmd). A single-quoted string that holds only
//     letters, digits, blanks and "_.,:/+=@%-" reads the same either way
//     (an associative array key m['k']) and is accepted; so is everything
//     inside a command or process substitution, which starts afresh;
//   - "<(" or ">(" in the operand of a ${…} expansion: bash runs a process
//     substitution there (${x:-<(cmd)}), the parser reads it as text;
//   - the here-documents and backquotes of hereChecker.
func checkReading(file *syntax.File, src string) *readingError {
	var c readingChecker
	c.init(src)
	for _, st := range file.Stmts {
		c.add(st)
	}
	return c.result()
}

// readingChecker is checkReading one top-level statement at a time, for
// a text parsed as a stream: add each statement in order, then result.
// It keeps what the checks need (the first bad quote, the spans of
// quoted text, the here-documents), not the statements.
type readingChecker struct {
	src string
	// quotes: the text may hold single quotes bash reads as plain
	// characters; conts: it has a line continuation.
	quotes, conts bool
	qc            quoteChecker
	hc            hereChecker
	plain, quoted spans
	hdocs         []*syntax.Redirect
}

// init readies c for the statements of src.
func (c *readingChecker) init(src string) {
	c.src = src
	// Single quotes are literal only inside "${…}", a here-document,
	// arithmetic ("((", "$[", subscripts "[…]"); process substitution
	// matters only in "${…}".
	c.quotes = strings.Contains(src, "${") || (strings.IndexByte(src, '\'') >= 0 &&
		(strings.Contains(src, "<<") || strings.Contains(src, "((") || maySubscript(src)))
	c.conts = strings.Contains(src, "\\\n")
	c.hc.src = src
	c.hc.on = strings.Contains(src, "<<") || strings.IndexByte(src, '`') >= 0 ||
		strings.Contains(src, "!(") || strings.Contains(src, "@(") || strings.Contains(src, "*(") ||
		strings.Contains(src, "+(") || strings.Contains(src, "?(") || strings.Contains(src, "${")
	if c.quotes {
		c.qc.visitor = c.qc.visit
	}
}

// add checks the next top-level statement.
func (c *readingChecker) add(st *syntax.Stmt) {
	if c.quotes && c.qc.bad == nil {
		c.qc.walk(st, false)
	}
	if c.conts && c.qc.bad == nil {
		c.collect(st)
	}
	if c.hc.on && c.hc.bad == nil {
		c.hc.walk(st, 0)
	}
}

// result is checkReading's answer for the statements added.
func (c *readingChecker) result() *readingError {
	switch {
	case c.qc.procSubst:
		return &readingError{Off: int(c.qc.bad.Pos().Offset()),
			Reason: "a process substitution in a ${…} operand (bash runs it, the parser reads text)"}
	case c.qc.bad != nil:
		return &readingError{Off: int(c.qc.bad.Pos().Offset()),
			Reason: "single quotes where bash does not treat them as quotes (in arithmetic, or in a ${…} operand inside double quotes or a here-document)"}
	}
	if c.hc.bad != nil {
		return c.hc.bad
	}
	if c.conts {
		return c.checkContinuations()
	}
	return nil
}

// hereChecker refuses the here-documents and backquote substitutions that
// bash ends elsewhere than the parser does, so that text one of them
// reads as data the other runs as commands (attack runs ran code past
// every rule so):
//
//   - a backquote substitution that the first backquote not escaped by a
//     backslash does not end where the parser ends it: bash ends it there
//     whatever quotes come between (echo `echo '`; cmd #'`);
//   - backquotes nested in backquotes, and a here-document inside
//     backquotes: bash ends the body with the substitution's text and
//     runs the lines the parser reads as the body;
//   - a here-document delimiter that is not plain: letters, digits and
//     "_.,:+@%/=-", whole or in one pair of single or double quotes, after
//     at most one leading backslash. Quote removal (a backslash in double
//     quotes, $'…') makes bash's delimiter another than the parser's;
//   - a here-document body holding a line that begins with its delimiter
//     and goes on with anything but a word character: bash ends the body
//     at such a line when the parser read on (an expansion spanning the
//     delimiter line, "EOF)" ending the body and a $(…) at once);
//   - a here-document body the parser ends at a line that is not its
//     delimiter (mvdan.cc/sh ends one at "${x}EOF"; bash reads on);
//   - a command name that begins with an extended glob: the parser reads
//     "!(…)" as one, bash (extglob off, as in bash -c) as "!" and a
//     subshell that runs;
//   - an extended glob whose pattern holds "$" or a backquote: the parser
//     keeps the pattern as text, bash expands it ([[ x == @($(cmd)) ]],
//     and every word under extglob);
//   - "${ cmd; }" and "${| cmd; }": the parser reads bash 5.3's command
//     substitutions, bash 5.2 a parameter expansion that ends at the
//     first "}", and runs what follows.
type hereChecker struct {
	src string
	on  bool // the text holds "<<", a backquote, an extended glob's "(" or "${"
	bad *readingError
}

// walk checks the here-documents and backquote substitutions in n, inside
// depth backquote substitutions.
func (h *hereChecker) walk(n syntax.Node, depth int) {
	syntax.Walk(n, func(n syntax.Node) bool {
		if h.bad != nil {
			return false
		}
		switch n := n.(type) {
		case *syntax.ExtGlob:
			if n.Pattern != nil && strings.ContainsAny(n.Pattern.Value, "$`") {
				h.fail(int(n.OpPos.Offset()), "an extended glob whose pattern holds $ or a backquote (bash expands it there)")
			}
		case *syntax.CmdSubst:
			if n.TempFile || n.ReplyVar {
				h.fail(int(n.Left.Offset()), "\"${ cmd; }\" or \"${| cmd; }\", which bash before 5.3 reads as a parameter expansion (write $(…))")
				return false
			}
			if !n.Backquotes {
				return true
			}
			h.backquote(n, depth)
			for _, st := range n.Stmts {
				h.walk(st, depth+1)
			}
			return false
		case *syntax.Redirect:
			if n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc {
				h.hdoc(n, depth)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 && len(n.Args[0].Parts) > 0 {
				if g, ok := n.Args[0].Parts[0].(*syntax.ExtGlob); ok {
					h.fail(int(g.OpPos.Offset()), "a command name that begins with an extended glob (bash, extglob off, reads \"!(\" there as \"!\" and a subshell)")
				}
			}
		}
		return true
	})
}

func (h *hereChecker) fail(off int, reason string) {
	if h.bad == nil {
		h.bad = &readingError{Off: off, Reason: reason}
	}
}

// backquote checks one backquote substitution (see hereChecker).
func (h *hereChecker) backquote(n *syntax.CmdSubst, depth int) {
	open, close := int(n.Left.Offset()), int(n.Right.Offset())
	if depth > 0 {
		h.fail(open, "backquotes inside backquotes (bash reads them differently; write $(…))")
		return
	}
	if open >= len(h.src) || h.src[open] != '`' || close >= len(h.src) || h.src[close] != '`' {
		h.fail(open, "a backquote substitution guardsh cannot locate in the text")
		return
	}
	i := open + 1
	for i < len(h.src) && h.src[i] != '`' {
		if h.src[i] == '\\' {
			i++
		}
		i++
	}
	if i != close {
		h.fail(open, "a backquote substitution that bash ends at the next backquote, elsewhere than guardsh read it (quotes do not hide a backquote there; write $(…))")
	}
}

// hdoc checks one here-document (see hereChecker).
func (h *hereChecker) hdoc(r *syntax.Redirect, depth int) {
	off := int(r.OpPos.Offset())
	if depth > 0 {
		h.fail(off, "a here-document inside backquotes (bash ends its body with the substitution; write $(…))")
		return
	}
	if r.Word == nil {
		h.fail(off, "a here-document without a delimiter")
		return
	}
	start, end := int(r.Word.Pos().Offset()), int(r.Word.End().Offset())
	if start > end || end > len(h.src) {
		h.fail(off, "a here-document delimiter guardsh cannot locate in the text")
		return
	}
	delim, ok := plainDelimiter(h.src[start:end])
	if !ok {
		h.fail(start, "a here-document delimiter bash may read otherwise than guardsh (use letters, digits and _.,:+@%/=-, quoted or not)")
		return
	}
	if r.Hdoc == nil {
		return
	}
	bs, be := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if bs > be || be > len(h.src) {
		h.fail(off, "a here-document body guardsh cannot locate in the text")
		return
	}
	// The parser's span of the body ends with the delimiter line, when
	// there is one.
	body := h.src[bs:be]
	trim := func(line string) string {
		if r.Op == syntax.DashHdoc {
			return strings.TrimLeft(line, "\t")
		}
		return line
	}
	switch i := strings.LastIndexByte(body, '\n'); {
	case i >= 0 && trim(body[i+1:]) == delim:
		body = body[:i+1]
	case i < 0 && trim(body) == delim:
		return
	case strings.TrimRight(h.src[be:], "\n") != "":
		// Neither the delimiter nor the end of the text ends it.
		h.fail(bs, "a here-document body the parser ends at a line that is not its delimiter "+strconv.Quote(delim)+" (bash reads on)")
		return
	}
	// In an unquoted body a line continuation joins the next line to
	// this one, for bash and the parser alike.
	quoted, joined := hdocQuoted(r), false
	for line := range strings.Lines(body) {
		line = strings.TrimSuffix(line, "\n")
		cont := !quoted && trailingBackslash(line)
		if joined {
			joined = cont
			continue
		}
		joined = cont
		line = trim(line)
		if after, found := strings.CutPrefix(line, delim); found && (after == "" || !isWordByte(after[0])) {
			h.fail(bs, "a here-document body with a line that begins with its delimiter "+strconv.Quote(delim)+" (bash may end the body there)")
			return
		}
	}
}

// plainDelimiter returns the delimiter bash ends a here-document at for
// the raw delimiter word w, and whether w is plain (see hereChecker).
func plainDelimiter(w string) (string, bool) {
	w = strings.TrimPrefix(w, "\\")
	var out strings.Builder
	for len(w) > 0 {
		switch w[0] {
		case '\'', '"':
			q := w[0]
			j := strings.IndexByte(w[1:], q)
			if j < 0 {
				return "", false
			}
			inner := w[1 : 1+j]
			if !plainDelimiterText(inner) {
				return "", false
			}
			out.WriteString(inner)
			w = w[j+2:]
		default:
			j := 0
			for j < len(w) && w[j] != '\'' && w[j] != '"' {
				j++
			}
			if !plainDelimiterText(w[:j]) {
				return "", false
			}
			out.WriteString(w[:j])
			w = w[j:]
		}
	}
	return out.String(), out.Len() > 0
}

// plainDelimiterText reports text made only of the characters a plain
// delimiter may hold.
func plainDelimiterText(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; !isWordByte(b) && strings.IndexByte(".,:+@%/=-", b) < 0 {
			return false
		}
	}
	return true
}

// isWordByte reports a letter, digit or "_".
func isWordByte(b byte) bool { return isAlpha(b) || isDigit(b) || b == '_' }

// maySubscript reports whether src may hold arithmetic in square
// brackets outside "${…}" and "((": "$[…]", the subscript of an
// assignment (a[i]=x, a[i]+=x), which "]=" or "]+=" ends, of an array
// element (a=([i]=x), blanks allowed before the "="), which only an
// array value "=(" holds, or of a declaration's bare name (declare a[i]).
// The "[" of a test command, a glob or a plain word holds none. A text
// with a line continuation is always walked: the parser removes one
// inside a word. TestMaySubscriptFindsEverySubscript checks the forms.
func maySubscript(src string) bool {
	if strings.IndexByte(src, '[') < 0 {
		return false
	}
	if strings.Contains(src, "$[") || strings.Contains(src, "]=") || strings.Contains(src, "]+=") ||
		strings.Contains(src, "=(") || strings.Contains(src, "\\\n") {
		return true
	}
	for _, kw := range [...]keyword{kwDeclare, kwTypeset, kwLocal, kwExport, kwReadonly, kwNameref} {
		if kw.index(src, 0) >= 0 {
			return true
		}
	}
	return false
}

// keyword is a word searched for in a whole text by the byte of it that
// shell text holds least often (by English letter frequencies: c, x, y,
// f): strings.Index looks for its first byte, common in every text
// ("e", "l", "r", "d", "t", "n"), and past a few false starts compares
// the word at every byte. at is that byte's index in word.
type keyword struct {
	word string
	at   int
}

var (
	kwDeclare  = keyword{"declare", 2}
	kwTypeset  = keyword{"typeset", 1}
	kwLocal    = keyword{"local", 2}
	kwExport   = keyword{"export", 1}
	kwReadonly = keyword{"readonly", 7}
	kwNameref  = keyword{"nameref", 6}
)

// index returns the index in src of the first kw.word that starts at or
// after from (from + strings.Index(src[from:], kw.word)), or -1.
// FuzzKeywordIndex compares the two.
func (kw keyword) index(src string, from int) int {
	b := kw.word[kw.at]
	for i := from + kw.at; i < len(src); {
		j := strings.IndexByte(src[i:], b)
		if j < 0 {
			return -1
		}
		start := i + j - kw.at
		if start+len(kw.word) <= len(src) && src[start:start+len(kw.word)] == kw.word {
			return start
		}
		i += j + 1
	}
	return -1
}

// trailingBackslash reports text that ends in an unescaped backslash.
func trailingBackslash(src string) bool {
	n := 0
	for n < len(src) && src[len(src)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// quoteChecker finds a single-quoted string in a context where bash reads
// single quotes as plain characters (see checkReading).
type quoteChecker struct {
	bad       syntax.Node
	procSubst bool // bad is a literal "<(" or ">(" in a ${…} operand
	// lit is the lit of the walk in progress and visitor is visit, made
	// once: a closure per walk would be an allocation per word.
	lit     bool
	visitor func(syntax.Node) bool
}

// walk visits n; lit says single quotes are literal characters there.
func (c *quoteChecker) walk(n syntax.Node, lit bool) {
	if n == nil || c.bad != nil {
		return
	}
	outer := c.lit
	c.lit = lit
	syntax.Walk(n, c.visitor)
	c.lit = outer
}

// visit is the syntax.Walk function of walk.
func (c *quoteChecker) visit(n syntax.Node) bool {
	lit := c.lit
	if n == nil || c.bad != nil {
		return false
	}
	switch n := n.(type) {
	case *syntax.SglQuoted:
		if lit && (n.Dollar || !plainQuoted(n.Value)) {
			c.bad = n
		}
		return false
	case *syntax.DblQuoted:
		for _, p := range n.Parts {
			c.walk(p, true)
		}
		return false
	case *syntax.CmdSubst:
		for _, s := range n.Stmts {
			c.walk(s, false)
		}
		return false
	case *syntax.ProcSubst:
		for _, s := range n.Stmts {
			c.walk(s, false)
		}
		return false
	case *syntax.ArithmExp:
		c.arith(n.X)
		return false
	case *syntax.ArithmCmd:
		c.arith(n.X)
		return false
	case *syntax.CStyleLoop:
		c.arith(n.Init)
		c.arith(n.Cond)
		c.arith(n.Post)
		return false
	case *syntax.ParamExp:
		if n.NestedParam != nil {
			c.walk(n.NestedParam, lit)
		}
		c.arith(n.Index)
		if n.Slice != nil {
			c.arith(n.Slice.Offset)
			c.arith(n.Slice.Length)
		}
		if n.Repl != nil {
			c.operand(n.Repl.Orig, lit)
			c.operand(n.Repl.With, lit)
		}
		if n.Exp != nil {
			c.operand(n.Exp.Word, lit)
		}
		return false
	case *syntax.Assign:
		c.arith(n.Index)
		c.walkWord(n.Value, lit)
		if n.Array != nil {
			for _, el := range n.Array.Elems {
				c.arith(el.Index)
				c.walkWord(el.Value, lit)
			}
		}
		return false
	case *syntax.Redirect:
		c.walkWord(n.Word, lit)
		if n.Hdoc != nil {
			// An unquoted body reads like double-quoted text; a
			// quoted one holds only literals.
			c.walkWord(n.Hdoc, lit || !hdocQuoted(n))
		}
		return false
	}
	return true
}

// operand walks the operand word of a ${…} expansion. Unquoted, bash runs
// a process substitution in it (${x:-<(cmd)}), which the parser reads as
// literal text.
func (c *quoteChecker) operand(w *syntax.Word, lit bool) {
	if w == nil || c.bad != nil {
		return
	}
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && (strings.Contains(l.Value, "<(") || strings.Contains(l.Value, ">(")) {
			c.bad, c.procSubst = l, true
			return
		}
	}
	c.walk(w, lit)
}

func (c *quoteChecker) walkWord(w *syntax.Word, lit bool) {
	if w != nil {
		c.walk(w, lit)
	}
}

func (c *quoteChecker) arith(x syntax.ArithmExpr) {
	if x != nil {
		c.walk(x, true)
	}
}

// plainQuoted reports single-quoted text that reads the same whether the
// quotes are quotes or plain characters: nothing that expands, escapes,
// quotes or closes a bracket.
func plainQuoted(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if isAlpha(b) || isDigit(b) || strings.IndexByte(" \t_.,:/+=@%-", b) >= 0 {
			continue
		}
		return false
	}
	return true
}

// hdocQuoted reports a here-document whose delimiter is quoted (in part):
// its body is then plain text.
func hdocQuoted(r *syntax.Redirect) bool {
	if r.Word == nil {
		return false
	}
	for _, p := range r.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				return true
			}
		}
	}
	return false
}

// span is a [start, end) byte range of the text.
type span struct{ start, end int }

// spans are ranges of the text, in any order until sorted.
type spans []span

// sorted merges overlapping and adjacent spans and sorts them by start,
// for contains.
func (ss spans) sorted() spans {
	slices.SortFunc(ss, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	out := ss[:0]
	for _, s := range ss {
		if s.start >= s.end {
			continue
		}
		if n := len(out); n > 0 && s.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// contains reports whether off is in one of ss, which sorted made.
func (ss spans) contains(off int) bool {
	i := sort.Search(len(ss), func(i int) bool { return ss[i].end > off })
	return i < len(ss) && ss[i].start <= off
}

func nodeSpan(n syntax.Node) span {
	return span{int(n.Pos().Offset()), int(n.End().Offset())}
}

// collect records the spans and here-documents of st that
// checkContinuations needs: plain, where a backslash-newline is text
// (single quotes, quoted here-document bodies); quoted, where "#" is text
// (plus literals directly inside double quotes or a here-document body).
func (c *readingChecker) collect(st *syntax.Stmt) {
	syntax.Walk(st, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			c.plain = append(c.plain, nodeSpan(n))
			c.quoted = append(c.quoted, nodeSpan(n))
		case *syntax.DblQuoted:
			for _, p := range n.Parts {
				if l, ok := p.(*syntax.Lit); ok {
					c.quoted = append(c.quoted, nodeSpan(l))
				}
			}
		case *syntax.Redirect:
			if n.Hdoc == nil {
				break
			}
			if hdocQuoted(n) {
				c.plain = append(c.plain, nodeSpan(n.Hdoc))
				c.quoted = append(c.quoted, nodeSpan(n.Hdoc))
				break
			}
			for _, p := range n.Hdoc.Parts {
				if l, ok := p.(*syntax.Lit); ok {
					c.quoted = append(c.quoted, nodeSpan(l))
				}
			}
			c.hdocs = append(c.hdocs, n)
		}
		return true
	})
}

// checkContinuations checks comments, line continuations and here-document
// bodies of a text that has a backslash-newline (see checkReading), in
// time linear in the text (and n log n in its quoted spans).
func (c *readingChecker) checkContinuations() *readingError {
	src := c.src
	plain, quoted := c.plain.sorted(), c.quoted.sorted()

	// Comments whose line ends in a backslash.
	end := -1 // the end of the line of the "#" at hand
	for i := 0; i < len(src); i++ {
		if src[i] != '#' {
			continue
		}
		if i > 0 && strings.IndexByte(" \t\n;&|()<>`", src[i-1]) < 0 {
			continue // not at the start of a word: no comment
		}
		if i > end {
			if end = strings.IndexByte(src[i:], '\n'); end < 0 {
				break
			}
			end += i
		}
		if src[end-1] != '\\' {
			// No "#" of this line can be a comment ending in a
			// backslash.
			i = end
			continue
		}
		if !quoted.contains(i) {
			return &readingError{Off: i, Reason: "a comment ending in a backslash (bash ends the comment at the newline)"}
		}
	}

	// Line continuations that join characters into other tokens.
	for i := 0; i+1 < len(src); i++ {
		if src[i] != '\\' {
			continue
		}
		run := i
		for i+1 < len(src) && src[i+1] == '\\' {
			i++
		}
		// src[run:i+1] is a run of backslashes; the last one starts a
		// continuation when the run is odd and a newline follows.
		if (i-run)%2 == 1 || i+1 >= len(src) || src[i+1] != '\n' || plain.contains(i) {
			continue
		}
		start := i // the continuation(s) span src[start:next]
		next := i + 2
		for next+1 < len(src) && src[next] == '\\' && src[next+1] == '\n' {
			next += 2
		}
		if start > 0 && src[start-1] == '$' {
			return &readingError{Off: start - 1, Reason: "\"$\" followed by a line continuation (bash joins them into an expansion)"}
		}
		if start > 0 && next < len(src) && !joinsSafely(src[start-1], src[next]) {
			return &readingError{Off: start, Reason: "a line continuation between two characters that bash joins into one token"}
		}
		i = next - 1
	}

	// Here-document bodies where a continuation moves the end.
	for _, r := range c.hdocs {
		if off, ok := hdocEndsAlike(r, src); !ok {
			return &readingError{Off: off, Reason: "a line continuation in a here-document body that moves where bash ends it"}
		}
	}
	return nil
}

// joinsSafely reports whether a line continuation between the characters
// before and after it reads the same to the parser as to the shell.
func joinsSafely(before, after byte) bool {
	blank := func(b byte) bool { return b == ' ' || b == '\t' || b == '\n' }
	if blank(before) || blank(after) {
		return true
	}
	word := func(b byte) bool {
		return isAlpha(b) || isDigit(b) || b >= 0x80 || strings.IndexByte("_.,/-", b) >= 0
	}
	return word(before) && word(after)
}

// hdocEndsAlike checks an unquoted here-document body: the shell removes
// line continuations from it before it compares a line with the
// delimiter, the parser compares each line as written. It reports false
// (and the offset of the offending line) when a joined line equals the
// delimiter or the body's last line continues into the parser's delimiter
// line.
func hdocEndsAlike(r *syntax.Redirect, src string) (int, bool) {
	s, e := int(r.Hdoc.Pos().Offset()), int(r.Hdoc.End().Offset())
	if s < 0 || e > len(src) || s >= e {
		return s, false
	}
	text := src[s:e]
	if !strings.Contains(text, "\\\n") {
		return 0, true
	}
	delim := src[int(r.Word.Pos().Offset()):int(r.Word.End().Offset())]
	dash := r.Op == syntax.DashHdoc
	// The parser's range ends with the delimiter line (without its
	// newline) when there is one; the body is what comes before.
	body := text
	if nl := strings.LastIndexByte(text, '\n'); nl >= 0 {
		last := text[nl+1:]
		if dash {
			last = strings.TrimLeft(last, "\t")
		}
		if last == delim {
			body = text[:nl+1]
		}
	}
	var logical strings.Builder
	lineStart := 0
	for off := 0; off < len(body); {
		nl := strings.IndexByte(body[off:], '\n')
		if nl < 0 {
			nl = len(body)
		} else {
			nl += off
		}
		line := body[off:nl]
		n := 0
		for n < len(line) && line[len(line)-1-n] == '\\' {
			n++
		}
		if n%2 == 1 {
			if nl >= len(body) || nl == len(body)-1 {
				// The body's last line continues into the line after it.
				return s + lineStart, false
			}
			logical.WriteString(line[:len(line)-1])
			off = nl + 1
			continue
		}
		logical.WriteString(line)
		l := logical.String()
		if dash {
			l = strings.TrimLeft(l, "\t")
		}
		if l == delim {
			return s + lineStart, false
		}
		logical.Reset()
		off = nl + 1
		lineStart = off
	}
	return 0, true
}
