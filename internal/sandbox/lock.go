package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// Jailed commands in one workspace take turns from the record of its
// protected paths (Keep) to their put-back (Restore): a second command
// that recorded them while the first ran would record the first's change
// and put it back after the first had undone it (an attack run's two
// parallel commands left a planted core.fsmonitor so). The turn is an
// exclusive flock(2) on a file per workspace in dir (guardsh's state,
// hidden from the jail), held until unlock or the process ends.

// lockFile opens (making it and dir when needed) the lock file of
// workspace ws in dir.
func lockFile(dir, ws string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: lock directory: %w", err)
	}
	sum := sha256.Sum256([]byte(ws))
	f, err := os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:16])+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sandbox: lock file: %w", err)
	}
	return f, nil
}

// TryLockWorkspace takes the turn of workspace ws if no other jailed
// command holds it now; ok false otherwise (or when the lock file cannot
// be opened).
func TryLockWorkspace(dir, ws string) (unlock func(), ok bool) {
	f, err := lockFile(dir, ws)
	if err != nil {
		return nil, false
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}

// LockWorkspace waits up to wait for the turn of workspace ws. waited
// reports that another jailed command held it when asked. Errors: the
// lock file cannot be opened, or the turn did not come within wait.
func LockWorkspace(dir, ws string, wait time.Duration) (unlock func(), waited bool, err error) {
	f, err := lockFile(dir, ws)
	if err != nil {
		return nil, false, err
	}
	deadline := time.Now().Add(wait)
	for {
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
			return func() { f.Close() }, waited, nil
		}
		waited = true
		if time.Now().After(deadline) {
			f.Close()
			return nil, true, fmt.Errorf("sandbox: another jailed command in this workspace ran for more than %s; jailed commands in one workspace take turns", wait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
