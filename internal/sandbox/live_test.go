package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLiveKindsExclude: while a jailed command is announced, an unjailed
// one waits (and is refused when its wait runs out), and the other way
// round; commands of one kind run side by side; two of different kinds
// announced at the same moment do not wait for each other forever.
func TestLiveKindsExclude(t *testing.T) {
	dir := t.TempDir()
	short := 100 * time.Millisecond
	j1, err := AnnounceJailed(dir, short, nil)
	if err != nil {
		t.Fatal(err)
	}
	j2, err := AnnounceJailed(dir, short, nil)
	if err != nil {
		t.Fatalf("a second jailed command waited for the first: %v", err)
	}
	var still *StillRunningError
	if _, err := AnnounceUnjailed(dir, short, nil); !errors.As(err, &still) {
		t.Fatalf("an unjailed command ran beside jailed ones: %v", err)
	}
	j1.Release()
	if _, err := AnnounceUnjailed(dir, short, nil); !errors.As(err, &still) {
		t.Fatalf("an unjailed command ran beside a jailed one: %v", err)
	}
	j2.Release()
	u1, err := AnnounceUnjailed(dir, short, nil)
	if err != nil {
		t.Fatalf("no jailed command runs, yet: %v", err)
	}
	u2, err := AnnounceUnjailed(dir, short, nil)
	if err != nil {
		t.Fatalf("a second unjailed command waited for the first: %v", err)
	}
	if _, err := AnnounceJailed(dir, short, nil); !errors.As(err, &still) {
		t.Fatalf("a jailed command ran beside unjailed ones: %v", err)
	}
	u1.Release()
	u2.Release()

	// An unjailed command waits until the jailed one ends, then runs.
	j, err := AnnounceJailed(dir, short, nil)
	if err != nil {
		t.Fatal(err)
	}
	waited := false
	released := make(chan time.Time, 1)
	go func() {
		time.Sleep(2 * waitingSaid)
		released <- time.Now()
		j.Release()
	}()
	u, err := AnnounceUnjailed(dir, 10*time.Second, func(string) { waited = true })
	if err != nil {
		t.Fatal(err)
	}
	if at := <-released; time.Now().Before(at) {
		t.Fatal("the unjailed command ran before the jailed one ended")
	}
	if !waited {
		t.Error("the unjailed command waited without saying so")
	}
	u.Release()
	// A moment's wait (a command of the other kind ending) is not said.
	j, err = AnnounceJailed(dir, short, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(waitingSaid / 10)
		j.Release()
	}()
	waited = false
	u, err = AnnounceUnjailed(dir, 10*time.Second, func(string) { waited = true })
	if err != nil {
		t.Fatal(err)
	}
	if waited {
		t.Error("a wait of a moment was said")
	}
	u.Release()

	// Many of both kinds at once: each gets through, and no two of
	// different kinds ever hold their announcements together.
	var mu sync.Mutex
	running := map[bool]int{}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jailed := i%2 == 0
			announce := AnnounceUnjailed
			if jailed {
				announce = AnnounceJailed
			}
			p, err := announce(dir, 20*time.Second, nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			running[jailed]++
			if running[!jailed] > 0 {
				t.Errorf("jailed and unjailed commands held their announcements together")
			}
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			running[jailed]--
			mu.Unlock()
			p.Release()
		}()
	}
	wg.Wait()
}

// TestJailedInsideUnjailed: a jailed command that runs inside an unjailed
// one of the same user (a tool starting $SHELL -c with SHELL set to
// guardsh) is refused at once, naming the command it runs in, rather
// than waiting for that command, which waits for it; one held up by an
// unrelated unjailed command waits as before. The jailed announcement
// is made in a child process (this test binary again, see
// TestAnnounceJailedChild).
func TestJailedInsideUnjailed(t *testing.T) {
	flock, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("no flock(1)")
	}
	dir := t.TempDir()
	child := func(wait time.Duration) (string, time.Duration) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAnnounceJailedChild$")
		cmd.Env = append(os.Environ(), "GUARDSH_TEST_ANNOUNCE_DIR="+dir, "GUARDSH_TEST_ANNOUNCE_WAIT="+wait.String())
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out), time.Since(start)
	}
	// The parent (this process) runs unjailed: the child is refused at
	// once, though it would wait 20 s.
	u, err := AnnounceUnjailed(dir, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, took := child(20 * time.Second)
	u.Release()
	if !strings.Contains(out, fmt.Sprintf("runs inside one of yours that runs outside the sandbox (guardsh, pid %d)", os.Getpid())) {
		t.Errorf("inside an unjailed command: %s", out)
	}
	if took > 10*time.Second {
		t.Errorf("inside an unjailed command, the jailed one waited %s", took)
	}
	// An unrelated process (a sibling) runs unjailed: the child waits
	// its time and is refused for the usual reason.
	if err := os.WriteFile(filepath.Join(dir, "unjailed.live"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	holder := exec.Command(flock, "-s", filepath.Join(dir, "unjailed.live"), "sleep", "5")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	time.Sleep(300 * time.Millisecond) // flock(1) takes the lock
	out, took = child(500 * time.Millisecond)
	if strings.Contains(out, "runs inside") || !strings.Contains(out, "is still running") || took < 500*time.Millisecond {
		t.Errorf("beside an unrelated unjailed command (after %s): %s", took, out)
	}
	// The refusal names the command waited for.
	if want := fmt.Sprintf("pid %d: %s -s %s sleep 5", holder.Process.Pid, flock, filepath.Join(dir, "unjailed.live")); !strings.Contains(out, want) {
		t.Errorf("the refusal does not name %q: %s", want, out)
	}
}

// TestAnnounceJailedChild is TestJailedInsideUnjailed's child: it
// announces a jailed command in GUARDSH_TEST_ANNOUNCE_DIR and prints
// the error. It does nothing in an ordinary test run.
func TestAnnounceJailedChild(t *testing.T) {
	dir := os.Getenv("GUARDSH_TEST_ANNOUNCE_DIR")
	if dir == "" {
		return
	}
	wait, err := time.ParseDuration(os.Getenv("GUARDSH_TEST_ANNOUNCE_WAIT"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := AnnounceJailed(dir, wait, nil)
	fmt.Printf("announce: %v\n", err)
	p.Release()
}
