package prompt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// Request is one command put to a human: what it is, where, and which of
// its segments need approval. An approval is bound to Command, Cwd and
// Session exactly.
type Request struct {
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	// Session is the requesting session ($GUARDSH_SESSION, else the
	// agent's process id as "ppid:N").
	Session string `json:"session"`
	Items   []Item `json:"segments"`
	// NotUnderstood is set when the command could not be analysed: a
	// human may allow it once, nothing is remembered, and headless
	// "allow" does not apply.
	NotUnderstood string `json:"not_understood,omitempty"`
	// Agent is the pid of the process that started the asking guardsh,
	// set for the tmux popup (whose server must be older).
	Agent int `json:"agent,omitempty"`
}

// Item is one segment that needs approval.
type Item struct {
	// Text is the segment as people read it.
	Text   string `json:"text"`
	Kind   string `json:"kind"`
	Class  string `json:"class"`
	Reason string `json:"reason"`
	// Rule is the ask rule that sent it here as `"PATTERN" (FILE:LINE)`;
	// empty when the mode or class did.
	Rule string `json:"rule,omitempty"`
	// Exact is the allow pattern that matches exactly this segment's argv
	// (shell rules); empty when none can be written (a run-time word, a
	// '*' in a word, not a command).
	Exact string `json:"exact,omitempty"`
	// Prefix is the proposed program/subcommand prefix pattern ("git
	// push *"); empty when Exact is.
	Prefix string `json:"prefix,omitempty"`
	// Words is the segment's argv when Exact is set.
	Words []string `json:"words,omitempty"`
}

// NewRequest describes the segments of o that need approval. cwd and
// session bind the approval.
func NewRequest(o guard.Outcome, command, cwd, session string) Request {
	r := Request{Command: command, Cwd: cwd, Session: session}
	if o.Err != nil {
		r.NotUnderstood = o.Err.Error()
		return r
	}
	for _, c := range o.Segments {
		if c.Verdict.Decision != rules.Ask {
			continue
		}
		it := Item{Text: c.Segment.String(), Kind: string(c.Segment.Kind), Class: string(c.Verdict.Class), Reason: c.Verdict.Reason}
		if rl := c.Verdict.Rule; rl != nil && rl.Decision == rules.Ask {
			it.Rule = fmt.Sprintf("%q (%s)", rl.Pattern, rl.Source())
		}
		if c.Segment.Kind == interp.Exec && c.Verdict.Protected == "" {
			if words, ok := literalArgv(c.Segment); ok && !readsCodeFromStdin(words) {
				it.Words = words
				it.Exact = strings.Join(words, " ")
				it.Prefix = ProposePrefix(words)
				if runsCode(base(words[0])) {
					// `python3 *` or `bash *` would allow any code.
					it.Prefix = it.Exact
				}
			}
		}
		r.Items = append(r.Items, it)
	}
	return r
}

// literalArgv is seg's argv when every word is known before it runs and
// none holds '*' (which a pattern cannot write literally) or a control
// character.
func literalArgv(seg interp.Segment) ([]string, bool) {
	if len(seg.Args) == 0 || len(seg.Assigns) > 0 {
		return nil, false
	}
	words := seg.Argv()
	for i, w := range words {
		if seg.Args[i].Dynamic() || w == "" || strings.ContainsAny(w, "* \t") || Visible(w) != w {
			return nil, false
		}
	}
	return words, true
}

// ProposePrefix proposes a program/subcommand prefix pattern for argv:
// "W0 W1 *" when W1 looks like a subcommand (letters, digits, '-', '_',
// '.', ':' and not starting with '-'), "W0 *" for a lone program, and
// the exact command when W1 is an option (`rm -f x` must not propose
// `rm *`; an attack run's find). The human may edit it (see CheckPrefix).
func ProposePrefix(argv []string) string {
	switch {
	case len(argv) > 1 && subcommand(argv[1]):
		return argv[0] + " " + argv[1] + " *"
	case len(argv) == 1:
		return argv[0] + " *"
	}
	return strings.Join(argv, " ")
}

// runsCode: a shell or interpreter (rules.RunsCode), or guardsh itself.
func runsCode(name string) bool { return rules.RunsCode(name) || name == "guardsh" }

func base(w string) string { return w[strings.LastIndexByte(w, '/')+1:] }

// readsCodeFromStdin reports a shell or interpreter given no code and no
// script operand (`sh`, `bash -s`, `python3 -`, `node -`): remembering it
// would allow whatever is piped into it later (`cat list | sh` remembered
// as "sh" let `… | sh` run anything; an attack run's find).
func readsCodeFromStdin(argv []string) bool {
	if !runsCode(base(argv[0])) {
		return false
	}
	for _, w := range argv[1:] {
		switch {
		case w == "-" || w == "-s" || w == "--":
			return true
		case w == "-c" || w == "-e" || w == "-E" || w == "-m" || w == "-r" || w == "--eval":
			return false // the code or module is the next word
		case !strings.HasPrefix(w, "-"):
			return false // a script operand
		}
	}
	return true
}

func subcommand(w string) bool {
	if w == "" || w[0] == '-' {
		return false
	}
	for _, r := range w {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.:", r)) {
			return false
		}
	}
	return true
}

// CheckPrefix reports whether pat is a pattern a human may remember for
// argv: the exact command, or one or more of its leading words followed by
// " *" (a program/subcommand prefix). Anything wider is refused with the
// reason.
func CheckPrefix(pat string, argv []string) error {
	if pat == strings.Join(argv, " ") {
		return nil
	}
	head, ok := strings.CutSuffix(pat, " *")
	if !ok || head == "" {
		return fmt.Errorf("%q is neither the exact command nor its program or subcommand followed by \" *\"", pat)
	}
	words := strings.Split(head, " ")
	if len(words) > len(argv) {
		return fmt.Errorf("%q has more words than the command", pat)
	}
	for i, w := range words {
		if w != argv[i] {
			return fmt.Errorf("%q: word %d is %q, the command's is %q (a prefix of the command's own words only)", pat, i+1, w, argv[i])
		}
	}
	return nil
}

// Visible returns s with every control, format (invisible) and invalid
// character, and the backslash, written as an escape (\n, \t, \x1b,
// \u202e, \\), so that what a human reads is what runs.
func Visible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}
