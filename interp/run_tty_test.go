package interp_test

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/guardsh/guardsh/internal/tty"
	"github.com/guardsh/guardsh/interp"
)

// TestCommandOnTerminal: Run.Command with a Terminal runs bash on a pty
// relayed to the terminal (a real pty standing for guardsh's): bash's
// status and death by signal come back as without one, and a script too
// long for one argument (the sealed memory file on fd 3) runs there too.
func TestCommandOnTerminal(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	m, s, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer m.Close()
	defer s.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		b := make([]byte, 8192)
		for {
			n, err := m.Read(b)
			mu.Lock()
			screen.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	var notUsed bytes.Buffer
	r := interp.Run{Shell: bash, Env: os.Environ(), Stdin: s, Stdout: &notUsed, Stderr: &notUsed,
		Terminal: &tty.Terminal{In: s, Out: s}}
	for _, c := range []struct {
		text   string
		status int
		shows  string
	}{
		{`[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo on-a-tty; exit 3`, 3, "on-a-tty\r\n"},
		{`echo dying; kill -TERM $$`, 143, "dying\r\n"},
		{"echo long-script-ok #" + strings.Repeat("x", 200000), 0, "long-script-ok\r\n"},
	} {
		status, err := r.Command(c.text, nil)
		if err != nil || status != c.status {
			t.Errorf("%.40q: status %d (%v), want %d", c.text, status, err, c.status)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			mu.Lock()
			ok := strings.Contains(screen.String(), c.shows)
			mu.Unlock()
			if ok {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%.40q: terminal never showed %q", c.text, c.shows)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if notUsed.Len() > 0 {
		t.Errorf("output went to Stdout/Stderr instead of the terminal: %q", notUsed.String())
	}
}
