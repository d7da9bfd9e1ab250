// Package signals registers, ahead of a command's start, the signals
// guardsh passes on to the commands it runs, and ends guardsh on them as
// their default would while none of guardsh's own handlers is active.
//
// Registering a signal with os/signal is, for the first channel that asks
// for it, a round trip to the runtime's signal thread: 60–230 µs each on a
// virtual machine with two CPUs, and the four a command's start registers
// (interp.Run) made up 0.35–0.6 ms of every command that started
// something. Registered once ahead, in a goroutine of its own while the
// config loads and the command is decided, a later registration of the
// same signal costs no round trip.
package signals

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// Forwarded are the signals guardsh passes on to a running command (see
// interp.Run) and that end guardsh otherwise, as their default does.
var Forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// handlers counts the active handlers of guardsh's own (see Handle).
var handlers atomic.Int32

// Watch registers the Forwarded signals guardsh was not started ignoring
// (those stay ignored: a nohup's SIGHUP, a background job's SIGINT), and
// SIGWINCH, which changes nothing (the Go runtime catches it from its
// start, ignoring it as its default does, and a command gets the default
// back at exec). A Forwarded signal that arrives while no Handle is
// active ends guardsh as before Watch: its handling is reset to the
// runtime's and guardsh sends it to itself. Call it once.
func Watch() {
	c := make(chan os.Signal, 1)
	sigs := []os.Signal{syscall.SIGWINCH}
	for _, s := range Forwarded {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	go func() {
		for s := range c {
			sig, ok := s.(syscall.Signal)
			if !ok || sig == syscall.SIGWINCH || handlers.Load() > 0 {
				continue
			}
			signal.Reset(sig)
			_ = syscall.Kill(os.Getpid(), sig)
		}
	}()
	signal.Notify(c, sigs...)
}

// Handle marks a handler of guardsh's own active until done is called:
// signal.Notify of its channel must come before Handle, and done before
// its signal.Stop, so that no signal finds neither it nor Watch's default.
func Handle() (done func()) {
	handlers.Add(1)
	var once atomic.Bool
	return func() {
		if once.CompareAndSwap(false, true) {
			handlers.Add(-1)
		}
	}
}
