package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A command that runs unjailed was decided against the file system as it
// was: a jailed command running at the same time may change it between
// the decision and the run — an attack run swapped a link in the
// workspace between a text file and ~/.ssh/id_rsa while `cat l` was
// decided (allowed: the link named the text file) and ran (it read the
// key), and likewise appended to ~/.bashrc through `echo … >> l`. So, for
// one user, jailed commands and unjailed ones do not run at the same
// time: each kind announces itself with a shared flock(2) on its own file
// in dir (guardsh's state, hidden from jails: a jailed process cannot
// take or drop these locks, and guardsh is the subreaper that kills what
// a jailed command leaves running before it lets go), then checks that
// no command of the other kind has announced itself, by trying that
// file's exclusive lock. Whichever checks second sees the other, however
// the two interleave, so one of them waits; when both see each other, the
// unjailed one gives way.

const (
	jailsLive    = JailsLiveFile
	unjailedLive = "unjailed.live"
)

// StillRunningError is the error of an announcement whose wait for the
// commands of the other kind ran out.
type StillRunningError struct{ Why string }

func (e *StillRunningError) Error() string { return "sandbox: " + e.Why }

// Presence is one command's announcement (see AnnounceJailed and
// AnnounceUnjailed); Release ends it.
type Presence struct{ f *os.File }

// Release ends the announcement; a nil Presence is a no-op.
func (p *Presence) Release() {
	if p != nil && p.f != nil {
		p.f.Close()
		p.f = nil
	}
}

// AnnounceJailed announces a jailed command of this user, then waits up
// to wait for the unjailed commands running to end, calling waiting (if
// not nil) once when it has to wait. Errors: the lock
// files cannot be opened in dir, or an unjailed command still ran after
// wait (the jailed command must not start: it could change what that
// command reads or writes).
func AnnounceJailed(dir string, wait time.Duration, waiting func(holders string)) (*Presence, error) {
	return announce(dir, jailsLive, unjailedLive, wait, waiting, false, "a command of yours that runs outside the sandbox is still running; a jailed command waits for it, since it could change the files that command reads or writes")
}

// AnnounceUnjailed is AnnounceJailed for a command that runs unjailed:
// it waits up to wait for the jailed commands of this user to end.
func AnnounceUnjailed(dir string, wait time.Duration, waiting func(holders string)) (*Presence, error) {
	return announce(dir, unjailedLive, jailsLive, wait, waiting, true, "a jailed command of yours is still running; a command waits for it before it is decided (and one that runs outside the sandbox until it has run), since it could change the files the command reads or writes")
}

// announce announces a command of kind mine and waits for those of kind
// theirs to end. A jailed command keeps its announcement while it waits
// (so that no new unjailed command gets ahead of it); an unjailed one
// (yield) withdraws it while it waits, so that two commands of different
// kinds that announce at the same moment do not wait for each other.
func announce(dir, mine, theirs string, wait time.Duration, waiting func(holders string), yield bool, why string) (*Presence, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: lock directory: %w", err)
	}
	open := func(name string) (*os.File, error) {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("sandbox: lock file: %w", err)
		}
		return f, nil
	}
	f, err := open(mine)
	if err != nil {
		return nil, err
	}
	// Shared: commands of one kind run side by side. Only a check of
	// another command holds the exclusive lock, for a moment.
	if err := flockRetry(f, unix.LOCK_SH); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: lock: %w", err)
	}
	// Their file is not made here: made only by their announcements, its
	// absence means none of them ever ran (see JailsRan), and a command
	// of theirs that makes it after this check checks for this one,
	// announced already.
	other, err := os.OpenFile(filepath.Join(dir, theirs), os.O_RDWR, 0)
	if os.IsNotExist(err) {
		return &Presence{f: f}, nil
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: lock file: %w", err)
	}
	defer other.Close()
	start := time.Now()
	deadline := start.Add(wait)
	for {
		if unix.Flock(int(other.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			// None of the other kind: let go at once (holding it would
			// stop their announcements) and run announced.
			_ = unix.Flock(int(other.Fd()), unix.LOCK_UN)
			return &Presence{f: f}, nil
		}
		if !yield {
			if pid := ancestorHolding(other); pid > 0 {
				// The unjailed command this one runs inside (a tool
				// that starts $SHELL -c with SHELL set to guardsh)
				// waits for it: waiting for that one to end could
				// only run out.
				f.Close()
				return nil, &StillRunningError{Why: fmt.Sprintf("this command runs inside one of yours that runs outside the sandbox (guardsh, pid %d) and would run jailed; a jailed command waits for those to end, and that one waits for this: it cannot run there (allow it by a rule to run it unjailed, or run it on its own)", pid)}
			}
		}
		if waiting != nil && time.Since(start) >= waitingSaid {
			// Once, when the wait has lasted: a command of the other
			// kind that is ending holds its lock a moment longer, and a
			// line that names no one only puzzled a new user.
			waiting(describeHolders(other))
			waiting = nil
		}
		if time.Now().After(deadline) {
			f.Close()
			who := describeHolders(other)
			if who != "" {
				who = "; " + who
			}
			return nil, &StillRunningError{Why: fmt.Sprintf("%s (waited %s%s)", why, wait, who)}
		}
		if yield {
			_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		}
		time.Sleep(20 * time.Millisecond)
		if yield {
			if err := flockRetry(f, unix.LOCK_SH); err != nil {
				f.Close()
				return nil, fmt.Errorf("sandbox: lock: %w", err)
			}
		}
	}
}

// JailedRunning reports whether a jailed command of this user is
// announced in dir now (its announcement's lock is held), without
// waiting.
func JailedRunning(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, jailsLive), os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		return false
	}
	return true
}

// waitingSaid is how long a command waits for those of the other kind
// before it says so (see announce).
const waitingSaid = 300 * time.Millisecond

// JailsLiveFile is the lock file of the jailed commands' turn in a jails
// directory: its existence says a jailed command of this user has run
// (see JailsRan).
const JailsLiveFile = "jailed.live"

// JailsRan reports whether a jailed command of this user has been
// announced in dir, ever (its lock file exists).
func JailsRan(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, jailsLive))
	return err == nil
}

// flockRetry is flock(2) retried on EINTR.
func flockRetry(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			return err
		}
	}
}

// ancestorHolding returns the pid of a process among this process's
// ancestors (its parent, and so on up) that holds a flock(2) on f's file,
// as /proc/locks lists the holders, or 0 when none does or that cannot be
// told. The process itself does not count.
func ancestorHolding(f *os.File) int {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return 0
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	holders := map[int]bool{}
	for _, pid := range lockHolders(f, data, st) {
		holders[pid] = true
	}
	if len(holders) == 0 {
		return 0
	}
	pid := os.Getppid()
	for range 4096 {
		if pid <= 1 {
			return 0
		}
		if holders[pid] {
			return pid
		}
		if pid = parentOf(pid); pid <= 0 {
			return 0
		}
	}
	return 0
}

// parentOf returns the parent pid of process pid from /proc/PID/stat, 0
// when it cannot be read.
func parentOf(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// "PID (COMM) STATE PPID …": COMM may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// lockHolders returns the pids holding a flock(2) on the file of f (whose
// status is st) in data, the text of /proc/locks, this process left out.
func lockHolders(f *os.File, data []byte, st unix.Stat_t) []int {
	id := fmt.Sprintf("%02x:%02x:%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	var out []int
	for _, line := range strings.Split(string(data), "\n") {
		// "1: FLOCK  ADVISORY  READ 23938 fe:00:10275151 0 EOF"; a
		// waiter's line has "->" after the number.
		fields := strings.Fields(line)
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[5] != id {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid != os.Getpid() && !slices.Contains(out, pid) {
			out = append(out, pid)
		}
	}
	return out
}

// describeHolders names the processes holding a flock(2) on f's file —
// the guardsh processes of the commands a waiting command waits for — as
// "pid N: COMMAND LINE" (at most three, each cut at 100 bytes), "" when
// none can be told.
func describeHolders(f *os.File) string {
	var st unix.Stat_t
	if unix.Fstat(int(f.Fd()), &st) != nil {
		return ""
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return ""
	}
	var parts []string
	pids := lockHolders(f, data, st)
	for i, pid := range pids {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(pids)-3))
			break
		}
		line, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		cmd := strings.TrimSpace(strings.ReplaceAll(string(line), "\x00", " "))
		if len(cmd) > 100 {
			cmd = cmd[:100] + "…"
		}
		parts = append(parts, fmt.Sprintf("pid %d: %s", pid, cmd))
	}
	return strings.Join(parts, "; ")
}
