package sandbox

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// stopWithin bounds how long StopLeftovers goes on killing: each round
// kills every descendant it finds at once, so only processes that keep
// forking faster than it kills (or that cannot die, stuck in the kernel)
// last that long.
const stopWithin = 30 * time.Second

// Subreaper makes the calling process the one that the processes its
// children leave behind are reparented to (PR_SET_CHILD_SUBREAPER), for
// StopLeftovers; Jail.Start does it for a jailed command.
func Subreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// AwaitLeftovers waits up to d for the processes a command left running
// to end on their own (`true &` ends at once), reaping them; it reports
// whether none is left. As StopLeftovers, for a subreaper with no other
// child it means to keep.
func AwaitLeftovers(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		if errors.Is(err, unix.ECHILD) {
			return true
		}
		if err != nil && !errors.Is(err, unix.EINTR) {
			return false
		}
		if pid > 0 {
			continue
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// StopLeftovers kills (SIGKILL) and reaps every process left running by a
// jailed command that has ended: its background processes, however
// detached (setsid, double fork, nohup), which Jail.Start made reparent to
// the calling process (PR_SET_CHILD_SUBREAPER). Such a process would
// otherwise go on, unseen, after guardsh has put back the protected paths
// and written the audit record. Each round kills every descendant of the
// calling process it finds in /proc at once (a chain of hundreds of
// processes, each the parent of the next, is gone in one round; an attack
// run's chain outlived killing one generation per round). It returns the
// names (comm) of the processes it stopped, in the order it found them.
// Call it only when the calling process has no other child it means to
// keep (guardsh calls it after the command's Wait). Errors: /proc could
// not be read, or descendants were still there after stopWithin — then
// some may still run, and nothing they can reach should be trusted.
func StopLeftovers() ([]string, error) {
	self := os.Getpid()
	killed := map[int]bool{}
	var names []string
	deadline := time.Now().Add(stopWithin)
	for {
		// Reap what has ended; ECHILD: nothing is left.
		for {
			var ws unix.WaitStatus
			pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
			if errors.Is(err, unix.ECHILD) {
				return names, nil
			}
			if err != nil || pid <= 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			return names, fmt.Errorf("sandbox: processes the jailed command left were still running after %s", stopWithin)
		}
		pids, err := descendants(self)
		if err != nil {
			return names, err
		}
		for _, d := range pids {
			if unix.Kill(d.pid, unix.SIGKILL) == nil && !killed[d.pid] {
				killed[d.pid] = true
				names = append(names, cmp.Or(d.comm, strconv.Itoa(d.pid)))
			}
		}
		// A killed process becomes a zombie to reap a moment later.
		time.Sleep(time.Millisecond)
	}
}

// proc is a process found in /proc.
type proc struct {
	pid  int
	comm string
}

// descendants returns the processes below root in the process tree, from
// one pass over /proc/PID/stat, parents before their children.
func descendants(root int) ([]proc, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	kids := map[int][]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // ended meanwhile
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		open, close := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(string(data[close+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil {
			continue
		}
		kids[ppid] = append(kids[ppid], proc{pid, string(data[open+1 : close])})
	}
	var out []proc
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range kids[p] {
			out = append(out, k)
			queue = append(queue, k.pid)
		}
	}
	return out, nil
}
