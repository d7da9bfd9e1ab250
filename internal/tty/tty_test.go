package tty

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// outer is a real pty standing for guardsh's terminal: the test types
// into and reads from its master; the Terminal under test gets its slave.
type outer struct {
	t      testing.TB
	master *os.File
	slave  *os.File
	mu     sync.Mutex
	buf    bytes.Buffer
	done   chan struct{}
}

func newOuter(t testing.TB, rows, cols uint16) *outer {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	if err := pty.Setsize(m, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		t.Fatal(err)
	}
	o := &outer{t: t, master: m, slave: s, done: make(chan struct{})}
	go func() {
		defer close(o.done)
		b := make([]byte, 64<<10)
		for {
			n, err := m.Read(b)
			o.mu.Lock()
			o.buf.Write(b[:n])
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { s.Close(); m.Close() })
	return o
}

func (o *outer) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// waitFor polls what the outer terminal showed until re matches.
func (o *outer) waitFor(re string) {
	o.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(30 * time.Second)
	for !rx.MatchString(o.text()) {
		if time.Now().After(deadline) {
			o.t.Fatalf("never saw %q in %q", re, o.text())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func termios(t *testing.T, f *os.File) unix.Termios {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return *tio
}

// run runs bash -c script on a Terminal over o and returns the exit
// status (128+n for a signal death), as interp.Run computes it.
func run(t *testing.T, o *outer, rec *Recorder, start func(*exec.Cmd) error, script string, during func()) int {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	term := &Terminal{In: o.slave, Out: o.slave, Rec: rec}
	finish, err := term.Start(cmd, start)
	if err != nil {
		t.Fatal(err)
	}
	if during != nil {
		during()
	}
	werr := cmd.Wait()
	if err := finish(); err != nil {
		t.Errorf("finish: %v", err)
	}
	var ee *exec.ExitError
	switch {
	case werr == nil:
		return 0
	case errors.As(werr, &ee):
		if ws := ee.Sys().(syscall.WaitStatus); ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	t.Fatal(werr)
	return -1
}

func TestOutputStatusAndRestore(t *testing.T) {
	o := newOuter(t, 30, 100)
	before := termios(t, o.slave)
	status := run(t, o, nil, nil, `printf 'a\nb\n'; stty size; [ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all-tty; exit 7`, nil)
	if status != 7 {
		t.Errorf("status %d, want 7", status)
	}
	o.waitFor(`all-tty`)
	got := o.text()
	// The command's pty turns \n into \r\n; its size is the outer one's.
	if !strings.Contains(got, "a\r\nb\r\n30 100\r\n") {
		t.Errorf("output %q", got)
	}
	after := termios(t, o.slave)
	if before != after {
		t.Errorf("terminal not restored:\nbefore %+v\nafter  %+v", before, after)
	}
	if after.Lflag&unix.ICANON == 0 || after.Lflag&unix.ECHO == 0 {
		t.Errorf("terminal lost icanon or echo: %+v", after)
	}
}

func TestCtrlCInterrupts(t *testing.T) {
	o := newOuter(t, 24, 80)
	start := time.Now()
	status := run(t, o, nil, nil, `echo ready; exec sleep 100`, func() {
		o.waitFor(`ready`)
		if _, err := o.master.Write([]byte{3}); err != nil { // Ctrl-C
			t.Error(err)
		}
	})
	if status != 130 {
		t.Errorf("status %d, want 130 (SIGINT)", status)
	}
	if d := time.Since(start); d > 50*time.Second {
		t.Errorf("took %v: the key did not interrupt", d)
	}
}

func TestKeysReachCommand(t *testing.T) {
	o := newOuter(t, 24, 80)
	status := run(t, o, nil, nil, `echo ready; read -r line; echo "got [$line]"`, func() {
		o.waitFor(`ready`)
		o.master.Write([]byte("hello\r"))
	})
	if status != 0 {
		t.Errorf("status %d", status)
	}
	o.waitFor(`got \[hello\]`)
}

func TestResizeReachesCommand(t *testing.T) {
	o := newOuter(t, 24, 80)
	path := filepath.Join(t.TempDir(), "r.cast")
	rec, err := Create(path, Header{Width: 80, Height: 24}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	status := run(t, o, rec, nil, `trap 'stty size; exit 3' WINCH; echo ready; while :; do sleep 0.05; done`, func() {
		o.waitFor(`ready`)
		if err := pty.Setsize(o.master, &pty.Winsize{Rows: 33, Cols: 111}); err != nil {
			t.Fatal(err)
		}
		// The test is not in the outer terminal's session: it gets no
		// SIGWINCH from the kernel, so it sends itself one.
		syscall.Kill(os.Getpid(), syscall.SIGWINCH)
	})
	if status != 3 {
		t.Errorf("status %d, want 3 (the trap ran)", status)
	}
	o.waitFor(`33 111`)
	rec.Close()
	_, evs := readCast(t, path)
	resized := false
	for _, e := range evs {
		resized = resized || e.Code == "r" && e.Data == "111x33"
	}
	if !resized {
		t.Errorf("no resize event in %+v", evs)
	}
}

// TestManyLinesArriveComplete: every line the command prints reaches the
// outer terminal, the last ones printed just before its exit included.
func TestManyLinesArriveComplete(t *testing.T) {
	const lines = 200000
	o := newOuter(t, 24, 80)
	status := run(t, o, nil, nil, `seq 200000; echo end-of-output`, nil)
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	o.waitFor(`end-of-output\r\n`)
	got := strings.Split(o.text(), "\r\n")
	n := 0
	for i, l := range got {
		if l == "end-of-output" {
			break
		}
		if want := i + 1; l != strconv.Itoa(want) {
			t.Fatalf("line %d is %q, want %d", i+1, l, want)
		}
		n++
	}
	if n != lines {
		t.Errorf("%d lines arrived, want %d", n, lines)
	}
	t.Logf("%d of %d lines arrived", n, lines)
}

// TestStartFunctionGetsThePty: the start function (the sandbox's jailed
// start) is given the command with the pty as its standard files, and its
// failure leaves the terminal as it was.
func TestStartFunctionGetsThePty(t *testing.T) {
	o := newOuter(t, 24, 80)
	var sawTTY bool
	status := run(t, o, nil, func(cmd *exec.Cmd) error {
		f, ok := cmd.Stdin.(*os.File)
		sawTTY = ok && cmd.Stdout == io.Writer(f) && cmd.Stderr == io.Writer(f) && strings.HasPrefix(f.Name(), "/dev/pts/") &&
			cmd.SysProcAttr != nil && cmd.SysProcAttr.Setsid && cmd.SysProcAttr.Setctty
		return cmd.Start()
	}, `echo jailed`, nil)
	if !sawTTY || status != 0 {
		t.Errorf("start saw the pty: %v; status %d", sawTTY, status)
	}
	before := termios(t, o.slave)
	term := &Terminal{In: o.slave, Out: o.slave}
	_, err := term.Start(exec.Command("bash", "-c", "true"), func(*exec.Cmd) error { return errors.New("no jail") })
	if err == nil || !strings.Contains(err.Error(), "no jail") {
		t.Errorf("error %v, want the start function's", err)
	}
	if after := termios(t, o.slave); after != before {
		t.Error("a failed start left the terminal changed")
	}
}

func TestUsable(t *testing.T) {
	o := newOuter(t, 24, 80)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if Usable(r, o.slave) || Usable(o.slave, w) {
		t.Error("a pipe in or out must not get a pty")
	}
	// The test process is not in the outer terminal's foreground process
	// group (the pty is no one's controlling terminal).
	if Usable(o.slave, o.slave) {
		t.Error("a process outside the terminal's foreground group must not get a pty")
	}
}

func TestRecordedSession(t *testing.T) {
	o := newOuter(t, 24, 80)
	path := filepath.Join(t.TempDir(), "x.cast")
	rec, err := Create(path, Header{Width: 80, Height: 24, Title: "test"}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	status := run(t, o, rec, nil, `echo ready; read -r x; printf 'héllo %s\n' "$x"`, func() {
		o.waitFor(`ready`)
		o.master.Write([]byte("typed\r"))
	})
	if err := rec.Close(); err != nil || status != 0 {
		t.Fatalf("close: %v, status %d", err, status)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("recording file: %v %v", info.Mode(), err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	var out bytes.Buffer
	res, err := Play(&out, f, PlayOptions{Speed: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "héllo typed\r\n") || res.Truncated {
		t.Errorf("replayed %q (truncated %v)", out.String(), res.Truncated)
	}
	data, _ := os.ReadFile(path)
	if !regexp.MustCompile(`(?m)^\[[0-9.]+, "i", "typed\\r"\]$`).Match(data) {
		t.Errorf("no input event in\n%s", data)
	}
}

// TestLeftoverProcessDoesNotHang: a process the command leaves behind
// holding the pty does not keep guardsh waiting (the drain ends after
// drainIdle without output).
func TestLeftoverProcessDoesNotHang(t *testing.T) {
	o := newOuter(t, 24, 80)
	start := time.Now()
	status := run(t, o, nil, nil, `(trap '' HUP; exec sleep 5) & echo left`, nil)
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("took %v: waited for the leftover process", d)
	}
	if status != 0 {
		t.Errorf("status %d", status)
	}
	o.waitFor(`left`)
}

// A recording capped below one chunk of output keeps what fits of it,
// then the marker; the header is in the file before anything is closed.
func TestRecordingKeepsWhatFits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.cast")
	r, err := Create(path, Header{Width: 80, Height: 24}, 4096, false)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); !strings.HasPrefix(string(data), `{"version":2`) {
		t.Errorf("the header is not in the file yet: %q", data)
	}
	r.Output([]byte(strings.Repeat("0123456789\n", 1000)))
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if len(data) < 3000 || len(data) > 4096+200 || !strings.Contains(string(data), TruncatedMarker) {
		t.Errorf("recording of %d bytes:\n%.300s", len(data), data)
	}
}
