// Package signals is where guardsh takes the signals it passes on to the
// commands it runs (SIGINT, SIGTERM, SIGHUP, SIGQUIT): registered once with
// os/signal, ahead of a command's start (Watch), and handed to the
// innermost active handler of guardsh's own (Handle); with none active, a
// signal ends guardsh as its default does.
//
// Registering a signal with os/signal is, for the first channel that asks
// for it, a round trip to the runtime's signal thread: 60–230 µs each on a
// virtual machine with two CPUs, and the four a command's start registered
// made up 0.35–0.6 ms of every command that started something. Watch,
// called in a goroutine of its own while the config loads and the command
// is decided, takes that off the command's path.
//
// One channel takes every signal, so that none falls between two: a
// signal that arrives just before a handler is installed goes to that
// handler (the command's run forwards it, or refuses to start), never to
// no one.
package signals

import (
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// Forwarded are the signals guardsh passes on to a running command (see
// interp.Run) and that end guardsh otherwise, as their default does.
var Forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

var (
	watch sync.Once
	mu    sync.Mutex
	// stack holds the active handlers, the innermost last.
	stack []*handler
	// ending: a signal found no handler and ends guardsh; no handler is
	// installed any more, so no command starts meanwhile.
	ending bool
)

type handler struct{ f func(os.Signal) }

// Watch registers the Forwarded signals guardsh was not started ignoring
// (those stay ignored: a nohup's SIGHUP, a background job's SIGINT), and
// SIGWINCH, which changes nothing (the Go runtime catches it from its
// start, ignoring it as its default does, and a command gets the default
// back at exec; registered here, a terminal's later registration of it
// costs no round trip). It returns once they are registered; a second
// call, or one made while the first runs, waits for the first.
func Watch() {
	watch.Do(func() {
		c := make(chan os.Signal, 8)
		sigs := []os.Signal{syscall.SIGWINCH}
		for _, s := range Forwarded {
			if !signal.Ignored(s) {
				sigs = append(sigs, s)
			}
		}
		go deliver(c)
		signal.Notify(c, sigs...)
	})
}

// deliver hands each signal received on c to the innermost handler, or,
// with none, ends guardsh with it: its handling is reset to the runtime's
// and guardsh sends it to itself.
func deliver(c chan os.Signal) {
	for s := range c {
		sig, ok := s.(syscall.Signal)
		if !ok || sig == syscall.SIGWINCH {
			continue
		}
		mu.Lock()
		var h *handler
		if len(stack) > 0 {
			h = stack[len(stack)-1]
		}
		if h != nil {
			// Called with mu held: a handler's done waits for it, so
			// that no signal reaches a handler that has returned.
			h.f(s)
			mu.Unlock()
			continue
		}
		// Ending takes a round trip to the runtime's signal thread: no
		// command may start meanwhile (attack run 82: guardsh died of a
		// SIGTERM after it had started the command, which then ran to
		// its end unwatched).
		ending = true
		mu.Unlock()
		die(sig)
	}
}

// die ends guardsh of sig as its default would: its disposition set back
// to the default with rt_sigaction(2) directly (os/signal's Reset is a
// round trip to the runtime's signal thread, during which guardsh could
// finish and exit 0: attack run 83 lost a SIGTERM so), then sig sent to
// guardsh itself. An all-zero struct sigaction is SIG_DFL, no flags, an
// empty mask, whatever the architecture's layout.
func die(sig syscall.Signal) {
	var act [4]uint64
	if _, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0, 8, 0, 0); errno != 0 {
		signal.Reset(sig)
	}
	_ = syscall.Kill(os.Getpid(), sig)
	select {} // the signal ends the process
}

// Settle waits for a signal being handed over, so that guardsh does not
// exit while one that came is on its way to the end it calls for.
func Settle() {
	runtime.Gosched() // the delivery of one that has just come
	mu.Lock()
	e := ending
	mu.Unlock()
	if e {
		select {} // ending of a signal (see die)
	}
}

// Handle installs f as the innermost handler of the Forwarded signals
// until done is called, after calling Watch; once a signal has found no
// handler, it does not return (guardsh ends of that signal). f must not block (a
// buffered channel's send in a select with a default); it is not called
// after done returns. Handlers nest: done of an outer one before an inner
// one's is a mistake that removes only the outer.
func Handle(f func(os.Signal)) (done func()) {
	Watch()
	h := &handler{f}
	mu.Lock()
	if ending {
		mu.Unlock()
		select {} // guardsh ends of the signal it got
	}
	stack = append(stack, h)
	mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i] == h {
					stack = append(stack[:i], stack[i+1:]...)
					break
				}
			}
		})
	}
}

// Pass returns a handler that sends each signal to c without blocking
// (one that finds c full is dropped, as os/signal drops it).
func Pass(c chan<- os.Signal) func(os.Signal) {
	return func(s os.Signal) {
		select {
		case c <- s:
		default:
		}
	}
}
