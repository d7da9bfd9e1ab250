package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/fsview"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// openFDs returns the descriptors open in this process.
func openFDs(t *testing.T) map[int]bool {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil {
			out[fd] = true
		}
	}
	return out
}

// TestHeldDescriptorsStayOutOfTheJail: the descriptors the jail's build
// leaves open instead of closing (one per rule) are open in guardsh, and
// none of them is open in the jailed command — they are close-on-exec.
// The command probes every descriptor number up to the highest open in
// guardsh (bash's <& dups it, which any open descriptor allows).
func TestHeldDescriptorsStayOutOfTheJail(t *testing.T) {
	if Unavailable() != "" {
		t.Skip("sandbox " + Unavailable())
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for i := range 50 {
		if err := os.MkdirAll(filepath.Join(home, fmt.Sprintf("d%02d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	before := openFDs(t)
	j := Prepare(Spec{Write: []string{filepath.Join(dir, "ws")}, Hidden: []string{filepath.Join(home, ".ssh")}})
	defer j.Close()
	if err := j.Ready(); err != nil {
		t.Fatal(err)
	}
	after := openFDs(t)
	var new []int
	top := 0
	for fd := range after {
		if _, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err != nil {
			continue // openFDs' own listing, closed since
		}
		if !before[fd] {
			new = append(new, fd)
			if !isHeld(fd) {
				l, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
				t.Errorf("descriptor %d (%s) is open but not counted as held", fd, l)
			}
		}
		top = max(top, fd)
	}
	if len(new) < 50 {
		t.Fatalf("the build left %d descriptors open, want one per rule (50 entries of home and more): the shortcut is not in use", len(new))
	}
	cmd := exec.Command("/bin/bash", "-c", fmt.Sprintf(`exec 2>/dev/null; for ((fd=3; fd<=%d; fd++)); do { : <&$fd; } && echo $fd; done; :`, top+8))
	var out strings.Builder
	cmd.Stdout = &out
	if err := j.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(out.String()) {
		if fd, _ := strconv.Atoi(f); slices.Contains(new, fd) {
			t.Errorf("the jailed command has descriptor %d, one the build left open in guardsh, open too", fd)
		}
	}
	StopLeftovers()
	// Once the command has started, guardsh closes them too (they would
	// hold a mount busy for the command's time).
	waitReleased(t, new)
}

// waitReleased waits, up to 2 s, until none of fds is open (see
// releaseHeld), and fails the test if one still is.
func waitReleased(t *testing.T, fds []int) {
	t.Helper()
	was := map[int]string{} // what each named
	for _, fd := range fds {
		was[fd], _ = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		open := 0
		for _, fd := range fds {
			if isHeld(fd) {
				open++
			}
		}
		if open == 0 {
			still := 0
			for _, fd := range fds {
				// (a number closed may have been reused since, for
				// another file)
				if l, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)); err == nil && l == was[fd] {
					still++
				}
			}
			if still > len(fds)/10 {
				t.Errorf("%d of the build's %d descriptors are still open after their release", still, len(fds))
			}
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%d of the build's %d descriptors still held", open, len(fds))
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestUnusedJailReleases: a jail closed without a command (the decision
// did not jail it) closes the descriptors its build left open.
func TestUnusedJailReleases(t *testing.T) {
	if Unavailable() != "" {
		t.Skip("sandbox " + Unavailable())
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "home", ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	before := openFDs(t)
	j := Prepare(Spec{Hidden: []string{filepath.Join(dir, "home", ".ssh")}})
	if err := j.Ready(); err != nil {
		t.Fatal(err)
	}
	var new []int
	for fd := range openFDs(t) {
		if !before[fd] && isHeld(fd) {
			new = append(new, fd)
		}
	}
	if len(new) == 0 {
		t.Fatal("the build left no descriptor open")
	}
	j.Close()
	waitReleased(t, new)
}

// TestHeldDescriptorsBounded: a home of 5,000 entries beside a hidden
// path under an open-file limit of 1,024 builds a jail (the descriptors
// past the bound, a quarter of the limit, are closed one by one), leaves
// the process with room under its limit, and every entry is granted —
// the last one listed too.
func TestHeldDescriptorsBounded(t *testing.T) {
	if Unavailable() != "" {
		t.Skip("sandbox " + Unavailable())
	}
	if os.Getenv("GUARDSH_TEST_BOUNDED") == "" {
		// In a process of its own: the other tests' jails have left
		// descriptors open in this one.
		cmd := exec.Command(os.Args[0], "-test.run", "^TestHeldDescriptorsBounded$", "-test.v")
		cmd.Env = append(os.Environ(), "GUARDSH_TEST_BOUNDED=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS") {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	var was unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &was); err != nil {
		t.Fatal(err)
	}
	lim := unix.Rlimit{Cur: 1024, Max: was.Max}
	if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	defer unix.Setrlimit(unix.RLIMIT_NOFILE, &was)
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		if err := os.WriteFile(filepath.Join(home, fmt.Sprintf("f%04d", i)), []byte("ok"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ents, err := fsview.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	last := ents[len(ents)-1].Name() // the last listed: added past the bound
	if last == ".ssh" {
		last = ents[len(ents)-2].Name()
	}
	j := Prepare(Spec{Hidden: []string{filepath.Join(home, ".ssh")}})
	defer j.Close()
	if err := j.Ready(); err != nil {
		t.Fatalf("the jail of a 5,000-entry home: %v", err)
	}
	if n := len(openFDs(t)); n > 1024*3/4 {
		t.Errorf("%d descriptors open under a limit of 1,024", n)
	}
	cmd := exec.Command("/bin/cat", filepath.Join(home, last), filepath.Join(home, "f0000"))
	out, err := jailedOutput(j, cmd)
	if err != nil || out != "okok" {
		t.Errorf("cat of %s and f0000 in the jail: %q, %v", last, out, err)
	}
	j2 := Prepare(Spec{Hidden: []string{filepath.Join(home, ".ssh")}})
	defer j2.Close()
	if out, err := jailedOutput(j2, exec.Command("/bin/cat", filepath.Join(home, ".ssh", "id"))); err == nil || strings.Contains(out, "KEY") {
		t.Errorf("the key was read in the jail: %q, %v", out, err)
	}
	StopLeftovers()
}

func jailedOutput(j *Jail, cmd *exec.Cmd) (string, error) {
	var out strings.Builder
	cmd.Stdout = &out
	if err := j.Start(cmd); err != nil {
		return "", err
	}
	err := cmd.Wait()
	return out.String(), err
}

// TestSwappedEntryGetsNoRule: an entry the listing found a directory that
// is a symbolic link to a hidden directory by the time its rule is added
// (swapped meanwhile) gets no rule: the entries are opened relative to
// their directory without following a link, where opening the path would
// have granted the hidden directory itself.
func TestSwappedEntryGetsNoRule(t *testing.T) {
	if Unavailable() != "" {
		t.Skip("sandbox " + Unavailable())
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	secret := filepath.Join(home, ".ssh")
	for _, d := range []string{secret, filepath.Join(home, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(secret, "id"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	v := fsview.New()
	if _, err := v.Entries(home); err != nil { // the listing: sub is a directory
		t.Fatal(err)
	}
	// The swap, after the listing.
	if err := os.Remove(filepath.Join(home, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(home, "sub")); err != nil {
		t.Fatal(err)
	}
	out := make(chan string)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends confined
		fd, flags, _, _, err := Spec{Hidden: []string{secret}}.rulesetIn(v)
		if err != nil {
			out <- err.Error()
			return
		}
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			out <- err.Error()
			return
		}
		if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
			out <- err.Error()
			return
		}
		b, err := exec.Command("/bin/cat", filepath.Join(home, "sub", "id")).CombinedOutput()
		out <- fmt.Sprintf("%s %v", b, err)
	}()
	if got := <-out; strings.Contains(got, "KEY") || !strings.Contains(got, "Permission denied") {
		t.Errorf("cat through the swapped entry in the jail: %s", got)
	}
}
