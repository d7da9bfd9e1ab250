package interp

import (
	"bufio"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// Interactive sessions.
//
// guardsh's interactive mode reads each command line itself (line editing,
// history, prompts) and hands the lines it allows, one at a time, to one
// persistent bash: `bash --norc --noprofile -i +H +o history OPTIONS
// /dev/fd/3`. That bash is interactive (aliases expand, job control runs on
// the terminal, $- holds i) but reads its commands from a private channel,
// not from the terminal, so it never prints a prompt, never reads a key, and
// runs only what guardsh wrote. State persists between lines as in any
// bash session: the working directory, variables, functions, aliases,
// options, jobs.
//
// After each line guardsh writes a few lines of its own (sync lines) that
// save $? and $-, turn off what could echo them (-v, -x) or change later
// lines behind the analysis (history expansion, the history list), and
// report $?, $-, PS1, PS2 and PROMPT_COMMAND on a second pipe (bash's fd 4),
// each report carrying a random token written only in that sync line. The
// report is not trusted for anything that matters: a prompt is expanded
// from the copy guardsh sends back after analysing it, not from bash's
// variable, so a forged report can change what is displayed, never what
// runs.

// Session is a persistent interactive bash run by guardsh. Its methods are
// not safe for concurrent use.
type Session struct {
	cmd     *exec.Cmd
	script  *os.File // writes reach bash's script (its fd 3)
	replies chan reply
	exited  chan struct{}
	status  int
	err     error
	// flags are the options the sync lines turned off, to turn back on
	// before the next command, and lastStatus its $? (see restoreLine).
	flags      string
	lastStatus int
	// names are the variables guardsh's lines set since the last
	// command, unset before the next.
	names []string
}

// Report is what bash reported after a command: its exit status, $-, the
// prompt strings and PROMPT_COMMAND (each element of the array form).
// None of it is trusted: see the package comment on sessions.
type Report struct {
	Status        int
	Flags         string
	PS1, PS2      string
	PromptCommand []string
	// Functions are the names of the functions defined in the shell.
	Functions map[string]bool
	// PWD is the shell's logical working directory; DirStack the size of
	// its directory stack (1 when only the current directory is on it);
	// Aliases its aliases, name to value.
	PWD      string
	DirStack int
	Aliases  map[string]string
	// CDPATH is its value when bash could not unset it (readonly);
	// Jobs the number of jobs still running.
	CDPATH string
	Jobs   int
}

type reply struct {
	field string
	err   error
}

// ErrSessionEnded is returned when the session's bash exited (exit, exec,
// a signal, set -e): Wait gives its status.
var ErrSessionEnded = errors.New("the shell exited")

// StartSession starts the persistent bash of an interactive session with
// r's shell, options, environment and standard files; args become $0 (its
// first element; BASH_ARGV0) and the positional parameters. The options
// must not start a login shell or name start-up files: the caller sends
// those files' contents as commands, so that they are analysed.
func (r Run) StartSession(args []string) (*Session, error) {
	argv := []string{r.arg0(), "--norc", "--noprofile", "-i"}
	argv = append(argv, r.Options...)
	argv = append(argv, "+H", "+o", "history", "/dev/fd/3")
	if len(args) > 1 {
		argv = append(argv, args[1:]...)
	}
	cmd := r.cmd(argv)
	cmd.Stdin = r.Stdin
	// (A pipe's read end in bash can be opened for writing through
	// /proc/PID/fd by a process of the same user: guardsh makes writes
	// under /proc protected paths; see the README's limits.)
	scriptR, scriptW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	replyR, replyW, err := os.Pipe()
	if err != nil {
		scriptR.Close()
		scriptW.Close()
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{scriptR, replyW}
	start := cmd.Start
	if r.Start != nil {
		start = func() error { return r.Start(cmd) }
	}
	err = start()
	scriptR.Close()
	replyW.Close()
	if err != nil {
		scriptW.Close()
		replyR.Close()
		return nil, fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	s := &Session{cmd: cmd, script: scriptW, replies: make(chan reply), exited: make(chan struct{})}
	go s.read(replyR)
	go func() {
		s.status, _, s.err = exitStatus(cmd.Wait())
		replyR.Close()
		close(s.exited)
	}()
	// bash opened its script as another descriptor: fd 3 would let a
	// command read lines before bash does. $0 is what bash -i would show.
	init := "exec 3<&-\n"
	if len(args) > 0 {
		init += "BASH_ARGV0=" + Quote(args[0]) + "\n"
	}
	if _, err := io.WriteString(s.script, init); err != nil {
		return nil, ErrSessionEnded
	}
	return s, nil
}

// Pid is the process ID of the session's bash.
func (s *Session) Pid() int { return s.cmd.Process.Pid }

// read passes each NUL-terminated field bash writes on fd 4 to s.replies,
// then ErrSessionEnded when the pipe ends.
func (s *Session) read(r io.Reader) {
	br := bufio.NewReader(r)
	for {
		f, err := br.ReadString(0)
		if err != nil {
			select {
			case s.replies <- reply{err: ErrSessionEnded}:
			case <-s.exited:
			}
			return
		}
		select {
		case s.replies <- reply{field: f[:len(f)-1]}:
		case <-s.exited:
			return
		}
	}
}

// listJobsAndFunctions writes the process IDs of the running jobs and
// then the names of the shell's functions, one per line, as two more
// fields.
const listJobsAndFunctions = "\\builtin jobs -rp >&4; \\builtin printf '\\0' >&4; \\builtin compgen -A function >&4; \\builtin printf '\\0' >&4; "

// saveLine returns the line that saves $? and $- (in variables named
// status and flags) and turns off what must stay off around and after
// guardsh's own lines, and keeps expand_aliases on (the analysis reads an
// alias of an earlier line only expanded: Options.AliasesOn), and clears
// finished jobs from the job table, as bash does before a prompt, and
// unsets CDPATH (which guardsh also keeps out of bash's environment): a
// later line's relative cd goes where its analysis resolves it (a
// readonly CDPATH stays, and the report says so). Its trace, if -x is on,
// goes nowhere, and it holds no token: -v echoes it as it is read. The
// variables' names are new each time (see name), so no command can have
// made them readonly beforehand.
func saveLine(status, flags string) string {
	return "{ " + status + "=$? " + flags + "=$-; \\builtin set +vxeuH +o history; \\builtin shopt -s expand_aliases; \\builtin jobs -n >/dev/null; \\builtin unset CDPATH; } 2>/dev/null\n"
}

// name returns a new variable name for one of guardsh's own lines, to be
// unset before the next command.
func (s *Session) name(what string) string {
	n := "__guardsh_" + what + "_" + rand.Text()
	s.names = append(s.names, n)
	return n
}

// Run writes text (one complete command, as analysed) to bash and waits
// until bash has run it and reported. ErrSessionEnded means bash exited
// instead.
func (s *Session) Run(text string) (Report, error) {
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	restore := s.restoreLine()
	s.names = nil
	status, flags := s.name("s"), s.name("f")
	fields, err := s.exchange(restore+text+saveLine(status, flags), "", reportArgs(`"$`+status+`"`, flags, true), listJobsAndFunctions)
	if err != nil {
		return Report{}, err
	}
	return s.report(fields)
}

// reportArgs are the printf arguments of a report: status (an
// expression), $- (saved in flags), PS1, PS2, $PWD, CDPATH, the directory
// stack's size, the aliases (count, names, values) and, with prompt,
// PROMPT_COMMAND (count, elements; else a count of 0).
func reportArgs(status, flags string, prompt bool) string {
	args := status + ` "$` + flags + `" "${PS1-}" "${PS2-}" "${PWD-}" "${CDPATH-}" "${#DIRSTACK[@]}" "${#BASH_ALIASES[@]}" ${BASH_ALIASES[@]+"${!BASH_ALIASES[@]}" "${BASH_ALIASES[@]}"}`
	if prompt {
		return args + ` "${#PROMPT_COMMAND[@]}" ${PROMPT_COMMAND[@]+"${PROMPT_COMMAND[@]}"}`
	}
	return args + " 0"
}

// RunPromptCommand runs the PROMPT_COMMAND elements guardsh allowed, with
// $? the status of the last command, as bash does before each prompt,
// and reports again (PROMPT_COMMAND may set PS1).
func (s *Session) RunPromptCommand(commands []string, status int) (Report, error) {
	text := setStatus(status) + "\n"
	for _, c := range commands {
		text += c + "\n"
	}
	st, flags := s.name("s"), s.name("f")
	fields, err := s.exchange(text+saveLine(st, flags), "", reportArgs(strconv.Itoa(status), flags, false), listJobsAndFunctions)
	if err != nil {
		return Report{}, err
	}
	return s.report(fields)
}

// ExpandPrompts returns ps1 and ps2 expanded by bash as prompts
// (${var@P}) in the session's current state, with $? set to status. The
// values expanded are the ones given, which the caller analysed, not
// bash's variables. Bash's \[ and \] markers (bytes 1 and 2) are removed.
func (s *Session) ExpandPrompts(ps1, ps2 string, status int) (string, string, error) {
	p1, p2 := s.name("p1"), s.name("p2")
	text := p1 + "=" + Quote(ps1) + " " + p2 + "=" + Quote(ps2) + "\n"
	fields, err := s.exchange(text, setStatus(status)+"; ", `"${`+p1+`@P}" "${`+p2+`@P}"`, "")
	if err != nil {
		return "", "", err
	}
	if len(fields) != 2 {
		return "", "", fmt.Errorf("the shell's prompt report has %d fields, want 2", len(fields))
	}
	strip := strings.NewReplacer("\x01", "", "\x02", "")
	return strip.Replace(fields[0]), strip.Replace(fields[1]), nil
}

// exchange writes text, then a line of pre followed by a printf of a new
// random token and what (printf arguments), then post (commands writing
// more fields to fd 4), then the token again with "_end", and returns the
// fields between. Fields outside a token's pair
// (a command that wrote to fd 4) are skipped.
func (s *Session) exchange(text, pre, what, post string) ([]string, error) {
	token := "guardsh_" + rand.Text()
	line := pre + "\\builtin printf '%s\\0' " + token + " " + what + " >&4; " + post + "\\builtin printf '%s\\0' " + token + "_end >&4\n"
	if _, err := io.WriteString(s.script, text+line); err != nil {
		return nil, ErrSessionEnded
	}
	var fields []string
	started := false
	for {
		select {
		case r := <-s.replies:
			switch {
			case r.err != nil:
				return nil, r.err
			case strings.HasSuffix(r.field, token):
				// (Bytes a command wrote to fd 4 without a NUL may
				// come before it.)
				started, fields = true, nil
			case r.field == token+"_end" && started:
				return fields, nil
			case started:
				fields = append(fields, r.field)
			}
		case <-s.exited:
			return nil, ErrSessionEnded
		}
	}
}

// report decodes the fields of a Run report and prepares the restore line.
func (s *Session) report(fields []string) (Report, error) {
	if len(fields) < 7 {
		return Report{}, fmt.Errorf("the shell's report has %d fields, want at least 7", len(fields))
	}
	funcs := map[string]bool{}
	for _, name := range strings.Split(fields[len(fields)-1], "\n") {
		if name != "" {
			funcs[name] = true
		}
	}
	jobs := len(strings.Fields(fields[len(fields)-2]))
	fields = fields[:len(fields)-2]
	bad := func(what string) (Report, error) {
		return Report{}, fmt.Errorf("the shell's report: %s", what)
	}
	if len(fields) < 9 {
		return bad(fmt.Sprintf("%d fields, want at least 9", len(fields)))
	}
	status, err := strconv.Atoi(fields[0])
	if err != nil {
		return bad("status " + strconv.Quote(fields[0]))
	}
	dirs, err := strconv.Atoi(fields[6])
	if err != nil {
		return bad("directory stack " + strconv.Quote(fields[6]))
	}
	na, err := strconv.Atoi(fields[7])
	if err != nil || na < 0 || 8+2*na >= len(fields) {
		return bad("aliases " + strconv.Quote(fields[7]))
	}
	aliases := make(map[string]string, na)
	for i := range na {
		aliases[fields[8+i]] = fields[8+na+i]
	}
	rest := fields[8+2*na:]
	n, err := strconv.Atoi(rest[0])
	if err != nil || n != len(rest)-1 {
		return bad(fmt.Sprintf("PROMPT_COMMAND of %q elements, %d given", rest[0], len(rest)-1))
	}
	rep := Report{Status: status, Flags: fields[1], PS1: fields[2], PS2: fields[3], PWD: fields[4], CDPATH: fields[5],
		DirStack: dirs, Aliases: aliases, PromptCommand: rest[1:], Functions: funcs, Jobs: jobs}
	var on strings.Builder
	for _, c := range "euxv" {
		if strings.ContainsRune(rep.Flags, c) {
			on.WriteRune(c)
		}
	}
	s.flags = on.String()
	s.lastStatus = status
	return rep, nil
}

// SetStatus makes status the $? the next command sees (Ctrl-C at the
// prompt sets 130, as in bash).
func (s *Session) SetStatus(status int) {
	s.lastStatus = status
}

// restoreLine returns the line written before the next command: guardsh's
// variables unset, the options the sync lines turned off back on, then $?
// (in a group whose trace goes nowhere, so -x shows nothing of guardsh's).
func (s *Session) restoreLine() string {
	line := ""
	if len(s.names) > 0 {
		line = "\\builtin unset " + strings.Join(s.names, " ") + "\n"
	}
	if s.flags != "" {
		line += "\\builtin set -" + s.flags + "\n"
	}
	return line + "{ " + setStatus(s.lastStatus) + "; } 2>/dev/null\n"
}

// setStatus is a command that sets $? to status without a function the
// user could redefine and without a job for job control to list: an
// assignment's status is its command substitution's, and bash resets $_
// after every command.
func setStatus(status int) string {
	return fmt.Sprintf("_=$(\\builtin exit %d)", status)
}

// Close ends bash's script: bash exits as at the end of a script file
// (running its EXIT trap), with the status of the last command run.
func (s *Session) Close() error {
	_, _ = io.WriteString(s.script, s.restoreLine())
	return s.script.Close()
}

// Exited is closed when the session's bash has exited.
func (s *Session) Exited() <-chan struct{} { return s.exited }

// Wait waits for bash to exit and returns its status as Run.Command does.
func (s *Session) Wait() (int, error) {
	<-s.exited
	return s.status, s.err
}

// Signal sends sig to the session's bash.
func (s *Session) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// exitStatus converts (*exec.Cmd).Wait's error into an exit status, 128+n
// for a death by signal n (then also returned as died).
func exitStatus(err error) (status int, died syscall.Signal, ferr error) {
	if err == nil {
		return 0, 0, nil
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), ws.Signal(), nil
		}
		return exitErr.ExitCode(), 0, nil
	}
	return 126, 0, err
}

// Quote returns s as one bash word: single-quoted, each ' written '\”.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// PromptText returns shell text whose analysis covers what expanding ps as
// a prompt string (PS0, PS1, PS2, ${x@P}) would run, and false when that
// cannot be known. bash first decodes ps's backslash escapes (bash(1)
// PROMPTING) and then expands the result as a here-document body is
// expanded (parameter expansion, command and arithmetic substitution;
// quotes are literal), so the text is that body under `: <<DELIM`, with
// the escapes decoded: \n to a newline and an octal escape to its byte
// (\044(…) is $(…)), other bytes with no meaning to the shell (\e, \a, a
// control byte) to a plain letter, \$ and \\ as escaped characters. An
// escape whose value is only known when the prompt is shown (\u, \h, \w,
// \W, the date and time, \D{…}, the job count, …) joins whatever is
// around it: a directory named "(cmd)" after a "$" makes "$(cmd)". Such
// an escape stands for a plain word, and the prompt is refused (false)
// when one lies inside an expansion ($…, ${…}, $(…), `…`, $((…))).
func PromptText(ps string) (string, bool) {
	const marker = "GUARDSHPROMPTVALUE"
	var b strings.Builder
	for i := 0; i < len(ps); i++ {
		c := ps[i]
		if c != '\\' || i+1 == len(ps) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := ps[i]; {
		case e >= '0' && e <= '7':
			n, j := 0, i
			for ; j < len(ps) && j < i+3 && ps[j] >= '0' && ps[j] <= '7'; j++ {
				n = n*8 + int(ps[j]-'0')
			}
			i = j - 1
			switch c := byte(n); {
			case c == '\n' || c == '\t' || c >= ' ' && c < 0x7f:
				b.WriteByte(c)
			default:
				b.WriteByte('x')
			}
		case e == 'n':
			b.WriteByte('\n')
		case e == 'e' || e == 'a':
			b.WriteByte('x')
		case e == '\\' || e == '$':
			b.WriteByte('\\')
			b.WriteByte(e)
		case e == '[' || e == ']':
		case e == 'D' && i+1 < len(ps) && ps[i+1] == '{':
			end := strings.IndexByte(ps[i:], '}')
			if end < 0 {
				b.WriteString(ps[i-1:])
				i = len(ps)
				break
			}
			b.WriteString(marker)
			i += end
		case strings.IndexByte("dhHjlrstTuvVwW@A!#", e) >= 0:
			b.WriteString(marker)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	body := b.String()
	if strings.Contains(body, marker) {
		// The values may only stand in literal text.
		w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(body))
		if err != nil {
			return "", false
		}
		for _, part := range w.Parts {
			if _, lit := part.(*syntax.Lit); lit {
				continue
			}
			from, to := int(part.Pos().Offset()), int(part.End().Offset())
			if from < 0 || to > len(body) || from > to || strings.Contains(body[from:to], marker) {
				return "", false
			}
		}
	}
	delim := "GUARDSH_PROMPT"
	for strings.Contains("\n"+body+"\n", "\n"+delim+"\n") {
		delim += "_"
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return ": <<" + delim + "\n" + body + delim + "\n", true
}
