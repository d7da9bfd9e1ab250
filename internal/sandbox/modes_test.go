package sandbox

import (
	"io/fs"
	"testing"
)

// TestTakenBack: the put-back of modes takes away every permission,
// setuid and setgid bit a command added, gives back none it took away,
// and keeps a sticky bit either had (/tmp's, which only restricts).
func TestTakenBack(t *testing.T) {
	for _, c := range []struct{ was, now, want fs.FileMode }{
		{0o755, 0o777, 0o755},
		{0o600, 0o644, 0o600},
		{0o600, 0, 0},
		{0o644, 0o600, 0o600},
		{0o755 | fs.ModeSticky, 0o777, 0o755 | fs.ModeSticky},
		{0o777, 0o777 | fs.ModeSticky, 0o777 | fs.ModeSticky},
		{0o755, 0o755 | fs.ModeSetuid | fs.ModeSetgid, 0o755},
		{0o755 | fs.ModeSetgid, 0o755 | fs.ModeSetgid, 0o755 | fs.ModeSetgid},
		{0o755 | fs.ModeSetgid, 0o755, 0o755},
	} {
		if got := takenBack(c.was, c.now); got != c.want {
			t.Errorf("takenBack(%v, %v) = %v, want %v", c.was, c.now, got, c.want)
		}
	}
}
