package interp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// MaxTextSize is the largest single command Analyze parses at once, in
// bytes (1 MiB): a top-level command, a nested payload (eval, sh -c) or a
// sourced file. The parser recurses once per operator of a chain (a && b
// && …) and this bound keeps that recursion well inside the goroutine
// stack; see TestAnalyzeLargeTextsInBoundedTime.
const MaxTextSize = 1 << 20

// MaxScriptSize is the largest text Analyze accepts, in bytes (16 MiB). A
// text over MaxTextSize is parsed one top-level command at a time, as bash
// reads a script, each command at most MaxTextSize; the work budget (words,
// nested code) grows with the text, one MaxTextSize's worth per MiB.
const MaxScriptSize = 16 << 20

// DefaultMaxDepth is the nesting bound for eval and sh -c payloads when
// Options.MaxDepth is 0.
const DefaultMaxDepth = 8

const (
	// maxBrackets bounds the bracket nesting of a text ("(", "{", "[" not
	// yet closed, quotes ignored) and maxBangs a run of "!" (blanks
	// between allowed). The parser recurses once per level and a deep
	// enough text would overflow the goroutine stack, which is fatal, not
	// an error; 1 MiB of "((((" needs well over 1 GB of stack.
	maxBrackets = 1000
	maxBangs    = 256
	// maxKeywords bounds the nesting of compound commands a keyword opens
	// (if, case, for, select, while, until) and maxChain the operators of
	// one chain (&&, ||, |, |&): the parser recurses once per level and
	// per operator, and past some thousands of levels the collector's
	// scans of that deep stack make the analysis superlinear in the text
	// (see BenchmarkAnalyzeShapes).
	maxKeywords = 1000
	maxChain    = 1 << 13
	// maxWords bounds the Words of one analysis (brace expansion can
	// multiply them), maxValueBytes their total size, maxParsedBytes the
	// text parsed (top level plus every nested payload).
	maxWords       = 1 << 18
	maxBraceWords  = 1 << 14 // words made by brace expansion, the costly ones
	maxValueBytes  = 32 << 20
	maxParsedBytes = 16 << 20
)

// Options tune Analyze. The zero value is ready to use.
type Options struct {
	// Home is the value of "~" (and of a leading "~" in an assignment
	// value or after its ":"). "" makes every tilde prefix a Hole.
	// "~user", "~+" and "~-" are always Holes.
	Home string
	// MaxDepth bounds the nesting of re-parsed payloads (eval, sh -c,
	// here-documents fed to a shell, trap actions); 0 means
	// DefaultMaxDepth. Deeper text is *NotUnderstood. Command
	// substitutions do not count: they are part of the text already parsed.
	MaxDepth int
	// DirChanged says the working directory may already differ from the
	// one relative paths are resolved against, for instance because an
	// earlier command of the same script (read with CommandReader) may
	// have changed it (see Segment.MayChangeDir): every relative
	// redirection target is then a Hole.
	DirChanged bool
	// CDPATHMaySet says the shell's start-up files (a login or
	// interactive bash's profile or bashrc, which guardsh does not
	// analyse) may set CDPATH, which sends a relative cd whose target
	// does not start with "." or ".." anywhere: guardsh's guard then
	// takes the directory after such a cd for one only known at run time.
	CDPATHMaySet bool
	// StartupUnknown, when not empty, says why what the shell's start-up
	// files do to every command cannot be known (aliases bash expands in
	// the command): every text is then not understood, for that reason.
	StartupUnknown string
	// Sources, when not nil, keeps the analyses of files read by source
	// and . between runs (see SourceCache); nil analyses them every time.
	Sources SourceCache
	// Dir is the working directory the command starts in: a script a
	// shell runs (bash FILE, ./FILE with a #! line) named by a relative
	// path is read from there, while no cd came before it. "" reads none.
	Dir string
	// Aliases are aliases an interactive session defined before this
	// text (see Session): words in command position are read with them
	// expanded as well as without, as for aliases defined on an earlier
	// line of the text.
	Aliases map[string]string
	// Functions are functions an interactive session defined before this
	// text, name to body (see DefinedFunctions): a call of one is marked
	// Segment.Function and its body analysed there, as for a function a
	// sourced file defined. A body of Hole is not known: a call is not
	// understood. Aliases with a value of Hole likewise.
	Functions map[string]string
	// DefinedBefore says an earlier command of the same shell (a script
	// read with CommandReader) may have defined a function, set a trap or
	// given a variable an attribute (see MayDefine): no command name is
	// then taken for certain as its builtin or program (cat, find, …), and
	// no loop's values are certain.
	DefinedBefore bool
	// SourcedFunctions, when not nil, receives the functions (name to
	// body) that files read by source or . define, so that an interactive
	// session can carry them to later commands (see DefinedFunctions).
	SourcedFunctions map[string]string
	// Session says the text is one line of guardsh's interactive session,
	// whose bash lives on: code it parses again later, with the aliases
	// and files of that moment, is code only known at run time — a trap's
	// action (RunsCode) and a command_not_found_handle (not understood).
	Session bool
	// AliasesOn says expand_aliases is on where the text runs (guardsh's
	// interactive session keeps it on): a top-level command word naming
	// one of Aliases is then only ever read expanded, and its segment as
	// written is marked Segment.Aliased.
	AliasesOn bool
	// Vouch, when not nil, is asked about each file read by source or .
	// (name is the command, path the file, key its SourceKey) before its
	// commands are emitted: true means the caller already knows they would
	// all be allowed, and only the functions the file defines are loaded
	// (from Sources), so that calls of them are still analysed.
	Vouch func(name, path, key string) bool
	// Secret, when not nil, is asked about each file a command would read
	// as code (source, ., a shell's script operand) before it is read:
	// true means its contents are a secret, so they are not read, and
	// the segment is left to its rules as for a file that cannot be read
	// now — its lines never reach a refusal message, check's output or a
	// segment.
	Secret func(path string) bool
	// Env, when not nil, is the environment the command's bash starts
	// with (guardsh's own): a variable of it that the text has not
	// assigned, nor could have by then, has its value there (see
	// envValue), and a word using it is checked with that value. Ignored
	// for a Session (earlier lines export).
	Env func(name string) (string, bool)

	// general turns off the analysis's fast paths (words resolved without
	// expand, commands skipped by cheap text checks, large texts analysed
	// as a stream), for tests that compare the analysis with and without
	// them.
	general bool
	// whole: a text of at most MaxTextSize is parsed whole (see streamed).
	whole bool
}

// NotUnderstood says why a text cannot be analysed: a parse error, a raw
// carriage return or NUL byte, nesting deeper than Options.MaxDepth (or a
// bracket nesting the parser cannot afford), text over MaxScriptSize or a
// command over MaxTextSize, an expansion over the analysis budget, or a
// nested payload that fails in any of these ways (and, should the analysis itself fail, "internal error").
// Such text must not run unasked.
type NotUnderstood struct {
	// Line and Col are 1-based, in bytes, in the text given to Analyze.
	// For a problem inside a nested payload they point at the word that
	// holds the payload.
	Line, Col int
	Reason    string
}

func (e *NotUnderstood) Error() string {
	return fmt.Sprintf("line %d col %d: %s", e.Line, e.Col, e.Reason)
}

// Analyze returns every segment of src: one Exec segment per simple command
// that would run (at any depth: lists, pipelines, compound commands,
// function bodies, command and process substitutions, arithmetic, [[ ]]
// operands, parameter-expansion operands, redirection targets, assignment
// values, unquoted here-document bodies, and re-parsed payloads of eval,
// bash/sh/zsh/dash/ksh/guardsh -c, trap, alias and wrappers such as sudo
// or xargs), one Write segment per output redirection to a file and one Read
// segment per input redirection from a file. See the package documentation
// for the exact shape and order of segments.
//
// Any text it cannot analyse with certainty yields a *NotUnderstood error and
// no segments.
func Analyze(src string, opt Options) (segs []Segment, err error) {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	if opt.StartupUnknown != "" {
		return nil, &NotUnderstood{Line: 1, Col: 1, Reason: opt.StartupUnknown}
	}
	a := &analyzer{opt: opt, firstCd: -1}
	if len(opt.Aliases) > 0 {
		a.aliases = maps.Clone(opt.Aliases)
	}
	for name, body := range opt.Functions {
		if a.funcs == nil {
			a.funcs = make(map[string]funcDef, len(opt.Functions))
		}
		a.funcs[name] = funcDef{Body: body, Line: 1}
	}
	// About one segment per 20 bytes of script (measured on CI scripts,
	// a loop's commands once more per value of its variable): sized up
	// front, a long script's segments are not copied as they grow, and an
	// agent's command (with its wrapper, often ten or so) fits the least.
	n := max(16, len(src)/20)
	streamed := len(src) >= streamMin && len(src) <= MaxTextSize && !opt.general && !opt.whole
	if streamed || len(src) > MaxTextSize {
		// Made by stream once the parser's goroutine has started:
		// clearing some megabytes of fresh memory then overlaps the
		// parse instead of coming before it.
		a.segsHint = n
	} else {
		a.segs, a.meta = make([]Segment, 0, n), make([]segMeta, 0, n)
	}
	a.res = newResolver(opt.Home, &a.budget, opt.general)
	a.res.realCat = a.realCat
	a.assume = &assumptions{home: opt.Home, env: a.envValue}
	top := &frame{src: src, lines: &lineIndex{}, mayRunCode: textMayRunCode(src)}
	defer func() {
		// Fail closed if expand panics or the walk meets a case it was
		// never meant to see; FuzzAnalyze treats reaching this as a bug.
		if r := recover(); r != nil {
			segs, err = nil, &NotUnderstood{Line: 1, Col: 1, Reason: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	if nu := checkText(src, top, MaxScriptSize); nu != nil {
		return nil, nu
	}
	if trailingBackslash(src) {
		// bash drops a backslash that ends a script read from a file or
		// a pipe (and keeps it in a -c string); the parser keeps it.
		line, col := top.pos(len(src) - 1)
		return nil, &NotUnderstood{Line: line, Col: col, Reason: "text ends in a backslash"}
	}
	a.budget.parsed = len(src)
	a.budget.scale = (len(src) + MaxTextSize - 1) / MaxTextSize
	switch {
	case streamed:
		if !a.streamed(src, top) {
			// The whole parse gives the error as it always has.
			opt.whole = true
			return Analyze(src, opt)
		}
	case len(src) <= MaxTextSize:
		a.catDefined, a.funcDefined, a.declAttrs = mayDefine(src) // stream's own otherwise
		a.trapMay = a.trapMay || strings.Contains(src, "trap")
		if a.opt.DefinedBefore {
			a.catDefined, a.funcDefined, a.declAttrs, a.trapMay = true, true, true, true
		}
		if nu := a.top(src, top); nu != nil {
			return nil, nu
		}
	default:
		if nu := a.long(src, top); nu != nil {
			return nil, nu
		}
	}
	if a.err != nil {
		return nil, a.err
	}
	a.arithCheck()
	a.textFunctionCalls()
	a.holeRelativeTargets()
	for j, in := range a.inLoops(nil) {
		if in {
			a.segs[j].Repeats = true
		}
	}
	for i := range a.segs {
		if a.meta[i].deferred {
			a.segs[i].Repeats = true
		}
	}
	if opt.SourcedFunctions != nil {
		for name, raw := range a.pending {
			var funcs map[string]funcDef
			if json.Unmarshal(raw, &funcs) == nil {
				a.addFuncs(funcs)
			}
			delete(a.pending, name)
		}
		for name, def := range a.funcs {
			if body, carried := opt.Functions[name]; !carried || body != def.Body {
				opt.SourcedFunctions[name] = def.Body
			}
		}
	}
	return a.segs, nil
}

// top parses src, which top describes, and analyses its statements.
func (a *analyzer) top(src string, top *frame) *NotUnderstood {
	f, text, blanks, perr := a.parse(src, false)
	if perr != nil {
		line, col := parseErrPos(perr, top)
		return &NotUnderstood{Line: line, Col: col, Reason: parseErrText(perr)}
	}
	top.src, top.blanks, top.written = text, blanks, src
	a.topFirst = true
	a.topLevel(f.Stmts, text)
	a.stmts(f.Stmts, top)
	return nil
}

// textFunctionCalls keeps Segment.Function on the calls of functions the
// text defined (see topLevel) only where nothing in the text may remove or
// replace one between its definition and a call (then a program of that
// name would run): no unset (of a function or a variable: `unset NAME`
// may remove a function), no command named at run time, no code only
// known at run time.
func (a *analyzer) textFunctionCalls() {
	if len(a.textCalls) == 0 {
		return
	}
	for _, s := range a.segs {
		if s.Kind == Exec && len(s.Args) > 0 && (s.RunsCode || s.Args[0].Value == "unset" || s.Args[0].Dynamic() ||
			s.Args[0].Value == "enable") {
			for _, i := range a.textCalls {
				a.segs[i].Function = false
			}
			return
		}
	}
}

// topLevel marks the statements of list, the top-level statements of the
// command's own text, that only assign variables, or define a function,
// and always do when their line runs: the first statement on their line,
// no redirection, not in the background (see certainLiteral, textFuncs).
func (a *analyzer) topLevel(list []*syntax.Stmt, src string) {
	for _, st := range list {
		// Only one that starts a line: an error earlier on its line (an
		// assignment to a read-only variable such as UID, an arithmetic
		// error) makes bash skip the rest of that line and go on with
		// the next (attack run 44: `UID=0; rm() { :; }⏎rm -rf .git`). A
		// backslash before a newline joins the two lines (attack run 45).
		prevEnd := a.topEnd
		a.topEnd = st.End().Offset()
		if a.topFirst || newLineBetween(src, prevEnd, st.Pos().Offset()) {
			a.topSafe = true // the first on its line
		} else if !a.topSafe {
			a.topFirst = false
			continue
		}
		a.topFirst = false
		// What follows on the line is as certain only while every
		// statement before it there cannot fail so.
		a.topSafe = cannotFail(st)
		if !a.topSafe {
			continue
		}
		if fd, ok := st.Cmd.(*syntax.FuncDecl); ok && !st.Background && !st.Coprocess && len(st.Redirs) == 0 {
			if a.topFuncs == nil {
				a.topFuncs = map[*syntax.FuncDecl]bool{}
			}
			a.topFuncs[fd] = true
			continue
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) > 0 || st.Background || st.Coprocess || len(st.Redirs) > 0 {
			continue
		}
		if a.certainStmts == nil {
			a.certainStmts = map[*syntax.CallExpr]bool{}
		}
		a.certainStmts[c] = true
	}
}

// newLineBetween reports whether src[from:to], the text between two
// statements, holds a newline that ends a line: one not after a
// backslash (which joins the next line to it).
func newLineBetween(src string, from, to uint) bool {
	if to > uint(len(src)) || from > to {
		return false
	}
	for i := from; i < to; i++ {
		if src[i] == '\n' && (i == 0 || src[i-1] != '\\') {
			return true
		}
	}
	return false
}

// cannotFail reports a statement that only assigns plain literal values
// to variables bash does not manage (a read-only one fails: UID), or
// defines a function: it cannot make bash skip the rest of its line.
func cannotFail(st *syntax.Stmt) bool {
	if st.Background || st.Coprocess || st.Negated || len(st.Redirs) > 0 {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.FuncDecl:
		return c.Name != nil && isName(c.Name.Value)
	case *syntax.CallExpr:
		if len(c.Args) > 0 {
			return false
		}
		for _, as := range c.Assigns {
			if as.Name == nil || as.Index != nil || as.Array != nil || as.Naked || envSpecial(as.Name.Value) {
				return false
			}
			if as.Value != nil {
				if _, static := simpleValue(as.Value.Parts, false); !static {
					return false
				}
			}
		}
		return true
	}
	return false
}

// certainLiteral reports whether variable name holds, where the analysis
// stands, the static value a top-level statement of the text assigned it
// (`f=src/app.py; cat "$f"`), for certain: in a fresh bash whose
// environment is known (not an interactive session, not a later command
// of a script on stdin), with nothing since or before that could have
// changed it or how it is assigned (envOff: a declaration, read, eval,
// source, a function …; no attribute given: readonly, -l, -n …), not in a
// loop, a function's body or a trap's action (which run again or later),
// and a value that word splitting (with bash's IFS: the text assigns
// none) and globbing leave whole.
func (a *analyzer) certainLiteral(name string) bool {
	if a.opt.Env == nil || a.opt.Session || a.envOff || a.declAttrs || a.loopDepth > 0 || a.inBody > 0 || a.inChild > 0 ||
		envSpecial(name) || name == "COPROC" || a.envAssigned["IFS"] {
		// (bash changes PWD, _, REPLY … on its own; an IFS the text
		// set splits an unquoted value at other bytes.)
		return false
	}
	v, ok := a.certainVars[name]
	return ok && a.assume.vars[name] == v
}

// plainValue reports a value certainLiteral may vouch for: not empty, and
// no blank, glob character, quote or backslash (none of which a path an
// agent names needs).
func plainValue(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(isNameByte(c) || strings.IndexByte("./:@%+=,-", c) >= 0) {
			return false
		}
	}
	return true
}

// MayDefine reports whether src, one command of a script read with
// CommandReader, may define a function, set a trap or give a variable an
// attribute (a nameref), which the later commands' analyses must know
// (Options.DefinedBefore). It errs on the side of yes: the words trap and
// function, "NAME ()", or a declaration's option, anywhere.
func MayDefine(src string) bool {
	_, fn, attr := mayDefine(src)
	return fn || attr || strings.Contains(src, "trap")
}

// mayDefine reports whether text src, anywhere (also inside quotes, as a
// string eval may run), may define a function named cat (cat: "cat (" or
// "function cat"; see realCat), any function (fn: a "(" and ")" with only
// blanks between them after a word, or "function "; see loopValues), or
// give a variable an attribute that changes what it is assigned (attr:
// declare, typeset, local, export or readonly followed by option words
// one of which has l, u, i, c or n; see declAttrs). It reads src once
// for each, with byte searches: a text of megabytes costs milliseconds.
func mayDefine(src string) (cat, fn, attr bool) {
	for i := 0; ; {
		k := strings.IndexByte(src[i:], '(')
		if k < 0 {
			break
		}
		at := i + k
		i = at + 1
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j >= len(src) || src[j] != ')' {
			continue
		}
		b := strings.TrimRight(src[:at], " \t")
		if b == "" || strings.IndexByte("\n;$=|&(<>", b[len(b)-1]) >= 0 {
			continue // "( )", "$( )", "x=( )": no name before
		}
		fn = true
		if strings.HasSuffix(b, "cat") && (len(b) == 3 || !isNameByte(b[len(b)-4]) && b[len(b)-4] != '.' && b[len(b)-4] != '-') {
			cat = true
		}
		if cat {
			break
		}
	}
	for i := 0; ; {
		k := strings.Index(src[i:], "function")
		if k < 0 {
			break
		}
		at := i + k
		i = at + len("function")
		if at > 0 && isNameByte(src[at-1]) || i >= len(src) || src[i] != ' ' && src[i] != '\t' {
			continue
		}
		fn = true
		rest := strings.TrimLeft(src[i:], " \t")
		if strings.HasPrefix(rest, "cat") && (len(rest) == 3 || !isNameByte(rest[3]) && rest[3] != '.' && rest[3] != '-') {
			cat = true
			break
		}
	}
	for _, kw := range [...]keyword{kwDeclare, kwTypeset, kwLocal, kwExport, kwReadonly} {
		for i := 0; !attr; {
			at := kw.index(src, i)
			if at < 0 {
				break
			}
			i = at + len(kw.word)
			// The option words after it, blanks and quotes between.
			for j := i; j < len(src); {
				for j < len(src) && strings.IndexByte(" \t\"'\\", src[j]) >= 0 {
					j++
				}
				if j >= len(src) || src[j] != '-' && src[j] != '+' {
					break
				}
				e := j + 1
				for e < len(src) && (isNameByte(src[e])) {
					e++
				}
				if strings.ContainsAny(src[j+1:e], "luicn") {
					attr = true
					break
				}
				j = e
			}
		}
	}
	return cat, fn, attr
}

// long analyses a text over MaxTextSize one top-level command at a time,
// as bash reads a script: the parser yields each statement as soon as it
// is complete and it is analysed then (memory grows with the segments,
// not with the syntax tree). The statements share the analysis:
// functions, aliases and directories carry over as in bash. A statement
// over MaxTextSize stops the parser (its reader fails) before the parser's
// recursion can exhaust the stack, and is refused; so is a text whose "(("
// only bash's reading makes valid, which the short path re-reads.
func (a *analyzer) long(src string, top *frame) *NotUnderstood {
	top.written = src
	r := &boundedReader{r: strings.NewReader(src)}
	rerr, err := a.stream(src, top, r, r)
	if err != nil {
		if r.over {
			at := r.start
			for at < len(src) && strings.IndexByte(" \t\n;&", src[at]) >= 0 {
				at++ // to where the command begins
			}
			line, col := top.pos(at)
			return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("one command is over %d bytes", MaxTextSize)}
		}
		line, col := parseErrPos(err, top)
		return &NotUnderstood{Line: line, Col: col, Reason: parseErrText(err)}
	}
	if rerr != nil {
		line, col := top.pos(rerr.Off)
		return &NotUnderstood{Line: line, Col: col, Reason: parseErrText(rerr)}
	}
	return a.err
}

// streamMin is the size from which a text of at most MaxTextSize is
// analysed as a stream (see stream) rather than parsed whole: the syntax
// tree of a large script, kept whole, is most of what the garbage
// collector marks while the script is analysed.
const streamMin = 64 << 10

// streamed analyses a text of at most MaxTextSize as a stream. ok is
// false when it met a parse error or a text checkReading refuses: only
// the whole parse (top) gives those as the analysis always has, "(("
// read as bash reads it included, and Analyze starts over with it.
func (a *analyzer) streamed(src string, top *frame) (ok bool) {
	top.written = src
	rerr, err := a.stream(src, top, strings.NewReader(src), nil)
	return err == nil && rerr == nil
}

// stream parses src from r one top-level statement at a time and
// analyses each statement once it is complete, in order, with the
// reading checks (see checkReading) of the whole text. A statement is
// complete once the bodies of its here-documents are read: the parser
// yields "cat <<A; x" before the body of A, which it reads at the next
// newline, so a statement whose text has "<<" waits, with those after it,
// until the parser yields one after a newline. After an analysis error it
// parses on, without analysing, for a parse error or a reading error,
// which it returns. bounded, when not nil, is told where each statement
// ends.
//
// The parse (with the reading checks) runs on a goroutine of its own and
// hands complete statements over in batches: on a machine with a CPU to
// spare, the analysis of one batch overlaps the parse of the next. A
// panic of the parser is raised again here, where Analyze recovers it.
func (a *analyzer) stream(src string, top *frame, r io.Reader, bounded *boundedReader) (rerr *readingError, err error) {
	type batch struct {
		sts   []*syntax.Stmt
		err   error
		panic any
	}
	batches := make(chan batch, 4)
	done := make(chan struct{}) // closed when stream returns
	defer close(done)
	var rc readingChecker
	go func() {
		defer close(batches)
		send := func(b batch) bool {
			select {
			case batches <- b:
				return true
			case <-done:
				return false
			}
		}
		defer func() {
			if p := recover(); p != nil {
				send(batch{panic: p})
			}
		}()
		rc.init(src)
		var ready []*syntax.Stmt
		err := parseStream(src, r, bounded, func(st *syntax.Stmt) bool {
			rc.add(st)
			if ready = append(ready, st); len(ready) < streamBatch {
				return true
			}
			b := batch{sts: ready}
			ready = nil
			return send(b)
		})
		if len(ready) > 0 && !send(batch{sts: ready}) {
			return
		}
		if err != nil {
			send(batch{err: err})
		}
	}()
	if a.segs == nil && a.segsHint > 0 {
		a.segs, a.meta = make([]Segment, 0, a.segsHint), make([]segMeta, 0, a.segsHint)
	}
	// Read while the parser's goroutine parses the first statements
	// (milliseconds for a text of megabytes), before any is analysed.
	a.catDefined, a.funcDefined, a.declAttrs = mayDefine(src)
	a.trapMay = a.trapMay || strings.Contains(src, "trap")
	if a.opt.DefinedBefore {
		a.catDefined, a.funcDefined, a.declAttrs, a.trapMay = true, true, true, true
	}
	a.topFirst = true
	for b := range batches {
		switch {
		case b.panic != nil:
			panic(b.panic)
		case b.err != nil:
			err = b.err
		case err == nil:
			a.topLevel(b.sts, src)
			a.stmts(b.sts, top)
		}
	}
	if err != nil {
		return nil, err
	}
	return rc.result(), nil // the parser's goroutine has ended: batches is closed
}

// streamBatch is the number of statements stream hands over at a time.
const streamBatch = 64

// parseStream parses src from r and calls complete with each top-level
// statement once the bodies of its here-documents are read (see stream),
// in order, until complete returns false. It returns the parse error; the
// statements still waiting for a body when the parser fails are dropped.
func parseStream(src string, r io.Reader, bounded *boundedReader, complete func(*syntax.Stmt) bool) error {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	var waiting []*syntax.Stmt // parsed, not yet known complete
	hdoc := false              // a waiting statement may have a here-document
	flush := func() bool {
		for i, st := range waiting {
			if !complete(st) {
				return false
			}
			waiting[i] = nil
		}
		waiting, hdoc = waiting[:0], false
		return true
	}
	for st, perr := range p.StmtsSeq(r) {
		if perr != nil {
			// The parser may be left mid-statement: drop it, and the
			// statements it was still to complete.
			return perr
		}
		start, end := int(st.Pos().Offset()), int(st.End().Offset())
		if bounded != nil {
			bounded.start, bounded.read = end, 0
		}
		if hdoc && newlineBetween(src, int(waiting[len(waiting)-1].End().Offset()), start) && !flush() {
			return nil
		}
		waiting = append(waiting, st)
		if start < 0 || end > len(src) || start > end || strings.Contains(src[start:end], "<<") {
			hdoc = true
		}
		if !hdoc && !flush() {
			return nil
		}
	}
	flush()
	return nil
}

// newlineBetween reports whether src[from:to], the text between two
// statements (blanks, separators, comments, here-document bodies), has a
// newline that ends a line: one not after a backslash (a continuation, or
// a comment ending in one, which checkReading refuses).
func newlineBetween(src string, from, to int) bool {
	from, to = max(from, 0), min(to, len(src))
	for i := from; i < to; i++ {
		if src[i] == '\n' && (i == 0 || src[i-1] != '\\') {
			return true
		}
	}
	return false
}

// boundedReader fails once more than MaxTextSize (and the parser's
// read-ahead) has been read since the last statement ended: the statement
// being parsed is too big to parse.
type boundedReader struct {
	r           io.Reader
	read, start int // bytes read since the statement that ends at start
	over        bool
}

var errStatementTooBig = errors.New("statement too big")

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.read > MaxTextSize+64<<10 {
		b.over = true
		return 0, errStatementTooBig
	}
	n, err := b.r.Read(p)
	b.read += n
	return n, err
}

// analyzer holds the state of one Analyze call.
type analyzer struct {
	// catDefined: the command's text may define a function named cat
	// (see realCat); funcDefined: any function; declAttrs: a declaration
	// may give a variable an attribute that changes what it is assigned;
	// loopDepth: the loops around the statement being analysed (see
	// loopValues).
	catDefined, funcDefined, declAttrs bool
	loopDepth                          int
	// trapMay: a trap may be set before a loop's body runs (the text, or
	// a file it sources, names trap, or a trap command was analysed): a
	// DEBUG, ERR or signal trap's code runs between the body's commands
	// and may assign the loop's variable, so no loop's values are
	// certain (see loopValues).
	trapMay bool
	// loopVals are the values of the bounded loop variables of the loops
	// being analysed (see loopValues), with what each makes the
	// Segment.Assumed of the segments emitted with it.
	loopVals map[string]loopVar
	// lastBounded is the loopVar.bounded made last.
	lastBounded []string
	// envAssigned are the variables the text assigned so far; envOff:
	// it did something that may assign any (see envValue).
	envAssigned map[string]bool
	envOff      bool
	// inBody counts the function bodies around the statement being
	// analysed where they are defined (run later, any number of times);
	// inChild the payloads around it that another process runs (bash -c,
	// a shell fed a here-document, a script file): its environment is
	// what the wrapper before it (env -i, env -u, sudo) leaves, and holds
	// none of the text's unexported variables.
	inBody, inChild int
	opt             Options
	res             *resolver
	budget          budget

	segs []Segment
	meta []segMeta
	// segsHint is the room Analyze expects segs to need, made by stream
	// (see Analyze).
	segsHint int
	loops    [][2]int                      // [start, end) of segments emitted inside each loop
	feeds    map[*syntax.Stmt]*syntax.Stmt // pipe stage -> the stage writing to it
	firstCd  int                           // index of the first segment that may change the cwd
	afterCd  int                           // Segment.AfterCd of the segments emitted now
	err      *NotUnderstood
	// assume holds the variables' assumed values; ares resolves words
	// with them (made on first use); assuming, while not "", is the
	// Segment.Assumed of every segment emitted.
	assume   *assumptions
	ares     *resolver
	assuming string
	// sourcing is the file whose code is being walked (see source.go);
	// funcs are the functions sourced files define, called those whose
	// bodies were analysed.
	sourcing string
	// fileScript counts the nested shells being analysed that read their
	// script from a file they open (`bash FILE`, `./x.sh`): bash holds it
	// on the highest free descriptor below 256, which a command that
	// opens many first moves down (attack run 30: 246 {fd}<f
	// redirections put it on 9), so there any descriptor from 3 up may
	// be the script's (see scriptFdIn).
	fileScript int
	// scriptInput counts the statements being analysed, in a shell
	// reading its script from stdin, whose standard input is that script
	// (see call): the Exec segments emitted meanwhile are ReadsScript.
	scriptInput int
	// stdinScript counts the nested shells being analysed that read
	// their script from standard input (`bash <<EOF`, `bash < FILE`,
	// `… | sh`): a command there that reads standard input takes script
	// text from under that shell (see readsScriptStdin).
	stdinScript int
	funcs       map[string]funcDef
	called      map[string]bool
	// pending maps the names of functions loaded from a SourceCache to
	// their encoded definitions, decoded at the first call of one.
	pending map[string][]byte
	// aliases are the aliases defined so far (see alias.go); expanding
	// holds those being expanded.
	aliases   map[string]string
	expanding map[string]bool
	// pendingAliases maps the names of aliases loaded from a SourceCache
	// to their encoded definitions, decoded at the first use of one.
	pendingAliases map[string][]byte
	// unreadScript is the script operand shell could not read (see
	// Segment.Script).
	unreadScript string
	// callStart is the index of the segment of the simple command being
	// handled: those before it ran earlier (or are its redirections).
	callStart int
	// readFiles: the analysis read a file (source, a script).
	readFiles bool
	// certainStmts are the top-level statements that only assign (see
	// topLevel); certainVars the values such statements gave variables
	// while nothing could have changed how (see certainLiteral).
	certainStmts map[*syntax.CallExpr]bool
	certainVars  map[string]string
	// topFuncs are the function definitions at the text's top level;
	// textFuncs the names defined so far only so (false once any other
	// definition of the name is met), whose bodies the walk analysed
	// where they are defined; textCalls the segments that call one (see
	// textFunctionCalls).
	topFuncs  map[*syntax.FuncDecl]bool
	textFuncs map[string]bool
	textCalls []int
	// topEnd is the offset where the last top-level statement seen ends
	// (topFirst: none seen yet in this text); topSafe: no statement
	// before it on that line can fail so that bash skips the rest of the
	// line (see cannotFail).
	topEnd            uint
	topFirst, topSafe bool
	// arith is what the arithmetic walked since the last segment was
	// emitted names, for that segment's Arith (see arith.go);
	// loopAssigns maps the index of a for loop's assignment segment to
	// the loop's words (see loopWords).
	arith       []string
	loopAssigns map[int][]*syntax.Word
	// words is room for the Args of segments not yet emitted (see
	// wordSlots); wordBlock is the length of the last block made.
	words     []Word
	wordBlock int
}

// wordSlots returns an empty slice with room for n Words (and no more:
// an append past n copies, as for a slice of its own), carved from a
// block the segments of one analysis share: a long script's segments
// then cost one allocation per block, not one each. The blocks double
// from 4 Words to 1,024 (32 KiB), so a short command's analysis makes
// one or two small ones. All of a block lives as long as any segment holds
// part of it, that is as long as the analysis's result.
func (a *analyzer) wordSlots(n int) []Word {
	if n == 0 {
		return []Word{} // as make([]Word, 0, 0): empty, not nil
	}
	if n > len(a.words) {
		if n > 64 {
			return make([]Word, 0, n)
		}
		a.wordBlock = min(max(2*a.wordBlock, 4), 1024)
		a.words = make([]Word, max(a.wordBlock, n))
	}
	s := a.words[:0:n]
	a.words = a.words[n:]
	return s
}

type segMeta struct {
	deferred bool // inside a function body or trap action: runs later
	cwd      bool // may change the working directory (cd, pushd, popd, …)
}

// frame is the context of the text being walked.
type frame struct {
	src   string     // the text the positions refer to
	lines *lineIndex // shared by the frames of one text
	via   []string
	depth int
	// line and col, when line > 0, replace every position: the frame is a
	// re-parsed payload and they locate its word in the top-level text.
	line, col int
	deferred  bool
	// posix: the code is run by a POSIX shell (sh, dash, ash) and is
	// parsed as POSIX sh, nested eval and trap payloads included.
	posix bool
	// mayRunCode: src has "@P" or `$"`, so a word of it may hold a prompt
	// expansion or a locale translation (see runsCode).
	mayRunCode bool
	// blanks are the offsets in src of blanks the analysis inserted to
	// read "((" as bash does (see splitParens), and written is then the
	// text as written: pos and text map the blanks away.
	blanks  []int
	written string
	// elsewhere: the code runs in a directory other than the shell's,
	// which a wrapper chose (see Segment.Elsewhere).
	elsewhere bool
}

// runsCode reports whether n holds a prompt expansion or a locale
// translation (see the function runsCode), at no cost for a text that has
// neither.
func (f *frame) runsCode(n syntax.Node) bool {
	return f.mayRunCode && runsCode(n)
}

func textMayRunCode(src string) bool {
	return strings.Contains(src, "@P") || strings.Contains(src, `$"`)
}

// budget bounds the work of one analysis.
type budget struct {
	words, braceWords, valueBytes, parsed int
	// scale multiplies the limits: 1 per MaxTextSize of top-level text.
	scale int
}

// parsedOver reports whether the code parsed so far (top level and nested)
// is over the budget.
func (b *budget) parsedOver() bool {
	return b.parsed > maxParsedBytes*max(b.scale, 1)
}

var errBudget = errors.New("expansion too large to analyse")

func (b *budget) spend(words, bytes int) error {
	b.words += words
	b.valueBytes += bytes
	if k := max(b.scale, 1); b.words > maxWords*k || b.valueBytes > maxValueBytes*k {
		return errBudget
	}
	return nil
}

// parsers caches bash parsers between analyses: a Parser holds two 1 KiB
// buffers, and allocating them is a visible part of analysing a short
// command. A Parser keeps no state from one Parse to the next. posixParsers
// are the same for the code of sh, dash and ash (dash is /bin/sh on the
// systems guardsh targets).
var (
	parsers      = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}
	posixParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangPOSIX)) }}
)

// parse parses src as bash (or, with posix, as POSIX sh) and refuses a
// text the parser may read differently than the shell (see checkReading).
// A bash text the parser rejects only because of a "((" that bash reads as
// two parentheses is parsed as bash reads it (see splitParens): text is
// then src with blanks inserted at the offsets blanks, and the tree's
// positions refer to text. An error's positions refer to src.
func (a *analyzer) parse(src string, posix bool) (f *syntax.File, text string, blanks []int, err error) {
	pool := &parsers
	if posix {
		pool = &posixParsers
	}
	p := pool.Get().(*syntax.Parser)
	defer pool.Put(p)
	f, err = p.Parse(strings.NewReader(src), "")
	text = src
	if err != nil {
		if posix || !strings.Contains(src, "((") {
			return nil, "", nil, err
		}
		var ok bool
		if f, text, blanks, ok = a.splitParens(p, src, err); !ok {
			return nil, "", nil, err
		}
	}
	if rerr := checkReading(f, text); rerr != nil {
		rerr.Off = unshift(rerr.Off, blanks)
		return nil, "", nil, rerr
	}
	return f, text, blanks, nil
}

// checkText refuses what must not reach the parser: text over limit
// bytes, raw carriage returns and NUL bytes (bash and the parser treat them
// differently than a reader would), and nesting deep enough to exhaust the
// stack.
func checkText(src string, f *frame, limit int) *NotUnderstood {
	if len(src) > limit {
		line, col := f.pos(0)
		return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("text is %d bytes, over the %d-byte limit", len(src), limit)}
	}
	if i := firstCRorNUL(src); i >= 0 {
		what := "raw carriage return"
		if src[i] == 0 {
			what = "NUL byte"
		} else if i+1 < len(src) && src[i+1] == '\n' {
			// A script saved with Windows line endings (CRLF), as a
			// file committed from Windows is checked out: bash reads
			// each CR as part of a word (a new user's CI script).
			what = "raw carriage return (Windows line endings, CRLF: convert the file with dos2unix, or `* text=auto eol=lf` in .gitattributes)"
		}
		line, col := f.pos(i)
		return &NotUnderstood{Line: line, Col: col, Reason: what + " in command text"}
	}
	depth, bangs := 0, 0
	for i := 0; i < len(src); i++ {
		switch textBytes[src[i]] {
		case 0: // any other byte ends a run of "!"
			bangs = 0
		case textOpen:
			bangs = 0
			depth++
			if depth > maxBrackets {
				line, col := f.pos(i)
				return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("brackets nested deeper than %d levels", maxBrackets)}
			}
		case textClose:
			bangs = 0
			if depth > 0 {
				depth--
			}
		case textBang:
			bangs++
			if bangs > maxBangs {
				line, col := f.pos(i)
				return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("more than %d \"!\" in a row", maxBangs)}
			}
		}
	}
	if off, reason := checkShape(src); reason != "" {
		line, col := f.pos(off)
		return &NotUnderstood{Line: line, Col: col, Reason: reason}
	}
	return nil
}

// firstCRorNUL is the offset of the first carriage return or NUL byte of
// src, or -1: strings.IndexAny(src, "\r\x00"), with the byte search the
// strings package vectorises (checkText reads every byte of a 1 MB script
// before it is parsed, on no other goroutine).
func firstCRorNUL(src string) int {
	i := strings.IndexByte(src, '\r')
	if i < 0 {
		i = len(src)
	}
	if j := strings.IndexByte(src[:i], 0); j >= 0 {
		return j
	}
	if i == len(src) {
		return -1
	}
	return i
}

// Classes of textBytes: the bytes checkText's loop acts on.
const (
	textOpen  = 1 + iota // ( { [
	textClose            // ) } ]
	textBang             // !
	textBlank            // blank or newline: keeps a run of "!"
)

// textBytes classifies each byte for checkText; 0 is every other byte.
var textBytes = [256]uint8{
	'(': textOpen, '{': textOpen, '[': textOpen,
	')': textClose, '}': textClose, ']': textClose,
	'!': textBang, ' ': textBlank, '\t': textBlank, '\n': textBlank,
}

// shapeBytes marks the bytes other than letters that checkShape acts on:
// blanks, newlines, backslashes, operators, brackets, backquotes and "!".
// Any other byte, and a letter outside command position, only puts the
// next word out of command position.
var shapeBytes = func() (t [256]bool) {
	for _, c := range []byte(" \t\\\n;&|<(){`!") {
		t[c] = true
	}
	return t
}()

// checkShape refuses keyword nesting deeper than maxKeywords and chains
// longer than maxChain, reading src roughly as the shell does: words in
// command position, operators, here-document bodies skipped; quotes are
// not followed, so a keyword or operator in quoted text may count. It
// returns the offset of the word or operator past the bound and why.
func checkShape(src string) (off int, reason string) {
	kw, chain := 0, 0
	cmd := true        // a word starting here is in command position
	chained := false   // the last token was &&, || or |: a newline continues the chain
	var hdocs []string // delimiters of the here-documents whose bodies start at the next newline
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\\':
			i += 2 // an escaped character, or a line continuation
		case c == '\n':
			i++
			for _, d := range hdocs {
				i = skipHdoc(src, i, d)
			}
			hdocs = hdocs[:0]
			if !chained {
				chain = 0
			}
			cmd = true
		case c == ';':
			chain, cmd, chained = 0, true, false
			i++
		case c == '&' || c == '|':
			redirect := (i > 0 && (src[i-1] == '>' || src[i-1] == '<')) || (i+1 < len(src) && src[i+1] == '>')
			switch {
			case redirect:
				i++
				cmd, chained = false, false
				continue
			case i+1 < len(src) && (src[i+1] == c || (c == '|' && src[i+1] == '&')):
				i += 2
				chain++
			case c == '|':
				i++
				chain++
			default: // a lone "&" ends the statement
				i++
				chain, cmd, chained = 0, true, false
				continue
			}
			if chain > maxChain {
				return i - 1, fmt.Sprintf("more than %d operators (&&, ||, |) in one chain", maxChain)
			}
			cmd, chained = true, true
		case c == '<' && strings.HasPrefix(src[i:], "<<") && !strings.HasPrefix(src[i:], "<<<"):
			d, end := hdocDelim(src, i+2)
			if d != "" {
				hdocs = append(hdocs, d)
			}
			i, cmd, chained = end, false, false
		case c == '(' || c == ')' || c == '{' || c == '`' || c == '!':
			i++
			cmd, chained = true, false
		case isAlpha(c) && cmd:
			j := i
			for j < len(src) && isAlpha(src[j]) {
				j++
			}
			word := ""
			if j == len(src) || strings.IndexByte(" \t\n;&|()<>", src[j]) >= 0 {
				word = src[i:j]
			}
			cmd = false
			switch word {
			case "if", "while", "until":
				kw++
				cmd = true
			case "case", "for", "select":
				kw++
			case "fi", "done", "esac":
				kw = max(kw-1, 0)
			case "then", "do", "else", "elif":
				cmd = true
			}
			if kw > maxKeywords {
				return i, fmt.Sprintf("compound commands (if, case, for, while …) nested deeper than %d levels", maxKeywords)
			}
			i, chained = j, false
		default:
			// On to the next byte that may change what follows: the
			// word goes on out of command position, where a letter is
			// as any other byte.
			for i++; i < len(src) && !shapeBytes[src[i]]; i++ {
			}
			cmd, chained = false, false
		}
	}
	return 0, ""
}

// hdocDelim reads the delimiter word of a here-document operator whose
// "<<" ends at i: quotes and backslashes removed, a leading "-" (<<-)
// kept as a mark that tabs lead the body's lines. It returns the
// delimiter ("" when there is no word) and where the word ends.
func hdocDelim(src string, i int) (string, int) {
	dash := i < len(src) && src[i] == '-'
	if dash {
		i++
	}
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	var b strings.Builder
	for ; i < len(src) && strings.IndexByte(" \t\n;&|()<>", src[i]) < 0; i++ {
		switch src[i] {
		case '\'', '"', '\\':
		default:
			b.WriteByte(src[i])
		}
	}
	if b.Len() == 0 {
		return "", i
	}
	if dash {
		return "-" + b.String(), i
	}
	return b.String(), i
}

// skipHdoc returns the offset after the here-document body that starts
// at i and the line that ends it (delimiter d, "-d" for <<-), or the end
// of src.
func skipHdoc(src string, i int, d string) int {
	dash := strings.HasPrefix(d, "-")
	if dash {
		d = d[1:]
	}
	for i < len(src) {
		end := strings.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		if dash {
			line = strings.TrimLeft(line, "\t")
		}
		i = min(end+1, len(src))
		if line == d {
			break
		}
	}
	return i
}

// lineIndex holds the offsets of the line starts of a text, built on first
// use.
type lineIndex struct {
	starts []int
	// last is the index in starts of the line found last: the analysis
	// asks for places mostly in the order of the text, so the next one
	// is most often on that line or a few after it.
	last int
}

// line returns the 1-based line of offset (0 ≤ offset): the number of
// line starts at or before it, as sort.Search over starts finds it,
// looked for first on the line of the last call and the 7 after it.
func (x *lineIndex) line(offset int) int {
	ls := x.starts
	if i := x.last; i < len(ls) && ls[i] <= offset {
		for end := min(i+8, len(ls)); i+1 < end && ls[i+1] <= offset; i++ {
		}
		if i+1 == len(ls) || ls[i+1] > offset {
			x.last = i
			return i + 1
		}
	}
	l := sort.Search(len(ls), func(i int) bool { return ls[i] > offset })
	x.last = l - 1
	return l
}

// pos converts a byte offset in f.src to a 1-based line and column, or
// returns the payload position of a nested frame.
func (f *frame) pos(offset int) (line, col int) {
	if f.line > 0 {
		return f.line, f.col
	}
	if f.lines == nil {
		f.lines = &lineIndex{}
	}
	if f.lines.starts == nil {
		starts := make([]int, 1, strings.Count(f.src, "\n")+1)
		for i := 0; ; {
			j := strings.IndexByte(f.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			starts = append(starts, i)
		}
		f.lines.starts = starts
	}
	ls := f.lines.starts
	offset = min(max(offset, 0), len(f.src))
	l := f.lines.line(offset)
	if f.blanks != nil {
		return l, unshift(offset, f.blanks) - unshift(ls[l-1], f.blanks) + 1
	}
	return l, offset - ls[l-1] + 1
}

// at returns the 1-based line and column of p (see pos).
func (f *frame) at(p syntax.Pos) (line, col int) {
	return f.pos(int(p.Offset()))
}

// place returns s located at p.
func (f *frame) place(p syntax.Pos, s Segment) Segment {
	s.Line, s.Col = f.at(p)
	return s
}

// text returns the source of node n in f.src.
func (f *frame) text(n syntax.Node) string {
	return f.span(int(n.Pos().Offset()), int(n.End().Offset()))
}

// span is the text between offsets s and e of f.src, as text.
func (f *frame) span(s, e int) string {
	if s < 0 || e > len(f.src) || s > e {
		return ""
	}
	if f.blanks != nil {
		return f.written[unshift(s, f.blanks):unshift(e, f.blanks)]
	}
	return f.src[s:e]
}

// child returns the frame for code nested in f through the construct via.
func (f *frame) child(via string) *frame {
	c := *f
	c.via = append(slices.Clip(f.via), via)
	return &c
}

func parseErrPos(err error, f *frame) (int, int) {
	var pe syntax.ParseError
	var le syntax.LangError
	var re *readingError
	switch {
	case errors.As(err, &re):
		return f.pos(re.Off)
	case errors.As(err, &pe):
		return f.pos(int(pe.Pos.Offset()))
	case errors.As(err, &le):
		return f.pos(int(le.Pos.Offset()))
	}
	return f.pos(0)
}

func parseErrText(err error) string {
	var re *readingError
	if errors.As(err, &re) {
		return "read differently by bash: " + re.Reason
	}
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		if pe.Incomplete {
			return "incomplete command: " + pe.Text
		}
		return "parse error: " + pe.Text
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		msg := le.Error()
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
		return "parse error: " + msg
	}
	return "parse error: " + err.Error()
}

func (a *analyzer) fail(f *frame, p syntax.Pos, reason string) {
	if a.err != nil {
		return
	}
	line, col := f.pos(int(p.Offset()))
	a.err = &NotUnderstood{Line: line, Col: col, Reason: reason}
}

func (a *analyzer) failErr(f *frame, p syntax.Pos, err error) {
	if errors.Is(err, errBudget) {
		a.fail(f, p, fmt.Sprintf("%v (over %d words, %d from brace expansion, or %d bytes)", err, maxWords, maxBraceWords, maxValueBytes))
		return
	}
	a.fail(f, p, "cannot expand word: "+err.Error())
}

// emit appends a segment and what the cwd rule needs to know about it.
func (a *analyzer) emit(s Segment, f *frame) {
	s.Elsewhere = s.Elsewhere || f.elsewhere
	if a.assuming != "" {
		s.Assumed = a.assuming
	}
	if a.sourcing != "" && s.Sourced == "" {
		s.Sourced = a.sourcing
	}
	if a.scriptInput > 0 && s.Kind == Exec && len(s.Args) > 0 {
		name := s.Args[0].Value
		s.ReadsScript = !bashBuiltins[name] || name == "source" || name == "."
	}
	if s.AfterCd == 0 {
		s.AfterCd = a.afterCd
	}
	if len(a.arith) > 0 {
		s.Arith = joinRefs(s.Arith, a.arith)
		a.arith = a.arith[:0]
	}
	for _, w := range s.Assigns {
		if strings.HasPrefix(w.Value, "BASH_FUNC_") {
			// A function exported to the bash it starts (`env
			// 'BASH_FUNC_ls%%=() { … }' bash -c ls`): code no segment
			// shows (attack run 50).
			s.RunsCode = true
		}
	}
	m := segMeta{deferred: f.deferred, cwd: s.MayChangeDir()}
	if m.cwd && a.firstCd < 0 {
		a.firstCd = len(a.segs)
	}
	if len(a.segs) == cap(a.segs) {
		// Doubled rather than grown by append's quarter: a script
		// with more segments than Analyze guessed is copied less.
		segs := make([]Segment, len(a.segs), 2*cap(a.segs)+16)
		copy(segs, a.segs)
		a.segs = segs
	}
	a.segs = append(a.segs, s)
	a.meta = append(a.meta, m)
}

// MayChangeDir reports whether s may change the working directory of the
// commands after it: cd, pushd and popd (also inside builtin or command,
// which Analyze unwraps into segments of their own), eval of text only known
// at run time, and any command whose name is only known at run time.
func (s Segment) MayChangeDir() bool {
	if s.Kind != Exec || len(s.Args) == 0 {
		return false
	}
	switch name := s.Args[0].Value; name {
	case "cd", "pushd", "popd":
		return true
	case "eval":
		// eval of text only known at run time may cd
		for _, w := range s.Args[1:] {
			if strings.Contains(w.Value, Hole) {
				return true
			}
		}
		return false
	default:
		return strings.Contains(name, Hole)
	}
}

// holeRelativeTargets turns relative redirection targets into whole Holes
// when the working directory they resolve against may have changed: after
// the first segment that may change it, inside a loop that contains one (a
// later iteration runs after it), in function bodies and trap actions (they
// run whenever called) when the text has one anywhere, and everywhere with
// Options.DirChanged.
func (a *analyzer) holeRelativeTargets() {
	if a.firstCd < 0 && !a.opt.DirChanged {
		return
	}
	// cds[j] counts the segments before j that may change the directory.
	cds := make([]int, len(a.segs)+1)
	for j := range a.segs {
		cds[j+1] = cds[j]
		if a.meta[j].cwd {
			cds[j+1]++
		}
	}
	inCdLoop := a.inLoops(func(l [2]int) bool { return cds[l[1]] > cds[l[0]] })
	for i := range a.segs {
		s := &a.segs[i]
		if s.Kind == Exec || len(s.Args) != 1 {
			continue
		}
		v := s.Args[0].Value
		if v == "" || strings.HasPrefix(v, "/") || strings.HasPrefix(v, Hole) {
			continue
		}
		unknown := a.opt.DirChanged || (a.firstCd >= 0 && (i > a.firstCd || a.meta[i].deferred))
		if inCdLoop[i] {
			unknown = true
		}
		if unknown {
			if !a.opt.DirChanged {
				s.Relative = v
			}
			s.Args = []Word{{Value: Hole, Source: s.Args[0].Source}}
		}
	}
}

// inLoops reports for each segment whether it was emitted inside one of
// a.loops that keep accepts (all of them when keep is nil), in time
// linear in the segments and loops however deeply the loops nest.
func (a *analyzer) inLoops(keep func(l [2]int) bool) []bool {
	in := make([]bool, len(a.segs))
	if len(a.loops) == 0 {
		return in
	}
	// open[j] is the number of loops that start at j less those that
	// end there.
	open := make([]int, len(a.segs)+1)
	for _, l := range a.loops {
		l[0], l[1] = min(l[0], len(a.segs)), min(l[1], len(a.segs))
		if l[0] < l[1] && (keep == nil || keep(l)) {
			open[l[0]]++
			open[l[1]]--
		}
	}
	depth := 0
	for j := range in {
		depth += open[j]
		in[j] = depth > 0
	}
	return in
}

// stmts walks a statement list in order.
func (a *analyzer) stmts(list []*syntax.Stmt, f *frame) {
	for _, s := range list {
		if a.err != nil {
			return
		}
		a.stmt(s, f)
	}
}

// stmt walks one statement. A binary command (&&, ||, |, |&) is walked
// with an explicit stack: the parser builds long pipelines as deep trees.
func (a *analyzer) stmt(s *syntax.Stmt, f *frame) {
	stack := []*syntax.Stmt{s}
	for len(stack) > 0 && a.err == nil {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 {
			if ops := andChain(b); len(ops) > 0 {
				// `cd DIR && Y && …`: what follows the cd in the chain
				// runs only where the cd led (see Segment.AfterCd), up
				// to the next cd of the chain — `cd web && ls && cd ..
				// && touch f` touches ./f (a new user's find: the
				// chain's later cds were taken from where a failed
				// `cd web` would have stayed).
				saved := a.afterCd
				for _, op := range ops {
					if a.err != nil {
						break
					}
					start := len(a.segs)
					a.stmt(op, f)
					if !plainCd(op) {
						continue
					}
					for i := start; i < len(a.segs); i++ {
						if sg := a.segs[i]; sg.Kind == Exec && sg.MayChangeDir() && sg.Assumed == "" && !sg.Aliased && !sg.Function {
							a.afterCd = i + 1
							break
						}
					}
				}
				a.afterCd = saved
				continue
			}
			if b.Op == syntax.Pipe || b.Op == syntax.PipeAll {
				if a.feeds == nil {
					a.feeds = map[*syntax.Stmt]*syntax.Stmt{}
				}
				a.feeds[b.Y] = lastStage(b.X)
			}
			stack = append(stack, b.Y, b.X)
			continue
		}
		a.oneStmt(s, f)
	}
}

// andChain returns the operands of b when b is an && list (`A && B &&
// C`, which the parser builds as ((A && B) && C)) holding a plain cd
// (see plainCd) that is not its last operand, in the order they run;
// nil otherwise. Only the left spine of plain && nodes (not negated,
// backgrounded or redirected) is taken apart, walked without recursion.
func andChain(b *syntax.BinaryCmd) []*syntax.Stmt {
	if b.Op != syntax.AndStmt {
		return nil
	}
	ops := []*syntax.Stmt{b.Y}
	x := b.X
	for {
		l, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || l.Op != syntax.AndStmt || len(x.Redirs) > 0 || x.Negated || x.Background || x.Coprocess {
			break
		}
		ops = append(ops, l.Y)
		x = l.X
	}
	ops = append(ops, x)
	slices.Reverse(ops)
	if !slices.ContainsFunc(ops[:len(ops)-1], plainCd) {
		return nil
	}
	return ops
}

// plainCd reports a statement that is only a cd or pushd command, not
// backgrounded, negated or redirected (its failure then stops an &&).
func plainCd(s *syntax.Stmt) bool {
	if s.Background || s.Negated || s.Coprocess || len(s.Redirs) > 0 {
		return false
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || len(c.Args) == 0 || len(c.Args[0].Parts) != 1 {
		return false
	}
	lit, ok := c.Args[0].Parts[0].(*syntax.Lit)
	if !ok || lit.Value != "cd" && lit.Value != "pushd" {
		return false
	}
	if lit.Value == "pushd" {
		// pushd -n DIR and pushd +N / -N succeed without moving the
		// shell (attack run 41: `pushd -n sub && cat ../.ssh/id_rsa`
		// was decided in sub and ran where it started).
		for _, w := range c.Args[1:] {
			if v := w.Lit(); v == "" || strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				return false
			}
		}
	}
	return true
}

// lastStage returns the last stage of a pipeline statement.
func lastStage(s *syntax.Stmt) *syntax.Stmt {
	for {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || (b.Op != syntax.Pipe && b.Op != syntax.PipeAll) {
			return s
		}
		s = b.Y
	}
}

func (a *analyzer) oneStmt(s *syntax.Stmt, f *frame) {
	switch c := s.Cmd.(type) {
	case nil:
		a.noCarrier(a.redirs(s.Redirs, f), s, f)
	case *syntax.CallExpr:
		a.call(c, s, f)
	case *syntax.DeclClause:
		if a.aliasAt(c.Variant.Value, c.Variant.ValuePos, f) {
			return
		}
		a.decl(c, s, f)
	case *syntax.TestClause:
		a.nestedTest(c.X, f)
		runs := a.redirs(s.Redirs, f)
		args := []Word{{Value: "[[", Source: "[["}}
		args = a.testArgs(c.X, f, args)
		args = append(args, Word{Value: "]]", Source: "]]"})
		if why := subscriptCode(args); why != "" {
			a.fail(f, c.Pos(), why)
			return
		}
		a.emit(f.place(c.Pos(), Segment{Kind: Exec, Args: args, Via: f.via, RunsCode: runs || f.runsCode(c.X)}), f)
	case *syntax.ArithmCmd:
		a.nestedArith(c.X, f)
		runs := a.redirs(s.Redirs, f)
		x := a.arithWord(c.X, f)
		args := []Word{{Value: "((", Source: "(("}, x, {Value: "))", Source: "))"}}
		a.emit(f.place(c.Pos(), Segment{Kind: Exec, Args: args, Assigns: arithAssigns(c.X), Via: f.via, RunsCode: runs || f.runsCode(c.X)}), f)
	case *syntax.LetClause:
		if a.aliasAt("let", c.Let, f) {
			return
		}
		for _, x := range c.Exprs {
			a.nestedArith(x, f)
		}
		runs := a.redirs(s.Redirs, f)
		args := []Word{{Value: "let", Source: "let"}}
		for _, x := range c.Exprs {
			args = append(args, a.arithWord(x, f))
			runs = runs || f.runsCode(x)
		}
		if why := subscriptCode(args); why != "" {
			a.fail(f, c.Pos(), why)
			return
		}
		a.emit(f.place(c.Pos(), Segment{Kind: Exec, Args: args, Assigns: letAssigns(c.Exprs), Via: f.via, RunsCode: runs}), f)
	default:
		a.noCarrier(a.redirs(s.Redirs, f), s, f)
		a.compound(s.Cmd, f)
	}
}

// noCarrier refuses a prompt expansion ${x@P} or a locale translation $"…"
// (see Segment.RunsCode) in a place no segment stands for: a case word or
// pattern, an arithmetic for loop, a coproc name, or the here-document of a
// compound command or of a statement with redirections only.
func (a *analyzer) noCarrier(runs bool, n syntax.Node, f *frame) {
	if runs {
		a.fail(f, n.Pos(), `a prompt expansion ${…@P} or a locale translation $"…" that no command carries`)
	}
}

// compound walks the commands inside a compound command.
func (a *analyzer) compound(cmd syntax.Command, f *frame) {
	switch c := cmd.(type) {
	case *syntax.BinaryCmd:
		a.stmt(c.X, f)
		a.stmt(c.Y, f)
	case *syntax.Block:
		a.stmts(c.Stmts, f)
	case *syntax.Subshell:
		a.stmts(c.Stmts, f)
	case *syntax.IfClause:
		for ic := c; ic != nil && a.err == nil; ic = ic.Else {
			a.stmts(ic.Cond, f)
			a.stmts(ic.Then, f)
		}
	case *syntax.WhileClause:
		start := len(a.segs)
		a.loopDepth++
		a.stmts(c.Cond, f)
		a.stmts(c.Do, f)
		a.loopDepth--
		a.loops = append(a.loops, [2]int{start, len(a.segs)})
	case *syntax.ForClause:
		if c.Select && a.stdinScript > 0 {
			// select reads a line from standard input: in a shell that
			// reads its script there, the script's next line (attack
			// run 31).
			a.fail(f, c.Pos(), "select in a shell that reads its script from standard input: it would take the script's next line, and the shell then runs as code what the analysis read as data")
			return
		}
		start := len(a.segs)
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			// Each iteration assigns the loop variable: a segment
			// of that assignment, its value only known at run time.
			runs := false
			for _, w := range l.Items {
				a.nestedWord(w, f)
				runs = runs || f.runsCode(w)
			}
			delete(a.assume.vars, l.Name.Value)
			delete(a.certainVars, l.Name.Value)
			if a.err == nil {
				as := Word{Value: l.Name.Value + "=" + Hole, Source: l.Name.Value}
				if a.loopAssigns == nil {
					a.loopAssigns = map[int][]*syntax.Word{}
				}
				if l.InPos.IsValid() {
					a.loopAssigns[len(a.segs)] = l.Items
				} // else over "$@" (attack run 42: set -- "$(cat f)"; for y; do : $((y)); done)
				a.emit(f.place(l.Name.Pos(), Segment{Kind: Exec, Assigns: []Word{as}, Via: f.via, RunsCode: runs}), f)
			}
			if a.envAssigned == nil {
				a.envAssigned = map[string]bool{}
			}
			a.envAssigned[l.Name.Value] = true // not the environment's any more
			if vals, ok := a.loopValues(l, c.Do, f); ok {
				if a.loopVals == nil {
					a.loopVals = map[string]loopVar{}
				}
				a.loopVals[l.Name.Value] = a.newLoopVar(l.Name.Value, vals)
				defer delete(a.loopVals, l.Name.Value)
			}
		case *syntax.CStyleLoop:
			a.nestedArith(l.Init, f)
			a.nestedArith(l.Cond, f)
			a.nestedArith(l.Post, f)
			a.noCarrier(f.runsCode(l), l, f)
			if as := arithAssigns(l.Init, l.Cond, l.Post); len(as) > 0 {
				// What the loop's arithmetic assigns, as ${x:=…} is.
				a.emit(f.place(l.Pos(), Segment{Kind: Exec, Assigns: as, Via: f.via}), f)
			}
		}
		a.loopDepth++
		a.stmts(c.Do, f)
		a.loopDepth--
		a.loops = append(a.loops, [2]int{start, len(a.segs)})
	case *syntax.CaseClause:
		a.nestedWord(c.Word, f)
		a.noCarrier(f.runsCode(c.Word), c.Word, f)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				a.nestedWord(p, f)
				a.noCarrier(f.runsCode(p), p, f)
			}
			a.stmts(it.Stmts, f)
		}
	case *syntax.FuncDecl:
		// Whatever its name, from here on a call may assign a loop's
		// variable or be cat (see loopValues, realCat).
		a.funcDefined = true
		a.envOff = true
		if c.Name == nil || c.Name.Value == "cat" {
			a.catDefined = true
		}
		if c.Name != nil && a.aliasAt(c.Name.Value, c.Name.ValuePos, f) {
			break
		}
		if c.Name != nil && c.Name.Value == "command_not_found_handle" && a.opt.Session {
			a.fail(f, c.Pos(), "in an interactive session command_not_found_handle runs later, when bash finds no command, with the aliases and files of that moment")
			break
		}
		if c.Name != nil && c.Name.Value == "builtin" {
			// `builtin NAME` is how a shell reaches a builtin past any
			// function of that name: guardsh's own lines in an
			// interactive session rely on it.
			a.fail(f, c.Pos(), "a function named builtin replaces the way past functions to bash's builtins")
			break
		}
		if a.sourcing != "" {
			a.defineFunc(c, f)
			break
		}
		if c.Name != nil {
			if a.textFuncs == nil {
				a.textFuncs = map[string]bool{}
			}
			name := c.Name.Value
			was, seen := a.textFuncs[name]
			a.textFuncs[name] = a.topFuncs[c] && f.depth == 0 && len(f.via) == 0 && (was || !seen) &&
				!bashBuiltins[name] && isName(name)
		}
		body := *f
		body.deferred = true
		a.inBody++
		a.stmt(c.Body, &body)
		a.inBody--
	case *syntax.TimeClause:
		if c.Stmt != nil {
			if call, ok := c.Stmt.Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 && call.Args[0].Lit() == "--" {
				// bash skips it; the parser takes it for the command.
				a.fail(f, call.Pos(), `"time --": bash skips the "--" (write time CMD)`)
				return
			}
			a.stmt(c.Stmt, f)
		}
	case *syntax.CoprocClause:
		a.envOff = true // it sets NAME (see envValue)
		if c.Name != nil && a.aliasAt(c.Name.Lit(), c.Name.Pos(), f) {
			return
		}
		a.nestedWord(c.Name, f)
		if c.Name != nil {
			a.noCarrier(f.runsCode(c.Name), c.Name, f)
		}
		a.stmt(c.Stmt, f)
	default:
		a.fail(f, cmd.Pos(), fmt.Sprintf("unsupported construct %T", cmd))
	}
}

// call handles a simple command: the commands nested in its assignments and
// words run first (expansion), then its redirections, then the command
// itself, then whatever it runs in turn (eval, sh -c, wrappers).
func (a *analyzer) call(c *syntax.CallExpr, s *syntax.Stmt, f *frame) {
	for _, as := range c.Assigns {
		a.nestedAssign(as, f)
	}
	for _, w := range c.Args {
		a.nestedWord(w, f)
	}
	runs := a.redirs(s.Redirs, f)
	if a.err != nil {
		return
	}
	seg := Segment{Kind: Exec, Via: f.via, RunsCode: runs}
	seg.Line, seg.Col = f.at(c.Pos())
	for _, as := range c.Assigns {
		seg.Assigns = append(seg.Assigns, a.assignWord(as, f))
		seg.RunsCode = seg.RunsCode || f.runsCode(as)
	}
	// The variables it assigns are no longer the environment's, nor
	// what the text made certain (a statement of plain assignments makes
	// them so again in track). This before the code the command runs is
	// analysed: a prefix assignment is in force there (eval, bash -c, a
	// function: attack run 47's `f=$(…) eval 'cat "$f"'`), and may
	// persist (`f=x :` in POSIX mode).
	for _, as := range c.Assigns {
		if as.Name != nil {
			if a.envAssigned == nil {
				a.envAssigned = map[string]bool{}
			}
			a.envAssigned[as.Name.Value] = true
			delete(a.certainVars, as.Name.Value)
		}
	}
	seg.Args = a.wordSlots(len(c.Args))
	offs := make([]int, 0, len(c.Args))
	for _, w := range c.Args {
		seg.RunsCode = seg.RunsCode || f.runsCode(w)
		n := len(seg.Args)
		seg.Args = a.fields(w, f, seg.Args)
		for range seg.Args[n:] {
			offs = append(offs, int(w.Pos().Offset()))
		}
	}
	if a.err != nil || len(seg.Args)+len(seg.Assigns) == 0 {
		return // e.g. "{,}": brace expansion removed every word
	}
	if v, ok := printfVar(seg.Args); ok {
		// printf -v NAME assigns NAME, as NAME=value would.
		seg.Assigns = append(seg.Assigns, Word{Value: v + "=" + Hole, Source: v})
	}
	for _, v := range a.arithmAssigned(c, f) {
		// $((NAME=…)) in a word assigns NAME, as NAME=value would
		// ($((BASH_CMDS[ls]=1)) makes a later ls run ./1).
		seg.Assigns = append(seg.Assigns, arithAssign(v))
	}
	if refuse, dynamic := optionRisk(seg.Args); refuse != "" {
		a.fail(f, c.Pos(), refuse)
		return
	} else if dynamic {
		seg.RunsCode = true
	}
	if why := subscriptCode(seg.Args); why != "" {
		a.fail(f, c.Pos(), why)
		return
	}
	a.callStart = len(a.segs)
	if a.opt.AliasesOn && f.depth == 0 && a.sourcing == "" && len(c.Args) > 0 {
		if name, ok := aliasName(c.Args[0]); ok {
			_, seg.Aliased = a.opt.Aliases[name]
		}
	}
	if len(seg.Args) > 0 && (a.funcs != nil || a.pending != nil) {
		seg.Function = a.isFunc(seg.Args[0].Value)
	}
	textCall := false
	if len(seg.Args) > 0 && !seg.Function && a.textFuncs[seg.Args[0].Value] && f.depth == 0 && a.sourcing == "" &&
		c.Args[0].Lit() == seg.Args[0].Value {
		// A function the text defined at its top level, before this
		// call: its body was analysed where it is defined (see
		// textFunctionCalls).
		seg.Function, textCall = true, true
		a.textCalls = append(a.textCalls, len(a.segs))
	}
	if a.assuming == "" {
		seg.Bounded = a.boundedIn(c)
	}
	// In a shell reading its script from stdin, a statement with no input
	// of its own gives its stdin to what it runs: the segments it and its
	// payloads emit (a wrapper's program: `command head -c 5`, `timeout 5
	// head -c 5`: attack run 31) are marked (see readsScriptSeg).
	inherits := a.stdinScript > 0 && len(seg.Args) > 0 && !ownInput(s)
	if inherits {
		a.scriptInput++
	}
	a.emit(seg, f)
	a.payloads(seg, offs, s, f, 0)
	if inherits {
		a.scriptInput--
	}
	if seg.Function && !textCall {
		a.callFunc(seg.Args[0].Value, f)
	}
	if (a.aliases != nil || a.pendingAliases != nil) && len(c.Args) > 0 && a.err == nil {
		a.expandAlias(c, s, f)
	}
	if len(seg.Args) > 1 && seg.Args[0].Value == "unalias" && (a.aliases != nil || a.pendingAliases != nil) {
		for _, w := range seg.Args[1:] {
			if w.Value == "-a" || strings.Contains(w.Value, Hole) || a.isAlias(w.Value) {
				// It may not take effect (false && unalias x, a
				// subshell) or take effect only from the next line.
				a.fail(f, c.Pos(), "unalias of an alias the analysis knows: bash applies it only where and when it runs, which the analysis does not follow")
				return
			}
		}
	}
	a.track(c, seg)
	if a.err == nil && a.assuming == "" {
		main := seg
		if alt, altOffs, what := a.assumedArgs(c, f); what != "" && len(alt)+len(seg.Assigns) > 0 && !sameValues(alt, seg.Args) {
			// The same command with the variables' assumed values (see
			// assumptions): emitted, with what it runs, for deny rules
			// (and ask rules too when the values are certain).
			seg.Args, seg.Certain = alt, a.certainUse()
			a.assuming = what
			a.emit(seg, f)
			a.payloads(seg, altOffs, s, f, 0)
			a.assuming = ""
		}
		// Once per value of each bounded loop variable (see
		// Segment.Bounded).
		for _, name := range main.Bounded {
			old, had := a.assume.vars[name]
			lv := a.loopVals[name]
			var room [8]int
			uses, inPlace := loopUses(room[:0], main.Args, name)
			for i, v := range lv.vals {
				if a.assume.vars == nil {
					a.assume.vars = map[string]string{}
				}
				a.assume.vars[name] = v
				if inPlace && !strings.ContainsAny(v, " \t\n") {
					// The words' Holes are all this variable's: its
					// value in their place (what expand would give).
					seg := main
					seg.Args, seg.Certain = a.loopArgs(main.Args, uses, name, v), true
					a.assuming = lv.assumedAt(i)
					a.emit(seg, f)
					a.payloads(seg, offs, s, f, 0)
					a.assuming = ""
				} else if alt, altOffs, what := a.assumedArgs(c, f); what != "" && len(alt) > 0 && a.err == nil {
					seg := main
					seg.Args, seg.Certain = alt, true
					a.assuming = what
					a.emit(seg, f)
					a.payloads(seg, altOffs, s, f, 0)
					a.assuming = ""
				}
			}
			if had {
				a.assume.vars[name] = old
			} else {
				delete(a.assume.vars, name)
			}
		}
	}
}

// loopVar is a bounded loop variable's values (see loopValues), and
// what the analysis needs as it emits a segment with each.
type loopVar struct {
	vals []string
	// assumed holds the Segment.Assumed of each value, one after the
	// other: "NAME=VALUE", the value's Holes written "…" (one string, so
	// one allocation for them all); ends[i] is where vals[i]'s ends.
	assumed string
	ends    []int
	// bounded is []string{NAME}, with no room for more: the
	// Segment.Bounded of every segment whose words use only it.
	bounded []string
}

// newLoopVar returns the loopVar of variable name with values vals.
func (a *analyzer) newLoopVar(name string, vals []string) loopVar {
	lv := loopVar{vals: vals, ends: make([]int, len(vals))}
	var b strings.Builder
	n := 0
	for _, v := range vals {
		n += len(name) + 1 + len(v) + strings.Count(v, Hole)*(len("…")-len(Hole))
	}
	b.Grow(n)
	for i, v := range vals {
		b.WriteString(name)
		b.WriteByte('=')
		for v != "" {
			k := strings.Index(v, Hole)
			if k < 0 {
				b.WriteString(v)
				break
			}
			b.WriteString(v[:k])
			b.WriteString("…")
			v = v[k+len(Hole):]
		}
		lv.ends[i] = b.Len()
	}
	lv.assumed = b.String()
	// A loop's variable is most often named as the one before: one
	// Bounded slice for all of them.
	if len(a.lastBounded) == 1 && a.lastBounded[0] == name {
		lv.bounded = a.lastBounded
	} else {
		lv.bounded = []string{name}
		a.lastBounded = lv.bounded
	}
	return lv
}

// assumedAt returns the Segment.Assumed of value i.
func (lv loopVar) assumedAt(i int) string {
	start := 0
	if i > 0 {
		start = lv.ends[i-1]
	}
	return lv.assumed[start:lv.ends[i]]
}

// loopUses appends to uses the indexes of the args that use loop variable name
// when each value v of it can take the place of the Holes its
// references made in them (see loopArgs), that is when that is all
// expand would do with them: every word that uses the variable uses no
// other expansion (its text has no other "$" or "`") and has exactly as
// many Holes as references to it — and v holds no blank (unquoted, it
// would be split; the caller's check), v being a word or a glob's shape
// (see loopValues), with no pattern character. ok is false when some
// word needs expand itself, or none uses the variable.
func loopUses(uses []int, args []Word, name string) ([]int, bool) {
	for i, w := range args {
		refs := countRefs(w.Source, name)
		if refs == 0 {
			continue
		}
		if strings.Count(w.Source, "$") != refs || strings.IndexByte(w.Source, '`') >= 0 || strings.Count(w.Value, Hole) != refs ||
			strings.ContainsAny(w.Source, "*?[") {
			// (A glob character beside the variable globs its value:
			// no single name replaces it (attack run 46: "$f"?).)
			return nil, false
		}
		uses = append(uses, i)
	}
	return uses, len(uses) > 0
}

// loopArgs returns a copy of args (carved from the shared blocks, see
// wordSlots) with the Holes of the words at uses (see loopUses) replaced
// by value v.
func (a *analyzer) loopArgs(args []Word, uses []int, name, v string) []Word {
	out := append(a.wordSlots(len(args)), args...)
	for _, i := range uses {
		if out[i].Value == Hole {
			if strings.Contains(v, Hole) && quotedRef(out[i].Source, name) {
				// "$f" of a glob's value: one name of the glob's shape,
				// decided as the glob is (GlobWord; unquoted, a name
				// with a blank would split).
				out[i] = Word{Value: v, Source: strings.ReplaceAll(v, Hole, "*")}
				continue
			}
			out[i].Value = v // "$f" alone: what ReplaceAll would make
		} else {
			out[i].Value = strings.ReplaceAll(out[i].Value, Hole, v)
		}
	}
	return out
}

// quotedRef reports whether src is "$name" or "${name}", double-quoted:
// the variable's value as one word, neither split nor globbed.
func quotedRef(src, name string) bool {
	return src == `"$`+name+`"` || src == `"${`+name+`}"`
}

// countRefs counts the plain references to variable name in src: "$name"
// not followed by a name's byte, and "${name}" (see dropRef).
func countRefs(src, name string) int {
	n := 0
	for i := strings.IndexByte(src, '$'); i >= 0; {
		rest := src[i+1:]
		switch {
		case strings.HasPrefix(rest, name) && (len(rest) == len(name) || !isNameByte(rest[len(name)])):
			n++
		case len(rest) > len(name)+1 && rest[0] == '{' && strings.HasPrefix(rest[1:], name) && rest[1+len(name)] == '}':
			n++
		}
		k := strings.IndexByte(rest, '$')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return n
}

// boundedIn returns the bounded loop variables (see Segment.Bounded)
// that the words of c expand, in the order met.
func (a *analyzer) boundedIn(c *syntax.CallExpr) []string {
	if len(a.loopVals) == 0 && (a.opt.Env == nil || a.opt.Session) {
		return nil
	}
	var names []string
	for _, w := range c.Args {
		names = a.boundedParts(w.Parts, names)
	}
	return names
}

// boundedParts is boundedIn for the parts of one word (and of its double
// quotes): a parameter expansion inside a command substitution belongs to
// the substitution's own commands.
func (a *analyzer) boundedParts(parts []syntax.WordPart, names []string) []string {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			names = a.boundedParts(p.Parts, names)
		case *syntax.ParamExp:
			if p.Param == nil || slices.Contains(names, p.Param.Value) {
				continue
			}
			if lv, ok := a.loopVals[p.Param.Value]; ok && a.inChild == 0 {
				// (A child shell has none of the loop's variables
				// unless exported: attack run 47.)
				if names == nil {
					names = lv.bounded // shared: its capacity is its length
				} else {
					names = append(names, p.Param.Value)
				}
			} else if _, ok := a.envValue(p.Param.Value); ok && plainParam(p) {
				names = append(names, p.Param.Value)
			} else if plainParam(p) && a.certainLiteral(p.Param.Value) {
				names = append(names, p.Param.Value)
			}
		}
	}
	return names
}

// certainUse reports whether every value the last resolution with the
// assumptions used (assumptions.used) holds for certain where the
// analysis stands: a variable of the environment envValue vouches for,
// or HOME under the same conditions.
func (a *analyzer) certainUse() bool {
	if len(a.assume.used) == 0 {
		return false
	}
	for name := range a.assume.used {
		if _, assigned := a.assume.vars[name]; assigned {
			if a.certainLiteral(name) {
				continue
			}
			return false
		}
		if name == "HOME" {
			if a.opt.Env == nil || a.opt.Session || a.envOff || a.loopDepth > 0 || a.inBody > 0 || a.envAssigned[name] {
				return false
			}
			continue
		}
		if _, ok := a.envValue(name); !ok {
			return false
		}
	}
	return true
}

// plainParam reports whether p is $NAME or ${NAME}: nothing that makes
// its value other than the variable's.
func plainParam(p *syntax.ParamExp) bool {
	return !p.Excl && !p.Length && !p.Width && !p.IsSet && p.Index == nil && p.Slice == nil && p.Repl == nil &&
		p.Names == 0 && p.NestedParam == nil && p.Exp == nil && len(p.Modifiers) == 0 && p.Flags == nil
}

// envValue returns the value variable name has where the analysis stands,
// from Options.Env, when that is certain: the name is in the environment
// bash starts with and is none bash sets itself (envSpecial), the text
// has not assigned it so far, nor done anything that may assign any
// variable (envOff: a declaration, read, mapfile, getopts, printf, let,
// arithmetic, source, a function's definition …), and the word is not
// inside a loop or a function's body (which may run again after such a
// thing).
func (a *analyzer) envValue(name string) (string, bool) {
	if a.opt.Env == nil || a.opt.Session || a.envOff || a.loopDepth > 0 || a.inBody > 0 || a.inChild > 0 || a.envAssigned[name] ||
		envSpecial(name) {
		return "", false
	}
	return a.opt.Env(name)
}

// envSpecial reports a variable bash sets or changes on its own (at start
// or as it runs), whose value in guardsh's environment is not what a
// command sees.
func envSpecial(name string) bool {
	switch name {
	case "PWD", "OLDPWD", "SHLVL", "_", "PPID", "RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS",
		"EPOCHREALTIME", "HISTCMD", "OPTIND", "OPTARG", "REPLY", "COLUMNS", "LINES", "IFS", "UID", "EUID",
		"GROUPS", "HOSTNAME", "HOSTTYPE", "MACHTYPE", "OSTYPE", "DIRSTACK", "PIPESTATUS", "FUNCNAME",
		"SHELLOPTS", "POSIXLY_CORRECT", "HOME", "PS4", "MAPFILE", "CDPATH", "TMOUT",
		// bash drops or resets these in a non-interactive shell, and
		// guardsh leaves them out of its shell's environment (ShellEnv):
		// attack run 47's `rm -rf "$PS1".git`.
		"PS0", "PS1", "PS2", "PS3", "OPTERR", "PROMPT_COMMAND", "HISTFILE", "histchars", "HISTTIMEFORMAT",
		"MAILPATH", "MAIL", "MAILCHECK", "BASH_ENV", "ENV", "BASHOPTS":
		return true
	}
	return strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "COMP_") || strings.HasPrefix(name, "READLINE_") ||
		!isName(name)
}

// maxCertains bounds the values of a loop variable the analysis follows
// (each is a segment more for every command that uses it).
const maxCertains = 16

// loopValues returns the values of the variable of a for loop over words
// (l) with body do, at f, when the analysis can know them: at most
// maxCertains words, each without any expansion, brace, quoted pattern
// character or extended glob (a name, or a glob, whose value is its
// shape: see globShape), and a body that cannot assign the variable — no
// assignment to it (NAME=, ${NAME:=…}, ${!…}), no builtin that assigns or runs
// code (read, mapfile, printf, declare, eval, source …), no arithmetic, no
// function or alias the analysis knows, no command named at run time, no
// loop of the same name; and no function defined, nor an attribute given
// (declare -l/-u/-i/-n), anywhere before it in the text or in its text at
// all; and a loop not inside another loop or a function's body (which may
// run again after any of those).
func (a *analyzer) loopValues(l *syntax.WordIter, do []*syntax.Stmt, f *frame) ([]string, bool) {
	name := l.Name.Value
	if len(l.Items) == 0 || len(l.Items) > maxCertains || a.funcDefined || a.declAttrs || a.trapMay || a.loopDepth > 0 || f.deferred ||
		envSpecial(name) || name == "COPROC" {
		return nil, false
	}
	vals := make([]string, 0, len(l.Items))
	for _, w := range l.Items {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "~") && len(l.Value) > 1 && l.Value[1] != '/' {
			return nil, false // ~user, ~+, ~-: a directory only known at run time
		}
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
				if strings.ContainsAny(p.Value, "{}\\") {
					return nil, false
				}
			case *syntax.SglQuoted:
				if p.Dollar {
					return nil, false
				}
			case *syntax.DblQuoted:
				for _, q := range p.Parts {
					if _, ok := q.(*syntax.Lit); !ok {
						return nil, false
					}
				}
			default:
				return nil, false
			}
		}
		// The value as the analysis sees the word: a glob's shape, its
		// pattern characters Holes (expand keeps a Hole in a variable's
		// value, quoted or not). A quoted pattern character stays in
		// the value, and bash globs it where $f is unquoted: no values.
		fs, err := a.res.fields(w, "", nil, false)
		if err != nil || len(fs) != 1 || strings.ContainsAny(fs[0].Value, "*?[") {
			return nil, false
		}
		vals = append(vals, fs[0].Value)
	}
	return vals, a.loopBodyKeeps(name, do)
}

// loopBodyKeeps reports whether statements do, a for loop's body, cannot
// assign its variable name (see loopValues): no node of their syntax
// tree is one loopBodyNode refuses. Bodies made only of simple commands,
// && and || lists, and words of literals, quotes and parameter
// expansions are read by loopBody; any other shape by loopBodyWalk.
func (a *analyzer) loopBodyKeeps(name string, do []*syntax.Stmt) bool {
	for _, st := range do {
		switch (loopBody{a: a, name: name}).stmt(st) {
		case bodyAssigns:
			return false
		case bodyUnread:
			return a.loopBodyWalk(name, do)
		}
	}
	return true
}

// loopBodyWalk is loopBodyKeeps for any body: syntax.Walk visits every
// node.
func (a *analyzer) loopBodyWalk(name string, do []*syntax.Stmt) bool {
	ok := true
	for _, st := range do {
		syntax.Walk(st, func(n syntax.Node) bool {
			ok = ok && !a.loopBodyNode(name, n)
			return ok
		})
	}
	return ok
}

// loopBodyNode reports whether node n of a for loop's body may assign
// the loop's variable name, or makes the analysis unable to tell.
func (a *analyzer) loopBodyNode(name string, n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Assign:
		return n.Name != nil && n.Name.Value == name
	case *syntax.WordIter:
		return n.Name != nil && n.Name.Value == name
	case *syntax.ParamExp:
		// ${f:=x}, ${f=x} assign; ${!ref} and namerefs may name it.
		return n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) || n.Excl
	case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.FuncDecl, *syntax.DeclClause,
		*syntax.CoprocClause, *syntax.CStyleLoop:
		return true
	case *syntax.CallExpr:
		if len(n.Args) == 0 {
			return false
		}
		c, static := n.Args[0].Lit(), true
		if c == "" {
			c, static = simpleValue(n.Args[0].Parts, false)
		}
		switch {
		case !static, strings.Contains(c, `\`), a.isFunc(c), a.isAlias(c):
			// (A backslash in the name is quoting: `\export f=…` is
			// export, which the literal spelling hid: attack run 31.)
			return true
		case c == "eval", c == "source", c == ".", c == "read", c == "mapfile", c == "readarray",
			c == "getopts", c == "unset", c == "wait", c == "let", c == "printf" && printfAssigns(n.Args),
			c == "declare", c == "typeset", c == "local", c == "export", c == "readonly", c == "builtin",
			c == "command", c == "exec", c == "select", c == "enable", c == "hash", c == "trap":
			return true
		}
	}
	return false
}

// bodyRead is what loopBody found in a statement.
type bodyRead int

const (
	bodyKeeps   bodyRead = iota // no node loopBodyNode refuses
	bodyAssigns                 // a node loopBodyNode refuses
	bodyUnread                  // a node loopBody does not read: ask loopBodyWalk
)

// loopBody reads the common shapes of a loop's body for loopBodyKeeps
// without syntax.Walk (which costs a closure call and deferred calls per
// node): the nodes it reads, and their children, are those syntax.Walk
// visits, each asked loopBodyNode; TestLoopBodyAsWalk compares the two.
type loopBody struct {
	a    *analyzer
	name string
}

func (b loopBody) stmt(st *syntax.Stmt) bodyRead {
	r := bodyKeeps
	switch c := st.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		if b.a.loopBodyNode(b.name, c) {
			return bodyAssigns
		}
		for _, as := range c.Assigns {
			if as.Index != nil || as.Array != nil {
				return bodyUnread
			}
			if b.a.loopBodyNode(b.name, as) {
				return bodyAssigns
			}
			if as.Value != nil {
				r = max(r, b.word(as.Value))
			}
		}
		for _, w := range c.Args {
			r = max(r, b.word(w))
		}
	case *syntax.BinaryCmd:
		r = max(b.stmt(c.X), b.stmt(c.Y))
	default:
		if b.a.loopBodyNode(b.name, c) {
			return bodyAssigns
		}
		return bodyUnread
	}
	for _, rd := range st.Redirs {
		if rd.Hdoc != nil {
			r = max(r, b.word(rd.Hdoc))
		}
		r = max(r, b.word(rd.Word))
	}
	return r
}

// word reads w's parts; a nil w (no node) keeps.
func (b loopBody) word(w *syntax.Word) bodyRead {
	if w == nil {
		return bodyKeeps
	}
	return b.parts(w.Parts)
}

func (b loopBody) parts(parts []syntax.WordPart) bodyRead {
	r := bodyKeeps
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			r = max(r, b.parts(p.Parts))
		case *syntax.ParamExp:
			if b.a.loopBodyNode(b.name, p) {
				return bodyAssigns
			}
			if p.Flags != nil || p.NestedParam != nil || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil {
				r = bodyUnread
			}
		default:
			if b.a.loopBodyNode(b.name, p) {
				return bodyAssigns
			}
			r = bodyUnread
		}
	}
	return r
}

// track updates the assumed values after simple command c (resolved as
// seg): a statement of plain assignments assigns them; unset, read,
// mapfile/readarray and getopts forget the variables they name.
func (a *analyzer) track(c *syntax.CallExpr, seg Segment) {
	if len(seg.Args) > 0 {
		switch seg.Args[0].Value {
		case "read", "mapfile", "readarray", "getopts", "printf", "let", "unset", "wait", "source", ".", "eval",
			"declare", "typeset", "local", "export", "readonly", "select", "coproc", "exec", "trap", "builtin",
			"command", "enable", "shopt", "set":
			a.envOff = true
		}
		if strings.Contains(seg.Args[0].Value, Hole) || seg.Function {
			a.envOff = true
		}
		if evaluates(seg.Args) {
			// [[ x=1 -eq 1 ]], test -v 'a[x=1]': their arithmetic may
			// assign any variable (attack run 43).
			if _, ops := evaluatedOperands(seg.Args); len(ops) > 0 {
				a.envOff = true
			}
		}
		// builtin declare -a -l f, command typeset -u f: an attribute
		// given by a call, not a declaration (see loopValues).
		for i, w := range seg.Args {
			switch w.Value {
			case "builtin", "command", "exec", "-p", "-v", "-V", "--":
				continue
			case "declare", "typeset", "local", "export", "readonly":
				for _, o := range seg.Args[i+1:] {
					if (strings.HasPrefix(o.Value, "-") || strings.HasPrefix(o.Value, "+") || strings.Contains(o.Value, Hole)) &&
						strings.ContainsAny(o.Value, "luicn"+Hole) {
						a.declAttrs = true
					}
				}
			}
			if i > 0 {
				break
			}
		}
	}
	if len(c.Args) == 0 {
		for i, as := range c.Assigns {
			if as.Name == nil || as.Index != nil || as.Array != nil || as.Naked || i >= len(seg.Assigns) {
				continue
			}
			name := as.Name.Value
			_, value, _ := strings.Cut(seg.Assigns[i].Value, "=")
			if strings.Contains(value, Hole) && as.Value != nil && !as.Append {
				// A value static under the assumptions themselves
				// (k=$HOME/.ssh/id_rsa, as k=~/.ssh/id_rsa is): a new
				// user's cat $k read the key unasked.
				a.assume.used = map[string]string{}
				if v, err := a.assumedResolver().literal(as.Value, true); err == nil && !strings.Contains(v, Hole) {
					value = v
				}
			}
			if as.Append {
				old, ok := a.assume.vars[name]
				if !ok {
					old = Hole
				}
				value = old + value
			}
			a.assume.assign(name, value)
			if a.certainStmts[c] && !a.envOff && a.loopDepth == 0 && a.inBody == 0 && plainValue(value) {
				if a.certainVars == nil {
					a.certainVars = map[string]string{}
				}
				a.certainVars[name] = value
			}
		}
		return
	}
	if len(seg.Args) == 0 {
		return
	}
	switch seg.Args[0].Value {
	case "unset", "read", "mapfile", "readarray", "getopts", "printf":
		for _, w := range seg.Args[1:] {
			delete(a.assume.vars, w.Value)
			delete(a.certainVars, w.Value)
		}
	case "unalias":
		for _, w := range seg.Args[1:] {
			a.loadAliases()
			if w.Value == "-a" {
				clear(a.aliases)
			}
			delete(a.aliases, w.Value)
		}
	}
}

// assumedArgs resolves c's words with the assumed values. what describes
// the assumptions made, "" when no word used one (or one failed to
// resolve).
func (a *analyzer) assumedArgs(c *syntax.CallExpr, f *frame) (args []Word, offs []int, what string) {
	dollar := false
	for _, w := range c.Args {
		if strings.Contains(f.text(w), "$") {
			dollar = true
			break
		}
	}
	if !dollar {
		return nil, nil, ""
	}
	if !a.opt.general {
		// Only an expansion keep keeps can make what follows differ.
		keeps := false
		for _, w := range c.Args {
			if keeps = a.assume.mayKeep(w.Parts); keeps {
				break
			}
		}
		if !keeps {
			return nil, nil, ""
		}
	}
	ares := a.assumedResolver()
	a.assume.used = map[string]string{}
	for _, w := range c.Args {
		n := len(args)
		var err error
		if args, err = ares.fields(w, f.text(w), args, f.posix); err != nil {
			return nil, nil, ""
		}
		for range args[n:] {
			offs = append(offs, int(w.Pos().Offset()))
		}
	}
	if len(a.assume.used) == 0 {
		return nil, nil, ""
	}
	return args, offs, a.assume.describe()
}

// realCat reports that a command named cat runs the program cat: no
// function or alias of that name is known (resolver.realCat). A file
// sourced from the text is analysed without this (its analysis is cached
// by content, and the caller's functions are not in its key).
func (a *analyzer) realCat() bool {
	return !a.catDefined && !a.isFunc("cat") && !a.isAlias("cat") && a.loopDepth == 0 && a.inBody == 0
}

// realProgram reports that a command named name runs the program of that
// name, as realCat does for cat: the text defines no function (nor may
// define one at run time), none of that name is known from a sourced
// file, no alias of that name is, and the statement is in no loop or
// function body (whose calls may come after a later definition).
func (a *analyzer) realProgram(name string) bool {
	return !a.funcDefined && !a.isFunc(name) && !a.isAlias(name) && a.loopDepth == 0 && a.inBody == 0
}

// assumedResolver returns the resolver that expands words with the
// assumed values (see assumptions), made on first use.
func (a *analyzer) assumedResolver() *resolver {
	if a.ares == nil {
		a.ares = newResolver(a.opt.Home, &a.budget, a.opt.general)
		a.ares.cfg.Env = a.assume
		a.ares.keep = a.assume.keep
		a.ares.realCat = a.realCat
	}
	return a.ares
}

func sameValues(x, y []Word) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Value != y[i].Value {
			return false
		}
	}
	return true
}

// decl handles export/declare/typeset/local/readonly/nameref: Args are the
// name and the operands that are not assignments (flags, bare names, and
// words only known at run time), Assigns the NAME=value operands, including
// quoted ones like "A=$x" that bash turns into assignments at run time.
func (a *analyzer) decl(c *syntax.DeclClause, s *syntax.Stmt, f *frame) {
	if declAttrs(c) {
		a.declAttrs = true // see loopValues
	}
	a.envOff = true // it may assign any variable (see envValue)
	for _, as := range c.Args {
		a.nestedAssign(as, f)
	}
	runs := a.redirs(s.Redirs, f)
	if a.err != nil {
		return
	}
	seg := Segment{Kind: Exec, Via: f.via, RunsCode: runs, Declared: declaredMark}
	operand := func(assign bool) {
		if n := len(seg.Assigns) + len(seg.Args) - 2; assign && n < 63 {
			seg.Declared |= 1 << n // (counted once appended)
		}
	}
	seg.Line, seg.Col = f.at(c.Pos())
	seg.Args = []Word{{Value: c.Variant.Value, Source: f.text(c.Variant)}}
	for _, as := range c.Args {
		seg.RunsCode = seg.RunsCode || f.runsCode(as)
		switch {
		case as.Naked && as.Name == nil && as.Value != nil:
			var ws []Word
			ws = a.fields(as.Value, f, ws)
			for _, w := range ws {
				if assignPrefixLen(w.Value) > 0 {
					seg.Assigns = append(seg.Assigns, w)
					operand(true)
				} else {
					seg.Args = append(seg.Args, w)
				}
			}
		case as.Naked && as.Name != nil:
			v := as.Name.Value
			if as.Index != nil {
				v += "[" + a.arithWord(as.Index, f).Value + "]"
			}
			seg.Args = append(seg.Args, Word{Value: v, Source: f.text(as)})
		default:
			seg.Assigns = append(seg.Assigns, a.assignWord(as, f))
			operand(true)
		}
	}
	if a.err != nil {
		return
	}
	if why := subscriptCode(append(slices.Clip(seg.Args), seg.Assigns...)); why != "" {
		a.fail(f, c.Pos(), why)
		return
	}
	a.emit(seg, f)
	for _, as := range seg.Assigns {
		// export/declare/local NAME=value: assumed from here on, unless
		// options (-i, -a, -n …) give the value another meaning.
		name, value, _ := strings.Cut(as.Value, "=")
		if len(seg.Args) == 1 && isName(name) {
			a.assume.assign(name, value)
		} else {
			delete(a.assume.vars, strings.TrimSuffix(name, "+"))
		}
	}
}

// redirs emits the Write and Read segments of a statement's redirections,
// after the commands nested in each target. It reports whether a
// here-document body or here-string may run code only known at run time
// (see Segment.RunsCode): the statement's own segment carries that.
//
// A target that names a file of the shell's own process (see selfPath) is
// a whole Hole: the analysis, run in another process, cannot resolve it.
// An input redirection from a file onto fd 1 or 2 is a write of that file
// too (/dev/stdout and /dev/stderr, exempt as targets, reopen whatever file
// is on fd 1 and 2, for writing), and so a duplication onto fd 1 or 2 of
// any other descriptor (which may be a file opened for reading, here or
// by an earlier command) is a write of a Hole.
func (a *analyzer) redirs(rs []*syntax.Redirect, f *frame) (runs bool) {
	for _, r := range rs {
		if a.err != nil {
			return runs
		}
		if r.N != nil && (r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc) && a.scriptFdIn(r.N.Value) {
			// 255<<EOF: bash would read the rest of its script from
			// the here-document, which the analysis read as data.
			a.fail(f, r.OpPos, "redirection of descriptor "+r.N.Value+", where bash may read its script from (see scriptFd): bash would go on reading it from elsewhere")
			return runs
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			// The delimiter is never expanded; a quoted delimiter
			// leaves the body a plain literal.
			a.nestedWord(r.Hdoc, f)
			runs = runs || (r.Hdoc != nil && !hdocQuoted(r) && f.runsCode(r.Hdoc))
			continue
		case syntax.WordHdoc:
			a.nestedWord(r.Word, f)
			runs = runs || f.runsCode(r.Word)
			continue
		}
		if r.N != nil && len(r.N.Value) > 2 && r.N.Value[0] == '{' && r.N.Value[len(r.N.Value)-1] == '}' {
			a.namedFd(r.N, f)
		}
		a.nestedWord(r.Word, f)
		if len(r.Word.Parts) == 1 && (r.Op == syntax.RdrIn || r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob) {
			if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && (ps.Op == syntax.CmdIn) == (r.Op == syntax.RdrIn) {
				// `< <(cmd)`, `> >(cmd)`: a pipe to the commands just
				// walked (bash names it /dev/fd/N), no file.
				continue
			}
		}
		var write, read, dup bool
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob,
			syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
			write = true
		case syntax.RdrIn:
			read = true
		case syntax.RdrInOut:
			write, read = true, true
		case syntax.DplOut:
			// N>&M and >&- duplicate or close; >&word is &>word.
			write, dup = true, true
		case syntax.DplIn:
			dup = true // <&N, <&-: duplication; <&word is an error
		default:
			a.fail(f, r.OpPos, "unsupported redirection "+r.Op.String())
			return runs
		}
		var targets []Word
		targets = a.fields(r.Word, f, targets)
		line, col := f.at(r.OpPos)
		fd := redirFd(r)
		if r.N != nil && !write && a.scriptFdIn(r.N.Value) || r.N != nil && dup && a.scriptFdIn(r.N.Value) {
			// (A file opened for writing there only ends bash's reading.)
			a.fail(f, r.OpPos, "redirection of descriptor "+r.N.Value+", where bash may read its script from (see scriptFd): bash would go on reading it from elsewhere")
			return runs
		}
		for _, t := range targets {
			if dup && (a.scriptFdIn(strings.TrimSuffix(t.Value, "-")) || strings.Contains(t.Value, Hole)) {
				a.fail(f, r.OpPos, "duplication of a descriptor bash may read its script from (see scriptFd), or of one only known at run time: reading it takes text from under bash, which then runs what the analysis read as data")
				return runs
			}
		}
		targetRuns := f.runsCode(r.Word)
		for _, t := range targets {
			if dup && (isFdTarget(t.Value) || r.Op == syntax.DplIn) {
				if m := strings.TrimSuffix(t.Value, "-"); (fd == 1 || fd == 2) && m != "" && m != "1" && m != "2" {
					a.emit(Segment{Kind: Write, Args: append(a.wordSlots(1), Word{Value: Hole, Source: t.Source}), Line: line, Col: col, Via: f.via, RunsCode: targetRuns}, f)
				}
				continue
			}
			if selfPath(t.Value) && !devTarget(t.Value, write) && (write || !otherDescriptor(t.Value)) {
				t.Value = selfTarget(t.Value, write)
			}
			if (write || (read && (fd == 1 || fd == 2))) && !devTarget(t.Value, true) {
				a.emitTarget(Segment{Kind: Write, Args: append(a.wordSlots(1), t), Line: line, Col: col, Via: f.via, RunsCode: targetRuns}, r.Word, len(targets), f)
			}
			if read && !devTarget(t.Value, false) {
				a.emitTarget(Segment{Kind: Read, Args: append(a.wordSlots(1), t), Line: line, Col: col, Via: f.via, RunsCode: targetRuns}, r.Word, len(targets), f)
			}
		}
	}
	return runs
}

// namedFd handles a redirection's {NAME}, which assigns NAME the number
// of the descriptor bash opens (attack run 43: `: {IFS}>/dev/null` set
// IFS to 10, `: {PATH}>/dev/null` PATH): a segment of that assignment, its
// value only known at run time, as for ${NAME:=…}.
func (a *analyzer) namedFd(n *syntax.Lit, f *frame) {
	name := n.Value[1 : len(n.Value)-1]
	delete(a.assume.vars, name)
	delete(a.certainVars, name)
	if a.envAssigned == nil {
		a.envAssigned = map[string]bool{}
	}
	a.envAssigned[name] = true
	as := Word{Value: name + "=" + Hole, Source: n.Value}
	a.emit(f.place(n.Pos(), Segment{Kind: Exec, Assigns: []Word{as}, Via: f.via}), f)
}

// emitTarget emits seg, a redirection's Write or Read segment whose target
// is word w (expanding to n fields), and, when the target's run-time parts
// are all a bounded loop variable's (see Segment.Bounded), marks it so and
// emits it once more per value of the variable with the value in their
// place, Certain, as a command's words are (`for f in a.txt b.txt; do
// wc -l < "$f"; done` asked, where `wc -l "$f"` ran: a new user's find).
// A value with a blank, or a word that needs expand for more than the
// variable, gets no such segments and is decided as any text.
func (a *analyzer) emitTarget(seg Segment, w *syntax.Word, n int, f *frame) {
	var names []string
	if a.assuming == "" && n == 1 && len(a.loopVals) > 0 {
		names = a.boundedParts(w.Parts, nil)
	}
	var uses []int
	ok := len(names) == 1
	if ok {
		uses, ok = loopUses(nil, seg.Args, names[0])
	}
	lv := a.loopVals[names0(names)]
	for _, v := range lv.vals {
		// (`< "$f"` of a glob's value: one name of the glob's shape,
		// which loopArgs gives the glob's source; the guard decides it
		// as `cat GLOB`, links beside it included.)
		ok = ok && !strings.ContainsAny(v, " \t\n") &&
			(!strings.Contains(v, Hole) || seg.Kind == Read && quotedRef(seg.Args[0].Source, names0(names)))
	}
	if !ok {
		a.emit(seg, f)
		return
	}
	seg.Bounded = lv.bounded
	a.emit(seg, f)
	for i, v := range lv.vals {
		one := seg
		one.Args, one.Certain, one.Bounded = a.loopArgs(seg.Args, uses, names0(names), v), true, nil
		a.assuming = lv.assumedAt(i)
		a.emit(one, f)
		a.assuming = ""
	}
}

// names0 is names[0], or "" for none.
func names0(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// redirFd returns the file descriptor a redirection sets: its number, or
// the default of its operator (0 for input, 1 for output); -1 for a
// {varname} one (bash picks a descriptor of 10 or more) or a number out of
// range.
func redirFd(r *syntax.Redirect) int {
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		if err != nil || n < 0 {
			return -1
		}
		return n
	}
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return 0
	}
	return 1
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// isFdTarget reports a >& target that duplicates or closes a file
// descriptor: "N", "N-" or "-".
func isFdTarget(v string) bool {
	v = strings.TrimSuffix(v, "-")
	for i := 0; i < len(v); i++ {
		if !isDigit(v[i]) {
			return false
		}
	}
	return true
}

// devTarget reports a target that is not a file a policy cares about:
// /dev/null, the terminal, the standard streams as the shell has them
// (/dev/stdin and /dev/fd/0 to read; /dev/stdout, /dev/stderr, /dev/fd/1
// and /dev/fd/2 to write). Other /dev/fd/N name whatever file the shell
// opened there, and are Holes (see selfPath); writing /dev/stdin would
// reopen, for writing, a file the shell may have opened to read.
func devTarget(v string, write bool) bool {
	switch v {
	case "/dev/null", "/dev/tty":
		return true
	case "/dev/stdin", "/dev/fd/0":
		return !write
	case "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/dev/fd/2":
		return write
	}
	return false
}

// procHole is the value of a target selfPath reports: a file of some
// process only known at run time, under /proc (where /dev/fd and the
// others lead), so that a policy can still see where it is: a pipe's
// descriptor opened there for writing adds to what that process reads,
// such as a shell's script.
const procHole = "/proc/" + Hole

// selfTarget is what a redirection target selfPath reports names for the
// shell: below /proc/PID/root, the same path from /; below the shell's
// own /proc/self/cwd, the same path relative to its working directory;
// below a descriptor (/dev/fd/N/…, /proc/self/fd/N/…) or another
// process's working directory, a path in a directory only known at run
// time; a process's file (/proc/PID/environ) as written; a descriptor
// itself, procHole (attack run 51: `cat < /proc/self/root/home/u/.ssh/
// id_rsa` read the key in mode auto, decided as procHole); anything else
// (a "..", a run-time part, another spelling) any path at all.
func selfTarget(v string, write bool) string {
	// unknown is a path in a directory only known at run time below
	// rest: to read, any path; to write, procHole still, a protected
	// path (a process's descriptors: a shell's script pipe).
	unknown := func(rest string) string {
		if write {
			return procHole
		}
		if rest == "" {
			return Hole
		}
		return Hole + "/" + rest
	}
	if strings.Contains(v, "..") || strings.Contains(v, Hole) {
		// `/proc/self/cwd/../x`, `/proc/$$/root/x` (attack run 52 read
		// the key in mode auto through procHole).
		return unknown("")
	}
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '/' })
	switch {
	case len(parts) >= 2 && parts[0] == "dev" && parts[1] == "fd":
		if len(parts) > 3 {
			return unknown(strings.Join(parts[3:], "/"))
		}
		return procHole
	case len(parts) >= 2 && parts[0] == "dev":
		if len(parts) > 2 {
			return unknown(strings.Join(parts[2:], "/")) // below /dev/stdin …
		}
		return procHole
	case len(parts) >= 3 && parts[0] == "proc" && (parts[1] == "self" || parts[1] == "thread-self" || allDigits(parts[1])):
		self := !allDigits(parts[1])
		rest := strings.Join(parts[3:], "/")
		switch parts[2] {
		case "root":
			return "/" + rest
		case "cwd":
			if rest == "" {
				return procHole
			}
			if self {
				return rest
			}
			return unknown(rest)
		case "fd", "task", "map_files":
			if len(parts) > 4 {
				return unknown(strings.Join(parts[4:], "/"))
			}
			return procHole
		}
		if write {
			return procHole
		}
		return "/" + strings.Join(parts, "/")
	case len(parts) >= 2 && parts[0] == "proc" && (parts[1] == "net" || parts[1] == "mounts"):
		return procHole // the shell's network and mount tables
	}
	return unknown("") // `/proc/./self/…` and other spellings
}

// otherDescriptor reports a path /proc/PID/fd/N (or …/task/TID/fd/N) of a
// process other than the one resolving it, PID a number or only known at
// run time: read there, it is that process's pipe or terminal, which the
// policy's read rules name as written.
func otherDescriptor(v string) bool {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '/' })
	if len(parts) < 3 || parts[0] != "proc" || !(allDigits(parts[1]) || strings.Contains(parts[1], Hole)) {
		return false
	}
	rest := parts[2:]
	if rest[0] == "task" && len(rest) > 2 {
		rest = rest[2:]
	}
	return rest[0] == "fd" && !slices.Contains(parts, "..") && !slices.Contains(parts, ".")
}

// selfLinks are the paths that lead into the /proc directory of the
// process resolving them.
var selfLinks = map[string]bool{
	"/dev/fd": true, "/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true,
	"/proc/self": true, "/proc/thread-self": true, "/proc/net": true, "/proc/mounts": true,
}

// selfPath reports an absolute path that names a file of the process
// resolving it: under /proc/self, /proc/thread-self, /proc/PID (or a PID
// only known at run time), /dev/fd, /dev/stdin, /dev/stdout, /dev/stderr
// (or /proc/net and /proc/mounts, links into /proc/self), also when a "."
// or ".." leads there (/dev/fd/../cwd is /proc/self/cwd). Such a path means
// one thing to bash and another to this process (/proc/self/cwd is bash's
// working directory), so as a redirection target it is a Hole.
func selfPath(v string) bool {
	if !strings.HasPrefix(v, "/") {
		return false
	}
	var stack []string
	for c := range strings.SplitSeq(v, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		stack = append(stack, c)
		if len(stack) == 2 {
			if selfLinks["/"+stack[0]+"/"+c] {
				return true
			}
			if stack[0] == "proc" && (strings.Contains(c, Hole) || allDigits(c)) {
				return true
			}
		}
	}
	return false
}

// fields resolves a command word into Words (see resolver.fields).
func (a *analyzer) fields(w *syntax.Word, f *frame, out []Word) []Word {
	if a.err != nil || w == nil {
		return out
	}
	out, err := a.res.fields(w, f.text(w), out, f.posix)
	if err != nil {
		a.failErr(f, w.Pos(), err)
	}
	return out
}

func (a *analyzer) literal(w *syntax.Word, f *frame, assign bool) string {
	if a.err != nil || w == nil {
		return ""
	}
	v, err := a.res.literal(w, assign)
	if err != nil {
		a.failErr(f, w.Pos(), err)
	}
	return v
}

// assignWord renders an assignment as a Word: Value is NAME=value (or
// NAME+=value, NAME[index]=value, NAME=(elem …)) after quote removal, with
// Holes for run-time parts; an index is shown as written, run-time parts
// as Holes.
func (a *analyzer) assignWord(as *syntax.Assign, f *frame) Word {
	var b strings.Builder
	if as.Name != nil {
		b.WriteString(as.Name.Value)
	}
	if as.Index != nil {
		b.WriteString("[" + a.arithWord(as.Index, f).Value + "]")
	}
	if as.Append {
		b.WriteString("+=")
	} else if !as.Naked {
		b.WriteString("=")
	}
	if as.Value != nil {
		b.WriteString(a.literal(as.Value, f, true))
	}
	if as.Array != nil {
		b.WriteString("(")
		for i, el := range as.Array.Elems {
			if i > 0 {
				b.WriteString(" ")
			}
			if el.Index != nil {
				b.WriteString("[" + a.arithWord(el.Index, f).Value + "]=")
				b.WriteString(a.literal(el.Value, f, true))
				continue
			}
			var ws []Word
			ws = a.fields(el.Value, f, ws)
			for j, w := range ws {
				if j > 0 {
					b.WriteString(" ")
				}
				b.WriteString(w.Value)
			}
		}
		b.WriteString(")")
	}
	return Word{Value: b.String(), Source: f.text(as)}
}

// arithWord renders an arithmetic expression as one Word: a lone word after
// quote removal, anything else as written, with every run-time part
// ($x, $(…), $((…))) a Hole.
func (a *analyzer) arithWord(x syntax.ArithmExpr, f *frame) Word {
	if x == nil {
		return Word{}
	}
	src := f.text(x)
	if f.runsCode(x) {
		return Word{Value: Hole, Source: src}
	}
	if w, ok := x.(*syntax.Word); ok {
		return Word{Value: a.literal(w, f, false), Source: src}
	}
	base := int(x.Pos().Offset())
	var b strings.Builder
	last := 0
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			s, e := int(n.Pos().Offset())-base, int(n.End().Offset())-base
			if s >= last && e <= len(src) && s <= e {
				b.WriteString(src[last:s])
				b.WriteString(Hole)
				last = e
			}
			return false
		}
		return true
	})
	b.WriteString(src[last:])
	return Word{Value: b.String(), Source: src}
}

// testArgs flattens a [[ ]] expression into words: operands after quote
// removal, operators and parentheses as literal words.
func (a *analyzer) testArgs(x syntax.TestExpr, f *frame, out []Word) []Word {
	if a.err != nil {
		return out
	}
	switch x := x.(type) {
	case *syntax.BinaryTest:
		out = a.testArgs(x.X, f, out)
		op := x.Op.String()
		out = append(out, Word{Value: op, Source: op})
		return a.testArgs(x.Y, f, out)
	case *syntax.UnaryTest:
		op := x.Op.String()
		out = append(out, Word{Value: op, Source: op})
		return a.testArgs(x.X, f, out)
	case *syntax.ParenTest:
		out = append(out, Word{Value: "(", Source: "("})
		out = a.testArgs(x.X, f, out)
		return append(out, Word{Value: ")", Source: ")"})
	case *syntax.Word:
		w := Word{Value: a.literal(x, f, false), Source: f.text(x)}
		if err := a.budget.spend(1, 0); err != nil {
			a.failErr(f, x.Pos(), err)
		}
		return append(out, w)
	}
	return out
}

// arithmAssigned returns the names of the variables that arithmetic
// expansions in c's words assign (=, op=, ++, --), an array's name without
// its subscript; a target only known at run time is returned as Hole.
func (a *analyzer) arithmAssigned(c *syntax.CallExpr, f *frame) []string {
	if !a.opt.general && !mayAssignArith(f.src, c) {
		return nil
	}
	nodes := make([]syntax.Node, 0, len(c.Assigns)+len(c.Args))
	for _, as := range c.Assigns {
		nodes = append(nodes, as)
	}
	for _, w := range c.Args {
		nodes = append(nodes, w)
	}
	return arithAssignedIn(nodes...)
}

// arithAssignedIn returns the names of the variables the arithmetic in
// nodes assigns (=, op=, ++, --), an array's name without its subscript,
// Hole for a target only known at run time: `(( PATH=0 ))`, `let
// PATH=0` and `for ((PATH=0;;))` set PATH as PATH=0 does (attack run 53
// ran a workspace's 0/ls unjailed so).
func arithAssignedIn(nodes ...syntax.Node) []string {
	var names []string
	add := func(x syntax.ArithmExpr) {
		w, ok := x.(*syntax.Word)
		if !ok {
			names = append(names, Hole)
			return
		}
		lit := w.Lit()
		if pe, ok := w.Parts[0].(*syntax.ParamExp); lit == "" && len(w.Parts) == 1 && ok && pe.Param != nil {
			lit = pe.Param.Value // NAME[subscript]
		}
		if lit == "" {
			names = append(names, Hole)
			return
		}
		name, _, _ := strings.Cut(lit, "[")
		names = append(names, name)
	}
	visit := func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryArithm:
			switch x.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
				syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				add(x.X)
			}
		case *syntax.UnaryArithm:
			if x.Op == syntax.Inc || x.Op == syntax.Dec {
				add(x.X)
			}
		}
		return true
	}
	for _, n := range nodes {
		if n != nil {
			syntax.Walk(n, visit)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// letAssigns is arithAssigns for let's expressions, whose quoted ones
// ('PATH=0') bash parses as arithmetic from their text: such a text's
// leading name is assigned (any name, Hole, when it has none).
func letAssigns(exprs []syntax.ArithmExpr) []Word {
	var nodes []syntax.Node
	var out []Word
	for _, x := range exprs {
		if w, ok := x.(*syntax.Word); ok && len(w.Parts) > 0 {
			if v, static := simpleValue(w.Parts, false); static && assignsIn(v) {
				i := 0
				for i < len(v) && isNameByte(v[i]) {
					i++
				}
				name := Hole
				if i > 0 && !isDigit(v[0]) {
					name = v[:i]
				}
				out = append(out, arithAssign(name))
				continue
			}
		}
		nodes = append(nodes, x)
	}
	return append(out, arithAssigns(nodes...)...)
}

// arithAssigns returns the assignment words of what arithmetic x assigns
// (see arithAssignedIn), for a segment's Assigns.
func arithAssigns(nodes ...syntax.Node) []Word {
	var out []Word
	for _, v := range arithAssignedIn(nodes...) {
		out = append(out, arithAssign(v))
	}
	return out
}

// arithAssign is the assignment word of variable name by arithmetic: its
// value, an integer, is only known at run time (its source says how it
// is made, which the arithmetic check reads as an integer).
func arithAssign(name string) Word {
	return Word{Value: name + "=" + Hole, Source: name + "=$((…))"}
}

// mayAssignArith reports whether the text of c (in src, the text parsed)
// may hold an arithmetic assignment, the cheap test before the walk of
// arithmAssigned: an assignment operator needs "=" (=, +=, <<= …), an
// increment "++" or "--", and arithmetic a place to be: "((" (an
// arithmetic expansion, command or for loop in a command substitution),
// "[" ($[…], subscripts), "${" (subscripts and offsets of a parameter
// expansion) or a let in a command substitution. A text with a line
// continuation is always walked: the parser removes one inside a word,
// so "l", backslash-newline, "et" is let.
func mayAssignArith(src string, c *syntax.CallExpr) bool {
	s, e := int(c.Pos().Offset()), int(c.End().Offset())
	if s < 0 || e > len(src) || s > e {
		return true
	}
	t := src[s:e]
	if strings.Contains(t, "\\\n") {
		return true
	}
	if strings.IndexByte(t, '=') < 0 && !strings.Contains(t, "++") && !strings.Contains(t, "--") {
		return false
	}
	return strings.Contains(t, "((") || strings.IndexByte(t, '[') >= 0 || strings.Contains(t, "${") || strings.Contains(t, "let")
}

// declAttrs reports whether declaration c (declare, typeset, local,
// export, readonly) may give a variable an attribute that changes the
// values assigned to it later: -l, -u, -c (case), -i (arithmetic), -n (a
// reference to another variable), or an option only known at run time.
func declAttrs(c *syntax.DeclClause) bool {
	for _, as := range c.Args {
		if as.Name != nil || as.Value == nil {
			continue
		}
		v, ok := simpleValue(as.Value.Parts, false)
		if !ok {
			return true
		}
		if (strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+")) && strings.ContainsAny(v[1:], "luicn") {
			return true
		}
	}
	return false
}

// printfAssigns reports whether printf with args may assign a variable
// (-v NAME, or an option only known at run time).
func printfAssigns(args []*syntax.Word) bool {
	for _, w := range args[1:] {
		if c, ok := firstChar(w); ok && c != '-' {
			return false // the format: no option after it
		}
		v, static := simpleValue(w.Parts, false)
		if !static || strings.HasPrefix(v, "-v") {
			return true
		}
		if v == "--" {
			return false
		}
	}
	return false
}

// firstChar returns the first byte of w's value when its text starts with
// a literal one (plain or inside quotes).
func firstChar(w *syntax.Word) (byte, bool) {
	if len(w.Parts) == 0 {
		return 0, false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		if p.Value != "" && p.Value[0] != '\\' && p.Value[0] != '~' {
			return p.Value[0], true
		}
	case *syntax.SglQuoted:
		if !p.Dollar && p.Value != "" {
			return p.Value[0], true
		}
	case *syntax.DblQuoted:
		if len(p.Parts) > 0 {
			if l, ok := p.Parts[0].(*syntax.Lit); ok && l.Value != "" && l.Value[0] != '\\' {
				return l.Value[0], true
			}
		}
	}
	return 0, false
}
