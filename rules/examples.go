package rules

import (
	"fmt"
	"path"
	"strings"

	"gopkg.in/yaml.v3"
)

// checkExamples checks a rule's match: and not_match: examples against its
// pattern, so that a policy file tests itself when it loads. A shell (or
// readonly) example is one simple command, split into words as the shell
// would (single and double quotes, backslashes) and matched joined by
// single spaces, the way segments are; anything a simple command cannot
// hold (`;`, `|`, `&`, `<`, `>`, `(`, `)`, `$`, a backquote) is an error,
// since the example would not be one segment. A write or read example is a
// path matched as written, so it is written in the pattern's form: "~/…",
// absolute, or relative to the workspace. An example that does not match
// (match:) or that matches (not_match:) is a *ConfigError at its line.
func (ps *parser) checkExamples(section, pattern, at string, match, notMatch []*yaml.Node) error {
	shell := section == "shell" || section == "readonly"
	g := compileGlob(pattern, shell)
	for _, e := range append(append([]*yaml.Node(nil), match...), notMatch...) {
		want := len(match) > 0 && containsNode(match, e)
		subject := e.Value
		if shell {
			words, err := splitExample(e.Value)
			if err != nil {
				return ps.errorf(e, "%s: example %q: %v", at, e.Value, err)
			}
			subject = strings.Join(words, " ")
		} else if subject != "" && subject != "~" {
			trailing := strings.HasSuffix(subject, "/") && subject != "/"
			subject = path.Clean(subject)
			if trailing {
				subject += "/"
			}
		}
		if got := g.match(subject); got != want {
			if want {
				return ps.errorf(e, "%s: pattern %q does not match its example %q (match:)", at, pattern, e.Value)
			}
			return ps.errorf(e, "%s: pattern %q matches %q, which it must not (not_match:)", at, pattern, e.Value)
		}
	}
	return nil
}

func containsNode(ns []*yaml.Node, n *yaml.Node) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

// splitExample splits a simple command into words: white space separates,
// single quotes keep everything literal, double quotes keep everything but
// `\"` and `\\` literal, a backslash outside quotes escapes the next byte.
// It rejects what would make the text more than one literal simple command.
func splitExample(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '$' || s[i] == '`':
					return nil, fmt.Errorf("%q inside double quotes is expanded by the shell; an example is literal", s[i])
				case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case strings.IndexByte(";|&<>()$`\n", c) >= 0:
			return nil, fmt.Errorf("%q is shell syntax; an example is one literal simple command", c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	return words, nil
}
