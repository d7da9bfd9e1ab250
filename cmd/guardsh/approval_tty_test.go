package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/guardsh/guardsh/audit"
)

// The approval flow end to end: a human terminal (a tmux pane running an
// interactive bash) → a fake agent (a bash script) → guardsh, which must
// show the dialog there and obey the keys tmux sends; an agent-owned pty
// must never approve anything.

// humanConfig is the user config of these tests: comments and order must
// survive a remembered rule.
const humanConfig = `# my guardsh config
mode: ask # asks for workspace writes

rules:
  shell:
    # things I trust
    allow:
      - "make test *"
    deny: ["rm -rf *"] # never
`

// fakeAgent runs its shell, guardsh, on $1 and reports the status, then
// the terminal's canonical-mode flag.
const fakeAgent = `#!/bin/bash
"$GS_BIN/bash" -c "$1"
echo "agent: exit $?"
stty -a | grep -o -- '-\?icanon' | sed 's/^/agent: tty /'
`

// fakeTUI puts the terminal in raw mode and reads it (into $TUI_LOG)
// while guardsh runs, as a full-screen agent does: each read waits at
// most 50 ms, as an event loop's does, and SIGTTIN and SIGTTOU are ignored so it keeps
// trying (a reader that is stopped instead makes a job-control shell take
// the terminal; a read blocked since before the dialog began is not
// interrupted: see the README's limits).
const fakeTUI = `#!/bin/bash
stty raw -echo
(trap '' TTIN TTOU; while kill -0 $$ 2>/dev/null; do IFS= read -r -n1 -t 0.05 c && printf '%s' "$c" || sleep 0.01; done) </dev/tty >>"$TUI_LOG" &
reader=$!
sleep 0.3
"$GS_BIN/bash" -c "$1"
status=$?
stty sane
echo "agent: exit $status"
echo "agent: reader state $(ps -o stat= -p $reader)"
kill $reader
`

// approvalEnv is one test's home, config, workspace and binaries.
type approvalEnv struct {
	t                         *testing.T
	dir, home, bin, proj, cfg string
	env                       []string
}

func newApprovalEnv(t *testing.T) *approvalEnv {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Not t.TempDir: processes of the pane may still be writing when
	// the tmux server is killed.
	dir, err := os.MkdirTemp("", "guardsh-approval-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	e := &approvalEnv{t: t, dir: dir}
	e.home = filepath.Join(e.dir, "home")
	e.bin = filepath.Join(e.dir, "bin")
	e.proj = filepath.Join(e.dir, "proj")
	e.cfg = filepath.Join(e.home, ".config", "guardsh", "config.yaml")
	for _, d := range []string{e.bin, filepath.Join(e.proj, ".git"), filepath.Dir(e.cfg)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"bash", "guardsh"} {
		if err := os.Symlink(self, filepath.Join(e.bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	e.write("agent.sh", fakeAgent, 0o755)
	e.write("tui.sh", fakeTUI, 0o755)
	if err := os.WriteFile(e.cfg, []byte(humanConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	e.env = []string{"HOME=" + e.home, "PATH=" + os.Getenv("PATH"), "TERM=xterm", "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"), "XDG_STATE_HOME=" + filepath.Join(e.home, ".local", "state"),
		"GS_BIN=" + e.bin, "TUI_LOG=" + filepath.Join(e.dir, "tui.log"), "USER=tester",
		"GUARDSH_TEST_SYSTEM_CONFIG=" + filepath.Join(e.dir, "no-system.yaml"), "GUARDSH_TEST_ACT_AS_GUARDSH=1"}
	return e
}

// lastAudit is the last line of the audit log.
func (e *approvalEnv) lastAudit() string {
	data, _ := os.ReadFile(filepath.Join(e.home, ".local", "state", "guardsh", "audit.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return lines[len(lines)-1]
}

func (e *approvalEnv) write(name, text string, perm os.FileMode) {
	if err := os.WriteFile(filepath.Join(e.dir, name), []byte(text), perm); err != nil {
		e.t.Fatal(err)
	}
}

// tmuxPane is an interactive bash in a tmux server of its own (-L).
type tmuxPane struct {
	t    *testing.T
	sock string
	env  []string
}

func (e *approvalEnv) tmux() *tmuxPane {
	p := &tmuxPane{t: e.t, sock: fmt.Sprintf("guardsh-test-%d-%d", os.Getpid(), time.Now().UnixNano()), env: e.env}
	p.run("-f", "/dev/null", "new-session", "-d", "-x", "200", "-y", "50", "-s", "t", "-c", e.proj,
		"env PS1='human$ ' bash --norc --noprofile -i")
	e.t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.sock, "kill-server").Run() })
	p.waitFor(`human\$ $`)
	return p
}

func (p *tmuxPane) run(args ...string) string {
	p.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-L", p.sock}, args...)...)
	cmd.Env = p.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (send-keys), "Enter" and such included.
func (p *tmuxPane) keys(keys ...string) {
	p.t.Helper()
	p.run(append([]string{"send-keys", "-t", "t"}, keys...)...)
}

// literal types text as is.
func (p *tmuxPane) literal(text string) {
	p.t.Helper()
	p.run("send-keys", "-t", "t", "-l", text)
}

func (p *tmuxPane) screen() string {
	return p.run("capture-pane", "-p", "-J", "-t", "t", "-S", "-300")
}

// waitFor polls the screen until re matches (a generous deadline: the
// machine may be loaded) and returns the submatches.
func (p *tmuxPane) waitFor(re string) []string {
	p.t.Helper()
	rx := regexp.MustCompile("(?m)" + re)
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := p.screen()
		if m := rx.FindStringSubmatch(s); m != nil {
			return m
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("screen never matched %q:\n%s", re, s)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// reset clears the screen and the history, at the prompt.
func (p *tmuxPane) reset() {
	p.t.Helper()
	p.keys("clear", "Enter")
	deadline := time.Now().Add(60 * time.Second)
	again := time.Now().Add(2 * time.Second)
	for {
		p.run("clear-history", "-t", "t")
		s := p.screen()
		if strings.TrimSpace(s) == "human$" {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("screen never cleared:\n%s", s)
		}
		if time.Now().After(again) {
			// Something printed after the clear (a job notice).
			p.keys("clear", "Enter")
			again = time.Now().Add(2 * time.Second)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// agent starts the fake agent on command in the pane and waits for the
// dialog.
func (p *tmuxPane) agent(script, command string) {
	p.t.Helper()
	p.reset()
	p.literal("../" + script + " '" + command + "'")
	p.keys("Enter")
	p.waitFor(`\[n\] deny`)
	p.waitFor(`^> $`)
}

func TestDialogAnswers(t *testing.T) {
	e := newApprovalEnv(t)
	p := e.tmux()
	touched := func(name string) bool {
		_, err := os.Stat(filepath.Join(e.proj, name))
		return err == nil
	}

	t.Run("y allows once", func(t *testing.T) {
		p.agent("agent.sh", "touch once.txt")
		s := p.screen()
		for _, want := range []string{"command: touch once.txt", "cwd:     " + e.proj, "• touch once.txt  [workspace]"} {
			if !strings.Contains(s, want) {
				t.Errorf("dialog lacks %q:\n%s", want, s)
			}
		}
		p.keys("y")
		p.waitFor(`^agent: exit 0$`)
		p.waitFor(`^agent: tty icanon$`)
		if !touched("once.txt") {
			t.Error("approved command did not run")
		}
		// A record with the human's answer keeps the chain whole.
		if _, err := audit.Verify([]string{filepath.Join(e.home, ".local", "state", "guardsh", "audit.jsonl")}, nil); err != nil {
			t.Errorf("audit verify: %v", err)
		}
		if rec := e.lastAudit(); !regexp.MustCompile(`"decision":"allow","decided_by":"human".*"human":\{"answer":"once","latency_ms":[0-9.]+\}`).MatchString(rec) {
			t.Errorf("audit record: %s", rec)
		}
		// Once means once: the same command asks again.
		p.agent("agent.sh", "touch once.txt")
		p.keys("n")
		p.waitFor(`^agent: exit 126$`)
	})

	t.Run("n denies", func(t *testing.T) {
		p.agent("agent.sh", "touch no.txt")
		p.keys("n")
		p.waitFor(`refused \(denied by a human\): nothing ran`)
		p.waitFor(`^agent: exit 126$`)
		p.waitFor(`^agent: tty icanon$`)
		if touched("no.txt") {
			t.Error("denied command ran")
		}
	})

	t.Run("m denies with a message for the agent", func(t *testing.T) {
		p.agent("agent.sh", "touch msg.txt")
		p.keys("m")
		p.waitFor(`message for the agent: $`)
		p.literal("use make build instead")
		p.keys("Enter")
		p.waitFor(`^guardsh: message from the human: use make build instead$`)
		p.waitFor(`^agent: exit 126$`)
		if rec := e.lastAudit(); !strings.Contains(rec, `"decision":"deny","decided_by":"human"`) || !strings.Contains(rec, `"message":"use make build instead"`) {
			t.Errorf("audit record: %s", rec)
		}
		if touched("msg.txt") {
			t.Error("denied command ran")
		}
	})

	t.Run("a remembers the exact command, keeping comments", func(t *testing.T) {
		p.agent("agent.sh", "touch always.txt")
		p.keys("a")
		p.waitFor(`remembered: "touch always.txt" in rules.shell.allow \(` + regexp.QuoteMeta(e.cfg) + `:\d+\)`)
		p.waitFor(`^agent: exit 0$`)
		data, err := os.ReadFile(e.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"# my guardsh config", "# asks for workspace writes", "# things I trust", "# never", `"make test *"`, `"touch always.txt"`} {
			if !strings.Contains(string(data), want) {
				t.Errorf("config lacks %q:\n%s", want, data)
			}
		}
		// The rule holds: no dialog the next time.
		os.Remove(filepath.Join(e.proj, "always.txt"))
		p.reset()
		p.literal("../agent.sh 'touch always.txt'")
		p.keys("Enter")
		p.waitFor(`^agent: exit 0$`)
		if strings.Contains(p.screen(), "approval needed") || !touched("always.txt") {
			t.Errorf("remembered rule did not apply:\n%s", p.screen())
		}
	})

	t.Run("p remembers an edited prefix, never a wider one", func(t *testing.T) {
		p.agent("agent.sh", "mkdir -p out/x")
		p.keys("p")
		p.waitFor(`prefix to allow: mkdir -p out/x$`) // an option first: the exact command is proposed
		// Widening to anything is refused; the human edits again.
		p.keys("C-u")
		p.literal("*")
		p.keys("Enter")
		p.waitFor(`neither the exact command nor its program`)
		p.keys("C-u")
		p.literal("mkdir -p *")
		p.keys("Enter")
		p.waitFor(`remembered: "mkdir -p \*"`)
		p.waitFor(`^agent: exit 0$`)
		data, _ := os.ReadFile(e.cfg)
		if !strings.Contains(string(data), `"mkdir -p *"`) || strings.Contains(string(data), `- "*"`) {
			t.Errorf("config:\n%s", data)
		}
	})

	t.Run("a background job does not take the terminal from the shell", func(t *testing.T) {
		p.reset()
		p.literal("../agent.sh 'touch bg.txt' &")
		p.keys("Enter")
		p.waitFor(`refused \(guardsh runs in a background job of the terminal, approval [a-z2-7]{10} pending\)`)
		p.waitFor(`agent: exit 126`)
		if s := p.screen(); strings.Contains(s, "approval needed") {
			t.Errorf("dialog shown from a background job:\n%s", s)
		}
		// The shell still has the terminal and answers.
		p.literal("echo still-here")
		p.keys("Enter")
		p.waitFor(`^still-here$`)
	})

	t.Run("s allows the command for the session", func(t *testing.T) {
		p.reset()
		p.literal("GUARDSH_SESSION=s1 ../agent.sh 'touch s.txt'")
		p.keys("Enter")
		p.waitFor(`^> $`)
		p.keys("s")
		p.waitFor(`allowed in this directory and session until`)
		p.waitFor(`^agent: exit 0$`)
		run := func(session string) {
			p.reset()
			p.literal("GUARDSH_SESSION=" + session + " ../agent.sh 'touch s.txt'")
			p.keys("Enter")
		}
		// The same session runs it again unasked, more than once.
		for range 2 {
			run("s1")
			p.waitFor(`^agent: exit 0$`)
			if strings.Contains(p.screen(), "approval needed") {
				t.Fatalf("asked again in the same session:\n%s", p.screen())
			}
		}
		// Another session is asked.
		run("s2")
		p.waitFor(`\[n\] deny`)
		p.waitFor(`^> $`)
		p.keys("n")
		p.waitFor(`^agent: exit 126$`)
	})

	t.Run("deny is not lifted by the dialog", func(t *testing.T) {
		p.reset()
		p.literal("../agent.sh 'rm -rf build'")
		p.keys("Enter")
		p.waitFor(`^agent: exit 126$`)
		if s := p.screen(); strings.Contains(s, "approval needed") || !strings.Contains(s, `denied: rm -rf build`) {
			t.Errorf("a denied command reached the dialog:\n%s", s)
		}
	})
}

// TestDialogKeysNotStolenByTUI: a parent reading the terminal in raw mode
// does not get the keys of the dialog, and is not left stopped.
func TestDialogKeysNotStolenByTUI(t *testing.T) {
	e := newApprovalEnv(t)
	p := e.tmux()
	p.agent("tui.sh", "touch tui.txt")
	// A read the TUI began before guardsh took the terminal ends within
	// 50 ms; the next one finds it taken.
	time.Sleep(300 * time.Millisecond)
	p.keys("y")
	p.waitFor(`agent: exit 0`)
	m := p.waitFor(`agent: reader state (\S+)`)
	if strings.Contains(m[1], "T") {
		t.Errorf("the TUI's reader was left stopped (state %s)", m[1])
	}
	if _, err := os.Stat(filepath.Join(e.proj, "tui.txt")); err != nil {
		t.Error("approved command did not run")
	}
	log, _ := os.ReadFile(filepath.Join(e.dir, "tui.log"))
	if bytes.ContainsRune(log, 'y') {
		t.Errorf("the TUI read the dialog's key: %q", log)
	}
}

// TestDialogSIGTERM: guardsh killed mid-dialog refuses, records it and
// dies of the signal, leaving the terminal in canonical mode with echo
// and the agent running.
func TestDialogSIGTERM(t *testing.T) {
	e := newApprovalEnv(t)
	e.write("bg.sh", `#!/bin/bash
"$GS_BIN/bash" -c "$1" &
echo "agent: guardsh pid $!"
wait $!
echo "agent: exit $?"
stty -a | grep -o -- '-\?icanon\|-\?echo ' | tr '\n' ' ' | sed 's/^/agent: tty /'
echo
`, 0o755)
	p := e.tmux()
	p.agent("bg.sh", "touch term.txt")
	pid, _ := strconv.Atoi(p.waitFor(`agent: guardsh pid (\d+)`)[1])
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`^agent: exit 143$`)
	m := p.waitFor(`^agent: tty (.*)$`)
	if strings.Contains(m[1], "-icanon") || strings.Contains(m[1], "-echo") {
		t.Errorf("terminal left in raw mode: %s", m[1])
	}
	if _, err := os.Stat(filepath.Join(e.proj, "term.txt")); err == nil {
		t.Error("the command ran after SIGTERM")
	}
}

// TestDialogSIGTERMEndsTheScript: a signal in the dialog of a script's
// command read from stdin ends the script there (attack run 82: the next
// commands ran unattended and guardsh exited 0).
func TestDialogSIGTERMEndsTheScript(t *testing.T) {
	e := newApprovalEnv(t)
	e.write("script.sh", "touch first.txt\necho more > cont.txt\n", 0o644)
	e.write("bg.sh", `#!/bin/bash
"$GS_BIN/bash" < "$1" &
echo "agent: guardsh pid $!"
wait $!
echo "agent: exit $?"
`, 0o755)
	p := e.tmux()
	p.agent("bg.sh", filepath.Join(e.dir, "script.sh"))
	pid, _ := strconv.Atoi(p.waitFor(`agent: guardsh pid (\d+)`)[1])
	p.waitFor(`touch first\.txt`) // the dialog is up
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`^agent: exit 143$`)
	for _, f := range []string{"first.txt", "cont.txt"} {
		if _, err := os.Stat(filepath.Join(e.proj, f)); err == nil {
			t.Errorf("%s was made after SIGTERM", f)
		}
	}
	// Neither the agent nor the record is told the script went on, nor
	// that a headless policy refused it.
	if sc := p.screen(); strings.Contains(sc, "script goes on") || !strings.Contains(sc, "nor any after it") {
		t.Errorf("the refusal does not say the script ends there:\n%s", sc)
	}
	if rec := e.lastAudit(); !strings.Contains(rec, `"decided_by":"signal"`) {
		t.Errorf("record of the interrupted dialog: %s", rec)
	}
}

// TestAgentOwnedPtyNeverApproves: guardsh on a pty its caller holds (and
// types "y" into) treats the ask as headless.
func TestAgentOwnedPtyNeverApproves(t *testing.T) {
	e := newApprovalEnv(t)
	for _, tc := range []struct{ name, shell string }{
		{"guardsh is the session leader", ""},
		{"a shell the agent started is the session leader", "bash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(e.bin, "bash"), "-c", "touch pty.txt")
			if tc.shell != "" {
				cmd = exec.Command("/bin/bash", "-c", filepath.Join(e.bin, "bash")+" -c 'touch pty.txt'; echo status $?")
			}
			cmd.Dir, cmd.Env = e.proj, e.env
			f, err := pty.Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out bytes.Buffer
			done := make(chan struct{})
			go func() { _, _ = out.ReadFrom(f); close(done) }()
			_, _ = f.Write([]byte("y\r")) // typed ahead, too
			exited := make(chan struct{})
			go func() { _ = cmd.Wait(); close(exited) }()
			// The agent types "y" until guardsh is gone.
			stop := time.After(20 * time.Second)
		typing:
			for {
				select {
				case <-exited:
					break typing
				case <-stop:
					t.Fatal("guardsh still running after 20s on an agent-owned pty")
				case <-time.After(20 * time.Millisecond):
					_, _ = f.Write([]byte("y\r"))
				}
			}
			f.Close()
			<-done
			if _, err := os.Stat(filepath.Join(e.proj, "pty.txt")); err == nil {
				t.Fatalf("the agent approved its own command:\n%s", out.String())
			}
			if strings.Contains(out.String(), "approval needed") {
				t.Errorf("a dialog was shown on the agent's pty:\n%s", out.String())
			}
			if !strings.Contains(out.String(), "terminal not trusted") {
				t.Errorf("refusal does not say the terminal is not trusted:\n%s", out.String())
			}
		})
	}
}

// startHeadless runs guardsh -c command with no terminal and returns it
// once it names the pending approval, with the approval's id.
func (e *approvalEnv) startHeadless(command string) (*exec.Cmd, string, *bytes.Buffer) {
	e.t.Helper()
	cmd := exec.Command(filepath.Join(e.bin, "bash"), "-c", command)
	cmd.Dir, cmd.Env = e.proj, e.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	r, w, err := os.Pipe()
	if err != nil {
		e.t.Fatal(err)
	}
	cmd.Stderr = w
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	w.Close()
	var seen bytes.Buffer
	rx := regexp.MustCompile(`guardsh approve ([a-z2-7]{10})`)
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		seen.Write(buf[:n])
		if m := rx.FindSubmatch(seen.Bytes()); m != nil {
			go func() { _, _ = seen.ReadFrom(r) }()
			return cmd, string(m[1]), &seen
		}
		if err != nil {
			_ = cmd.Wait()
			e.t.Fatalf("no pending approval named:\n%s", seen.String())
		}
	}
}

// TestWaitApprovedFromAnotherTerminal: with headless: wait, `guardsh
// approve ID` typed on a human's terminal lets the waiting guardsh run the
// command within a second; the approval is then used up.
func TestWaitApprovedFromAnotherTerminal(t *testing.T) {
	e := newApprovalEnv(t)
	if err := os.WriteFile(e.cfg, []byte("approval: {headless: wait, wait: 60s}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := e.tmux()
	cmd, id, out := e.startHeadless("touch wait.txt")
	// The stamp is taken just before approve starts: exit - stamp bounds
	// the latency from above (approve's own run included).
	stamp := filepath.Join(e.dir, "approved")
	p.literal("date +%s.%N > " + stamp + "; " + filepath.Join(e.bin, "guardsh") + " approve " + id)
	p.keys("Enter")
	err := cmd.Wait()
	exited := time.Now()
	if err != nil {
		t.Fatalf("guardsh: %v\n%s", err, out)
	}
	p.waitFor(id + `: approved`)
	var data []byte
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if data, err = os.ReadFile(stamp); err == nil && len(data) > 0 || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("approve did not succeed: %v\n%s", err, p.screen())
	}
	secs, _ := strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
	latency := exited.Sub(time.Unix(0, int64(secs*1e9)))
	t.Logf("approve started → command done: %v (an upper bound of the latency)", latency)
	if latency > time.Second {
		t.Errorf("guardsh proceeded %v after the approval, want ≤ 1s", latency)
	}
	if _, err := os.Stat(filepath.Join(e.proj, "wait.txt")); err != nil {
		t.Error("approved command did not run")
	}
	// The agent was told what waits for approval, and why.
	if !strings.Contains(out.String(), "needs approval: touch wait.txt (") {
		t.Errorf("the waiting command's stderr does not say what needs approval:\n%s", out)
	}
	if names, _ := filepath.Glob(filepath.Join(e.home, ".local/state/guardsh/approvals/*.json")); len(names) != 0 {
		t.Errorf("approval not used up: %v", names)
	}
}

// TestDenyModeRetryRunsOnce: with headless: deny, an approval given after
// the refusal lets the retry of the same command run once, not twice.
func TestDenyModeRetryRunsOnce(t *testing.T) {
	e := newApprovalEnv(t)
	p := e.tmux()
	cmd, id, out := e.startHeadless("touch retry.txt")
	if err := cmd.Wait(); err == nil {
		t.Fatalf("refused command succeeded:\n%s", out)
	}
	p.literal(filepath.Join(e.bin, "guardsh") + " approve " + id)
	p.keys("Enter")
	p.waitFor(id + `: approved`)
	run := func() error {
		c := exec.Command(filepath.Join(e.bin, "bash"), "-c", "touch retry.txt")
		c.Dir, c.Env = e.proj, e.env
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		return c.Run()
	}
	if err := run(); err != nil {
		t.Fatalf("the approved retry was refused: %v", err)
	}
	// Its record carries the human's real latency, from the request to
	// `guardsh approve` (it was 0 for answers from another terminal).
	var rec audit.Record
	if err := json.Unmarshal([]byte(e.lastAudit()), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Human == nil || rec.Human.Approval != id || rec.Human.LatencyMS <= 0 {
		t.Errorf("the approved retry's record: human %+v, want approval %s with latency_ms > 0", rec.Human, id)
	} else {
		t.Logf("human latency_ms %.1f", rec.Human.LatencyMS)
	}
	if err := run(); err == nil {
		t.Fatal("the approval was used twice")
	}
	// A denial says so in a word ("denied", once "denyd").
	cmd2, id2, _ := e.startHeadless("touch denied.txt")
	_ = cmd2.Wait()
	p.literal(filepath.Join(e.bin, "guardsh") + " deny " + id2)
	p.keys("Enter")
	p.waitFor(id2 + `: denied$`)

	// Pending approvals a headless agent left behind are denied at once
	// (a new user found 19 after a quarter of an hour), from a terminal.
	var ids []string
	for _, f := range []string{"a.txt", "b.txt"} {
		c, id, _ := e.startHeadless("touch " + f)
		_ = c.Wait()
		ids = append(ids, id)
	}
	p.literal(filepath.Join(e.bin, "guardsh") + " deny --all -m 'cleared'")
	p.keys("Enter")
	p.waitFor(`^[3-9] pending approvals denied$`) // and the second retry's above
	p.literal(filepath.Join(e.bin, "guardsh") + " approvals")
	p.keys("Enter")
	p.waitFor(ids[0] + `  denied`)
	p.waitFor(ids[1] + `  denied`)
	if strings.Contains(p.screen(), "pending  expires") {
		t.Errorf("approvals still pending after deny --all:\n%s", p.screen())
	}
	// Not from the agent's side: no terminal, nothing denied.
	c := exec.Command(filepath.Join(e.bin, "guardsh"), "deny", "--all")
	c.Env = e.env
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if out, err := c.CombinedOutput(); err == nil || !strings.Contains(string(out), "refused") {
		t.Errorf("deny --all without a terminal: %v\n%s", err, out)
	}
}

// TestDialogJobControlTakesTerminal: a parent whose read of the terminal
// stops it (SIGTTIN, the default) is reported stopped by the human's
// job-control shell, which takes the terminal back; guardsh then denies at
// once (no wait for the timeout, never stopped itself), and `fg` resumes
// the agent, which gets the refusal.
func TestDialogJobControlTakesTerminal(t *testing.T) {
	e := newApprovalEnv(t)
	e.write("tui2.sh", strings.Replace(fakeTUI, "trap '' TTIN TTOU; ", "", 1), 0o755)
	p := e.tmux()
	p.reset()
	p.literal("../tui2.sh 'touch jc.txt'")
	p.keys("Enter")
	p.waitFor(`refused \(denied: the terminal was taken back \(job control\) before an answer\)`)
	p.waitFor(`Stopped`)
	p.keys("fg", "Enter")
	// (Under load the job-control lines may leave the cursor mid-line:
	// the agent's line need not start the screen's.)
	p.waitFor(`agent: exit 126$`)
	if _, err := os.Stat(filepath.Join(e.proj, "jc.txt")); err == nil {
		t.Error("the command ran without an answer")
	}
}

// TestApproveAlways: `guardsh approve ID --always` remembers the exact
// command in the user config (comments kept), so the retries run.
func TestApproveAlways(t *testing.T) {
	e := newApprovalEnv(t)
	p := e.tmux()
	cmd, id, out := e.startHeadless("touch keep.txt")
	if err := cmd.Wait(); err == nil {
		t.Fatalf("refused command succeeded:\n%s", out)
	}
	p.literal(filepath.Join(e.bin, "guardsh") + " approve " + id + " --always")
	p.keys("Enter")
	p.waitFor(`remembered: "touch keep.txt" in rules.shell.allow \(` + regexp.QuoteMeta(e.cfg) + `:\d+\)`)
	data, _ := os.ReadFile(e.cfg)
	if !strings.Contains(string(data), "# things I trust") || !strings.Contains(string(data), `"touch keep.txt"`) {
		t.Errorf("config:\n%s", data)
	}
	for range 2 {
		c := exec.Command(filepath.Join(e.bin, "bash"), "-c", "touch keep.txt")
		c.Dir, c.Env = e.proj, e.env
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("remembered command refused: %v\n%s", err, out)
		}
	}
}

// TestTmuxPopup: with approval.prompt: tmux and no terminal, guardsh shows
// the dialog in a popup on the human's tmux client; the key typed there
// approves. A tmux server younger than the agent is not used.
func TestTmuxPopup(t *testing.T) {
	e := newApprovalEnv(t)
	if err := os.WriteFile(e.cfg, []byte("approval: {prompt: tmux, timeout: 60s}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := e.tmux()
	// The human's terminal emulator: a client attached on a pty.
	client := exec.Command("tmux", "-L", p.sock, "attach", "-t", "t")
	client.Env = p.env
	f, err := pty.StartWithSize(client, &pty.Winsize{Rows: 40, Cols: 160})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var screen bytes.Buffer
	var mu sync.Mutex
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			mu.Lock()
			screen.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	p.waitFor(`human\$ $`)
	for strings.TrimSpace(p.run("list-clients")) == "" {
		time.Sleep(50 * time.Millisecond)
	}
	tmuxEnv := strings.TrimSpace(p.run("display", "-p", "#{socket_path},#{pid},0"))
	status := filepath.Join(e.dir, "status")
	// The agent starts after the human's tmux server.
	agent := exec.Command("/bin/sh", "-c", filepath.Join(e.bin, "bash")+" -c 'touch pop.txt'; echo $? > "+status)
	agent.Dir, agent.Env = e.proj, append(slices.Clone(e.env), "TMUX="+tmuxEnv)
	agent.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var agentErr bytes.Buffer
	agent.Stderr = &agentErr
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		shown := strings.Contains(screen.String(), "[n] deny")
		mu.Unlock()
		if shown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no popup; agent said:\n%s", agentErr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the popup's dialog reaches its read
	if _, err := f.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	if err := agent.Wait(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(status); strings.TrimSpace(string(data)) != "0" {
		t.Fatalf("agent's command: status %q\n%s", data, agentErr.String())
	}
	if _, err := os.Stat(filepath.Join(e.proj, "pop.txt")); err != nil {
		t.Error("approved command did not run")
	}
	if rec := e.lastAudit(); !strings.Contains(rec, `"decided_by":"human"`) {
		t.Errorf("audit record: %s", rec)
	}
}
