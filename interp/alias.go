package interp

import (
	"encoding/json"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases.
//
// bash replaces a command's first word by an alias's value when
// expand_aliases is on (always in an interactive shell; in a script after
// `shopt -s expand_aliases`, which agents' shell snapshots run) and the
// alias was defined on an earlier line. The analysis cannot tell for sure
// whether the option is on where the command runs, so a command whose
// first word is an unquoted alias name defined earlier (in the text or in a
// sourced file) is read both ways: as written (its own segment, decided as
// always) and with the alias expanded (segments with Via "alias NAME"),
// and both readings are decided. An alias value ending in a blank expands
// the next word too, as in bash. A value is also analysed where the alias
// is defined (see payloads).

// defineAlias records alias name=value; a value with a run-time part
// forgets the name. redefined reports a name that had another value:
// bash expands with the value in force when it read the line (a line, or
// a whole compound command, is read before any of it runs; a definition
// in a subshell or after a false && never takes effect), which the
// analysis does not track, so the caller refuses the text.
func (a *analyzer) defineAlias(name, value string) (redefined bool) {
	a.loadAliases() // a later definition wins over a cached one
	if old, ok := a.aliases[name]; ok && old != value {
		redefined = true
	}
	if strings.Contains(value, Hole) || strings.Contains(name, Hole) {
		delete(a.aliases, name)
		return redefined
	}
	if a.aliases == nil {
		a.aliases = map[string]string{}
	}
	a.aliases[name] = value
	return redefined
}

// isAlias reports a name the analysis knows as an alias.
func (a *analyzer) isAlias(name string) bool {
	if _, p := a.pendingAliases[name]; p {
		return true
	}
	_, ok := a.aliases[name]
	return ok
}

// aliasAt refuses word w, in a place where bash expands an alias (a
// function definition's name, a declaration builtin, let, coproc's
// name) that the analysis reads literally, when it names a known alias.
func (a *analyzer) aliasAt(name string, pos syntax.Pos, f *frame) bool {
	if (a.aliases == nil && a.pendingAliases == nil) || !a.isAlias(name) {
		return false
	}
	a.fail(f, pos, "alias "+name+" where bash expands it and the analysis reads the word as written (a function's name, a declaration builtin, let, coproc's name)")
	return true
}

// aliasName returns the name a command word would be looked up by as an
// alias: the word must be one unquoted literal without escapes.
func aliasName(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, "\\$`'\"") {
		return "", false
	}
	return l.Value, true
}

// expandAlias analyses call c with its first word replaced by that alias's
// value (and following words too, while a value ends in a blank).
func (a *analyzer) expandAlias(c *syntax.CallExpr, s *syntax.Stmt, f *frame) {
	name, ok := aliasName(c.Args[0])
	if !ok {
		return
	}
	if _, ok := a.pendingAliases[name]; ok {
		a.loadAliases()
	}
	value, ok := a.aliases[name]
	if !ok || a.expanding[name] {
		return
	}
	if value == Hole {
		a.fail(f, c.Pos(), "alias "+name+" was defined in a way the analysis did not see: its value is not known")
		return
	}
	var b strings.Builder
	b.WriteString(value)
	rest := c.Args[1:]
	// bash substitutes the alias in the text: what follows the alias's
	// word, redirections included, is read after the value (an attack
	// run's alias ending in an open quote swallowed a here-string that
	// the command had, and with it a hidden command).
	start := int(c.Args[0].End().Offset())
	for strings.HasSuffix(value, " ") || strings.HasSuffix(value, "\t") {
		if len(rest) == 0 {
			break
		}
		n, ok := aliasName(rest[0])
		if _, p := a.pendingAliases[n]; p {
			a.loadAliases()
		}
		v, defined := a.aliases[n]
		if !ok || !defined || a.expanding[n] {
			break
		}
		b.WriteString(v)
		start = int(rest[0].End().Offset())
		value, rest = v, rest[1:]
	}
	end := start
	for _, w := range c.Args {
		end = max(end, int(w.End().Offset()))
	}
	for _, r := range s.Redirs {
		end = max(end, int(r.End().Offset()))
		if r.Hdoc != nil {
			a.fail(f, c.Pos(), "alias "+name+" on a command with a here-document: the analysis does not re-read the two together")
			return
		}
	}
	b.WriteString(f.span(start, end))
	if a.expanding == nil {
		a.expanding = map[string]bool{}
	}
	a.expanding[name] = true
	a.nested(b.String(), "alias "+name, int(c.Args[0].Pos().Offset()), f, false, f.posix)
	delete(a.expanding, name)
}

// loadAliases decodes the aliases loaded from a SourceCache entry but not
// yet needed (see sourceData). A cache entry that does not decode fails
// the analysis: it is not what guardsh wrote.
func (a *analyzer) loadAliases() {
	if len(a.pendingAliases) == 0 {
		return
	}
	seen := map[*byte]bool{}
	pending := a.pendingAliases
	a.pendingAliases = nil
	for _, raw := range pending {
		if len(raw) == 0 || seen[&raw[0]] {
			continue
		}
		seen[&raw[0]] = true
		var am map[string]string
		if json.Unmarshal(raw, &am) != nil {
			a.err = &NotUnderstood{Line: 1, Col: 1, Reason: "cached aliases of a sourced file do not decode; remove the cache directory"}
			return
		}
		for n, v := range am {
			if a.defineAlias(n, v) {
				a.err = &NotUnderstood{Line: 1, Col: 1, Reason: "alias " + n + " redefined with another value by a sourced file: bash expands the value in force when it reads a line, which the analysis does not follow"}
				return
			}
		}
	}
}

// AliasesDefined adds to into the aliases that the alias commands among
// segs define, for a script whose commands are analysed one at a time with
// no word from bash of what it did (a script read from stdin): it never
// forgets a name (an unalias may not run: `if false; then unalias ls; fi`),
// a name given another value gets Hole (its use is then not understood),
// and `builtin alias` and `command alias` count as alias. A definition
// with a run-time part makes its segment RunsCode, which the caller
// refuses; it is not recorded here.
func AliasesDefined(segs []Segment, into map[string]string) {
	for _, s := range segs {
		args := s.Args
		for len(args) > 1 && (args[0].Value == "builtin" || args[0].Value == "command") {
			args = args[1:]
			for len(args) > 1 && (args[0].Value == "-p" || args[0].Value == "--") {
				args = args[1:]
			}
		}
		if s.Kind != Exec || len(args) < 2 || args[0].Value != "alias" {
			continue
		}
		for _, w := range args[1:] {
			name, value, ok := strings.Cut(w.Value, "=")
			if !ok || name == "" || strings.Contains(w.Value, Hole) {
				continue
			}
			if old, known := into[name]; known && old != value {
				value = Hole
			}
			into[name] = value
		}
	}
}

// DefinedAliases adds to into the aliases that the alias commands among
// segs define (NAME=VALUE arguments fully known at analysis time), so that
// an interactive session can pass them to the analysis of later commands
// (Options.Aliases). A later definition of a name replaces an earlier one;
// unalias NAME removes NAME (unalias -a, or a name only known at run time,
// all of them).
func DefinedAliases(segs []Segment, into map[string]string) {
	for _, s := range segs {
		if s.Kind == Exec && len(s.Args) >= 2 && s.Args[0].Value == "unalias" {
			for _, w := range s.Args[1:] {
				switch {
				case w.Value == "-a" || strings.Contains(w.Value, Hole):
					clear(into)
				default:
					delete(into, w.Value)
				}
			}
			continue
		}
		if s.Kind != Exec || len(s.Args) < 2 || s.Args[0].Value != "alias" {
			continue
		}
		for _, w := range s.Args[1:] {
			name, value, ok := strings.Cut(w.Value, "=")
			if ok && name != "" && !strings.Contains(w.Value, Hole) {
				into[name] = value
			}
		}
	}
}

// DefinedFunctions updates into, a session's functions (name to body, for
// Options.Functions), with what text, a command that ran, defined:
// defined names the functions the shell has now (Report.Functions). A
// function text defines once, outside any function body, is added when
// defined has it; a name text defines more than once, or that defined
// lacks, is removed, as is every name an unset command anywhere in text
// names (all of them for a name only known at run time). sourced are the
// functions the files text sourced define (Options.SourcedFunctions),
// added the same way. A text that does not parse changes nothing but the
// removals.
func DefinedFunctions(text string, segs []Segment, sourced map[string]string, defined map[string]bool, into map[string]string) {
	for _, s := range segs {
		if s.Kind != Exec || len(s.Args) < 2 || s.Args[0].Value != "unset" {
			continue
		}
		for _, w := range s.Args[1:] {
			switch {
			case strings.Contains(w.Value, Hole):
				clear(into) // any of them
			case !strings.HasPrefix(w.Value, "-"):
				delete(into, w.Value)
			}
		}
	}
	for name := range into {
		if !defined[name] {
			// Gone in a way the text did not show (or a report that
			// lies): a call of the name is not understood.
			into[name] = Hole
		}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		f = &syntax.File{}
	}
	bodies := map[string]string{}
	twice := map[string]bool{}
	for name, body := range sourced {
		bodies[name] = body
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		fd, ok := n.(*syntax.FuncDecl)
		if !ok {
			return true
		}
		start, end := int(fd.Body.Pos().Offset()), int(fd.Body.End().Offset())
		if _, seen := bodies[fd.Name.Value]; seen || start < 0 || end > len(text) || start > end {
			twice[fd.Name.Value] = true
		}
		bodies[fd.Name.Value] = text[max(start, 0):max(min(end, len(text)), max(start, 0))]
		return false // a definition inside a body happens when it runs
	})
	for name, body := range bodies {
		switch {
		case twice[name] || !defined[name]:
			delete(into, name)
		default:
			into[name] = body
		}
	}
}
