package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFullDiskKeepsTheRecord runs guardsh with its log and the workspace on
// one small file system: a command that fills it still gets its record
// (room for it was held while it ran), and the next command, for which no
// room can be held, does not run (an attack run filled a small file system
// and every later command ran with no record, `audit verify` saying ok).
func TestFullDiskKeepsTheRecord(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := unix.Mount("tmpfs", root, "tmpfs", 0, "size="+strconv.Itoa(8<<20)); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(root, unix.MNT_DETACH) })
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, ".git"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(root, "guardsh.yaml")
	if err := os.WriteFile(config, []byte("mode: bypass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(home, ".local", "state", "guardsh", "audit.jsonl")
	env := append(os.Environ(), "HOME="+home, "GUARDSH_CONFIG="+config, "GUARDSH_AUDIT=", "XDG_STATE_HOME=", "XDG_CONFIG_HOME=",
		"GUARDSH_MODE=", "BASH_ENV=", "ENV=")
	run := func(command string) (string, int) {
		cmd := exec.Command(self, "-c", command)
		cmd.Args[0] = "guardsh"
		cmd.Env, cmd.Dir = env, ws
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		status := 0
		if e, ok := err.(*exec.ExitError); ok {
			status = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), status
	}
	if out, status := run("head -c 20000000 /dev/zero > fill; echo ran"); !strings.Contains(out, "ran") {
		t.Fatalf("the fill did not run: %d %s", status, out)
	}
	data, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(data), "head -c 20000000") {
		t.Fatalf("the fill's record is missing: %v\n%s", err, data)
	}
	out, status := run("echo should-not-run")
	if status != 126 || strings.Contains(out, "should-not-run\n") || !strings.Contains(out, "refusing to run without an audit record") {
		t.Fatalf("on a full disk: status %d\n%s", status, out)
	}
	// Room again: commands run and are recorded.
	if err := os.Remove(filepath.Join(ws, "fill")); err != nil {
		t.Fatal(err)
	}
	if out, status := run("echo again"); status != 0 || !strings.Contains(out, "again") {
		t.Fatalf("after the fill was removed: %d %s", status, out)
	}
	if data, _ := os.ReadFile(logPath); !strings.Contains(string(data), "echo again") {
		t.Fatal("no record of the command after the fill was removed")
	}
	// A script on stdin: each command's record is written as it is
	// handed to bash, before it runs, with room held for the next.
	cmd := exec.Command(self)
	cmd.Args[0] = "guardsh"
	cmd.Env, cmd.Dir = env, ws
	cmd.Stdin = strings.NewReader("head -c 20000000 /dev/zero > fill; echo one\necho two\n")
	script, _ := cmd.CombinedOutput()
	data, _ = os.ReadFile(logPath)
	for _, c := range []string{"echo one", "echo two"} {
		if strings.Contains(string(script), c[5:]+"\n") && !strings.Contains(string(data), c) {
			t.Errorf("%q ran without a record:\n%s", c, script)
		}
	}
}
