package interp

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// assumptions are the values a command text gives its variables before it
// uses them (`CMD=curl; $CMD …`, `P=~/.ssh; cat $P/id_rsa`), with bash's
// own start-up values for IFS (bash never takes IFS from the environment)
// and HOME (Options.Home), and "unset" for a variable the text never
// assigns when it is used with a default (`${VAR:-rm}`).
//
// They may be wrong: an assignment in a branch not taken, a function that
// changes the variable, a variable set in the environment. So the analysis
// never relies on them to allow anything: a word using a variable is a
// Hole in Segment.Args as always, and a segment whose words change under
// the assumptions is emitted a second time, with the assumed values and
// Segment.Assumed saying what was assumed. A caller lets such a segment
// make the command stricter (a deny rule matches what would run if the
// assumptions hold), never looser.
type assumptions struct {
	vars map[string]string // static values assigned earlier in the text
	home string
	// env gives the value of a variable of the environment bash starts
	// with, where that is certain (analyzer.envValue); nil: none.
	env  func(name string) (string, bool)
	used map[string]string // what the expansion in progress assumed: name → value or "unset"
}

// Get implements expand.Environ for the assumed values.
func (as *assumptions) Get(name string) expand.Variable {
	if v, ok := as.vars[name]; ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: v}
	}
	if as.env != nil {
		if v, ok := as.env(name); ok {
			return expand.Variable{Set: true, Kind: expand.String, Str: v}
		}
	}
	switch {
	case name == "IFS":
		return expand.Variable{Set: true, Kind: expand.String, Str: " \t\n"}
	case name == "HOME":
		return tildeEnv{home: as.home}.Get(name)
	case strings.HasPrefix(name, "HOME "), name == "PWD", name == "OLDPWD":
		return expand.Variable{Set: true, Kind: expand.String, Str: Hole}
	}
	return expand.Variable{}
}

// Each implements expand.Environ; expand only calls it for ${!prefix*},
// which is never kept.
func (as *assumptions) Each(func(string, expand.Variable) bool) {}

// keep says whether parameter expansion p can take an assumed value: $NAME
// or ${NAME} of a variable assigned earlier (or IFS, or HOME), or
// ${NAME-word} / ${NAME:-word} with a static word. It records what it
// assumed in as.used.
func (as *assumptions) keep(p *syntax.ParamExp) bool {
	name, used, ok := as.keepable(p)
	if ok {
		as.used[name] = used
	}
	return ok
}

// keepable is keep without the record: the variable's name and what is
// assumed of it (its value, "its default" or "unset").
func (as *assumptions) keepable(p *syntax.ParamExp) (name, used string, ok bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		return "", "", false
	}
	name = p.Param.Value
	if !isName(name) {
		return "", "", false // $1, $@, $?, $$ …: only known at run time
	}
	v, known := as.vars[name]
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		default:
			return "", "", false
		}
		if p.Exp.Word != nil {
			// Only a plain word: quotes in it differ between bash and
			// expand inside double quotes.
			if len(p.Exp.Word.Parts) != 1 {
				return "", "", false
			}
			l, ok := p.Exp.Word.Parts[0].(*syntax.Lit)
			if !ok {
				return "", "", false
			}
			if _, static := simpleValue([]syntax.WordPart{l}, false); !static {
				return "", "", false
			}
		}
	}
	switch {
	case known:
		return name, v, true
	case name == "IFS":
		return name, "its default", true
	case name == "HOME" && as.home != "":
		return name, as.home, true
	case as.env != nil:
		if v, ok := as.env(name); ok {
			return name, v, true
		}
	}
	switch {
	case p.Exp != nil:
		return name, "unset", true
	}
	return "", "", false
}

// mayKeep reports whether a parameter expansion among parts (or inside
// their double quotes, where prepParts looks) is one keep would keep:
// when none is, resolving the words with the assumptions records nothing
// and changes nothing.
func (as *assumptions) mayKeep(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if _, _, ok := as.keepable(p); ok {
				return true
			}
		case *syntax.DblQuoted:
			if as.mayKeep(p.Parts) {
				return true
			}
		}
	}
	return false
}

// describe renders as.used for Segment.Assumed: "CMD=curl, VAR unset".
func (as *assumptions) describe() string {
	names := make([]string, 0, len(as.used))
	for n := range as.used {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		switch v := as.used[n]; v {
		case "unset":
			parts[i] = n + " unset"
		case "its default":
			parts[i] = n + " at its default"
		default:
			parts[i] = n + "=" + strings.ReplaceAll(v, Hole, "…")
		}
	}
	return strings.Join(parts, ", ")
}

// assign records NAME=value of a plain assignment run before later words:
// a static value is assumed from here on, any other value forgets it.
func (as *assumptions) assign(name, value string) {
	if strings.Contains(value, Hole) {
		delete(as.vars, name)
		return
	}
	if as.vars == nil {
		as.vars = map[string]string{}
	}
	as.vars[name] = value
}

func isName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '_' && !isAlpha(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}
