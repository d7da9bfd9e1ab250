package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
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
