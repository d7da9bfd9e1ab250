package interp

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// resolver turns syntax words into Words with mvdan.cc/sh/v3/expand, so
// that brace expansion, tilde expansion and quote removal are exactly the
// library's (which follows bash). Before expanding, every part only known at
// run time (parameter expansion, command and process substitution,
// arithmetic) is replaced by a single-quoted Hole: single quotes keep the
// Hole from being split, globbed or cut (expand drops NUL from unquoted
// literals and from command substitution output, never from single quotes).
type resolver struct {
	cfg     expand.Config
	home    string // Options.Home
	globbed bool   // set by cfg.ReadDir2: the field being expanded would glob
	budget  *budget
	// keep, when set, says which parameter expansions stay for expand to
	// expand from cfg.Env instead of becoming Holes (see assumptions).
	keep func(*syntax.ParamExp) bool
	// general turns off the fast paths that skip expand (see holedValue),
	// so that tests can compare both ways of resolving a word.
	general bool
	// realCat, when set and true, says that a command named cat runs the
	// program cat (no function or alias of that name is known): a
	// "$(cat <<'EOF' … EOF)" then has the here-document's text as its
	// value (see heredocCat). Unset: such a substitution is a Hole.
	realCat func() bool
}

func newResolver(home string, b *budget, general bool) *resolver {
	r := &resolver{budget: b, home: home, general: general}
	r.cfg.Env = tildeEnv{home: home}
	// Globbing is only attempted for a field with an unquoted pattern
	// character; instead of reading a directory we note that the field
	// would be replaced by file names, and let expand fall back to the
	// literal word (no matches), which fields then turns into a Hole.
	r.cfg.ReadDir2 = func(string) ([]fs.DirEntry, error) {
		r.globbed = true
		return nil, nil
	}
	return r
}

// tildeEnv is the only environment expand sees: no variables at all (every
// parameter expansion was replaced by a Hole before expanding), HOME for a
// leading "~" and a Hole for every other tilde prefix ("~user", "~+", "~-":
// PWD and OLDPWD),
// so that expand never consults the system's user database.
type tildeEnv struct{ home string }

func (e tildeEnv) Get(name string) expand.Variable {
	switch {
	case name == "HOME":
		v := e.home
		if v == "" {
			v = Hole
		}
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	case strings.HasPrefix(name, "HOME "), name == "PWD", name == "OLDPWD":
		// ~user; ~+ and ~- (expand reads PWD and OLDPWD for them:
		// unset, it left "~-" as a literal name).
		return expand.Variable{Set: true, Kind: expand.String, Str: Hole}
	}
	return expand.Variable{}
}

func (tildeEnv) Each(func(string, expand.Variable) bool) {}

// holeLit is the replacement of a run-time part; it is shared, never mutated.
var holeLit = &syntax.SglQuoted{Value: Hole}

// errAnsiC refuses a $'…' escape whose value depends on the locale.
var errAnsiC = errors.New(`a $'…' escape whose value depends on the locale (\u or \U of a surrogate or above U+10FFFF)`)

// prepParts returns parts with every run-time part replaced by holeLit,
// copying only when something changes. whole reports a part that makes the
// entire word unknowable (an extended glob, a prompt expansion ${x@P}, a
// locale translation $"…", or a part this package does not know). With
// literal set, unquoted "{" are single-quoted so that expand does no brace
// expansion (assignment values, [[ operands, here-strings). The only error
// is errAnsiC.
//
// keep, when not nil, picks the parameter expansions that stay as they are
// for expand to expand (see assumptions); the others become Holes.
//
// realCat, when not nil and true, lets a here-document's cat inside double
// quotes take the document's text (see heredocCat).
func prepParts(parts []syntax.WordPart, literal bool, keep func(*syntax.ParamExp) bool, realCat func() bool) (out []syntax.WordPart, changed, whole bool, err error) {
	out = parts
	set := func(i int, repl ...syntax.WordPart) {
		if !changed {
			changed = true
			out = append(make([]syntax.WordPart, 0, len(parts)+len(repl)), parts[:i]...)
		}
		out = append(out, repl...)
	}
	for i, p := range parts {
		var repl []syntax.WordPart
		switch p := p.(type) {
		case *syntax.Lit:
			if literal && strings.IndexByte(p.Value, '{') >= 0 {
				repl = quoteBraces(p)
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				v, ok := ansiC(p.Value)
				if !ok {
					return nil, false, false, errAnsiC
				}
				repl = []syntax.WordPart{&syntax.SglQuoted{Value: v}}
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return nil, false, true, nil // $"…": translated at run time
			}
			dq, dqChanged := p.Parts, false
			if realCat != nil {
				dq, dqChanged = heredocCats(p.Parts, realCat)
			}
			inner, ch, w, err := prepParts(dq, false, keep, realCat)
			if err != nil || w {
				return nil, false, w, err
			}
			if ch || dqChanged {
				repl = []syntax.WordPart{&syntax.DblQuoted{Left: p.Left, Right: p.Right, Dollar: p.Dollar, Parts: inner}}
			}
		case *syntax.ParamExp:
			if promptExp(p) {
				return nil, false, true, nil
			}
			if keep != nil && keep(p) {
				break
			}
			repl = []syntax.WordPart{holeLit}
		case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			repl = []syntax.WordPart{holeLit}
		case *syntax.ExtGlob:
			if !literal {
				return nil, false, true, nil
			}
			repl = []syntax.WordPart{&syntax.SglQuoted{Value: p.Op.String() + p.Pattern.Value + ")"}}
		default:
			return nil, false, true, nil
		}
		if repl != nil {
			set(i, repl...)
		} else if changed {
			out = append(out, p)
		}
	}
	return out, changed, false, nil
}

// promptExp reports a prompt expansion, ${x@P}: bash expands x's value as
// a prompt, command substitutions included.
func promptExp(p *syntax.ParamExp) bool {
	if p.Exp == nil || p.Exp.Op != syntax.OtherParamOps || p.Exp.Word == nil {
		return false
	}
	// The operator is one letter; a word that is not a plain literal
	// is an error to bash, and taken as P here to be safe.
	op := p.Exp.Word.Lit()
	return op == "P" || op == ""
}

// runsCode reports whether node n (a word, an arithmetic or test
// expression) has a prompt expansion ${x@P} or a locale translation $"…",
// outside command and process substitutions (whose commands are segments
// of their own).
func runsCode(n syntax.Node) bool {
	if n == nil {
		return false
	}
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case nil:
			return false
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.DblQuoted:
			if n.Dollar {
				found = true
			}
		case *syntax.ParamExp:
			if promptExp(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// quoteBraces splits a literal at each unquoted "{", which becomes a
// single-quoted "{" (an escaped "\{" loses its backslash, as quote removal
// would), so that expand finds no brace expansion in it.
func quoteBraces(l *syntax.Lit) []syntax.WordPart {
	var out []syntax.WordPart
	s, start := l.Value, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && s[i+1] == '{' {
				if start < i {
					out = append(out, &syntax.Lit{Value: s[start:i]})
				}
				out = append(out, &syntax.SglQuoted{Value: "{"})
				start = i + 2
			}
			i++
		case '{':
			if start < i {
				out = append(out, &syntax.Lit{Value: s[start:i]})
			}
			out = append(out, &syntax.SglQuoted{Value: "{"})
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, &syntax.Lit{Value: s[start:]})
	}
	return out
}

// assignTilde performs the tilde expansion bash does in assignment values:
// at the start of the value and after every unquoted ":" (PATH=~/bin:~/x).
// parts are the top-level parts of the word; the value starts at byte start
// of parts[0], which must then be a literal (start 0 for an Assign's value
// word). A tilde prefix is "~" followed by the characters up to the next
// "/", ":" or the end of the word; when the literal ends before the prefix
// does (more parts follow, as in ~"x"), bash leaves it alone and so do we.
// "~" becomes home (a Hole when home is ""); "~name", "~+", "~-" a Hole.
func assignTilde(parts []syntax.WordPart, start int, home string) []syntax.WordPart {
	if home == "" {
		home = Hole
	}
	var out []syntax.WordPart
	changed := false
	prevColon := false // the previous part ended in an unquoted ':'
	for pi, p := range parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			prevColon = false
			if changed {
				out = append(out, p)
			}
			continue
		}
		s := lit.Value
		i0 := 0
		if pi == 0 {
			i0 = start
			prevColon = true // the value start counts as a tilde position
		}
		var pieces []syntax.WordPart
		last := 0
		for j := i0; j < len(s); j++ {
			if s[j] == '\\' {
				j++
				continue
			}
			atPos := (j == i0 && prevColon) || (j > i0 && s[j-1] == ':' && (j < 2 || s[j-2] != '\\'))
			if !atPos || s[j] != '~' {
				continue
			}
			k := j + 1
			for k < len(s) && s[k] != '/' && s[k] != ':' {
				k++
			}
			if k == len(s) && pi < len(parts)-1 {
				continue // prefix runs into a quoted or expanded part
			}
			name := s[j+1 : k]
			if strings.ContainsAny(name, "\\\"'$`") {
				continue
			}
			val := home
			if name != "" {
				val = Hole
			}
			if last < j {
				pieces = append(pieces, &syntax.Lit{Value: s[last:j]})
			}
			pieces = append(pieces, &syntax.SglQuoted{Value: val})
			last = k
			j = k - 1
		}
		prevColon = len(s) > 0 && s[len(s)-1] == ':'
		if pieces == nil {
			if changed {
				out = append(out, p)
			}
			continue
		}
		if last < len(s) {
			pieces = append(pieces, &syntax.Lit{Value: s[last:]})
		}
		if !changed {
			changed = true
			out = append(out, parts[:pi]...)
		}
		out = append(out, pieces...)
	}
	if !changed {
		return parts
	}
	return out
}

// assignPrefixLen returns the length of a leading "NAME=", "NAME+=" or
// "NAME[sub]=" in s, or -1. bash treats an argument starting so (and an
// assignment) as an assignment for tilde expansion.
func assignPrefixLen(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || isAlpha(s[i]) || (i > 0 && isDigit(s[i]))) {
		i++
	}
	if i == 0 {
		return -1
	}
	if i < len(s) && s[i] == '[' {
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return -1
		}
		i += j + 1
	}
	if i < len(s) && s[i] == '+' {
		i++
	}
	if i < len(s) && s[i] == '=' {
		return i + 1
	}
	return -1
}

func isAlpha(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }
func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// fields resolves w as bash resolves a command argument: brace expansion,
// then tilde expansion (also after "=" and ":" of an assignment-like word,
// as bash does), quote removal (with posix, as dash does: no brace
// expansion, tilde expansion at the start only); run-time parts become Holes, and a field
// that globbing would replace becomes a whole Hole. It appends one Word per
// resulting field (several for a brace expansion, each with Source src) to
// out. The only error is a brace expansion over expand's limit or over the
// analysis budget.
//
// Brace expansion is done here rather than inside expand.Fields, which
// leaves the pieces of an expanded word as separate literals and so misses
// the tilde of {a,~} and {~,b}/x.
func (r *resolver) fields(w *syntax.Word, src string, out []Word, posix bool) ([]Word, error) {
	if v, ok := simpleValue(w.Parts, false); ok {
		return r.add(out, Word{Value: v, Source: src})
	}
	if r.keep == nil && !r.general {
		if v, ok := holedValue(w.Parts); ok {
			return r.add(out, Word{Value: v, Source: src})
		}
	}
	// For a POSIX shell, "{" is quoted: expand would brace-expand.
	parts, _, whole, err := prepParts(w.Parts, posix, r.keep, r.realCat)
	if err != nil {
		return out, err
	}
	if whole {
		return r.add(out, Word{Value: Hole, Source: src})
	}
	word := &syntax.Word{Parts: parts}
	if posix {
		// A POSIX shell (dash) has no brace expansion, and no tilde
		// expansion in assignment-like arguments.
		return r.expandOne(parts, src, out, false)
	}
	if !syntax.SplitBraces(word) {
		return r.expandOne(parts, src, out, true)
	}
	return r.braceFields(word, src, out)
}

// braceFields expands each word of a brace expansion. It is apart from
// fields so that the common path allocates no closure.
func (r *resolver) braceFields(word *syntax.Word, src string, out []Word) ([]Word, error) {
	var err error
	for bw, berr := range expand.BracesSeq(&r.cfg, word) {
		if berr != nil {
			return out, berr
		}
		if r.budget.braceWords++; r.budget.braceWords > maxBraceWords {
			return out, errBudget
		}
		if out, err = r.expandOne(normalizeLits(bw.Parts), src, out, true); err != nil {
			return out, err
		}
	}
	return out, nil
}

// simpleValue is the fast path for the common word made of plain literals
// and quotes only, where quote removal is concatenation: no backslash, no
// tilde, no expansion, and (unless literal) no glob or brace character.
// ok is false when the word needs expand.
func simpleValue(parts []syntax.WordPart, literal bool) (string, bool) {
	plain := func(s string, quoted bool) bool {
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '\\':
				return false
			case '~', '*', '?', '[', '{':
				if !quoted && (s[i] == '~' || !literal) {
					return false
				}
			}
		}
		return true
	}
	if len(parts) == 0 {
		return "", false
	}
	if len(parts) == 1 {
		switch p := parts[0].(type) {
		case *syntax.Lit:
			return p.Value, plain(p.Value, false)
		case *syntax.SglQuoted:
			return p.Value, !p.Dollar
		}
	}
	// The value is built only from a second piece on: a word of one
	// piece ("text", a"") is that piece's text, with no allocation.
	var b strings.Builder
	one, pieces := "", 0
	add := func(s string) {
		switch pieces {
		case 0:
			one = s
		case 1:
			b.WriteString(one)
			fallthrough
		default:
			b.WriteString(s)
		}
		pieces++
	}
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !plain(p.Value, false) {
				return "", false
			}
			add(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			add(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok || !plain(l.Value, true) {
					return "", false
				}
				add(l.Value)
			}
		default:
			return "", false
		}
	}
	if pieces < 2 {
		return one, true
	}
	return b.String(), true
}

// holedValue is the fast path for a word of plain literals, quotes and
// run-time parts ("$f", x$(y), "${a[@]}", the "[" of a test command):
// the value prepParts and expand give it, each run-time part a Hole and
// quote removal a concatenation, computed without either. ok is false
// for a word that needs them: a backslash, a tilde, "*", "?" or a brace
// outside quotes, an unquoted "[" with a "]" anywhere in the word (a
// bracket expression to pattern.HasMeta), a $'…' or $"…", a prompt
// expansion ${x@P}, an extended glob or any other part. It is only right
// where no parameter expansion is kept (resolver.keep is nil); fields and
// literal resolve such a word alike, as neither brace expansion, tilde
// expansion nor globbing applies to it. TestHoledValueMatchesExpand,
// TestFastPathsMatchGeneral and FuzzFastPaths compare it with expand.
func holedValue(parts []syntax.WordPart) (string, bool) {
	n := 0
	open, closed := false, false // an unquoted "[", a "]" anywhere
	// one is the text of the last piece that is not empty; a value that
	// is all of it ("$f", "x") is that text, with no allocation.
	one := ""
	add := func(s string) {
		n += len(s)
		if s != "" {
			one = s
		}
	}
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !plainUnquoted(p.Value) {
				return "", false
			}
			open = open || strings.IndexByte(p.Value, '[') >= 0
			closed = closed || strings.IndexByte(p.Value, ']') >= 0
			add(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			closed = closed || strings.IndexByte(p.Value, ']') >= 0
			add(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					if strings.IndexByte(q.Value, '\\') >= 0 {
						return "", false
					}
					closed = closed || strings.IndexByte(q.Value, ']') >= 0
					add(q.Value)
				case *syntax.ParamExp:
					if promptExp(q) {
						return "", false
					}
					add(Hole)
				case *syntax.CmdSubst:
					if _, ok := heredocCat(q); ok {
						return "", false // its text may be its value: see prepParts
					}
					add(Hole)
				case *syntax.ArithmExp:
					add(Hole)
				default:
					return "", false
				}
			}
		case *syntax.ParamExp:
			if promptExp(p) {
				return "", false
			}
			add(Hole)
		case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			add(Hole)
		default:
			return "", false
		}
	}
	if len(parts) == 0 || (open && closed) {
		return "", false
	}
	if len(one) == n {
		return one, true
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteString(Hole)
				}
			}
		default:
			b.WriteString(Hole)
		}
	}
	return b.String(), true
}

// plainUnquoted reports an unquoted literal that quote removal leaves as
// it is and that no expansion touches: no backslash, tilde, "*", "?" or
// brace. A "[" is a glob only with a "]" after it (pattern.HasMeta), which
// holedValue checks on the whole word: "[" of a test command is plain.
func plainUnquoted(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '~', '*', '?', '{':
			return false
		}
	}
	return true
}

// expandOne expands a word that has no brace expansion left; assignLike
// does bash's tilde expansion after "=" and ":" of an assignment-like word.
func (r *resolver) expandOne(parts []syntax.WordPart, src string, out []Word, assignLike bool) ([]Word, error) {
	if len(parts) == 0 {
		return out, nil // an empty unquoted word from {,x} is removed
	}
	if v, ok := simpleValue(parts, false); ok {
		return r.add(out, Word{Value: v, Source: src})
	}
	if globs(parts) {
		// Globbing replaces the word with file names that all begin with
		// its literal text before the first pattern character: keep that
		// prefix, so that `cat ~/.ssh/*` is seen to name something under
		// ~/.ssh.
		return r.globWord(parts, src, out)
	}
	if lit, ok := firstLit(parts); ok && assignLike {
		if n := assignPrefixLen(lit); n > 0 {
			parts = assignTilde(parts, n, r.home)
		}
	}
	return r.expandFields(&syntax.Word{Parts: parts}, src, out)
}

// globWord resolves a word bash would glob: its literal prefix (after
// quote removal, up to the first '*', '?' or '[') followed by a Hole. A
// brace expansion or a prefix that does not resolve to one field gives a
// whole Hole.
func (r *resolver) globWord(parts []syntax.WordPart, src string, out []Word) (_ []Word, err error) {
	defer func() {
		// expand panics on some bracket expressions it cannot turn into
		// a regular expression ([0-'*']); bash matches no file with
		// them. The word is then only known at run time.
		if p := recover(); p != nil {
			r.globbed = false
			out, err = r.add(out, Word{Value: Hole, Source: src})
		}
	}()
	var fields []string
	r.globbed = false
	for f, err := range expand.FieldsSeq(&r.cfg, &syntax.Word{Parts: parts}) {
		if err != nil {
			return r.add(out, Word{Value: Hole, Source: src})
		}
		fields = append(fields, f)
	}
	r.globbed = false
	if len(fields) != 1 {
		return r.add(out, Word{Value: Hole, Source: src})
	}
	return r.add(out, Word{Value: globShape(fields[0]), Source: src})
}

// globShape is a glob pattern as the names it matches are seen: each "*",
// "?" and bracket expression a Hole, the literal text kept, so that what
// the glob aims at stays visible ($HOME/.ssh/id_rs? is …/.ssh/id_rs…).
// A pattern without a literal part is a whole Hole.
func globShape(p string) string {
	var b strings.Builder
	hole := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*' || c == '?' || c == Hole[0]:
		case c == '[':
			end := bracketEnd(p, i)
			if end < 0 {
				b.WriteByte(c) // no bracket expression: a literal "["
				hole = false
				continue
			}
			i = end
		default:
			b.WriteByte(c)
			hole = false
			continue
		}
		if !hole {
			b.WriteString(Hole)
			hole = true
		}
	}
	return b.String()
}

// bracketEnd returns the index in p of the "]" that ends the bracket
// expression opening at p[i] ("["), as bash reads one: after an optional
// "!" or "^", a "]" first is a member, and "[:class:]", "[=c=]" and
// "[.c.]" hold their own "]" (`[[:alpha:]]`, `[]x]`, `[!]]`); -1 when
// none ends it (the "[" is then literal).
func bracketEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) {
		switch {
		case p[j] == ']':
			return j
		case p[j] == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '=' || p[j+1] == '.'):
			close := strings.Index(p[j+2:], string(p[j+1])+"]")
			if close < 0 {
				j++
				continue
			}
			j += 2 + close + 2
		default:
			j++
		}
	}
	return -1
}

// expandFields runs expand.FieldsSeq on a prepared word.
func (r *resolver) expandFields(word *syntax.Word, src string, out []Word) ([]Word, error) {
	r.globbed = false
	var err error
	for s, ferr := range expand.FieldsSeq(&r.cfg, word) {
		if ferr != nil {
			return out, ferr
		}
		if r.globbed {
			s, r.globbed = Hole, false
		}
		if out, err = r.add(out, Word{Value: s, Source: src}); err != nil {
			return out, err
		}
	}
	return out, nil
}

// globs reports whether bash would glob the word: whether it has a
// pattern character outside quotes (a backslash-escaped one is quoted),
// with the same test expand uses (pattern.HasMeta on the word with its
// quoted parts escaped). Checking here spares expand compiling a pattern
// for a word that becomes a Hole anyway; the ReadDir2 hook stays as a
// backstop.
func globs(parts []syntax.WordPart) bool {
	candidate := false
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(l.Value, "*?[") {
			candidate = true
			break
		}
	}
	if !candidate {
		return false
	}
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(pattern.QuoteMeta(p.Value, 0))
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(pattern.QuoteMeta(l.Value, 0))
				} else {
					b.WriteString(Hole)
				}
			}
		default:
			b.WriteString(Hole)
		}
	}
	return pattern.HasMeta(b.String(), 0)
}

// normalizeLits merges adjacent literals of a brace-expanded word (so that
// a tilde prefix is whole again), drops empty ones, and quotes the "{" left
// in them so that expand does not brace-expand a second time.
func normalizeLits(parts []syntax.WordPart) []syntax.WordPart {
	out := make([]syntax.WordPart, 0, len(parts))
	var acc strings.Builder
	inLit := false
	flush := func() {
		if inLit && acc.Len() > 0 {
			l := &syntax.Lit{Value: acc.String()}
			if strings.IndexByte(l.Value, '{') >= 0 {
				out = append(out, quoteBraces(l)...)
			} else {
				out = append(out, l)
			}
		}
		acc.Reset()
		inLit = false
	}
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok {
			acc.WriteString(l.Value)
			inLit = true
			continue
		}
		flush()
		out = append(out, p)
	}
	flush()
	return out
}

// literal resolves w where bash does quote removal and tilde expansion but no
// brace expansion, word splitting or globbing: assignment values, [[
// operands, here-strings, case words. assign marks an assignment value
// (tilde expansion after ":" too).
func (r *resolver) literal(w *syntax.Word, assign bool) (string, error) {
	if w == nil {
		return "", nil
	}
	if v, ok := simpleValue(w.Parts, true); ok {
		return v, r.budget.spend(0, len(v))
	}
	if r.keep == nil && !r.general {
		if v, ok := holedValue(w.Parts); ok {
			return v, r.budget.spend(0, len(v))
		}
	}
	parts, _, whole, err := prepParts(w.Parts, true, r.keep, r.realCat)
	if err != nil {
		return "", err
	}
	if whole {
		return Hole, nil
	}
	if assign {
		if _, ok := firstLit(parts); ok {
			parts = assignTilde(parts, 0, r.home)
		}
	}
	word := syntax.Word{Parts: parts}
	var sb strings.Builder
	for s, err := range expand.FieldsSeq(&r.cfg, &word) {
		if err != nil {
			return "", err
		}
		sb.WriteString(s) // static parts never split; at most one field
	}
	r.globbed = false
	v := sb.String()
	if err := r.budget.spend(0, len(v)); err != nil {
		return "", err
	}
	return v, nil
}

// document resolves an unquoted here-document body as bash does (only \$,
// \`, \\ and \newline are escapes); run-time parts are Holes.
func (r *resolver) document(w *syntax.Word) (string, error) {
	if w == nil {
		return "", nil
	}
	parts, _, whole, err := prepParts(w.Parts, false, nil, nil)
	if err != nil {
		return "", err
	}
	if whole {
		return Hole, nil
	}
	return expand.Document(&r.cfg, &syntax.Word{Parts: parts})
}

func (r *resolver) add(out []Word, w Word) ([]Word, error) {
	if err := r.budget.spend(1, len(w.Value)); err != nil {
		return out, err
	}
	return append(out, w), nil
}

func firstLit(parts []syntax.WordPart) (string, bool) {
	if len(parts) == 0 {
		return "", false
	}
	l, ok := parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return l.Value, true
}

// ansiC decodes the body of a $'…' word as bash 5.2 does (lib/sh/strtrans.c,
// ansicstr): \a \b \e \E \f \n \r \t \v \\ \' \" \?, \nnn (one to
// three octal digits, the value taken modulo 256), \xHH (one or two hex
// digits; \x{H…} takes any number of them up to an optional "}", modulo
// 256), \uHHHH and \UHHHHHHHH (one to four or eight hex digits), \cX (the
// control character of X: X&0x1f, "?" gives DEL, and "\c\\" consumes both
// backslashes); any other backslash stays with the character after it. Like
// bash, the value ends at the first NUL it produces. expand.Format misses
// some of these (\cX, \x{…}), so the decoding is done here.
//
// ok is false for what is not the same in every locale: a \u or \U
// escape above U+007F is UTF-8 in a UTF-8 locale (as here) but the escape
// itself in the C locale; for a surrogate or a value above U+10FFFF even
// the UTF-8 locales differ from UTF-8, so those are refused.
func ansiC(s string) (v string, ok bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '7' {
				v = v*8 + int(s[i+n]-'0')
				n++
			}
			b.WriteByte(byte(v))
			i += n - 1
		case 'x':
			j := i + 1
			brace := j < len(s) && s[j] == '{'
			if brace {
				j++
			}
			var v uint
			n := 0
			for j < len(s) && isHex(s[j]) && (brace || n < 2) {
				v = v*16 + uint(hexVal(s[j]))
				j++
				n++
			}
			if brace {
				if j < len(s) && s[j] == '}' {
					j++
				}
			} else if n == 0 {
				b.WriteString("\\x")
				continue
			}
			b.WriteByte(byte(v))
			i = j - 1
		case 'u', 'U':
			maxDigits := 4
			if e == 'U' {
				maxDigits = 8
			}
			v, n := 0, 0
			for n < maxDigits && i+1+n < len(s) && isHex(s[i+1+n]) {
				v = v*16 + hexVal(s[i+1+n])
				n++
			}
			i += n
			switch {
			case n == 0:
				b.WriteByte('\\')
				b.WriteByte(e)
			case v <= 0x7f:
				b.WriteByte(byte(v))
			case v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff):
				return "", false
			default:
				b.WriteRune(rune(v))
			}
		case 'c':
			if i+1 >= len(s) {
				b.WriteString("\\c")
				continue
			}
			i++
			nc := s[i]
			switch {
			case nc == '?':
				b.WriteByte(0x7f)
			case nc == '\\' && i+1 < len(s) && s[i+1] == '\\':
				i++
				b.WriteByte(0x1c)
			default:
				b.WriteByte(nc & 0x1f)
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	v = b.String()
	if i := strings.IndexByte(v, 0); i >= 0 {
		v = v[:i]
	}
	return v, true
}

func isHex(b byte) bool { return isDigit(b) || (b|0x20 >= 'a' && b|0x20 <= 'f') }

func hexVal(b byte) int {
	if isDigit(b) {
		return int(b - '0')
	}
	return int(b|0x20-'a') + 10
}

// heredocCats returns parts (the parts of a double-quoted string) with
// each "$(cat <<'EOF' … EOF)" heredocCat reads replaced by its text, single
// quoted, when realCat says cat is the program; changed reports a
// replacement (parts itself is never modified).
func heredocCats(parts []syntax.WordPart, realCat func() bool) (out []syntax.WordPart, changed bool) {
	out = parts
	for i, p := range parts {
		cs, ok := p.(*syntax.CmdSubst)
		if !ok {
			continue
		}
		text, ok := heredocCat(cs)
		if !ok || !realCat() {
			continue
		}
		if !changed {
			out, changed = slices.Clone(parts), true
		}
		out[i] = &syntax.SglQuoted{Value: text}
	}
	return out, changed
}

// heredocCat returns the output of a command substitution that only runs
// cat on a here-document whose text has no expansion — the way agents
// write a commit message: git commit -m "$(cat <<'EOF' … EOF)". Bash's
// value is the document's text without its trailing newlines. ok is false
// for anything else: more than one command, other words, assignments or
// redirections, backquotes, `<<-`, a document with an expansion, or, when
// the delimiter is unquoted, with a backslash (an escape there).
//
// Inside double quotes the value is one field, as the text is. Whether cat
// is the program cat is the caller's question (resolver.realCat).
func heredocCat(cs *syntax.CmdSubst) (string, bool) {
	if cs.Backquotes || len(cs.Stmts) != 1 {
		return "", false
	}
	st := cs.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) != 1 {
		return "", false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) != 0 || len(call.Args) != 1 || len(call.Args[0].Parts) != 1 {
		return "", false
	}
	if l, ok := call.Args[0].Parts[0].(*syntax.Lit); !ok || l.Value != "cat" {
		return "", false
	}
	rd := st.Redirs[0]
	if rd.Op != syntax.Hdoc || rd.N != nil || rd.Word == nil || rd.Hdoc == nil {
		return "", false
	}
	quoted := false
	for _, p := range rd.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			quoted = quoted || strings.IndexByte(p.Value, '\\') >= 0
		default:
			return "", false
		}
	}
	var b strings.Builder
	for _, p := range rd.Hdoc.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok || (!quoted && strings.IndexByte(l.Value, '\\') >= 0) {
			return "", false
		}
		b.WriteString(l.Value)
	}
	return strings.TrimRight(b.String(), "\n"), true
}
