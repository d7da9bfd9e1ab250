package prompt

import (
	"context"
	"fmt"
	"github.com/guardsh/guardsh/internal/sysbin"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// startTime is a process's start time in clock ticks since boot (field 22
// of /proc/PID/stat).
func startTime(pid int) (uint64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	return strconv.ParseUint(f[19], 10, 64)
}

// isTmux reports whether pid runs a program named tmux.
func isTmux(pid int) bool {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return err == nil && filepath.Base(exe) == "tmux"
}

// tmuxServer is the tmux server named by $TMUX ("SOCKET,PID,SESSION"),
// if it is a tmux process that started before the agent (pid agent): a
// server the agent started itself is younger than the agent, and is not a
// channel to the human.
func tmuxServer(tmuxEnv string, agent int) (int, error) {
	f := strings.Split(tmuxEnv, ",")
	if len(f) < 2 {
		return 0, fmt.Errorf("TMUX=%q: not SOCKET,PID,SESSION", tmuxEnv)
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 1 || !isTmux(pid) {
		return 0, fmt.Errorf("TMUX=%q: no tmux server with that pid", tmuxEnv)
	}
	if err := olderThan(pid, agent); err != nil {
		return 0, err
	}
	return pid, nil
}

// olderThan checks that process server started before process agent.
func olderThan(server, agent int) error {
	s, err := startTime(server)
	if err != nil {
		return err
	}
	a, err := startTime(agent)
	if err != nil {
		return err
	}
	if s >= a {
		return fmt.Errorf("the tmux server (pid %d) started after the process that asked (pid %d): not the human's", server, agent)
	}
	return nil
}

// popup shows the dialog in a tmux display-popup on the human's client
// (approval.prompt: tmux) and returns the answer given there. ok is false
// (the caller goes on headless) when tmux is not the human's or no
// answer came.
func (p *Prompter) popup(req Request) (Answer, bool) {
	env := os.Getenv("TMUX")
	if env == "" || p.Exe == "" {
		return Answer{}, false
	}
	if _, err := tmuxServer(env, p.PPID); err != nil {
		p.say("guardsh: prompt: tmux: %v", err)
		return Answer{}, false
	}
	a, err := p.Spool.Add(req, p.Config.Expires)
	if err == nil && a.Agent != p.PPID {
		a.Agent = p.PPID
		err = p.Spool.write(a)
	}
	if err != nil {
		p.say("guardsh: %v", err)
		return Answer{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.Config.Timeout)
	defer cancel()
	began := time.Now()
	tmux, err := sysbin.Path("tmux")
	if err != nil {
		p.say("guardsh: prompt: tmux: %v", err)
		return Answer{}, false
	}
	cmd := exec.CommandContext(ctx, tmux, "display-popup", "-E", "-w", "90%", "-h", "60%",
		shellQuote(p.Exe)+" approvals dialog "+a.ID)
	if out, err := cmd.CombinedOutput(); err != nil {
		p.say("guardsh: prompt: tmux display-popup: %v %s", err, strings.TrimSpace(string(out)))
	}
	got, err := p.Spool.Get(a.ID)
	if err != nil || got.Status == Pending || !p.Spool.take(a.ID) {
		return Answer{}, false
	}
	return given(got, time.Since(began)), true
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// PopupDialog is `guardsh approvals dialog ID`, run by the tmux popup: it
// shows approval id's dialog on this terminal and records the answer in
// the spool ("always" rules go to userConfig). It refuses unless a tmux
// server that started before the agent that asked is this process's
// ancestor, and nothing above it runs guardsh (exe).
func PopupDialog(s Spool, id, exe, userConfig string, initial []byte, timeout time.Duration) error {
	a, err := s.Get(id)
	if err != nil {
		return err
	}
	if a.Status != Pending || a.Agent == 0 {
		return fmt.Errorf("approval %s is not waiting for a popup", id)
	}
	if pid := UnderGuardsh(os.Getpid(), exe); pid != 0 {
		return fmt.Errorf("refused: this runs under guardsh (pid %d)", pid)
	}
	server := 0
	for pid, n := os.Getpid(), 0; pid > 1 && n < 64; n++ {
		st, err := ReadStat(pid)
		if err != nil {
			break
		}
		pid = st.PPID
		if isTmux(pid) {
			server = pid
			break
		}
	}
	if server == 0 {
		return fmt.Errorf("refused: not run by a tmux server")
	}
	if err := olderThan(server, a.Agent); err != nil {
		return fmt.Errorf("refused: %w", err)
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("refused: no terminal: %w", err)
	}
	defer tty.Close()
	reply, derr := Dialog(tty, a.Request, timeout)
	switch {
	case derr != nil || reply.Why != "":
		return fmt.Errorf("no answer: %s", reply.Why)
	case reply.Choice == Deny:
		_, err = s.Decide(id, Denied, false, reply.Message)
	case reply.Choice == Exact || reply.Choice == Prefix:
		if _, err = Remember(userConfig, reply.Patterns, initial); err == nil {
			_, err = s.Decide(id, Approved, true, "")
		}
	default:
		_, err = s.Decide(id, Approved, false, "")
	}
	return err
}
