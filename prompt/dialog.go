package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/guardsh/guardsh/internal/signals"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Choice is a human's answer in the dialog, narrowest first.
type Choice int

const (
	// Deny refuses the command (the default on timeout or interruption).
	Deny Choice = iota
	// Once allows the command this one time.
	Once
	// Session allows this exact command again for the rest of the session
	// (until the approval expires), without asking.
	Session
	// Exact allows the command and remembers each segment's exact argv as
	// an allow rule.
	Exact
	// Prefix allows the command and remembers the program/subcommand
	// prefix patterns (edited by the human) as allow rules.
	Prefix
)

// Reply is the outcome of the dialog.
type Reply struct {
	Choice Choice
	// Message is the human's word for the agent with a denial.
	Message string
	// Patterns are the rules to remember (Exact and Prefix).
	Patterns []string
	// Why says how a Deny came about when no human chose it ("no answer
	// within 5m0s", "interrupted by terminated", "the terminal was taken
	// back (job control) before an answer").
	Why string
	// Signal is the signal that ended the dialog, nil for none.
	Signal os.Signal
}

// ErrBackground is returned by Dialog, before anything is shown, when the
// terminal's foreground process group is its session leader's and not
// guardsh's (the human's shell has the terminal; guardsh runs in a
// background job): taking the terminal from the shell could make it exit.
var ErrBackground = errors.New("guardsh runs in a background job of the terminal")

// ErrInterrupted is returned (wrapped) by Dialog when a signal ended it;
// the terminal has been restored.
var ErrInterrupted = errors.New("dialog interrupted")

// Dialog shows req on the trusted terminal tty and reads the human's
// choice in raw mode. While it runs, guardsh is put in a process group of
// its own, which becomes the terminal's foreground group (so a full-screen
// parent reading the terminal cannot take the keys; it is stopped by
// SIGTTIN if it tries); pending input is discarded before the keys are
// read. On every return the terminal mode and foreground group are
// restored, guardsh goes back to its group, and the old foreground group
// is sent SIGCONT. After timeout without an answer it returns Deny; so it
// does within 100 ms of a job-control shell taking the terminal back (its
// job was stopped). SIGINT, SIGTERM, SIGHUP and SIGQUIT end it with Deny
// and an error wrapping ErrInterrupted. A process already blocked in
// read(2) on the terminal before the dialog began can still receive a key
// (the kernel checks the foreground group when a read starts).
func Dialog(tty *os.File, req Request, timeout time.Duration) (Reply, error) {
	fd := int(tty.Fd())
	sigs := make(chan os.Signal, 1)
	defer signals.Handle(signals.Pass(sigs))() // SIGINT, SIGTERM, SIGHUP, SIGQUIT
	restoreFg, err := takeForeground(fd)
	if err != nil {
		return Reply{Why: err.Error()}, err
	}
	defer restoreFg()
	old, err := term.MakeRaw(fd)
	if err != nil {
		return Reply{Why: err.Error()}, fmt.Errorf("dialog: raw mode: %w", err)
	}
	defer term.Restore(fd, old)
	// Raw mode writes "\n" as is (no output processing): lines end "\r\n".
	show(crlf{tty}, req)
	// Keys typed before the dialog was shown answer nothing.
	_ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)

	keys := make(chan byte, 64)
	done := make(chan struct{})
	defer close(done)
	go func() {
		var b [64]byte
		for {
			n, err := tty.Read(b[:])
			for _, c := range b[:n] {
				select {
				case keys <- c:
				case <-done:
					return
				}
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	lost := func() bool {
		fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		return err != nil || fg != unix.Getpgrp()
	}
	d := &dialog{w: tty, keys: keys, sigs: sigs, deadline: time.After(timeout), timeout: timeout, tick: tick.C, lost: lost}
	return d.run(req)
}

// takeForeground moves guardsh into a process group of its own and makes
// it the terminal's foreground group; the function it returns gives the
// terminal back to the old foreground group (only if guardsh still holds
// it: a job-control shell that took it back keeps it), returns guardsh to
// its group and continues the old foreground group. SIGTTOU and SIGTTIN
// are ignored meanwhile, so that guardsh is never stopped: a read after
// the terminal was taken away fails (EIO) and the dialog denies.
func takeForeground(fd int) (func(), error) {
	oldFg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil {
		return nil, fmt.Errorf("dialog: foreground group: %w", err)
	}
	if sid, err := unix.IoctlGetInt(fd, unix.TIOCGSID); err != nil || (oldFg == sid && oldFg != unix.Getpgrp()) {
		return nil, ErrBackground
	}
	oldPgrp := unix.Getpgrp()
	signal.Ignore(syscall.SIGTTOU, syscall.SIGTTIN)
	if err := unix.Setpgid(0, 0); err != nil && !errors.Is(err, unix.EPERM) {
		signal.Reset(syscall.SIGTTOU, syscall.SIGTTIN)
		return nil, fmt.Errorf("dialog: process group: %w", err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, unix.Getpgrp()); err != nil {
		_ = unix.Setpgid(0, oldPgrp)
		signal.Reset(syscall.SIGTTOU, syscall.SIGTTIN)
		return nil, fmt.Errorf("dialog: taking the terminal: %w", err)
	}
	return func() {
		if fg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err == nil && fg == unix.Getpgrp() {
			_ = unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, oldFg)
		}
		if oldPgrp != unix.Getpgrp() {
			_ = unix.Setpgid(0, oldPgrp)
		}
		// A parent that read the terminal meanwhile was stopped (SIGTTIN).
		_ = unix.Kill(-oldFg, unix.SIGCONT)
		signal.Reset(syscall.SIGTTOU, syscall.SIGTTIN)
	}, nil
}

// crlf writes to a terminal in raw mode: every "\n" as "\r\n".
type crlf struct{ w io.Writer }

func (c crlf) Write(b []byte) (int, error) {
	if _, err := c.w.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// show writes the request.
func show(w io.Writer, req Request) {
	fmt.Fprintf(w, "\n── guardsh: approval needed ──\n")
	fmt.Fprintf(w, "command: %s\n", Visible(req.Command))
	fmt.Fprintf(w, "cwd:     %s\n", Visible(req.Cwd))
	if req.NotUnderstood != "" {
		fmt.Fprintf(w, "not understood: %s\n", Visible(req.NotUnderstood))
	}
	for _, it := range req.Items {
		fmt.Fprintf(w, "  • %s  [%s]\n    %s\n", Visible(it.Text), it.Class, Visible(it.Reason))
		if it.Rule != "" {
			fmt.Fprintf(w, "    asked by rule %s\n", Visible(it.Rule))
		}
	}
	fmt.Fprintf(w, "%s\n", strings.Join(menu(req), "  "))
}

// remembers reports whether req's segments can all be remembered as rules.
func remembers(req Request) bool {
	if req.NotUnderstood != "" || len(req.Items) == 0 {
		return false
	}
	for _, it := range req.Items {
		if it.Exact == "" {
			return false
		}
	}
	return true
}

func menu(req Request) []string {
	m := []string{"[y] allow once", "[s] allow for this session"}
	if remembers(req) {
		m = append(m, "[a] always allow this exact command", "[p] always allow a prefix")
	}
	return append(m, "[n] deny", "[m] deny with a message")
}

type dialog struct {
	w        io.Writer
	keys     <-chan byte
	sigs     <-chan os.Signal
	deadline <-chan time.Time
	timeout  time.Duration
	// tick paces the check that guardsh still holds the terminal (lost):
	// a job-control shell takes it back when it sees the parent stopped.
	tick <-chan time.Time
	lost func() bool
}

// key waits for one byte; ok is false (and reply says why) when the
// dialog must end with a denial.
func (d *dialog) key() (byte, Reply, error) {
	for {
		select {
		case c, open := <-d.keys:
			if !open && d.lost() {
				// A read after the terminal was taken away fails (EIO).
				return 0, Reply{Why: "the terminal was taken back (job control) before an answer"}, nil
			}
			if !open {
				return 0, Reply{Why: "the terminal closed"}, errors.New("dialog: the terminal closed")
			}
			return c, Reply{}, nil
		case s := <-d.sigs:
			return 0, Reply{Why: "interrupted by " + s.String(), Signal: s}, fmt.Errorf("%w by %v", ErrInterrupted, s)
		case <-d.deadline:
			return 0, Reply{Why: fmt.Sprintf("no answer within %v", d.timeout)}, nil
		case <-d.tick:
			if d.lost() {
				return 0, Reply{Why: "the terminal was taken back (job control) before an answer"}, nil
			}
		}
	}
}

func (d *dialog) say(format string, args ...any) {
	fmt.Fprintf(crlf{d.w}, format, args...)
}

func (d *dialog) run(req Request) (Reply, error) {
	for {
		d.say("> ")
		c, r, err := d.key()
		if err != nil || r.Why != "" {
			d.say("denied (%s)\n", r.Why)
			return r, err
		}
		switch c {
		case 'y', 'Y':
			d.say("allowed once\n")
			return Reply{Choice: Once}, nil
		case 's', 'S':
			d.say("allowed for this session\n")
			return Reply{Choice: Session}, nil
		case 'n', 'N', 3, 4, 27: // Ctrl-C, Ctrl-D, Esc deny
			d.say("denied\n")
			return Reply{Choice: Deny}, nil
		case 'm', 'M':
			msg, r, err := d.line("message for the agent: ", "")
			if err != nil || r.Why != "" {
				d.say("denied (%s)\n", r.Why)
				return r, err
			}
			d.say("denied with a message\n")
			return Reply{Choice: Deny, Message: msg}, nil
		case 'a', 'A':
			if !remembers(req) {
				break
			}
			var pats []string
			for _, it := range req.Items {
				pats = append(pats, it.Exact)
			}
			return Reply{Choice: Exact, Patterns: pats}, nil
		case 'p', 'P':
			if !remembers(req) {
				break
			}
			var pats []string
			for _, it := range req.Items {
				for {
					p, r, err := d.line("prefix to allow: ", it.Prefix)
					if err != nil || r.Why != "" {
						d.say("denied (%s)\n", r.Why)
						return r, err
					}
					if err := CheckPrefix(p, it.Words); err != nil {
						d.say("%s\n", Visible(err.Error()))
						continue
					}
					pats = append(pats, p)
					break
				}
			}
			return Reply{Choice: Prefix, Patterns: pats}, nil
		}
		d.say("\a%s\n", strings.Join(menu(req), "  "))
	}
}

// line reads a line with simple editing (backspace, Ctrl-U), starting
// from initial. Esc or Ctrl-C gives up (a denial).
func (d *dialog) line(prompt, initial string) (string, Reply, error) {
	buf := []byte(initial)
	for {
		d.say("\r\x1b[K%s%s", prompt, Visible(string(buf)))
		c, r, err := d.key()
		if err != nil || r.Why != "" {
			d.say("\n")
			return "", r, err
		}
		switch {
		case c == '\r' || c == '\n':
			d.say("\n")
			return string(buf), Reply{}, nil
		case c == 3 || c == 27:
			d.say("\n")
			return "", Reply{Why: "cancelled"}, nil
		case c == 127 || c == 8:
			if len(buf) > 0 {
				buf = buf[:len(buf)-1]
				for len(buf) > 0 && buf[len(buf)-1]&0xc0 == 0x80 {
					buf = buf[:len(buf)-1]
				}
			}
		case c == 21:
			buf = buf[:0]
		case c >= 0x20:
			buf = append(buf, c)
		}
	}
}
