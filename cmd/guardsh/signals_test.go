package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSignalsReachTheShell sends SIGINT, SIGTERM and SIGHUP to guardsh
// (not to its process group, as an agent killing its shell does) and
// requires the real shell to receive each one.
func TestSignalsReachTheShell(t *testing.T) {
	self, dir, config := bypassed(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			name := sig.String()
			script := `trap 'echo "got $1"; exit 9' ` + sigName(sig) + `; echo ready; while :; do sleep 0.05; done`
			cmd := exec.Command(self)
			cmd.Args = []string{"bash", "-c", script, "bash", name}
			cmd.Env = append(os.Environ(), "GUARDSH_CONFIG="+config, "GUARDSH_AUDIT="+filepath.Join(dir, "audit.jsonl"), "GUARDSH_MODE=")
			// Its own process group, so only guardsh gets the signal.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }()
			lines := bufio.NewScanner(out)
			if !lines.Scan() || lines.Text() != "ready" {
				t.Fatalf("want ready, got %q", lines.Text())
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				var rest []string
				for lines.Scan() {
					rest = append(rest, lines.Text())
				}
				err := cmd.Wait()
				if len(rest) != 1 || rest[0] != "got "+name {
					err = fmt.Errorf("shell printed %q, want %q (wait: %v)", rest, "got "+name, err)
				}
				done <- err
			}()
			select {
			case err := <-done:
				var exitErr *exec.ExitError
				if !errors.As(err, &exitErr) || exitErr.ExitCode() != 9 {
					t.Fatalf("want exit status 9 from the trap, got %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the shell never received the signal")
			}
		})
	}
}

func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "INT"
	case syscall.SIGTERM:
		return "TERM"
	}
	return "HUP"
}

// TestDiesOfTheCommandsSignal: a command that dies of SIGINT, SIGTERM or
// SIGHUP leaves guardsh dying of the same signal once its record is
// written, as bash does, so that the caller (a shell's loop, a CI runner)
// sees a death by that signal and not an exit status of 128+N (a new
// user's CI step killed by SIGTERM was reported as one that exited 143).
func TestDiesOfTheCommandsSignal(t *testing.T) {
	self, dir, config := bypassed(t)
	log := filepath.Join(dir, "audit.jsonl")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(self)
			cmd.Args = []string{"bash", "-c", "kill -" + sigName(sig) + " $$; echo survived"}
			cmd.Env = append(os.Environ(), "GUARDSH_CONFIG="+config, "GUARDSH_AUDIT="+log, "GUARDSH_MODE=")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			out, _ := cmd.Output()
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig || len(out) > 0 {
				t.Errorf("guardsh ended %v (%s), want death by %v", cmd.ProcessState, out, sig)
			}
		})
	}
	data, err := os.ReadFile(log)
	if err != nil || bytes.Count(data, []byte("\n")) != 3 {
		t.Errorf("want a record of each command: %v\n%s", err, data)
	}
}

// bypassed returns this test binary (guardsh, run by name), a temporary
// directory and a config of mode bypass in it.
func bypassed(t *testing.T) (self, dir, config string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	config = filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(config, []byte("mode: bypass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return self, dir, config
}
