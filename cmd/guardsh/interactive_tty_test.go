package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// openhandsPS1 is the prompt OpenHands sets in its interactive bash: a JSON
// marker after each command with the exit status and the directory.
const openhandsPS1 = `export PS1='\n###PS1JSON###\n{"exit_code": "$?", "working_dir": "$(pwd)", "py_interpreter_path": "$(command -v python3 || echo "")"}\n###PS1END###\n'; export PS2=""`

// TestInteractiveSession types into an interactive guardsh on a terminal
// (tmux): allowed lines run, a denied one is refused and the session goes
// on, cd and a function defined on one line are there on the next, and an
// OpenHands-style PS1 marker follows every command.
func TestInteractiveSession(t *testing.T) {
	e := newApprovalEnv(t)
	if err := os.Mkdir(filepath.Join(e.proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "mode: ask\nrules:\n  shell:\n    deny: [\"rm -rf *\"]\n"
	if err := os.WriteFile(e.cfg, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	p := e.tmux()
	p.reset()
	p.literal(`PS1='gs> ' "$GS_BIN/guardsh" --norc -i`)
	p.keys("Enter")
	p.waitFor(`^gs> $`)
	p.literal(openhandsPS1)
	p.keys("Enter")
	p.waitFor(`###PS1END###\n(.*\n)*$`)
	lines := []string{
		"cd sub",
		`greet() { echo "hi $1 from $(basename "$PWD")"; }`,
		"greet you",
		"rm -rf /tmp/guardsh-nothing-here",
		`echo "after $?"`,
		"alias ll='echo listed'",
		"ll",
	}
	for i, line := range lines {
		p.literal(line)
		p.keys("Enter")
		// One more marker per command: the session answered.
		p.waitFor(regexp.QuoteMeta(line) + `\n(.*\n)*###PS1END###\n*$`)
		if n := strings.Count(p.screen(), "###PS1END###"); n != i+3 {
			t.Fatalf("after %q: %d markers, want %d:\n%s", line, n, i+3, p.screen())
		}
	}
	screen := p.screen()
	found := regexp.MustCompile(`###PS1JSON###\n(\{.*\})\n###PS1END###`).FindAllStringSubmatch(screen, -1)
	if len(found) != len(lines)+1 {
		t.Fatalf("%d PS1 markers for %d commands:\n%s", len(found), len(lines)+1, screen)
	}
	type marker struct {
		Exit string `json:"exit_code"`
		Dir  string `json:"working_dir"`
	}
	var got []marker
	for _, m := range found {
		var mk marker
		if err := json.Unmarshal([]byte(m[1]), &mk); err != nil {
			t.Fatalf("marker %q: %v", m[1], err)
		}
		got = append(got, mk)
	}
	sub := filepath.Join(e.proj, "sub")
	if got[0].Dir != e.proj || got[1].Dir != sub || got[len(got)-1].Dir != sub {
		t.Errorf("directories in the markers: %+v, want %s then %s", got, e.proj, sub)
	}
	if got[4].Exit != "126" || got[3].Exit != "0" || got[5].Exit != "0" {
		t.Errorf("exit codes in the markers: %+v, want 0 for greet, 126 for the denied rm", got)
	}
	for _, want := range []string{"hi you from sub\n", "guardsh: denied: rm -rf /tmp/guardsh-nothing-here", "after 126\n", "listed\n"} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	// Each line is an audit record, the refused one too.
	data, err := os.ReadFile(filepath.Join(e.home, ".local", "state", "guardsh", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Command  string `json:"command"`
			Decision string `json:"decision"`
			Exit     *int   `json:"exit"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		exit := "-"
		if rec.Exit != nil {
			exit = string(rune('0' + *rec.Exit))
		}
		decisions = append(decisions, strings.TrimSpace(rec.Command)+" => "+rec.Decision+" "+exit)
	}
	for _, want := range []string{"greet you => allow 0", "rm -rf /tmp/guardsh-nothing-here => deny -", "cd sub => allow 0"} {
		if !strings.Contains(strings.Join(decisions, "\n"), want) {
			t.Errorf("audit lacks %q:\n%s", want, strings.Join(decisions, "\n"))
		}
	}
	// An empty line and a comment get a fresh prompt (and marker), as in
	// bash; Ctrl-C at the prompt drops what was typed and sets $? to 130.
	// Each step waits for its prompt, as an agent waits for the marker.
	markers := func() int { return strings.Count(p.screen(), "###PS1END###") }
	step := func(send func()) {
		t.Helper()
		before := markers()
		send()
		for i := 0; i < 600 && markers() == before; i++ {
			time.Sleep(100 * time.Millisecond)
		}
		if markers() == before {
			t.Fatalf("no new prompt:\n%s", p.screen())
		}
	}
	step(func() { p.keys("Enter") })
	step(func() { p.literal("# only a comment"); p.keys("Enter") })
	step(func() {
		p.literal("half typed")
		p.waitFor(`half typed$`) // echoed before the Ctrl-C, on a loaded machine too
		p.keys("C-c")
	})
	step(func() { p.literal(`echo "status $?"`); p.keys("Enter") })
	p.waitFor(`^status 130$`)
	if !strings.Contains(p.screen(), "half typed^C") {
		t.Errorf("Ctrl-C shows no ^C:\n%s", p.screen())
	}
	if strings.Contains(p.screen(), "needs approval") {
		t.Errorf("something was decided:\n%s", p.screen())
	}
	// exit ends the session with its status; the human's shell is back.
	p.literal("exit 3")
	p.keys("Enter")
	p.waitFor(`human\$ $`)
	p.literal(`echo "status $?"`)
	p.keys("Enter")
	p.waitFor(`^status 3$`)
}

// SIGTERM to a session waiting at its prompt (terminal in raw mode) ends
// it with 128+15 and leaves the terminal in its normal mode.
func TestInteractiveSIGTERM(t *testing.T) {
	e := newApprovalEnv(t)
	p := e.tmux()
	p.reset()
	p.literal(`PS1='gs> ' "$GS_BIN/guardsh" --norc -i`)
	p.keys("Enter")
	p.waitFor(`^gs> $`)
	p.literal("half")
	// guardsh is the child of the pane's shell.
	panePid := strings.TrimSpace(p.run("display-message", "-p", "-t", "t", "#{pane_pid}"))
	out, err := exec.Command("pgrep", "-P", panePid).Output()
	if err != nil {
		t.Fatalf("pgrep -P %s: %v", panePid, err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(out))[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`human\$ $`)
	p.literal(`echo "status $?"; stty -a | grep -o -- '-\?icanon\|-\?echo ' | tr '\n' ' '; echo`)
	p.keys("Enter")
	p.waitFor(`^status 143$`)
	p.waitFor(`^icanon echo +$`)
}
