package interp

import (
	"slices"
	"strings"
)

// Hole stands, inside a word's Value, for a part only known at run time: a
// parameter expansion, a command or process substitution, arithmetic, or a
// whole word that globbing would replace. NUL cannot occur in analysed text
// (such text is refused), so a Hole never collides with a literal byte.
const Hole = "\x00"

// Kind says what a segment does.
type Kind string

const (
	// Exec is a simple command that runs a program, builtin or function.
	Exec Kind = "exec"
	// Write is an output redirection to a file (not /dev/null, not an fd
	// duplication): Args holds one word, the target.
	Write Kind = "write"
	// Read is an input redirection from a file: Args holds one word, the source.
	Read Kind = "read"
)

// Word is one argument after brace expansion and quote removal, exactly as
// bash would pass it, except that run-time parts are Holes.
type Word struct {
	// Value is the word after quote removal; each run-time part is a Hole.
	Value string `json:"value"`
	// Source is the word as written in the command text.
	Source string `json:"source"`
}

// Dynamic reports whether some part of w is only known at run time.
func (w Word) Dynamic() bool { return strings.Contains(w.Value, Hole) }

// Display is the word as a person should read it: Value when static, else
// Source.
func (w Word) Display() string {
	if w.Dynamic() {
		return w.Source
	}
	return w.Value
}

// quoted is Display as a word of a command line: a static value in single
// quotes when it holds a blank, a quote or another character the shell
// reads, so that `grep -rn "def " .` does not read as `grep -rn def  .`
// (a new user's find).
func (w Word) quoted() string {
	if w.Value == "((" || w.Value == "))" {
		return w.Value // the arithmetic command's own words
	}
	if !w.Dynamic() && (w.Value == "" || strings.ContainsAny(w.Value, " \t\n'\"\\$`;&|<>()")) {
		return "'" + strings.ReplaceAll(w.Value, "'", `'\''`) + "'"
	}
	return w.Display()
}

// Segment is one unit of decision: a simple command that would run, or a file
// a redirection would write or read.
type Segment struct {
	Kind Kind
	// Args is argv for Exec (Args[0] is the command name; assignments
	// prefixing it are not included) and the single target for Write/Read.
	Args []Word
	// Assigns are the NAME=value words written before the command (or alone,
	// for a statement that only assigns: then Args is empty), and for
	// export/declare/local/readonly their NAME=value arguments too.
	Assigns []Word
	// Declared is, for a declaration (export, declare, typeset, local,
	// readonly), whose Assigns are its NAME=value arguments, declaredMark
	// and a bit per operand in the order written, the i-th (i < 63) set
	// when that operand is one of Assigns: Words shows them in that order
	// (`export A=1 -n` is not `export -n A=1`, attack run 74); operands
	// past the 63rd follow, assignments first. 0 for any other segment (a
	// word, not a slice: every segment carries it).
	Declared uint64
	// Line and Col are the 1-based line and column (in bytes) in the
	// top-level command text where the segment starts: its command, its
	// redirection operator, or for a re-parsed payload (eval, sh -c, …)
	// the word that holds the payload; a wrapped command has the place of
	// its wrapper.
	Line, Col int
	// The bool fields sit together, sharing one 8-byte word of the
	// struct (240 bytes; Certain, kept after Bounded where the order of
	// the JSON fields has it, takes a word of its own): a 1 MB script
	// has some 48,000 segments.

	// Nested is set on an eval or on a shell given -c when the code it runs
	// (eval's text, the -c string) was static and was analysed into the
	// segments that follow it, and on a wrapper (exec, command, env, sudo,
	// xargs, …) whose wrapped command was emitted as the segment after it.
	Nested bool
	// RunsCode says a word of the segment may run code only known at run
	// time, code no segment shows: a prompt expansion ${x@P} (it runs the
	// command substitutions in x's value) or a locale translation $"…"
	// (whose translation bash expands) in one of its words; an eval whose
	// text has a Hole; a shell whose -c string, options or standard input
	// (here-document, here-string, a pipe from an unknown command, or an
	// inherited one) has a run-time part; a trap whose operands have a
	// Hole; an alias with a Hole; source or . of a path with a Hole (or of
	// a standard input not analysed); a wrapper (sudo, env, ssh, …) whose
	// options or operands are only known at run time or not in its option
	// table, or whose command cannot be followed (see the package doc).
	RunsCode bool
	// Function says the command names a function a sourced file defined
	// earlier (see source.go): bash runs that function, whose body was
	// analysed into segments at its first call.
	Function bool
	// Aliased says the command word names an alias of Options.Aliases
	// and Options.AliasesOn holds: bash replaces the word by the alias
	// when it reads the line, so this reading as written never runs; the
	// expansion is analysed as the segments after it (Via "alias NAME").
	Aliased bool
	// Repeats says the segment is in a loop body, a function body or a
	// trap action: it may run any number of times, in any order with the
	// segments around it.
	Repeats bool
	// AfterCd, when not 0, is 1 + the index among the command's segments
	// of the cd (or pushd) whose success the segment's running needs: it
	// is in the right side of `cd DIR && …`, so it never runs where a
	// failed cd would have left it.
	AfterCd int `json:"after_cd,omitempty"`
	// Elsewhere says the segment runs in a directory a wrapper chose, not
	// the shell's: env -C, sudo -D, nsenter -w, unshare -w, find -execdir
	// (attack run 79 wrote ~/.bashrc through `env -C .. sed -i …
	// .bashrc` in mode bypass). Its relative paths lead where no one
	// knows.
	Elsewhere bool `json:"elsewhere,omitempty"`
	// ReadsScript says the segment runs a program in a shell that reads
	// its script from standard input (`bash <<EOF`, `bash < FILE`,
	// `… | sh`) with no input of its own: the program may read the rest
	// of that script (`head -c N` does, to the byte), and the shell then
	// runs as code what the analysis read as data (a here-document's
	// body). bash's builtins but source and . read no input.
	ReadsScript bool `json:"reads_script,omitempty"`
	// Assumed, when not "", says the segment is a second reading of the
	// segment before it (or of a command that one runs) with the values
	// the text assigned its variables earlier, bash's start-up IFS and
	// HOME, and "unset" for a variable used with a default: for example
	// "CMD=curl" or "VAR unset". Those values may not hold when it runs,
	// so such a segment may make a command stricter (a deny rule that
	// matches it), never looser.
	Assumed string
	// Bounded names the loop variables this segment's words use whose
	// values the analysis knows (a for loop over words with no
	// expansion, each a name or a glob): the segment is also emitted once
	// per value, Assumed "NAME=VALUE" (a glob as written), so a word that
	// starts with such a variable is not any text at all.
	Bounded []string `json:"bounded,omitempty"`
	// Certain says that Assumed holds for certain where the segment runs:
	// the values of a bounded loop variable (see Bounded), or of the
	// environment's variables and HOME before anything could change
	// them. The segment may make the command ask, not only be denied.
	Certain bool `json:"certain,omitempty"`
	// Arith lists, space-separated, what the segment's arithmetic and
	// the operands bash takes as a variable's name evaluate: variables,
	// "="+text for a literal, Hole for text only known at run time. Kept
	// only on a segment the analysis marked RunsCode for it (see
	// arith.go).
	Arith string `json:"arith,omitempty"`
	// Script, on a shell given a script file (or a source or . of a file)
	// that cannot be read now (missing, named by an earlier command,
	// relative after a cd), is that operand; the segment then has
	// RunsCode, and only an allow rule that names the file lets it run.
	Script string
	// Read, on a source or . segment whose file was read and analysed,
	// is that file's absolute path (the Sourced of its segments).
	Read string
	// Relative, on a write or read segment whose relative path a cd
	// before it made a Hole (its directory is only known once the cd has
	// run), is that path as written; a caller that follows the cd (to
	// each directory it may lead to) decides it there.
	Relative string
	// SourceKey, on a source or . segment whose file was read, is a digest
	// of the file's content and the analysis options (see SourceCache).
	SourceKey string
	// Sourced is the file the segment's code comes from when it was read
	// by source or . (see source.go): a command of that file, or of a
	// function it defines, called later.
	Sourced string
	// Via is the chain of constructs that led to nested code, outermost first,
	// for example ["eval"] or ["bash -c", "$(…)"]; empty at top level.
	Via []string
}

// Argv returns the Values of s.Args.
func (s Segment) Argv() []string {
	out := make([]string, len(s.Args))
	for i, w := range s.Args {
		out[i] = w.Value
	}
	return out
}

// String renders the segment for people: words joined by single spaces, each
// dynamic word shown as written; a Write is "> target", a Read "< source".
func (s Segment) String() string {
	words := s.Words()
	parts := make([]string, 0, len(words))
	for _, w := range words {
		parts = append(parts, w.quoted())
	}
	text := strings.Join(parts, " ")
	switch s.Kind {
	case Write:
		return "> " + text
	case Read:
		return "< " + text
	}
	return text
}

// declaredMark marks Segment.Declared of a declaration.
const declaredMark = 1 << 63

// Words returns the segment's words in the order people read them: prefix
// assignments, then argv; a declaration's NAME=value arguments after its
// name (`export A=1`, not `A=1 export`, a new user's find). The
// assignments are an Exec segment's only. A declaration's operands are
// in the order written (see Declared).
func (s Segment) Words() []Word {
	out := make([]Word, 0, len(s.Assigns)+len(s.Args))
	switch {
	case s.Kind != Exec:
	case s.Declared&declaredMark != 0 && len(s.Args) > 0:
		out = append(out, s.Args[0])
		a, g := 0, 1
		for i := 0; i < 63 && a+g-1 < len(s.Assigns)+len(s.Args)-1; i++ {
			switch assign := s.Declared&(1<<i) != 0; {
			case assign && a < len(s.Assigns):
				out, a = append(out, s.Assigns[a]), a+1
			case !assign && g < len(s.Args):
				out, g = append(out, s.Args[g]), g+1
			default:
				i = 63
			}
		}
		// (Any the order missed, though none should be.)
		return append(append(out, s.Assigns[a:]...), s.Args[g:]...)
	default:
		out = append(out, s.Assigns...)
	}
	return append(out, s.Args...)
}

// Chain says how the segment was found: Via, outermost first, then what the
// segment itself is: its command name as written, "> target" or
// "< source", or its first assignment for a statement that only assigns.
// For example ["sudo", "env", "rm"] for the rm of "sudo env rm -rf /", or
// ["bash -c", "$(…)", "eval", "rm"].
func (s Segment) Chain() []string {
	var self string
	switch {
	case s.Kind != Exec:
		self = s.String()
	case len(s.Args) > 0:
		self = s.Args[0].Display()
	case len(s.Assigns) > 0:
		self = s.Assigns[0].Display()
	}
	return append(slices.Clip(s.Via), self)
}

// OpenWord reports whether w has a run-time part that may be any text
// (rules.Subject.Open): its value has a Hole and its text has a parameter
// expansion or a command substitution ("$", "`"), or it is words xargs
// reads (xargsInput). Such a part may hold "../" or a whole path, so the
// word may name any file wherever the part is (`cat ./"$x"`, `cat
// src/$(…)` reach ~/.ssh through ".."). A word whose Holes can only be a
// glob's (`*.go`, `[ab]*`), whose names stay in their directory, or
// another user's home (`~root/x`) is not open; nor is one whose only
// expansions are bounded loop variables (Segment.Bounded) and HOME, whose
// values the segments emitted with them are checked with.
func OpenWord(w Word, bounded []string) bool {
	return !IntegerWord(w) && openWord(w, bounded)
}

// IntegerWord reports whether w is one arithmetic expansion alone,
// `$((…))` or `$[…]`, quoted or not: its value is an integer, digits
// after an optional "-", with no '/' and no blank (`sleep $((i * 2))`,
// `head -n $((n + 1))`). What the arithmetic evaluates is checked on its
// own (see arith.go); a caller may read the word as GlobWord's (a run-time
// part with no '/' and no ' ').
func IntegerWord(w Word) bool {
	if w.Value != Hole {
		return false
	}
	src := w.Source
	if len(src) >= 2 && src[0] == '"' && src[len(src)-1] == '"' {
		src = src[1 : len(src)-1]
	}
	return arithOnly(src)
}

// arithOnly reports whether src, a word's text, is one arithmetic
// expansion `$((…))` (or `$[…]`) and nothing else, read conservatively:
// no quote, backslash, backquote, `$(` or `#` inside, and parentheses
// that close the "((" only at the end. `$((cat f) | (cat))` is a command
// substitution of two subshells (attack run 42), which bash reads so
// since the first ")" closes the inner group early.
func arithOnly(src string) bool {
	var inner string
	switch {
	case strings.HasPrefix(src, "$((") && strings.HasSuffix(src, "))") && len(src) >= 5:
		inner = src[3 : len(src)-2]
	case strings.HasPrefix(src, "$[") && strings.HasSuffix(src, "]") && len(src) >= 3:
		inner = src[2 : len(src)-1]
		if strings.ContainsAny(inner, "[]") {
			return false
		}
	default:
		return false
	}
	if strings.ContainsAny(inner, "'\"\\`#") || strings.Contains(inner, "$(") {
		return false
	}
	depth := 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// dirStackTilde reports a tilde prefix ~N (digits) in src at a place bash
// expands one (the start, after an unquoted ":" or "="): the directory
// stack's entry N (`pushd ~/.ssh && pushd / && cat ~1/id_rsa` read the
// key, attack run 58), any directory.
func dirStackTilde(src string) bool {
	for i := 0; i+1 < len(src); i++ {
		if src[i] == '~' && (i == 0 || src[i-1] == ':' || src[i-1] == '=') && '0' <= src[i+1] && src[i+1] <= '9' {
			return true
		}
	}
	return false
}

// GlobWord reports whether w's run-time parts (its Holes) are pathname
// expansion's alone, written plainly: its source holds a '*', '?' or '['
// and no quote, backslash, expansion ("$", "`"), tilde, brace or
// parenthesis (an extglob), and it is no xargs input. Each Hole of such a
// word then stands for bytes other than '/' (bash never matches one by a
// pattern), and the word for one or more words of its shape (several
// names matched; the pattern itself when none is) — `rm -f *.log` never
// names "/".
//
// "**" is not: under globstar (`shopt -s globstar` before it) it matches
// across directories.
func GlobWord(w Word) bool {
	return strings.Contains(w.Value, Hole) && strings.ContainsAny(w.Source, "*?[") &&
		!strings.ContainsAny(w.Source, "$`~{}()\\'\"") && !strings.Contains(w.Source, xargsInput) &&
		!strings.Contains(w.Source, "**")
}

func openWord(w Word, bounded []string) bool {
	if !strings.Contains(w.Value, Hole) {
		return false
	}
	if strings.Contains(w.Source, xargsInput) || strings.Contains(w.Source, "~+") || strings.Contains(w.Source, "~-") || dirStackTilde(w.Source) {
		return true // ~+ and ~- are $PWD and $OLDPWD, ~N an entry of the directory stack
	}
	if !strings.ContainsAny(w.Source, "$`") {
		return false
	}
	src := dropRef(w.Source, "HOME")
	home := src
	for _, name := range bounded {
		src = dropRef(src, name)
	}
	// A bounded variable's value next to a glob character ("$f"*,
	// "$f"?/config) is globbed with it: a name of no shape the values
	// say (attack run 46).
	return strings.ContainsAny(src, "$`") || src != home && strings.ContainsAny(src, "*?[")
}

// dropRef returns src without its plain references to variable name:
// "$name" (not followed by a name's byte) and "${name}".
func dropRef(src, name string) string {
	if countRefs(src, name) == 0 {
		return src
	}
	src = strings.ReplaceAll(src, "${"+name+"}", "")
	var b strings.Builder
	for {
		i := strings.Index(src, "$"+name)
		if i < 0 {
			b.WriteString(src)
			return b.String()
		}
		end := i + 1 + len(name)
		if end < len(src) && isNameByte(src[end]) {
			b.WriteString(src[:end])
		} else {
			b.WriteString(src[:i])
		}
		src = src[end:]
	}
}

func isNameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
