package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// CheckApprover refuses to let this process answer approvals unless it
// runs on a terminal a human holds: a controlling terminal whose session
// leader is this process's parent or an ancestor of it, and no guardsh
// (exe) above it — a command the agent runs through guardsh is the
// agent's, and so is a process without a terminal.
func CheckApprover(exe string) error {
	if pid := UnderGuardsh(os.Getpid(), exe); pid != 0 {
		return fmt.Errorf("refused: this runs under guardsh (pid %d), that is on the agent's behalf; approve from your own terminal", pid)
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("refused: no controlling terminal; approvals are given from a human's terminal")
	}
	defer f.Close()
	sid, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGSID)
	if err != nil {
		return fmt.Errorf("refused: session of the terminal: %w", err)
	}
	ppid := os.Getppid()
	if sid == ppid {
		return nil
	}
	if ok, err := IsAncestor(sid, ppid); err != nil || !ok {
		return fmt.Errorf("refused: the terminal's session (leader pid %d) was not made above this command; approve from your own terminal", sid)
	}
	return nil
}

// List writes the approvals of s to w, one block each: id, status,
// expiry, command (escaped), directory, session and the segments.
func List(w io.Writer, s Spool) error {
	list, err := s.List()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "no pending approvals")
		return nil
	}
	for _, a := range list {
		fmt.Fprintf(w, "%s  %s  expires %s\n", a.ID, a.Status, a.Expires.UTC().Format(time.RFC3339))
		fmt.Fprintf(w, "  command: %s\n  cwd:     %s\n  session: %s\n", Visible(a.Command), Visible(a.Cwd), Visible(a.Session))
		for _, it := range a.Items {
			fmt.Fprintf(w, "  • %s  [%s] %s\n", Visible(it.Text), it.Class, Visible(it.Reason))
		}
	}
	return nil
}

// ApproveAlways approves id and remembers each of its segments' exact
// command in the user config (see Remember). A request whose segments
// cannot all be written as rules is refused (approve it without --always).
func ApproveAlways(s Spool, id, userConfig string, initial []byte) ([]Added, error) {
	a, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if a.Status != Pending {
		return nil, fmt.Errorf("approval %s was already %s", id, a.Status)
	}
	if !remembers(a.Request) {
		return nil, errors.New("this command cannot be remembered as rules (a word only known at run time, a '*', or text that was not understood); approve it without --always")
	}
	var pats []string
	for _, it := range a.Items {
		pats = append(pats, it.Exact)
	}
	added, err := Remember(userConfig, pats, initial)
	if err != nil {
		return nil, err
	}
	_, err = s.Decide(id, Approved, true, "")
	return added, err
}
