package importer

import (
	"strings"
)

// Shell patterns. Claude Code, Gemini CLI and opencode match a rule against
// the command as the agent wrote it; guardsh matches each simple command as
// its words after the shell has parsed, quoted and expanded them, joined by
// single spaces (rules/pattern.go). The two agree on plain words, so those
// convert with their runs of blanks collapsed; shell syntax in a pattern
// (operators, quotes, expansions, globs, assignments) would be matched
// differently, so such a pattern is reported rather than guessed at.

// shellPattern returns s, a command pattern of a source, as a guardsh shell
// pattern: blanks collapsed, leading and trailing ones dropped. starIsWild
// says the source reads '*' as a wildcard, as guardsh does; otherwise a '*'
// is literal text guardsh cannot spell. why is not empty when s cannot be
// converted.
func shellPattern(s string, starIsWild bool) (pat, why string) {
	if strings.ContainsAny(s, "\n\r") {
		return "", "spans lines, and guardsh decides each command of a line on its own"
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "", "contains a NUL byte"
	}
	pat = strings.Join(strings.Fields(s), " ")
	if pat == "" {
		return "", "is an empty command"
	}
	if !starIsWild && strings.Contains(pat, "*") {
		return "", "contains *, which is literal text there but a wildcard to guardsh"
	}
	if what := shellSyntax(pat); what != "" {
		return "", "contains " + what + ", which guardsh would match differently: it matches a command's words after the shell has parsed, unquoted and expanded them"
	}
	return pat, ""
}

// shellSyntax names the first piece of shell syntax in the blank-separated
// pattern p, or returns "".
func shellSyntax(p string) string {
	if i := strings.IndexAny(p, "|&;<>()"); i >= 0 {
		return "the shell operator " + quoteChar(p[i])
	}
	if i := strings.IndexAny(p, "$`"); i >= 0 {
		return "the expansion " + quoteChar(p[i])
	}
	if i := strings.IndexAny(p, `'"\`); i >= 0 {
		return "the quoting " + quoteChar(p[i])
	}
	for i, w := range strings.Split(p, " ") {
		switch {
		case i == 0 && isAssignment(w):
			return "the variable assignment " + w
		case strings.HasPrefix(w, "#"):
			return "a comment"
		case strings.Contains(w, "?") || strings.Contains(w, "[") && strings.Contains(w[strings.Index(w, "["):], "]"):
			return "the glob " + w
		case isBraceExpansion(w):
			return "the brace expansion " + w
		}
	}
	return ""
}

func quoteChar(c byte) string { return "'" + string(c) + "'" }

// isAssignment reports whether w is NAME=value, which the shell takes as an
// assignment rather than the command's first word.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c != '_' && !('a' <= c && c <= 'z') && !('A' <= c && c <= 'Z') && (i == 0 || !('0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}

// isBraceExpansion reports whether w holds {a,b} or {1..3}, which bash
// expands into several words.
func isBraceExpansion(w string) bool {
	i := strings.IndexByte(w, '{')
	if i < 0 {
		return false
	}
	j := strings.IndexByte(w[i:], '}')
	if j < 0 {
		return false
	}
	in := w[i+1 : i+j]
	return strings.Contains(in, ",") || strings.Contains(in, "..")
}

// matchesEverything reports whether guardsh shell pattern p matches every
// command: it is made of stars and blanks only.
func matchesEverything(p string) bool {
	return strings.Trim(p, "* ") == "" && strings.Contains(p, "*")
}

// prefixPattern returns the guardsh pattern for a command prefix given as
// guardsh-ready text: "git push" becomes "git push *", which matches
// `git push` alone and with arguments.
func prefixPattern(p string) string { return p + " *" }

// tokenWhy returns why an argv word of a source that matches words (Codex)
// cannot be part of a guardsh pattern, or "". Words are joined by single
// spaces in guardsh, so a word holding white space would also match as
// several words; '*' is a wildcard there.
func tokenWhy(w string) string {
	switch {
	case w == "":
		return "has an empty word, which guardsh cannot spell"
	case strings.IndexByte(w, 0) >= 0:
		return "has a word with a NUL byte"
	case strings.ContainsAny(w, " \t\n\r\v\f"):
		return "has the word " + quoteWord(w) + " with white space in it; guardsh joins words with single spaces, so it would also match them as separate words"
	case strings.Contains(w, "*"):
		return "has the word " + quoteWord(w) + " with a *, which is literal there but a wildcard to guardsh"
	}
	return ""
}

func quoteWord(w string) string { return `"` + w + `"` }
