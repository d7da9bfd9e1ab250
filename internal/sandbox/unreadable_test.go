package sandbox_test

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// TestUnreadable: a file is Unreadable only when this process, holding no
// capability, could neither read nor write it by its permission bits and
// could not change them: owned by another user, with no ACL, and no bit
// for a group it is in or for others. Cases needing another owner run as
// root (which can chown).
func TestUnreadable(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte("secret\n"), 0o600))
		must(t, os.Chmod(p, mode))
		return p
	}
	own := file("own", 0)
	if sandbox.Unreadable(own) {
		t.Errorf("a file this user owns (mode 0) is Unreadable: its owner may chmod it")
	}
	if sandbox.Unreadable(filepath.Join(dir, "missing")) || sandbox.Unreadable(dir) {
		t.Errorf("a missing path or a directory is Unreadable")
	}
	if os.Geteuid() != 0 {
		t.Skip("the cases of another owner need root to chown")
	}
	nobody := func(name string, mode os.FileMode, gid int) string {
		p := file(name, mode)
		must(t, os.Chown(p, 65534, gid))
		must(t, os.Chmod(p, mode))
		return p
	}
	for _, c := range []struct {
		name string
		mode os.FileMode
		gid  int
		want bool
	}{
		{"others none", 0o600, 65534, true},
		{"others read", 0o604, 65534, false},
		{"others write", 0o602, 65534, false},
		{"own group none", 0o600, os.Getegid(), true},
		{"own group read", 0o640, os.Getegid(), false},
		{"own group write", 0o620, os.Getegid(), false},
		{"other group read", 0o640, 65534, true},
		{"others execute", 0o601, 65534, false},
		{"own group execute", 0o610, os.Getegid(), false},
		{"owner execute only", 0o700, 65534, true},
	} {
		p := nobody(strings.ReplaceAll(c.name, " ", "-"), c.mode, c.gid)
		if got := sandbox.Unreadable(p); got != c.want {
			t.Errorf("%s (%o, gid %d): Unreadable = %v, want %v", c.name, c.mode, c.gid, got, c.want)
		}
	}
	link := filepath.Join(dir, "link")
	must(t, os.Symlink(nobody("target", 0o600, 65534), link))
	if sandbox.Unreadable(link) {
		t.Errorf("a link is Unreadable: the carve resolves it, this check does not look through it")
	}
	// An ACL entry for this user grants what the bits do not.
	acl := nobody("acl", 0o600, 65534)
	if err := unix.Setxattr(acl, "system.posix_acl_access", aclGranting(uint32(os.Geteuid())), 0); err != nil {
		t.Logf("no ACL case: %v", err)
	} else if sandbox.Unreadable(acl) {
		t.Errorf("a file whose ACL lets this user read it is Unreadable")
	}
}

// TestUnreadableOnlyWhereTheKernelChecks: a file whose bits the kernel
// does not enforce itself is never Unreadable, however its bits read: on
// FUSE, NFS or CIFS a daemon or a server decides (an attack run read a
// FUSE mount's 0600 file of another owner from the jail). /proc stands in
// for them here: another user's /proc/PID/environ is mode 0400, owned by
// that user, with no ACL.
func TestUnreadableOnlyWhereTheKernelChecks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to start a process as another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is missing")
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "10")
	must(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	environ := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "environ")
	var st unix.Stat_t
	for range 100 { // until the process has taken its user
		if unix.Lstat(environ, &st) == nil && st.Uid == 65534 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st.Uid != 65534 || st.Mode&0o077 != 0 {
		t.Fatalf("%s: uid %d mode %o; the test needs another user's file with no bits for others", environ, st.Uid, st.Mode&0o777)
	}
	if sandbox.Unreadable(environ) {
		t.Errorf("%s, on a file system whose bits the kernel does not check itself, is Unreadable", environ)
	}
	// The same file's bits on a file system that enforces them.
	copied := filepath.Join(t.TempDir(), "environ")
	must(t, os.WriteFile(copied, nil, 0o400))
	must(t, os.Chown(copied, 65534, 65534))
	if !sandbox.Unreadable(copied) {
		t.Errorf("%s is not Unreadable here: the case above proves nothing", copied)
	}
}

// aclGranting returns a POSIX access ACL, in the kernel's xattr form
// (version 2, then tag, permissions and id per entry), that gives uid
// read on top of bits 0600.
func aclGranting(uid uint32) []byte {
	const (
		userObj, user, groupObj, mask, other = 0x01, 0x02, 0x04, 0x10, 0x20
		undefined                            = 0xffffffff
	)
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{userObj, 6, undefined}, {user, 4, uid}, {groupObj, 0, undefined}, {mask, 4, undefined}, {other, 0, undefined}} {
		b = binary.LittleEndian.AppendUint16(b, e.tag)
		b = binary.LittleEndian.AppendUint16(b, e.perm)
		b = binary.LittleEndian.AppendUint32(b, e.id)
	}
	return b
}

// TestUncarvedSecretStaysUnread: a hidden file the jail leaves uncarved
// because it is Unreadable (another user's, mode 0600) is still not read
// from the jail: root reads it outside (the test proves the environment
// would let it), and cannot inside, where it holds no CAP_DAC_OVERRIDE.
func TestUncarvedSecretStaysUnread(t *testing.T) {
	needJail(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root: as another user the file is unreadable either way")
	}
	p := newPlace(t)
	secret := filepath.Join(p.out, "shadow")
	must(t, os.WriteFile(secret, []byte("root:$6$DECOY:1:0:99999:7:::\n"), 0o600))
	must(t, os.Chown(secret, 65534, 65534))
	if !sandbox.Unreadable(secret) {
		t.Fatalf("%s is not Unreadable: the test needs a file the jail leaves uncarved", secret)
	}
	spec := sandbox.Spec{Write: []string{p.ws}, Hidden: []string{secret}}
	stealsOnlyUnjailed(t, p, spec, `cat "$OUT/shadow"; cp "$OUT/shadow" "$WS/copy" && cat "$WS/copy"`, "DECOY", nil)
}

// TestKeptModesPutBack: a kept path (a hidden path holding no secret) is
// readable in the jail, and a jailed chmod of it is taken back as a
// hidden path's is.
func TestKeptModesPutBack(t *testing.T) {
	needJail(t)
	p := newPlace(t)
	kept := filepath.Join(p.out, "shadow")
	must(t, os.WriteFile(kept, []byte("root:*:1:0:99999:7:::\n"), 0o640))
	cmd := exec.Command("/bin/bash", "-c", `cat "$1" && chmod 0666 "$1"`, "bash", kept)
	cmd.Dir = p.ws
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	j := sandbox.Prepare(sandbox.Spec{Write: []string{p.ws}, Kept: []string{kept}})
	defer j.Close()
	must(t, j.Start(cmd))
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "root:*") {
		t.Fatalf("the jail could not read and chmod a kept file: %v %s", err, out.String())
	}
	if fi, err := os.Stat(kept); err != nil || fi.Mode().Perm() != 0o666 {
		t.Fatalf("the jailed chmod did not take effect here: %v %v", fi.Mode().Perm(), err)
	}
	put, _ := j.PutBack(nil)
	if fi, err := os.Stat(kept); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("a kept file's mode was not put back: %v %v (PutBack said %q)", fi.Mode().Perm(), err, put)
	}
}
