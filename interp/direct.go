package interp

import (
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/syntax"
)

// The fast path: bash, given `-c TEXT` where TEXT is one simple command, does
// not fork — it execs the program in its own place (its "one-shot" exec, see
// should_suppress_fork in bash's builtins/evalstring.c). Where guardsh can
// show that the program, its argv, its environment and everything else it
// inherits are exactly what bash would give it, guardsh starts the program
// itself and skips bash's start. Everything else goes to bash.

// DirectArgv reports whether bash, run as `bash -c text`, would exec one
// program directly with argv known before it runs, and returns that argv
// (after quote removal). It holds for text that is a single simple command
// on one line (one trailing newline allowed): no assignments, redirections,
// negation, background, pipes or lists; every word made of unquoted letters,
// digits and `-_./:,=+@%^`, single-quoted text, or double-quoted text without
// `$`, backquote or backslash; a command name that is not one of bash's
// builtins or reserved words and not empty. Anything else (an expansion, a
// glob, a tilde, a brace, an escape, a comment line before the command, a
// second line) gives ok false, as does text that does not parse.
func DirectArgv(text string) (argv []string, ok bool) {
	body := strings.TrimSuffix(text, "\n")
	if len(body) > 4096 || strings.ContainsAny(body, "\n\r\x00") {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	s := f.Stmts[0]
	if s.Negated || s.Background || s.Coprocess || s.Disown || len(s.Redirs) > 0 {
		return nil, false
	}
	call, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	for _, w := range call.Args {
		a, ok := directWord(w)
		if !ok {
			return nil, false
		}
		argv = append(argv, a)
	}
	if argv[0] == "" || bashBuiltins[argv[0]] || bashKeywords[argv[0]] {
		return nil, false
	}
	return argv, true
}

// directWord is the value of w after quote removal when w holds nothing
// bash would expand.
func directWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if !plainLit(p.Value) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				lit, isLit := q.(*syntax.Lit)
				if !isLit || strings.ContainsAny(lit.Value, "\\$`!") {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// plainLit reports whether an unquoted literal holds only characters that
// bash takes as they are: no glob, brace, tilde, escape or history
// character.
func plainLit(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("-_./:,=+@%^", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// Builtin reports whether bash runs name itself, as a builtin or a
// reserved word, rather than a file found on PATH.
func Builtin(name string) bool { return bashBuiltins[name] || bashKeywords[name] }

// bashBuiltins are bash 5's builtins (`enable -a`); bashKeywords its
// reserved words (`compgen -k`). A command named so is not a program.
var bashBuiltins = setOf(". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait")

var bashKeywords = setOf("if then else elif fi case esac for select while until do done in function time { } ! [[ ]] coproc")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// DirectPath returns the file bash runs for the command name, as bash finds
// it: a name with a slash is used as it is; else the directories of path
// (a PATH value; an empty entry is the working directory) are searched in
// order for the first file that is not a directory and that the effective
// user may execute (eaccess X_OK, as bash's findcmd.c; a file without that
// permission earlier on path is passed over, as bash does), named entry +
// "/" + name ("./name" for an empty entry). ok is false whenever bash would
// not exec a file here: nothing found (bash says "command not found", 127),
// a name found only without execute permission (126), or a path entry
// starting with "~" (bash expands it).
func DirectPath(name, path string) (string, bool) {
	if strings.Contains(name, "/") {
		return name, executable(name)
	}
	if path == "" {
		return "", false
	}
	for _, dir := range strings.Split(path, ":") {
		switch {
		case dir == "":
			dir = "."
		case strings.HasPrefix(dir, "~"):
			return "", false
		}
		p := dir + "/" + name
		if strings.HasSuffix(dir, "/") {
			p = dir + name
		}
		if executable(p) {
			return p, true
		}
	}
	// Not found, or found only without execute permission: bash fails
	// with 127 or 126 and its own message.
	return "", false
}

// executable reports whether p exists, is not a directory and may be
// executed by the effective user.
func executable(p string) bool {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil || st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return false
	}
	return unix.Faccessat(unix.AT_FDCWD, p, unix.X_OK, unix.AT_EACCESS) == nil
}

// bashOwnVariables are the environment names bash does not pass through as
// they came (it sets, drops or reformats them, or they change how it
// starts): a command text meeting any of them goes to bash. Names
// starting with BASH are in this set too (see directEnv). PATH, PWD,
// OLDPWD, SHLVL and _ are handled; HOSTNAME, HOSTTYPE, MACHTYPE, OSTYPE,
// SHELL and TERM pass through unchanged.
var bashOwnVariables = setOf("COMP_WORDBREAKS DIRSTACK EPOCHREALTIME EPOCHSECONDS EUID GROUPS HISTCMD IFS LINENO OPTERR OPTIND PPID PS1 PS2 PS4 RANDOM SECONDS SHELLOPTS SRANDOM UID ENV POSIXLY_CORRECT EXECIGNORE FUNCNAME FUNCNEST COPROC")

// bashBuckets is the size of bash's hash table of variables
// (VARIABLES_HASH_BUCKETS in variables.h); it grows when the table holds
// twice as many entries, which directEnv stays well below.
const bashBuckets = 1024

// bashHash is bash's hash_string (hashlib.c): 32-bit FNV-1.
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// DirectEnv returns the environment bash, started with env in the working
// directory cwd, passes to a program it execs in place of itself for a -c
// command found at prog (the path DirectPath gives), in bash's order; ok is
// false when env holds something whose effect guardsh does not reproduce.
//
// What bash changes, as bash 5.2's variables.c and execute_cmd.c do it
// (and as TestDirectEnvMatchesBash checks against the real bash):
//   - PWD: kept as it is when it is an absolute path naming the working
//     directory (even /a/../a), else set to getcwd(3);
//   - OLDPWD: dropped unless it names a directory;
//   - SHLVL: bash adds one at start and takes it off again before the
//     one-shot exec, so a value n from 0 to 998 (decimal, leading zeros,
//     sign and blanks allowed by bash; guardsh takes plain digits only) is
//     passed as n without leading zeros, an absent or empty one as 0;
//   - _: set to prog;
//   - order: names that are not variable names first, last first; then the
//     variables in the order of bash's hash table (FNV-1 of the name modulo
//     1,024 buckets, the later-made first within a bucket); then _ when it
//     was not in env.
//
// ok is false for: duplicate names or an entry without "="; more than 1,000
// entries; PATH absent or empty (bash would use its own default); LC_ALL
// other than C or POSIX (bash may warn that it cannot set the locale); any
// name beginning with BASH or in bashOwnVariables; a SHLVL bash would reset or warn about; a working directory
// getcwd cannot name.
func DirectEnv(env []string, prog string) ([]string, bool) {
	if len(env) > 1000 {
		return nil, false
	}
	type variable struct {
		name, value string
		seq         int
		bucket      uint32
	}
	var invalid []string
	var vars []variable
	seen := map[string]int{}
	for _, kv := range env {
		name, value, hasEq := strings.Cut(kv, "=")
		if !hasEq {
			return nil, false
		}
		if _, dup := seen[name]; dup {
			return nil, false
		}
		seen[name] = len(vars)
		if !validName(name) {
			if name == "" {
				return nil, false
			}
			invalid = append(invalid, kv)
			seen[name] = -1
			continue
		}
		if strings.HasPrefix(name, "BASH") || bashOwnVariables[name] {
			return nil, false
		}
		switch name {
		case "PATH":
			if value == "" {
				return nil, false
			}
		case "LC_ALL":
			if value != "C" && value != "POSIX" {
				return nil, false
			}
		}
		vars = append(vars, variable{name, value, len(vars), bashHash(name) % bashBuckets})
	}
	if _, ok := seen["PATH"]; !ok {
		return nil, false
	}
	set := func(name, value string) {
		if i, ok := seen[name]; ok {
			vars[i].value = value
			return
		}
		seen[name] = len(vars)
		vars = append(vars, variable{name, value, len(vars), bashHash(name) % bashBuckets})
	}
	// PWD (set_pwd in variables.c).
	cwd, err := unix.Getwd()
	if err != nil {
		return nil, false
	}
	if i, ok := seen["PWD"]; !ok || !strings.HasPrefix(vars[i].value, "/") || !sameFile(vars[i].value, ".") {
		set("PWD", cwd)
	}
	// OLDPWD: bash makes it invisible unless it names a directory.
	dropOld := false
	if i, ok := seen["OLDPWD"]; ok {
		var st unix.Stat_t
		if vars[i].value == "" || unix.Stat(vars[i].value, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			dropOld = true
		}
	}
	// SHLVL (adjust_shell_level, up by one at start, down by one before
	// the one-shot exec).
	level := 0
	if i, ok := seen["SHLVL"]; ok && vars[i].value != "" {
		v := vars[i].value
		if len(v) > 3 || strings.Trim(v, "0123456789") != "" {
			return nil, false
		}
		level, _ = strconv.Atoi(v)
		if level+1 >= 1000 {
			return nil, false
		}
	}
	set("SHLVL", strconv.Itoa(level))
	_, underscore := seen["_"]
	if underscore {
		vars[seen["_"]].value = prog
	}

	// bash's export list: its hash table's order.
	slices.SortFunc(vars, func(a, b variable) int {
		if a.bucket != b.bucket {
			return cmp.Compare(a.bucket, b.bucket)
		}
		return cmp.Compare(b.seq, a.seq) // the later-made first
	})
	out := make([]string, 0, len(env)+4)
	for i := len(invalid) - 1; i >= 0; i-- {
		out = append(out, invalid[i])
	}
	for _, v := range vars {
		if v.name == "OLDPWD" && dropOld {
			continue
		}
		out = append(out, v.name+"="+v.value)
	}
	if !underscore {
		out = append(out, "_="+prog)
	}
	return out, true
}

func sameFile(a, b string) bool {
	var sa, sb unix.Stat_t
	if unix.Stat(a, &sa) != nil || unix.Stat(b, &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

// Direct runs text the way bash's one-shot exec would, without bash: when
// r.Shell is bash itself (a compiled program named bash, not a wrapper
// script that might run the command elsewhere), r.Arg0 does not name it
// sh (POSIX mode), and DirectArgv, DirectPath (on r.Env's PATH) and
// DirectEnv all hold, it starts the program with r's stdin, stdout,
// stderr, start function (the sandbox's jail) and terminal (a pty), as
// Command starts bash, forwards signals and returns the exit status as
// Command does (128+n for death by signal n), with ran true. ran is false,
// and nothing has run, when the text or environment is not such a case or
// the program could not be started (bash's own error message and status
// are then wanted: the caller hands text to Command). The caller must also
// know that bash's options change nothing here (no -x, -v, -n, -a, login
// or interactive start-up).
func (r Run) Direct(text string) (status int, ran bool, err error) {
	argv, ok := DirectArgv(text)
	if name := filepath.Base(strings.TrimPrefix(r.arg0(), "-")); !ok || !isBash(r.Shell) || name == "sh" || name == "rbash" {
		// Named sh, bash starts in POSIX mode, which changes how it
		// imports PWD, among other things; named rbash, it is
		// restricted (no command with a slash, among others).
		return 0, false, nil
	}
	path := ""
	for _, kv := range r.Env {
		if v, isPath := strings.CutPrefix(kv, "PATH="); isPath {
			path = v
		}
	}
	prog, ok := DirectPath(argv[0], path)
	if !ok {
		return 0, false, nil
	}
	env, ok := DirectEnv(r.Env, prog)
	if !ok {
		return 0, false, nil
	}
	// Built as bash's command is (r.cmd), with the program in its place.
	cmd := r.cmd(argv)
	cmd.Path, cmd.Env, cmd.Stdin = prog, env, r.Stdin
	var startErr error
	start := r.Start
	rr := r
	rr.Start = func(c *exec.Cmd) error {
		if start != nil {
			startErr = start(c)
		} else {
			startErr = c.Start()
		}
		return startErr
	}
	if r.Terminal != nil {
		// On a terminal of its own, as Command starts bash.
		cmd.Stdout, cmd.Stderr = nil, nil
	}
	status, err = rr.waitOn(cmd, r.Terminal)
	if startErr != nil {
		return 0, false, nil
	}
	return status, true, err
}

// isBash reports whether shell is the system's bash (/bin/bash or
// /usr/bin/bash, the same file) and a compiled program: the fast path
// reproduces bash, not a configured wrapper (a script that logs, or a
// compiled launcher that runs the command in a container) that only bears
// its name.
func isBash(shell string) bool {
	if !strings.HasSuffix(shell, "/bash") && shell != "bash" {
		return false
	}
	// The system's bash itself: a program named bash elsewhere may be a
	// compiled wrapper (a container or sandbox launcher) that must run.
	info, err := os.Stat(shell)
	if err != nil {
		return false
	}
	system := false
	for _, p := range []string{"/bin/bash", "/usr/bin/bash"} {
		if si, err := os.Stat(p); err == nil && os.SameFile(si, info) {
			system = true
		}
	}
	if !system {
		return false
	}
	f, err := os.Open(shell)
	if err != nil {
		return false
	}
	defer f.Close()
	magic := make([]byte, 4)
	n, _ := f.Read(magic)
	return n == 4 && string(magic) == "\x7fELF"
}
