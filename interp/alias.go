package interp

import (
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
// forgets the name.
func (a *analyzer) defineAlias(name, value string) {
	if strings.Contains(value, Hole) || strings.Contains(name, Hole) {
		delete(a.aliases, name)
		return
	}
	if a.aliases == nil {
		a.aliases = map[string]string{}
	}
	a.aliases[name] = value
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
func (a *analyzer) expandAlias(c *syntax.CallExpr, f *frame) {
	name, ok := aliasName(c.Args[0])
	if !ok {
		return
	}
	value, ok := a.aliases[name]
	if !ok || a.expanding[name] {
		return
	}
	var b strings.Builder
	b.WriteString(value)
	rest := c.Args[1:]
	for strings.HasSuffix(value, " ") || strings.HasSuffix(value, "\t") {
		if len(rest) == 0 {
			break
		}
		n, ok := aliasName(rest[0])
		v, defined := a.aliases[n]
		if !ok || !defined || a.expanding[n] {
			break
		}
		b.WriteString(v)
		value, rest = v, rest[1:]
	}
	for _, w := range rest {
		b.WriteString(" ")
		b.WriteString(f.text(w))
	}
	if a.expanding == nil {
		a.expanding = map[string]bool{}
	}
	a.expanding[name] = true
	a.nested(b.String(), "alias "+name, int(c.Args[0].Pos().Offset()), f, false, f.posix)
	delete(a.expanding, name)
}
