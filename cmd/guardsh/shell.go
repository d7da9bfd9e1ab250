package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/guardsh/guardsh/adversary"
	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/ci"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/internal/signals"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/prompt"
	"github.com/guardsh/guardsh/rules"
)

// shellRun is one invocation of guardsh as a shell.
type shellRun struct {
	inv    *invocation
	argv   []string
	start  time.Time
	stderr io.Writer
	guard  *guard.Guard
	// waited is set once an announce waited for other commands.
	waited bool
	// remake builds the guard again (newGuard with this run's
	// arguments), for what git's configs make protected now (see
	// refreshGit); nil before the guard is made.
	remake func() *guard.Guard
	log    *audit.Log
	runner interp.Run
	// prompter answers asks (package prompt).
	prompter *prompt.Prompter
	// llm is the LLM layer; nil when none is configured.
	llm *adversary.Layer
	// agent and user go into every record; found once per invocation.
	agent, user string
	// ci is CI mode (--ci or CI=true, see package ci): asks are refused
	// (headless deny), the runner's file commands are decided as such, and
	// on GitHub Actions a refusal is annotated and summarised.
	ci     bool
	github bool
	fc     ci.FileCommands
	// more says a script or session may send more commands after this
	// one (see finish); noRoom is why no room is held for the next
	// record, nil when it is.
	more   bool
	noRoom error
	// streaming says the script is read from stdin and run command by
	// command (see stream): a refused one is replaced, the rest runs.
	streaming bool
	stdout    io.Writer
	// jail, when the sandbox is on, is the jail of a command that needs
	// no network, built while the command is decided; self is guardsh's
	// binary, which a jail lets run.
	jail *sandbox.Jail
	self string
	// keeping, with the jail, delivers the record of the workspace's
	// protected paths (see guard.Guard.Keep) taken while the command is
	// decided; serve uses it when fresh (see keptFor).
	keeping chan *sandbox.Kept
	// turn, when not nil, releases the workspace's jail turn (see
	// sandbox.LockWorkspace), taken before the record (keeping) and held
	// until the put-back; jails is where the turns' lock files are.
	turn  func()
	jails string
	// term is the pty: and record: settings; logPath the audit log's
	// path, next to which recordings are kept (see terminal.go).
	term    rules.TerminalConfig
	logPath string
}

// startAhead does, in its own goroutine while the config loads and the
// command is decided, the first-use work of libraries that would
// otherwise lie on the way to every command's start (each measured at
// 0.3–2 ms of a command's start on a virtual machine with two CPUs):
//
//   - The signals a command's start registers (see signals.Watch): the
//     first registration of each is a round trip to the runtime's signal
//     thread, 0.35–0.6 ms for the four; first, as the longest.
//   - Package os checks once whether pidfds work, by starting a child that
//     exits at once, at its first process start; os.FindProcess of
//     guardsh itself makes that check.
//   - os/user reads /etc/passwd once for the audit record's user, and
//     remembers.
func startAhead() {
	signals.Watch()
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Release()
	}
	_, _ = user.Current()
}

// runShell loads the policy, finds the real shell, and serves inv: a -c
// string, a script file, or a script read from stdin.
func runShell(inv *invocation, argv []string, stdin *os.File, stdout, stderr io.Writer) int {
	s := &shellRun{inv: inv, argv: argv, start: time.Now(), stderr: stderr, stdout: stdout}
	// A command bash would only return a status for starts nothing: the
	// goroutines that get ahead of starting something would only cost it
	// their threads (`-c true`: 0.15 ms on a 2-CPU machine).
	ahead := !noOp(inv)
	if ahead {
		go startAhead()
	}
	// The bash on PATH is looked for while the config loads (a stat per
	// PATH entry); a config's shell: is looked at instead once known. A
	// command that starts nothing needs no bash on PATH: it is not looked
	// for (a config's shell: still is, so that a broken one is reported).
	var self string
	if ahead || inv.version || inv.help {
		self = executable()
	}
	type found struct {
		path string
		err  error
	}
	onPath := make(chan found, 1)
	lookPath := func() {
		p, err := interp.FindShell("", os.Getenv("PATH"), self)
		onPath <- found{p, err}
	}
	switch {
	case ahead:
		go lookPath()
	case inv.version || inv.help:
		lookPath()
	default:
		onPath <- found{}
	}
	if s.ci = ci.Enabled(os.Getenv, inv.ci); s.ci {
		s.github, s.fc = ci.GitHub(os.Getenv), ci.FindFileCommands(os.Getenv)
	}
	cwd, _ := os.Getwd()
	cfg, ws, root, err := loadFor(cwd, "", stderr)
	if err != nil && errors.Is(err, fs.ErrPermission) && insideJail() {
		// Started as the shell of a tool a jailed command runs (npm's sh
		// found through the PATH link, make's SHELL): the jail that
		// command was decided to run in holds what this shell runs, and
		// hides guardsh's config from it. It is bash here, as it would
		// be without guardsh on PATH.
		if f := <-onPath; f.err == nil {
			err = syscall.Exec(f.path, argv, interp.ShellEnv(os.Environ()))
		}
		fmt.Fprintf(stderr, "guardsh: inside a jailed command, where guardsh's config is hidden, guardsh runs commands with the real bash, and could not: %v\n", err)
		return exitRefused
	}
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: config: %v\nguardsh: refusing to run anything until the config is fixed\n", err)
		return exitRefused
	}
	policy, policyFile := cfg.policy, cfg.name
	f := <-onPath
	shell, err := f.path, f.err
	if policy.Shell != "" {
		if self == "" {
			self = executable()
		}
		shell, err = interp.FindShell(policy.Shell, os.Getenv("PATH"), self)
	}
	if err != nil {
		where := ""
		if policy.Shell != "" {
			where = " (shell: in " + policyFile + ")"
		}
		fmt.Fprintf(stderr, "guardsh: %v%s\n", err, where)
		return exitRefused
	}
	// (A shell not looked for, "", starts nothing and is not checked.)
	if shell != "" {
		if err := checkShell(policy, ws, cwd, shell, cmp.Or(cfg.userPath, policyFile)); err != nil {
			// It runs every command unjailed, --version too: a jailed
			// command could have put it there (an attack run's
			// node_modules/.bin/bash), or what it loads (LD_LIBRARY_PATH).
			fmt.Fprintf(stderr, "guardsh: %v\n", err)
			return exitRefused
		}
	}
	arg0 := "bash"
	if len(argv) > 0 {
		arg0 = argv[0]
	}
	s.runner = interp.Run{Shell: shell, Arg0: arg0, Options: inv.options,
		Env: interp.ShellEnv(os.Environ()), Stdin: stdin, Stdout: stdout, Stderr: stderr}
	if inv.version || inv.help {
		flag := "--version"
		if inv.help {
			flag = "--help"
		}
		status, err := s.runner.Plain(flag)
		if err != nil {
			fmt.Fprintf(stderr, "guardsh: %v\n", err)
		}
		return status
	}
	home, _ := os.UserHomeDir()
	cfg.warnLayersOnce(stderr, home)
	mode, err := effectiveMode(policy.Mode, inv.mode, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: %v\n", err)
		return exitRefused
	}
	logPath, err := auditPath(policy)
	s.term, s.logPath = policy.Terminal, logPath
	if logPath != "" {
		// The log's directory is made before a jail is built: made
		// while one is, it was missing when the jail looked its hidden
		// paths up, and a command read the log guardsh then created
		// (an attack run's find, on a fresh home).
		_ = os.MkdirAll(filepath.Dir(logPath), 0o700)
	}
	protected := runGuarded(cfg.guarded, policy, home, logPath)
	if home != "" {
		s.jails = jailsDir(home)
	}
	s.llm = llmLayer(policy, home, logPath)
	s.guard = newGuard(policy, policyFile, mode, cwd, ws, root, ahead, protected...)
	s.remake = func() *guard.Guard { return newGuard(policy, policyFile, mode, cwd, ws, root, ahead, protected...) }
	if ahead {
		// The path rules are built for the command's context on the
		// other processor while the log is opened and the command
		// parsed; its first path decision waits for them.
		go s.guard.Policy.PreparePaths(s.guard.Context)
	}
	s.prompter = newPrompter(policy, cfg.userPath, stderr)
	s.guard.JailRecord = guard.JailRecordFile(s.jails)
	if policy.Sandbox.On() && s.guard.SandboxUnavailable == "" && (inv.command || len(inv.operands) > 0 && !inv.stdin) && !noOp(inv) {
		// The jail of a command that needs no network is built while the
		// log is opened and the command decided.
		s.self = canonical(self)
		if err := s.guard.MakeSandboxWrite(); err != nil {
			fmt.Fprintf(stderr, "guardsh: warning: %v: a jailed command cannot write there\n", err)
		}
		s.jail = sandbox.Prepare(s.guard.Jail(guard.Outcome{}, s.self))
		defer s.jail.Close()
		if files, dirs, ok := s.guard.KeepPaths(); ok {
			ws := s.guard.Context.Workspace
			// The record is taken ahead only while no other jailed
			// command holds the workspace's turn (it could be recording
			// that one's change); else it is taken once the turn comes.
			if turn, ok := sandbox.TryLockWorkspace(s.jails, ws); ok || s.jails == "" {
				s.turn = turn
				s.keeping = make(chan *sandbox.Kept, 1)
				go func() { s.keeping <- sandbox.Keep(ws, files, dirs) }()
			}
		}
		defer func() {
			if s.turn != nil {
				s.turn()
			}
		}()
	}
	var ship error
	if err == nil {
		s.log, ship, err = openAudit(policy, logPath)
		if err == nil && !noOp(inv) {
			// Room for the record, held while the command runs: one
			// that fills the disk cannot keep it from being written.
			n := 0
			if inv.command && len(inv.operands) > 0 {
				n = len(inv.operands[0])
			}
			if err = s.log.Reserve(recordRoom(n)); err != nil {
				s.log.Close()
				s.log = nil
			}
		}
	}
	if err != nil {
		if policy.Audit.Required {
			fmt.Fprintf(stderr, "guardsh: audit log: %v\nguardsh: refusing to run without an audit record (audit.required: false in the config relaxes this)\n", err)
			return exitRefused
		}
		fmt.Fprintf(stderr, "guardsh: warning: audit log: %v; running without a record\n", err)
	} else {
		defer s.log.Close()
	}
	if ship != nil && s.log != nil {
		// The destination is down or wrong: the local log has the
		// record all the same.
		if !policy.Audit.Required {
			fmt.Fprintf(stderr, "guardsh: warning: %v; records are written to %s only\n", ship, logPath)
		} else {
			text := ""
			if inv.command && len(inv.operands) > 0 {
				text = inv.operands[0]
			}
			rec := s.record(text, guard.Outcome{}, nil, prompt.Answer{Decision: rules.Deny, DecidedBy: "audit"})
			rec.Error = ship.Error()
			s.finish(rec, nil)
			fmt.Fprintf(stderr, "guardsh: %v\nguardsh: refusing to run a command whose record cannot be shipped (audit.required); the refusal is recorded in %s. Fix the destination, or set audit.required: false to run with local records only\n", ship, logPath)
			return exitRefused
		}
	}

	if inv.readsStartup() {
		// bash runs its start-up files first, which guardsh does not
		// analyse: one that sets CDPATH sends a relative cd elsewhere.
		st := scanStartup(startupFiles(inv, os.Getenv("HOME")), os.Getenv("HOME"))
		s.guard.Analysis.CDPATHMaySet = st.cdpath
		if st.aliases && (inv.interactive || inv.hasOption("", 'i') || st.expandAliases) && (inv.command || len(inv.operands) > 0) {
			// An interactive bash (or one whose start-up files turn on
			// expand_aliases) expands the aliases its start-up files
			// define in the command, which guardsh never sees (attack
			// run 60: alias ..='cd ..' in ~/.bashrc, then `guardsh -ic
			// '.. && cat .ssh/id_rsa'` read the key past a deny rule).
			s.guard.Analysis.StartupUnknown = "your shell's start-up files define aliases, which bash expands in this command and guardsh does not know; run it without -i (or turn expand_aliases off) to have it decided"
		}
	}
	if isInteractive(inv, stdin) {
		return s.interactive(stdin, inv.operands)
	}
	if inv.initFile != "" {
		// bash sources the init file before anything else: it is code too.
		if data, err := os.ReadFile(inv.initFile); err == nil {
			// bash sources it unjailed, before any command: nothing in
			// it may run only because a jail would contain it.
			jail := s.guard.SandboxUnavailable
			if jail == "" {
				s.guard.SandboxUnavailable = "unavailable (init file)"
			}
			o, calls := s.review(string(data), s.evaluate(string(data)))
			s.guard.SandboxUnavailable = jail
			if a := s.resolve(string(data), o); a.Decision != rules.Allow {
				return s.refuse(string(data), o, calls, a)
			}
		}
	}
	switch {
	case inv.command:
		return s.serve(inv.operands[0], inv.operands[1:])
	case inv.stdin || len(inv.operands) == 0:
		return s.stream(stdin, inv.operands)
	default:
		file := inv.operands[0]
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s: %s\n", arg0, file, describe(err))
			if errors.Is(err, fs.ErrNotExist) {
				return 127
			}
			return exitRefused
		}
		return s.serve(string(data), inv.operands)
	}
}

// checkShell is guard.Guard.CheckShell for the real shell found, with the
// sandbox of policy, in workspace ws and directory cwd, before anything
// runs (see guard.Guard.CheckShell).
func checkShell(policy *rules.Policy, ws, cwd, shell, configFile string) error {
	if policy.Sandbox.On() {
		g := &guard.Guard{Policy: policy, Context: rules.Context{Cwd: canonical(cwd), Workspace: ws}}
		if home, _ := os.UserHomeDir(); home != "" {
			g.Context.Home, g.JailRecord = canonical(home), guard.JailRecordFile(jailsDir(home))
		}
		if err := g.CheckShell(canonical(shell), g.Context.Cwd, os.Environ(), configFile); err != nil {
			return err
		}
	}
	if policy.Shell == "" {
		// Found on PATH: one in the workspace or a temp directory is
		// what a command wrote there, unasked in mode auto (attack run
		// 84: printf … > .venv/bin/bash, and every later guardsh with
		// the virtual environment on PATH handed its commands to it).
		c := canonical(shell)
		for _, d := range []string{ws, canonical(os.TempDir()), canonical("/tmp")} {
			if d != "" && d != "/" && strings.HasPrefix(c, d+"/") {
				return fmt.Errorf("the bash found on PATH, %s, lies in %s, which commands write (in mode auto unasked): guardsh would hand every command to what was written there; set shell: /usr/bin/bash (or another bash outside it) in %s, or take that directory off PATH", shell, d, configFile)
			}
		}
	}
	return nil
}

// jailsDir is guardsh's directory of jail state beneath home: the jails'
// turns (see sandbox.LockWorkspace) and the record of where they wrote
// (see guard.JailRecordFile).
func jailsDir(home string) string {
	return filepath.Join(home, ".local", "state", "guardsh", "jails")
}

// runGuarded returns the protected paths of a command run under policy,
// with the audit log at logPath ("" for none) and the home directory home
// ("" for none): guarded (the config files'), the log's and what lies
// beside it (auditProtected), the jails' turns (see
// sandbox.LockWorkspace; hidden from a jail too) and the LLM step's files
// (llmProtected). guardsh check decides with the same, so that it says
// what a run does (a new user's `check` allowed `mv` of the log's
// directory, which a run asked about).
func runGuarded(guarded []string, policy *rules.Policy, home, logPath string) []string {
	protected := slices.Clone(guarded)
	if logPath != "" {
		protected = append(protected, auditProtected(policy, logPath)...)
	}
	if home != "" {
		j := jailsDir(home)
		protected = append(protected, j, j+"/*")
	}
	return append(protected, llmProtected(llmPaths(policy, home))...)
}

// noOp reports whether inv is a -c text that guardsh answers without
// starting anything (interp.NoOpStatus: true, :, false): no jail is built
// for it.
func noOp(inv *invocation) bool {
	if !inv.command || len(inv.operands) == 0 {
		return false
	}
	_, ok := interp.NoOpStatus(inv.operands[0])
	return ok && inv.quiet()
}

// jailTurnWait is how long a jailed command waits for the workspace's
// turn (see sandbox.LockWorkspace) before it is refused: longer than a
// test run or a build an agent starts, short of an agent's usual time
// limit for a command (2 minutes).
const jailTurnWait = 90 * time.Second

// putBackRoom is the room a put-back may need on the disk, in bytes:
// twice the contents it writes back at most (8 MiB, sandbox's
// maxKeptTotal). With less available, the room held for the record
// beyond the record's own is lent to it (see audit.Log.Lend).
const putBackRoom = 16 << 20

// keepFresh is how old a record of the protected paths taken while the
// command was decided may be when the jailed command starts: a change a
// process outside the jail makes to a protected path after the record is
// undone with the command's, so a record older than this (an LLM review
// or a slow decision came between) is taken again. 250 ms is far longer
// than deciding a command takes without a review, and far shorter than a
// human edits a settings file in.
const keepFresh = 250 * time.Millisecond

// keptFor returns the record of the workspace's protected paths for a
// jailed command about to start: the one taken while it was decided when
// fresh, else a new one (nil without a workspace), from what git's
// configs make protected now (see refreshGit).
func (s *shellRun) keptFor() *sandbox.Kept {
	if s.keeping != nil {
		k := <-s.keeping
		s.keeping = nil
		if time.Since(k.Taken()) < keepFresh {
			return k
		}
	}
	s.refreshGit()
	return s.guard.Keep()
}

// refreshGit takes again what the git configs of the workspace, the user
// and the system make protected (a core.hooksPath, the files an
// include.path names, see newGuard), which guardsh reads at its start:
// after a wait (for the user's jailed or unjailed commands, for the
// workspace's turn, for an approval) a `git config core.hooksPath
// .githooks` made meanwhile must protect .githooks, for the decision made
// after the wait and for the record of what the jail may not change
// (attack run 55: a hook planted there by the jailed command stayed, and
// an include into /tmp added meanwhile did not keep the command from
// running jailed). The policy's path rules are built again too.
func (s *shellRun) refreshGit() {
	if s.remake == nil {
		return
	}
	g := s.remake()
	s.guard.Context.Protected, s.guard.Context.Anchors, s.guard.GlobalGit = g.Context.Protected, g.Context.Anchors, g.GlobalGit
	// The path rules, built ahead while it waited, are built again: a
	// jailed command may have changed a link on their paths meanwhile.
	s.guard.Policy.ForgetPaths()
}

// describe words an error the way bash does for a script it cannot open.
func describe(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	}
	return err.Error()
}

// serve decides text and, when allowed, runs it with args as $0 $1 ….
func (s *shellRun) serve(text string, args []string) int {
	// Announced as unjailed before it is decided: what it is decided on
	// must not change until it has run (see announce).
	var presence *sandbox.Presence
	var liveErr error
	readOnly := false // run in a read-only jail beside the user's jailed commands
	if _, noOp := interp.NoOpStatus(text); !noOp || !s.inv.quiet() {
		var denied bool
		readOnly, denied = s.readOnlyBeside(text)
		if !readOnly && !denied {
			waited := s.waited
			presence, liveErr = s.announce(false)
			if s.waited && !waited {
				s.refreshGit() // what it is decided on is what is there after the wait
			}
		}
	}
	defer func() { presence.Release() }()
	o, calls := s.review(text, s.evaluate(text))
	if readOnly && !readOnlyJailable(o) {
		// (The review may have changed it: decided again after the wait.)
		readOnly = false
		if presence, liveErr = s.announce(false); s.waited {
			s.refreshGit()
			o, calls = s.review(text, s.evaluate(text))
		}
	}
	if liveErr != nil {
		rec := s.record(text, o, calls, prompt.Answer{Decision: rules.Deny, DecidedBy: "sandbox"})
		fmt.Fprintf(s.stderr, "guardsh: %v\nguardsh: nothing ran\n", liveErr)
		s.finish(rec, nil)
		return exitRefused
	}
	if !o.Sandbox && s.turn != nil {
		// Not jailed: a jailed command in the workspace need not wait
		// (an approval may take minutes).
		s.turn()
		s.turn = nil
	}
	if s.jail != nil && (!o.Sandbox || o.Network) {
		// The jail built ahead is not the one this command runs in:
		// its thread and descriptors go now, not when the command ends.
		s.jail.Close()
	}
	a := s.resolve(text, o)
	if a.Decision != rules.Allow {
		return s.refuse(text, o, calls, a)
	}
	s.printLines(a)
	rec := s.record(text, o, calls, a)
	if s.log != nil && s.guard.Policy.Audit.Required && !noOp(s.inv) {
		// The room held (see audit.Log.Reserve) must fit this record:
		// one of a short command can be large (brace expansions: an
		// attack run's 130 bytes made 1.7 MB of segments).
		if err := s.log.ReserveFor(rec); err != nil {
			fmt.Fprintf(s.stderr, "guardsh: audit log: %v\nguardsh: refusing to run without an audit record (audit.required: false in the config relaxes this)\n", err)
			return exitRefused
		}
	}
	if status, ok := interp.NoOpStatus(text); ok && s.inv.quiet() {
		// `true`, `:` or `false` under options that change nothing: bash
		// would only return this status, so guardsh does without starting it.
		s.finish(rec, &status)
		return status
	}
	if o.Sandbox {
		// Jailed: it waits for the user's unjailed commands instead.
		presence.Release()
		var err error
		if presence, err = s.announce(true); err != nil {
			fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
			s.finish(rec, nil)
			return exitRefused
		}
	}
	runner := s.runner
	var jail *sandbox.Jail
	if readOnly {
		// Reads only, writes nothing, no network: beside the user's
		// jailed commands it runs at once, in a jail of its own that
		// hides the secrets however those commands change the files it
		// reads (see readOnlyBeside).
		spec := s.guard.Jail(o, s.self)
		spec.Write, spec.Kept, spec.Runnable, spec.Network = nil, nil, nil, false
		jail = sandbox.Prepare(spec)
		defer jail.Close()
		runner.Start = jail.Start
		rec.Sandbox = "read-only (beside your jailed commands)"
	}
	if o.Sandbox {
		if err := s.guard.RecordJail(); err != nil {
			// Unrecorded, what the jail writes could be run unjailed
			// later from elsewhere (see guard.Guard.RecordJail).
			fmt.Fprintf(s.stderr, "guardsh: sandbox: %v; nothing ran\n", err)
			s.finish(rec, nil)
			return exitRefused
		}
		jail = s.jail
		if jail == nil || o.Network {
			jail = sandbox.Prepare(s.guard.Jail(o, s.self))
			defer jail.Close()
		}
		runner.Start = jail.Start
	}
	t, recorded, ok := s.terminal(rec)
	if !ok {
		s.finish(rec, nil)
		return exitRefused
	}
	if t != nil {
		runner.Terminal = t
		runner.Env = interp.LessSecure(runner.Env)
	}
	var kept *sandbox.Kept
	if o.Sandbox {
		if ws := s.guard.Context.Workspace; ws != "" && s.jails != "" && s.turn == nil {
			// No record was taken ahead (another jailed command held
			// the turn then): wait for the turn, then take it.
			turn, _, err := sandbox.LockWorkspace(s.jails, ws, jailTurnWait)
			if err != nil {
				fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
				s.finish(rec, nil)
				return exitRefused
			}
			s.turn = turn
		}
		kept = s.keptFor()
		if dir := kept.Overflow(); dir != "" {
			// What the record leaves out, a jailed command could change
			// for good: the jail is no jail here.
			why := fmt.Sprintf("unavailable: the protected directories of the workspace hold more than %d entries (past it: %s), more than guardsh puts back after a jailed command", sandbox.MaxKeptEntries, dir)
			fmt.Fprintf(s.stderr, "guardsh: sandbox %s; nothing ran (narrow the write deny or ask rules that name a big directory, or run the command outside the jail with an allow rule)\n", why)
			rec.Error = "sandbox " + why
			s.finish(rec, nil)
			return exitRefused
		}
		if why := s.guard.JailUnavailable(); why != "" {
			// Found by a record taken again after a wait: a link made
			// meanwhile (see guard.Guard.Keep).
			fmt.Fprintf(s.stderr, "guardsh: sandbox %s; nothing ran\n", why)
			rec.Error = "sandbox " + why
			s.finish(rec, nil)
			return exitRefused
		}
	}
	var died syscall.Signal
	runner.Signaled = func(sig syscall.Signal) { died = sig }
	announced := presence != nil && !o.Sandbox && s.stopsLeftovers()
	if announced {
		// What it leaves running is stopped before its turn ends (see
		// stopUnjailed): guardsh is the subreaper of its detached
		// processes.
		_ = sandbox.Subreaper()
	}
	// A signal that comes once the command has ended waits until what it
	// changed is put back and its record written (attack run 82: a
	// SIGTERM right after a jailed command's end left a planted hook and
	// no record); while it runs, the run forwards them (interp.Run).
	held := make(chan os.Signal, 1)
	release := signals.Handle(signals.Pass(held))
	runner.Held = held
	status, err := s.command(runner, text, args)
	recorded()
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
	}
	if o.Sandbox {
		status = s.settleJail(o, rec, jail, kept, status)
	} else if announced {
		status = s.stopUnjailed(rec, status)
	}
	s.finish(rec, &status)
	release()
	select {
	case sig := <-held:
		if ss, ok := sig.(syscall.Signal); ok && died == 0 {
			died = ss
			if ss == syscall.SIGQUIT {
				died = syscall.SIGTERM // ended as by SIGTERM, without Go's stack dump (below)
			}
		}
	default:
	}
	if died == syscall.SIGINT || died == syscall.SIGTERM || died == syscall.SIGHUP {
		// The command died of Ctrl-C (or was terminated, or hung up
		// on): so does guardsh, of the same signal, as bash would, once
		// the record is written and the terminal restored, so that a
		// calling shell's loop or script stops too (it tells a death by
		// SIGINT from an exit status of 130), and a CI runner reports
		// a step killed, not one that exited 143 (a new user's find).
		// (Go's own handling of a SIGQUIT raised this way would print a
		// stack dump: that one ends in status 131; other signals Go
		// ignores unless asked for end in 128+N too.)
		signal.Reset(died)
		_ = syscall.Kill(os.Getpid(), died)
		time.Sleep(100 * time.Millisecond)
	}
	return status
}

// readOnlyBeside reports whether text, about to wait for the user's
// jailed commands to end before it is decided (see announce), runs
// instead at once in a read-only jail: the sandbox is on here and a
// jailed command of this user runs now, and text is decided to run
// unasked with every segment read-only (readOnlyJailable). Such a command
// changes nothing a jailed command's put-back or another's decision
// rests on, and its jail hides the secrets whatever the jailed commands
// make of the files meanwhile (a planted link), so it needs neither the
// wait nor the workspace's turn (a new user's `cat README.md | head -1`
// waited 91 s for a jailed test run in the background, then was refused).
//
// denied reports a command a deny rule refuses anyway: it is refused at
// once, without waiting either.
func (s *shellRun) readOnlyBeside(text string) (readOnly, denied bool) {
	if !s.guard.Policy.Sandbox.On() || s.guard.SandboxUnavailable != "" || s.jails == "" ||
		s.guard.JailUnavailable() != "" || !sandbox.JailedRunning(s.jails) {
		return false, false
	}
	o := s.evaluate(text)
	return readOnlyJailable(o), o.Err == nil && o.Decision == rules.Deny
}

// readOnlyJailable reports whether o, a decided command, runs unasked and
// only reads: every segment allowed as read-only (a redirection to
// /dev/null aside), none that runs code only known at run time, none
// that jails would take (git, which runs what a repository's config
// names), no network.
func readOnlyJailable(o guard.Outcome) bool {
	if o.Err != nil || o.Decision != rules.Allow || o.Sandbox || o.Network || len(o.Segments) == 0 {
		return false
	}
	for _, c := range o.Segments {
		seg := c.Segment
		switch {
		case c.Verdict.Decision != rules.Allow || seg.RunsCode:
			return false
		case seg.Kind == interp.Write:
			if len(seg.Args) != 1 || seg.Args[0].Value != "/dev/null" {
				return false
			}
		case c.Verdict.Class != rules.ReadOnly:
			return false
		case seg.Kind == interp.Exec && len(seg.Args) > 0 && filepath.Base(seg.Args[0].Value) == "git":
			return false
		}
	}
	return true
}

// liveWait is how long a command waits for the commands of the other
// kind (jailed, unjailed) of this user to end before it is refused (see
// sandbox.AnnounceJailed): as long as a jailed command waits for its
// workspace's turn.
const liveWait = jailTurnWait

// announce announces a command of this user that runs jailed (or not)
// to the user's other guardsh processes, waiting for those of the other
// kind to end: a jailed command running beside an unjailed one could
// change the files the unjailed one was decided on between its decision
// and its run (see sandbox.AnnounceJailed). An unjailed command is
// announced before it is decided. Done wherever the kernel lets jails
// run, whatever this command's policy says (a project file may have the
// sandbox off where the user's config has it on); not without a home
// directory (no state directory), and a nil Presence then.
func (s *shellRun) announce(jailed bool) (*sandbox.Presence, error) {
	if s.jails == "" || sandbox.Unavailable() != "" {
		return nil, nil
	}
	if jailed {
		return sandbox.AnnounceJailed(s.jails, liveWait, func(holders string) {
			fmt.Fprintf(s.stderr, "guardsh: sandbox: waiting (up to %s) for your commands running outside the sandbox to end: a jailed command could change the files they read%s\n", liveWait, waitingFor(holders))
		})
	}
	p, err := sandbox.AnnounceUnjailed(s.jails, liveWait, func(holders string) {
		s.waited = true
		if s.turn != nil {
			// The workspace's turn taken ahead is not held while this
			// waits for jailed commands, one of which may be waiting
			// for that turn (a new user's twenty commands in parallel
			// stalled for 90 s, most then refused); nor is the record
			// taken under it kept: a jailed command may change the
			// files meanwhile. A jailed decision takes both again.
			s.turn()
			s.turn, s.keeping = nil, nil
		}
		fmt.Fprintf(s.stderr, "guardsh: sandbox: waiting (up to %s) for your jailed commands to end before this command is decided: one could change the files it reads%s\n", liveWait, waitingFor(holders))
	})
	var still *sandbox.StillRunningError
	if err != nil && !errors.As(err, &still) {
		// No lock file here, none for a jail either (the same user's
		// state directory): none can be running.
		return nil, nil
	}
	return p, err
}

// leftoverGrace is how long what an unjailed command left running may
// take to end on its own before it is stopped: `cmd &` of a short command
// ends as it would under bash.
const leftoverGrace = 500 * time.Millisecond

// stopsLeftovers reports whether what an unjailed command leaves running
// is stopped when it ends (see stopUnjailed): with the sandbox on, or
// once a jailed command of this user has run (a project file may have
// turned the sandbox off here).
func (s *shellRun) stopsLeftovers() bool {
	return s.guard.Policy.Sandbox.On() || sandbox.JailsRan(s.jails)
}

// stopUnjailed stops what an announced unjailed command that returned
// status left running (`(sleep 3; cat l > out) &`) and did not end within
// leftoverGrace: a process that went
// on after the command's turn ended would run beside a jailed command
// started then, which could change the files it was decided on (see
// announce). It says so on stderr and in rec (if not nil), and returns 126 for a
// command that succeeded (what it started is gone), status otherwise.
func (s *shellRun) stopUnjailed(rec *audit.Record, status int) int {
	if sandbox.AwaitLeftovers(leftoverGrace) {
		return status
	}
	stopped, err := sandbox.StopLeftovers()
	if n := len(stopped); n > 0 {
		why := "with the sandbox on"
		reset := ""
		if !s.guard.Policy.Sandbox.On() {
			why = "a jailed command of yours has run here (the sandbox is off in this config)"
			reset = fmt.Sprintf("; once no config of yours jails commands any more, remove %s to let them outlive it", filepath.Join(s.jails, sandbox.JailsLiveFile))
		}
		fmt.Fprintf(s.stderr, "guardsh: stopped %d process(es) the command left running (%s): %s, what a command outside the jail starts does not outlive it (a jailed command could change the files it reads or runs: a dev server's reload would run its code); run a server or daemon in the foreground instead (an agent's background command), where jailed commands wait while it runs%s\n",
			n, strings.Join(stopped, ", "), why, reset)
		if rec != nil {
			rec.Sandbox = fmt.Sprintf("unjailed; stopped %d", n)
		}
		if status == 0 {
			status = exitRefused
		}
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
		if status == 0 {
			status = exitRefused
		}
	}
	return status
}

// settleJail ends a jailed command that returned status: it stops what
// the command left running (sandbox.StopLeftovers), puts back the
// protected paths kept (nothing, while jailed processes may still run),
// moves aside a directory the command replaced, notes all of it in rec
// and on stderr, and returns the status to report: 126 when the command
// succeeded but what it did was undone. After a failure that no line
// already explained, a hint says what the jail forbids and how to allow
// it.
func (s *shellRun) settleJail(o guard.Outcome, rec *audit.Record, jail *sandbox.Jail, kept *sandbox.Kept, status int) int {
	hinted := false // a line on stderr already said what the jail did
	// Nothing the jailed command started may go on past the putting
	// back and the record (an attack run's background process wrote
	// .git/hooks after both).
	stopped, err := sandbox.StopLeftovers()
	if n := len(stopped); n > 0 {
		fmt.Fprintf(s.stderr, "guardsh: sandbox: stopped %d process(es) the jailed command left running (%s): nothing started in the jail outlives the command; a server or daemon runs outside the jail, in the foreground (an agent's background command), once an allow rule names it (rules.shell.allow in %s)\n",
			n, strings.Join(stopped, ", "), s.guard.PolicyFile)
		rec.Sandbox += fmt.Sprintf("; stopped %d", n)
		if status == 0 {
			// What it started is gone: the caller must not go on as
			// if it were running.
			status = exitRefused
		}
		hinted = true
	}
	if err != nil {
		// Some may still run, jailed: putting back now could be
		// raced (a link swapped in under guardsh's feet), and what
		// was put back changed again after.
		fmt.Fprintf(s.stderr, "guardsh: %v\nguardsh: sandbox: protected paths in the workspace were not put back while jailed processes may still run: check .git/config, .git/hooks and the agents' settings before running anything there\n", err)
		rec.Sandbox += "; not all stopped, not put back"
		kept, hinted = nil, true
		if status == 0 {
			status = exitRefused
		}
	}
	// The workspace's put-back runs within the modes' (see
	// sandbox.Jail.PutBack), which first makes searchable again a
	// directory on the way that the command made unsearchable.
	restore := func() {
		if kept == nil {
			return
		}
		if s.log != nil {
			// The room held for the record beyond what the record
			// needs, for the put-back first when the disk is short of
			// it: a command that filled the disk kept a planted
			// .git/config from being put back (an attack run's find).
			s.log.Lend(rec, putBackRoom)
		}
		changed, tampered := kept.Restore()
		if len(changed) > 0 {
			what := sandbox.Changed(firstOf(changed), s.guard.Context.Workspace) + moreThan(changed)
			fmt.Fprintf(s.stderr, "guardsh: sandbox: the command changed protected paths in the workspace, which need a human's yes; put back: %s\n", what)
			rec.Sandbox += "; restored " + what
		}
		if len(tampered) > 0 {
			// A directory holding protected paths was replaced: guardsh
			// cannot put it back without following what replaced it, so
			// it moves the replacement aside, out of git's and the
			// editors' way.
			ws := s.guard.Context.Workspace
			var moved, left, removed []string
			for _, d := range tampered { // all moved aside, the first listed
				if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
					// Deleted, not replaced: nothing to move aside (a
					// new user's `find . -delete` took .git, and was told
					// of a replacement it could not find).
					removed = append(removed, sandbox.Changed([]string{d}, ws))
				} else if to, err := sandbox.Quarantine(d, ws); err == nil {
					moved = append(moved, sandbox.Changed([]string{d}, ws)+" (moved to "+sandbox.Changed([]string{to}, ws)+")")
				} else {
					fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
					left = append(left, sandbox.Changed([]string{d}, ws))
				}
			}
			if len(removed) > 0 {
				what := strings.Join(firstOf(removed), ", ") + moreThan(removed)
				fmt.Fprintf(s.stderr, "guardsh: sandbox: the command removed %s, which held protected paths; nothing of it was put back (the jail puts back protected files a command changes, not a directory it removed): restore it from a clone or a backup\n", what)
				rec.Sandbox += "; removed " + what
			}
			if all := append(moved, left...); len(all) > 0 {
				what := strings.Join(firstOf(all), ", ") + moreThan(all)
				fmt.Fprintf(s.stderr, "guardsh: sandbox: the command replaced %s, which holds protected paths; guardsh did not put back what was there: check it before running git or anything else there\n", what)
				rec.Sandbox += "; tampered " + what
			}
		}
		if len(changed)+len(tampered) > 0 {
			hinted = true
		}
		if len(changed)+len(tampered) > 0 && status == 0 {
			// The command's changes to protected paths did not happen:
			// say so to the caller, who would otherwise go on as if.
			status = exitRefused
		}
	}
	if err != nil || jail == nil {
		restore()
	} else {
		// Landlock governs no mode or owner: what the command could
		// not read it could still chmod (a key to 0644, guardsh's
		// config directory to 0777, the home to 0).
		put, less := jail.PutBack(restore)
		if len(less) > 0 {
			// Fail-closed, and maybe another jailed command's put-back:
			// said and recorded, not given back.
			what := strings.Join(firstOf(less), ", ") + moreThan(less)
			fmt.Fprintf(s.stderr, "guardsh: sandbox: note: fewer permissions than when the jail was built (guardsh gives none back): %s\n", what)
			rec.Sandbox += "; modes lessened " + what
		}
		if len(put) > 0 {
			what := strings.Join(firstOf(put), ", ") + moreThan(put)
			fmt.Fprintf(s.stderr, "guardsh: sandbox: the command changed the mode or owner of paths the jail guards (hidden paths, the workspace and the directories above them); put back: %s\n", what)
			rec.Sandbox += "; modes restored " + what
			hinted = true
			if status == 0 {
				status = exitRefused
			}
		}
	}
	// Not after a death by SIGINT, SIGTERM or SIGHUP (a Ctrl-C, a
	// cancel): the jail had no part in it (a new user's find: the note
	// after every interrupted run sent the agent after the sandbox).
	if status != 0 && !hinted && status != 128+int(syscall.SIGINT) && status != 128+int(syscall.SIGTERM) && status != 128+int(syscall.SIGHUP) {
		spec := s.guard.Jail(o, "")
		if firstInSession("sandbox-hint", s.guard.PolicyFile) {
			fmt.Fprintln(s.stderr, sandboxHint(o, spec, s.guard.PolicyFile))
		} else {
			fmt.Fprintln(s.stderr, sandboxNote(o, spec))
		}
	}
	return status
}

// firstInSession reports whether this is the first time in the agent's
// session (see session) that what (with key, a config file) is said, and
// remembers that it was: a marker file under guardsh's cache directory,
// named by a hash of the three. Without a home directory every time is
// the first. (A jailed command's failure printed the same long hint after
// every failing test run of an agent's red-green loop: a new user's find.)
func firstInSession(what, key string) bool {
	home, _ := os.UserHomeDir()
	dir := sourceCacheDir(home)
	if dir == "" {
		return true
	}
	sum := sha256.Sum256([]byte(what + "\x00" + key + "\x00" + session()))
	marker := filepath.Join(filepath.Dir(dir), "warned", what+"-"+hex.EncodeToString(sum[:])[:32])
	if _, err := os.Lstat(marker); err == nil {
		return false
	}
	if os.MkdirAll(filepath.Dir(marker), 0o700) == nil {
		_ = os.WriteFile(marker, nil, 0o600)
	}
	return true
}

// sandboxNote is the short line printed after a jailed command fails,
// once sandboxHint has been printed in the session: that it ran jailed,
// and what the jail allows.
func sandboxNote(o guard.Outcome, spec sandbox.Spec) string {
	net := "no TCP"
	if o.Network {
		net = "TCP allowed"
	}
	writes := "writes only beneath " + strings.Join(spec.Write, ", ")
	if len(spec.Write) == 0 {
		writes = "writes nowhere"
	}
	return fmt.Sprintf("guardsh: sandbox: it ran jailed (%s; %s)", writes, net)
}

// sandboxHint is the line printed after a jailed command fails: what the
// jail forbade, and how to let this command do it.
func sandboxHint(o guard.Outcome, spec sandbox.Spec, policyFile string) string {
	net := "no TCP connect or bind"
	if o.Network {
		net = "TCP allowed"
	}
	writes := "writes only beneath " + strings.Join(spec.Write, ", ")
	if len(spec.Write) == 0 {
		writes = "writes nowhere: no workspace here, and the temp directories hold home"
	}
	return fmt.Sprintf("guardsh: sandbox: this command ran in a Landlock jail (%s; %s; secrets unreadable); a \"Permission denied\" writing may be the jail's: a human can add the directory to sandbox.write in %s (sandbox: {mode: workspace, write: [DIR]}); a secret's stays unreadable by design",
		writes, net, policyFile)
}

// stream serves a script read from r one complete command at a time, so a
// caller that keeps the pipe open is answered command by command. A refused
// command is replaced by `(exit 126)`, so $? and `set -e` behave as if it
// had failed, and the script goes on as bash's would.
func (s *shellRun) stream(r *os.File, args []string) int {
	// Its bash runs unjailed from the first command to the last: it is
	// announced for all of that time (see announce).
	presence, err := s.announce(false)
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\nguardsh: nothing ran\n", err)
		return exitRefused
	}
	defer presence.Release()
	stops := presence != nil && s.stopsLeftovers()
	if stops {
		_ = sandbox.Subreaper() // see stopUnjailed
	}
	// On a terminal (with stderr elsewhere, which bash does not call
	// interactive) commands read the terminal as they would in bash.
	onTerminal := term.IsTerminal(int(r.Fd()))
	runner := s.runner
	if !onTerminal {
		// The script has its own channel to bash; commands read nothing
		// of it (see interp.Run.Stream).
		devNull, err := os.Open(os.DevNull)
		if err != nil {
			fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
			return exitRefused
		}
		defer devNull.Close()
		runner.Stdin = devNull
	}
	w, wait, err := runner.Stream(args, !onTerminal)
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
		return exitRefused
	}
	// The shell of a streamed script starts before its commands are
	// known: none of them can run jailed, so what would asks.
	if s.guard.SandboxUnavailable == "" {
		s.guard.SandboxUnavailable = "unavailable (script read from stdin)"
	}
	var interrupted os.Signal // see endOf
	reader := interp.NewCommandReader(r)
	s.more, s.streaming = true, true
	// The aliases the commands so far define: bash expands them in a
	// later command when expand_aliases or POSIX mode is on (guardsh run
	// as sh), so each later command is read both ways, as in one text.
	aliases := map[string]string{}
	for {
		text, err := reader.Next()
		if text != "" {
			s.guard.Analysis.Aliases = maps.Clone(aliases)
			o, calls := s.review(text, s.evaluate(text))
			for _, c := range o.Segments {
				// A cd here moves the commands of later chunks too.
				s.guard.Analysis.DirChanged = s.guard.Analysis.DirChanged || c.Segment.MayChangeDir()
			}
			// And a link it makes may be on their way.
			s.guard.MakesLinks(o)
			// And any command may have changed the environment.
			s.guard.Analysis.Env = nil
			// And defined a function or set a trap (attack run 84: a
			// find() of one command fed xargs cat the key in the next).
			s.guard.Analysis.DefinedBefore = s.guard.Analysis.DefinedBefore || interp.MayDefine(text)
			a := s.resolve(text, o)
			rec := s.record(text, o, calls, a)
			if a.Interrupted != nil {
				// The script ends here: bash gets no more of it (see endOf).
				s.printRefusal(text, o, a)
				s.finish(rec, nil)
				interrupted = a.Interrupted
				break
			}
			if a.Decision != rules.Allow {
				s.printRefusal(text, o, a)
				text = "(exit 126)\n"
			} else if s.roomRefused(s.guard.Policy, rec) {
				text = "(exit 126)\n"
			} else {
				s.printLines(a)
				segs := make([]interp.Segment, len(o.Segments))
				for i, c := range o.Segments {
					segs[i] = c.Segment
				}
				interp.AliasesDefined(segs, aliases)
			}
			s.finish(rec, nil)
			if _, werr := io.WriteString(w, text); werr != nil {
				break // bash is gone (exit or exec); its status tells.
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintf(s.stderr, "guardsh: reading script: %v\n", err)
			}
			break
		}
	}
	w.Close()
	status, err := wait()
	if err != nil {
		fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
	}
	if stops {
		status = s.stopUnjailed(nil, status)
	}
	endOf(interrupted)
	return status
}

// refuse prints why text does not run, records it, and returns 126.
func (s *shellRun) refuse(text string, o guard.Outcome, calls []guard.LLMCall, a prompt.Answer) int {
	rec := s.record(text, o, calls, a)
	s.printRefusal(text, o, a)
	s.finish(rec, nil)
	endOf(a.Interrupted)
	return exitRefused
}

// endOf ends guardsh of sig, as its default would, when sig is a signal
// that ended an approval dialog (attack run 82: after a SIGTERM or a
// hang-up in the dialog, a script read from stdin went on with its next
// commands unattended); nil does nothing. SIGQUIT ends it as SIGTERM
// does, without the Go runtime's stack dump.
func endOf(sig os.Signal) {
	ss, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	if ss == syscall.SIGQUIT {
		ss = syscall.SIGTERM
	}
	signal.Reset(ss)
	_ = syscall.Kill(os.Getpid(), ss)
	time.Sleep(100 * time.Millisecond)
}

// evaluate decides text; in CI mode the runner's file commands too.
func (s *shellRun) evaluate(text string) guard.Outcome {
	o := s.guard.Evaluate(text)
	if s.ci {
		s.fc.Decide(text, &o, s.guard.Policy, s.guard.Context, s.guard.Evaluate)
	}
	return o
}

// printLines prints the prompt's lines for the agent (stderr).
func (s *shellRun) printLines(a prompt.Answer) {
	for _, line := range a.Lines {
		fmt.Fprintln(s.stderr, line)
	}
}

func (s *shellRun) printRefusal(text string, o guard.Outcome, a prompt.Answer) {
	channel := a.Why
	if channel == "" {
		channel = "no approval channel"
	}
	if s.ci {
		channel = "CI mode: no one to approve (headless deny)"
	}
	lines := o.Refusal(s.guard.PolicyFile, channel)
	if last := len(lines) - 1; s.streaming && last >= 0 {
		// What came before it in the script ran, or runs still (its
		// output may follow this line), and what follows it runs too.
		if l, ok := strings.CutSuffix(lines[last], ": nothing ran"); ok {
			lines[last] = l + ": this command does not run; the script goes on as after one that exits 126"
			if a.Interrupted != nil {
				// guardsh ends of the signal: bash gets no more of it.
				lines[last] = l + fmt.Sprintf(": this command does not run, nor any after it: guardsh ends (%v)", a.Interrupted)
			}
		}
	}
	var red *audit.Redactor
	if s.ci || s.github {
		// A CI job's log is read by others (its annotations on the
		// run's page too): what it quotes of the command is redacted
		// as the audit record is (attack run 61).
		red, _ = audit.NewRedactor(s.guard.Policy.Audit.Redact) // (checked when the log opened)
		for i, line := range lines {
			lines[i] = red.String(line)
		}
	}
	for _, line := range lines {
		fmt.Fprintln(s.stderr, line)
	}
	s.printLines(a)
	if !s.github {
		return
	}
	// The runner reads workflow commands from the step's stdout.
	fmt.Fprint(s.stdout, ci.Annotation(lines))
	if p := s.fc["GITHUB_STEP_SUMMARY"]; p != "" {
		if err := ci.AppendSummary(p, text, o, red); err != nil {
			fmt.Fprintf(s.stderr, "guardsh: %v\n", err)
		}
	}
}

// record starts the audit record of one decision, with the LLM calls
// that shaped it; a, the prompt's answer, settles an ask.
func (s *shellRun) record(text string, o guard.Outcome, calls []guard.LLMCall, a prompt.Answer) *audit.Record {
	rec := audit.NewRecord(time.Now())
	rec.Session = os.Getenv("GUARDSH_SESSION")
	rec.PPID = os.Getppid()
	if s.user == "" {
		s.agent, s.user = audit.Detect(os.Getenv, rec.PPID), userName()
	}
	rec.Agent, rec.User = s.agent, s.user
	rec.CI = audit.DetectCI(os.Getenv)
	rec.Cwd = s.guard.Context.Cwd
	rec.Argv = s.argv
	rec.Command = text
	rec.Mode = string(s.guard.Context.Mode)
	o.Record(rec)
	guard.RecordLLM(rec, o, calls)
	switch {
	case a.DecidedBy != "":
		rec.Decision, rec.DecidedBy, rec.Human = a.Decision.String(), a.DecidedBy, a.Human
	case o.Decision == rules.Ask:
		// Nothing answered the ask: it is refused.
		rec.Decision, rec.DecidedBy = rules.Deny.String(), "headless"
	}
	return rec
}

// finish completes rec with the exit status (nil: nothing ran, or not known
// per command) and appends it, then holds room for the next record (a
// script's or a session's next command; see audit.Log.Reserve): without
// it, s.noRoom says why, and a next command is refused.
func (s *shellRun) finish(rec *audit.Record, status *int) {
	rec.Exit = status
	// What a put-back adds (the paths it restored, which the command
	// named) is bounded, so that the record fits the room kept for it
	// (see audit.Log.Lend): 20 paths of control characters, 6 bytes each
	// in JSON, made a record of 421 KB where 68 KB were kept, and it was
	// lost (attack run 57).
	rec.Sandbox, rec.Error = capNote(rec.Sandbox), capNote(rec.Error)
	rec.DurationMS = float64(time.Since(s.start).Microseconds()) / 1000
	if s.log == nil {
		return
	}
	if err := s.log.Append(rec); err != nil {
		fmt.Fprintf(s.stderr, "guardsh: audit log: %v\n", err)
	}
	if s.more {
		s.noRoom = s.log.Reserve(recordRoom(0))
	}
}

// maxNote is the most bytes of a record's sandbox note and error
// (capNote): at most 6 bytes each once encoded, 48 KiB of the 64 KiB a
// record's room keeps for what the command adds (audit.Log.ReserveFor).
const maxNote = 4 << 10

// capNote returns s cut to maxNote bytes (at a character's start), with
// how many bytes were left out.
func capNote(s string) string {
	if len(s) <= maxNote {
		return s
	}
	cut := maxNote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes more)", len(s)-cut)
}

// listedPaths is how many paths of a put-back a message and the record
// name: a jailed command that made thousands of protected entries (an
// attack run's 8,000 long names in .git/hooks) made a record too large
// for the room held for it.
const listedPaths = 20

// firstOf returns the first listedPaths of paths.
func firstOf(paths []string) []string { return paths[:min(len(paths), listedPaths)] }

// moreThan says how many of paths firstOf leaves out: " and N more", or "".
func moreThan(paths []string) string {
	if len(paths) <= listedPaths {
		return ""
	}
	return fmt.Sprintf(" and %d more", len(paths)-listedPaths)
}

// recordRoom is the room held for the record of a command of n bytes, in
// bytes: 1 MiB, and 8 bytes more per byte of the command (a record holds
// its text, its segments' words and their reasons), at most 256 MiB.
func recordRoom(n int) int64 {
	return min(1<<20+8*int64(n), 256<<20)
}

// roomRefused reports, on stderr, a command refused for want of room for
// its record rec (see audit.Log.ReserveFor; s.noRoom when none could be
// held after the last record) when the config requires one.
func (s *shellRun) roomRefused(policy *rules.Policy, rec *audit.Record) bool {
	if s.log == nil || !policy.Audit.Required {
		return false
	}
	err := s.noRoom
	if err == nil {
		err = s.log.ReserveFor(rec)
	}
	if err == nil {
		return false
	}
	fmt.Fprintf(s.stderr, "guardsh: audit log: %v\nguardsh: refusing to run without an audit record (audit.required: false in the config relaxes this)\n", err)
	return true
}

func userName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return fmt.Sprint(os.Getuid())
}

// insideJail reports whether this process runs confined by a guardsh
// jail: the jail hides the /proc directory of every process, its own
// included (see sandbox's procFiles), so reading /proc/self/status fails
// with a permission error, which no unconfined process sees of itself.
func insideJail() bool {
	if sandbox.Unavailable() != "" {
		return false
	}
	f, err := os.Open("/proc/self/status")
	if err == nil {
		f.Close()
		return false
	}
	return errors.Is(err, fs.ErrPermission)
}

// waitingFor is the end of a waiting line naming the commands waited for
// (see sandbox.AnnounceJailed): " (pid N: guardsh -c …)", or "".
func waitingFor(holders string) string {
	if holders == "" {
		return ""
	}
	return " (" + holders + ")"
}
