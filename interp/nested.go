package interp

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// nestedWord walks the code nested in a word: command and process
// substitutions, and the operands of parameter expansions and arithmetic,
// which can hold further substitutions.
func (a *analyzer) nestedWord(w *syntax.Word, f *frame) {
	if w == nil || a.err != nil {
		return
	}
	a.nestedParts(w.Parts, f)
}

func (a *analyzer) nestedParts(parts []syntax.WordPart, f *frame) {
	for _, p := range parts {
		if a.err != nil {
			return
		}
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
		case *syntax.DblQuoted:
			a.nestedParts(p.Parts, f)
		case *syntax.CmdSubst:
			via := "$(…)"
			if p.Backquotes {
				via = "`…`"
			}
			a.stmts(p.Stmts, f.child(via))
		case *syntax.ProcSubst:
			a.stmts(p.Stmts, f.child(p.Op.String()+"…)"))
		case *syntax.ArithmExp:
			a.nestedArith(p.X, f)
		case *syntax.ParamExp:
			a.nameRefs(p)
			if p.NestedParam != nil {
				a.nestedParts([]syntax.WordPart{p.NestedParam}, f)
			}
			a.nestedArith(p.Index, f)
			if p.Slice != nil {
				a.nestedArith(p.Slice.Offset, f)
				a.nestedArith(p.Slice.Length, f)
			}
			if p.Repl != nil {
				a.nestedWord(p.Repl.Orig, f)
				a.nestedWord(p.Repl.With, f)
			}
			if p.Exp != nil {
				a.nestedWord(p.Exp.Word, f)
				if (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) && p.Param != nil && a.err == nil {
					// ${NAME:=value} assigns NAME (when unset or empty):
					// a segment of that assignment, as for a for loop's
					// variable, its value taken as only known at run time.
					delete(a.assume.vars, p.Param.Value)
					delete(a.certainVars, p.Param.Value)
					as := Word{Value: p.Param.Value + "=" + Hole, Source: p.Param.Value}
					a.emit(f.place(p.Pos(), Segment{Kind: Exec, Assigns: []Word{as}, Via: f.via}), f)
				}
			}
		case *syntax.BraceExp:
			for _, e := range p.Elems {
				a.nestedWord(e, f)
			}
		default:
			a.fail(f, p.Pos(), fmt.Sprintf("unsupported word part %T", p))
		}
	}
}

func (a *analyzer) nestedArith(x syntax.ArithmExpr, f *frame) {
	if x == nil || a.err != nil {
		return
	}
	a.envOff = true // arithmetic may assign any variable (see envValue)
	switch x := x.(type) {
	case *syntax.Word:
		a.arithRefs(x)
		a.nestedWord(x, f)
	case *syntax.BinaryArithm:
		a.nestedArith(x.X, f)
		a.nestedArith(x.Y, f)
	case *syntax.UnaryArithm:
		a.nestedArith(x.X, f)
	case *syntax.ParenArithm:
		a.nestedArith(x.X, f)
	case *syntax.FlagsArithm:
		a.nestedArith(x.X, f)
	default:
		a.fail(f, x.Pos(), fmt.Sprintf("unsupported arithmetic %T", x))
	}
}

func (a *analyzer) nestedTest(x syntax.TestExpr, f *frame) {
	if x == nil || a.err != nil {
		return
	}
	switch x := x.(type) {
	case *syntax.Word:
		a.nestedWord(x, f)
	case *syntax.BinaryTest:
		a.nestedTest(x.X, f)
		a.nestedTest(x.Y, f)
	case *syntax.UnaryTest:
		a.nestedTest(x.X, f)
	case *syntax.ParenTest:
		a.nestedTest(x.X, f)
	default:
		a.fail(f, x.Pos(), fmt.Sprintf("unsupported test %T", x))
	}
}

func (a *analyzer) nestedAssign(as *syntax.Assign, f *frame) {
	a.nestedArith(as.Index, f)
	a.nestedWord(as.Value, f)
	if as.Array != nil {
		for _, el := range as.Array.Elems {
			a.nestedArith(el.Index, f)
			a.nestedWord(el.Value, f)
		}
	}
}

// shells are the programs whose -c operand (or standard input) is shell
// code. The code of sh, dash and ash (posixShells) is parsed as POSIX sh:
// /bin/sh is dash on the systems guardsh targets, and dash reads, for
// instance, "((cmd))" as two subshells where bash reads arithmetic. The
// others are parsed as bash, which for zsh, ksh and mksh is an
// approximation: enough for deny rules to see into them, not for their
// code to be allowed (see internal/guard's transparent).
var shells = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true,
	"mksh": true, "ash": true, "rbash": true, "guardsh": true,
}

var posixShells = map[string]bool{"sh": true, "dash": true, "ash": true}

// maxUnwrap bounds how many wrappers are peeled off one command.
const maxUnwrap = 16

// payloads analyses what a simple command runs in turn: the text of eval,
// the -c string (or here-document) of a shell, a trap action, and the
// command a wrapper (sudo, env, xargs, find -exec, …) runs. A payload only
// known at run time is not analysed: the segment that carries it has a Hole
// and RunsCode set. offs holds the byte offset in f.src of the word each of
// seg.Args came from.
// reservedWords are bash's reserved words (bash(1) RESERVED WORDS). bash
// looks a command-position word up as an alias before it sees a reserved
// word, so `alias {=…` or `alias if=…` changes what a later compound
// command means.
var reservedWords = map[string]bool{
	"!": true, "case": true, "coproc": true, "do": true, "done": true, "elif": true, "else": true,
	"esac": true, "fi": true, "for": true, "function": true, "if": true, "in": true, "select": true,
	"then": true, "until": true, "while": true, "{": true, "}": true, "time": true, "[[": true, "]]": true,
}

func (a *analyzer) payloads(seg Segment, offs []int, s *syntax.Stmt, f *frame, unwrapped int) {
	if a.err != nil || len(seg.Args) == 0 {
		return
	}
	args := seg.Args
	name := args[0].Value
	if strings.Contains(name, Hole) {
		return
	}
	// The variables git takes code from (gitEnvCode, GIT_CONFIG_*), set
	// in front of a command that runs others (sh -c, eval, a function,
	// a wrapper), are in the environment of the git it runs (attack run
	// 83: `GIT_EXTERNAL_DIFF='rm -rf ~' sh -c 'git diff'`).
	if len(seg.Assigns) > 0 && path.Base(name) != "git" {
		defer a.withGitEnv(seg.Assigns)()
	}
	// seg was emitted just before: mark it when its code is analysed, or
	// when it runs code only known at run time.
	idx := len(a.segs) - 1
	markNested := func() {
		if a.err == nil && idx >= 0 {
			a.segs[idx].Nested = true
		}
	}
	markRunsCode := func(unknown bool) {
		if unknown && a.err == nil && idx >= 0 {
			a.segs[idx].RunsCode = true
		}
	}
	base := path.Base(name)
	switch {
	case name == "eval":
		if rest, roffs := evalArgs(args, offs); len(rest) > 0 {
			text := joinValues(rest)
			if strings.Contains(text, Hole) {
				markRunsCode(true)
			} else {
				a.nested(text, "eval", roffs[0], f, false, f.posix)
				markNested()
			}
		}
		return
	case name == "trap":
		a.trapMay = true
		unknown := a.trap(args[1:], offs[1:], f)
		markRunsCode(unknown || a.opt.Session && trapSets(args[1:]))
		return
	case name == "hash" || name == "enable":
		// hash -p FILE NAME makes a later NAME run FILE; enable -f FILE
		// loads FILE into bash: code no segment shows.
		opt := byte('p')
		if name == "enable" {
			opt = 'f'
			for _, w := range args[1:] {
				if w.Value == "builtin" || strings.Contains(w.Value, Hole) && hasShortOption(args[1:], 'n') {
					// Without the builtin `builtin` (or with a name only
					// known at run time turned off), a program of that name
					// on PATH runs in its place.
					a.fail(f, s.Pos(), "enable of builtin (or of a name only known at run time) changes the way past functions to bash's builtins")
					return
				}
			}
		}
		markRunsCode(hasShortOption(args[1:], opt))
		return
	case name == "fc":
		// fc without -l re-runs commands from the history list (-s, with
		// substitutions) or what an editor leaves: code no segment shows,
		// once `set -o history` and `history -s TEXT` have filled the list.
		markRunsCode(!hasShortOption(args[1:], 'l'))
		return
	case (name == "read" || name == "mapfile" || name == "readarray") && a.stdinScript > 0 && !readsOwnInput(s):
		a.fail(f, s.Pos(), name+" in a shell that reads its script from standard input, with no input of its own: it would take the script's next text, which the shell then skips, and run as code what the analysis read as data")
		return
	case (name == "read" || name == "mapfile" || name == "readarray") && a.readsScriptFd(args):
		a.fail(f, s.Pos(), name+" -u with a descriptor bash may read its script from (see scriptFd), or one only known at run time: it would take text from under bash, which then runs what the analysis read as data")
		return
	case name == "mapfile" || name == "readarray":
		// mapfile -C CODE runs CODE for each chunk of lines read.
		if code, at, ok := mapfileCallback(args); ok {
			if strings.Contains(code, Hole) {
				markRunsCode(true)
			} else {
				a.nested(code, name+" -C", offs[at], f, false, f.posix)
			}
		}
		return
	case name == "alias":
		// An alias value is code that runs where the alias is used
		// (with expand_aliases, on by default in interactive shells):
		// it is analysed there (see alias.go). A value only known at
		// run time could be anything.
		for _, w := range args[1:] {
			if strings.Contains(w.Value, Hole) {
				markRunsCode(true)
				continue
			}
			if n := strings.IndexByte(w.Value, '='); n > 0 {
				if reservedWords[w.Value[:n]] {
					a.fail(f, s.Pos(), "alias "+w.Value[:n]+" is named like a reserved word: bash expands it where the analysis sees syntax")
					return
				}
				if a.defineAlias(w.Value[:n], w.Value[n+1:]) {
					a.fail(f, s.Pos(), "alias "+w.Value[:n]+" redefined with another value: bash expands the value in force when it reads a line (a whole line, or compound command, is read before any of it runs), which the analysis does not follow")
					return
				}
			}
		}
		return
	case shells[base]:
		if file, ok := a.startupFile(base, seg); ok {
			// bash reads BASH_ENV's file (a POSIX shell ENV's) before
			// what it is given: as `source FILE` there (attack run 78
			// wrote ~/.bashrc through `BASH_ENV=f bash -c true`).
			if strings.Contains(file, Hole) {
				markRunsCode(true)
			} else if _, _, ok := a.source("source", file, offs[0], f); ok {
				markNested()
			} else if a.err == nil {
				markRunsCode(true)
			}
		}
		a.unreadScript = ""
		analysed, unknown := a.shell(base, args, offs, s, f, posixShells[base])
		if analysed {
			markNested()
		}
		markRunsCode(unknown)
		if a.unreadScript != "" {
			a.segs[idx].Script = a.unreadScript
		}
		return
	case name == "source" || name == ".":
		at := 1
		if len(args) > 2 && args[1].Value == "--" {
			at = 2
		}
		if len(args) > at {
			file := args[at].Value
			switch {
			case strings.Contains(file, Hole):
				markRunsCode(true)
			case isStdinPath(file):
				markRunsCode(a.stdinCode(name, s, f, f.posix))
			default:
				read, key, ok := a.source(name, file, offs[at], f)
				switch {
				case ok:
					markNested()
					a.segs[idx].Read, a.segs[idx].SourceKey = read, key
				case a.err == nil:
					// Not readable now: code only known at run time,
					// unless an allow rule names the file.
					markRunsCode(true)
					a.segs[idx].Script = file
				}
			}
		}
		return
	case base == "busybox" && len(args) > 1 && shells[args[1].Value]:
		// busybox's shells are all its ash.
		_, unknown := a.shell(args[1].Value, args[1:], offs[1:], s, f, true)
		markRunsCode(unknown)
		return
	}
	if strings.Contains(name, "/") && !strings.Contains(name, Hole) {
		// A script run by its path: its #! line names the shell.
		if shell, ok := a.shebang(name); ok {
			a.fileScript++
			markRunsCode(a.script(name, name, offs[0], f, posixShells[shell]))
			a.fileScript--
		}
	}
	if unwrapped >= maxUnwrap {
		markRunsCode(true)
		return
	}
	if base == "find" {
		a.findWrites(args, seg, f)
	}
	if base == "split" || base == "csplit" {
		a.splitWrites(base, args, seg, f)
	}
	if base == "git" {
		var unknown bool
		args, offs, unknown = a.gitEnvConfig(args, offs, seg)
		markRunsCode(unknown)
	}
	r := unwrapArgs(base, args)
	if base == "xargs" && xargsSplitsOnNUL(args) && !readsOtherInput(s) {
		if dir, suffix, ok := a.listedDir(a.feeds[s]); ok {
			// Its input is the paths a lister printed below dir (see
			// listedDir): a word made of one of them starts with dir.
			for k := range r.cmds {
				for j, w := range r.cmds[k].args {
					if src, ok := strings.CutSuffix(w.Source, xargsInput); ok && strings.HasPrefix(w.Value, Hole) {
						r.cmds[k].args[j].Value = dir + w.Value + suffix
						r.cmds[k].args[j].Source = src + xargsPaths
					}
				}
			}
		}
	}
	if len(r.cmds) > 0 || len(r.code) > 0 {
		markNested()
	}
	markRunsCode(r.unknown)
	for _, c := range r.code {
		cf := f
		c.elsewhere = c.elsewhere || changesDir(base, args, []int{c.from})
		if c.elsewhere && !f.elsewhere {
			cp := *f
			cp.elsewhere = true
			cf = &cp
		}
		a.nested(c.text, c.via, offs[min(c.from, len(offs)-1)], cf, false, c.posix)
	}
	if r.stdin {
		markRunsCode(a.stdinCode(base, s, f, false))
	}
	for _, inner := range r.cmds {
		cf := f.child(inner.via)
		cf.elsewhere = cf.elsewhere || inner.via == "find -execdir" || inner.via == "find -okdir" || changesDir(base, args, inner.from)
		in := Segment{Kind: Exec, Args: inner.args, Line: seg.Line, Col: seg.Col, Via: cf.via}
		in.Assigns = append(append([]Word(nil), seg.Assigns...), inner.assigns...)
		if len(in.Assigns) == 0 {
			in.Assigns = nil
		}
		if err := a.budget.spend(len(in.Args)+len(in.Assigns), 0); err != nil {
			a.failErr(f, s.Pos(), err)
			return
		}
		ioffs := make([]int, len(inner.args))
		for k, idx := range inner.from {
			ioffs[k] = offs[min(idx, len(offs)-1)]
		}
		a.emit(in, cf)
		a.payloads(in, ioffs, s, cf, unwrapped+1)
	}
}

// evalArgs returns the operands of eval (after an optional "--") and their
// offsets.
func evalArgs(args []Word, offs []int) ([]Word, []int) {
	args, offs = args[1:], offs[1:]
	if len(args) > 0 && args[0].Value == "--" {
		args, offs = args[1:], offs[1:]
	}
	return args, offs
}

// joinValues joins the Values of ws with single spaces, as eval does.
func joinValues(ws []Word) string {
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = w.Value
	}
	return strings.Join(vals, " ")
}

// nested parses and analyses a payload: text is its static value, off the
// byte offset in f.src of the word (or redirection) that holds it; posix
// says a POSIX shell runs it.
func (a *analyzer) nested(text, via string, off int, f *frame, deferred, posix bool) {
	c := f.child(via)
	c.depth = f.depth + 1
	c.deferred = f.deferred || deferred
	c.posix = posix
	if c.line == 0 {
		c.line, c.col = f.pos(off)
	}
	c.src, c.lines = text, &lineIndex{}
	c.mayRunCode = textMayRunCode(text)
	fail := func(reason string) {
		if a.err == nil {
			a.err = &NotUnderstood{Line: c.line, Col: c.col, Reason: via + " payload: " + reason}
		}
	}
	if c.depth > a.opt.MaxDepth {
		fail(fmt.Sprintf("nested deeper than %d levels", a.opt.MaxDepth))
		return
	}
	inner := &frame{src: text}
	if nu := checkText(text, inner, MaxTextSize); nu != nil {
		fail(nu.Error())
		return
	}
	a.budget.parsed += len(text)
	if a.budget.parsedOver() {
		fail(fmt.Sprintf("more than %d bytes of nested code", maxParsedBytes))
		return
	}
	file, parsed, blanks, err := a.parse(text, posix)
	if err != nil {
		l, col := parseErrPos(err, inner)
		fail(fmt.Sprintf("line %d col %d: %s", l, col, parseErrText(err)))
		return
	}
	c.src, c.blanks, c.written = parsed, blanks, text
	start := len(a.segs)
	if !c.deferred && !sameShell(via) {
		a.inChild++
		defer func() { a.inChild-- }()
	}
	if c.deferred {
		// A trap's action runs later, after what follows it may have
		// changed any variable: as a function's body (see envValue;
		// `trap 'cat $F' EXIT; F=~/.ssh/id_rsa` read F's start value).
		a.inBody++
		defer func() { a.inBody-- }()
	} else if via == "eval" {
		// An eval's text runs in order once it runs at all (agents'
		// wrappers: `source SNAPSHOT && eval '…'`): a plain assignment
		// first on its line there is as certain for the rest of that
		// text as at the top level, and for nothing after the eval
		// (which runs whether or not the eval did).
		saved, savedEnd, savedFirst, savedSafe := maps.Clone(a.certainVars), a.topEnd, a.topFirst, a.topSafe
		a.topFirst = true
		a.topLevel(file.Stmts, parsed)
		defer func() {
			for name, v := range a.certainVars {
				if saved[name] != v {
					delete(a.certainVars, name)
				}
			}
			a.topEnd, a.topFirst, a.topSafe = savedEnd, savedFirst, savedSafe
		}()
	}
	a.stmts(file.Stmts, c)
	if posix && a.err == nil && (strings.HasPrefix(via, "sh ") || via == "| sh") {
		a.bashReading(text, via, off, f, deferred, start)
	}
}

// sameShell reports whether the payload of via runs in the shell that
// runs the text around it: eval's text, an alias's expansion, a sourced
// function's body, mapfile's callback. Any other (a shell's -c code or its
// standard input, a script file) runs in another process.
func sameShell(via string) bool {
	return via == "eval" || strings.HasPrefix(via, "alias ") || strings.HasSuffix(via, "()") || strings.HasSuffix(via, " -C")
}

// bashReading analyses the code of sh -c (read as POSIX sh above, from
// segment start on) a second time as bash, which /bin/sh is on Fedora,
// Arch and macOS, where the two languages differ ($'…' quoting,
// "((…))"): when that reading gives other segments, they are kept too, so
// that each is decided (the stricter wins); when it gives the same ones, or
// bash cannot parse the text (then bash as sh runs nothing of it), they
// are dropped.
func (a *analyzer) bashReading(text, via string, off int, f *frame, deferred bool, start int) {
	if _, _, _, err := a.parse(text, false); err != nil {
		return
	}
	end, loops, firstCd := len(a.segs), len(a.loops), a.firstCd
	a.nested(text, via+" (read as bash)", off, f, deferred, false)
	if a.err != nil {
		// Code nested in it that bash cannot read (an eval payload) runs
		// nothing there: the POSIX reading stands.
		a.err = nil
		a.segs, a.meta, a.loops, a.firstCd = a.segs[:end], a.meta[:end], a.loops[:loops], firstCd
		return
	}
	if sameSegments(a.segs[start:end], a.segs[end:]) {
		a.segs, a.meta, a.loops, a.firstCd = a.segs[:end], a.meta[:end], a.loops[:loops], firstCd
	}
}

// sameSegments reports whether two readings found the same segments.
func sameSegments(x, y []Segment) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Kind != y[i].Kind || len(x[i].Args) != len(y[i].Args) || len(x[i].Assigns) != len(y[i].Assigns) ||
			x[i].RunsCode != y[i].RunsCode {
			return false
		}
		for j := range x[i].Args {
			if x[i].Args[j].Value != y[i].Args[j].Value {
				return false
			}
		}
		for j := range x[i].Assigns {
			if x[i].Assigns[j].Value != y[i].Assigns[j].Value {
				return false
			}
		}
	}
	return true
}

// shell finds the code a shell runs: the operand after -c (flags may come
// before and after it, clustered as in -lc or -ec, and -o/-O take an
// argument, as do --rcfile and --init-file), or, with neither -c nor a
// script operand (or with -s), a here-document or here-string on its
// standard input. It reports whether a static -c string was analysed, and
// whether the shell may run code only known at run time: a -c string, an
// option or an option argument with a Hole, or code read from a standard
// input that is not analysed (see stdinCode).
func (a *analyzer) shell(base string, args []Word, offs []int, s *syntax.Stmt, f *frame, posix bool) (analysed, unknown bool) {
	if refuse, _ := setRisk(args[1:], false); refuse != "" {
		if a.err == nil {
			line, col := f.pos(offs[0])
			a.err = &NotUnderstood{Line: line, Col: col, Reason: base + " " + refuse}
		}
		return false, true
	}
	i, sawC, sawS, sawI, rc, short := 1, false, false, false, -1, false
	for i < len(args) {
		v := args[i].Value
		if !short {
			// bash reads long options only before the first short
			// one: after it, -rcfile is -r -c -f -i -l -e (attack run
			// 48: `bash -e -rcfile -- CODE ls` ran CODE, read as the
			// rc file's name and the options it looks like).
			v = longOption(v)
		}
		if strings.Contains(v, Hole) {
			return false, true // an option only known at run time
		}
		if v == "--" || v == "-" {
			i++
			break
		}
		if v == "+" {
			// An empty option group: bash and dash skip it and read on
			// (attack run 49: `bash -c + CODE` runs CODE).
			i++
			continue
		}
		if strings.HasPrefix(v, "--") {
			if short {
				// bash refuses it (invalid option): not what it
				// reads, nor whether it runs anything, is analysed.
				return false, true
			}
			i++
			if v == "--rcfile" || v == "--init-file" {
				if i < len(args) && strings.Contains(args[i].Value, Hole) {
					return false, true
				}
				rc = i
				i++
			}
			continue
		}
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		i++
		short = true
		for _, ch := range v[1:] {
			switch ch {
			case 'c':
				sawC = true
			case 's':
				sawS = true
			case 'i':
				sawI = v[0] == '-'
			case 'o', 'O':
				// An option argument only known at run time may be
				// several words, or none, and move the -c string.
				if i < len(args) && strings.Contains(args[i].Value, Hole) {
					return false, true
				}
				i++
			}
		}
	}
	if sawI && !sawC && historyExpands(a, s, f) {
		// An interactive shell expands history (!!, !-1, ^a^b) in the
		// lines it reads before it parses them: a comment comes back as
		// code (attack run 37: `#$(cmd)` then `echo x!!` ran cmd).
		return false, true
	}
	if sawI && rc >= 0 && rc < len(args) {
		// An interactive shell sources its rc file before anything
		// else (bash(1) --rcfile, --init-file): code, as a script is
		// (attack run 36: `bash --rcfile /dev/stdin -i -c true <<<
		// "cat ~/.ssh/id_rsa"` under an allow rule for bash).
		rcFile := args[rc].Value
		if isStdinPath(rcFile) {
			// Its standard input, read whole as the rc file: a
			// here-document or here-string is analysed as code.
			if a.stdinCode(base+" --rcfile", s, f, posix) {
				return false, true
			}
			sawS = true // the input is the rc file's: no script is read from it
		} else {
			a.fileScript++
			unknown := a.script(rcFile, base+" --rcfile "+rcFile, offs[rc], f, posix)
			a.fileScript--
			if unknown {
				a.unreadScript = rcFile
				return false, true
			}
		}
	}
	if sawC {
		if i < len(args) && !strings.Contains(args[i].Value, Hole) {
			a.nested(args[i].Value, base+" -c", offs[i], f, false, posix)
			return true, false
		}
		return false, i < len(args)
	}
	if i < len(args) && !sawS && !isStdinPath(args[i].Value) {
		// A script file: analysed when it can be read now (see script).
		a.fileScript++
		unknown := a.script(args[i].Value, base+" "+args[i].Value, offs[i], f, posix)
		a.fileScript--
		if unknown {
			a.unreadScript = args[i].Value
			return false, true
		}
		return false, false
	}
	return false, a.stdinCode(base, s, f, posix)
}

// historyExpands reports whether the code an interactive shell reads from
// its standard input (s's here-documents and here-strings) holds what
// history expansion changes — a '!' anywhere, or a line starting with '^'
// — or names the variables that move it (histchars) or the file history is
// written to (HISTFILE), or those an interactive shell runs code from at
// its prompts (PROMPT_COMMAND, PS0, MAILPATH's messages at a mail check). Input not written in the command (a pipe, a file)
// counts too. (The real shell's environment holds neither variable: see
// ShellEnv.)
func historyExpands(a *analyzer, s *syntax.Stmt, f *frame) bool {
	written := false
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		var text string
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			text = a.hdocText(r, f)
		case syntax.WordHdoc:
			text = a.literal(r.Word, f, false)
		case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn:
			return true // a file or descriptor: not read here
		default:
			continue
		}
		written = true
		if strings.Contains(text, "!") || strings.HasPrefix(text, "^") || strings.Contains(text, "\n^") || strings.Contains(text, Hole) ||
			strings.Contains(text, "histchars") || strings.Contains(text, "HISTFILE") || strings.Contains(text, "HISTCONTROL") ||
			strings.Contains(text, "MAIL") || strings.Contains(text, "PROMPT_COMMAND") || strings.Contains(text, "PS0") {
			// (histchars makes other characters expand history, an
			// attack run's %; HISTFILE is where the shell writes its
			// history at exit: ~/.bashrc.)
			return true
		}
	}
	return !written // a pipe or an inherited input
}

// isStdinPath reports a path that names the standard input.
func isStdinPath(v string) bool {
	switch v {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// stdinCode analyses the code a shell (or source /dev/stdin) reads from its
// standard input: a here-document or here-string, or else, when it is the
// last stage of a pipe, the output of an echo or of a cat of a
// here-document. Input only known at run time (curl … | sh) is not
// analysed; stdinCode then reports true. So it does for a here-document or
// here-string with a run-time part, and for a standard input that is not
// redirected at all (inherited, or from a compound command's
// redirection); not for one redirected from a file (a Read segment shows
// that file, as a script operand would).
func (a *analyzer) stdinCode(base string, s *syntax.Stmt, f *frame, posix bool) (unknown bool) {
	redirected := false
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		var text, via string
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			text, via = a.hdocText(r, f), base+" <<"
		case syntax.WordHdoc:
			text, via = a.literal(r.Word, f, false)+"\n", base+" <<<"
		case syntax.RdrIn:
			// bash < FILE reads its code from FILE: a script file.
			redirected = true
			target := a.literal(r.Word, f, false)
			a.stdinScript++
			unknown = strings.Contains(target, Hole) || a.script(target, base+" < "+target, int(r.OpPos.Offset()), f, posix)
			a.stdinScript--
			continue
		case syntax.RdrInOut, syntax.DplIn:
			redirected, unknown = true, true // a descriptor: whatever it holds
			continue
		default:
			continue
		}
		redirected = true
		unknown = strings.Contains(text, Hole)
		if a.err != nil || unknown {
			continue
		}
		a.stdinScript++
		a.nested(text, via, int(r.OpPos.Offset()), f, false, posix)
		a.stdinScript--
	}
	if redirected {
		return unknown
	}
	if feeder := a.feeds[s]; feeder != nil {
		if text, ok := a.fedText(feeder, f); ok {
			a.stdinScript++
			a.nested(text, "| "+base, int(feeder.Pos().Offset()), f, false, posix)
			a.stdinScript--
			return false
		}
	}
	return true
}

// fedText returns what a pipe stage writes when that is known statically:
// echo with static operands and no options, or cat (with no operand or "-")
// of a here-document or here-string.
func (a *analyzer) fedText(st *syntax.Stmt, f *frame) (string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return "", false
	}
	var args []Word
	for _, w := range c.Args {
		args = a.fields(w, f, args)
	}
	if a.err != nil || len(args) == 0 {
		return "", false
	}
	if !a.realProgram(args[0].Value) {
		// A function or alias of that name prints what it likes
		// (attack run 84: echo() { printf 'curl …'; }; echo true | bash).
		return "", false
	}
	var text string
	switch args[0].Value {
	case "echo":
		if len(args) > 1 && strings.HasPrefix(args[1].Value, "-") {
			return "", false
		}
		text = joinValues(args[1:]) + "\n"
		if strings.Contains(text, `\`) {
			// With xpg_echo on (shopt, BASHOPTS, a POSIX shell's
			// echo), echo turns \n into a newline: the shell then
			// reads lines the text does not show (attack run 84:
			// echo '#\ncurl …' | bash was read as one comment).
			return "", false
		}
	case "cat":
		if len(args) > 2 || (len(args) == 2 && args[1].Value != "-") {
			return "", false
		}
		found := false
		for _, r := range st.Redirs {
			if r.N != nil && r.N.Value != "0" {
				continue
			}
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				text, found = a.hdocText(r, f), true
			case syntax.WordHdoc:
				text, found = a.literal(r.Word, f, false)+"\n", true
			}
		}
		if !found {
			return "", false
		}
	default:
		return "", false
	}
	if a.err != nil || strings.Contains(text, Hole) {
		return "", false
	}
	return text, true
}

// hdocText returns a here-document body as the command reads it.
func (a *analyzer) hdocText(r *syntax.Redirect, f *frame) string {
	if r.Hdoc == nil {
		return ""
	}
	if hdocQuoted(r) {
		var b strings.Builder
		for _, p := range r.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			}
		}
		return b.String()
	}
	v, err := a.res.document(r.Hdoc)
	if err != nil {
		a.failErr(f, r.Hdoc.Pos(), err)
	}
	return v
}

// trap analyses the action of "trap [--] ACTION SIGNAL…": it is code that
// runs later, when the signal arrives or the shell exits. It reports
// whether trap may set an action only known at run time: when an operand
// has a Hole (an unquoted one may be several words, or none, and so move
// the action), unless trap only lists or resets (-l, -p, -P, "-").
func (a *analyzer) trap(args []Word, offs []int, f *frame) (unknown bool) {
	if len(args) > 0 && args[0].Value == "--" {
		args, offs = args[1:], offs[1:]
	}
	if len(args) > 0 {
		switch args[0].Value {
		case "-", "-l", "-p", "-P", "-lp", "-pl":
			return false
		}
	}
	for _, w := range args {
		if strings.Contains(w.Value, Hole) {
			return true
		}
	}
	if len(args) < 2 || strings.HasPrefix(args[0].Value, "-") {
		return false // trap -p, trap -l, trap - SIG, trap SIG (reset)
	}
	action := args[0]
	if action.Value == "" {
		return false
	}
	a.nested(action.Value, "trap", offs[0], f, true, f.posix)
	return false
}

func isNumberOpt(v string) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	for i := 1; i < len(v); i++ {
		if !isDigit(v[i]) {
			return false
		}
	}
	return true
}

// findWrites emits a Write segment for each file find's -fprint,
// -fprint0, -fprintf and -fls actions write (find creates or truncates it
// even when nothing is found).
func (a *analyzer) findWrites(args []Word, seg Segment, f *frame) {
	for i := 1; i+1 < len(args); i++ {
		switch args[i].Value {
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			t := args[i+1]
			if selfPath(t.Value) && !devTarget(t.Value, true) {
				t.Value = procHole
			}
			if !devTarget(t.Value, true) {
				a.emit(Segment{Kind: Write, Args: append(a.wordSlots(1), t), Line: seg.Line, Via: f.via}, f)
			}
			i++
		}
	}
}

// splitWrites emits the files split and csplit write: names that start
// with their output prefix and end in what they compute (a suffix of
// letters or digits, a format's output, --additional-suffix), as a write
// of the prefix followed by a run-time part (attack run 82: `split -l 1
// -a 2 --additional-suffix=c big.txt ~/.bas` wrote ~/.bashrc as its
// 200th chunk, and `csplit -f ~/.bashr -b c%.0d` as its first). The
// grammar is GNU coreutils 9's: split [OPTION]… [FILE [PREFIX]] (prefix
// "x"), csplit [OPTION]… FILE PATTERN… with -f/--prefix (prefix "xx").
func (a *analyzer) splitWrites(base string, args []Word, seg Segment, f *frame) {
	withArg, longArg := "abClnt", []string{"--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--filter"}
	if base == "csplit" {
		withArg, longArg = "fbn", []string{"--prefix", "--suffix-format", "--digits"}
	}
	prefix := Word{Value: "x", Source: "x"}
	if base == "csplit" {
		prefix = Word{Value: "xx", Source: "xx"}
	}
	var operands []Word
	format := "" // csplit's -b: where the names' end comes from
	for i := 1; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(v, "--") && len(v) > 2:
			name, val, glued := strings.Cut(v, "=")
			takes := false
			for _, l := range longArg {
				if strings.HasPrefix(l, name) {
					takes = true
					arg := Word{Value: val, Source: w.Source}
					if !glued && i+1 < len(args) {
						arg = args[i+1]
					}
					switch {
					case base == "csplit" && strings.HasPrefix("--prefix", name):
						prefix = arg
					case base == "csplit" && strings.HasPrefix("--suffix-format", name):
						format = arg.Value
					}
				}
			}
			if takes && !glued {
				i++
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(withArg, v[j]) < 0 {
					continue
				}
				val := Word{Value: v[j+1:], Source: w.Source}
				if val.Value == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				if base == "csplit" && v[j] == 'f' {
					prefix = val
				}
				if base == "csplit" && v[j] == 'b' {
					format = val.Value
				}
				break
			}
		default:
			operands = append(operands, w)
		}
	}
	if base == "split" && len(operands) >= 2 {
		prefix = operands[1]
	}
	// The computed end holds no '/' and starts with no '.' (split's
	// letters or digits, --additional-suffix, which split refuses with a
	// '/'): the names are those of the glob PREFIX*, matched with its own
	// pattern as a glob's are (attack run 83: a write of PREFIX followed
	// by any text asked for every split). csplit's -b format may hold
	// both: then the end is any text (`-f ./ -b ../.bashrc%.0d`).
	out := Word{Value: prefix.Value + Hole, Source: prefix.Source + "*"}
	switch {
	case base == "csplit" && format != "":
		// The format's text as written, each conversion a run-time part.
		v, src := printfHoles(format)
		out = Word{Value: prefix.Value + v, Source: prefix.Source + src}
	case strings.ContainsAny(prefix.Source, "*?["):
		out.Source = prefix.Source + "${suffix}"
	}
	a.emit(Segment{Kind: Write, Args: append(a.wordSlots(1), out), Line: seg.Line, Via: f.via}, f)
}

// printfHoles returns a printf format (csplit's -b) with each conversion
// (%d, %02x, %.0d …) a Hole, and the same as a Source with each a
// variable's reference; %% is "%". A format only known at run time is a
// Hole whole.
func printfHoles(format string) (value, source string) {
	if strings.Contains(format, Hole) {
		return Hole, "${suffix}"
	}
	var v, s strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			v.WriteByte(c)
			s.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			v.WriteByte('%')
			s.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("#0- +'.0123456789", format[j]) >= 0 {
			j++
		}
		i = j // the conversion letter (or the end)
		v.WriteString(Hole)
		s.WriteString("${n}")
	}
	return v.String(), s.String()
}

// trapSets reports whether trap's arguments set an action (not -p, -l, a
// reset with "-" or an ignore with ""): in an interactive session bash
// parses it again each time it fires, with the aliases defined by then.
func trapSets(args []Word) bool {
	for i, w := range args {
		switch v := w.Value; {
		case v == "--":
			continue
		case strings.HasPrefix(v, "-") && v != "-":
			return false // -p, -l, -P: listing
		default:
			return v != "" && v != "-" && i+1 < len(args)
		}
	}
	return false
}

// xargsSplitsOnNUL reports whether xargs, called with args, reads its
// standard input as NUL-separated words (-0, --null) and nothing else
// (no -a/--arg-file, -d/--delimiter, -E/-e end of file): only then is
// each word one whole line of what feeds it. Split on blanks, a path
// with a space in it ("x ../.ssh/id_rsa", from a directory the command
// made) gives words that are not paths the lister printed.
func xargsSplitsOnNUL(args []Word) bool {
	null := false
	for _, w := range args[1:] {
		v := w.Value
		if !strings.HasPrefix(v, "-") || v == "--" {
			break
		}
		switch {
		case v == "-0" || v == "--null":
			null = true
		case strings.HasPrefix(v, "--arg") || strings.HasPrefix(v, "--del") || strings.HasPrefix(v, "--eof") || strings.HasPrefix(v, "-E"):
			return false
		case !strings.HasPrefix(v, "--"):
			// A cluster of letters; one that takes a value takes the
			// rest of the word.
		letters:
			for _, c := range v[1:] {
				switch {
				case c == '0':
					null = true
				case strings.ContainsRune("adeE", c):
					return false
				case strings.ContainsRune("IiLlnPs", c):
					break letters
				}
			}
		}
	}
	return null
}

// readsOtherInput reports whether statement s has a redirection that may
// give its command another standard input than the pipe (`xargs -0 cat
// < list`): anything but an output redirection of a descriptor other
// than 0.
func readsOtherInput(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.DplOut:
			if r.N == nil || r.N.Value != "0" {
				continue
			}
		}
		return true
	}
	return false
}

// dirOptions are the options of wrappers that run their command in
// another directory (env(1) --chdir, sudo(8) --chdir, nsenter(1) --wd and
// --wdns, unshare(1) --wd).
var dirOptions = map[string][]string{
	"env": {"-C", "--chdir"}, "sudo": {"-D", "--chdir", "-i", "--login"}, "nsenter": {"-w", "--wd", "-W", "--wdns", "-R", "--root"},
	"unshare": {"-w", "--wd", "-R", "--root"}, "su": {"-l", "--login"}, "runuser": {"-l", "--login"},
	"tmux": {"-c"},
}

// changesDir reports whether wrapper base's args, before the first of
// the words its command came from (from), hold an option that runs it
// elsewhere: the option itself, its long form with a value or an
// abbreviation of it, or its letter in a cluster of short options.
func changesDir(base string, args []Word, from []int) bool {
	if base == "chroot" {
		return true // the new root's /, and its paths (attack run 81)
	}
	opts := dirOptions[base]
	if opts == nil {
		return false
	}
	end := len(args)
	if len(from) > 0 && base != "su" && base != "runuser" {
		// (su and runuser take options after the command too: `su
		// root -c CMD -l`.)
		end = min(end, from[0])
	}
	if base == "env" {
		// -S "-C DIR cmd": the split string's words came from one word,
		// which the command's own may share (attack run 80).
		for k, w := range args[1:] {
			v := w.Value
			split := strings.HasPrefix(v, "-S") || strings.HasPrefix(v, "--s") || k > 0 && (args[k].Value == "-S" || strings.HasPrefix(args[k].Value, "--s"))
			if split && (strings.Contains(v, "-C") || strings.Contains(v, "--ch")) {
				return true
			}
		}
	}
	for _, w := range args[1:end] {
		v := w.Value
		if v == "-" && (base == "su" || base == "runuser") {
			return true // a login shell: the user's home
		}
		for _, o := range opts {
			name, _, _ := strings.Cut(v, "=")
			switch {
			case strings.HasPrefix(o, "--") && len(name) >= 3 && strings.HasPrefix(o, name):
				return true
			case !strings.HasPrefix(o, "--") && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.IndexByte(v[1:], o[1]) >= 0:
				return true
			}
		}
	}
	return false
}

// startupFile returns the file a shell (base) given seg's assignments
// reads before its command: BASH_ENV's for bash, ENV's for a POSIX shell
// (bash(1) INVOCATION; dash reads ENV when interactive, which is taken
// for any), from the segment's own assignments (`BASH_ENV=f bash -c …`,
// `env BASH_ENV=f bash`) or one the text made before (`export
// BASH_ENV=f; bash …`); a Hole in it when only known at run time. ok is
// false when neither is assigned. guardsh's own bash never reads one
// (see LessSecure): the environment it starts with has none.
func (a *analyzer) startupFile(base string, seg Segment) (file string, ok bool) {
	name := "BASH_ENV"
	if posixShells[base] {
		name = "ENV"
	}
	for _, w := range seg.Assigns {
		if v, isIt := strings.CutPrefix(w.Value, name+"="); isIt {
			file, ok = v, true
		}
	}
	if !ok {
		if v, assigned := a.assume.vars[name]; assigned {
			file, ok = v, true
		}
	}
	if ok && file == "" {
		return "", false // empty: read as none
	}
	return file, ok
}

// withGitEnv records the assignments of assigns that git reads code from
// (see gitEnvCode; GIT_CONFIG_COUNT, _KEY_<n>, _VALUE_<n>, _PARAMETERS)
// as values assigned before, and returns what puts the earlier ones back.
func (a *analyzer) withGitEnv(assigns []Word) (restore func()) {
	type saved struct {
		name, value string
		had         bool
	}
	var undo []saved
	for _, w := range assigns {
		n, v, ok := strings.Cut(w.Value, "=")
		if !ok || !gitEnvName(n) {
			continue
		}
		if a.assume.vars == nil {
			a.assume.vars = map[string]string{}
		}
		old, had := a.assume.vars[n]
		undo = append(undo, saved{n, old, had})
		a.assume.vars[n] = v
	}
	return func() {
		for i := len(undo) - 1; i >= 0; i-- {
			if u := undo[i]; u.had {
				a.assume.vars[u.name] = u.value
			} else {
				delete(a.assume.vars, u.name)
			}
		}
	}
}

// gitEnvName reports a variable git reads code or configuration from.
func gitEnvName(n string) bool {
	if strings.HasPrefix(n, "GIT_CONFIG_") {
		return true
	}
	for _, v := range gitEnvCode {
		if v.name == n {
			return true
		}
	}
	return false
}

// gitEnvCode are the environment variables whose value git runs as a
// command (through the shell, or as a program: GIT_SSH, the askpass
// helpers), with the config key each stands for (git(1), git-var(1)).
var gitEnvCode = []struct{ name, key string }{
	{"GIT_PAGER", "core.pager"}, {"PAGER", "core.pager"}, {"GIT_EDITOR", "core.editor"},
	{"VISUAL", "core.editor"}, {"EDITOR", "core.editor"}, {"GIT_SEQUENCE_EDITOR", "sequence.editor"},
	{"GIT_SSH_COMMAND", "core.sshcommand"}, {"GIT_SSH", "core.sshcommand"},
	{"GIT_EXTERNAL_DIFF", "diff.external"}, {"GIT_ASKPASS", "core.askpass"},
	{"SSH_ASKPASS", "core.askpass"}, {"GIT_PROXY_COMMAND", "core.gitproxy"},
}

// gitEnvConfig returns git's args (and offs) with the configuration that
// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n> give it
// (git-config(1) ENVIRONMENT), from seg's assignments or ones the text
// made before, as the -c options they stand for, so that a command they
// name is analysed as `git -c alias.x='!cmd'` is (attack run 78 wrote
// ~/.bashrc through an alias so given); so are the variables of
// gitEnvCode. unknown: a count, key or value
// only known at run time, or GIT_CONFIG_PARAMETERS.
func (a *analyzer) gitEnvConfig(args []Word, offs []int, seg Segment) ([]Word, []int, bool) {
	// value looks a variable up: the segment's own assignment, else one
	// the text made before (looked up by name: no walk over them all).
	value := func(name string) (string, bool) {
		for _, w := range seg.Assigns {
			if v, ok := strings.CutPrefix(w.Value, name+"="); ok {
				return v, true
			}
		}
		v, ok := a.assume.vars[name]
		return v, ok
	}
	if params, ok := value("GIT_CONFIG_PARAMETERS"); ok {
		// What `git -c` passes on to the gits it runs: 'key=value' or
		// 'key'='value' words, shell-quoted (git's quote.c): each read
		// as the -c option it stands for (attack run 83 ran an alias's
		// code so in CI).
		words, ok := splitEnvString(params)
		if !ok || strings.Contains(params, Hole) {
			return args, offs, true
		}
		out := []Word{args[0]}
		outOffs := []int{offs[0]}
		for _, w := range words {
			if !strings.Contains(w, "=") {
				return args, offs, true
			}
			out = append(out, Word{Value: "-c", Source: "-c"}, Word{Value: w, Source: "GIT_CONFIG_PARAMETERS"})
			outOffs = append(outOffs, offs[0], offs[0])
		}
		args, offs = append(out, args[1:]...), append(outOffs, offs[1:]...)
	}
	// The variables git takes a command from, as the keys they stand
	// for (git(1) ENVIRONMENT, git-var(1)): a new user's
	// `GIT_EXTERNAL_DIFF='rm -rf ~' git diff` ran unread where
	// `git -c diff.external=…` is denied.
	var envCode []Word
	for _, v := range gitEnvCode {
		if val, ok := value(v.name); ok {
			if strings.Contains(val, Hole) {
				return args, offs, true
			}
			envCode = append(envCode, Word{Value: "-c", Source: "-c"}, Word{Value: v.key + "=" + val, Source: v.name + "=" + val})
		}
	}
	if len(envCode) > 0 {
		out := append(append([]Word{args[0]}, envCode...), args[1:]...)
		outOffs := []int{offs[0]}
		for range envCode {
			outOffs = append(outOffs, offs[0])
		}
		args, offs = out, append(outOffs, offs[1:]...)
	}
	count, ok := value("GIT_CONFIG_COUNT")
	if !ok {
		return args, offs, false
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 || n > 64 {
		return args, offs, true
	}
	out := append([]Word{args[0]}, make([]Word, 0, 2*n+len(args)-1)...)
	outOffs := append([]int{offs[0]}, make([]int, 0, 2*n+len(offs)-1)...)
	for i := range n {
		k, kok := value("GIT_CONFIG_KEY_" + strconv.Itoa(i))
		v, vok := value("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
		if !kok || !vok || strings.Contains(k+v, Hole) {
			return args, offs, true
		}
		out = append(out, Word{Value: "-c", Source: "-c"}, Word{Value: k + "=" + v, Source: k + "=" + v})
		outOffs = append(outOffs, offs[0], offs[0])
	}
	return append(out, args[1:]...), append(outOffs, offs[1:]...), false
}

// listedDir reports whether pipe stage st (nil: none) writes only paths
// below one directory, as the words xargs makes of them begin (dir, "" for
// names relative to the working directory) and end (suffix): find with one
// starting point ("." when none; dir is it and a "/"), its options before
// it (-H, -L, -P, -D, -O, --) skipped, and no action that prints or runs
// (-printf, -fprint…, -ls, -fls, -exec…, -ok…) nor -files0-from, whose one
// -name "*.EXT" test gives the suffix (paths that all start with the
// starting point: git ls-files's could start with "-" and be read as an
// option);
// possibly through filters with no file operand that pass whole lines on
// (see passesRecords). The rules then match those words like a glob's (see
// OpenWord). What find prints is the starting point's own name too, and a
// link below it is followed by the program given it (README "Known
// limits").
func (a *analyzer) listedDir(st *syntax.Stmt) (dir, suffix string, ok bool) {
	for hops := 0; st != nil && hops < 16; hops++ {
		c, isCall := st.Cmd.(*syntax.CallExpr)
		if !isCall || len(c.Args) == 0 || len(c.Assigns) > 0 || len(st.Redirs) > 0 {
			return "", "", false
		}
		words := make([]string, 0, len(c.Args))
		for _, w := range c.Args {
			v, static := simpleValue(w.Parts, false)
			if !static {
				return "", "", false
			}
			words = append(words, v)
		}
		if !a.realProgram(words[0]) {
			// A function or alias of that name prints what it likes
			// (attack run 84: find() { printf '~/.ssh/id_rsa\0'; } fed
			// xargs -0 cat the key).
			return "", "", false
		}
		if words[0] == "find" {
			return findListing(words)
		}
		if !passesRecords(words) {
			return "", "", false
		}
		st = a.feeds[st]
	}
	return "", "", false
}

// findListing is listedDir for a find command line (static words).
func findListing(words []string) (dir, suffix string, ok bool) {
	i := 1
	for i < len(words) {
		w := words[i]
		switch {
		case w == "-H" || w == "-L" || w == "-P" || strings.HasPrefix(w, "-O"):
			i++
			continue
		case w == "-D":
			i += 2
			continue
		case w == "--":
			i++
		}
		break
	}
	var starts []string
	for ; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") || w == "(" || w == "!" || w == "," {
			break
		}
		starts = append(starts, w)
	}
	names := 0
	for k := i; k < len(words); k++ {
		w := words[k]
		switch {
		case strings.HasPrefix(w, "-fprint") || strings.HasPrefix(w, "-exec") || strings.HasPrefix(w, "-ok") ||
			w == "-printf" || w == "-ls" || w == "-fls" || w == "-files0-from":
			return "", "", false
		case w == "-name":
			names++
			if k+1 < len(words) {
				if pat := words[k+1]; strings.HasPrefix(pat, "*.") && !strings.ContainsAny(pat[1:], "*?[\\/") {
					suffix = pat[1:]
				}
			}
		case w == "-o" || w == "-or" || w == "," || w == "-not" || w == "!" || w == "-iname" ||
			w == "-path" || w == "-regex" || w == "-wholename" || w == "-ipath" || w == "-iregex":
			names = 2
		}
	}
	if names != 1 {
		suffix = ""
	}
	switch {
	case len(starts) == 0:
		return "./", suffix, true
	case len(starts) > 1:
		return "", "", false
	case starts[0] == "/":
		return "/", suffix, true
	}
	return strings.TrimRight(starts[0], "/") + "/", suffix, true
}

// passesRecords reports whether a pipe stage (static words) only passes
// NUL-terminated records of its input on, whole: sort, uniq, head or tail
// with -z (head and tail counting records: -n N, not -c), or grep with -z
// and a pattern, with no file operand, no option that rewrites a record
// (-o, uniq -c), reads files of its own or writes one. Without -z they
// split a name with a newline in it in two.
func passesRecords(words []string) bool {
	zero := false
	switch words[0] {
	case "sort", "uniq":
		for _, w := range words[1:] {
			switch {
			case w == "-z" || w == "--zero-terminated":
				zero = true
			case len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.Trim(w[1:], "urnVzfbdhgMRs") == "" &&
				!(words[0] == "uniq" && strings.ContainsAny(w[1:], "cDf")):
				zero = zero || strings.Contains(w, "z")
			default:
				return false
			}
		}
		return zero
	case "head", "tail":
		for k := 1; k < len(words); k++ {
			switch w := words[k]; {
			case w == "-z" || w == "--zero-terminated":
				zero = true
			case w == "-n" && k+1 < len(words) && allDigits(words[k+1]):
				k++
			case len(w) > 2 && w[:2] == "-n" && allDigits(w[2:]):
			default:
				return false
			}
		}
		return zero
	case "grep":
		pattern := false
		for k := 1; k < len(words); k++ {
			w := words[k]
			switch {
			case w == "-z" || w == "--null-data":
				zero = true
			case w == "-e" || w == "-f":
				pattern = true
				k++
			case strings.HasPrefix(w, "--"):
				if !slices.Contains([]string{"--invert-match", "--ignore-case", "--fixed-strings", "--extended-regexp",
					"--word-regexp", "--line-regexp", "--no-messages"}, w) {
					return false
				}
			case strings.HasPrefix(w, "-") && len(w) > 1:
				if strings.Trim(w[1:], "vixFEwGPsz") != "" {
					return false
				}
				zero = zero || strings.Contains(w, "z")
			case !pattern:
				pattern = true
			default:
				return false // a file operand: what it prints is that file
			}
		}
		return pattern && zero
	}
	return false
}
