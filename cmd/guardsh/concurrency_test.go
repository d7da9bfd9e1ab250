package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/rules"
)

// TestConcurrentAuditAppends starts 64 guardsh processes at once, each
// running one command, and requires 64 whole, parseable, distinct records.
func TestConcurrentAuditAppends(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logPath := filepath.Join(dir, "audit.jsonl")
	config := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(config, []byte("mode: bypass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A long command makes each record bigger than PIPE_BUF, so
			// interleaved writes would show.
			pad := fmt.Sprintf("%08d", i)
			for len(pad) < 8192 {
				pad += pad
			}
			cmd := exec.Command(self)
			cmd.Args = []string{"bash", "-c", fmt.Sprintf("echo %d >/dev/null # %s", i, pad)}
			cmd.Env = append(os.Environ(), "GUARDSH_AUDIT="+logPath, "GUARDSH_CONFIG="+config, "GUARDSH_MODE=")
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("process %d: %v: %s", i, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	f, err := os.Open(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	ids := map[string]bool{}
	commands := map[string]bool{}
	lines := 0
	for sc.Scan() {
		lines++
		var rec struct {
			ID       string `json:"id"`
			Command  string `json:"command"`
			Decision string `json:"decision"`
			Exit     *int   `json:"exit"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("line %d is not a whole JSON record: %v", lines, err)
		}
		if rec.Decision != "allow" || rec.Exit == nil || *rec.Exit != 0 {
			t.Errorf("line %d: decision %q exit %v, want allow and 0", lines, rec.Decision, rec.Exit)
		}
		ids[rec.ID] = true
		commands[rec.Command] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines != n || len(ids) != n || len(commands) != n {
		t.Fatalf("got %d lines, %d distinct ids, %d distinct commands; want %d of each", lines, len(ids), len(commands), n)
	}
}

// TestParallelCommandsDoNotStall starts twenty guardsh processes at once,
// six times, in one workspace with the sandbox on: each command runs
// jailed (git status; a write to the temp directory) while the others
// decide. None may be refused: a process that took the workspace's turn
// ahead, then waited for the jailed commands to end before deciding,
// held the turn one of them waited for, and a new user's rounds stalled
// for 90 s with most commands refused.
func TestParallelCommandsDoNotStall(t *testing.T) {
	if why := sandbox.Unavailable(); why != "" {
		t.Skipf("sandbox %s", why)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// HOME outside the temp directory, which the jail writes.
	root, err := os.MkdirTemp("/var/tmp", "guardsh-parallel-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	home, ws, tmp := filepath.Join(root, "home"), filepath.Join(root, "ws"), t.TempDir()
	for _, d := range []string{filepath.Join(home, ".config", "guardsh"), filepath.Join(ws, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", ws).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(ws, "f"), []byte("def x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The starter policy, as the README has a user turn the sandbox on.
	config := strings.Replace(strings.Replace(string(rules.DefaultConfig()), "\nmode: ask\n", "\nmode: auto\n", 1), "\n# sandbox: workspace ", "\nsandbox: workspace ", 1)
	if !strings.Contains(config, "\nsandbox: workspace ") {
		t.Fatal("the starter policy has no sandbox line to turn on")
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "guardsh", "config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"TMPDIR="+tmp, "GUARDSH_CONFIG=", "GUARDSH_AUDIT=", "GUARDSH_MODE=")
	for round := range 6 {
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(self)
				cmd.Args = []string{"bash", "-c", fmt.Sprintf("git status --short >/dev/null; grep -c def f >/dev/null; echo %d > %s/par-%d.txt", i, tmp, i)}
				cmd.Dir, cmd.Env = ws, env
				if out, err := cmd.CombinedOutput(); err != nil {
					errs <- fmt.Errorf("round %d, process %d: %v: %s", round, i, err, out)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if t.Failed() {
			return
		}
	}
}
