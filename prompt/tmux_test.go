package prompt

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// startTmux starts a tmux server of its own and returns its $TMUX value.
func startTmux(t *testing.T) string {
	t.Helper()
	sock := fmt.Sprintf("guardsh-prompt-%d-%d", os.Getpid(), time.Now().UnixNano())
	if out, err := exec.Command("tmux", "-L", sock, "-f", "/dev/null", "new-session", "-d", "sleep 30").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", sock, "kill-server").Run() })
	out, err := exec.Command("tmux", "-L", sock, "display", "-p", "#{socket_path},#{pid},0").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func startSleep(t *testing.T) int {
	t.Helper()
	c := exec.Command("sleep", "30")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c.Process.Pid
}

// TestTmuxServerMustBeOlderThanTheAgent: the popup goes only to a tmux
// server that was running before the agent started (a server the agent
// started is younger).
func TestTmuxServerMustBeOlderThanTheAgent(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	human := startTmux(t)
	time.Sleep(50 * time.Millisecond) // start times count 10 ms ticks
	agent := startSleep(t)
	time.Sleep(50 * time.Millisecond)
	agents := startTmux(t)
	if _, err := tmuxServer(human, agent); err != nil {
		t.Errorf("the human's server refused: %v", err)
	}
	if _, err := tmuxServer(agents, agent); err == nil || !strings.Contains(err.Error(), "started after") {
		t.Errorf("a server started after the agent was used: %v", err)
	}
	// $TMUX naming a process that is not tmux.
	if _, err := tmuxServer(fmt.Sprintf("/tmp/x,%d,0", agent), agent); err == nil {
		t.Error("a process that is not tmux was taken for the server")
	}
}
