// Package tty runs a command on a pseudo-terminal of its own, relayed to
// guardsh's terminal, and records what the command prints (and, if asked,
// what is typed) as an asciicast v2 file that Play and `asciinema play`
// replay.
//
// guardsh runs a command on a pty only when its own stdin and stdout are a
// terminal and it is in that terminal's foreground process group (Usable):
// a pty would turn "\n" into "\r\n" and merge stderr into stdout, which a
// caller reading a pipe does not expect.
package tty

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Usable reports whether a command may be given a pty relayed to in and
// out: both are terminals, and this process is in the foreground process
// group of in's terminal (a background job must not take the terminal's
// input or change its mode).
func Usable(in, out *os.File) bool {
	return in != nil && foreground(in) && foreground(out)
}

// foreground reports whether f is a terminal whose foreground process
// group this process is in.
func foreground(f *os.File) bool {
	if f == nil || !term.IsTerminal(int(f.Fd())) {
		return false
	}
	pgrp, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// For returns the Terminal a command gets under the pty setting mode
// with guardsh's stdin in and stdout out, or nil for none:
//
//   - "auto" (or ""): when Usable(in, out);
//   - "always": as auto, and also when only out is a terminal whose
//     foreground process group guardsh is in (the command then keeps
//     in as its stdin and is sent no keys: In is nil);
//   - "never", or anything else: nil.
//
// Pipes in and out get no pty: a pty turns "\n" into "\r\n" and merges
// stderr into stdout.
func For(mode string, in, out *os.File) *Terminal {
	switch {
	case mode != "" && mode != "auto" && mode != "always":
		return nil
	case Usable(in, out):
		return &Terminal{In: in, Out: out}
	case mode == "always" && foreground(out):
		return &Terminal{Out: out}
	}
	return nil
}

// drainIdle is how long the relay waits for more output after the command
// has exited, when the pty has not yet reported that every process holding
// it has closed it (EIO): a process the command left behind still holds it.
const drainIdle = 250 * time.Millisecond

// drainMax bounds the drain after the command's exit even when output
// keeps coming (a process left behind that still writes).
const drainMax = 2 * time.Second

// Terminal runs commands on a new pty relayed to Out, and from In, which
// must be terminals (see For). Out is required; In and Rec are optional.
type Terminal struct {
	// In is the terminal keys are read from; Out the one output is
	// written to (usually both guardsh's terminal). With In nil the
	// command keeps the stdin it was given and the pty is only its
	// stdout, stderr and controlling terminal.
	In, Out *os.File
	// Rec, when not nil, receives what the command prints and, if the
	// recorder was made with input on, what is typed.
	Rec *Recorder
}

// Start gives cmd a new pty as its stdin (replacing cmd.Stdin, when In is
// set), stdout, stderr
// and controlling terminal (cmd runs in a session of its own), sized as
// Out's terminal; puts In's terminal in raw mode; starts cmd with start
// (cmd.Start when nil: the sandbox passes its jailed start); then relays
// keys from In to the pty, output to Out, and Out's window size changes
// (SIGWINCH) to the pty.
// Keys such as Ctrl-C and Ctrl-Z reach the command through the pty's line
// discipline, as signals to its foreground process group.
//
// The caller waits for cmd and then calls the returned finish, which reads
// what the command printed to the end (until every process has closed the
// pty, or drainIdle passes without output after the command's exit), stops
// the relay and restores In's terminal to the mode it had. finish must be
// called whenever Start returned no error; it returns the first error of
// the relay (the recorder's errors are the Recorder's).
//
// Errors (nothing started, nothing to restore): cmd already has its
// stdout or stderr set, the pty could not be opened or sized, In's terminal
// could not be put in raw mode, or start failed.
func (t *Terminal) Start(cmd *exec.Cmd, start func(*exec.Cmd) error) (finish func() error, err error) {
	if cmd.Stdout != nil || cmd.Stderr != nil {
		return nil, errors.New("tty: the command's stdout or stderr is already set")
	}
	if start == nil {
		start = (*exec.Cmd).Start
	}
	ptmx, slave, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("tty: opening a pty: %w", err)
	}
	// pty.Open's master is in blocking mode; a non-blocking duplicate
	// gets read deadlines (the drain after exit) from Go's poller.
	master, err := nonblocking(ptmx)
	ptmx.Close()
	if err != nil {
		slave.Close()
		return nil, fmt.Errorf("tty: %w", err)
	}
	fail := func(err error) (func() error, error) {
		master.Close()
		slave.Close()
		return nil, err
	}
	if ws, err := pty.GetsizeFull(t.Out); err == nil {
		if err := pty.Setsize(slave, ws); err != nil {
			return fail(fmt.Errorf("tty: sizing the pty: %w", err))
		}
	}
	// Raw before the start: keys typed from here on reach the command
	// as they are.
	var state *term.State
	ctty := 1 // the child's stdout
	if t.In != nil {
		if state, err = term.MakeRaw(int(t.In.Fd())); err != nil {
			return fail(fmt.Errorf("tty: raw mode: %w", err))
		}
		cmd.Stdin, ctty = slave, 0
	}
	cmd.Stdout, cmd.Stderr = slave, slave
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	// A session of its own, with the pty as its controlling terminal:
	// the pty's keys signal the command's foreground process group,
	// never guardsh.
	cmd.SysProcAttr.Setsid, cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Ctty = true, true, ctty
	if err := start(cmd); err != nil {
		cmd.Stdout, cmd.Stderr = nil, nil
		if t.In != nil {
			_ = term.Restore(int(t.In.Fd()), state)
		}
		return fail(err)
	}
	slave.Close()
	r := &relay{t: t, master: master, state: state, stop: make(chan struct{}), outDone: make(chan struct{})}
	r.start()
	return r.finish, nil
}

// nonblocking returns a non-blocking duplicate of f, which Go's poller
// serves (read deadlines work).
func nonblocking(f *os.File) (*os.File, error) {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("duplicating the pty master: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("pty master: %w", err)
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}

// setsize sets the window size of the pty whose master is f without
// f.Fd(), which would put f back in blocking mode.
func setsize(f *os.File, ws *pty.Winsize) error {
	c, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	err = c.Control(func(fd uintptr) {
		ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, &unix.Winsize{Row: ws.Rows, Col: ws.Cols, Xpixel: ws.X, Ypixel: ws.Y})
	})
	if err == nil {
		err = ioErr
	}
	return err
}

// relay is one command's pty and the goroutines serving it.
type relay struct {
	t      *Terminal
	master *os.File
	state  *term.State
	// stop ends the input and window-size goroutines; wake is the pipe
	// that interrupts the input goroutine's poll.
	stop       chan struct{}
	wakeR      *os.File
	wakeW      *os.File
	outDone    chan struct{}
	inDone     chan struct{}
	winch      chan os.Signal
	resizeDone chan struct{}
	exitedMu   sync.Mutex
	exited     bool
	exitedAt   time.Time
	outErr     error
	finishOnce sync.Once
	finishErr  error
}

func (r *relay) start() {
	go r.output()
	r.winch = make(chan os.Signal, 1)
	signal.Notify(r.winch, syscall.SIGWINCH)
	if r.t.In == nil {
		// The outer terminal is not raw: Ctrl-C there signals guardsh,
		// which passes it on as the key, so that it reaches the
		// command's foreground process group through the pty.
		signal.Notify(r.winch, syscall.SIGINT, syscall.SIGQUIT)
	}
	r.resizeDone = make(chan struct{})
	go r.resize()
	if r.t.In == nil {
		return
	}
	var err error
	if r.wakeR, r.wakeW, err = os.Pipe(); err != nil {
		// No input relay (out of descriptors): the command runs with
		// no keys rather than not at all.
		r.wakeR, r.wakeW = nil, nil
		return
	}
	r.inDone = make(chan struct{})
	go r.input()
}

// output copies the pty to Out (and the recorder) until the pty reports
// that no process holds it (EIO), or, after the command's exit, until
// drainIdle passes without output or drainMax has passed.
func (r *relay) output() {
	defer close(r.outDone)
	buf := make([]byte, 32*1024)
	for {
		n, err := r.master.Read(buf)
		if n > 0 {
			if _, werr := r.t.Out.Write(buf[:n]); werr != nil && r.outErr == nil {
				r.outErr = fmt.Errorf("tty: writing the command's output: %w", werr)
			}
			if r.t.Rec != nil {
				r.t.Rec.Output(buf[:n])
			}
			r.exitedMu.Lock()
			if r.exited {
				if time.Since(r.exitedAt) > drainMax {
					r.exitedMu.Unlock()
					return
				}
				_ = r.master.SetReadDeadline(time.Now().Add(drainIdle))
			}
			r.exitedMu.Unlock()
		}
		if err != nil {
			// EIO: every process has closed the pty; a deadline: the
			// command has exited and nothing more came.
			return
		}
	}
}

// input copies In to the pty (and the recorder) until stop.
func (r *relay) input() {
	defer close(r.inDone)
	in := int(r.t.In.Fd())
	wake := int(r.wakeR.Fd())
	buf := make([]byte, 4096)
	for {
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if fds[1].Revents != 0 {
			return
		}
		if fds[0].Revents&(unix.POLLIN) == 0 {
			return // the terminal hung up or is gone
		}
		n, err := unix.Read(in, buf)
		if n <= 0 || err != nil {
			if err == unix.EINTR || err == unix.EAGAIN {
				continue
			}
			return
		}
		if r.t.Rec != nil {
			r.t.Rec.Input(buf[:n])
		}
		if _, err := r.master.Write(buf[:n]); err != nil {
			return
		}
	}
}

// resize copies Out's window size to the pty on every SIGWINCH; the kernel
// then signals the command's foreground process group. Without In it also
// passes SIGINT and SIGQUIT on as keys (see key).
func (r *relay) resize() {
	defer close(r.resizeDone)
	for {
		select {
		case <-r.stop:
			return
		case sig := <-r.winch:
			if sig != syscall.SIGWINCH {
				r.key(sig)
				continue
			}
			ws, err := pty.GetsizeFull(r.t.Out)
			if err != nil {
				continue
			}
			_ = setsize(r.master, ws)
			if r.t.Rec != nil {
				r.t.Rec.Resize(int(ws.Cols), int(ws.Rows))
			}
		}
	}
}

// key types the pty's interrupt (for SIGINT) or quit (SIGQUIT) character,
// as the command's terminal settings have it, so that the line discipline
// signals the command's foreground process group.
func (r *relay) key(sig os.Signal) {
	c, err := r.master.SyscallConn()
	if err != nil {
		return
	}
	var tio *unix.Termios
	_ = c.Control(func(fd uintptr) { tio, err = unix.IoctlGetTermios(int(fd), unix.TCGETS) })
	if err != nil || tio == nil || tio.Lflag&unix.ISIG == 0 {
		return
	}
	ch := tio.Cc[unix.VINTR]
	if sig == syscall.SIGQUIT {
		ch = tio.Cc[unix.VQUIT]
	}
	_, _ = r.master.Write([]byte{ch})
}

// finish drains the output, stops the relay and restores the terminal.
func (r *relay) finish() error {
	r.finishOnce.Do(func() {
		r.exitedMu.Lock()
		r.exited, r.exitedAt = true, time.Now()
		_ = r.master.SetReadDeadline(time.Now().Add(drainIdle))
		r.exitedMu.Unlock()
		<-r.outDone
		close(r.stop)
		signal.Stop(r.winch)
		<-r.resizeDone
		if r.wakeW != nil {
			r.wakeW.Close()
			<-r.inDone
			r.wakeR.Close()
		}
		r.master.Close()
		if r.state != nil && r.t.In != nil {
			if err := term.Restore(int(r.t.In.Fd()), r.state); err != nil {
				r.finishErr = fmt.Errorf("tty: restoring the terminal: %w", err)
			}
		}
		if r.finishErr == nil {
			r.finishErr = r.outErr
		}
	})
	return r.finishErr
}

var _ io.Closer = (*Recorder)(nil)
