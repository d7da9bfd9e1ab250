// Package rules is guardsh's policy: configuration files, pattern matching,
// modes, command classes and the decision for one segment, with the rule and
// reason that produced it. It knows nothing of parsing.
package rules

// Hole marks, inside a Subject word, a part only known at run time. It has
// the same value as interp.Hole.
const Hole = "\x00"

// Decision is a verdict's outcome, ordered from loosest to strictest so that
// the combination of several is their maximum.
type Decision int

const (
	Allow Decision = iota
	Ask
	Deny
)

// Mode is how much the user lets run unasked (see Policy.Decide for the
// mode table and the order of checks).
type Mode string

const (
	Chat    Mode = "chat"
	Plan    Mode = "plan"
	Approve Mode = "approve"
	AskMode Mode = "ask"
	Auto    Mode = "auto"
	Bypass  Mode = "bypass"
)

// Class is what a segment does, as far as the policy is concerned.
type Class string

const (
	ReadOnly  Class = "read-only"
	Workspace Class = "workspace"
	Sensitive Class = "sensitive"
)

// Subject is one segment as the policy sees it.
type Subject struct {
	// Kind is "exec", "write" or "read".
	Kind string
	// Words is argv after quote removal for "exec"; the single path for
	// "write" and "read" (relative paths are resolved against Context.Cwd).
	// Run-time parts are Holes.
	Words []string
	// Assigns are NAME=value assignments that apply to the command (or that
	// the statement makes), Holes marking run-time parts.
	Assigns []string
	// Open has bit i set when Words[i] has a run-time part that may be
	// any text at all: a parameter expansion or a command's output (`"$f"`,
	// `./$(…)`), not a glob, whose names stay in their directory. Such a
	// word could name any file (its part may hold "../"), so a deny rule
	// could match it (see matchArgs). Words from index 64 on with a Hole
	// are taken as open whatever the bit says.
	Open uint64
	// Bounded has bit i set when Words[i] starts with a loop variable
	// whose every value the subject's command decides in segments of its
	// own (interp.Segment.Bounded): its run-time part is checked there,
	// not here. Only bits below 64.
	Bounded uint64
	// Glob has bit i set when Words[i]'s run-time parts are a plain
	// glob's (interp.GlobWord): each stands for bytes other than '/', and
	// the word for one or more words of its shape. Deny rules that no
	// such expansion can match do not ask (`rm -f *.log` against
	// "rm * / *"). Only bits below 64.
	Glob uint64
	// GlobPatterns, when not nil, holds for each word with a Glob bit its
	// pattern as written (`.[testing]`, `*.py`): a bracket matches one
	// character, where the Hole stands for any run (see namesProtected);
	// "*" for another glob (an extglob), whose names may be any; "" for
	// the other words.
	GlobPatterns []string
	// Found has bit i set when Words[i] is a path find gives an -exec or
	// -ok command (interp.FoundWord): its literal part is find's start
	// path and a "/", the run-time part what lies below, reached through
	// no link and holding no "..", or nothing (the start path itself). The
	// find segment answers for the protected paths such a command reaches
	// (an altering walk and its names). Only bits below 64.
	Found uint64
	// Listed has bit i set when Words[i] is a path a lister printed that
	// xargs gives the program (interp.ListedWord): its literal part up to
	// the first Hole is the lister's start directory, the run-time part
	// what lies below it, at any depth. Only bits below 64.
	Listed uint64
}

// OpenWord reports whether Words[i] of a subject with Open bits open is
// open (see Subject.Open).
func OpenWord(open uint64, i int) bool { return i >= 64 || open&(1<<i) != 0 }

// Rule is one pattern from a config file.
type Rule struct {
	// Section is "shell", "write" or "read".
	Section  string
	Decision Decision
	Pattern  string
	// File and Line locate the pattern; File is "<embedded default>" for the
	// built-in policy.
	File string
	Line int
}

// Context is what a decision depends on besides the subject.
type Context struct {
	Mode Mode
	// Cwd, Home and Workspace are absolute, cleaned paths.
	Cwd, Home, Workspace string
	// Root, when set, is the directory relative path patterns are
	// anchored at instead of Workspace: the git work tree's top when
	// GUARDSH_WORKSPACE narrowed the workspace (narrowing the workspace
	// must not move where a relative deny rule applies).
	Root string
	// Anchors are further directories relative deny and ask path
	// patterns are anchored at, as at Root (or Workspace): the project
	// directories between them and the working directory, nested work
	// trees among them (see internal/workspace). A relative allow pattern
	// is anchored at Root only. A directory an agent made a work tree
	// thus adds places a rule covers and moves none.
	Anchors []string
	// CwdUnknown says a cd earlier in the command (or in an earlier command
	// of the same script) may have moved the working directory: a relative
	// path argument then names a path only known at run time, which asks
	// when a write or read deny rule could match it.
	CwdUnknown bool
	// CwdForGit says Cwd is where a git segment's -C options lead, not
	// the shell's directory (GitWorkTreeElsewhere then takes -C as read).
	CwdForGit bool
	// NoNewLinks says no segment of the command can make a symbolic link
	// (see MakesNoLinks): a directory that does not exist now is then made
	// a directory or nothing, and a ".." after it is read lexically. Unset
	// (the zero value), such a ".." leads where no one knows (`ln -s . up
	// && cat up/../.ssh/id_rsa`: attack run 33), and a rule that could
	// match the rest asks.
	NoNewLinks bool
	// LinksOnlyHere says the segment being decided is the only one of
	// its command that can make a symbolic link, and runs once: no other
	// part of the command can have put a link where a name it gives was
	// (the directory an ln makes its link in, where a cp or mv lands).
	// Unset (the zero value), another part could have: a relative link
	// text with ".." then leads where no one knows (attack run 34).
	LinksOnlyHere bool
	// PlainGlobs says no part of the command (nor bash's environment) can
	// change how a glob matches (bash(1) Pathname Expansion: the shopt
	// options dotglob, extglob, nocaseglob and globstar, GLOBIGNORE): a
	// glob's `*` then matches no name starting with "." where its pattern
	// does not start so, and matches case and all (`rm -f *` names no
	// .git or .bashrc). Unset (the zero value), a glob may match any name
	// of its directory.
	PlainGlobs bool
	// Protected are extra absolute paths (or "dir/*" patterns) that are only
	// written with a human's yes: guardsh's config, audit log and binary.
	Protected []string
	// Lookups, when not nil, remembers the file system lookups of the
	// decisions made with it: give every segment of one command the same
	// one (a command is decided at one moment, before any of it runs), and
	// each command a new one. A Lookups is not safe for concurrent use.
	// It also keeps os.TempDir() (for TempDirs nil) as first read.
	Lookups *Lookups
	// TempDirs are directories whose writes count as workspace writes;
	// nil means os.TempDir() and /tmp. A directory of "/" or one that holds
	// Home is ignored.
	TempDirs []string
}

// Verdict is the decision for one subject and why.
type Verdict struct {
	Decision Decision
	Class    Class
	// Sensitivity is why Class is Sensitive; empty for other classes.
	Sensitivity Sensitivity
	// Rule is the pattern that decided, nil when the mode or class did.
	Rule *Rule
	// DecidedBy is "rule", "mode" or "class".
	DecidedBy string
	// Reason is one sentence for people.
	Reason string
	// Protected is the protected path pattern a write (or an argument of
	// a program that may write it) reaches, when that made the decision.
	Protected string
	// Suggest, for an Ask, is an allow pattern that would let this subject
	// run; empty when none could (a protected write, a could-match deny).
	Suggest string
}
