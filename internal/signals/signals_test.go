package signals

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// The helper process: Watch, then (with SIGNALS_HANDLE) a handler of its
// own, then SIGTERM to itself; it prints "alive" and exits 0 if it
// survives.
func TestMain(m *testing.M) {
	if os.Getenv("SIGNALS_HELPER") != "" {
		Watch()
		if os.Getenv("SIGNALS_HANDLE") != "" {
			c := make(chan os.Signal, 1)
			signal.Notify(c, syscall.SIGTERM)
			done := Handle()
			_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
			<-c
			done()
			signal.Stop(c)
			os.Stdout.WriteString("handled\n")
			// With the handler gone, the next one ends the process.
			_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
			time.Sleep(2 * time.Second)
			os.Stdout.WriteString("alive\n")
			os.Exit(0)
		}
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(2 * time.Second)
		os.Stdout.WriteString("alive\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(t *testing.T, handle bool) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "SIGNALS_HELPER=1")
	if handle {
		cmd.Env = append(cmd.Env, "SIGNALS_HANDLE=1")
	}
	out, err := cmd.Output()
	return string(out), err
}

func diedOf(err error, sig syscall.Signal) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == sig
}

// TestWatchKeepsTheDefault: with the signals registered ahead and no
// handler of guardsh's own active, SIGTERM ends the process as its default
// does (a Ctrl-C or a kill while a command is decided must not be
// swallowed, leaving guardsh to run it).
func TestWatchKeepsTheDefault(t *testing.T) {
	out, err := helper(t, false)
	if !diedOf(err, syscall.SIGTERM) {
		t.Fatalf("output %q, err %v; want death by SIGTERM", out, err)
	}
}

// TestHandleTakesTheSignal: while a handler is active the signal is its
// alone; once done, the default is back.
func TestHandleTakesTheSignal(t *testing.T) {
	out, err := helper(t, true)
	if out != "handled\n" || !diedOf(err, syscall.SIGTERM) {
		t.Fatalf("output %q, err %v; want \"handled\" then death by SIGTERM", out, err)
	}
}

// TestWatchLeavesIgnoredSignals: a signal guardsh was started ignoring
// (nohup's SIGHUP) stays ignored: Watch does not register it.
func TestWatchLeavesIgnoredSignals(t *testing.T) {
	if os.Getenv("SIGNALS_IGNORED") != "" {
		Watch()
		if !signal.Ignored(syscall.SIGHUP) {
			os.Stdout.WriteString("registered\n")
		}
		return
	}
	cmd := exec.Command("sh", "-c", `trap '' HUP; exec "$0" -test.run '^TestWatchLeavesIgnoredSignals$'`, os.Args[0])
	cmd.Env = append(os.Environ(), "SIGNALS_IGNORED=1")
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) == "registered\n" || len(out) > 0 && string(out) != "PASS\n" {
		t.Fatalf("output %q, err %v", out, err)
	}
}
