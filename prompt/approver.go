package prompt

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// CheckApprover refuses to let this process answer approvals unless it
// runs on a terminal a human holds: a controlling terminal whose session
// leader is this process's parent or an ancestor of it, and no guardsh
// (exe) above it — a command the agent runs through guardsh is the
// agent's, and so is a process without a terminal, or one that leads its
// terminal's session itself (a terminal's only command: `script -c`,
// `tmux new-window CMD`, `xterm -e`), since any program can make such a
// terminal. The error says why ("refused: …"); ApproverHelp says what
// the human should do instead.
func CheckApprover(exe string) error {
	if pid := UnderGuardsh(os.Getpid(), exe); pid != 0 {
		return fmt.Errorf("refused: this runs under guardsh (pid %d), that is on the agent's behalf, and the agent cannot answer its own request", pid)
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("refused: no controlling terminal, so nothing shows a human typed this (a program without a terminal, an agent's tool, cron)")
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
		if sid == os.Getpid() {
			return fmt.Errorf("refused: this command is the first process of its terminal's session (pid %d), as when it is a terminal's only command (script -c, tmux new-window, xterm -e, ssh HOST CMD); any program can make such a terminal, so it does not show a human", sid)
		}
		leader := "pid " + strconv.Itoa(sid)
		if st, err := ReadStat(sid); err == nil {
			leader = st.Comm + " (" + leader + ")"
		}
		return fmt.Errorf("refused: this terminal's session was started by %s, which is not above this command: a terminal a program made (script, unbuffer, an agent's pty), which the agent may type into", leader)
	}
	return nil
}

// ApproverHelp is what a human refused by CheckApprover should do
// instead: one line naming the terminal to use and the command to type
// there (cmd is "approve" or "deny", id the approval's).
func ApproverHelp(cmd, id string) string {
	return fmt.Sprintf("an approval must come from a terminal the agent cannot type into: in your own terminal window, tmux pane or ssh login, type at the shell prompt: guardsh %s %s", cmd, id)
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
		return nil, errors.New("this command cannot be remembered as rules (a word only known at run time, a word holding a '*', a space or a tab — a rule's pattern splits words at spaces —, a protected path, or text that was not understood); approve it without --always")
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
