package interp

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic on text only known at run time.
//
// bash evaluates a variable's value as an arithmetic expression wherever
// arithmetic names the variable ($((x)), ((x)), let, for ((…)), an indexed
// array's subscript ${a[x]}, an offset ${v:x}, [['s -eq …, a value assigned
// under declare -i), and takes a value as a variable's name where a
// builtin names one (${!x}, printf -v, read, declare, test -v): in both, a
// subscript in that text has its $(…) and backquotes expanded, so
// x='a[$(cmd)]'; : $((x)) runs cmd, unseen by the analysis (attack runs 36
// and 39, in every mode). The analysis collects what each segment's
// arithmetic names (Segment.Arith) and, once the whole text is walked, marks
// RunsCode on every segment that evaluates a name whose value it cannot
// vouch for: one some part of the text gives a value only known at run time
// (read, $(…), a loop over such words …), a literal value holding "[" or
// naming such a variable, or a value from an environment not known (a
// later command of a script read from stdin, an interactive session).
// Integers bash makes ($#, $?, $$, $!, ${#x}, RANDOM, SECONDS …) and what
// arithmetic assigns are integers.

// arithRefs appends to a.arith what the arithmetic word w names: the
// variables it evaluates, Hole for a part only known at run time (a
// command substitution, a parameter expansion that is not a variable's
// value, an identifier a neighbouring part may extend).
func (a *analyzer) arithRefs(w *syntax.Word) {
	a.arith = a.arithParts(w.Parts, len(w.Parts) > 1, a.arith)
}

func (a *analyzer) arithParts(parts []syntax.WordPart, joined bool, refs []string) []string {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			switch {
			case v == "" || v == "@" || v == "*" || isDigit(v[0]) && !joined:
			case joined && strings.IndexFunc(v, func(r rune) bool { return r == '_' || r < 128 && isAlpha(byte(r)) }) >= 0:
				// x$y: the name is x and what $y holds.
				refs = append(refs, Hole)
			case isName(v):
				refs = append(refs, v)
			case joined && allDigits(v):
			default:
				refs = append(refs, Hole)
			}
		case *syntax.DblQuoted:
			refs = a.arithParts(p.Parts, joined || len(p.Parts) > 1, refs)
		case *syntax.ArithmExp:
			// An integer (its own arithmetic is walked on its own).
		case *syntax.ParamExp:
			refs = paramRefs(p, refs)
		case *syntax.CmdSubst:
			if a.intCommand(p) {
				refs = append(refs, intCmdRef) // decided at the end (see arithFacts.intCmds)
			} else {
				refs = append(refs, Hole)
			}
		default:
			refs = append(refs, Hole)
		}
	}
	return refs
}

// intCmdRef is the ref of a command substitution intCommand takes for an
// integer: safe only where the whole text defines no function or alias
// and hashes no program (arithFacts.intCmds), which a loop may run
// before the substitution (attack run 42: `for i in 1 2; do : $(( $(wc
// -l < f) )); eval "func""tion wc { cat; }"; done`).
const intCmdRef = "!int"

// intCommand reports a command substitution whose output is an integer:
// `date +%s`, `nproc`, `id -u`, `wc -l` (-c, -w, -m) of its standard
// input, named plainly — where the text defines no function or alias of
// that name (see intCmdRef; a program on PATH that prints other text runs
// code of its own anyway).
func (a *analyzer) intCommand(c *syntax.CmdSubst) bool {
	if len(c.Stmts) != 1 {
		return false
	}
	st := c.Stmts[0]
	pipe := false
	for {
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe || st.Negated {
			break
		}
		st, pipe = b.Y, true // `… | wc -l`: wc's output
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return false
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.RdrIn || r.N != nil {
			return false
		}
	}
	args := make([]string, len(call.Args))
	for i, w := range call.Args {
		if args[i] = w.Lit(); args[i] == "" {
			return false
		}
	}
	if pipe && args[0] != "wc" {
		return false
	}
	switch args[0] {
	case "date":
		return len(args) == 2 && (args[1] == "+%s" || args[1] == "+%s%N") && len(st.Redirs) == 0
	case "nproc":
		return len(args) == 1 && len(st.Redirs) == 0
	case "id":
		return len(args) == 2 && (args[1] == "-u" || args[1] == "-g") && len(st.Redirs) == 0
	case "wc":
		return len(args) == 2 && (args[1] == "-l" || args[1] == "-c" || args[1] == "-w" || args[1] == "-m")
	}
	return false
}

// paramRefs appends what the value of p, in arithmetic, names: the
// variable (an array element's value is the array's), and a default's
// literal; its subscript or offsets are arithmetic walked on their own.
func paramRefs(p *syntax.ParamExp, refs []string) []string {
	switch {
	case p.Param == nil || p.Excl || p.Width || p.IsSet || p.Slice != nil || p.Repl != nil || p.Names != 0 ||
		p.NestedParam != nil || len(p.Modifiers) > 0 || p.Flags != nil:
		return append(refs, Hole)
	case p.Length:
		if p.Exp != nil {
			return append(refs, Hole)
		}
		return refs // an integer
	}
	refs = append(refs, p.Param.Value)
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
			if p.Exp.Word != nil {
				return appendLitRefs(p.Exp.Word, refs)
			}
		default:
			return append(refs, Hole)
		}
	}
	return refs
}

// appendLitRefs appends the refs of w, a default's word: its literal's
// names, Hole for anything else.
func appendLitRefs(w *syntax.Word, refs []string) []string {
	v, static := simpleValue(w.Parts, false)
	if !static {
		return append(refs, Hole)
	}
	return append(refs, "="+v)
}

// nameRefs appends to a.arith what ${!x} names: its value is taken as a
// variable's name (with any subscript in it evaluated).
func (a *analyzer) nameRefs(p *syntax.ParamExp) {
	if !p.Excl || p.Names != 0 || p.Param == nil {
		return
	}
	if p.Index != nil {
		if w, ok := p.Index.(*syntax.Word); ok && (w.Lit() == "@" || w.Lit() == "*") {
			return // ${!a[@]}: the array's keys
		}
	}
	a.arith = append(a.arith, p.Param.Value) // ${!x}, ${!x[0]} (attack run 42)
}

// intSpecials are the variables bash keeps integers in (until a text
// assigns one: see arithFacts.safe).
var intSpecials = map[string]bool{
	"#": true, "?": true, "$": true, "!": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"EPOCHSECONDS": true, "LINENO": true, "BASHPID": true, "PPID": true, "UID": true, "EUID": true,
	"HISTCMD": true, "OPTIND": true,
}

// arithFacts is what the whole text assigns, for arithCheck.
type arithFacts struct {
	// anyName: some part may assign any variable (a name only known at
	// run time, code only known at run time); noEnv: the values the text
	// starts with are not known.
	anyName, noEnv bool
	env            func(string) (string, bool)
	// values are the literal values assigned each name ("=" + literal, or
	// a name whose value it is); unknown the names given a value only
	// known at run time.
	values  map[string][]string
	unknown map[string]bool
	// intAttrs: a declaration may give a variable the integer attribute
	// (or make it a reference): then every value assigned is arithmetic.
	intAttrs bool
	// intSubst reports a command substitution, as written, whose output
	// is an integer (see intCommand); intCmds: the text defines no
	// function or alias, and hashes or enables nothing, so that such a
	// command is the program it names.
	intSubst func(src string) bool
	intCmds  bool
	// arrays are the names the text may make arrays: bash parses a
	// value declare (typeset, local …) gives one as "(…)" again.
	arrays map[string]bool
	// assigners are the segments of builtins that assign a variable a
	// value only known at run time (read, mapfile, getopts, printf -v,
	// wait -p, select).
	assigners []int
}

// arithCheck marks RunsCode on the segments whose arithmetic, or whose
// operands taken as names, may evaluate a value only known at run time
// (see the top of this file).
func (a *analyzer) arithCheck() {
	a.flushArith()
	var facts *arithFacts
	for i := range a.segs {
		s := &a.segs[i]
		refs := s.Arith
		if s.Kind == Exec && len(s.Args) > 0 && evaluates(s.Args) {
			args := s.Args
			if len(s.Assigns) > 0 && isDeclare(args) {
				// (declare's NAME=value operands; a command's prefix
				// assignments, or what its arithmetic assigns, are no
				// operands.)
				args = append(args[:len(args):len(args)], s.Assigns...)
			}
			name, ops := evaluatedOperands(args)
			for _, op := range ops {
				if name == "let" && !op.Word.Dynamic() {
					continue // parsed as arithmetic, walked as such
				}
				refs = joinRefs(refs, operandRefs(op))
			}
		}
		if refs == "" {
			continue
		}
		if facts == nil {
			facts = a.arithFacts()
		}
		s.Arith = facts.unsafeRefs(refs)
		s.RunsCode = s.RunsCode || s.Arith != ""
	}
	if facts == nil && !a.declAttrs && !a.declaresStrings() {
		return
	}
	if facts == nil {
		facts = a.arithFacts()
	}
	flag := func(s *Segment) {
		s.RunsCode = true
		if !strings.Contains(s.Arith, Hole) {
			s.Arith = joinRefs(s.Arith, []string{Hole})
		}
	}
	for i := range a.segs {
		s := &a.segs[i]
		if s.Kind != Exec {
			continue
		}
		declares := len(s.Args) > 0 && isDeclare(s.Args)
		for _, w := range s.Assigns {
			name, ok := assignedName(w)
			if !ok {
				continue
			}
			switch {
			case facts.intAttrs && !facts.safeAssign(w):
				// Under declare -i every value assigned is arithmetic.
				flag(s)
			case declares && facts.arrays[name] && compoundValue(w):
				// declare of an array's name parses "(…)" in a value
				// given as a string (attack run 42: a=(1); declare a=$y).
				flag(s)
			}
		}
	}
	if facts.intAttrs {
		// And so is what read, mapfile, getopts … assign (attack run 42:
		// declare -i n; read n < f).
		for _, i := range facts.assigners {
			flag(&a.segs[i])
		}
	}
}

// declaresStrings reports whether a declare (typeset, local …) segment
// gives a variable a value compoundValue reports: the cheap test before
// arithFacts for what no arithmetic names.
func (a *analyzer) declaresStrings() bool {
	for _, s := range a.segs {
		if s.Kind == Exec && len(s.Assigns) > 0 && len(s.Args) > 0 && isDeclare(s.Args) {
			for _, w := range s.Assigns {
				if compoundValue(w) {
					return true
				}
			}
		}
	}
	return false
}

// isDeclare reports a declare, typeset, local, export or readonly
// segment (past builtin and command).
func isDeclare(args []Word) bool {
	for len(args) > 1 && (args[0].Value == "builtin" || args[0].Value == "command") {
		args = args[1:]
	}
	switch args[0].Value {
	case "declare", "typeset", "local", "export", "readonly":
		return true
	}
	return false
}

// compoundValue reports whether the assignment word w gives, as a string
// (not a written array `(…)`), a value that is "(…)" or only known at
// run time.
func compoundValue(w Word) bool {
	_, val, _ := strings.Cut(w.Value, "=")
	_, src, _ := strings.Cut(w.Source, "=")
	if strings.HasPrefix(src, "(") {
		return false
	}
	return strings.Contains(val, Hole) || strings.HasPrefix(val, "(")
}

// flushArith gives what arithmetic no later segment carried (a case
// word, a loop's arithmetic with an empty body) to the last segment.
func (a *analyzer) flushArith() {
	if len(a.arith) == 0 {
		return
	}
	if len(a.segs) == 0 {
		a.segs = append(a.segs, Segment{Kind: Exec, Args: []Word{{Value: "((", Source: "(("}}, Line: 1, Col: 1})
		a.meta = append(a.meta, segMeta{})
	}
	last := &a.segs[len(a.segs)-1]
	last.Arith = joinRefs(last.Arith, a.arith)
	a.arith = nil
}

// evaluates reports whether the simple command args may have operands
// evaluatedOperands returns: the cheap test before it.
func evaluates(args []Word) bool {
	switch args[0].Value {
	case "command", "builtin", "let", "unset", "declare", "typeset", "local", "readonly", "export", "read", "printf",
		"wait", "test", "[", "[[":
		return true
	}
	return false
}

// operandRefs returns the refs of an operand bash evaluates (see
// evaluatedOperands): a static name or arithmetic expression as written,
// a run-time one as the variable it expands ("$x", "${x}") or Hole.
func operandRefs(op operand) []string {
	v := op.Word.Value
	if op.Compound {
		if strings.Contains(v, Hole) {
			return []string{Hole} // any text, "(…)" too
		}
		return nil // subscriptCode's
	}
	if !strings.Contains(v, Hole) {
		if op.Name {
			// A subscript's $ and ` are subscriptCode's; its text is
			// arithmetic on the names in it (declare 'a[x]'=1: attack
			// run 42).
			if i := strings.IndexByte(v, '['); i >= 0 {
				return []string{"=" + strings.TrimSuffix(v[i+1:], "]")}
			}
			return nil
		}
		return []string{"=" + v}
	}
	src := strings.Trim(op.Word.Source, `"`)
	if name, ok := strings.CutPrefix(src, "$"); ok {
		name = strings.TrimSuffix(strings.TrimPrefix(name, "{"), "}")
		if isName(name) || intSpecials[name] {
			return []string{name}
		}
	}
	return []string{Hole}
}

// joinRefs adds refs to the space-separated list have.
func joinRefs(have string, refs []string) string {
	if len(refs) == 0 {
		return have
	}
	add := strings.Join(refs, " ")
	if have == "" {
		return add
	}
	return have + " " + add
}

// assignedName returns the variable an assignment word (NAME=…,
// NAME+=…, NAME[…]=…, or a loop's NAME) assigns.
func assignedName(w Word) (string, bool) {
	v := w.Value
	if i := strings.IndexAny(v, "[+="); i >= 0 {
		v = v[:i]
	}
	return v, isName(v)
}

// arithFacts gathers what the text's segments assign.
func (a *analyzer) arithFacts() *arithFacts {
	f := &arithFacts{env: a.opt.Env, noEnv: a.opt.Env == nil || a.opt.Session, values: map[string][]string{},
		unknown: map[string]bool{}, arrays: map[string]bool{},
		intCmds: !a.funcDefined && len(a.funcs) == 0 && len(a.pending) == 0 && len(a.aliases) == 0 && len(a.pendingAliases) == 0}
	f.intSubst = func(src string) bool {
		w, err := syntax.NewParser().Document(strings.NewReader(src))
		if err != nil || len(w.Parts) != 1 {
			return false
		}
		c, ok := w.Parts[0].(*syntax.CmdSubst)
		return ok && a.intCommand(c)
	}
	for i, s := range a.segs {
		if s.Kind != Exec {
			continue
		}
		if s.RunsCode && s.Arith == "" {
			f.anyName = true
		}
		for _, w := range s.Assigns {
			name, ok := assignedName(w)
			if !ok {
				f.anyName = true
				continue
			}
			if _, val, _ := strings.Cut(w.Value, "="); strings.HasPrefix(val, "(") || strings.Contains(w.Value, "[") && strings.Index(w.Value, "[") < strings.IndexByte(w.Value+"=", '=') {
				f.arrays[name] = true // a=(…), a[i]=…
			}
			if items, loop := a.loopAssigns[i]; loop {
				vals := loopWords(items)
				f.values[name] = append(f.values[name], vals...)
				if vals == nil {
					f.unknown[name] = true
				}
				continue
			}
			f.assign(name, w)
		}
		if len(s.Args) == 0 {
			continue
		}
		args := s.Args
		for len(args) > 1 && (args[0].Value == "command" || args[0].Value == "builtin") {
			args = args[1:]
		}
		cmd := args[0].Value
		if strings.Contains(cmd, Hole) {
			f.anyName = true
			continue
		}
		switch cmd {
		case "read", "mapfile", "readarray", "getopts", "wait", "select":
			f.assigners = append(f.assigners, i)
			for _, w := range args[1:] {
				f.gets(w, cmd == "read" || cmd == "mapfile" || cmd == "readarray")
			}
			if cmd == "getopts" {
				f.unknown["OPTARG"] = true
			}
			if cmd == "read" || cmd == "select" {
				f.unknown["REPLY"] = true
			}
			if cmd == "mapfile" || cmd == "readarray" {
				f.unknown["MAPFILE"], f.arrays["MAPFILE"] = true, true
			}
		case "printf":
			for j, w := range args[1:] {
				if w.Value == "-v" && j+2 < len(args) {
					f.assigners = append(f.assigners, i)
					f.gets(args[j+2], false)
				} else if n, ok := strings.CutPrefix(w.Value, "-v"); ok && n != "" {
					f.assigners = append(f.assigners, i)
					f.gets(Word{Value: n}, false)
				}
			}
		case "declare", "typeset", "local", "export", "readonly":
			arrays := false
			for _, w := range args[1:] {
				v := w.Value
				if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
					f.intAttrs = f.intAttrs || strings.ContainsAny(v, "in"+Hole)
					arrays = arrays || v[0] == '-' && strings.ContainsAny(v, "aA"+Hole)
				} else if strings.Contains(v, Hole) {
					f.anyName = true
				} else if n, _ := assignedName(w); arrays && n != "" {
					f.arrays[n] = true
				}
			}
		case "hash", "enable", "alias":
			f.intCmds = false // wc may name another program
		}
	}
	f.intAttrs = f.intAttrs || a.declAttrs
	return f
}

// gets records a word naming a variable some builtin gives a value only
// known at run time (read's, mapfile's, printf -v's …): options are
// harmless extra names.
func (f *arithFacts) gets(w Word, arrays bool) {
	v := w.Value
	if strings.Contains(v, Hole) {
		f.anyName = true
		return
	}
	if strings.HasPrefix(v, "-") {
		// An option, or options with a name glued on (read -ay, printf
		// -vname): every name its letters could start.
		for i := 1; i < len(v); i++ {
			f.unknown[v[i:]] = true
			if arrays {
				f.arrays[v[i:]] = true
			}
		}
		return
	}
	if i := strings.IndexByte(v, '['); i >= 0 {
		v = v[:i] // read 'y[1]' assigns y's element
	}
	f.unknown[v] = true
	if arrays {
		f.arrays[v] = true
	}
}

// assign records the assignment word w of name: a literal value, the
// value of an arithmetic expansion (an integer), of another variable, or
// one only known at run time.
func (f *arithFacts) assign(name string, w Word) {
	v, ok := f.safeValue(w)
	if !ok {
		f.unknown[name] = true
		return
	}
	f.values[name] = append(f.values[name], v...)
}

// safeAssign reports whether the assignment w gives a value arithmetic
// may evaluate (see arithCheck's -i).
func (f *arithFacts) safeAssign(w Word) bool {
	v, ok := f.safeValue(w)
	if !ok {
		return false
	}
	for _, x := range v {
		if !f.safeRef(x, 0) {
			return false
		}
	}
	return true
}

// safeValue returns what an assignment word's value is, as refs: a
// literal ("="+text), a variable whose value it is, or nothing for an
// integer; false for a value only known at run time.
func (f *arithFacts) safeValue(w Word) ([]string, bool) {
	name, _ := assignedName(w)
	_, val, assigns := strings.Cut(w.Value, "=")
	if !assigns || w.Source == name {
		return nil, false // ${x:=…}, a loop's variable (see loopAssigns)
	}
	if strings.HasSuffix(w.Value[:len(w.Value)-len(val)-1], "+") {
		// x+=b joins b to what x holds: a new name may appear.
		if !strings.Contains(val, Hole) && allDigits(val) {
			return nil, true
		}
		return nil, false
	}
	if !strings.Contains(val, Hole) {
		return []string{"=" + val}, true
	}
	_, src, _ := strings.Cut(w.Source, "=")
	src = strings.Trim(src, `"`)
	switch {
	case val == Hole && arithOnly(src):
		return nil, true // $((…)): an integer
	case val == Hole && strings.HasPrefix(src, "$(") && f.intCmds && f.intSubst(src):
		return nil, true // $(wc -l < f) …: an integer
	case strings.HasPrefix(src, "$"):
		ref := strings.TrimSuffix(strings.TrimPrefix(src[1:], "{"), "}")
		if ref == name || !(isName(ref) || intSpecials[ref]) {
			return nil, false
		}
		return []string{ref}, true
	}
	return nil, false
}

// unsafeRefs returns the refs of the space-separated list refs whose
// values arithmetic may not evaluate without running code, "" for none.
func (f *arithFacts) unsafeRefs(refs string) string {
	var out []string
	for r := range strings.SplitSeq(refs, " ") {
		if !f.safeRef(r, 0) && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return strings.Join(out, " ")
}

// maxArithDepth bounds the names followed through values (bash's own
// limit is 1024 levels of recursion; one deeper is refused).
const maxArithDepth = 8

func (f *arithFacts) safeRef(r string, depth int) bool {
	if r == intCmdRef {
		return f.intCmds
	}
	if lit, ok := strings.CutPrefix(r, "="); ok {
		return f.safeText(lit, depth)
	}
	return r != Hole && f.safe(r, depth)
}

// safe reports whether arithmetic may evaluate variable name.
func (f *arithFacts) safe(name string, depth int) bool {
	if depth > maxArithDepth || f.anyName || f.unknown[name] {
		return false
	}
	for _, v := range f.values[name] {
		if !f.safeRef(v, depth+1) {
			return false
		}
	}
	if intSpecials[name] {
		return true
	}
	if f.noEnv || envSpecial(name) {
		return false
	}
	v, set := f.env(name)
	return !set || f.safeText(v, depth+1)
}

// safeText reports whether arithmetic may evaluate text v: it holds no
// subscript, and every name in it is safe (a word starting with a digit,
// as 0x1f or 16#ff, is a number).
func (f *arithFacts) safeText(v string, depth int) bool {
	if strings.ContainsAny(v, "["+Hole) || assignsIn(v) {
		return false
	}
	for i := 0; i < len(v); {
		c := v[i]
		if !isNameByte(c) {
			i++
			continue
		}
		j := i
		for j < len(v) && (isNameByte(v[j]) || v[j] == '#') {
			j++
		}
		if !isDigit(c) && !f.safe(v[i:j], depth+1) {
			return false
		}
		i = j
	}
	return true
}

// assignsIn reports whether arithmetic text v may assign a variable: an
// assignment operator (=, +=, <<= …; not ==, !=, <=, >=) or ++ / --
// (attack run 43: g=PATH=9; : $((g)) set PATH, [[ PATH=9 -eq 1 ]] too).
func assignsIn(v string) bool {
	if strings.Contains(v, "++") || strings.Contains(v, "--") {
		return true
	}
	for i := 0; i < len(v); i++ {
		if v[i] != '=' {
			continue
		}
		if i+1 < len(v) && v[i+1] == '=' {
			i++ // ==
			continue
		}
		if i > 0 && strings.IndexByte("!<>=", v[i-1]) >= 0 && !(i > 1 && (v[i-2] == '<' || v[i-2] == '>') && v[i-1] == v[i-2]) {
			continue // !=, <=, >= (but <<= and >>= assign)
		}
		return true
	}
	return false
}

// loopWords returns a for loop's words when none has an expansion, a
// quote or a glob, as refs of the values its variable takes ("{1..5}"
// makes integers); else nil.
func loopWords(items []*syntax.Word) []string {
	out := make([]string, 0, len(items))
	for _, w := range items {
		v := w.Lit()
		if intRange(v) {
			continue
		}
		if v == "" || strings.ContainsAny(v, "*?[{\\~") {
			return nil
		}
		out = append(out, "="+v)
	}
	return out
}

// intRange reports a brace expansion of integers: {N..M} or {N..M..S}.
func intRange(v string) bool {
	inner, ok := strings.CutPrefix(v, "{")
	if inner, ok = strings.CutSuffix(inner, "}"); !ok {
		return false
	}
	parts := strings.Split(inner, "..")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if !allDigits(strings.TrimPrefix(p, "-")) || strings.TrimPrefix(p, "-") == "" {
			return false
		}
	}
	return true
}
