package sandbox_test

import (
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// TestWorkspaceTurns: one jailed command at a time holds a workspace's
// turn; another workspace's is its own; a wait ends in an error naming
// the wait, and the turn comes once released.
func TestWorkspaceTurns(t *testing.T) {
	dir := t.TempDir()
	unlock, ok := sandbox.TryLockWorkspace(dir, "/w/a")
	if !ok {
		t.Fatal("a free turn was not taken")
	}
	if _, ok := sandbox.TryLockWorkspace(dir, "/w/a"); ok {
		t.Fatal("a held turn was taken again")
	}
	other, ok := sandbox.TryLockWorkspace(dir, "/w/b")
	if !ok {
		t.Fatal("another workspace's turn was not free")
	}
	other()
	if _, waited, err := sandbox.LockWorkspace(dir, "/w/a", 50*time.Millisecond); err == nil || !waited {
		t.Fatalf("waiting for a held turn: waited %v, err %v", waited, err)
	}
	go func() { time.Sleep(50 * time.Millisecond); unlock() }()
	again, waited, err := sandbox.LockWorkspace(dir, "/w/a", 5*time.Second)
	if err != nil || !waited {
		t.Fatalf("the released turn: waited %v, err %v", waited, err)
	}
	again()
}
