// Package prompt is the human in the loop: it finds a trusted terminal,
// shows the approval dialog on it, remembers "always" answers in the user's
// config, applies the headless policy when no human can be asked, and keeps
// pending approvals that a human answers from another terminal.
package prompt

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrNoTerminal means the process has no controlling terminal (opening
// /dev/tty fails with ENXIO, or there is no /dev/tty).
var ErrNoTerminal = errors.New("no controlling terminal")

// UntrustedError says why a controlling terminal is not a trusted approval
// channel.
type UntrustedError struct {
	// Leader is the session leader of the terminal's session.
	Leader int
	Why    string
}

func (e *UntrustedError) Error() string {
	return fmt.Sprintf("terminal not trusted: %s", e.Why)
}

// OpenTrusted opens the controlling terminal (/dev/tty, read-write) and
// returns it when it is a trusted approval channel: the session leader of
// the terminal's session (TIOCGSID) is a strict ancestor of ppid, the
// process that started guardsh (normally the agent). A terminal the agent
// made itself (a pty it spawned guardsh or a shell on, script, unbuffer)
// has its session leader at or below the agent, so it is not trusted. The
// error is ErrNoTerminal, an *UntrustedError, or a wrapped system error;
// on any error no file is returned (fail closed).
func OpenTrusted(ppid int) (*os.File, error) {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENXIO) || errors.Is(err, os.ErrNotExist) {
			return nil, ErrNoTerminal
		}
		return nil, fmt.Errorf("opening /dev/tty: %w", err)
	}
	sid, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGSID)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("/dev/tty: session of the terminal (TIOCGSID): %w", err)
	}
	if err := trustedLeader(sid, ppid); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// trustedLeader checks that sid is a strict ancestor of ppid.
func trustedLeader(sid, ppid int) error {
	if sid <= 0 {
		return &UntrustedError{Leader: sid, Why: "the terminal has no session leader"}
	}
	if sid == ppid || sid == os.Getpid() {
		return &UntrustedError{Leader: sid, Why: fmt.Sprintf("the terminal's session was made by the process that started guardsh (pid %d) or by guardsh itself", sid)}
	}
	ok, err := IsAncestor(sid, ppid)
	if err != nil {
		return err
	}
	if !ok {
		return &UntrustedError{Leader: sid, Why: fmt.Sprintf("the terminal's session leader (pid %d) is not an ancestor of the process that started guardsh (pid %d)", sid, ppid)}
	}
	return nil
}

// IsAncestor reports whether anc is a strict ancestor of pid, walking the
// parent links of /proc/PID/stat up to pid 1.
func IsAncestor(anc, pid int) (bool, error) {
	for seen := 0; pid > 1 && seen < 4096; seen++ {
		st, err := ReadStat(pid)
		if err != nil {
			return false, err
		}
		pid = st.PPID
		if pid == anc {
			return true, nil
		}
	}
	return false, nil
}

// Stat is what guardsh reads of /proc/PID/stat (proc(5)).
type Stat struct {
	PID, PPID, PGRP, Session int
	// Comm is the command name (field 2, without the parentheses).
	Comm string
}

// ReadStat reads /proc/PID/stat. The command name may hold spaces and
// parentheses, so the fields after it are found from the last ')'.
func ReadStat(pid int) (Stat, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, fmt.Errorf("reading the parent links of process %d: %w", pid, err)
	}
	s := string(data)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return Stat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(s[closing+1:])
	if len(f) < 4 {
		return Stat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	st := Stat{PID: pid, Comm: s[open+1 : closing]}
	for i, dst := range []*int{&st.PPID, &st.PGRP, &st.Session} {
		if *dst, err = strconv.Atoi(f[i+1]); err != nil {
			return Stat{}, fmt.Errorf("/proc/%d/stat: field %d: %w", pid, i+4, err)
		}
	}
	return st, nil
}

// UnderGuardsh reports whether a process above pid runs the executable exe
// (guardsh itself): a command started through guardsh as a shell is the
// agent's, so `guardsh approve` refuses to run there. It returns the pid
// found, 0 when none.
func UnderGuardsh(pid int, exe string) int {
	for seen := 0; pid > 1 && seen < 4096; seen++ {
		st, err := ReadStat(pid)
		if err != nil {
			return 0
		}
		pid = st.PPID
		if pid <= 1 {
			return 0
		}
		if p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe"); err == nil && p == exe {
			return pid
		}
	}
	return 0
}
