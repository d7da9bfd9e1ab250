package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/internal/signals"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/prompt"
	"github.com/guardsh/guardsh/rules"
)

// Interactive mode: guardsh reads each command line itself (with line
// editing and history on a terminal), decides it, and hands what it allows
// to one persistent interactive bash (interp.Session); a refused line runs
// `(exit 126)` instead and the session goes on. Prompts are bash's PS1 and
// PS2, expanded by that bash after guardsh has analysed them, with the
// allowed PROMPT_COMMAND elements run first.

// isInteractive reports whether inv starts an interactive session, as bash
// decides: no -c and no script operand (operands after -s are positional
// parameters), and -i or standard input and standard error on a terminal.
func isInteractive(inv *invocation, stdin *os.File) bool {
	if inv.command || inv.version || inv.help {
		return false
	}
	if len(inv.operands) > 0 && !inv.stdin {
		return false // a script file, even with -i
	}
	return inv.interactive || term.IsTerminal(int(stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd()))
}

// defaultPS1 and defaultPS2 are bash's prompts when none is set, used in
// place of a prompt whose code would not be allowed.
const defaultPS1, defaultPS2 = `\s-\v\$ `, "> "

// interSession is one interactive guardsh session.
type interSession struct {
	s     *shellRun
	sess  *interp.Session
	lines *lineSource
	// tty is the terminal guardsh reads lines from, when there is one;
	// bashPgrp is the process group bash's job control runs in.
	tty      *os.File
	bashPgrp int
	// aliases and functions are those the allowed commands defined, for
	// the analysis of later ones.
	aliases, functions map[string]string
	// warned holds the prompt values already reported as not used.
	warned map[string]bool
	last   interp.Report
}

// interactive serves an interactive session on stdin; args are $0 and the
// positional parameters. It returns the exit status of the session's bash.
func (s *shellRun) interactive(stdin *os.File, args []string) int {
	if s.term.Record == "required" {
		// Sessions are not recorded (see the README): like a command
		// whose recording cannot be opened, none starts.
		fmt.Fprintf(s.stderr, "guardsh: interactive sessions are not recorded; refusing to start one (record: required in %s)\n", s.guard.PolicyFile)
		return exitRefused
	}
	s.guard.Prompts = true
	s.guard.Analysis.AliasesOn = true
	s.guard.Analysis.Session = true
	s.more = true // each line's record, and room for the next (see finish)
	if os.Getenv("GUARDSH_SESSION") == "" {
		// The session's records (and approvals) belong together.
		os.Setenv("GUARDSH_SESSION", "interactive-"+audit.NewID(time.Now()))
	}
	if s.guard.SandboxUnavailable == "" {
		// The session's bash starts before its commands are known.
		s.guard.SandboxUnavailable = "unavailable (interactive session)"
	}
	runner := s.runner
	runner.Options = sessionOptions(s.inv.options)
	// Someone typing at the session could otherwise run a command from
	// less (!cmd), the pager of git log and man, unanalysed.
	runner.Env = interp.SessionPrompts(interp.LessSecure(runner.Env), os.Environ())
	arg0 := runner.Arg0
	if arg0 == "" {
		arg0 = "bash"
	}
	x := &interSession{s: s, aliases: map[string]string{}, functions: map[string]string{}, warned: map[string]bool{}}
	if term.IsTerminal(int(stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd())) {
		x.tty = stdin
	} else {
		// guardsh reads the lines ahead of bash: a command reading
		// standard input would get lines it never saw as commands.
		devNull, err := os.Open(os.DevNull)
		if err != nil {
			fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
			return exitRefused
		}
		defer devNull.Close()
		runner.Stdin = devNull
	}
	sess, err := runner.StartSession(append([]string{strings.TrimPrefix(arg0, "-")}, args...))
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
		return exitRefused
	}
	x.sess = sess
	x.lines = newLineSource(stdin, s.stderr, x.tty)
	defer x.lines.restore()
	sigs := make(chan os.Signal, 4)
	defer signals.Handle(signals.Pass(sigs))()
	go func() {
		for sig := range sigs {
			if sig == syscall.SIGINT {
				continue // bash and the foreground job get their own
			}
			// The terminal is gone or guardsh is told to end: so is the
			// session (an interactive bash exits on SIGHUP, hanging up
			// its jobs). Every line already has its audit record.
			x.lines.restore()
			_ = sess.Signal(syscall.SIGHUP)
			select {
			case <-sess.Exited():
			case <-time.After(2 * time.Second):
				_ = sess.Signal(syscall.SIGKILL)
			}
			os.Exit(128 + int(sig.(syscall.Signal)))
		}
	}()

	ended := false
	if rep, err := sess.Run(""); err != nil {
		ended = true
	} else {
		x.last = rep
		x.learn("", guard.Outcome{}, nil, rep)
		x.takeTerminal()
	}
	for _, f := range startupFiles(s.inv, os.Getenv("HOME")) {
		if ended {
			break
		}
		ended = !x.run(". "+interp.Quote(f)+"\n", f)
	}
	for !ended {
		ps1, ps2, ok := x.prompts()
		if !ok {
			break
		}
		text, err := x.lines.command(ps1, ps2)
		if errors.Is(err, errInterrupted) {
			// As bash after Ctrl-C at its prompt ($? in the next prompt
			// too).
			sess.SetStatus(130)
			x.last.Status = 130
			continue
		}
		if errors.Is(err, errEmptyLine) {
			continue
		}
		if text != "" {
			ended = !x.run(text, "")
		}
		if err != nil {
			if x.tty != nil && errors.Is(err, io.EOF) {
				fmt.Fprintln(s.stderr, "exit")
			} else if !errors.Is(err, io.EOF) {
				fmt.Fprintf(s.stderr, "guardsh: reading commands: %v\n", err)
			}
			break
		}
	}
	x.lines.restore()
	sess.Close()
	status, err := sess.Wait()
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
	}
	return status
}

// run decides text and runs it in the session (or `(exit 126)` when it is
// refused), records it with its exit status, and reports whether the
// session goes on. file names the start-up file text reads, if any.
func (x *interSession) run(text, file string) bool {
	s := x.s
	s.start = time.Now() // the record's duration is this line's
	sourced := map[string]string{}
	// Every line runs unjailed: it takes its turn (see announce) from
	// before it is decided until bash has run it, so no jailed command
	// of this user changes what it was decided on meanwhile.
	presence, liveErr := s.announce(false)
	defer func() { presence.Release() }()
	s.guard.Analysis.SourcedFunctions = sourced
	o, calls := s.review(text, s.evaluate(text))
	s.guard.Analysis.SourcedFunctions = nil
	// The dialog, the pending approval and the record show the command
	// without the newline that ended it.
	shown := strings.TrimSuffix(text, "\n")
	var a prompt.Answer
	if liveErr != nil {
		a = prompt.Answer{Decision: rules.Deny, DecidedBy: "sandbox"}
		fmt.Fprintf(s.stderr, "guardsh: %v\nguardsh: nothing ran\n", liveErr)
	} else {
		a = s.resolve(shown, o)
	}
	rec := s.record(shown, o, calls, a)
	run := text
	if a.Decision != rules.Allow {
		if liveErr == nil {
			s.printRefusal(shown, o, a)
		}
		if file != "" {
			fmt.Fprintf(s.stderr, "guardsh: start-up file %s not read\n", file)
		}
		run = ""
		x.sess.SetStatus(exitRefused)
	} else if s.roomRefused(s.guard.Policy, rec) {
		run = ""
		x.sess.SetStatus(exitRefused)
	} else {
		s.printLines(a)
	}
	x.giveTerminal()
	rep, err := x.sess.Run(run)
	x.takeTerminal()
	if err != nil {
		// The command ended the session (exit, exec, set -e): its
		// status is the session's.
		var status *int
		if a.Decision == rules.Allow {
			st, _ := x.sess.Wait()
			status = &st
		}
		s.finish(rec, status)
		return false
	}
	if a.Decision != rules.Allow {
		s.finish(rec, nil)
		x.learn("", guard.Outcome{}, nil, rep)
	} else {
		s.finish(rec, &rep.Status)
		x.learn(text, o, sourced, rep)
	}
	x.last = rep
	return true
}

// learn brings what the analysis of later lines knows up to date after
// text (with outcome o, which defined the functions sourced in files it
// read) ran, or nothing did (text ""), and bash reported rep: the aliases
// and functions text defined; an alias or function bash has that guardsh
// did not see defined, or with another value, is not known (a use of it is
// not understood), as is one bash no longer has unless an unalias or
// unset -f the analysis saw removed it; the working
// directory (bash's $PWD when it is the directory bash is in, else the
// physical one), and whether it may be other than it seems (a directory
// stack, a CDPATH bash kept, a job still running).
func (x *interSession) learn(text string, o guard.Outcome, sourced map[string]string, rep interp.Report) {
	g := x.s.guard
	segs := make([]interp.Segment, len(o.Segments))
	for i, c := range o.Segments {
		segs[i] = c.Segment
	}
	interp.DefinedAliases(segs, x.aliases)
	for name := range x.aliases {
		if _, ok := rep.Aliases[name]; !ok {
			// Gone in a way no line showed, or the report lies: a use
			// of the word is not understood.
			x.aliases[name] = interp.Hole
		}
	}
	for name, value := range rep.Aliases {
		if known, ok := x.aliases[name]; !ok || known != value {
			x.aliases[name] = interp.Hole
		}
	}
	interp.DefinedFunctions(text, segs, sourced, rep.Functions, x.functions)
	for name := range rep.Functions {
		if _, ok := x.functions[name]; !ok {
			x.functions[name] = interp.Hole
		}
	}
	g.Analysis.Aliases, g.Analysis.Functions = x.aliases, x.functions
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(x.sess.Pid()), "cwd"))
	if err != nil {
		g.Analysis.DirChanged = true
		return
	}
	if filepath.IsAbs(rep.PWD) {
		// The logical directory, as bash resolves `cd ..` from it.
		a, errA := os.Stat(rep.PWD)
		b, errB := os.Stat(cwd)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			cwd = filepath.Clean(rep.PWD)
		}
	}
	g.Context.Cwd, g.Analysis.Dir = cwd, cwd
	// A popd may move; a readonly CDPATH sends a relative cd elsewhere; a
	// job still running may change the file system under the next line:
	// its relative paths are then only known at run time.
	g.Analysis.DirChanged = rep.DirStack > 1 || rep.CDPATH != "" || rep.Jobs > 0
}

// prompts runs the PROMPT_COMMAND elements that would be allowed and
// returns PS1 and PS2 expanded, each replaced by bash's default when its
// code would not be allowed; ok is false when the session ended.
func (x *interSession) prompts() (ps1, ps2 string, ok bool) {
	rep := x.last
	if len(rep.PromptCommand) > 0 {
		// The elements run one after the other, as lines of one text:
		// an alias one defines applies to the next. They run all or
		// none.
		text := strings.Join(rep.PromptCommand, "\n")
		o := x.s.guard.Evaluate(text)
		if o.Decision == rules.Allow && !o.Sandbox {
			x.giveTerminal()
			r, err := x.sess.RunPromptCommand(rep.PromptCommand, rep.Status)
			x.takeTerminal()
			if err != nil {
				return "", "", false
			}
			x.learn(text, o, nil, r)
			rep.PS1, rep.PS2 = r.PS1, r.PS2
		} else {
			x.warn("PROMPT_COMMAND", text)
		}
	}
	if !x.s.guard.PromptAllowed("PS1", rep.PS1) {
		x.warn("PS1", rep.PS1)
		rep.PS1 = defaultPS1
	}
	if !x.s.guard.PromptAllowed("PS2", rep.PS2) {
		x.warn("PS2", rep.PS2)
		rep.PS2 = defaultPS2
	}
	ps1, ps2, err := x.sess.ExpandPrompts(rep.PS1, rep.PS2, rep.Status)
	x.takeTerminal() // a prompt's $(…) may run a job, which bash gives it to
	if err != nil {
		return "", "", false
	}
	return ps1, ps2, true
}

// warn says once per value that guardsh does not use it.
func (x *interSession) warn(what, value string) {
	if x.warned[what+"\x00"+value] {
		return
	}
	x.warned[what+"\x00"+value] = true
	fmt.Fprintf(x.s.stderr, "guardsh: %s %q not used: its code would not be allowed without asking (guardsh check shows why)\n", what, value)
}

// giveTerminal makes bash's process group the terminal's foreground group
// (bash gives it to each job it starts, and reads there with builtins such
// as read); takeTerminal takes it back for guardsh's own reading.
func (x *interSession) giveTerminal() {
	if x.tty == nil {
		return
	}
	if x.bashPgrp == 0 {
		if pg, err := unix.Getpgid(x.sess.Pid()); err == nil {
			x.bashPgrp = pg
		}
	}
	if x.bashPgrp > 0 {
		_ = unix.IoctlSetPointerInt(int(x.tty.Fd()), unix.TIOCSPGRP, x.bashPgrp)
	}
}

func (x *interSession) takeTerminal() {
	if x.tty != nil {
		// The approval dialog resets these when it ends.
		signal.Ignore(syscall.SIGTTOU, syscall.SIGTTIN)
		_ = unix.IoctlSetPointerInt(int(x.tty.Fd()), unix.TIOCSPGRP, unix.Getpgrp())
	}
}

// sessionOptions returns the bash options of inv that the session's bash
// gets: not those guardsh serves itself (-i and the start-up files; -s
// and -c are never in options; -l and --login stay, for login_shell, as
// StartSession adds --noprofile) nor +H, which StartSession sets.
func sessionOptions(options []string) []string {
	var out []string
	for i := 0; i < len(options); i++ {
		o := options[i]
		switch o {
		case "--norc", "--noprofile", "--noediting", "+H":
			continue
		case "--rcfile", "--init-file":
			i++
			continue
		}
		if len(o) > 1 && o[0] == '-' && o[1] != '-' {
			o = strings.ReplaceAll(o, "i", "")
			if o == "-" {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

// hasOption reports whether bash gets the option long ("--login") or the
// short one (a letter in a cluster: -lc).
func (inv *invocation) hasOption(long string, short byte) bool {
	for _, o := range inv.options {
		if o == long || short != 0 && len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.IndexByte(o, short) > 0 {
			return true
		}
	}
	return false
}

// readsStartup reports whether bash reads start-up files: a login or an
// interactive shell, or one given --rcfile (see startupFiles).
func (inv *invocation) readsStartup() bool {
	return inv.login || inv.interactive || inv.initFile != "" || inv.hasOption("--login", 'l') || inv.hasOption("", 'i')
}

// startupFiles lists the files bash reads when an interactive session
// starts (bash(1) INVOCATION), which guardsh sends as `. FILE` commands
// so that they are decided: a login shell's /etc/profile and the first of
// ~/.bash_profile, ~/.bash_login, ~/.profile (not with --noprofile); else
// --rcfile's file, or /etc/bash.bashrc and ~/.bashrc (not with --norc).
// Files that do not exist are left out.
func startupFiles(inv *invocation, home string) []string {
	has := inv.hasOption
	exists := func(p string) bool {
		info, err := os.Stat(p)
		return err == nil && !info.IsDir()
	}
	var files []string
	if inv.login || has("--login", 'l') {
		if has("--noprofile", 0) {
			return nil
		}
		if exists("/etc/profile") {
			files = append(files, "/etc/profile")
		}
		for _, f := range []string{".bash_profile", ".bash_login", ".profile"} {
			if p := filepath.Join(home, f); home != "" && exists(p) {
				return append(files, p)
			}
		}
		return files
	}
	if has("--norc", 0) {
		return nil
	}
	if inv.initFile != "" {
		return []string{inv.initFile}
	}
	for _, p := range []string{"/etc/bash.bashrc", filepath.Join(home, ".bashrc")} {
		if (home != "" || p == "/etc/bash.bashrc") && exists(p) {
			files = append(files, p)
		}
	}
	return files
}

// startupScan is what scanStartup finds in start-up files.
type startupScan struct {
	// cdpath: CDPATH, cdable_vars or autocd is named (a relative cd may
	// then go anywhere: attack runs 58, 60), or a file is sourced through
	// what the scan cannot follow; aliases: an alias is defined;
	// expandAliases: expand_aliases is named.
	cdpath, aliases, expandAliases bool
}

// scanStartup reads the start-up files bash reads (files, see
// startupFiles) and what they source, and reports what they name. Followed
// too: what /etc/profile sources on Debian (/etc/bash.bashrc,
// /etc/profile.d/*.sh), and each file a `source` or `.` names, through
// the file's plain assignments and for loops (see sourcedPaths); up to 64
// files of at most 1 MiB read each.
func scanStartup(files []string, home string) startupScan {
	var out startupScan
	if slices.Contains(files, "/etc/profile") {
		extra, _ := filepath.Glob("/etc/profile.d/*.sh")
		files = append(append(slices.Clone(files), "/etc/bash.bashrc"), extra...)
	}
	seen := map[string]bool{}
	for i := 0; i < len(files) && i < 64; i++ {
		f := files[i]
		if seen[f] {
			continue
		}
		seen[f] = true
		data, err := readHead(f, 1<<20)
		if err != nil {
			continue
		}
		if bytes.Contains(data, []byte("CDPATH")) || bytes.Contains(data, []byte("cdable_vars")) || bytes.Contains(data, []byte("autocd")) {
			out.cdpath = true
		}
		out.aliases = out.aliases || aliasLine().Match(data)
		out.expandAliases = out.expandAliases || bytes.Contains(data, []byte("expand_aliases"))
		if evalOfFile().Match(data) {
			// Code read from a file at run time (eval "$(cat F)"): as
			// a source the scan cannot follow (attack run 63).
			out.cdpath = true
		}
		vars := startupVars(string(data), home)
		for _, m := range sourceLine().FindAllStringSubmatch(string(data), -1) {
			word := m[1]
			if word == "--" {
				continue
			}
			paths, known := sourcedPaths(word, home, vars)
			if !known {
				// A file sourced through what the scan cannot follow
				// may set CDPATH as well: taken as if it did (attack
				// run 62: Fedora's ~/.bashrc sources ~/.bashrc.d/*
				// in a loop).
				out.cdpath = true
			}
			files = append(files, paths...)
		}
	}
	return out
}

// startupVarAssign and startupFor match a start-up file's plain
// assignments (export NVM_DIR="$HOME/.nvm") and for loops' words (for rc
// in ~/.bashrc.d/*), which its source lines may use.
var (
	startupVarAssign = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)(?:^|[;&]|\bthen)[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"\n$` + "`" + `]*(?:\$\{?HOME\}?[^"\n$` + "`" + `]*)?"|'[^'\n]*'|[^\s;&|$` + "`" + `]*(?:\$\{?HOME\}?[^\s;&|$` + "`" + `]*)?)(?:[ \t]|;|$)`)
	})
	startupFor = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)\bfor[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+in[ \t]+([^;\n]+)`)
	})
)

// startupVars returns the values a start-up file's text gives its
// variables, by name: plain assignments ($HOME and ~ expanded) and the
// words of for loops, each glob expanded.
func startupVars(text, home string) map[string][]string {
	vars := map[string][]string{}
	for _, m := range startupVarAssign().FindAllStringSubmatch(text, -1) {
		vars[m[1]] = append(vars[m[1]], expandStartupHome(strings.Trim(m[2], `"'`), home))
	}
	for _, m := range startupFor().FindAllStringSubmatch(text, -1) {
		for _, w := range strings.Fields(m[2]) {
			w = expandStartupHome(strings.Trim(w, `"'`), home)
			if strings.ContainsAny(w, "*?[") {
				matches, _ := filepath.Glob(w)
				vars[m[1]] = append(vars[m[1]], matches...)
				continue
			}
			vars[m[1]] = append(vars[m[1]], w)
		}
	}
	return vars
}

// expandStartupHome replaces a leading ~ and every $HOME and ${HOME} in v.
func expandStartupHome(v, home string) string {
	if home == "" {
		return v
	}
	if v == "~" || strings.HasPrefix(v, "~/") {
		v = home + v[1:]
	}
	return strings.NewReplacer("${HOME}", home, "$HOME", home).Replace(v)
}

// sourcedPaths returns the files a source word may name, from the
// start-up file's variables (vars): known false when it names one
// through what is only known at run time (a variable the file does not
// give a value, a substitution).
func sourcedPaths(word, home string, vars map[string][]string) ([]string, bool) {
	v := expandStartupHome(strings.Trim(word, `"'`), home)
	cands := []string{v}
	for strings.Contains(cands[0], "$") && len(cands) < 64 {
		m := varRef().FindStringSubmatchIndex(cands[0])
		if m == nil {
			return nil, false
		}
		name := cands[0][m[2]:m[3]]
		if m[4] >= 0 {
			name = cands[0][m[4]:m[5]]
		}
		vals, ok := vars[name]
		if !ok {
			return nil, false
		}
		var next []string
		for _, c := range cands {
			for _, val := range vals {
				next = append(next, c[:m[0]]+val+c[m[1]:])
			}
		}
		if len(next) == 0 {
			return nil, true // a loop over nothing
		}
		cands = next
	}
	var out []string
	for _, c := range cands {
		if strings.ContainsAny(c, "`$") || !filepath.IsAbs(c) || strings.HasPrefix(c, "/dev/") || strings.HasPrefix(c, "/proc/") {
			// (/dev/stdin, /dev/fd/N: what another file or command
			// feeds it, and never read here: guardsh's own stdin.)
			return nil, false
		}
		if strings.ContainsAny(c, "*?[") {
			matches, _ := filepath.Glob(c)
			out = append(out, matches...)
			continue
		}
		out = append(out, c)
	}
	return out, true
}

// evalOfFile matches eval of a file's text: eval "$(cat F)", eval
// "$(< F)", eval `cat F`.
var evalOfFile = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\beval[ \\t]+[\"']?(?:\\$\\([ \\t]*(?:cat\\b|<)|`[ \\t]*cat\\b)")
})

// varRef matches $NAME or ${NAME}.
var varRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})`)
})

// aliasLine matches an alias definition at a line's start (after blanks,
// or after `then`/`&&`/`;`): `alias ll='ls -l'`.
var aliasLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:(?:^|[;&]|\bthen)[ \t]*(?:builtin[ \t]+)?alias[ \t]+(?:--[ \t]+)?[^\s=]+=|BASH_ALIASES\[)`)
})

// sourceLine matches a source or . command anywhere in a line (after
// `&&`, `then`, `;`, a brace): its first argument, group 1.
var sourceLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(?:^|[\s;&|({])(?:builtin[ \t]+)?(?:source|\\?\.)[ \t]+(?:--[ \t]+)?("[^"\n]*"|'[^'\n]*'|[^\s;&|)}]+)`)
})

// readHead reads at most n bytes of file f.
func readHead(f string, n int64) ([]byte, error) {
	fd, err := os.Open(f)
	if err != nil {
		return nil, err
	}
	defer fd.Close()
	return io.ReadAll(io.LimitReader(fd, n))
}

// lineSource reads command lines, printing the prompts: on a terminal
// with line editing and history (golang.org/x/term), else plainly from a
// pipe with the prompts on stderr, as bash -i does.
type lineSource struct {
	tty    *os.File
	editor *term.Terminal
	keys   *keyReader
	// mu guards saved, which a signal handler restores too.
	mu     sync.Mutex
	saved  *term.State
	plain  *bufio.Reader
	stderr io.Writer
	// first: the next line starts a command (PS1), else continues one (PS2).
	first    bool
	ps1, ps2 string
	buf      []byte
}

func newLineSource(stdin *os.File, stderr io.Writer, tty *os.File) *lineSource {
	l := &lineSource{tty: tty, stderr: stderr}
	if tty == nil {
		l.plain = bufio.NewReader(stdin)
		return l
	}
	l.keys = &keyReader{r: tty}
	l.editor = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{l.keys, os.Stderr}, "")
	return l
}

// errInterrupted: Ctrl-C at the prompt drops the command being typed;
// errEmptyLine: a command's first line was blank or only a comment.
var (
	errInterrupted = errors.New("interrupted")
	errEmptyLine   = errors.New("empty line")
)

// command reads the next complete command, prompting with ps1 and then
// ps2 for each continuation line. It returns "" and errInterrupted when
// Ctrl-C dropped what was typed, "" and nil for a first line that is blank
// or only a comment (bash prompts again with PS1), and at the end of input
// the text read, if any, and io.EOF.
func (l *lineSource) command(ps1, ps2 string) (string, error) {
	l.ps1, l.ps2, l.first, l.buf = ps1, ps2, true, nil
	reader := interp.NewCommandReader(l)
	text, err := reader.Next()
	if l.keys != nil && l.keys.interrupted {
		l.keys.interrupted = false
		return "", errInterrupted
	}
	if errors.Is(err, errEmptyLine) || errors.Is(err, errInterrupted) {
		return "", err
	}
	return text, err
}

// Read serves the command reader one line at a time.
func (l *lineSource) Read(p []byte) (int, error) {
	if len(l.buf) == 0 {
		prompt := l.ps2
		if l.first {
			prompt = l.ps1
		}
		start := l.first
		l.first = false
		line, err := l.readLine(prompt)
		if err != nil {
			return 0, err
		}
		if t := strings.TrimSpace(line); start && (t == "" || t[0] == '#') {
			return 0, errEmptyLine
		}
		l.buf = []byte(line + "\n")
	}
	n := copy(p, l.buf)
	l.buf = l.buf[n:]
	return n, nil
}

// readLine prints prompt and reads one line without its newline.
func (l *lineSource) readLine(prompt string) (string, error) {
	if l.editor == nil {
		fmt.Fprint(l.stderr, prompt)
		line, err := l.plain.ReadString('\n')
		if err != nil && line == "" {
			return "", err
		}
		return strings.TrimSuffix(line, "\n"), nil
	}
	// Lines of the prompt before its last are printed as they are; the
	// editor redraws the last one.
	if i := strings.LastIndexByte(prompt, '\n'); i >= 0 {
		fmt.Fprint(l.stderr, prompt[:i+1])
		prompt = prompt[i+1:]
	}
	fd := int(l.tty.Fd())
	l.mu.Lock()
	state, err := term.MakeRaw(fd)
	if err == nil {
		l.saved = state
	}
	l.mu.Unlock()
	if err != nil {
		return "", err
	}
	if w, h, err := term.GetSize(fd); err == nil {
		_ = l.editor.SetSize(w, h)
	}
	l.editor.SetPrompt(prompt)
	line, err := l.editor.ReadLine()
	l.restore()
	if errors.Is(err, term.ErrPasteIndicator) {
		err = nil
	}
	if l.keys.interrupted {
		return "", errInterrupted
	}
	return line, err
}

// restore puts the terminal back in the mode it had before a line was
// read.
func (l *lineSource) restore() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.saved != nil {
		_ = term.Restore(int(l.tty.Fd()), l.saved)
		l.saved = nil
	}
}

// keyReader passes the terminal's bytes to the line editor, turning
// Ctrl-C (which the editor treats as end of input) into Enter and noting
// it.
type keyReader struct {
	r           io.Reader
	interrupted bool
}

func (k *keyReader) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if i := strings.IndexByte(string(p[:n]), 3); i >= 0 {
		p[i] = '\r'
		n = i + 1
		k.interrupted = true
		_, _ = os.Stderr.WriteString("^C")
	}
	return n, err
}
