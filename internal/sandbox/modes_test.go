package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// TestPutBackLooksOnceOpensToChange: PutBack looks at each recorded path
// with one lstat and opens only those with something to take back; each
// kind of change a command can make to a recorded directory's mode is
// still taken back (added permission, setgid and sticky kept or taken as
// takenBack says), and an unchanged or tightened one is left as it is and
// reported as less only when tightened.
func TestPutBackLooksOnceOpensToChange(t *testing.T) {
	for _, c := range []struct {
		name      string
		was, now  fs.FileMode
		put, less bool
	}{
		{"unchanged", 0o750, 0o750, false, false},
		{"loosened", 0o750, 0o777, true, false},
		{"setgid added", 0o750, 0o750 | fs.ModeSetgid, true, false},
		{"tightened", 0o750, 0o700, false, true},
		{"loosened and tightened", 0o750, 0o705, true, true},
		{"sticky added", 0o750, 0o750 | fs.ModeSticky, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := filepath.Join(t.TempDir(), "d")
			if err := os.Mkdir(d, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(d, c.was); err != nil {
				t.Fatal(err)
			}
			j := &Jail{modes: keepModes(nil, []string{d})}
			if err := os.Chmod(d, c.now); err != nil { // the command's change
				t.Fatal(err)
			}
			put, less := j.PutBack(nil)
			var gotPut, gotLess bool
			for _, p := range put {
				gotPut = gotPut || strings.HasPrefix(p, d+" ")
			}
			for _, l := range less {
				gotLess = gotLess || strings.HasPrefix(l, d+" ")
			}
			fi, err := os.Lstat(d)
			if err != nil {
				t.Fatal(err)
			}
			if want := takenBack(c.was, c.now); fi.Mode()&modeBits != want {
				t.Errorf("mode %v, want %v", fi.Mode()&modeBits, want)
			}
			if gotPut != c.put || gotLess != c.less {
				t.Errorf("put %q, less %q", put, less)
			}
		})
	}
}

// TestPutBackRunnable: a Spec.Runnable program whose owner's read and
// execute bits the command took away gets them back (attack run 79 made
// guardsh's own binary unrunnable from the jail), and only those; a kept
// file that is no such program keeps what the command took.
func TestPutBackRunnable(t *testing.T) {
	dir := t.TempDir()
	bin, other := filepath.Join(dir, "guardsh"), filepath.Join(dir, "other")
	for _, f := range []string{bin, other} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	j := &Jail{modes: keepModes([]string{bin, other}, nil)}
	m, _ := lstatMode(bin)
	j.runnable = map[dirID]bool{{m.dev, m.ino}: true}
	for _, f := range []string{bin, other} {
		if err := os.Chmod(f, 0o600); err != nil { // the command's change
			t.Fatal(err)
		}
	}
	j.PutBack(nil)
	for f, want := range map[string]fs.FileMode{bin: 0o700, other: 0o600} {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %04o after the put-back, want %04o", filepath.Base(f), fi.Mode().Perm(), want)
		}
	}
}
