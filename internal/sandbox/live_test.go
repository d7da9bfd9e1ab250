package sandbox

import (
	"errors"
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
		time.Sleep(300 * time.Millisecond)
		released <- time.Now()
		j.Release()
	}()
	u, err := AnnounceUnjailed(dir, 10*time.Second, func() { waited = true })
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
