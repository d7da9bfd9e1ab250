package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/guardsh/guardsh/internal/findexpr"
	"github.com/guardsh/guardsh/internal/fsview"
)

// Arguments as paths. A program's arguments name the files it reads and
// writes (`cat ~/.ssh/id_rsa`, `cp x ~/.ssh/authorized_keys`), so the read
// and write rules that deny or ask apply to the arguments of exec subjects
// too, not only to redirections. guardsh does not know whether a program
// reads or writes a given argument, so both sections' deny and ask rules
// apply to every argument; allow rules and protected paths do not (they
// are about writes a redirection makes).
//
// Which arguments (matchArgs): the static words after the command name
// (words holding a Hole are skipped, see below), and
//
//   - of a word with "=", also the value after the first "=" (--file=V,
//     if=V, PREFIX=V); an option ("-…") with "=" only by its value;
//   - of a short option with an attached value (-oVALUE, -I/usr/include),
//     the value from its first '/', '~' or '.' on; any other option
//     (-la, --force) is skipped, up to a "--", after which every word is
//     an operand;
//   - a leading '@' (curl's -d @file) is also tried without it; "file://"
//     is dropped; other URLs ("https://…") are skipped;
//   - the subcommand of a tool such as git, npm, go or make (`git status`,
//     see subcommandTools) is not a path.
//
// A candidate is taken as a path when it contains '/', starts with '~' or
// '.', or names an existing entry (a dangling symlink included) in the
// working directory; plain words that name nothing (`status`, `TODO`) are
// not paths. A path is resolved as redirection targets are (absolute
// against Context.Cwd, cleaned, symlinks resolved) and rules are matched
// against both its cleaned and its resolved form. A literal "~/…" (quoted,
// or after "--opt=", which the shell does not expand but some programs
// do) is tried as both a relative path and one under Context.Home.
//
// A directory argument of a program that walks directories (see walkers:
// tar, cp -r, grep -r, rm -r, …) also stands for everything below it: a
// deny rule that matches every path below it (`tar czf x.tgz ~/.ssh`
// under "~/.ssh/*") denies, one that could match some path below it
// (`grep -r key ~` under "~/.ssh/id_*") asks. Other programs' directory
// arguments are matched as the directory only: `ls -la ~/.ssh` is not
// matched by "~/.ssh/*" (which matches what is in ~/.ssh, not ~/.ssh), so
// it is decided as any ls.
//
// Known limits, by choice:
//
//   - a word whose run-time part comes first ($HOME/x, "$f", *.md) is not
//     matched: a could-match over every argument would make `echo $HOME`
//     ask; one with a literal prefix (~/.ssh/*, /srv/$x) is matched as the
//     prefix followed by any text (holed), and asks when a deny rule could
//     match it;
//     redirections with a run-time path still could-match;
//   - programs that only handle their arguments as strings (stringOnly:
//     echo, test, basename, …) are not checked: `[ -f ~/.ssh/id_rsa ]`
//     reads nothing;
//   - a plain word naming nothing yet (`cp x id_rsa` run inside ~/.ssh) is
//     not a path, nor is a relative word when Context.Cwd is unknown;
//   - a directory the program walks implicitly (`rg key` in the working
//     directory) is not an argument; nor are files a program finds by
//     itself (its config, `find -exec` targets) or reads from stdin.
//
// Cost: nothing unless the policy has a write or read rule that denies or
// asks; then one lstat per component of each candidate (a plain word is
// one component; the working directory is resolved once and remembered),
// one more stat for a "." or ".." a walker walks, and one or two trie
// walks per section.

// stringOnly are programs and builtins whose arguments are strings, never
// files they open.
var stringOnly = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"echo": true, "printf": true, "test": true, "[": true, "[[": true, ":": true, "true": true, "false": true,
		"basename": true, "dirname": true, "type": true, "which": true,
		"export": true, "declare": true, "typeset": true, "local": true, "readonly": true, "unset": true,
		// Code the analysis reads into segments of its own (or, only
		// known at run time, asks for): eval's text, a trap's action.
		"eval": true, "trap": true,
	}
})

// readsArgs are programs that are not read-only but only read the paths
// they are given (bash's source/. run a file; ssh -i/-F and ssh-add read a
// key or config): their arguments are matched against read rules only, not
// against write rules and protected paths, which are about writes.
var readsArgs = map[string]bool{"source": true, ".": true, "ssh": true, "ssh-add": true}

// subcommandTools are programs whose first argument, when it looks like a
// subcommand (isSubcommand: `git status`, `npm test`, `make build`), names
// what to do, not a file; it is not looked up as a path (one lstat saved
// per segment of the commonest commands).
var subcommandTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"git": true, "npm": true, "npx": true, "yarn": true, "pnpm": true, "bun": true, "deno": true,
		"go": true, "cargo": true, "rustup": true, "make": true, "docker": true, "podman": true,
		"kubectl": true, "helm": true, "terraform": true, "gh": true, "pip": true, "pip3": true,
		"uv": true, "poetry": true, "dotnet": true, "mvn": true, "gradle": true, "bundle": true,
		"brew": true, "apt": true, "apt-get": true, "systemctl": true,
	}
})

// walk says when a program reads or writes everything below a directory
// argument: always (zero value), or when given one of the short option
// letters (inside a cluster), long options (or an abbreviation of at least
// five bytes) or words.
type walk struct {
	short string
	long  []string
	words []string
}

// walkers are the programs that walk directory arguments (the tar, cp,
// grep, rm, chmod, zip, diff, find and rsync man pages of Debian 12).
var walkers = sync.OnceValue(func() map[string]walk {
	return map[string]walk{
		"tar": {}, "bsdtar": {}, "7z": {}, "7za": {}, "7zz": {}, "rsync": {}, "mv": {},
		"rg": {}, "ag": {}, "ack": {}, "rgrep": {},
		"grep":    {short: "rRd", long: []string{"--recursive", "--dereference-recursive", "--directories"}},
		"egrep":   {short: "rRd", long: []string{"--recursive", "--dereference-recursive", "--directories"}},
		"fgrep":   {short: "rRd", long: []string{"--recursive", "--dereference-recursive", "--directories"}},
		"ugrep":   {short: "rRd", long: []string{"--recursive", "--dereference-recursive", "--directories"}},
		"cp":      {short: "rRa", long: []string{"--recursive", "--archive"}},
		"scp":     {short: "r"},
		"rm":      {short: "rR", long: []string{"--recursive"}},
		"chmod":   {short: "R", long: []string{"--recursive"}},
		"chown":   {short: "R", long: []string{"--recursive"}},
		"chgrp":   {short: "R", long: []string{"--recursive"}},
		"setfacl": {short: "R", long: []string{"--recursive"}},
		"chattr":  {short: "R"},
		"gzip":    {short: "r", long: []string{"--recursive"}},
		"gunzip":  {short: "r", long: []string{"--recursive"}},
		"zstd":    {short: "r"},
		"zip":     {short: "rR", long: []string{"--recurse-paths", "--recurse-patterns"}},
		"diff":    {}, // diff DIR DIR reads every file of both, -r or not
		"find":    {words: []string{"-delete", "-exec", "-execdir", "-ok", "-okdir"}},
	}
})

// alteringWalkers are the walkers that change what a directory argument
// holds, all of it: remove, move, change its modes, owners or ACLs.
var alteringWalkers = []string{"rm", "mv", "chmod", "chown", "chgrp", "setfacl"}

// alteringWalk reports whether words, whose program walks its directory
// arguments as walker (see walker), changes or removes all a directory
// argument holds: an alteringWalkers program; find with -delete, or with
// an -exec, -execdir, -ok or -okdir of a command that is not read-only
// (classifyExec); tar with --remove-files, zip with -m (--move), 7z with
// -sdel, rsync with --remove-source-files or a --delete option (the
// programs' man pages, Debian 12). Attack run 74 took guardsh's audit
// log and a repository's .git so in mode bypass: `find ~/.local -delete`,
// `tar --remove-files -cf x.tar ~`, `zip -rm x.zip .`.
func alteringWalk(words []string, walker string) bool {
	if slices.Contains(alteringWalkers, walker) {
		return true
	}
	switch walker {
	case "find":
		for i := 1; i < len(words); i++ {
			switch words[i] {
			case "-delete":
				return true
			case "-exec", "-execdir", "-ok", "-okdir":
				j := findexpr.ExecEnd(words, i+1)
				if c, _, _ := classifyExec(words[i+1:j], nil); j == i+1 || c != ReadOnly {
					return true
				}
				i = j
			}
		}
	case "tar", "bsdtar":
		return slices.ContainsFunc(words[1:], func(w string) bool { return longAbbrev(w, "--remove-files", 5) })
	case "zip":
		return slices.ContainsFunc(words[1:], func(w string) bool {
			return longAbbrev(w, "--move", 4) || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsRune(w[1:], 'm')
		})
	case "7z", "7za", "7zz":
		return slices.ContainsFunc(words[1:], func(w string) bool { return strings.EqualFold(w, "-sdel") })
	case "rsync":
		// --del is rsync's own alias of --delete-during; --remove-sent-
		// files the old name of --remove-source-files.
		return slices.ContainsFunc(words[1:], func(w string) bool {
			return strings.HasPrefix(w, "--del") || longAbbrev(w, "--remove-source-files", 5) || longAbbrev(w, "--remove-sent-files", 5)
		})
	case "cp":
		// -l (--link): hard links of all it holds, under names a later
		// write changes them through (attack run 81: cp -al of a
		// directory holding ~/.bashrc).
		return slices.ContainsFunc(words[1:], func(w string) bool {
			return longAbbrev(w, "--link", 4) || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsRune(w[1:], 'l')
		})
	case "chattr":
		return true // -R (see walkers): +i, +a on all it holds
	case "gzip", "gunzip", "zstd":
		// -r (see walkers): each file it meets replaced by its
		// (de)compressed form, or one written beside it (attack run
		// 76: gzip -r . left git nothing it could read).
		return true
	}
	return false
}

// longAbbrev reports whether w, up to an "=", is long option opt or an
// abbreviation of it of at least min bytes, as getopt_long takes one
// that is unambiguous (attack run 75: tar --remove-file, zip --mov). An
// ambiguous one, which the program refuses, counts too.
func longAbbrev(w, opt string, min int) bool {
	w, _, _ = strings.Cut(w, "=")
	return len(w) >= min && strings.HasPrefix(opt, w)
}

// walker returns the name of the program words run when it walks its
// directory arguments, else "".
func walker(words []string) string {
	name := words[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if name == "git" && len(words) > 1 && words[1] == "diff" {
		// git diff of a path outside the work tree is git diff
		// --no-index, which reads directories through (git-diff(1)).
		return "git diff"
	}
	w, ok := walkers()[name]
	if !ok {
		return ""
	}
	if w.short == "" && w.long == nil && w.words == nil {
		return name
	}
	// Every word, "--" not ending the search: it may be an option's
	// value (`grep -e -- -e x -r DIR`, `cp -S -- -r`), and a word after
	// the real one taken for an option only makes a walker of more.
	for _, a := range words[1:] {
		switch {
		case strings.HasPrefix(a, "--"):
			opt, _, _ := strings.Cut(a, "=")
			for _, l := range w.long {
				if opt == l || (len(opt) >= 4 && strings.HasPrefix(l, opt)) {
					return name // also an abbreviation getopt_long takes (--di)
				}
			}
		case len(a) > 1 && a[0] == '-' && w.short != "" && strings.ContainsAny(a[1:], w.short):
			return name
		}
		for _, x := range w.words {
			if a == x {
				return name
			}
		}
	}
	return ""
}

// argHit is a write or read rule that an argument of an exec subject
// matches.
type argHit struct {
	rule *Rule
	// arg is the argument for messages (home written "~"); via, when not
	// empty, the path it resolves to.
	arg, via string
	// walker, for a directory argument, is the program that walks it;
	// could: a deny rule could match something below it.
	walker string
	could  bool
	// cwdUnknown: arg is relative to a directory only known at run time;
	// runtime: arg has a part (a glob, a variable) only known at run time;
	// newFile: arg names nothing yet and may be a file the program makes.
	cwdUnknown, runtime, newFile bool
	// dotDot: arg holds ".." after a directory not there now, or after a
	// name an earlier command could make a link (see dotDotAfterMissing,
	// dotDotAfterName).
	dotDot bool
	// holds, for a directory a walker reads, is the name of the file in
	// it the rule matches (a dot-env file: see secretIn).
	holds string
	// open: arg is open (Subject.Open), any path at all.
	open bool
	// link: a symbolic link below the directory arg, which the walker
	// follows, leads to via (see linksBelow); over: the walk below it
	// was cut short (derefBudget).
	link, over bool
}

// clause says what the argument matches, for a verdict's Reason.
func (a *argHit) clause() string {
	r := a.rule
	rule := fmt.Sprintf("%s %s rule %q (%s)", r.Section, r.Decision, r.Pattern, r.Source())
	switch {
	case a.link && a.could:
		return fmt.Sprintf("argument %s is a directory %s walks following the links in it, one of which leads to %s, below which something could match %s", a.arg, a.walker, a.via, rule)
	case a.link:
		return fmt.Sprintf("argument %s is a directory %s walks following the links in it, one of which leads to %s, which matches %s", a.arg, a.walker, a.via, rule)
	case a.over:
		return fmt.Sprintf("argument %s is a directory %s walks following the links in it, more of it than guardsh looks at (%d entries), so a link could lead where %s matches", a.arg, a.walker, derefBudget, rule)
	}
	arg := "argument " + a.arg
	if a.via != "" {
		arg += " (which resolves to " + a.via + ")"
	}
	switch {
	case a.open:
		return fmt.Sprintf("%s is only known at run time (a variable or a command's output) and could name any file, so it could match %s", strings.ReplaceAll(arg, Hole, "…"), rule)
	case a.runtime:
		return fmt.Sprintf("%s has a part only known at run time (a glob or a variable), and could match %s", strings.ReplaceAll(arg, Hole, "…"), rule)
	case a.dotDot:
		return fmt.Sprintf("%s holds \"..\" after a directory that an earlier command could make a link to anywhere (or that does not exist now), and could match %s", arg, rule)
	case a.cwdUnknown:
		return fmt.Sprintf("%s is relative to a working directory a cd made only known at run time, and could match %s", arg, rule)
	case a.newFile:
		return fmt.Sprintf("%s names nothing yet, and as a file the program could make it could match %s", arg, rule)
	case a.walker != "" && a.holds != "" && (a.walker == "rm" || a.walker == "rmdir" || a.walker == "shred"):
		// Removing the tree, not searching it: no search to narrow (a
		// new user's `rm -rf .` was told to name directories to search).
		return fmt.Sprintf("%s is a directory %s removes with all it holds, %s among it, which matches %s", arg, a.walker, a.holds, rule)
	case a.walker != "" && a.holds != "":
		skip := "name the directories to search instead"
		if a.walker == "grep" || a.walker == "egrep" || a.walker == "fgrep" || a.walker == "rgrep" {
			skip = fmt.Sprintf("leave it out with --exclude=%s, or %s", a.holds, skip)
		}
		return fmt.Sprintf("%s is a directory %s walks, holding %s, which matches %s (%s)", arg, a.walker, a.holds, rule, skip)
	case a.walker != "" && a.could:
		return fmt.Sprintf("%s is a directory %s walks, and what is in it could match %s", arg, a.walker, rule)
	case a.walker != "":
		return fmt.Sprintf("%s is a directory %s walks, and everything in it matches %s", arg, a.walker, rule)
	}
	return arg + " matches " + rule
}

// argScan is the state of matchArgs.
type argScan struct {
	// belowSuffix, while linksBelowRead runs, is the ending every name
	// given has: a link to a file under another name is not read.
	belowSuffix string
	x           *pathIndex
	cwd         string // Context.Cwd, "" when unknown
	cwdCanon    string // canonical(cwd)
	lk          *Lookups
	// skipsHidden: the walker leaves hidden files alone (rg and ag without
	// --hidden, -u…, see skipsHiddenFiles).
	skipsHidden bool
	home        string
	walker      string
	// alters: the walker changes or removes all a directory argument
	// holds (alteringWalk).
	alters bool
	hm     holeMatcher
	// cwdUnknown: relative words name paths below a directory only known
	// at run time (Context.CwdUnknown).
	cwdUnknown bool
	// noNewLinks: Context.NoNewLinks.
	noNewLinks bool
	// nameGlobs: argPlan.nameGlobs, the names the walker reads.
	nameGlobs []nameGlob
	// find: argPlan.find, the names a find's actions are limited to.
	find *findFilter
	// plainGlob: the word being checked is a glob (Subject.Glob) that
	// matches as bash's (Context.PlainGlobs), whose names namesProtected
	// looked at one by one.
	plainGlob bool
	// procDepth counts the checks under way of a path a link into /proc
	// led to (see check).
	procDepth int

	deny, could, ask *argHit
	// protect: match arguments against the protected paths too (the
	// program may write them); protected is the first such argument.
	protect   bool
	protected *argHit
	// sections are the path sections whose rules apply, read first (the
	// likelier reading): both, or only read for a program in readsArgs.
	sections []int
	// deref: the walker follows the symbolic links it meets below a
	// directory (see derefWalker), whose targets are then checked too.
	deref bool
}

// readThenWrite are the path sections an argument is matched against,
// read first (argScan.sections; shared, never written).
var readThenWrite = []int{1, 0}

// argPlan is what matchArgs works out from an exec subject's words alone,
// before any working directory: made once for all of them (see planArgs).
type argPlan struct {
	none        bool // no argument is matched (see matchArgs)
	skipsHidden bool
	walker      string
	alters      bool     // the walker changes or removes what it walks (alteringWalk)
	deref       bool     // the walker follows links below its directories (derefWalker)
	reads       bool     // the program is in readsArgs
	args        []string // the words matched: after the name, and a subcommand
	walksCwd    bool     // the walker walks the working directory (see walksCwd)
	// open and first say which of args are open (Subject.Open): args[j]
	// is words[first+j]; notPaths: the program's open words name no file
	// it opens (see notPaths).
	open, bound uint64
	// glob, patterns and found are Subject.Glob, Subject.GlobPatterns
	// and Subject.Found.
	glob, found uint64
	// listed is Subject.Listed.
	listed uint64
	// remover: the program removes its operands (rm, rmdir, unlink),
	// a link as itself, reading none.
	remover  bool
	patterns []string
	first    int
	notPaths bool
	// pattern is the index in args of a search tool's pattern operand
	// (see searchPattern), which names no file; -1 for none. code is that
	// of a shell's -c code (see shellCode): code its segments stand for.
	pattern, code int
	// nameGlobs are grep's --include and --exclude globs, in order, and
	// globWords the indices in args of the words that are only such a
	// glob (or an --exclude-dir one): names to match, no file to open
	// (see grepNameGlobs).
	nameGlobs []nameGlob
	globWords []int
	// find is the filter of a find whose expression limits its actions
	// to names (see findFilterOf), nil for none.
	find *findFilter
	// kept are the indices in args of the words naming mv's destination
	// (see mvDestination): what the walk moves its sources into, not what
	// it moves.
	kept []int
}

// nameGlob is one --include (include) or --exclude glob of grep.
type nameGlob struct {
	glob    string
	include bool
}

// archiverPatterns returns the indices in words of tar's and rsync's
// `--exclude=PATTERN` words (and rsync's `--include=PATTERN`): patterns
// of member names, no file the program opens (a new user's `tar czf
// out.tgz --exclude=.git .` asked as a write of .git in every mode). Only
// the one-word form with the exact option name counts (an abbreviation
// may be another option: tar's `--exclude-f=FILE` reads FILE), and only
// where it cannot be the value of the option before it: after the
// program's name, an operand, a `--name=value` word, a long option known
// to take no value, or a cluster of letters none of which takes one
// (attack run 85: `tar -x -f p.tar -C --exclude=` extracted into a link
// named `--exclude=` leading to the home). A value with a `..` component
// or a run-time part is left a path.
func archiverPatterns(words []string) []int {
	var names []string
	var valued string // the one-letter options that take a value
	switch words[0] {
	case "tar", "gtar", "bsdtar":
		names, valued = []string{"--exclude"}, "fbCTXgKNHLVFIs"
	case "rsync":
		names, valued = []string{"--exclude", "--include"}, "efTBM"
	default:
		return nil
	}
	var at []int
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			break
		}
		name, val, ok := strings.Cut(w, "=")
		if !ok || !slices.Contains(names, name) || strings.Contains(val, Hole) ||
			slices.Contains(strings.Split(val, "/"), "..") || !takesNoValue(words, i-1, valued) {
			continue
		}
		at = append(at, i)
	}
	return at
}

// noValueLong are long options of tar and rsync that take no value.
var noValueLong = []string{"--gzip", "--bzip2", "--xz", "--zstd", "--lzma", "--compress", "--verbose", "--create",
	"--extract", "--list", "--append", "--update", "--auto-compress", "--exclude-vcs", "--exclude-vcs-ignores",
	"--exclude-backups", "--exclude-caches", "--no-recursion", "--recursion", "--preserve-permissions",
	"--same-owner", "--no-same-owner", "--numeric-owner", "--dereference", "--keep-old-files", "--overwrite",
	"--totals", "--archive", "--recursive", "--delete", "--delete-excluded", "--delete-after", "--progress",
	"--partial", "--checksum", "--dry-run", "--links", "--times", "--perms", "--human-readable", "--stats",
	"--quiet", "--inplace", "--ignore-existing", "--no-perms", "--no-owner", "--no-group", "--prune-empty-dirs",
	"--itemize-changes", "--copy-links", "--safe-links", "--hard-links", "--sparse", "--whole-file"}

// takesNoValue reports whether words[j], the word before a candidate
// pattern word, cannot make that word its value (see archiverPatterns).
func takesNoValue(words []string, j int, valued string) bool {
	w := words[j]
	switch {
	case j == 0:
		return true
	case strings.HasPrefix(w, "--"):
		return strings.Contains(w, "=") || slices.Contains(noValueLong, w)
	case strings.HasPrefix(w, "-"):
		return len(w) > 1 && !strings.ContainsAny(w[1:], valued)
	case j == 1 && (words[0] == "tar" || words[0] == "gtar"):
		// tar's old-style first word is a cluster too (czf).
		return !strings.ContainsAny(w, valued)
	}
	return true // an operand
}

// grepNameGlobs returns, for grep (grep(1), grep 3.8: --include=GLOB,
// --exclude=GLOB, --exclude-dir=GLOB, each also with its value as the next
// word; options may follow operands, none after "--"), the --include and
// --exclude globs in the order given, and the indices in words of the
// words that are only a glob. The other options' values are skipped as
// grepOptions says they are taken; an option it does not know (an
// abbreviation: `--reg --exclude=.env` gives the pattern
// "--exclude=.env") leaves none: every word stays a path.
func grepNameGlobs(words []string) (globs []nameGlob, at []int) {
	switch words[0] {
	case "grep", "egrep", "fgrep", "rgrep":
	default:
		return nil, nil
	}
	withArg, flags := grepOptions()
	// With POSIXLY_CORRECT (guardsh's environment, which commands
	// inherit, or the command's own), options end at the first operand:
	// a later --exclude=.env is a file grep reads (attack run 37).
	_, posix := os.LookupEnv("POSIXLY_CORRECT") // set, even empty (attack run 38)
	posix = posix || slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "POSIXLY_CORRECT=") })
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			return globs, at
		case w == "-" || !strings.HasPrefix(w, "-"):
			if posix {
				return globs, at
			}
			continue // an operand
		case strings.HasPrefix(w, "--"):
			name, val, eq := strings.Cut(w, "=")
			switch {
			case name == "--include" || name == "--exclude" || name == "--exclude-dir":
				if !eq {
					if i+1 == len(words) {
						return nil, nil
					}
					i++
					val = words[i]
				}
				at = append(at, i)
				if name != "--exclude-dir" {
					globs = append(globs, nameGlob{glob: val, include: name == "--include"})
				}
			case withArg[name] && !eq:
				i++
			case withArg[name] || flags[name]:
			default:
				return nil, nil
			}
		default:
			for k := 1; k < len(w); k++ {
				c := "-" + w[k:k+1]
				if withArg[c] {
					if k == len(w)-1 {
						i++
					}
					break
				}
				if !flags[c] && (w[k] < '0' || w[k] > '9') {
					return nil, nil
				}
			}
		}
	}
	return globs, at
}

// readsName reports whether grep, given globs (grepNameGlobs), reads a
// file named name that it meets walking a directory: "If contradictory
// --include and --exclude options are given, the last matching one wins.
// If no --include or --exclude options match, a file is included unless
// the first such option is --include" (grep(1)). A glob this reading
// cannot match for certain (a bracket expression, a backslash, a run-time
// part) counts as reading it.
func readsName(globs []nameGlob, name string) bool {
	last := -1
	for i, g := range globs {
		if strings.ContainsAny(g.glob, "[\\\x00") {
			return true
		}
		if ok, err := path.Match(g.glob, name); err != nil {
			return true
		} else if ok {
			last = i
		}
	}
	if last >= 0 {
		return globs[last].include
	}
	return len(globs) == 0 || !globs[0].include
}

// bounded reports whether args[j] is bounded (Subject.Bounded).
func (pl *argPlan) bounded(j int) bool {
	i := pl.first + j
	return i < 64 && pl.bound&(1<<i) != 0
}

// shellCode returns the index in words of the code a shell given -c runs
// (`bash -c 'find . -not -path "./.git/*"'`), -1 for none: the first
// operand after options one of which holds c (bash(1): "commands are read
// from the first non-option argument"). The code is no file: the analysis
// reads it into segments of its own (or, only known at run time, asks),
// so it is not matched as a path (a new user's `find … "./.git/*"` in
// Claude Code's eval and bash -c asked as a protected path). Options that
// take an argument (-o, -O, +o, +O, --rcfile, --init-file) skip it.
func shellCode(words []string) int {
	switch path.Base(words[0]) {
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash":
	default:
		return -1
	}
	c, short := false, false
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !short && len(w) > 2 && w[0] == '-' && w[1] != '-' && shellLongOptions[w[1:]] {
			w = "-" + w // bash's long options spelled with one dash
		}
		switch {
		case w == "--":
			if c && i+1 < len(words) {
				return i + 1
			}
			return -1
		case w == "+":
			// An empty option group, which bash and dash skip.
		case strings.HasPrefix(w, "--"):
			if short {
				return -1 // bash refuses a long option after a short one
			}
			if w == "--rcfile" || w == "--init-file" {
				i++
			}
		case len(w) > 1 && (w[0] == '-' || w[0] == '+'):
			// Long options only come before the first short one
			// (attack run 48: after -e, -rcfile is -r -c -f …), and each
			// o or O takes the next word (-oc pipefail CODE).
			short = true
			c = c || strings.ContainsRune(w[1:], 'c') // +c too, as bash reads it
			i += strings.Count(w[1:], "o") + strings.Count(w[1:], "O")
		default:
			if c {
				return i
			}
			return -1
		}
	}
	return -1
}

// shellLongOptions are bash's long options (bash 5.2 shell.c long_args;
// interp's bashLongOptions), which it also reads spelled with one dash
// before any short option.
var shellLongOptions = map[string]bool{
	"debug": true, "debugger": true, "dump-po-strings": true, "dump-strings": true, "help": true,
	"init-file": true, "login": true, "noediting": true, "noprofile": true, "norc": true, "posix": true,
	"pretty-print": true, "protected": true, "rcfile": true, "rpm-requires": true, "restricted": true,
	"verbose": true, "version": true, "wordexp": true,
}

// descriptorItself reports a path that names a descriptor directory
// (/dev/fd, /proc/PID/fd) or a descriptor in it (/dev/fd/2), not a path
// below a descriptor (/dev/fd/3/, /dev/fd/3/x), which leads into whatever
// directory was opened there.
func descriptorItself(w string) bool {
	s := strings.TrimSuffix(squeeze(w), "/")
	parts := strings.Split(strings.TrimPrefix(s, "/"), "/")
	for k, c := range parts {
		if c == "fd" && (k == 1 && parts[0] == "dev" || k >= 2 && parts[0] == "proc") {
			return len(parts) <= k+2 && !(len(parts) == k+2 && strings.HasSuffix(w, "/"))
		}
	}
	return false
}

// notPaths are programs whose arguments, when only known at run time, are
// no files they open themselves: code (eval, trap, let), a command that
// the analysis emits as a segment of its own (exec, command, builtin and
// the wrappers it unwraps), a directory to change to, a variable's name.
var notPaths = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"eval": true, "exec": true, "command": true, "builtin": true, "trap": true, "let": true,
		"alias": true, "unalias": true, "hash": true, "enable": true, "shift": true, "return": true,
		"exit": true, "set": true, "shopt": true, "wait": true, "kill": true, "ulimit": true,
		"umask": true, "jobs": true, "fg": true, "bg": true, "disown": true, "cd": true,
		"pushd": true, "popd": true, "read": true, "getopts": true, "mapfile": true, "readarray": true,
		"time": true, "nohup": true, "nice": true, "timeout": true, "env": true, "sudo": true,
		"doas": true, "setsid": true, "stdbuf": true, "ionice": true, "chrt": true, "taskset": true,
		"xargs": true,
	}
})

// Traits of a program's name that planArgs reads (planTraits).
const (
	traitStringOnly  = 1 << iota // stringOnly
	traitReads                   // readsArgs
	traitNotPaths                // notPaths
	traitSubcommands             // subcommandTools
)

// planTraits maps each name of stringOnly, readsArgs, notPaths and
// subcommandTools to the traits it has there: one lookup per segment
// instead of four (TestPlanTraits checks it against the four).
var planTraits = sync.OnceValue(func() map[string]uint8 {
	m := map[string]uint8{}
	for _, set := range []struct {
		names map[string]bool
		trait uint8
	}{{stringOnly(), traitStringOnly}, {readsArgs, traitReads}, {notPaths(), traitNotPaths}, {subcommandTools(), traitSubcommands}} {
		for name, in := range set.names {
			if in {
				m[name] |= set.trait
			}
		}
	}
	return m
})

// planArgs returns the plan of matchArgs for words, whose open ones
// open marks (Subject.Open).
func planArgs(words []string, open, bound uint64) argPlan {
	if len(words) < 2 {
		return argPlan{none: true}
	}
	traits := planTraits()[words[0]]
	if traits&traitStringOnly != 0 {
		return argPlan{none: true}
	}
	pl := argPlan{skipsHidden: skipsHiddenFiles(words), walker: walker(words), reads: traits&traitReads != 0, args: words[1:], open: open, bound: bound, first: 1,
		notPaths: traits&traitNotPaths != 0, pattern: -1, code: -1}
	if traits&traitSubcommands != 0 && isSubcommand(pl.args[0]) {
		pl.args = pl.args[1:]
		pl.first = 2
	}
	switch words[0][strings.LastIndexByte(words[0], '/')+1:] {
	case "rm", "rmdir", "unlink":
		pl.remover = true
	}
	if i := searchPattern(words); i >= pl.first {
		pl.pattern = i - pl.first
	}
	if i := shellCode(words); i >= pl.first {
		pl.code = i - pl.first
	}
	if words[0] == "find" || words[0] == "gfind" {
		// The values of find's name and path tests are patterns, no
		// file (a new user's `-not -path './.git/*'` was read as a
		// write of .git).
		for i := 1; i+1 < len(words); i++ {
			switch words[i] {
			case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname":
				if i+1 >= pl.first {
					pl.globWords = append(pl.globWords, i+1-pl.first)
				}
				i++
			}
		}
	}
	for _, i := range archiverPatterns(words) {
		if i >= pl.first {
			pl.globWords = append(pl.globWords, i-pl.first)
		}
	}
	if globs, at := grepNameGlobs(words); len(at) > 0 {
		pl.nameGlobs = globs
		for _, i := range at {
			pl.globWords = append(pl.globWords, i-pl.first)
		}
	}
	pl.walksCwd = pl.walker != "" && walksCwd(words)
	pl.alters = pl.walker != "" && alteringWalk(words, pl.walker)
	if pl.walker == "find" {
		if f, ok := findFilterOf(words); ok {
			pl.find = &f
		}
	}
	if pl.alters && (pl.walker == "mv" || pl.walker == "cp") {
		for _, i := range mvDestination(words) {
			if i >= pl.first {
				pl.kept = append(pl.kept, i-pl.first)
			}
		}
	}
	pl.deref = pl.walker != "" && derefWalker(words)
	return pl
}

// mvDestination returns the indices in words (mv and its arguments) of
// the words that name its destination, which it moves the sources into
// or renames them to and does not move itself: -t DIR (or
// --target-directory=DIR, or -tDIR), else the last operand of two or
// more (GNU coreutils 9 mv(1): "mv [OPTION]... SOURCE... DIRECTORY").
// None with --exchange, which swaps the destination with the source (a
// long option, or an abbreviation of it, as getopt_long takes), or when
// the words cannot be read so (a run-time word that may be an option).
// Attack run 74's altering walks made `mv build.tar ~/` ask in every
// mode, as if the home directory were moved.
func mvDestination(words []string) []int {
	var target, operands []int
	opts := true
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case strings.Contains(w, Hole):
			if opts && strings.HasPrefix(w, "-") || strings.HasPrefix(w, Hole) {
				return nil // may be an option, or several words
			}
			operands = append(operands, i)
		case !opts || w == "-" || !strings.HasPrefix(w, "-"):
			operands = append(operands, i)
		case w == "--":
			opts = false
		case strings.HasPrefix(w, "--"):
			name, _, glued := strings.Cut(w, "=")
			switch {
			case len(name) >= 4 && strings.HasPrefix("--exchange", name):
				return nil
			case len(name) >= 4 && strings.HasPrefix("--target-directory", name):
				if glued {
					target = append(target, i)
				} else if i+1 < len(words) {
					i++
					target = append(target, i)
				}
			case len(name) >= 4 && strings.HasPrefix("--suffix", name) && !glued:
				i++
			}
		default:
			// A cluster of short options: -t and -S take the rest of
			// the word, or the next one.
			for k := 1; k < len(w); k++ {
				if w[k] == 't' || w[k] == 'S' {
					if k+1 == len(w) {
						i++
						if w[k] == 't' && i < len(words) {
							target = append(target, i)
						}
					} else if w[k] == 't' {
						target = append(target, i)
					}
					break
				}
			}
		}
	}
	if target != nil {
		return target
	}
	if len(operands) >= 2 {
		return operands[len(operands)-1:]
	}
	return nil
}

// matchArgs matches the arguments of an exec subject against the write
// and read rules that deny or ask (see the comment at the top of this
// file). It returns the first argument a deny rule matches (deny), else
// the first directory a deny rule could match below (could), and the first
// argument an ask rule matches (ask); nil for none.
//
// With protect, it also returns the first argument that names a protected
// path (a program that is not read-only may write any file it is given:
// `sed -i … ~/.bashrc`, `tee -a ~/.ssh/authorized_keys`); its rule is nil.
//
// pl is planArgs of the words: what needs no working directory is worked
// out once for all of them.
func (p *Policy) matchArgs(pl *argPlan, ctx Context, protect bool) (deny, could, ask, protected *argHit) {
	if pl.none {
		return nil, nil, nil, nil
	}
	x := p.pathIndexFor(ctx)
	sc := argScan{x: x, lk: ctx.Lookups, skipsHidden: pl.skipsHidden, home: ctx.Home, walker: pl.walker, alters: pl.alters, protect: protect && !pl.reads, sections: readThenWrite, deref: pl.deref, nameGlobs: pl.nameGlobs, find: pl.find}
	if pl.reads {
		sc.sections = sc.sections[:1]
	}
	if pl.find != nil && !pl.find.whole {
		// find -delete of names reads no file: the read rules have
		// nothing to say of what it walks (a new user's `find . -name
		// '*.pyc' -delete` asked for the .env beside it).
		sc.sections = sc.sections[1:]
	}
	sc.noNewLinks = ctx.NoNewLinks
	if ctx.CwdUnknown {
		sc.cwdUnknown = true
	} else if cl, c := x.cwdForms(ctx.Cwd, ctx.Lookups); c != "" {
		sc.cwd, sc.cwdCanon = cl, c
	}
	if sc.home == "/" {
		sc.home = ""
	}
	args := pl.args
	operands := false
	for j, w := range args {
		if sc.deny != nil {
			break
		}
		if w == "" || j == pl.pattern || j == pl.code || slices.Contains(pl.globWords, j) {
			continue
		}
		// mv's destination is neither walked nor moved: the sources are
		// put in it.
		sc.walker, sc.alters = pl.walker, pl.alters
		if slices.Contains(pl.kept, j) {
			sc.walker, sc.alters = "", false
		}
		if !strings.Contains(w, Hole) && sc.could == nil && !pl.notPaths && isProcPath(w) {
			if r, known := procPath(w, sc.cwd); !known && !strings.HasPrefix(r, "/") && !descriptorItself(w) {
				// Below a descriptor (`grep -r . /dev/fd/3/` with 3<
				// ~/.ssh: attack run 51), or another process's
				// directory: any path at all. A descriptor itself
				// (`readlink /proc/self/fd/2`) is what was opened there.
				sc.holedAnywhere(Hole + "/" + r)
			}
		}
		if i := strings.Index(w, Hole); i >= 0 && isProcPath(w) {
			if d, other := otherDescriptor(w); other && sc.ask == nil {
				// Another process's descriptor, its PID only known
				// at run time: a read rule for such paths applies.
				sc.holedSecret(d)
			}
			// /proc/self/cwd/* and the like: as the command sees it.
			if r, known := procPath(w, sc.cwd); known {
				w = r
			} else {
				// Another process's directory (`/proc/$$/cwd/..`): a
				// protected path's tail there, as after a cd to a
				// directory only known at run time (attack run 83).
				if r != "" && !strings.HasPrefix(r, Hole) {
					sc.unknownProtected(tildeShown(w, sc.home), r)
				}
				// Below a descriptor or another process's directory:
				// any path at all (attack run 51: `{ grep -r .
				// /dev/fd/3/; } 3< ~/.ssh`, `cat /dev/fd/3/*`).
				w = Hole + "/" + r
				if sc.could == nil && !pl.notPaths {
					sc.holedAnywhere(w)
				}
			}
		}
		if i := strings.Index(w, Hole); i >= 0 {
			if sc.protect && sc.protected == nil && !pl.notPaths && w[0] != '-' {
				// What follows a glob's component may be a protected
				// path's tail wherever that component leads (`.[.]`
				// matches ".." once globskipdots is off: attack run 80's
				// `>> src/.[.]/.git/hooks/pre-commit`). A variable's value
				// there is the known limit of run-time words.
				k := pl.first + j
				isGlob := k < 64 && pl.glob&(1<<k) != 0 || k < len(pl.patterns) && pl.patterns[k] != ""
				if tail := afterRunTime(w); tail != "" && isGlob {
					if pat := x.protectedTail(tail); pat != "" {
						sc.protected = &argHit{arg: tildeShown(strings.ReplaceAll(w, Hole, "…"), sc.home), via: pat}
					}
				}
			}
			if sc.protect && sc.protected == nil && !pl.notPaths && w[0] != '-' {
				// The names it matches now (`sed -i … ~/.bash[r]c`).
				cwd := ctx.Cwd
				if ctx.CwdUnknown {
					cwd = ""
				}
				k := pl.first + j
				pattern := ""
				if k < len(pl.patterns) {
					pattern = pl.patterns[k]
				}
				if pat, held := x.namesProtected(w, pattern, cwd, OpenWord(pl.open, k), k < 64 && pl.glob&(1<<k) != 0, sc.alters, ctx); pat != "" {
					sc.protected = &argHit{arg: tildeShown(strings.ReplaceAll(w, Hole, "…"), sc.home), via: pat}
					if held {
						sc.protected.walker = sc.walker
					}
				}
			}
			if sc.could == nil && !pl.notPaths && OpenWord(pl.open, pl.first+j) {
				// `cat "$f"`, `cat $(echo ~/.ssh/id_rsa)`, `cat ./"$f"`:
				// the word may be any path at all, so every deny rule
				// could match.
				sc.holedAnywhere(w)
			}
			if i == 0 && strings.Contains(w, "/.") && sc.could == nil {
				// `cat $HOME/.ssh/id_*`, `cat */.ssh/id_rs?`: the
				// literal part aims at a dot-directory; a deny rule that
				// could match the whole word asks.
				sc.holedWhole(w)
			}
			if i == 0 && !sc.cwdUnknown && sc.cwdCanon != "" {
				// `cat *` after `cd ~/.ssh`.
				sc.holedInCwd(w)
			} else if i == 0 && sc.could == nil {
				// `cat ?d_rsa` after `cd "$(echo ~/.ssh)"` (attack run
				// 43): names in a directory only known at run time,
				// which a deny rule or a built-in secret could match
				// (attack run 50: `cat *` there read ~/.aws/credentials).
				sc.holedWhole(Hole + "/" + w)
				sc.holedSecretWhole(Hole + "/" + w)
			} else if i > 0 && w[0] != '-' {
				// What a find -exec command is given: the find's own
				// segment answers for the protected paths it reaches.
				alters := sc.alters
				k := pl.first + j
				if k < 64 && pl.found&(1<<k) != 0 {
					sc.alters = false
				}
				sc.plainGlob = ctx.PlainGlobs && k < 64 && pl.glob&(1<<k) != 0 && !strings.Contains(w[:strings.LastIndexByte(w, '/')+1], Hole)
				sc.holed(w, w[:i])
				sc.alters, sc.plainGlob = alters, false
				if k < 64 && (pl.found|pl.listed)&(1<<k) != 0 && !pl.remover && sc.deny == nil {
					// What find printed or gives is any path below its
					// start directory, a link too, which the program
					// reads through (attack run 84: find src -name
					// '*.py' -exec cat {} + read src/d1/k.py, a link
					// to the key): the links below it as a walker that
					// follows them reads them.
					sc.linksBelowRead(w, w[:i])
				}
			}
			if sc.deny == nil && (i > 0 && w[0] != '-' || !OpenWord(pl.open, pl.first+j)) && !pl.bounded(j) {
				// `cat *` beside a link to a key.
				sc.globLinks(w, i)
			}
			if w[0] != '-' && sc.ask == nil {
				sc.holedSecret(w)
			}
			continue
		}
		if !operands && w[0] == '-' && sc.could == nil && !pl.notPaths && namesFromFile(w) {
			// sort --files0-from=-, tar --files-from=list: the files
			// read are named by what the program reads, any at all.
			sc.holedAnywhere(w)
		}
		if !operands && w[0] == '-' {
			if w == "--" {
				operands = true
			} else if i := strings.IndexByte(w, '='); i >= 0 {
				sc.value(w, w[i+1:])
			} else if len(w) > 2 && w[1] != '-' {
				// A value glued to a short option: after any letter of
				// the cluster (-tsub/../x, -abt/dir, -fid_rsa: a plain
				// name is looked up in the working directory's listing);
				// and from the first "/", "~" or ".".
				for i := 2; i < len(w) && i < 12 && sc.deny == nil; i++ {
					if isLetter(w[i-1]) {
						sc.value(w, w[i:])
					}
				}
				if k := strings.IndexAny(w[2:], "/~."); k >= 0 && sc.deny == nil {
					sc.value(w, w[2+k:])
				}
			}
			continue
		}
		sc.value(w, w)
		if i := strings.IndexByte(w, '='); i > 0 && sc.deny == nil {
			sc.value(w, w[i+1:])
		}
	}
	if pl.walker == "find" && !ctx.PlainGlobs && !pl.walksCwd && sc.deny == nil {
		// Under nullglob a start path that is a glob matching nothing is
		// no word: find walks the working directory (attack run 80).
		if starts, ok := findStarts(args); ok && slices.ContainsFunc(starts, func(w string) bool { return strings.Contains(w, Hole) }) {
			sc.walker, sc.alters = pl.walker, pl.alters
			sc.value(".", ".")
		}
	}
	if sc.walker != "" && sc.deny == nil && pl.walksCwd {
		// With no directory operand the walk starts at the working
		// directory: `cd ~/.ssh && grep -r key`.
		sc.walker, sc.alters = pl.walker, pl.alters
		sc.value(".", ".")
	}
	return sc.deny, sc.could, sc.ask, sc.protected
}

// cwdFree reports that matchArgs of pl gives the same answer in every
// working directory (for one Context otherwise): no argument it matches
// is relative or only known at run time, or could name a directory entry
// (a plain word, a value glued to an option), a /proc or /dev/fd path
// (the working directory's link), and the walker does not walk the
// working directory. It follows matchArgs word by word and answers false
// wherever matchArgs would look at a path that is not absolute
// (TestPreparedIn checks its answers against In in several directories).
func (pl *argPlan) cwdFree() bool {
	if pl.none {
		return true
	}
	if pl.walksCwd {
		return false
	}
	operands := false
	for j, w := range pl.args {
		switch {
		case w == "" || j == pl.pattern || slices.Contains(pl.globWords, j):
		case strings.Contains(w, Hole):
			return false
		case !operands && w[0] == '-':
			if w == "--" {
				operands = true
				continue
			}
			if strings.IndexByte(w, '=') >= 0 {
				return false
			}
			if len(w) > 2 && w[1] != '-' {
				for i := 2; i < len(w) && i < 12; i++ {
					if isLetter(w[i-1]) {
						return false // a glued value
					}
				}
				if strings.ContainsAny(w[2:], "/~.") {
					return false
				}
			}
		default:
			if !valueCwdFree(w) {
				return false
			}
			if i := strings.IndexByte(w, '='); i > 0 && !valueCwdFree(w[i+1:]) {
				return false
			}
		}
	}
	return true
}

// valueCwdFree reports that argScan.value of c looks at no path that
// depends on the working directory: c is a URL other than file://, empty,
// or an absolute path outside /proc and /dev/fd.
func valueCwdFree(c string) bool {
	if rest, ok := strings.CutPrefix(c, "file://"); ok {
		c = rest
	} else if strings.Contains(c, "://") {
		return true
	}
	return c == "" || c[0] == '/' && !strings.Contains(c, "proc/") && !strings.Contains(c, "fd/")
}

// walksCwd reports a walker given no path operand, which then walks the
// working directory: find with no path before its expression; grep -r,
// rgrep, rg, ag and ack with only a pattern (or with -e/-f patterns and no
// operand).
func walksCwd(words []string) bool {
	name := words[0][strings.LastIndexByte(words[0], '/')+1:]
	args := words[1:]
	switch name {
	case "find":
		// Its options before the start paths (-H, -L, -P, -D DEBUG,
		// -OLEVEL: GNU find(1)) are no expression.
		i := 0
		for i < len(args) && (args[i] == "-H" || args[i] == "-L" || args[i] == "-P" || args[i] == "-D" || strings.HasPrefix(args[i], "-O")) {
			if args[i] == "-D" {
				i++
			}
			i++
		}
		return i >= len(args) || strings.HasPrefix(args[i], "-") || args[i] == "(" || args[i] == "!"
	case "grep", "egrep", "fgrep", "rgrep", "ugrep", "rg", "ag", "ack":
	default:
		return false
	}
	withArg := searchOptionsWithArg()
	patterns, operands := false, 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands += len(args) - i - 1
			i = len(args)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			flag := a
			if strings.HasPrefix(a, "--") {
				flag, _, _ = strings.Cut(a, "=")
			} else if len(a) > 2 {
				flag = a[:2]
			}
			if flag == "-e" || flag == "-f" || flag == "--regexp" || flag == "--file" {
				patterns = true
			}
			if withArg[flag] && flag == a {
				i++ // its value is the next word
			}
		default:
			operands++
		}
	}
	if patterns {
		return operands == 0
	}
	return operands <= 1
}

// searchPattern returns the index in words of the pattern operand of a
// search tool (grep, egrep, fgrep, rgrep, rg, ag, ack, ugrep): the first
// operand when no -e, -f, --regexp or --file gives the patterns anywhere
// (grep(1), rg(1); options may follow operands), which names no file the
// tool opens (`grep -rn "~/.ssh/id_rsa"
// src` searches for that text). -1 when there is none, or when an option
// before it is not known to be a flag or to take the next word as its
// value (searchFlags, searchOptionsWithArg): its value could be the word
// taken for the pattern, and be a file (--exclude-from FILE), so every
// word is then matched as a path, as for any program.
func searchPattern(words []string) int {
	var withArg, flags map[string]bool
	switch words[0] {
	case "grep", "egrep", "fgrep", "rgrep":
		withArg, flags = grepOptions()
	case "rg":
		withArg, flags = rgOptions()
	default:
		// ugrep, ag and ack: their letters mean other things (ag -t,
		// -D take no value): every word is matched as a path.
		return -1
	}
	// Options may follow operands (getopt permutes them): patterns given
	// anywhere by -e or -f make every operand a file (`grep KEYFILE -e x`).
	for _, w := range words[1:] {
		if w == "--" {
			break
		}
		if strings.HasPrefix(w, "--") {
			if name, _, _ := strings.Cut(w, "="); name == "--regexp" || name == "--file" || name == "--files" || name == "--type-list" {
				return -1
			}
		} else if strings.HasPrefix(w, "-") && strings.ContainsAny(w[1:], "ef") {
			return -1
		}
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			if i+1 < len(words) {
				return i + 1
			}
			return -1
		case w == "-" || !strings.HasPrefix(w, "-"):
			return i
		case strings.HasPrefix(w, "--"):
			name, _, eq := strings.Cut(w, "=")
			switch {
			case name == "--regexp" || name == "--file" || name == "--files" || name == "--type-list":
				return -1 // patterns given otherwise, or none at all
			case withArg[name] && !eq:
				i++
			case withArg[name] || flags[name]:
			default:
				return -1
			}
		default:
			// A cluster of short options: flags, then perhaps one
			// taking a value (glued, or the next word), or digits
			// (grep -5: context lines).
			for k := 1; k < len(w); k++ {
				c := w[k : k+1]
				if c == "e" || c == "f" {
					return -1
				}
				if withArg["-"+c] {
					if k == len(w)-1 {
						i++
					}
					break
				}
				if !flags["-"+c] && (w[k] < '0' || w[k] > '9') {
					return -1
				}
			}
		}
	}
	return -1
}

// grepOptions returns GNU grep's options (grep(1), grep 3.8) that take the
// next word as their value and those that take none, short ones as "-x".
var grepOptions = sync.OnceValues(func() (withArg, flags map[string]bool) {
	return searchOptionSets("ABCDdefm", "abcEFGhHiIlLnoPqrRsTUuvVwxyzZ",
		[]string{"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
			"--include", "--exclude", "--exclude-dir", "--exclude-from", "--label", "--directories", "--devices",
			"--binary-files", "--group-separator"},
		[]string{"--ignore-case", "--no-ignore-case", "--invert-match", "--word-regexp", "--line-regexp", "--count",
			"--files-with-matches", "--files-without-match", "--line-number", "--only-matching", "--no-filename",
			"--with-filename", "--quiet", "--silent", "--recursive", "--dereference-recursive", "--extended-regexp",
			"--fixed-strings", "--basic-regexp", "--perl-regexp", "--no-messages", "--text", "--binary", "--null",
			"--null-data", "--initial-tab", "--byte-offset", "--color", "--colour", "--line-buffered",
			"--no-group-separator"})
})

// rgOptions is grepOptions for ripgrep (rg(1), ripgrep 14).
var rgOptions = sync.OnceValues(func() (withArg, flags map[string]bool) {
	return searchOptionSets("ABCEefgjMmrTtd", "abcFHhIiLlNnoPpqSsUuvwxz.",
		[]string{"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context",
			"--glob", "--iglob", "--type", "--type-not", "--threads", "--max-columns", "--replace", "--encoding",
			"--max-depth", "--max-filesize", "--sort", "--sortr", "--type-add", "--colors", "--engine", "--pre",
			"--pre-glob", "--path-separator", "--context-separator", "--field-match-separator"},
		[]string{"--ignore-case", "--smart-case", "--case-sensitive", "--invert-match", "--word-regexp",
			"--line-regexp", "--count", "--count-matches", "--files-with-matches", "--files-without-match",
			"--line-number", "--no-line-number", "--only-matching", "--no-filename", "--with-filename", "--quiet",
			"--fixed-strings", "--hidden", "--no-ignore", "--follow", "--multiline", "--pcre2", "--json",
			"--vimgrep", "--no-heading", "--heading", "--pretty", "--unrestricted", "--search-zip", "--trim",
			"--stats", "--null", "--text", "--binary", "--color", "--no-messages"})
})

// searchOptionSets makes the two sets of grepOptions from the letters
// and long names of the options that take a value and of those that do
// not.
func searchOptionSets(argLetters, flagLetters string, argLong, flagLong []string) (withArg, flags map[string]bool) {
	withArg, flags = map[string]bool{}, map[string]bool{}
	for _, c := range argLetters {
		withArg["-"+string(c)] = true
	}
	for _, c := range flagLetters {
		flags["-"+string(c)] = true
	}
	for _, o := range argLong {
		withArg[o] = true
	}
	for _, o := range flagLong {
		flags[o] = true
	}
	return withArg, flags
}

// searchOptionsWithArg are the options of grep, rg, ag and ack that take
// the next word as their value (walksCwd).
var searchOptionsWithArg = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"-e": true, "-f": true, "-m": true, "-A": true, "-B": true, "-C": true, "-d": true, "-D": true,
		"--regexp": true, "--file": true, "--max-count": true, "--after-context": true, "--before-context": true,
		"--context": true, "--include": true, "--exclude": true, "--exclude-dir": true, "--label": true,
		"-g": true, "--glob": true, "-t": true, "--type": true, "-T": true, "--type-not": true}
})

// value checks c, the whole or a part of the argument word.
func (sc *argScan) value(word, c string) {
	if rest, ok := strings.CutPrefix(c, "file://"); ok {
		c = rest
	} else if strings.Contains(c, "://") {
		return
	}
	if rest, ok := strings.CutPrefix(c, "@"); ok {
		sc.path(word, rest)
	}
	sc.path(word, c)
}

// path checks c as a path: relative to the working directory (unless it
// is absolute) and, for a literal "~/…", under the home directory.
func (sc *argScan) path(word, c string) {
	if c == "" || sc.deny != nil {
		return
	}
	if d, other := otherDescriptor(c); other {
		// Another process's descriptor (a pipe or terminal it reads):
		// matched as written, whatever it leads to.
		sc.check(word, "", "", d, true)
		return
	}
	if isProcPath(c) {
		// As the command sees it (see procPath), not as guardsh does.
		p, known := procPath(c, sc.cwd)
		if !known {
			if p != "" {
				// A protected path's tail in a directory only known at
				// run time, as after a cd there (attack run 83: `sed -i …
				// /dev/fd/3/../.bashrc 3<.` ran in CI).
				sc.unknownProtected(word, p)
				sc.unknownDir(word, p)
				if sc.ask == nil {
					sc.holedSecret(Hole + "/" + p)
				}
			}
			return
		}
		c = p
	}
	pathLike := c[0] == '/' || c[0] == '~' || c[0] == '.' || strings.IndexByte(c, '/') >= 0
	if pathLike && strings.Contains(c, "..") && !sc.cwdUnknown && !sc.noNewLinks {
		abs := c
		switch {
		case c[0] == '~' && sc.home != "" && (c == "~" || strings.HasPrefix(c, "~/")):
			abs = sc.home + c[1:]
		case c[0] != '/' && sc.cwd != "":
			abs = sc.cwd + "/" + c
		}
		rest, ok := dotDotAfterMissing(abs)
		if !ok {
			rest, ok = dotDotAfterName(c)
		}
		if ok && strings.HasPrefix(abs, "/") {
			// ".." after a directory that is not there now, or after any
			// name the word gives: where it leads is unknown (see
			// dotDotAfterMissing, dotDotAfterName); a walker's directory
			// stands for all below it too.
			could, ask := sc.could, sc.ask
			sc.unknownDir(word, rest)
			if sc.walker != "" {
				sc.unknownDir(word, rest+"/"+Hole)
			}
			if sc.ask == nil {
				sc.holedSecret(Hole + "/" + rest)
			}
			for _, h := range []struct{ was, now *argHit }{{could, sc.could}, {ask, sc.ask}} {
				if h.now != nil && h.now != h.was {
					h.now.dotDot = true
				}
			}
			// And as it reads now, below: a deny rule that matches it
			// so still denies.
		}
	}
	switch {
	case c[0] == '/':
		sc.check(word, "", "", c, pathLike)
	case sc.cwdUnknown && c[0] != '~':
		sc.unknownDir(word, c)
		sc.unknownProtected(word, c)
	case sc.cwd != "":
		sc.check(word, sc.cwd, sc.cwdCanon, c, pathLike)
	}
	if sc.home != "" && (c == "~" || strings.HasPrefix(c, "~/")) {
		sc.check(word, "", "", sc.home+c[1:], true)
	}
}

// literalProtected notes word, which has a run-time part after the
// literal path p, as a protected path when p is one (a program that may
// write its arguments).
func (sc *argScan) literalProtected(word, p string) {
	if !sc.protect || sc.protected != nil {
		return
	}
	p = filepath.Clean(p)
	resolved := p
	if r, _ := resolve(sc.lk, p); r != "" {
		resolved = r
	}
	if pat := sc.x.protectedBy(pathSubject{cleaned: p, resolved: resolved}); pat != "" {
		sc.protected = &argHit{arg: tildeShown(strings.ReplaceAll(word, Hole, "…"), sc.home), via: pat}
		return
	}
	if sc.alters && !sc.plainGlob && (sc.x.protectedUnder(p) || resolved != p && sc.x.protectedUnder(resolved)) {
		// What a walk that changes all it finds is given below p (`rm
		// -rf ~/.local/*`, `rm -rf ~/.local/$X`) may hold a protected
		// path (attack run 74: the audit log, in mode bypass).
		sc.protected = &argHit{arg: tildeShown(strings.ReplaceAll(word, Hole, "…"), sc.home), via: "what lies below " + tildeShown(p, sc.home) + ", which may hold protected paths", walker: sc.walker}
	}
}

// newFile checks a plain word that names no entry of the working
// directory as the file a writing program would create there: against the
// protected paths and the write rules (the read rules cannot match a file
// that is not there to read). A deny rule it matches asks (could-match):
// the word may name no file at all.
func (sc *argScan) newFile(word, cleaned, resolved string) {
	if sc.protected == nil {
		if pat := sc.x.protectedBy(pathSubject{cleaned: cleaned, resolved: resolved}); pat != "" {
			sc.protected = &argHit{arg: tildeShown(word, sc.home), via: pat}
		}
	}
	if !slices.Contains(sc.sections, 0) {
		return
	}
	t := sc.x.sections[0]
	h := t.matchString(cleaned)
	if resolved != cleaned {
		hr := t.matchString(resolved)
		h.deny, h.ask = minHit(h.deny, hr.deny), minHit(h.ask, hr.ask)
	}
	switch {
	case h.deny >= 0 && sc.could == nil:
		// The word may be no file at all (`git config x`): a deny rule
		// that names it as one asks, as for a word known only at run
		// time.
		sc.could = &argHit{rule: t.entries[h.deny].rule, arg: tildeShown(word, sc.home), could: true, newFile: true}
	case h.ask >= 0 && sc.ask == nil:
		sc.ask = &argHit{rule: t.entries[h.ask].rule, arg: tildeShown(word, sc.home), newFile: true}
	}
}

// newPlainFile is newFile for c, a plain name (one component) that
// directory dir, whose canonical form is canon, does not list: the paths
// are joined in a buffer on the stack rather than allocated, newFile
// keeping neither (were one kept, the compiler would move the buffer to
// the heap: the strings stay valid either way, and are never written to
// after they are made). TestNewPlainFile compares it with newFile of the
// paths joined the long way.
func (sc *argScan) newPlainFile(word, dir, canon, c string) {
	var buf [192]byte
	b := append(buf[:0], canon...)
	if canon != "/" {
		b = append(b, '/')
	}
	b = append(b, c...)
	resolved := unsafe.String(unsafe.SliceData(b), len(b))
	cleaned := resolved
	if dir != canon {
		// The directory as given, which leads to canon through a
		// symlink: its own spelling of the path, after resolved.
		start := len(b)
		if dir != "/" {
			b = append(b, dir...)
		}
		b = append(append(b, '/'), c...)
		cleaned = unsafe.String(unsafe.SliceData(b[start:]), len(b)-start)
	}
	sc.newFile(word, cleaned, resolved)
}

// holed matches an argument with a run-time part after a literal prefix
// (a glob `~/.ssh/id_*`, or `/srv/$x`) as the prefix followed by any
// string: a deny rule that could match asks. The prefix's directory is
// cleaned and, when relative, joined to the working directory; the
// run-time part itself is matched as text (its "../" is not resolved).
func (sc *argScan) holed(word, prefix string) {
	if sc.could != nil {
		return
	}
	if sc.home != "" && (prefix == "~" || strings.HasPrefix(prefix, "~/")) {
		prefix = sc.home + prefix[1:]
	}
	var u []uint16
	if prefix[0] != '/' {
		if sc.cwdUnknown || sc.cwdCanon == "" {
			u = append(u, uHole)
			prefix = "/" + prefix
		} else {
			prefix = sc.cwdCanon + "/" + prefix
		}
	}
	forms := [][]uint16{}
	if i := strings.LastIndexByte(prefix, '/'); i > 0 {
		dir := filepath.Clean(prefix[:i])
		if len(u) == 0 {
			// The directory as the program reaches it: through the
			// symlinks on its way (`cat sl/*` with sl a link to ~/.ssh;
			// an attack run made such a link and read the key).
			if real, _ := resolve(sc.lk, dir); real != "" && real != dir {
				forms = append(forms, append(appendUnits(nil, strings.TrimSuffix(real, "/")+prefix[i:]), uHole))
			}
		}
		if dir == "/" {
			dir = ""
		}
		prefix = dir + prefix[i:]
	}
	forms = append(forms, append(appendUnits(u, prefix), uHole))
	if len(u) == 0 {
		// Anchored: when the literal part already names a protected
		// path, or a place in a protected directory, the word does too
		// whatever the run-time part adds (`cp hook
		// .git/hooks/pre-commit$X`, `>> ~/.bashrc$X`; an attack run's
		// find). A run-time part before the protected name is the
		// known limit of run-time words.
		sc.literalProtected(word, prefix)
	}
	for _, f := range forms {
		for _, sec := range sc.sections {
			t := sc.x.sections[sec]
			h := t.matchUnits(f, &sc.hm)
			if i := minHit(h.deny, h.could); i >= 0 {
				sc.could = &argHit{rule: t.entries[i].rule, arg: tildeShown(word, sc.home), could: true, runtime: true}
				return
			}
		}
	}
}

// holedSecret matches an argument with run-time parts (`.e*`,
// `$PWD/.env`, `~/.aws/*`) against the built-in secrets: a secret it
// could name asks. A secret below a fixed directory (~/.ssh/id_*) is
// matched against the literal start followed by any string; a dot-env file
// that may lie anywhere (/*/.env) only when the word's literal text names
// it — its last component starts with a literal "." before the run-time
// part (`.e*`: a glob matches a leading dot only when it is written), or
// the word ends in the file's name (`$PWD/.env`) — so that `cat ./*` and
// `cat src/*.ts` are not taken for reads of .env. A literal tail with a
// "/" after the last run-time part (`$X/.ssh/id_rsa`) is matched as any
// string followed by it.
func (sc *argScan) holedSecret(word string) {
	h := strings.Index(word, Hole)
	prefix := word[:h]
	comp := prefix[strings.LastIndexByte(prefix, '/')+1:]
	tail := word[strings.LastIndex(word, Hole)+1:]
	tailName := ""
	if i := strings.LastIndexByte(tail, '/'); i >= 0 {
		tailName = tail[i+1:]
	}
	var u []uint16
	if prefix != "" {
		p := prefix
		if sc.home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
			p = sc.home + p[1:]
		}
		switch {
		case strings.HasPrefix(p, "/"):
		case sc.cwdUnknown || sc.cwdCanon == "":
			u = append(u, uHole, '/')
		default:
			p = sc.cwdCanon + "/" + p
		}
		u = append(appendUnits(u, p), uHole)
	}
	// The whole word, each run-time part any string, when its literal
	// text names a dot-directory after a run-time part (/.ssh/, /.aws/):
	// structure enough that it aims at one, not `$d/src/*.go`.
	var full []uint16
	if strings.Contains(word[h:], "/.") {
		full = appendUnits(nil, word)
		if !strings.HasPrefix(word, "/") && !strings.HasPrefix(word, Hole) {
			full = appendUnits(append([]uint16{uHole}, '/'), word)
		}
	}
	t := sc.x.sections[1]
	for i := range t.entries {
		e := &t.entries[i]
		if e.rule.File != SecretsFile {
			continue
		}
		hit := false
		if name, anywhere := strings.CutPrefix(e.g.pat, "/*/"); anywhere {
			if ok, _ := path.Match(name, tailName); ok && tailName != "" {
				hit = true
			} else if strings.HasPrefix(comp, ".") && strings.HasPrefix(name, comp) {
				hit = true
			}
		} else if u != nil && sc.hm.could(e.g, u) {
			hit = true
		} else if strings.Contains(tail, "/.") && sc.hm.could(e.g, appendUnits([]uint16{uHole}, tail)) {
			hit = true // $X/.ssh/id_rsa: whatever $X is, it could be ~
		} else if full != nil && sc.hm.could(e.g, full) {
			hit = true // $HOME/.ssh/id_rs?, */.ssh/id_*
		}
		if hit {
			sc.ask = &argHit{rule: e.rule, arg: tildeShown(word, sc.home), could: true, runtime: true}
			return
		}
	}
}

// maxGlobEntries bounds the directory entries globLinks looks at for one
// word; past it the word is taken as any path at all (holedAnywhere).
const maxGlobEntries = 4096

// globLinks checks what word, a glob (or a bounded loop variable's value)
// whose first run-time part is at byte h, names through symlinks: it is
// matched against the file system as bash would expand it, component by
// component (each run-time part any string), and every name it reaches
// through a link — a link it names, or anything below a link to a
// directory it passes — is checked as the path it resolves to (see path).
// A glob names the links beside it and the program follows them: `cat *`
// next to a link to ~/.ssh/id_rsa, `cat */id_rsa` next to a link to
// ~/.ssh, read the key. A directory that cannot be listed is not looked
// at; more than maxGlobEntries entries make the word any path at all.
func (sc *argScan) globLinks(word string, h int) {
	start := strings.LastIndexByte(word[:h], '/') // the literal directory before the first run-time part
	dir, rest := sc.cwdCanon, word
	if start >= 0 {
		dir, rest = word[:start], word[start+1:]
		if sc.home != "" && (dir == "~" || strings.HasPrefix(dir, "~/")) {
			dir = sc.home + dir[1:]
		}
		if dir == "" {
			dir = "/"
		} else if !filepath.IsAbs(dir) {
			if sc.cwdUnknown || sc.cwdCanon == "" {
				return
			}
			dir = filepath.Join(sc.cwdCanon, dir)
		}
	} else if sc.cwdUnknown || dir == "" {
		return
	}
	viaLink := false
	if real, _ := resolve(sc.lk, dir); real != "" && real != filepath.Clean(dir) {
		viaLink = true // handled by holed as well; the names below too
	}
	shown := strings.ReplaceAll(word, Hole, "…")
	budget := maxGlobEntries
	var walk func(dir string, comps []string, viaLink bool)
	walk = func(dir string, comps []string, viaLink bool) {
		if sc.deny != nil || budget < 0 {
			return
		}
		if len(comps) == 0 {
			if viaLink {
				sc.path(shown, dir)
			}
			return
		}
		comp := comps[0]
		if comp == "" {
			walk(dir, comps[1:], viaLink)
			return
		}
		if !strings.Contains(comp, Hole) {
			next := filepath.Join(dir, comp)
			fi, err := sc.lk.lstat(next)
			if err != nil {
				return
			}
			walk(next, comps[1:], viaLink || fi.Mode()&os.ModeSymlink != 0)
			return
		}
		if !viaLink && len(comps) == 1 {
			// Only the links here can lead elsewhere.
			links := sc.lk.links(dir)
			if budget -= len(links); budget < 0 {
				sc.holedAnywhere(word)
				return
			}
			for _, name := range links {
				if shapeMatches(comp, name) {
					walk(filepath.Join(dir, name), nil, true)
				}
			}
			return
		}
		entries, err := fsview.ReadDir(dir)
		if err != nil {
			return
		}
		if budget -= len(entries); budget < 0 {
			sc.holedAnywhere(word)
			return
		}
		for _, e := range entries {
			if shapeMatches(comp, e.Name()) {
				walk(filepath.Join(dir, e.Name()), comps[1:], viaLink || e.Type()&os.ModeSymlink != 0)
			}
		}
	}
	walk(dir, strings.Split(rest, "/"), viaLink)
}

// shapeMatches reports whether name could be what shape (literal text with
// Holes for run-time parts, each any string) stands for.
func shapeMatches(shape, name string) bool {
	parts := strings.Split(shape, Hole)
	if len(parts) == 1 {
		return shape == name
	}
	first, last := parts[0], parts[len(parts)-1]
	if len(name) < len(first)+len(last) || !strings.HasPrefix(name, first) || !strings.HasSuffix(name, last) {
		return false
	}
	rest := name[len(first) : len(name)-len(last)]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, mid)
		if i < 0 {
			return false
		}
		rest = rest[i+len(mid):]
	}
	return true
}

// namesFromFile reports whether option word w makes the program read the
// names of the files it reads from a file or its input: --files0-from
// (sort, wc, du), --files-from (tar, rsync, cpio), --pathspec-from-file
// (git), with the value glued or next.
func namesFromFile(w string) bool {
	if !strings.HasPrefix(w, "--") {
		return false
	}
	for _, o := range [...]string{"--files0-from", "--files-from", "--pathspec-from-file"} {
		if strings.HasPrefix(w, o) && (len(w) == len(o) || w[len(o)] == '=') {
			return true
		}
	}
	return false
}

// holedAnywhere notes that an open word (Subject.Open: a parameter
// expansion's or a command's output from its start) could match the first
// deny rule of the scan's sections, and that it could name a built-in
// secret: whatever its literal rest, it may name any file. DESIGN: a deny
// pattern that could match a word only known at run time makes the segment
// ask, never allow.
func (sc *argScan) holedAnywhere(word string) {
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		for i := range t.entries {
			e := &t.entries[i]
			if e.rule.Decision != Deny && !(e.rule.Decision == Ask && e.rule.File == SecretsFile) {
				continue
			}
			a := &argHit{rule: e.rule, arg: tildeShown(word, sc.home), could: true, runtime: true, open: true}
			if e.rule.Decision == Deny {
				sc.could = a
				return
			}
			if sc.ask == nil {
				sc.ask = a
			}
		}
	}
}

// holedWhole matches a word that starts with a run-time part against the
// deny rules, each run-time part read as any string.
func (sc *argScan) holedWhole(word string) {
	u := appendUnits(nil, word)
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		h := t.matchUnits(u, &sc.hm)
		if i := minHit(h.deny, h.could); i >= 0 {
			sc.could = &argHit{rule: t.entries[i].rule, arg: tildeShown(word, sc.home), could: true, runtime: true}
			return
		}
	}
}

// holedSecretWhole is holedWhole for the built-in secrets (ask rules of
// SecretsFile): the first that could match the word, each run-time part
// any string, asks.
func (sc *argScan) holedSecretWhole(word string) {
	if sc.ask != nil {
		return
	}
	u := appendUnits(nil, word)
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		for i := range t.entries {
			e := &t.entries[i]
			if e.rule.Decision == Ask && e.rule.File == SecretsFile && sc.hm.could(e.g, u) {
				sc.ask = &argHit{rule: e.rule, arg: tildeShown(word, sc.home), could: true, runtime: true}
				return
			}
		}
	}
}

// holedInCwd checks a word that is only known at run time from its start
// (`cat *`, `cat $f`) against the rules whose pattern names the files of
// the working directory itself ("~/.ssh/*" or "~/.ssh/id_*" after `cd
// ~/.ssh`): a deny rule there could match, so it asks, and so does a
// built-in secret. Patterns of other directories are not tried: the word
// may be anything, and trying every rule would make every `eval "$x"` ask
// (a known limit for run-time words).
func (sc *argScan) holedInCwd(word string) {
	// A name made at run time in a protected directory is a protected
	// path (`cd .git/hooks && touch $x`).
	sc.literalProtected(word, strings.TrimSuffix(sc.cwdCanon, "/")+"/x")
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		i := t.filesRuleIn(sc.cwdCanon)
		if i < 0 {
			continue
		}
		e := &t.entries[i]
		a := &argHit{rule: e.rule, arg: tildeShown(word, sc.home), could: true, runtime: true}
		if e.rule.Decision == Deny {
			if sc.could == nil {
				sc.could = a
			}
		} else if sc.ask == nil {
			sc.ask = a
		}
		return
	}
}

// filesRuleIn returns the first entry of t (in file order) that names
// the files of directory dir itself (canonical) for holedInCwd, or -1 (see
// indexFiles).
func (t *trie) filesRuleIn(dir string) int {
	if i, ok := t.files[dir]; ok {
		return int(i)
	}
	return -1
}

// indexFiles files the entries of t that name the files of one directory
// itself by that directory, the first in file order for each, for
// filesRuleIn: a deny rule or a built-in secret whose pattern has no '*'
// before its last '/' and whose last component does not start with "."
// (a dot-file, which a glob does not match; run-time values may: a known
// limit). Path sections are indexed when built (see pathIndexFor).
func (t *trie) indexFiles() {
	for i := range t.entries {
		e := &t.entries[i]
		if e.rule.Decision == Allow || (e.rule.Decision == Ask && e.rule.File != SecretsFile) {
			continue
		}
		slash := strings.LastIndexByte(e.g.pat, '/')
		if slash < 0 || strings.Contains(e.g.pat[:slash], "*") || strings.HasPrefix(e.g.pat[slash+1:], ".") {
			continue
		}
		d := e.g.pat[:max(slash, 1)]
		if _, ok := t.files[d]; ok {
			continue // an earlier entry names d's files
		}
		if t.files == nil {
			t.files = make(map[string]int32)
		}
		t.files[d] = int32(i)
	}
}

// skipsHiddenFiles reports a search that does not read hidden files: rg
// (ripgrep's GUIDE: hidden files and directories are skipped unless
// --hidden, -. or -uu) and ag (ag(1): --hidden, -u/--unrestricted), called
// without an option that changes that (any option it cannot rule out
// counts as one).
func skipsHiddenFiles(words []string) bool {
	name := words[0][strings.LastIndexByte(words[0], '/')+1:]
	if name != "rg" && name != "ag" {
		return false
	}
	for _, a := range words[1:] {
		switch {
		case a == "--":
			return true
		case strings.HasPrefix(a, "--"):
			if strings.HasPrefix(a, "--hid") || strings.HasPrefix(a, "--unr") || strings.HasPrefix(a, "--no-ig") ||
				strings.HasPrefix(a, "--all") || strings.HasPrefix(a, "--search-z") || strings.HasPrefix(a, "--pre") {
				return false
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.ContainsAny(a[1:], "u.a") {
				return false
			}
		case strings.Contains(a, Hole):
			return false
		}
	}
	return true
}

// secretIn reports the built-in secret a walker reading directory dir
// (resolved) would read: an anchored one (~/.ssh/id_*) that lies below
// dir, or a dot-env file (/*/.env…) directly in dir, as its listing shows
// (dot-env files deeper down are not looked for: a known limit).
func (sc *argScan) secretIn(dir string) (*Rule, string) {
	t := sc.x.sections[1]
	prefix := dir
	if prefix != "/" {
		prefix += "/"
	}
	below := append(appendUnits(nil, prefix), uHole)
	for i := range t.entries {
		e := &t.entries[i]
		if e.rule.File != SecretsFile {
			continue
		}
		if name, anywhere := strings.CutPrefix(e.g.pat, "/*/"); anywhere {
			if sc.skipsHidden {
				continue
			}
			if names := sc.lk.listed(dir); names != nil {
				for n := range names {
					if sc.find != nil && !sc.find.takes(n) {
						continue // a name the find's actions do not take
					}
					if ok, _ := path.Match(name, n); ok && readsName(sc.nameGlobs, n) {
						return e.rule, n
					}
				}
			}
			continue
		}
		// Only a pattern whose literal start agrees with prefix could
		// match something below it (the Hole and the stars take the
		// rest), which saves the matcher for most.
		if (strings.HasPrefix(e.g.key, prefix) || strings.HasPrefix(prefix, e.g.key)) && sc.hm.could(e.g, below) {
			return e.rule, ""
		}
	}
	return nil, ""
}

// unknownProtected notes word, c relative to a working directory only
// known at run time, as a protected path when some directory's c could be
// one (a program that may write its arguments): `.bashrc`, `.git/config`
// and `.git/hooks/pre-commit` may be the home's and the repository's
// (attack run 62: after `cd "$(dirname "$PWD")"` a write of .bashrc, and
// `git -C .git config -f config …`, ran in mode bypass).
func (sc *argScan) unknownProtected(word, c string) {
	if !sc.protect || sc.protected != nil {
		return
	}
	if pat := sc.x.protectedTail(c); pat != "" {
		sc.protected = &argHit{arg: tildeShown(strings.ReplaceAll(word, Hole, "…"), sc.home), via: pat}
	}
}

// unknownDir matches c, relative to a working directory only known at run
// time, as "<any path>/c": a deny rule that could match it asks.
func (sc *argScan) unknownDir(word, c string) {
	if sc.could != nil {
		return
	}
	u := append([]uint16{uHole}, appendUnits(nil, "/"+c)...)
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		h := t.matchUnits(u, &sc.hm)
		if i := minHit(h.deny, h.could); i >= 0 {
			sc.could = &argHit{rule: t.entries[i].rule, arg: word, could: true, cwdUnknown: true}
			return
		}
		if sc.ask != nil {
			continue
		}
		// An ask rule (a built-in secret: `cd "$HOME" && cat .netrc` in
		// auto, an attack run's find) that could match asks too.
		for i := range t.entries {
			if e := &t.entries[i]; e.rule.Decision == Ask && lastMayMatch(e.g.pat, c) && sc.hm.could(e.g, u) {
				sc.ask = &argHit{rule: e.rule, arg: word, could: true, cwdUnknown: true}
				break
			}
		}
	}
}

// lastMayMatch reports whether the last component of path p (a Hole in it:
// any) could be one pattern pat's last component matches — with '*' not
// crossing '/' there, so that `shopt -s expand_aliases` after an unknown cd
// is not taken for ~/.ssh/id_* (whose '*' may cross '/' as a whole).
//
// A plain word (no "/", no leading ".") is not taken for a file of a
// directory a pattern guards whole ("~/.config/gcloud/*"): such a word is
// an option's value or a name far more often (`shopt -s expand_aliases`);
// README "Known limits".
func lastMayMatch(pat, p string) bool {
	last := p[strings.LastIndexByte(p, '/')+1:]
	if last == "" || strings.Contains(last, Hole) {
		return true
	}
	patLast := pat[strings.LastIndexByte(pat, '/')+1:]
	if patLast == "*" && !strings.Contains(p, "/") && !strings.HasPrefix(p, ".") {
		return false
	}
	ok, err := path.Match(patLast, last)
	return ok || err != nil
}

// check resolves c (relative to dir, whose canonical form is canon, or
// absolute when dir is "") and matches it.
func (sc *argScan) check(word, dir, canon, c string, pathLike bool) {
	if sc.deny != nil {
		return
	}
	var cleaned, resolved string
	var info os.FileInfo
	var exists bool
	if !pathLike {
		// One component: a plain word is a path only if it names an entry.
		if !sc.lk.has(canon, c) {
			// It names nothing: see newFile below.
			if sc.protect {
				sc.newPlainFile(word, dir, canon, c)
			}
			return
		}
		resolved = canon + "/" + c
		if canon == "/" {
			resolved = "/" + c
		}
		switch {
		case dir == canon:
			cleaned = resolved
		case dir == "/":
			cleaned = "/" + c
		default:
			cleaned = dir + "/" + c
		}
		fi, err := sc.lk.lstat(resolved)
		if err != nil {
			// It names nothing yet: nothing to read there, but a program
			// that may write its arguments may create it (`cd ~/.ssh &&
			// cp key authorized_keys`, `cd .git/hooks && touch
			// pre-commit`): the protected paths and the write rules
			// decide the new file.
			if sc.protect {
				sc.newFile(word, cleaned, resolved)
			}
			return
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			info, exists = fi, true
		} else {
			resolved, info, exists = resolveIn(sc.lk, canon, c)
		}
	} else {
		cleaned = c
		if dir != "" {
			cleaned = dir + "/" + c
		}
		cleaned = filepath.Clean(cleaned)
		// Its status is only needed for a walker's descent (below).
		status, min := sc.walker != "", probeMinNew
		if status {
			min = probeMin
		}
		resolved, info, exists = resolveProbing(sc.lk, canon, c, min, status)
	}
	if isProcPath(resolved) && !isProcPath(cleaned) {
		// Through a link into /proc or /dev/fd (s0 -> /proc/self/fd/0,
		// attack run 34): as the command sees it, in a directory only
		// known at run time unless procPath knows it.
		p, known := procPath(resolved, sc.cwd)
		if !known || isProcPath(p) || sc.procDepth > 0 {
			sc.unknownDir(word, p)
			if sc.ask == nil {
				sc.holedSecret(Hole + "/" + p)
			}
			return
		}
		sc.procDepth++
		sc.check(word, "", "", p, true)
		sc.procDepth--
		return
	}
	if sc.protect && sc.protected == nil {
		if pat := sc.x.protectedBy(pathSubject{cleaned: cleaned, resolved: resolved}); pat != "" {
			sc.protected = &argHit{arg: tildeShown(word, sc.home), via: pat}
		}
	}
	hit := func(t *trie, i int, walker string, could bool) *argHit {
		a := &argHit{rule: t.entries[i].rule, arg: tildeShown(word, sc.home), walker: walker, could: could}
		if resolved != cleaned {
			a.via = tildeShown(resolved, sc.home)
		}
		return a
	}
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		h := t.matchString(cleaned)
		if resolved != cleaned {
			hr := t.matchString(resolved)
			h.deny, h.ask = minHit(h.deny, hr.deny), minHit(h.ask, hr.ask)
		}
		if h.deny >= 0 {
			sc.deny = hit(t, h.deny, "", false)
			return
		}
		if h.ask >= 0 && sc.ask == nil {
			sc.ask = hit(t, h.ask, "", false)
		}
	}
	if sc.walker == "" {
		return
	}
	if !exists {
		// Not there now, but the path read lexically is: a directory an
		// earlier command of the same text makes leads there (attack run
		// 32: `mkdir -p d && grep -r x d/../../.ssh` printed the key).
		r, err := sc.lk.evalSymlinks(cleaned)
		if err != nil {
			return
		}
		fi, err := os.Stat(r)
		if err != nil {
			return
		}
		resolved, info = r, fi
	}
	if info == nil {
		fi, err := os.Stat(resolved)
		if err != nil {
			return
		}
		info = fi
	}
	if !info.IsDir() {
		return
	}
	if sc.protect && sc.protected == nil && sc.alters {
		// Removing, moving or changing the modes of a directory does so
		// to the protected paths it holds: `rm -rf ~/.local/state` took
		// guardsh's audit log, unasked in mode bypass (a new user's CI
		// run), where `rm -rf ~/.local/state/guardsh` asked.
		held := sc.x.protectedHeld
		if sc.find != nil {
			// A find whose actions take only entries of some names
			// (`find . -name '*.pyc' -delete`): the protected paths it
			// reaches, not all it walks.
			held = func(dir string, lk *Lookups) string { return sc.x.findReaches(dir, c, *sc.find, lk) }
		}
		pat := held(resolved, sc.lk)
		if pat == "" && resolved != cleaned {
			pat = held(cleaned, sc.lk)
		}
		if pat != "" {
			sc.protected = &argHit{arg: tildeShown(word, sc.home), via: pat, walker: sc.walker}
		}
	}
	// Everything below the directory: its path, a slash and a Hole.
	below := func(d string) []uint16 {
		if d != "/" {
			d += "/"
		}
		return append(appendUnits(nil, d), uHole)
	}
	uc, ur := below(cleaned), below(resolved)
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		h := t.matchUnits(uc, &sc.hm)
		if resolved != cleaned {
			hr := t.matchUnits(ur, &sc.hm)
			h.deny, h.ask = minHit(h.deny, hr.deny), minHit(h.ask, hr.ask)
			if h.could < 0 {
				h.could = hr.could
			}
		}
		switch {
		case h.deny >= 0:
			sc.deny = hit(t, h.deny, sc.walker, false)
			return
		case h.could >= 0 && sc.could == nil:
			sc.could = hit(t, h.could, sc.walker, true)
		}
		if h.ask >= 0 && sc.ask == nil {
			sc.ask = hit(t, h.ask, sc.walker, false)
		}
	}
	if sc.ask == nil && (sc.find == nil || sc.find.whole) {
		if r, name := sc.secretIn(resolved); r != nil {
			sc.ask = &argHit{rule: r, arg: tildeShown(word, sc.home), walker: sc.walker, holds: name}
			if resolved != cleaned {
				sc.ask.via = tildeShown(resolved, sc.home)
			}
		}
	}
	if sc.deref && sc.deny == nil {
		sc.linksBelow(word, resolved)
	}
}

// linksBelowRead is linksBelow for the read rules alone, of word's
// directory prefix dir (as written: relative to the working directory
// unless absolute; a prefix only known at run time, or a working
// directory that is, is left to the word's other checks).
func (sc *argScan) linksBelowRead(word, dir string) {
	if !slices.Contains(sc.sections, 0) || strings.Contains(dir, Hole) {
		return
	}
	if !filepath.IsAbs(dir) {
		if sc.cwdUnknown || sc.cwdCanon == "" {
			return
		}
		dir = filepath.Join(sc.cwdCanon, dir)
	}
	dir = filepath.Clean(dir)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return // find prints nothing of a start path that is not there
	}
	sections, protect, walker := sc.sections, sc.protect, sc.walker
	sc.sections, sc.protect, sc.walker = sc.sections[:1], false, "find"
	// Only names with the word's ending are given (find -name '*.py'):
	// a link to a file under another name is not read through.
	sc.belowSuffix = word[strings.LastIndex(word, Hole)+len(Hole):]
	sc.linksBelow(word, dir)
	sc.sections, sc.protect, sc.walker, sc.belowSuffix = sections, protect, walker, ""
}

// derefBudget is how many directory entries linksBelow looks at below one
// argument before it takes what it did not see as able to match: a
// project's tree without its dependencies holds fewer.
var derefBudget = 20000

// linksBelow checks the targets of the symbolic links below directory dir
// (an argument word of a walker that follows them: grep -R, cp -rL …) as
// the walker reads or writes them: each target, and what is below a
// target that is a directory, against the deny and ask rules; a link
// to ~/.ssh/id_rsa inside a copied directory is a read of the key (an
// attack run's `cp -rL s1 c && cat c/k`). Past derefBudget entries, or
// when a directory cannot be listed, the first deny rule could match (or
// the first ask rule asks).
func (sc *argScan) linksBelow(word, dir string) {
	seen, stack := 0, []string{dir}
	over := false
	for len(stack) > 0 && !over {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := fsview.ReadDir(d)
		if err != nil {
			over = true
			break
		}
		for _, e := range ents {
			if seen++; seen > derefBudget {
				over = true
				break
			}
			p := filepath.Join(d, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				target, err := filepath.EvalSymlinks(p)
				if err != nil {
					continue // dangling: nothing is read through it
				}
				if sc.belowSuffix != "" && !strings.HasSuffix(e.Name(), sc.belowSuffix) {
					if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
						continue // a file under a name not given
					}
				}
				if sc.protect && sc.alters && sc.protected == nil {
					// What a walk that changes all it finds follows a
					// link to: a protected path, or one that holds
					// some (attack run 81: find -L, chown -R -L).
					if pat := sc.x.protectedBy(pathSubject{cleaned: target, resolved: target}); pat != "" {
						sc.protected = &argHit{arg: tildeShown(word, sc.home), via: pat, walker: sc.walker}
					} else if pat := sc.x.protectedHeld(target, sc.lk); pat != "" {
						sc.protected = &argHit{arg: tildeShown(word, sc.home), via: pat, walker: sc.walker}
					}
				}
				for _, sec := range sc.sections {
					t := sc.x.sections[sec]
					h := t.matchString(target)
					if fi, err := os.Stat(target); err == nil && fi.IsDir() {
						hb := t.matchUnits(append(appendUnits(nil, strings.TrimSuffix(target, "/")+"/"), uHole), &sc.hm)
						h.deny, h.ask = minHit(h.deny, hb.deny), minHit(h.ask, hb.ask)
						if h.deny < 0 && hb.could >= 0 && sc.could == nil {
							sc.could = &argHit{rule: t.entries[hb.could].rule, arg: tildeShown(word, sc.home), walker: sc.walker, could: true, via: tildeShown(target, sc.home), link: true}
						}
					}
					if h.deny >= 0 {
						sc.deny = &argHit{rule: t.entries[h.deny].rule, arg: tildeShown(word, sc.home), walker: sc.walker, via: tildeShown(target, sc.home), link: true}
						return
					}
					if h.ask >= 0 && sc.ask == nil {
						sc.ask = &argHit{rule: t.entries[h.ask].rule, arg: tildeShown(word, sc.home), walker: sc.walker, via: tildeShown(target, sc.home), link: true}
					}
				}
			case e.IsDir():
				stack = append(stack, p)
			}
		}
	}
	if !over {
		return
	}
	if sc.protect && sc.alters && sc.protected == nil {
		sc.protected = &argHit{arg: tildeShown(word, sc.home), via: "what the links below " + tildeShown(dir, sc.home) + " lead to (more than guardsh looks through)", walker: sc.walker}
	}
	for _, sec := range sc.sections {
		t := sc.x.sections[sec]
		if i := t.firstDeny(); i >= 0 && sc.could == nil {
			sc.could = &argHit{rule: t.entries[i].rule, arg: tildeShown(word, sc.home), walker: sc.walker, could: true, over: true}
		}
		for i, e := range t.entries {
			if e.rule.Decision == Ask && sc.ask == nil {
				sc.ask = &argHit{rule: t.entries[i].rule, arg: tildeShown(word, sc.home), walker: sc.walker, over: true}
				break
			}
		}
	}
}

// derefWalker reports a walker that follows the symbolic links it meets
// below its directory arguments (their man pages): grep -R
// (--dereference-recursive), rg -L (--follow), ag -f (--follow), ack
// --follow, cp -L (--dereference), tar -h (--dereference), rsync -L
// (--copy-links, --copy-unsafe-links, --copy-dirlinks -k), chmod, chown
// and chgrp with -L, diff -r without --no-dereference, and zip without
// -y (--symlinks), which stores what a link points to.
func derefWalker(words []string) bool {
	name := words[0][strings.LastIndexByte(words[0], '/')+1:]
	short, long := "", []string(nil)
	switch name {
	case "grep", "egrep", "fgrep", "ugrep":
		short, long = "R", []string{"--dereference-recursive"}
	case "rg":
		short, long = "L", []string{"--follow"}
	case "ag":
		short, long = "f", []string{"--follow"}
	case "ack":
		long = []string{"--follow"}
	case "cp":
		short, long = "L", []string{"--dereference"}
	case "tar", "bsdtar":
		short, long = "h", []string{"--dereference"}
	case "rsync":
		short, long = "Lk", []string{"--copy-links", "--copy-unsafe-links", "--copy-dirlinks"}
	case "chmod", "chown", "chgrp":
		short = "L"
	case "diff":
		// GNU diff -r follows links unless --no-dereference.
		for _, w := range words[1:] {
			if w == "--no-dereference" {
				return false
			}
		}
		return true
	case "zip":
		for _, w := range words[1:] {
			if w == "-y" || w == "--symlinks" || len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsRune(w, 'y') {
				return false
			}
		}
		return true
	case "find", "gfind":
		// -L (or -H, before the start paths) and -follow (attack run
		// 81: `find -L . -name .bashrc -delete` through a link to ~).
		return slices.Contains(words[1:], "-L") || slices.Contains(words[1:], "-follow") || slices.Contains(words[1:], "-H")
	default:
		return false
	}
	for _, w := range words[1:] {
		switch { // "--" ends nothing here either (see walker)
		case strings.HasPrefix(w, "--"):
			opt, _, _ := strings.Cut(w, "=")
			for _, l := range long {
				if opt == l || len(opt) >= 5 && strings.HasPrefix(l, opt) {
					return true
				}
			}
		case len(w) > 1 && w[0] == '-' && short != "" && strings.ContainsAny(w[1:], short):
			return true
		}
	}
	return false
}

// tildeShown writes a path under home with "~" instead, for messages.
func tildeShown(p, home string) string {
	switch {
	case home == "":
		return p
	case p == home:
		return "~"
	case len(p) > len(home) && p[len(home)] == '/' && strings.HasPrefix(p, home):
		return "~" + p[len(home):]
	}
	return p
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }
