package interp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/guardsh/guardsh/internal/signals"
	"golang.org/x/sys/unix"
)

// FindShell returns the real bash guardsh hands commands to: configured when
// non-empty (it must be an executable file), else the first "bash" on path
// (a PATH-style list) that is not the same file as self. Comparing file
// identity rather than names keeps guardsh installed as "bash" from calling
// itself. Errors name what was searched.
func FindShell(configured, path, self string) (string, error) {
	selfInfo, selfErr := os.Stat(self)
	isSelf := func(p string) bool {
		if selfErr != nil {
			return false
		}
		info, err := os.Stat(p)
		return err == nil && os.SameFile(info, selfInfo)
	}
	if configured != "" {
		info, err := os.Stat(configured)
		switch {
		case err != nil:
			return "", fmt.Errorf("shell %s: %w", configured, err)
		case info.IsDir() || info.Mode().Perm()&0o111 == 0:
			return "", fmt.Errorf("shell %s: not an executable file", configured)
		case isSelf(configured):
			return "", fmt.Errorf("shell %s: is guardsh itself", configured)
		}
		return configured, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, "bash")
		info, err := os.Stat(p)
		if err != nil || info.IsDir() || info.Mode().Perm()&0o111 == 0 || isSelf(p) {
			continue
		}
		if !filepath.IsAbs(p) {
			if p, err = filepath.Abs(p); err != nil {
				continue
			}
		}
		return p, nil
	}
	return "", fmt.Errorf("no bash on PATH other than guardsh itself (PATH=%s); set shell: in the config", path)
}

// ShellEnv returns env without the variables that would make bash run code
// guardsh never analysed: BASH_ENV and ENV (a file sourced at start-up),
// BASH_FUNC_* (functions imported from the environment, which would change
// what a command name runs), SHELLOPTS and BASHOPTS (options imported at
// start-up: xtrace with a PS4 holding $(…) runs it, expand_aliases turns
// words into code) and PS4 itself; CDPATH, which would send a relative cd
// somewhere other than where the analysis resolves it; what an
// interactive shell a command starts (`bash -i`) would run or write with
// them — PROMPT_COMMAND and the prompts PS0–PS3 (code before each prompt,
// $(…) in a prompt), HISTFILE (its history written there at exit: an
// attack run's ~/.bashrc), histchars and HISTTIMEFORMAT, MAILPATH, MAIL
// and MAILCHECK (an interactive shell's mail check expands $(…) in
// MAILPATH's messages: attack run 39); and argcomplete's
// _ARGCOMPLETE*, which make a Python program that uses it (yq) write to a
// file the variable names instead of doing its work (a command could not
// set them without asking: see rules' dangerous names).
//
// And it adds safe.bareRepository=explicit to GIT_CONFIG_PARAMETERS (the
// configuration `git -c` passes on, which git counts as protected):
// without it git takes any directory holding HEAD, objects/ and refs/ for
// a bare repository and runs its config's core.fsmonitor, so `cd evil &&
// git status` ran what a workspace write had planted in evil/config (an
// attack run's find). A bare repository is then used with --git-dir or
// GIT_DIR.
func ShellEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	params := ""
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case name == "BASH_ENV", name == "ENV", name == "SHELLOPTS", name == "BASHOPTS", name == "PS4",
			name == "CDPATH", strings.HasPrefix(name, "BASH_FUNC_"), strings.HasPrefix(name, "_ARGCOMPLETE"),
			name == "PROMPT_COMMAND", name == "PS0", name == "PS1", name == "PS2", name == "PS3",
			name == "HISTFILE", name == "histchars", name == "HISTTIMEFORMAT",
			name == "MAILPATH", name == "MAIL", name == "MAILCHECK":
			continue
		case name == "GIT_CONFIG_PARAMETERS":
			params = value
			continue
		}
		out = append(out, kv)
	}
	const bare = "'safe.bareRepository'='explicit'"
	if params != "" {
		params += " "
	}
	return append(out, "GIT_CONFIG_PARAMETERS="+params+bare)
}

// SessionPrompts returns env with the prompt variables of from (PS1, PS2,
// PROMPT_COMMAND, as os.Environ) that ShellEnv removed, for an interactive
// session's own bash, which guardsh asks for its prompts and runs only the
// PROMPT_COMMAND elements its policy allows (a user's `PS1='…' guardsh -i`).
func SessionPrompts(env, from []string) []string {
	env = slices.Clip(env)
	for _, kv := range from {
		name, _, _ := strings.Cut(kv, "=")
		if name == "PS1" || name == "PS2" || name == "PROMPT_COMMAND" {
			env = append(env, kv)
		}
	}
	return env
}

// LessSecure returns env with LESSSECURE=1 added unless env sets it: less
// (the pager of git log, man and others) then refuses its shell escapes
// (!cmd, |cmd, v), by which whoever types at the terminal of an allowed
// command would run one no one decided (less(1) SECURITY).
func LessSecure(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "LESSSECURE=") {
			return env
		}
	}
	return append(slices.Clip(env), "LESSSECURE=1")
}

// maxArg is the longest single argument Linux passes to exec
// (MAX_ARG_STRLEN, 32 pages of 4 KiB), minus a margin.
const maxArg = 32*4096 - 64

// Run is one execution of the real shell.
type Run struct {
	// Shell is the real bash; Options are the bash options to pass before
	// the command (for example "-e", "-o", "pipefail", "--noprofile").
	Shell string
	// Arg0 is the argv[0] bash sees (and reports as $0 when no operand
	// sets it); a leading "-" makes bash a login shell. Empty means Shell.
	Arg0    string
	Options []string
	Env     []string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	// Signaled, when not nil, is told the signal the command died of.
	Signaled func(syscall.Signal)
	// Held, when not nil, holds the signals the caller's handler took
	// (see signals.Handle) before the run's own: one there when the
	// command is about to start means it does not start, as one that
	// comes then.
	Held <-chan os.Signal
	// Start, when not nil, starts the prepared bash command in place of
	// (*exec.Cmd).Start: the sandbox starts it inside a jail.
	Start func(*exec.Cmd) error
	// Terminal, when not nil, gives the bash of Command a terminal of
	// its own (Stdout and Stderr are then not used; the terminal decides
	// whether Stdin is); Stream and Plain do not use it.
	Terminal Terminal
}

// Terminal starts a command on a terminal of its own. internal/tty's
// Terminal does: a pty relayed to guardsh's terminal.
type Terminal interface {
	// Start sets cmd's standard files (Stdout and Stderr are nil, Stdin
	// may be set), starts it with start, and returns
	// finish, which the caller calls after waiting for cmd (it restores
	// what Start changed). On error nothing was started.
	Start(cmd *exec.Cmd, start func(*exec.Cmd) error) (finish func() error, err error)
}

// Command runs text, exactly as analysed, as `bash OPTIONS -c TEXT ARGS…`,
// where args[0] becomes $0 and the rest $1…; it returns bash's exit status
// (128+n when bash died of signal n). Text longer than one exec argument may
// hold is passed as a sealed memory file (/dev/fd/3) that no process can
// change, so $0 is then that name. SIGINT, SIGTERM, SIGHUP and SIGQUIT received by
// guardsh are forwarded to bash.
func (r Run) Command(text string, args []string) (int, error) {
	argv := append([]string{r.arg0()}, r.Options...)
	var extra []*os.File
	if len(text) <= maxArg {
		argv = append(argv, "-c", text)
		argv = append(argv, args...)
	} else {
		f, err := sealedFile(text)
		if err != nil {
			return 126, fmt.Errorf("script of %d bytes: %w", len(text), err)
		}
		defer f.Close()
		extra = append(extra, f)
		argv = append(argv, "/dev/fd/3")
		if len(args) > 1 {
			argv = append(argv, args[1:]...)
		}
	}
	cmd := r.cmd(argv)
	cmd.Stdin = r.Stdin
	cmd.ExtraFiles = extra
	if r.Terminal != nil {
		cmd.Stdout, cmd.Stderr = nil, nil
		return r.waitOn(cmd, r.Terminal)
	}
	return r.waitFor(cmd)
}

// Stream starts bash reading a script from the returned writer, which the
// caller feeds one analysed command at a time and closes at the end; wait
// returns bash's exit status as Command does.
//
// With separate, the script reaches bash on its own channel, a pipe bash
// opens as `bash OPTIONS /proc/PID/fd/N ARGS…` (so $0 is that path; PID is
// guardsh's) and no command inherits, and the commands get r.Stdin: nothing a command reads can consume script text, so bash runs
// exactly the commands guardsh analysed, in the same order. Without it,
// `bash OPTIONS -s ARGS…` reads the script on its standard input, as an
// interactive terminal session needs; a command that reads stdin then
// consumes script text (bash's own behaviour).
func (r Run) Stream(args []string, separate bool) (w io.WriteCloser, wait func() (int, error), err error) {
	argv := append([]string{r.arg0()}, r.Options...)
	if !separate {
		argv = append(argv, "-s")
		argv = append(argv, args...)
		cmd := r.cmd(argv)
		if w, err = cmd.StdinPipe(); err != nil {
			return nil, nil, err
		}
		return w, func() (int, error) { return r.waitFor(cmd) }, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	// bash opens the pipe's read end through guardsh's /proc entry: no
	// descriptor of it is passed down, so a command cannot read the
	// script from under bash (an attack run's `read -r x <&3` swallowed
	// the first line of the next command, and bash ran a here-document's
	// body as code). bash's own descriptor of it is close-on-exec; reads
	// of it by a builtin are refused by the analysis (see scriptFd).
	argv = append(argv, "/proc/"+strconv.Itoa(os.Getpid())+"/fd/"+strconv.Itoa(int(pr.Fd())))
	argv = append(argv, args...)
	cmd := r.cmd(argv)
	cmd.Stdin = r.Stdin
	return pw, func() (int, error) {
		status, err := r.waitFor(cmd)
		pr.Close()
		return status, err
	}, nil
}

// Plain runs `bash ARGS…` for what needs no decision (--version, --help).
func (r Run) Plain(args ...string) (int, error) {
	cmd := r.cmd(append([]string{r.arg0()}, args...))
	cmd.Stdin = r.Stdin
	return r.waitFor(cmd)
}

func (r Run) arg0() string {
	if r.Arg0 != "" {
		return r.Arg0
	}
	return r.Shell
}

func (r Run) cmd(argv []string) *exec.Cmd {
	cmd := &exec.Cmd{Path: r.Shell, Args: argv, Env: r.Env, Stdout: r.Stdout, Stderr: r.Stderr}
	return cmd
}

// waitFor starts cmd (with r.Start when set), forwards signals to it, and
// converts its end into an exit status.
func (r Run) waitFor(cmd *exec.Cmd) (int, error) { return r.waitOn(cmd, nil) }

// waitOn is waitFor, with cmd started on terminal when not nil. An error
// of the terminal's finish is returned with the exit status.
func (r Run) waitOn(cmd *exec.Cmd, terminal Terminal) (status int, err error) {
	// The signals to forward (see signals.Watch: one guardsh was started
	// ignoring, nohup's SIGHUP or the SIGINT of a background job, is
	// neither caught nor forwarded; catching it would hand the command a
	// default disposition where bash leaves it ignored).
	sigs := make(chan os.Signal, 4)
	pop := signals.Handle(signals.Pass(sigs))
	defer pop()
	var came os.Signal
	select {
	case came = <-sigs:
	case came = <-r.Held:
	default:
	}
	if s := came; s != nil {
		// It came while the command was decided, or just after (attack
		// run 82): nothing starts, and guardsh ends of it once the
		// record says so, as it would have before.
		if sig, ok := s.(syscall.Signal); ok && r.Signaled != nil {
			r.Signaled(sig)
		}
		n := 0
		if sig, ok := s.(syscall.Signal); ok {
			n = int(sig)
		}
		return 128 + n, fmt.Errorf("%v came before %s started: nothing ran", s, cmd.Path)
	}
	start := (*exec.Cmd).Start
	if r.Start != nil {
		start = r.Start
	}
	if terminal != nil {
		finish, err := terminal.Start(cmd, start)
		if err != nil {
			return 126, fmt.Errorf("starting %s: %w", cmd.Path, err)
		}
		defer func() {
			if ferr := finish(); ferr != nil && err == nil {
				err = ferr
			}
		}()
	} else if err := start(cmd); err != nil {
		return 126, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	// A signal that finds the command gone (it came as the command
	// ended) is guardsh's to end of, once the caller has recorded the
	// command (attack run 83: a SIGTERM then was lost, guardsh exiting 0).
	var late os.Signal
	done, forwarded := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(forwarded)
		for {
			select {
			case s := <-sigs:
				// One that finds it ended, reaped or not yet (a zombie
				// takes a signal and drops it), is late.
				var info unix.Siginfo
				ended := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT|unix.WNOHANG, nil) == nil && info.Signo != 0
				if ended || cmd.Process.Signal(s) != nil {
					if late == nil {
						late = s
					}
				}
			case <-done:
				return
			}
		}
	}()
	werr := cmd.Wait()
	close(done)
	<-forwarded
	pop() // from here the caller's handler takes them
	select {
	case s := <-sigs:
		if late == nil {
			late = s
		}
	default:
	}
	status, died, err := exitStatus(werr)
	if sig, ok := late.(syscall.Signal); ok && died == 0 {
		died = sig
	}
	if died != 0 && r.Signaled != nil {
		r.Signaled(died)
	}
	return status, err
}

// sealedFile returns a memory file holding text, sealed against every
// change, positioned at its start.
func sealedFile(text string) (*os.File, error) {
	fd, err := unix.MemfdCreate("guardsh-script", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %w", err)
	}
	f := os.NewFile(uintptr(fd), "guardsh-script")
	if _, err := io.WriteString(f, text); err != nil {
		f.Close()
		return nil, fmt.Errorf("writing memory file: %w", err)
	}
	seals := unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		f.Close()
		return nil, fmt.Errorf("sealing memory file: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
