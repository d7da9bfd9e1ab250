package sandbox

import (
	"cmp"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// stopWithin bounds how long StopLeftovers goes on killing: each round
// kills every child it finds, and the children of those come back as
// children in the next.
const stopWithin = 2 * time.Second

// StopLeftovers kills (SIGKILL) and reaps every process left running by a
// jailed command that has ended: its background processes, however
// detached (setsid, double fork, nohup), which Jail.Start made reparent to
// the calling process (PR_SET_CHILD_SUBREAPER). Such a process would
// otherwise go on, unseen, after guardsh has put back the protected paths
// and written the audit record. It returns the names (comm) of the
// processes it stopped, in the order it found them. Call it only when the calling process has no other child it
// means to keep (guardsh calls it after the command's Wait). Errors: the
// children could not be listed (/proc/self/task/*/children), or some
// were still there after stopWithin.
func StopLeftovers() ([]string, error) {
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
			return names, errors.New("sandbox: processes the jailed command left were still running after " + stopWithin.String())
		}
		pids, err := children()
		if err != nil {
			return names, err
		}
		for _, pid := range pids {
			if killed[pid] {
				continue
			}
			comm, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
			if unix.Kill(pid, unix.SIGKILL) == nil {
				killed[pid] = true
				names = append(names, cmp.Or(strings.TrimSpace(string(comm)), strconv.Itoa(pid)))
			}
		}
		// A killed process becomes a zombie to reap a moment later.
		time.Sleep(time.Millisecond)
	}
}

// children lists the process's children: those of each of its threads.
func children() ([]int, error) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if errors.Is(err, os.ErrNotExist) {
			continue // the thread ended
		}
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out, nil
}
