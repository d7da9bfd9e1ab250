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

// The helper process, by SIGNALS_HELPER: "default" Watches and sends
// itself SIGTERM; "handle" does so with a handler installed, then again
// after it is done; "late" sends the signal before a handler is installed
// but while the delivery waits, then installs one; "nested" checks that
// the innermost handler takes a signal. It prints what it saw, and
// "alive" if it survives.
func TestMain(m *testing.M) {
	switch os.Getenv("SIGNALS_HELPER") {
	case "":
		os.Exit(m.Run())
	case "default":
		Watch()
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	case "handle":
		c := make(chan os.Signal, 1)
		done := Handle(Pass(c))
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		<-c
		done()
		os.Stdout.WriteString("handled\n")
		// With the handler gone, the next one ends the process.
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
	case "late":
		Watch()
		c := make(chan os.Signal, 1)
		mu.Lock()
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(100 * time.Millisecond) // the delivery now waits for mu
		stack = append(stack, &handler{Pass(c)})
		mu.Unlock()
		select {
		case <-c:
			os.Stdout.WriteString("handed\n")
		case <-time.After(2 * time.Second):
			os.Stdout.WriteString("lost\n")
		}
		os.Exit(0)
	case "nested":
		outer, inner := make(chan os.Signal, 1), make(chan os.Signal, 1)
		doneOuter := Handle(Pass(outer))
		doneInner := Handle(Pass(inner))
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case <-inner:
			os.Stdout.WriteString("inner\n")
		case <-outer:
			os.Stdout.WriteString("outer\n")
		}
		doneInner()
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case <-inner:
			os.Stdout.WriteString("inner\n")
		case <-outer:
			os.Stdout.WriteString("outer\n")
		}
		doneOuter()
		os.Exit(0)
	}
	time.Sleep(2 * time.Second)
	os.Stdout.WriteString("alive\n")
	os.Exit(0)
}

func helper(t *testing.T, what string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "SIGNALS_HELPER="+what)
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
	out, err := helper(t, "default")
	if !diedOf(err, syscall.SIGTERM) {
		t.Fatalf("output %q, err %v; want death by SIGTERM", out, err)
	}
}

// TestHandleTakesTheSignal: while a handler is active the signal is its
// alone; once done, the default is back.
func TestHandleTakesTheSignal(t *testing.T) {
	out, err := helper(t, "handle")
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

// TestSignalBeforeItsHandler: a signal received while a handler is being
// installed goes to that handler, not to no one (attack run 82: a SIGTERM
// during the decision was dropped and the command ran).
func TestSignalBeforeItsHandler(t *testing.T) {
	out, err := helper(t, "late")
	if out != "handed\n" || err != nil {
		t.Fatalf("output %q, err %v; want \"handed\"", out, err)
	}
}

// TestInnermostHandler: handlers nest, the innermost takes a signal; once
// done, the next one out does.
func TestInnermostHandler(t *testing.T) {
	out, err := helper(t, "nested")
	if out != "inner\nouter\n" || err != nil {
		t.Fatalf("output %q, err %v; want inner then outer", out, err)
	}
}
