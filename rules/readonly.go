package rules

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// program is one entry of the built-in read-only table: a program (or shell
// builtin) that, called as described, neither writes files, runs other
// programs, nor changes what later commands run. A command whose name is not
// in the table, or that uses the program outside its description, is
// sensitive.
type program struct {
	Name string
	// Source says where the entry, and each exclusion, comes from.
	Source string
	// HoleSafe: no argument, whatever its run-time value, makes the
	// program write or execute (apart from the Exclude options, which a
	// run-time word that could be an option is checked against). Without
	// it, any argument holding a Hole makes the command sensitive.
	HoleSafe bool
	// OptionsFirst: options end at the first operand (bash builtins and
	// printf); otherwise options may appear anywhere before "--" (GNU
	// argument permutation).
	OptionsFirst bool
	// PlusOptions: "+x" is an option too (set, declare).
	PlusOptions bool
	// Exclude lists options that write or execute: "-o" is a short option,
	// matched inside clusters ("-uo"); "--output" is a long option, matched
	// also as "--output=…" and as any abbreviation ("--out"), since
	// getopt_long and git's parse-options accept unambiguous prefixes.
	Exclude []string
	// ExcludeWords are arguments that make the command sensitive anywhere
	// before the operands ("keyword" in `set -o keyword`); so does a
	// run-time word there, which could be one.
	ExcludeWords []string
	// ExcludeAnywhere are arguments that make the command sensitive
	// wherever they stand (find's -delete, after the paths); so does a
	// run-time word.
	ExcludeAnywhere []string
	// ExcludeText are substrings that make any argument holding one
	// sensitive, option or operand ("@" in lsof's -i@host, a host name
	// it resolves); so does a run-time part of an argument.
	ExcludeText []string
	// Only, when set, lists the only options the command may have, where
	// Exclude lists those it may not: a short option letter by letter in
	// a cluster ("-aq" is -a and -q; the rest of the cluster after one of
	// ArgShort is its argument), a long option by its full name (with or
	// without "=value"; no abbreviation). Any other option, or a run-time
	// word that could be one, makes the command sensitive.
	Only []string
	// ArgShort are the short options taking a required argument (the rest
	// of the cluster, or else the next word); OptArgShort those whose
	// optional argument can only be attached. They matter for counting
	// operands and for not reading an argument as an option.
	ArgShort, OptArgShort string
	// ArgLong are the long options whose argument may be the next word.
	ArgLong []string
	// MaxOperands, when positive, is the most operands the command may
	// have: `uniq IN OUT` writes OUT. NoOperands: none at all (`hostname
	// NAME` and `git tag NAME` change something).
	MaxOperands int
	NoOperands  bool
	// OperandPrefix, when set, is how every operand must start (date's
	// "+FORMAT"): any other operand, or one only known at run time, makes
	// the command sensitive.
	OperandPrefix string
	// Require lists what the first argument must be (`command -v`).
	Require []string
	// Names: operands are variable names or NAME=value; a name that
	// changes what runs (see dangerousName), or one only known at run
	// time, makes the command sensitive.
	Names bool
	// Sub are the read-only subcommands; a program with Sub is read-only
	// only when called with one of them (or with none).
	Sub []program
	// GlobalOptions are the options allowed before the subcommand;
	// GlobalArg those of them that take the next word as argument.
	GlobalOptions, GlobalArg []string
	// label is how the table names the entry ("cat", "git status"), and
	// inTable the reason given when a call of it is read-only; set by
	// readOnlyTable, so that the reason is not made at every call;
	// required, for an entry with Require, the reason given when a call
	// lacks the first argument it requires.
	label, inTable, required string
}

// readOnlyPrograms is the built-in read-only table. An entry's Source says
// why it belongs; the man pages cited are those of GNU coreutils, GNU grep,
// bash(1) SHELL BUILTIN COMMANDS, ripgrep and git as shipped by Debian 12.
var readOnlyPrograms = []program{
	// Shell builtins that only print, test, or move the shell around.
	{Name: ":", Source: "bash builtin: does nothing", HoleSafe: true},
	{Name: "true", Source: "bash builtin / coreutils: exits 0", HoleSafe: true},
	{Name: "false", Source: "bash builtin / coreutils: exits 1", HoleSafe: true},
	{Name: "echo", Source: "bash builtin: prints its arguments (-n -e -E only format)", HoleSafe: true, OptionsFirst: true},
	{Name: "printf", Source: "bash builtin: prints; excluded: -v VAR assigns a variable", HoleSafe: true, OptionsFirst: true,
		Exclude: []string{"-v"}, ArgShort: "v"},
	{Name: "pwd", Source: "bash builtin: prints the working directory", HoleSafe: true},
	{Name: "cd", Source: "bash builtin: changes the shell's directory", HoleSafe: true},
	{Name: "pushd", Source: "bash builtin: changes the shell's directory", HoleSafe: true},
	{Name: "popd", Source: "bash builtin: changes the shell's directory", HoleSafe: true},
	{Name: "dirs", Source: "bash builtin: prints the directory stack", HoleSafe: true},
	{Name: "jobs", Source: "bash builtin: lists the shell's jobs; excluded: -x, which runs a command", HoleSafe: true,
		Exclude: []string{"-x"}},
	{Name: "alias", Source: "bash builtin: lists or defines aliases; a value is analysed where it is defined and where the alias is used, and a name like a reserved word is not understood", HoleSafe: true},
	{Name: "unset", Source: "bash builtin: only with -f, which removes functions (a later call of the name is then decided as the program it runs)",
		HoleSafe: true, Require: []string{"-f"}},
	{Name: "logout", Source: "bash builtin: ends a login shell", HoleSafe: true},
	{Name: "fg", Source: "bash builtin: resumes a job of the shell in the foreground (what it runs was decided when it started)", HoleSafe: true},
	{Name: "bg", Source: "bash builtin: resumes a job of the shell in the background (what it runs was decided when it started)", HoleSafe: true},
	{Name: "test", Source: "bash builtin: evaluates an expression", HoleSafe: true},
	{Name: "[", Source: "bash builtin: evaluates an expression", HoleSafe: true},
	{Name: "[[", Source: "bash keyword: evaluates a conditional expression; the operands of -eq -ne -lt -le -gt -ge are evaluated as arithmetic and that of -v as a variable's name, where a value holding a[$(cmd)] runs cmd: the analysis marks such a segment as running code only known at run time unless it knows every value (interp/arith.go)",
		HoleSafe: true},
	{Name: "type", Source: "bash builtin: says how a name would be interpreted, runs nothing", HoleSafe: true},
	{Name: "((", Source: "bash keyword: evaluates arithmetic, assigning only shell variables; a value holding a[$(cmd)] runs cmd: the analysis marks such a segment as running code only known at run time unless it knows every value (interp/arith.go)", HoleSafe: true},
	{Name: "let", Source: "bash builtin: evaluates arithmetic, as (( )) does", HoleSafe: true},
	{Name: "command", Source: "bash builtin: only with -v/-V, which describe a name; otherwise it runs one",
		HoleSafe: true, Require: []string{"-v", "-V"}},
	{Name: "kill", Source: "bash builtin and procps kill(1): only as kill -0 PID…, which sends no signal and only says whether the processes exist and may be signalled; any other option (-s SIG, -SIG, -l), or a run-time word that could be one, is a signal",
		HoleSafe: true, Require: []string{"-0"}, Only: []string{"-0"}, OptionsFirst: true},
	{Name: "exit", Source: "bash builtin: ends the shell", HoleSafe: true},
	{Name: "return", Source: "bash builtin: returns from a function", HoleSafe: true},
	{Name: "break", Source: "bash builtin: leaves a loop", HoleSafe: true},
	{Name: "continue", Source: "bash builtin: next loop iteration", HoleSafe: true},
	{Name: "shift", Source: "bash builtin: shifts positional parameters", HoleSafe: true},
	{Name: "wait", Source: "bash builtin: waits for jobs already started; excluded: -p VAR assigns a variable", HoleSafe: true, OptionsFirst: true,
		Exclude: []string{"-p"}, ArgShort: "p"},
	{Name: "shopt", Source: "bash builtin: sets shell options; excluded: expand_aliases (a later word runs an alias's code), autocd and cdable_vars (a later word changes directory), extdebug (DEBUG traps can skip commands), dotglob, extglob, globstar and nocaseglob (a later glob matches what the analysis does not expect: .env, ~/.ssh/@(id_rsa))",
		HoleSafe: true, ExcludeAnywhere: []string{"expand_aliases", "autocd", "cdable_vars", "extdebug", "dotglob", "extglob", "globstar", "nocaseglob"}}, // anywhere: shopt -s -- extglob (attack run 33)
	{Name: "set", Source: "bash builtin: sets options and positional parameters; excluded: -k / -o keyword (later NAME=value arguments become environment, which analysis would not see) and -H / -o histexpand / -o history (history expansion rewrites a command after analysis)",
		HoleSafe: true, OptionsFirst: true, PlusOptions: true,
		Exclude: []string{"-k", "-H"}, ExcludeWords: []string{"keyword", "histexpand", "history"}, ArgShort: "o"},

	// Builtins that assign variables: read-only unless the name assigned is
	// one that changes what runs.
	{Name: "export", Source: "bash builtin: marks variables for export", OptionsFirst: true, Names: true},
	{Name: "declare", Source: "bash builtin: declares variables; excluded: -n makes a name reference, so a later assignment can reach any variable",
		OptionsFirst: true, PlusOptions: true, Names: true, Exclude: []string{"-n"}},
	{Name: "typeset", Source: "bash builtin: same as declare", OptionsFirst: true, PlusOptions: true, Names: true, Exclude: []string{"-n"}},
	{Name: "local", Source: "bash builtin: same as declare, in a function", OptionsFirst: true, PlusOptions: true, Names: true, Exclude: []string{"-n"}},
	{Name: "readonly", Source: "bash builtin: marks variables read-only", OptionsFirst: true, Names: true},
	{Name: "read", Source: "bash builtin: reads a line into variables", OptionsFirst: true, Names: true, ArgShort: "adinNptu"},
	{Name: "getopts", Source: "bash builtin: parses options into a variable", OptionsFirst: true, Names: true},
	{Name: "mapfile", Source: "bash builtin: reads lines into an array; excluded: -C runs a callback", OptionsFirst: true, Names: true,
		Exclude: []string{"-C"}, ArgShort: "dnOsuCc"},
	{Name: "readarray", Source: "bash builtin: same as mapfile", OptionsFirst: true, Names: true,
		Exclude: []string{"-C"}, ArgShort: "dnOsuCc"},

	// Programs that print something about their arguments or the system.
	{Name: "which", Source: "debianutils which(1): looks names up on PATH", HoleSafe: true},
	{Name: "basename", Source: "coreutils: string operation on its arguments", HoleSafe: true},
	{Name: "dirname", Source: "coreutils: string operation on its arguments", HoleSafe: true},
	{Name: "realpath", Source: "coreutils: resolves paths, prints them", HoleSafe: true},
	{Name: "readlink", Source: "coreutils: prints symlink targets", HoleSafe: true},
	{Name: "stat", Source: "coreutils: prints file status", HoleSafe: true},
	{Name: "du", Source: "coreutils: prints disk usage", HoleSafe: true},
	{Name: "df", Source: "coreutils: prints file system usage", HoleSafe: true},
	{Name: "date", Source: "coreutils: prints the date; excluded: -s/--set sets the clock, and so does an operand that is not +FORMAT (date MMDDhhmm)",
		HoleSafe: true, Exclude: []string{"-s", "--set"}, ArgShort: "dfrs", OptArgShort: "I", OperandPrefix: "+",
		ArgLong: []string{"--date", "--file", "--reference", "--set"}},
	{Name: "whoami", Source: "coreutils: prints the user name", HoleSafe: true},
	{Name: "id", Source: "coreutils: prints user and group ids", HoleSafe: true},
	{Name: "groups", Source: "coreutils: prints group names", HoleSafe: true},
	{Name: "uname", Source: "coreutils: prints system information", HoleSafe: true},
	{Name: "nproc", Source: "coreutils: prints the number of processors", HoleSafe: true},
	{Name: "tty", Source: "coreutils: prints the terminal name", HoleSafe: true},
	{Name: "printenv", Source: "coreutils: prints environment variables", HoleSafe: true},
	{Name: "sleep", Source: "coreutils: waits", HoleSafe: true},
	{Name: "seq", Source: "coreutils: prints numbers", HoleSafe: true},
	{Name: "expr", Source: "coreutils: evaluates an expression, prints it", HoleSafe: true},
	{Name: "file", Source: "file(1): prints file types; excluded: -C/--compile writes a magic.mgc file, -z/-Z/--uncompress run decompressors",
		HoleSafe: true, Exclude: []string{"-C", "--compile", "-z", "-Z", "--uncompress", "--uncompress-noreport"}, ArgShort: "efFmP"},

	// Programs that read files (or stdin) and print: no option of these
	// writes a file or runs a program.
	{Name: "ls", Source: "coreutils: lists directories", HoleSafe: true},
	{Name: "cat", Source: "coreutils: prints files", HoleSafe: true},
	{Name: "head", Source: "coreutils: prints the start of files", HoleSafe: true},
	{Name: "tail", Source: "coreutils: prints the end of files (-f only waits)", HoleSafe: true},
	{Name: "wc", Source: "coreutils: counts", HoleSafe: true},
	{Name: "nl", Source: "coreutils: numbers lines", HoleSafe: true},
	{Name: "tac", Source: "coreutils: prints files reversed", HoleSafe: true},
	{Name: "cut", Source: "coreutils: prints fields", HoleSafe: true},
	{Name: "tr", Source: "coreutils: translates stdin to stdout", HoleSafe: true},
	{Name: "od", Source: "coreutils: dumps files", HoleSafe: true},
	{Name: "cmp", Source: "diffutils: compares files", HoleSafe: true},
	{Name: "diff", Source: "diffutils: compares files (no option writes; sdiff's -o is another program); excluded: -l/--paginate runs pr",
		HoleSafe: true, Exclude: []string{"-l", "--paginate"}},
	{Name: "md5sum", Source: "coreutils: prints or checks checksums", HoleSafe: true},
	{Name: "sha1sum", Source: "coreutils: prints or checks checksums", HoleSafe: true},
	{Name: "sha256sum", Source: "coreutils: prints or checks checksums", HoleSafe: true},
	{Name: "sha512sum", Source: "coreutils: prints or checks checksums", HoleSafe: true},
	{Name: "cksum", Source: "coreutils: prints checksums", HoleSafe: true},
	{Name: "grep", Source: "GNU grep: searches files (-f reads patterns; nothing writes or runs)", HoleSafe: true},
	{Name: "jq", Source: "jq 1.6/1.7: filters JSON; the language has no file output or process execution; excluded: modules (import and include read files the program names, -L/--library-path says where, jq(1) MODULES), which path rules cannot see",
		HoleSafe: true},
	{Name: "sort", Source: "coreutils sort(1): excluded: -o/--output writes FILE, --compress-program runs PROG, -T/--temporary-directory writes files there",
		Exclude: []string{"-o", "--output", "--compress-program", "-T", "--temporary-directory"}, ArgShort: "kStTo",
		ArgLong: []string{"--key", "--buffer-size", "--field-separator", "--temporary-directory", "--output",
			"--compress-program", "--files0-from", "--random-source", "--batch-size", "--parallel", "--sort"}},
	{Name: "uniq", Source: "coreutils uniq(1): a second operand is an OUTPUT file it writes",
		MaxOperands: 1, ArgShort: "fsw", ArgLong: []string{"--skip-fields", "--skip-chars", "--check-chars"}},
	{Name: "rg", Source: "ripgrep rg(1): excluded: --pre runs a preprocessor command, --hostname-bin runs a program, -z/--search-zip run decompressors",
		Exclude: []string{"--pre", "--hostname-bin", "-z", "--search-zip"}},
	{Name: "tree", Source: "tree(1): excluded: -o writes its output to a file, -R re-runs tree writing 00Tree.html files, --fromfile/--infofile/--hintro/--houtro read files into the output",
		Exclude: []string{"-o", "-R", "--fromfile", "--infofile", "--hintro", "--houtro"}, ArgShort: "LPIHTo"},

	// git: the subcommands that only read the repository. git runs
	// programs named in the repository's config (core.fsmonitor,
	// core.pager, diff.external, textconv drivers); writes to .git/config
	// and .git/hooks are protected, which is what makes these read-only.
	{Name: "git", Source: "git(1): global options that only change the pager or pathspecs; excluded: -c and --config-env set config (core.pager, core.fsmonitor run programs), --exec-path picks the programs git runs, -C, --git-dir and --work-tree pick another repository, whose config (a bare repository committed to a project) may run programs",
		GlobalOptions: []string{"--namespace", "-P", "--no-pager",
			"--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs",
			"--icase-pathspecs", "--no-optional-locks", "--version"},
		GlobalArg: []string{"--namespace"},
		Sub: []program{
			{Name: "status", Source: "git-status(1): shows the working tree status"},
			{Name: "log", Source: "git-log(1): excluded: --output writes a file, --ext-diff runs the external diff program",
				Exclude: []string{"--output", "--ext-diff"}},
			{Name: "diff", Source: "git-diff(1): excluded: --output writes a file, --ext-diff runs the external diff program, --no-index compares any files or directories, like diff",
				Exclude: []string{"--output", "--ext-diff", "--no-index"}},
			{Name: "show", Source: "git-show(1): excluded: --output writes a file, --ext-diff runs the external diff program",
				Exclude: []string{"--output", "--ext-diff"}},
			{Name: "rev-parse", Source: "git-rev-parse(1): prints object names and repository paths"},
			{Name: "ls-files", Source: "git-ls-files(1): lists index entries"},
			{Name: "blame", Source: "git-blame(1): shows who changed each line; excluded: --output writes a file",
				Exclude: []string{"--output"}},
			{Name: "rev-list", Source: "git-rev-list(1): lists commits; excluded: --output writes a file",
				Exclude: []string{"--output"}},
			{Name: "describe", Source: "git-describe(1): names a commit from its tags; excluded: --output writes a file",
				Exclude: []string{"--output"}},
			{Name: "grep", Source: "git-grep(1): searches tracked files; excluded: -O/--open-files-in-pager runs a program, --no-index searches any directory like grep -r, --untracked and --no-exclude-standard search files git does not track (.env)",
				Exclude: []string{"-O", "--open-files-in-pager", "--no-index", "--untracked", "--no-exclude-standard"}, OptArgShort: "O"},
			{Name: "branch", Source: "git-branch(1) with no operand lists branches; excluded: the options that delete, move, copy, or set upstream and descriptions",
				NoOperands: true, Exclude: []string{"-d", "-D", "-m", "-M", "-c", "-C", "-f", "-u", "--delete", "--move", "--copy",
					"--force", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track", "--create-reflog"}},
			{Name: "tag", Source: "git-tag(1) with no operand lists tags; excluded: the options that create, delete or sign",
				NoOperands: true, Exclude: []string{"-a", "-s", "-u", "-f", "-d", "-m", "-F", "-e", "--annotate", "--sign",
					"--local-user", "--force", "--delete", "--message", "--file", "--edit", "--create-reflog"}},
			{Name: "remote", Source: "git-remote(1) with no operand lists remotes (-v with URLs)", NoOperands: true},
		}},

	// Other programs that only print.
	{Name: "find", Source: "GNU find(1): excluded: the actions that run programs (their commands are segments too), delete or write files",
		ExcludeAnywhere: []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}},
	{Name: "sed", Source: "GNU sed(1): excluded: -i/--in-place edits files; a script's e, w and s///e are checked as code in an argument",
		Exclude: []string{"-i", "--in-place"}, ArgShort: "efl", OptArgShort: "i"},
	{Name: "ps", Source: "procps ps(1): prints processes", HoleSafe: true},
	{Name: "free", Source: "procps free(1): prints memory use", HoleSafe: true},
	{Name: "hostname", Source: "hostname(1) with no operand prints the host name; excluded: -F/--file and -b/--boot set it",
		NoOperands: true, Exclude: []string{"-F", "--file", "-b", "--boot"}},
	{Name: "column", Source: "util-linux column(1): formats columns", HoleSafe: true},
	{Name: "comm", Source: "coreutils comm(1): compares sorted files", HoleSafe: true},
}

// readOnlyIndex indexes readOnlyPrograms and then moreReadOnlyPrograms
// (see readonly_more.go) by name: entry i of the first, len(first)+j of
// the second. The tests and the generator of readonly_gen.go use it;
// readOnlyAt looks names up in the sorted copy generated from it, which
// costs a process nothing to make (a map of the table's hundreds of
// names, made at a command's first classification, cost every `guardsh -c
// true` some 0.015 ms). The labelled entry itself is made when first
// looked up (readOnlyProgram), since a process classifies a few programs
// of the hundreds in the table.
func readOnlyIndex() map[string]int {
	t := make(map[string]int, len(readOnlyPrograms)+len(moreReadOnlyPrograms))
	for i := range readOnlyPrograms {
		t[readOnlyPrograms[i].Name] = i
	}
	for j := range moreReadOnlyPrograms {
		t[moreReadOnlyPrograms[j].Name] = len(readOnlyPrograms) + j
	}
	return t
}

//go:generate go test -run ^TestReadOnlyIndexGenerated$ -write-readonly

// readOnlyAt returns readOnlyIndex()[name], from genReadOnlyNames (the
// index's names, sorted) and genReadOnlyAt (their entries), generated
// into readonly_gen.go; TestReadOnlyIndexGenerated fails when they are
// out of date.
func readOnlyAt(name string) (int, bool) {
	k, ok := slices.BinarySearch(genReadOnlyNames, name)
	if !ok {
		return 0, false
	}
	return genReadOnlyAt[k], true
}

// readOnlyLabelled holds the labelled entries made so far, by index.
var readOnlyLabelled = sync.OnceValue(func() []atomic.Pointer[program] {
	return make([]atomic.Pointer[program], len(readOnlyPrograms)+len(moreReadOnlyPrograms))
})

// readOnlyProgram returns the read-only table's entry for name, labelled
// (see labelled), or nil.
func readOnlyProgram(name string) *program {
	i, ok := readOnlyAt(name)
	if !ok {
		return nil
	}
	slot := &readOnlyLabelled()[i]
	if p := slot.Load(); p != nil {
		return p
	}
	src := &readOnlyPrograms
	if i >= len(readOnlyPrograms) {
		src, i = &moreReadOnlyPrograms, i-len(readOnlyPrograms)
	}
	p := labelled((*src)[i], name)
	if !slot.CompareAndSwap(nil, p) {
		return slot.Load()
	}
	return p
}

// labelled returns a copy of prog, and of its subcommands, named label
// (a subcommand as label, a space and its name) with its reason made.
func labelled(prog program, label string) *program {
	prog.label, prog.inTable = label, label+" is in the read-only table"
	if len(prog.Require) > 0 {
		prog.required = requiredReason(&prog, label)
	}
	if prog.Sub != nil {
		subs := make([]program, len(prog.Sub))
		for k := range prog.Sub {
			subs[k] = *labelled(prog.Sub[k], label+" "+prog.Sub[k].Name)
		}
		prog.Sub = subs
	}
	return &prog
}

// jqModules reports a jq (or yq, which hands its program and options to
// jq) argument that uses modules — import, include, modulemeta or
// get_search_list read files the program names — or the option naming
// where they are (-L, --library-path) or a program read from a file (-f,
// --from-file), or a program only known at run time (which may hold
// any of those: an attack run's `jq -n "$(cat p.jq)"`). For yq, a
// cluster of one-letter flags holding f or L counts too (its own flags
// are not jq's).
func jqModules(name string, args []string) bool {
	program := false // the program (the first operand) was seen
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-L") || jqFlags(a, 'f') || strings.HasPrefix(a, "--library-path") || strings.HasPrefix(a, "--from-file") {
			return true // a library path, or a program read from a file
		}
		if name == "yq" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "fL") {
			return true
		}
		for _, k := range []string{"import", "include", "modulemeta", "get_search_list"} {
			if strings.Contains(a, k) {
				return true
			}
		}
		switch {
		case a == "--arg" || a == "--argjson" || a == "--slurpfile" || a == "--rawfile":
			i += 2
		case a == "--indent" || a == "--width" || a == "-w":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		case !program:
			if strings.Contains(a, Hole) {
				return true
			}
			program = true
		}
	}
	return false
}

// jqFlags reports whether a is a cluster of jq's one-letter flags holding
// flag (-rf is -r -f).
func jqFlags(a string, flag byte) bool {
	if len(a) < 2 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for i := 1; i < len(a); i++ {
		if !strings.ContainsRune("nrjascCMSeRfhV", rune(a[i])) {
			return false
		}
	}
	return strings.IndexByte(a[1:], flag) >= 0
}

// dangerousNames are variables whose value changes what a later command
// runs, with their sources: the dynamic loader (ld.so(8): LD_PRELOAD,
// LD_LIBRARY_PATH, LD_AUDIT; all LD_* and macOS DYLD_* by prefix), bash(1)
// (BASH_ENV, ENV, PROMPT_COMMAND, PS0-PS4 prompt expansion, PATH,
// SHELLOPTS, BASHOPTS, IFS, BASH_FUNC_* exported functions, BASH_CMDS and
// BASH_ALIASES which name what a command word runs), git(1)
// (GIT_SSH_COMMAND, GIT_SSH, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_EDITOR,
// GIT_SEQUENCE_EDITOR, GIT_ASKPASS, GIT_PROXY_COMMAND, GIT_EXEC_PATH, GIT_DIR
// and GIT_CONFIG* which select a config that can name programs), programs
// started by others (PAGER, MANPAGER, EDITOR, VISUAL, SSH_ASKPASS, SHELL,
// LESSOPEN/LESSCLOSE run by less, LESSSECURE, which guardsh sets to keep
// less's shell escapes off), config locations (HOME,
// XDG_CONFIG_HOME, RIPGREP_CONFIG_PATH) and interpreter start-up hooks
// (NODE_OPTIONS, NODE_PATH, PYTHONPATH, PYTHONHOME, PYTHONSTARTUP,
// PYTHONBREAKPOINT, PERL5OPT, PERL5LIB, PERL5DB, RUBYOPT, RUBYLIB,
// JAVA_TOOL_OPTIONS), and others that name a program or a module to load:
// sudo(8) SUDO_ASKPASS and SUDO_EDITOR, systemd's SYSTEMD_PAGER and
// SYSTEMD_EDITOR, BROWSER, glibc's GCONV_PATH (iconv modules), git's
// GIT_TEMPLATE_DIR (hooks copied by git init and clone), bash's
// BASH_LOADABLES_PATH; curl's CURL_HOME (its .curlrc) and the proxy
// variables (a loopback request sent to a proxy leaves the machine); zsh's
// ZDOTDIR (where its start-up files are read); Python's PYTHONUSERBASE
// (user site-packages, whose .pth files run), PYTHONEXECUTABLE and
// PYTHONPYCACHEPREFIX (where it writes bytecode); OpenSSL's OPENSSL_CONF,
// OPENSSL_MODULES and OPENSSL_ENGINES (config(5ssl): a provider module is
// loaded code) and SSLKEYLOGFILE (a file it appends to); GNUPGHOME
// (gpg.conf names programs gpg runs); GLOBIGNORE (bash: set, it makes
// globs match dot-files); module paths of Perl, Ruby gems, Lua, Java and
// Tcl; OpenTelemetry exporters (OTEL_*, DOCKER_CLI_OTEL_*: an endpoint
// any program may send to); argcomplete's _ARGCOMPLETE* and bash's
// completion COMP_* (a Python program using argcomplete, such as yq,
// writes its completions to the file _ARGCOMPLETE_STDOUT_FILENAME names:
// an attack run overwrote ~/.bashrc and guardsh's config with yq); and
// guardsh's own settings (GUARDSH_*, and
// XDG_CACHE_HOME and XDG_STATE_HOME, which locate the analyses guardsh
// trusts and its audit log), which a nested guardsh would obey.
var dangerousNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PATH": true,
		"PS0": true, "PS1": true, "PS2": true, "PS3": true, "PS4": true,
		"SHELLOPTS": true, "BASHOPTS": true, "IFS": true,
		"BASH_CMDS": true, "BASH_ALIASES": true, "BASH_XTRACEFD": true,
		"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EXTERNAL_DIFF": true, "GIT_PAGER": true,
		"GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_ASKPASS": true, "GIT_PROXY_COMMAND": true,
		"GIT_EXEC_PATH": true, "GIT_DIR": true,
		"PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true, "SSH_ASKPASS": true, "SHELL": true,
		"LESSOPEN": true, "LESSCLOSE": true,
		"HOME": true, "XDG_CONFIG_HOME": true, "RIPGREP_CONFIG_PATH": true,
		"NODE_OPTIONS": true, "PYTHONPATH": true, "PYTHONSTARTUP": true, "PERL5OPT": true, "PERL5LIB": true,
		"RUBYOPT": true, "RUBYLIB": true, "JAVA_TOOL_OPTIONS": true,
		"NODE_PATH": true, "PYTHONHOME": true, "PYTHONBREAKPOINT": true, "PERL5DB": true,
		"SUDO_ASKPASS": true, "SUDO_EDITOR": true, "SYSTEMD_PAGER": true, "SYSTEMD_EDITOR": true, "BROWSER": true,
		"GCONV_PATH": true, "GIT_TEMPLATE_DIR": true, "BASH_LOADABLES_PATH": true,
		"POSIXLY_CORRECT": true, "BASH_COMPAT": true, "EXECIGNORE": true, "LESS": true, "LESSKEY": true, "LESSKEYIN": true,
		"MAGIC": true, "XDG_CACHE_HOME": true, "XDG_STATE_HOME": true, "LESSSECURE": true,
		// Where mktemp makes its file, which guardsh decides as the
		// temp directory (attack check: export TMPDIR=~/.ssh; mktemp).
		"TMPDIR":    true,
		"CURL_HOME": true, "http_proxy": true, "HTTP_PROXY": true, "https_proxy": true, "HTTPS_PROXY": true,
		"all_proxy": true, "ALL_PROXY": true, "no_proxy": true, "NO_PROXY": true,
		"ZDOTDIR": true, "PYTHONUSERBASE": true, "PYTHONEXECUTABLE": true, "PYTHONPYCACHEPREFIX": true,
		"OPENSSL_CONF": true, "OPENSSL_MODULES": true, "OPENSSL_ENGINES": true, "SSLKEYLOGFILE": true, "GNUPGHOME": true,
		"GLOBIGNORE": true, "PERLLIB": true, "GEM_HOME": true, "GEM_PATH": true, "LUA_PATH": true, "LUA_CPATH": true,
		"CLASSPATH": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "TCLLIBPATH": true,
		// Build tools that run a program a variable names, or take flags
		// that do (an attack run set them through $GITHUB_ENV): go
		// (-toolexec, -exec), cargo's rustc wrappers, make's SHELL and extra
		// makefiles, JVM agents for Maven, Gradle and sbt, .NET start-up
		// hooks. Compilers named by CC and the like are programs looked up on
		// PATH, like any other: not here.
		"GOFLAGS": true, "GOENV": true, "RUSTC_WRAPPER": true, "RUSTC_WORKSPACE_WRAPPER": true,
		"CARGO_BUILD_RUSTC_WRAPPER": true, "CARGO_BUILD_RUSTC": true,
		"MAKEFLAGS": true, "MFLAGS": true, "GNUMAKEFLAGS": true, "MAKEFILES": true,
		"MAVEN_OPTS": true, "MAVEN_ARGS": true, "GRADLE_OPTS": true, "JAVA_OPTS": true, "SBT_OPTS": true,
		"DOTNET_STARTUP_HOOKS": true, "CORECLR_PROFILER_PATH": true,
	}
})

var dangerousPrefixes = []string{"LD_", "DYLD_", "GIT_", "BASH_FUNC_", "GUARDSH_", "OTEL_", "DOCKER_CLI_OTEL_", "PYTHON",
	"npm_config_", "NPM_CONFIG_", "_ARGCOMPLETE", "COMP_"}

// inertGitNames are the GIT_ variables that change no program, file or
// repository git uses (every other GIT_ variable may: GIT_TRACE writes a
// file, GIT_DIR and GIT_COMMON_DIR pick a config that runs programs,
// GIT_CONFIG_* set config).
// inertPythonNames are the PYTHON* variables that load no code and name no
// file (python(1) ENVIRONMENT); every other one is dangerous (PYTHONPATH,
// PYTHONSTARTUP, PYTHONPLATLIBDIR replaces the standard library,
// PYTHONINSPECT, PYTHONWARNINGS imports a module named in it…).
var inertPythonNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONIOENCODING": true,
		"PYTHONHASHSEED": true, "PYTHONUTF8": true, "PYTHONNOUSERSITE": true, "PYTHONSAFEPATH": true,
	}
})

var inertGitNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true, "GIT_AUTHOR_DATE": true,
		"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true, "GIT_COMMITTER_DATE": true,
		"GIT_TERMINAL_PROMPT": true, "GIT_OPTIONAL_LOCKS": true, "GIT_MERGE_AUTOEDIT": true, "GIT_FLUSH": true,
	}
})

func dangerousName(name string) bool {
	if dangerousNames()[name] || toolConfigNames()[name] {
		return true
	}
	if inertGitNames()[name] || inertPythonNames()[name] {
		return false
	}
	for _, p := range dangerousPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// assignedName returns the variable NAME=value, NAME+=value or
// NAME[i]=value assigns (the whole word when it has no '=').
func assignedName(a string) string {
	if i := strings.IndexByte(a, '='); i >= 0 {
		a = strings.TrimSuffix(a[:i], "+")
	}
	if i := strings.IndexByte(a, '['); i >= 0 {
		a = a[:i]
	}
	return a
}

// checkName returns why assigning name makes a segment sensitive, or "".
func checkName(word string) string {
	name := assignedName(word)
	if strings.Contains(name, Hole) {
		return fmt.Sprintf("the variable name in %q is only known at run time", shown(word))
	}
	if dangerousName(name) {
		return fmt.Sprintf("assigning %s changes what later commands run", name)
	}
	return ""
}

// shown renders a word for messages, each Hole as "…".
func shown(w string) string { return strings.ReplaceAll(w, Hole, "…") }

// classifyExec returns the class of an exec subject and a clause saying
// why. badAssign reports that an assignment (a prefix, a bare assignment or
// a declaration builtin's argument) changes what runs, or assigns a name
// only known at run time: such a segment is sensitive and no allow rule
// lifts it, since a pattern matches the words, not the assignments.
func classifyExec(words, assigns []string) (c Class, why string, badAssign bool) {
	for _, a := range assigns {
		if why := checkName(a); why != "" {
			return Sensitive, why, true
		}
	}
	if len(words) == 0 {
		return ReadOnly, "the statement only assigns variables", false
	}
	name := words[0]
	if name == "unset" {
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") && (strings.Contains(w, Hole) || dangerousName(w)) {
				return Sensitive, fmt.Sprintf("unsetting %s changes what later commands run", shown(w)), true
			}
		}
	}
	if namerefDeclaration(words) {
		return Sensitive, name + " -n makes a name a reference: assigning it later assigns the variable it names (PS4, HOME, …), which the analysis does not follow", true
	}
	if strings.Contains(name, Hole) {
		return Sensitive, "the command name is only known at run time", false
	}
	if name == "shopt" && len(words) > 2 && words[1] == "-u" && !strings.Contains(strings.Join(words[2:], " "), Hole) &&
		!slices.ContainsFunc(words[2:], func(w string) bool { return strings.HasPrefix(w, "-") }) {
		// shopt -u NAME…: turning options off changes nothing the
		// analysis relies on (the excluded names matter when set).
		return ReadOnly, "shopt -u only turns shell options off", false
	}
	if (name == "jq" || name == "yq") && jqModules(name, words[1:]) {
		return Sensitive, name + "'s program imports or includes a module, a file path rules do not see (jq(1) MODULES), or is only known at run time", false
	}
	if name == "curl" && curlLoopbackGet(words[1:]) && !curlReadsConfig(words[1:], os.Getenv, curlAccountHome()) {
		return ReadOnly, describeLoopback(name), false
	}
	prog := readOnlyProgram(name)
	if prog == nil {
		return Sensitive, name + " is not in the read-only table", false
	}
	return prog.check(name, words[1:])
}

// check classifies a call of prog (label is how to name it) with args;
// badName reports that the reason is an assigned variable name.
func (prog *program) check(label string, args []string) (c Class, why string, badName bool) {
	if prog.Sub != nil {
		c, why := prog.checkSub(label, args)
		return c, why, false
	}
	if len(prog.Require) > 0 && (len(args) == 0 || !slices.Contains(prog.Require, args[0])) {
		if label == prog.label && prog.label != "" {
			return Sensitive, prog.required, false
		}
		return Sensitive, requiredReason(prog, label), false
	}
	hasExcl := len(prog.Exclude) > 0 || len(prog.ExcludeWords) > 0 || len(prog.Only) > 0
	operands := 0
	optsDone := false
	argNext := false // this word is the previous option's argument
	for _, a := range args {
		dyn := strings.Contains(a, Hole)
		if dyn && !prog.HoleSafe && !prog.Names {
			return Sensitive, fmt.Sprintf("%s has an argument only known at run time (%q)", label, shown(a)), false
		}
		if len(prog.ExcludeAnywhere) > 0 && (dyn || slices.Contains(prog.ExcludeAnywhere, a)) {
			return Sensitive, fmt.Sprintf("%s argument %q can make it write or execute (%s)", label, shown(a), prog.Source), false
		}
		if t := prog.excludedText(a); t != "" {
			return Sensitive, fmt.Sprintf("%s argument %q holds %q (%s)", label, shown(a), shown(t), prog.Source), false
		}
		if !optsDone && len(prog.ExcludeWords) > 0 && (dyn || slices.Contains(prog.ExcludeWords, a)) {
			return Sensitive, fmt.Sprintf("%s argument %q can make it write or execute (%s)", label, shown(a), prog.Source), false
		}
		if argNext && a != Hole { // a whole-word Hole may be several words
			argNext = false
			if prog.Names {
				if why := checkName(a); why != "" {
					return Sensitive, why, true
				}
			}
			continue
		}
		if dyn {
			argNext = false
			could := !optsDone && couldBeOption(a)
			if could && hasExcl {
				return Sensitive, fmt.Sprintf("%s has an argument only known at run time (%q) that could be an option that writes or executes", label, shown(a)), false
			}
			if could && prog.Names {
				return Sensitive, fmt.Sprintf("%s has an argument only known at run time (%q) that could name any variable", label, shown(a)), true
			}
			if prog.Names {
				if why := checkName(a); why != "" {
					return Sensitive, why, true
				}
			}
			if !could {
				if prog.OperandPrefix != "" && !strings.HasPrefix(a, prog.OperandPrefix) {
					return Sensitive, fmt.Sprintf("%s has an operand only known at run time (%q) (%s)", label, shown(a), prog.Source), false
				}
				operands++
				optsDone = optsDone || prog.OptionsFirst
			}
			continue
		}
		if !optsDone && a == "--" {
			optsDone = true
			continue
		}
		if !optsDone && isOption(a, prog.PlusOptions) {
			if bad := prog.excluded(a); bad != "" {
				return Sensitive, fmt.Sprintf("%s option %s can write or execute (%s)", label, bad, prog.Source), false
			}
			if bad := prog.notOnly(a); bad != "" {
				return Sensitive, fmt.Sprintf("%s option %s is not among its read-only options (%s)", label, bad, prog.Source), false
			}
			argNext = prog.takesNextArg(a)
			if prog.Names && !strings.HasPrefix(a, "--") {
				// A value glued to an option of a cluster may be a
				// name (read -raPS4 assigns the array PS4).
				for j := 1; j < len(a); j++ {
					if strings.IndexByte(prog.ArgShort, a[j]) >= 0 {
						if v := a[j+1:]; v != "" {
							if why := checkName(v); why != "" {
								return Sensitive, why, true
							}
						}
						break
					}
				}
			}
			continue
		}
		if prog.OperandPrefix != "" && !strings.HasPrefix(a, prog.OperandPrefix) {
			return Sensitive, fmt.Sprintf("%s operand %q changes something (%s)", label, a, prog.Source), false
		}
		operands++
		optsDone = optsDone || prog.OptionsFirst
		if prog.Names {
			if why := checkName(a); why != "" {
				return Sensitive, why, true
			}
		}
	}
	if prog.MaxOperands > 0 && operands > prog.MaxOperands {
		return Sensitive, fmt.Sprintf("%s with %d operands writes to the last one (%s)", label, operands, prog.Source), false
	}
	if prog.NoOperands && operands > 0 {
		return Sensitive, fmt.Sprintf("%s with an operand changes something (%s)", label, prog.Source), false
	}
	if label == prog.label {
		return ReadOnly, prog.inTable, false
	}
	return ReadOnly, label + " is in the read-only table", false
}

// requiredReason is the reason check gives for a call of prog (named
// label) without the first argument its Require asks for.
func requiredReason(prog *program, label string) string {
	if len(prog.Only) > 0 {
		return fmt.Sprintf("%s is in the read-only table only as %s %s", label, label, orList(prog.Require))
	}
	return fmt.Sprintf("%s runs a program unless its first argument is %s", label, orList(prog.Require))
}

// checkSub handles a program with subcommands: global options, then a
// subcommand from prog.Sub, then that subcommand's own arguments.
func (prog *program) checkSub(label string, args []string) (Class, string) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if strings.Contains(a, Hole) {
			return Sensitive, fmt.Sprintf("%s has an argument only known at run time (%q)", label, shown(a))
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		name, _, hasValue := strings.Cut(a, "=")
		if !slices.Contains(prog.GlobalOptions, name) {
			return Sensitive, fmt.Sprintf("%s option %s is not read-only (%s)", label, a, prog.Source)
		}
		if !hasValue && slices.Contains(prog.GlobalArg, name) {
			i++
			if i < len(args) && strings.Contains(args[i], Hole) {
				return Sensitive, fmt.Sprintf("%s has an argument only known at run time (%q)", label, shown(args[i]))
			}
		}
	}
	if i >= len(args) {
		return ReadOnly, fmt.Sprintf("%s without a subcommand only prints", label)
	}
	for k := range prog.Sub {
		if prog.Sub[k].Name == args[i] {
			sub := prog.Sub[k].label // label+" "+args[i] when labelled (see labelled)
			if label != prog.label || prog.label == "" {
				sub = label + " " + args[i]
			}
			c, why, _ := prog.Sub[k].check(sub, args[i+1:])
			return c, why
		}
	}
	return Sensitive, fmt.Sprintf("%s %s is not in the read-only table", label, args[i])
}

func isOption(a string, plus bool) bool {
	return len(a) > 1 && (a[0] == '-' || (plus && a[0] == '+'))
}

// couldBeOption reports whether a word with a Hole could turn out to be an
// option (or, for a whole-word Hole, several words including options).
func couldBeOption(a string) bool {
	return strings.HasPrefix(a, Hole) || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")
}

// excluded returns the excluded option that option word a is or contains,
// or "".
func (prog *program) excluded(a string) string {
	if strings.HasPrefix(a, "--") {
		name, _, _ := strings.Cut(a, "=")
		if len(name) <= 2 {
			return ""
		}
		for _, ex := range prog.Exclude {
			if strings.HasPrefix(ex, "--") && strings.HasPrefix(ex, name) {
				return ex
			}
		}
		return ""
	}
	for _, c := range a[1:] {
		if i := slices.IndexFunc(prog.Exclude, func(e string) bool { return isShortOpt(e, a[0], c) }); i >= 0 {
			return prog.Exclude[i]
		}
		if strings.ContainsRune(prog.ArgShort, c) || strings.ContainsRune(prog.OptArgShort, c) {
			break // the rest of the cluster is the option's argument
		}
	}
	return ""
}

// isShortOpt reports whether e is the one-letter option made of sign
// ('-' or '+') and c ("-o"), without building that string.
func isShortOpt(e string, sign byte, c rune) bool {
	if c < utf8.RuneSelf {
		return len(e) == 2 && e[0] == sign && e[1] == byte(c)
	}
	return len(e) > 1 && e[0] == sign && e[1:] == string(c)
}

// takesNextArg reports whether option word a leaves its argument to the
// next word.
func (prog *program) takesNextArg(a string) bool {
	if strings.HasPrefix(a, "--") {
		return !strings.Contains(a, "=") && slices.Contains(prog.ArgLong, a)
	}
	for i, c := range a[1:] {
		if strings.ContainsRune(prog.OptArgShort, c) {
			return false
		}
		if strings.ContainsRune(prog.ArgShort, c) {
			return i == len(a)-2
		}
	}
	return false
}

// excludedText returns the ExcludeText substring argument a holds, or,
// when a has a run-time part and the program has ExcludeText, that part;
// "" when neither.
func (prog *program) excludedText(a string) string {
	if len(prog.ExcludeText) == 0 {
		return ""
	}
	if strings.Contains(a, Hole) {
		return Hole
	}
	for _, t := range prog.ExcludeText {
		if strings.Contains(a, t) {
			return t
		}
	}
	return ""
}

// notOnly returns the option of option word a that is not in prog.Only,
// or "" when every one is (or prog has no Only list).
func (prog *program) notOnly(a string) string {
	if len(prog.Only) == 0 {
		return ""
	}
	if strings.HasPrefix(a, "--") {
		name, _, _ := strings.Cut(a, "=")
		if !slices.Contains(prog.Only, name) {
			return name
		}
		return ""
	}
	for _, c := range a[1:] {
		if !slices.ContainsFunc(prog.Only, func(e string) bool { return isShortOpt(e, a[0], c) }) {
			return a[:1] + string(c)
		}
		if strings.ContainsRune(prog.ArgShort, c) || strings.ContainsRune(prog.OptArgShort, c) {
			break // the rest of the cluster is the option's argument
		}
	}
	return ""
}

// namerefDeclaration reports a declaration builtin (declare, typeset,
// local) given -n, bundled or not, before its first operand (bash(1)
// declare: -n gives each name the nameref attribute).
func namerefDeclaration(words []string) bool {
	switch words[0] {
	case "declare", "typeset", "local":
	default:
		return false
	}
	for _, w := range words[1:] {
		if strings.Contains(w, Hole) {
			return true // an option only known at run time
		}
		if w == "--" || !strings.HasPrefix(w, "-") || len(w) < 2 {
			return false
		}
		if strings.ContainsRune(w[1:], 'n') {
			return true
		}
	}
	return false
}
