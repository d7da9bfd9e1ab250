package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// Commands on a pty of their own, end to end: guardsh runs in a tmux
// pane (a real terminal, a real bash), and the tests type keys, resize the
// window and read the screen.

// ptyConfig lets everything run, so that no dialog comes between the
// test and the command, and records what runs on a pty.
const ptyConfig = "mode: ask\nrecord: true\nrules:\n  shell:\n    allow: [\"*\"]\n"

func newPtyEnv(t *testing.T, config string) (*approvalEnv, *tmuxPane) {
	t.Helper()
	e := newApprovalEnv(t)
	if err := os.WriteFile(e.cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return e, e.tmux()
}

// gs types a guardsh command line in the pane, followed by lines that
// print its exit status and the terminal's canonical-mode and echo flags.
func (p *tmuxPane) gs(command string) {
	p.t.Helper()
	p.reset()
	p.literal(`"$GS_BIN/guardsh" -c '` + command + `'; echo "exit=$?"; stty -a | grep -o -- '-\?icanon\|-\?echo ' | tr '\n' ' ' | sed 's/^/tty: /'; echo`)
	p.keys("Enter")
}

// interrupted waits, after a Ctrl-C that ended the command, for the
// pane's shell: guardsh died of SIGINT as bash would, so the shell dropped
// the rest of the line; it then checks $? (130) and the terminal.
func (p *tmuxPane) interrupted() {
	p.t.Helper()
	p.waitFor(`human\$ $`)
	p.literal(`echo "exit=$?"; stty -a | grep -o -- '-\?icanon\|-\?echo ' | tr '\n' ' ' | sed 's/^/tty: /'; echo`)
	p.keys("Enter")
	p.waitFor(`exit=130$`)
	p.restored()
}

// restored checks the terminal after guardsh: canonical mode and echo on.
func (p *tmuxPane) restored() {
	p.t.Helper()
	m := p.waitFor(`^tty: (.*)$`)
	if !strings.Contains(m[1], "icanon") || strings.Contains(m[1], "-icanon") || strings.Contains(m[1], "-echo") {
		p.t.Errorf("terminal not restored: %s", m[1])
	}
}

func TestPtyFullScreenProgram(t *testing.T) {
	if _, err := exec.LookPath("vi"); err != nil {
		t.Skip("no vi")
	}
	e, p := newPtyEnv(t, ptyConfig)
	p.gs(`vi -u NONE -N notes.txt`)
	p.waitFor(`"notes.txt" \[New`)
	p.literal("ihello from vi")
	p.keys("Escape")
	p.literal(":wq")
	p.keys("Enter")
	p.waitFor(`^exit=0$`)
	p.restored()
	data, err := os.ReadFile(filepath.Join(e.proj, "notes.txt"))
	if err != nil || string(data) != "hello from vi\n" {
		t.Errorf("vi wrote %q (%v)", data, err)
	}
}

func TestPtyResizeReachesCommand(t *testing.T) {
	_, p := newPtyEnv(t, ptyConfig)
	// The loop of short sleeps (bash runs a trap only once its foreground
	// child ends) stops once the new size is seen; Ctrl-C then lands on
	// one long sleep. (A Ctrl-C landing as a short sleep exits by itself
	// leaves bash looping, as it does outside guardsh too.)
	p.gs(`onwinch() { s=$(stty size); echo "$s"; [ "$s" = "40 120" ] && resized=1; }; stty size; trap onwinch WINCH; echo ready; until [ -n "$resized" ]; do sleep 0.05; done; echo waiting; sleep 100`)
	p.waitFor(`^50 200\s*$`)
	p.waitFor(`^ready`)
	p.run("resize-window", "-t", "t", "-x", "120", "-y", "40")
	p.waitFor(`^40 120\s*$`)
	p.waitFor(`^waiting`)
	p.keys("C-c")
	p.interrupted()
}

func TestPtyCtrlCInterrupts(t *testing.T) {
	_, p := newPtyEnv(t, ptyConfig)
	p.gs(`echo sleeping; sleep 100`)
	p.waitFor(`^sleeping`)
	start := time.Now()
	p.keys("C-c")
	p.waitFor(`human\$ $`)
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("Ctrl-C took %v", d)
	}
	p.interrupted()
}

// TestPtySignalRestoresTerminal: guardsh sent SIGTERM or SIGHUP while its
// command runs on a pty forwards the signal and leaves the terminal as it
// found it.
func TestPtySignalRestoresTerminal(t *testing.T) {
	_, p := newPtyEnv(t, ptyConfig)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		p.gs(`echo "pid $PPID"; sleep 100`)
		pid, _ := strconv.Atoi(p.waitFor(`^pid (\d+)`)[1])
		// $PPID of the command's bash is guardsh.
		if err := syscall.Kill(pid, sig); err != nil {
			t.Fatal(err)
		}
		p.waitFor(fmt.Sprintf(`^exit=%d$`, 128+int(sig)))
		p.restored()
	}
}

func TestPtyNotForPipes(t *testing.T) {
	_, p := newPtyEnv(t, ptyConfig)
	p.reset()
	p.literal(`"$GS_BIN/guardsh" -c 'printf "a\nb\n"; [ -t 1 ] || echo "not a tty"' | od -c; echo done`)
	p.keys("Enter")
	s := p.waitFor(`(?s)0000000.*\ndone`)[0]
	if strings.Contains(s, `\r`) || !strings.Contains(s, `a  \n   b  \n`) {
		t.Errorf("piped output went through a pty:\n%s", s)
	}
}

// TestPtyManyLinesArrive: every line of a long output reaches the far end
// (tmux, which copies what the pane prints to a file), the last ones
// printed just before the command's exit included.
func TestPtyManyLinesArrive(t *testing.T) {
	const lines = 200000
	e, p := newPtyEnv(t, "mode: ask\nrules:\n  shell:\n    allow: [\"*\"]\n")
	p.reset()
	copyFile := filepath.Join(e.dir, "pane.out")
	p.run("pipe-pane", "-t", "t", "-o", "cat >> "+copyFile)
	p.gs(fmt.Sprintf(`echo "on $(tty)"; echo begin-lines; seq %d; echo end-lines`, lines))
	p.waitFor(`^exit=0$`)
	paneTTY := strings.TrimSpace(p.run("display", "-p", "-t", "t", "#{pane_tty}"))
	p.run("pipe-pane", "-t", "t")
	var data []byte
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ = os.ReadFile(copyFile)
		if bytes.Contains(data, []byte("end-lines\r\n")) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The command's terminal is not the pane's: guardsh's pty.
	if m := regexp.MustCompile(`on (/dev/pts/\d+)\r\n`).FindSubmatch(data); m == nil || string(m[1]) == paneTTY {
		t.Errorf("the command did not run on a pty of its own (pane: %s): %q", paneTTY, m)
	}
	_, rest, ok := bytes.Cut(data, []byte("begin-lines\r\n"))
	body, _, ok2 := bytes.Cut(rest, []byte("end-lines\r\n"))
	if !ok || !ok2 {
		t.Fatalf("markers missing in %d bytes", len(data))
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		n++
		if want := strconv.Itoa(n); sc.Text() != want { // ScanLines drops the pty's \r
			t.Fatalf("line %d is %q", n, sc.Text())
		}
	}
	if n != lines {
		t.Errorf("%d lines arrived, want %d", n, lines)
	}
	t.Logf("%d of %d lines arrived through the pty and tmux", n, lines)
}

// checkCast checks every line of an asciicast v2 file: a header object
// with version 2, positive width and height and an integer timestamp;
// then events [time, code, data], times non-decreasing, code one of o, i,
// r, m, data a string (r: COLSxROWS). It returns the output.
func checkCast(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatalf("header %q: %v", lines[0], err)
	}
	for _, k := range []string{"version", "width", "height", "timestamp"} {
		v, ok := h[k].(float64)
		if !ok || v != float64(int64(v)) || v <= 0 {
			t.Errorf("header %s = %v, want a positive integer", k, h[k])
		}
	}
	if h["version"] != 2.0 {
		t.Errorf("version %v", h["version"])
	}
	var out strings.Builder
	last := 0.0
	for i, l := range lines[1:] {
		var ev []any
		if err := json.Unmarshal([]byte(l), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("line %d %q: not a 3-element array (%v)", i+2, l, err)
		}
		tm, ok1 := ev[0].(float64)
		code, ok2 := ev[1].(string)
		s, ok3 := ev[2].(string)
		if !ok1 || !ok2 || !ok3 || tm < last || !strings.Contains("oirm", code) || len(code) != 1 {
			t.Fatalf("line %d %q: want [time ≥ %g, o|i|r|m, string]", i+2, l, last)
		}
		if code == "r" && !regexp.MustCompile(`^\d+x\d+$`).MatchString(s) {
			t.Errorf("line %d: resize %q", i+2, s)
		}
		if code == "o" {
			out.WriteString(s)
		}
		last = tm
	}
	return out.String()
}

func TestPtyRecordingReplays(t *testing.T) {
	e, p := newPtyEnv(t, ptyConfig)
	p.gs(`echo "recorded $((6*7))"; printf "caf\303\251\n"`)
	p.waitFor(`^exit=0$`)
	var rec struct{ ID, Recording string }
	if err := json.Unmarshal([]byte(e.lastAudit()), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Recording != rec.ID+".cast" {
		t.Fatalf("audit record's recording %q, id %q", rec.Recording, rec.ID)
	}
	dir := filepath.Join(e.home, ".local", "state", "guardsh", "recordings")
	path := filepath.Join(dir, rec.Recording)
	for f, want := range map[string]os.FileMode{dir: 0o700, path: 0o600} {
		if info, err := os.Stat(f); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", f, info.Mode().Perm(), err, want)
		}
	}
	if out := checkCast(t, path); !strings.Contains(out, "recorded 42\r\ncafé\r\n") {
		t.Errorf("recorded output %q", out)
	}
	cmd := exec.Command(filepath.Join(e.bin, "guardsh"), "replay", "--speed", "50", "--idle-limit", "0.1", rec.ID)
	cmd.Env, cmd.Dir = e.env, e.proj
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "recorded 42\r\ncafé\r\n") {
		t.Errorf("replay: %v\n%q", err, out)
	}
	// The standard player plays it too (it needs a terminal: the pane).
	if _, err := exec.LookPath("asciinema"); err != nil {
		t.Log("asciinema not installed: the standard player not tried")
		return
	}
	p.reset()
	p.literal("asciinema play -s 20 -i 0.1 " + path + `; echo "played=$?"`)
	p.keys("Enter")
	p.waitFor(`(?s)recorded 42\s*\ncafé\s*\nplayed=0$`)
}

// TestRecordRequired: with record: required a command whose recording
// cannot be opened does not run; with record: true it runs, with a
// warning.
func TestRecordRequired(t *testing.T) {
	e, p := newPtyEnv(t, strings.Replace(ptyConfig, "record: true", "record: required", 1))
	state := filepath.Join(e.home, ".local", "state", "guardsh")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	// A file where the recordings directory belongs.
	if err := os.WriteFile(filepath.Join(state, "recordings"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p.gs(`touch ran.txt`)
	p.waitFor(`^exit=126$`)
	p.waitFor(`refusing to run without a recording \(record: required in `)
	if _, err := os.Stat(filepath.Join(e.proj, "ran.txt")); err == nil {
		t.Error("the command ran without its recording")
	}
	if !strings.Contains(e.lastAudit(), `"error":"recordings directory`) {
		t.Errorf("audit record: %s", e.lastAudit())
	}
	if err := os.WriteFile(e.cfg, []byte(ptyConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	p.gs(`touch ran.txt`)
	p.waitFor(`^exit=0$`)
	p.waitFor(`running without a recording`)
	if _, err := os.Stat(filepath.Join(e.proj, "ran.txt")); err != nil {
		t.Error("record: true: the command did not run")
	}
}

// TestPtyJailedCommand: a command the sandbox runs jailed gets its pty
// too (the jail's start is given the command with the pty set), and is
// still jailed.
func TestPtyJailedCommand(t *testing.T) {
	if sandbox.Unavailable() != "" {
		t.Skip("no Landlock: " + sandbox.Unavailable())
	}
	e, p := newPtyEnv(t, "mode: ask\nrecord: true\nsandbox: workspace\n")
	if err := exec.Command("/bin/cp", "/bin/sh", filepath.Join(e.proj, "tool")).Run(); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(e.dir, "outside.txt")
	p.gs(`./tool -c "[ -t 0 ] && [ -t 1 ] && echo jailed-on-a-tty; touch ` + outside + `"`)
	p.waitFor(`^jailed-on-a-tty`)
	p.waitFor(`^exit=1$`)
	p.restored()
	if _, err := os.Stat(outside); err == nil {
		t.Error("the jailed command wrote outside the workspace")
	}
	last := e.lastAudit()
	if !strings.Contains(last, `"sandbox":"workspace"`) || !strings.Contains(last, `"recording":"`) {
		t.Errorf("audit record: %s", last)
	}
}

// TestPtyCtrlZReachesCommand: Ctrl-Z reaches the command as SIGTSTP
// through its pty (a command that traps it sees it); one that does not
// trap it is not stopped (its process group, in a session of its own, is
// orphaned: the kernel discards the stop) and Ctrl-C still ends it.
func TestPtyCtrlZReachesCommand(t *testing.T) {
	_, p := newPtyEnv(t, ptyConfig)
	// bash runs the trap once its foreground child ends (sleep 2), then
	// waits on sleep 100, which Ctrl-C kills. (A loop of short sleeps
	// made this flaky: a Ctrl-C that lands as a sleep exits by itself
	// leaves bash running the loop, as bash does outside guardsh too.)
	p.gs(`trap "echo got-TSTP" TSTP; echo ready; sleep 2; sleep 100`)
	p.waitFor(`^ready`)
	p.keys("C-z")
	p.waitFor(`got-TSTP`)
	p.keys("C-c")
	p.interrupted()
	p.gs(`echo ready; sleep 100`)
	p.waitFor(`^ready`)
	p.keys("C-z")
	time.Sleep(200 * time.Millisecond)
	p.keys("C-c")
	p.interrupted()
	p.restored()
}

// TestPtySetting: pty: auto gives a pty only when stdin and stdout are the
// terminal; always also when only stdout is (the command keeps its
// stdin); never gives none.
func TestPtySetting(t *testing.T) {
	e, p := newPtyEnv(t, ptyConfig)
	pane := strings.TrimSpace(p.run("display", "-p", "-t", "t", "#{pane_tty}"))
	for _, c := range []struct {
		setting, stdin string
		pty            bool
	}{
		{"auto", "", true},
		{"auto", " < /dev/null", false},
		// A background job is not in the terminal's foreground group.
		{"auto", " & wait $!", false},
		{"always", " < /dev/null", true},
		{"never", "", false},
	} {
		if err := os.WriteFile(e.cfg, []byte("pty: "+c.setting+"\n"+ptyConfig), 0o600); err != nil {
			t.Fatal(err)
		}
		p.reset()
		// readlink inherits the command's stdin and stderr (stdout is
		// the substitution's pipe; stderr goes where stdout does here).
		p.literal(`"$GS_BIN/guardsh" -c 'echo "out=$(readlink /proc/self/fd/2) in=$(readlink /proc/self/fd/0)"'` + c.stdin + `; echo "exit=$?"`)
		p.keys("Enter")
		m := p.waitFor(`out=(\S+) in=(\S+)\s*\n(?:.*\n)*?exit=0`)
		if gotPty := m[1] != pane; gotPty != c.pty {
			t.Errorf("pty: %s, stdin%s: stdout is %s (pane %s), want a pty: %v", c.setting, c.stdin, m[1], pane, c.pty)
		}
		if strings.HasPrefix(c.stdin, " <") && m[2] != "/dev/null" {
			t.Errorf("pty: %s: the command's stdin is %s, want /dev/null", c.setting, m[2])
		}
	}
	// pty: always with stdin elsewhere: the outer terminal is not raw;
	// Ctrl-C there reaches the command's process group on its pty too
	// (not only its bash, which would wait for sleep to end).
	if err := os.WriteFile(e.cfg, []byte("pty: always\n"+ptyConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	p.reset()
	p.literal(`"$GS_BIN/guardsh" -c 'echo ready; sleep 100; echo after' < /dev/null; echo "exit=$?"`)
	p.keys("Enter")
	p.waitFor(`^ready`)
	p.keys("C-c")
	p.interrupted()
	if s := p.screen(); regexp.MustCompile(`(?m)^after$`).MatchString(s) {
		t.Errorf("Ctrl-C with pty: always and stdin /dev/null:\n%s", s)
	}
}

// Whoever types at an allowed command's terminal cannot run a command from
// its pager: less's shell escape is refused (LESSSECURE, attack-run find).
func TestPtyPagerCannotRunCommands(t *testing.T) {
	e, p := newPtyEnv(t, "mode: ask\nrules:\n  shell:\n    allow: [\"less *\"]\n")
	page := filepath.Join(e.proj, "page.txt")
	if err := os.WriteFile(page, []byte(strings.Repeat("line\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(e.dir, "escaped")
	p.gs(`less page.txt`)
	p.waitFor(`^line`)
	p.literal("!touch " + marker)
	p.keys("Enter")
	time.Sleep(300 * time.Millisecond)
	p.keys("q")
	p.keys("q")
	p.waitFor(`exit=`)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("less ran a shell command from the pager:\n%s", p.screen())
	}
}

// Ctrl-C on a command ends a calling shell's loop as it does with bash:
// guardsh dies of the SIGINT its command died of (nu7 find).
func TestCtrlCStopsCallersLoop(t *testing.T) {
	_, p := newPtyEnv(t, ptyConfig)
	p.reset()
	p.literal(`for i in 1 2 3; do "$GS_BIN/guardsh" -c 'echo sleeping; sleep 100'; echo "next $i"; done; echo loop-done`)
	p.keys("Enter")
	p.waitFor(`^sleeping`)
	p.keys("C-c")
	time.Sleep(500 * time.Millisecond)
	p.literal(`echo "after $?"`)
	p.keys("Enter")
	p.waitFor(`^after `)
	if s := p.screen(); regexp.MustCompile(`(?m)^(next 1|loop-done)$`).MatchString(s) {
		t.Errorf("the loop went on after Ctrl-C:\n%s", s)
	}
}
