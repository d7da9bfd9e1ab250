package sandbox

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// RulesetCPU builds the ruleset of s on a locked thread and returns the
// thread's CPU time for it; the ruleset is closed.
func RulesetCPU(s Spec) (time.Duration, error) {
	type result struct {
		d   time.Duration
		err error
	}
	ch := make(chan result)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		var before, after unix.Rusage
		unix.Getrusage(unix.RUSAGE_THREAD, &before)
		fd, _, _, _, err := s.ruleset()
		unix.Getrusage(unix.RUSAGE_THREAD, &after)
		if err == nil {
			unix.Close(fd)
		}
		releaseHeld()
		d := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
		ch <- result{d, err}
	}()
	r := <-ch
	return r.d, r.err
}
