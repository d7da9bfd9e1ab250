package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
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

// TestPutBackHoldsTheFile: the put-back changes the very file it recorded,
// not what its path leads to by then — another jailed command swapped a
// recorded directory for a link to ~/.ssh while the put-back ran, and the
// chmod followed the link (an attack run's find).
func TestPutBackHoldsTheFile(t *testing.T) {
	dir := t.TempDir()
	tmp, secret := filepath.Join(dir, "tmp"), filepath.Join(dir, "ssh")
	for _, d := range []string{tmp, secret} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	j := &Jail{modes: keepModes(nil, []string{tmp})}
	if err := os.Chmod(tmp, 0o777); err != nil { // the command's change
		t.Fatal(err)
	}
	put, _ := j.PutBack(func() {
		// The swap, while the workspace is put back.
		if err := os.Rename(tmp, tmp+".x"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secret, tmp); err != nil {
			t.Fatal(err)
		}
	})
	if fi, err := os.Stat(secret); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the put-back followed the link: %s is %v, %v (said %q)", secret, fi.Mode().Perm(), err, put)
	}
	if fi, err := os.Stat(tmp + ".x"); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the recorded directory is %v, %v; want 0755 (said %q)", fi.Mode().Perm(), err, put)
	}
}
