package sandbox_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// place is a workspace, a directory outside it, and a home with an ssh
// key, for one escape attempt.
type place struct {
	ws, out, home string
}

func newPlace(t *testing.T) place {
	t.Helper()
	root := t.TempDir()
	p := place{ws: filepath.Join(root, "ws"), out: filepath.Join(root, "out"), home: filepath.Join(root, "home")}
	for _, d := range []string{p.ws, p.out, filepath.Join(p.home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(p.home, ".ssh", "id_ed25519"), []byte("PRIVATE KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (p place) spec() sandbox.Spec {
	return sandbox.Spec{Write: []string{p.ws}, Hidden: []string{filepath.Join(p.home, ".ssh")}}
}

// run runs script with the real bash in p.ws, jailed by spec or not, and
// returns its exit status and output.
func run(t *testing.T, p place, spec *sandbox.Spec, script string, extra ...*os.File) (int, string) {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = p.ws
	cmd.Env = append(os.Environ(), "WS="+p.ws, "OUT="+p.out, "HOME="+p.home)
	cmd.ExtraFiles = extra
	var b strings.Builder
	cmd.Stdout, cmd.Stderr = &b, &b
	var err error
	if spec != nil {
		err = sandbox.Start(cmd, *spec)
	} else {
		err = cmd.Start()
	}
	if err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	return cmd.ProcessState.ExitCode(), b.String()
}

func needJail(t *testing.T) {
	t.Helper()
	if why := sandbox.Unavailable(); why != "" {
		t.Skipf("sandbox %s", why)
	}
}

// TestEscapes runs each escape as an attacker would write it, once without
// the jail (where it must succeed, so the test proves the jail and not
// the environment) and once inside it (where it must fail). check says
// whether the escape took effect.
func TestEscapes(t *testing.T) {
	needJail(t)
	type escape struct {
		name   string
		script string
		// setup prepares p; check reports whether the escape worked.
		setup func(t *testing.T, p place)
		check func(p place) bool
		root  bool // needs root to set up
	}
	wrote := func(name string) func(p place) bool {
		return func(p place) bool {
			_, err := os.Stat(filepath.Join(p.out, name))
			return err == nil
		}
	}
	escapes := []escape{
		{name: "dot-dot", script: `echo x > "$WS/../out/f"`, check: wrote("f")},
		{name: "symlink", script: `ln -s "$OUT" "$WS/link" && echo x > "$WS/link/f"`, check: wrote("f")},
		{name: "symlink made before", script: `echo x > "$WS/link/f"`,
			setup: func(t *testing.T, p place) { must(t, os.Symlink(p.out, filepath.Join(p.ws, "link"))) }, check: wrote("f")},
		{name: "hard link", script: `ln "$OUT/victim" "$WS/hl" && echo changed >> "$WS/hl"`,
			setup: func(t *testing.T, p place) {
				must(t, os.WriteFile(filepath.Join(p.out, "victim"), []byte("v\n"), 0o644))
			},
			check: func(p place) bool {
				b, _ := os.ReadFile(filepath.Join(p.out, "victim"))
				return strings.Contains(string(b), "changed")
			}},
		{name: "rename out of the workspace", script: `echo x > "$WS/f" && mv "$WS/f" "$OUT/f"`, check: wrote("f")},
		{name: "proc self root", script: `echo x > "/proc/self/root$OUT/f"`, check: wrote("f")},
		{name: "proc self cwd", script: `cd "$OUT" && cd "$WS" && echo x > "/proc/$$/root/$OUT/f"`, check: wrote("f")},
		{name: "child re-execs", script: `exec /bin/sh -c 'exec python3 -S -c "open(\"$OUT/f\", \"w\").write(\"x\")"'`, check: wrote("f")},
		{name: "bash -c", script: `bash -c 'echo x > "$OUT/f"'`, check: wrote("f")},
		{name: "python -c", script: `python3 -S -c 'import os; open(os.environ["OUT"] + "/f", "w").write("x")'`, check: wrote("f")},
		{name: "make", script: `printf 'all:\n\techo x > "$$OUT/f"\n' > Makefile && make -s`, check: wrote("f")},
		{name: "background child outlives the shell", script: `(sleep 0.1; echo x > "$OUT/f") & disown`, check: wrote("f")},
		{name: "mount", root: true, script: `mkdir -p "$WS/m" && unshare -rm sh -c 'mount --bind "$OUT" "$WS/m" && echo x > "$WS/m/f"'`, check: wrote("f")},
		{name: "setuid helper", root: true,
			script: `setpriv --reuid=65534 --regid=65534 --clear-groups "$WS/suidcp" /etc/hostname "$OUT/f"`,
			setup: func(t *testing.T, p place) {
				data, err := os.ReadFile("/bin/cp")
				must(t, err)
				must(t, os.WriteFile(filepath.Join(p.ws, "suidcp"), data, 0o755))
				must(t, os.Chmod(filepath.Join(p.ws, "suidcp"), 0o755|os.ModeSetuid))
				// nobody may reach the helper, but not write out.
				for d := p.ws; d != filepath.Clean(os.TempDir()) && d != "/"; d = filepath.Dir(d) {
					must(t, os.Chmod(d, 0o755))
				}
			}, check: wrote("f")},
		{name: "device node", root: true, script: `mknod "$WS/null2" c 1 3`,
			check: func(p place) bool { _, err := os.Lstat(filepath.Join(p.ws, "null2")); return err == nil }},
		{name: "read ssh key", script: `cat "$HOME"/.ssh/id_* > "$WS/stolen"`,
			check: func(p place) bool {
				b, _ := os.ReadFile(filepath.Join(p.ws, "stolen"))
				return strings.Contains(string(b), "PRIVATE KEY")
			}},
		{name: "raw disk", root: true, script: `head -c 65536 "$(cat "$OUT/disk")" > "$WS/disk"`,
			setup: func(t *testing.T, p place) {
				for _, d := range []string{"/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/xvda"} {
					f, err := os.Open(d)
					if err != nil {
						continue
					}
					_, err = f.Read(make([]byte, 1))
					f.Close()
					if err == nil {
						must(t, os.WriteFile(filepath.Join(p.out, "disk"), []byte(d), 0o644))
						return
					}
				}
				t.Skip("no readable disk device here (a container's device cgroup)")
			},
			check: func(p place) bool {
				fi, err := os.Stat(filepath.Join(p.ws, "disk"))
				return err == nil && fi.Size() > 0
			}},
		{name: "another process's environment", script: `tr '\0' '\n' < /proc/$(cat "$OUT/pid")/environ > "$WS/env"`,
			setup: func(t *testing.T, p place) {
				// A process outside the jail, of the same user, holding a
				// secret in its environment (an agent's API key).
				cmd := exec.Command("bash", "-c", `AGENT_API_KEY=topsecret sleep 30 >/dev/null 2>&1 & echo $! > "$OUT/pid"`)
				cmd.Env = append(os.Environ(), "OUT="+p.out)
				must(t, cmd.Run())
			},
			check: func(p place) bool {
				b, _ := os.ReadFile(filepath.Join(p.ws, "env"))
				return strings.Contains(string(b), "topsecret")
			}},
		{name: "copy ssh key", script: `cp -r "$HOME/.ssh" "$WS/keys"`,
			check: func(p place) bool {
				_, err := os.Stat(filepath.Join(p.ws, "keys", "id_ed25519"))
				return err == nil
			}},
	}
	for _, e := range escapes {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			if e.root && os.Getuid() != 0 {
				t.Skip("needs root to set up")
			}
			needPrograms(t, e.script)
			for _, jailed := range []bool{false, true} {
				p := newPlace(t)
				if e.setup != nil {
					e.setup(t, p)
				}
				var spec *sandbox.Spec
				if jailed {
					s := p.spec()
					spec = &s
				}
				status, out := run(t, p, spec, e.script)
				if e.name == "background child outlives the shell" {
					waitGone(p)
				}
				switch worked := e.check(p); {
				case !jailed && !worked:
					t.Fatalf("without the jail the escape does not work here (status %d): %s", status, out)
				case jailed && worked:
					t.Errorf("escaped the jail (status %d): %s", status, out)
				}
			}
		})
	}
}

// waitGone gives a background child of the script time to act.
func waitGone(place) { time.Sleep(300 * time.Millisecond) }

// TestPreopenedDescriptor: a file guardsh's caller opened for writing
// outside the workspace, and left open across exec, is not writable from
// the jail.
func TestPreopenedDescriptor(t *testing.T) {
	needJail(t)
	for _, jailed := range []bool{false, true} {
		p := newPlace(t)
		target := filepath.Join(p.out, "f")
		// Opened without O_CLOEXEC, as a caller's shell leaves `5>file`.
		fd, err := unix.Open(target, unix.O_WRONLY|unix.O_CREAT, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		var spec *sandbox.Spec
		if jailed {
			s := p.spec()
			spec = &s
		}
		status, out := run(t, p, spec, fmt.Sprintf(`echo escaped >&%d`, fd))
		unix.Close(fd)
		b, _ := os.ReadFile(target)
		worked := strings.Contains(string(b), "escaped")
		if !jailed && !worked {
			t.Fatalf("without the jail the inherited descriptor is not written (status %d): %s", status, out)
		}
		if jailed && worked {
			t.Errorf("the jail wrote through an inherited descriptor (status %d): %s", status, out)
		}
	}
}

// TestNetwork: TCP to a server on loopback that the test starts, by curl,
// by bash's /dev/tcp and by python, and a TCP bind, fail in the jail and
// work without it; with Network they work in the jail too.
func TestNetwork(t *testing.T) {
	needJail(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "reached") })}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	for _, tc := range []struct{ name, script string }{
		{"curl", fmt.Sprintf(`curl -s http://127.0.0.1:%d/`, port)},
		{"dev tcp", fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && printf 'GET / HTTP/1.0\r\n\r\n' >&3 && cat <&3`, port)},
		{"python socket", fmt.Sprintf(`python3 -S -c 'import socket; s = socket.create_connection(("127.0.0.1", %d)); s.sendall(b"GET / HTTP/1.0\r\n\r\n"); print(s.recv(4096).decode())'`, port)},
		{"bind", `python3 -S -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print("reached")'`},
		// TCP Fast Open connects in sendto, and listen on an unbound
		// socket binds a port itself: Landlock checks neither (an attack
		// run's finds); the jail makes no TCP socket at all.
		{"fast open", fmt.Sprintf(`python3 -S -c 'import socket; s = socket.socket(); s.sendto(b"GET / HTTP/1.0\r\n\r\n", socket.MSG_FASTOPEN, ("127.0.0.1", %d)); print(s.recv(4096).decode())'`, port)},
		{"listen without bind", `python3 -S -c 'import socket; s = socket.socket(); s.listen(); print("reached", s.getsockname())'`},
		// IPPROTO_MPTCP (262) falls back to TCP on the wire and is not
		// TCP to Landlock; the seccomp filter closes it (an attack run's
		// find).
		{"mptcp socket", fmt.Sprintf(`python3 -S -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262); s.connect(("127.0.0.1", %d)); s.sendall(b"GET / HTTP/1.0\r\n\r\n"); print(s.recv(4096).decode())'`, port)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			needPrograms(t, tc.script)
			p := newPlace(t)
			if _, out := run(t, p, nil, tc.script); !strings.Contains(out, "reached") {
				if tc.name == "mptcp socket" {
					t.Skipf("MPTCP is off on this kernel: %s", out)
				}
				t.Fatalf("without the jail the server is not reached: %s", out)
			}
			s := p.spec()
			if _, out := run(t, p, &s, tc.script); strings.Contains(out, "reached") {
				t.Errorf("reached the network from the jail: %s", out)
			}
			s.Network = true
			if _, out := run(t, p, &s, tc.script); !strings.Contains(out, "reached") {
				t.Errorf("with Network the jail does not reach the server: %s", out)
			}
		})
	}
}

// TestSocketsPastLandlock: in a jail without the network, the sockets
// Landlock does not restrict cannot be made (raw, packet, SCTP, MPTCP, SMC;
// io_uring; vsock, a virtual machine's channel to its host: attack run
// 77), nor TCP sockets (Fast Open and listen pass Landlock's
// checks), while UNIX and UDP sockets still can.
func TestSocketsPastLandlock(t *testing.T) {
	needJail(t)
	needPrograms(t, "python3")
	script := `python3 -S -c '
import socket, errno
def try_(name, *a):
    try:
        socket.socket(*a).close(); print(name, "made")
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
try_("mptcp", socket.AF_INET, socket.SOCK_STREAM, 262)
try_("mptcp6", socket.AF_INET6, socket.SOCK_STREAM, 262)
try_("sctp", socket.AF_INET, socket.SOCK_STREAM, 132)
try_("raw", socket.AF_INET, socket.SOCK_RAW, 6)
try_("packet", 17, socket.SOCK_RAW, 0)
try_("smc", 43, socket.SOCK_STREAM, 0)
try_("vsock", 40, socket.SOCK_STREAM, 0)
try_("tcp", socket.AF_INET, socket.SOCK_STREAM, 0)
try_("tcp6", socket.AF_INET6, socket.SOCK_STREAM, 6)
try_("udp", socket.AF_INET, socket.SOCK_DGRAM, 0)
try_("unix", socket.AF_UNIX, socket.SOCK_STREAM, 0)
'`
	p := newPlace(t)
	s := p.spec()
	_, out := run(t, p, &s, script)
	// No TCP socket either: Landlock checks connect and bind, not TCP Fast
	// Open's sendto nor listen's own port (see TestTCPPastConnect).
	for _, name := range []string{"mptcp", "mptcp6", "sctp", "raw", "packet", "smc", "vsock", "tcp", "tcp6"} {
		if strings.Contains(out, name+" made") {
			t.Errorf("the jail made a %s socket:\n%s", name, out)
		}
	}
	for _, name := range []string{"udp", "unix"} {
		if !strings.Contains(out, name+" made") {
			t.Errorf("the jail could not make a %s socket:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "mptcp EACCES") {
		t.Errorf("an MPTCP socket should fail with EACCES:\n%s", out)
	}
}

// TestNoTerminalInjection: TIOCSTI pushes input into a terminal, where the
// shell guardsh returns to (or an approval dialog) would read it as typed;
// the jail refuses it (an attack run typed commands into the parent shell
// and keys into the dialog this way).
func TestNoTerminalInjection(t *testing.T) {
	needJail(t)
	needPrograms(t, "python3")
	script := `python3 -S -c '
import os, fcntl, termios
m, s = os.openpty()
try:
    fcntl.ioctl(s, termios.TIOCSTI, b"x"); print("injected")
except OSError as e:
    print("refused", e.errno)
'`
	p := newPlace(t)
	if _, out := run(t, p, nil, script); !strings.Contains(out, "injected") {
		t.Skipf("TIOCSTI is refused here even without the jail: %s", out)
	}
	s := p.spec()
	if _, out := run(t, p, &s, script); strings.Contains(out, "injected") {
		t.Errorf("the jail pushed input into a terminal: %s", out)
	}
	s.Network = true
	if _, out := run(t, p, &s, script); strings.Contains(out, "injected") {
		t.Errorf("the jail with the network pushed input into a terminal: %s", out)
	}
}

// TestNoLimitsOnOthers: a jailed process cannot set another process's
// resource limits (prlimit64): guardsh is its parent, and a file-size or
// open-file limit of nothing kept it from writing the audit record and
// putting protected paths back (an attack run's find). Its own limits it
// may set (ulimit).
func TestNoLimitsOnOthers(t *testing.T) {
	needJail(t)
	needPrograms(t, "python3")
	script := `sleep 300 & python3 -S -c '
import resource, sys
try:
    resource.prlimit(int(sys.argv[1]), resource.RLIMIT_NOFILE, (4, 4)); print("limited")
except OSError as e:
    print("refused", e.errno)
' $!; ulimit -n 64 && echo own; kill $!`
	p := newPlace(t)
	if _, out := run(t, p, nil, script); !strings.Contains(out, "limited") || !strings.Contains(out, "own") {
		t.Fatalf("without the jail: %s", out)
	}
	s := p.spec()
	for _, network := range []bool{false, true} {
		s.Network = network
		_, out := run(t, p, &s, script)
		if strings.Contains(out, "limited") {
			t.Errorf("network %v: the jail set another process's limits: %s", network, out)
		}
		if !strings.Contains(out, "own") {
			t.Errorf("network %v: the jail could not set its own limit: %s", network, out)
		}
	}
}

// TestNoImmutableFlags: a jailed process cannot set a file's attribute
// flags (chattr +i as root made a change the put-back could not undo: an
// attack run's find).
func TestNoImmutableFlags(t *testing.T) {
	needJail(t)
	needPrograms(t, "chattr lsattr")
	p := newPlace(t)
	script := `echo x > "$WS/f" && chattr +A "$WS/f" && lsattr "$WS/f"`
	status, out := run(t, p, nil, script)
	if status != 0 || !strings.Contains(out, "A") {
		t.Skipf("chattr does not work here without the jail: %s", out)
	}
	s := p.spec()
	if status, out := run(t, p, &s, `echo x > "$WS/g" && chattr +A "$WS/g"`); status == 0 {
		t.Errorf("the jail set a file's attribute flags: %s", out)
	}
}

// TestSignalsStayInside: a jailed process cannot signal a process outside
// the jail (Landlock ABI 6 scopes signals).
func TestSignalsStayInside(t *testing.T) {
	needJail(t)
	if sandbox.ABI() < 6 {
		t.Skip("signal scoping needs Landlock ABI 6")
	}
	victim := exec.Command("sleep", "30")
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer victim.Process.Kill()
	p := newPlace(t)
	s := p.spec()
	script := fmt.Sprintf("kill -0 %d && echo reached", victim.Process.Pid)
	if _, out := run(t, p, &s, script); strings.Contains(out, "reached") {
		t.Errorf("the jail signalled a process outside it: %s", out)
	}
	if _, out := run(t, p, nil, script); !strings.Contains(out, "reached") {
		t.Fatalf("without the jail the signal does not reach: %s", out)
	}
}

// TestWorkspaceWorks: inside the jail the workspace is fully usable —
// create, write, rename across directories, link, remove — reads outside
// it work, and so does /dev/null.
func TestWorkspaceWorks(t *testing.T) {
	needJail(t)
	p := newPlace(t)
	s := p.spec()
	status, out := run(t, p, &s, `set -e
mkdir -p a b && echo x > a/f && mv a/f b/f && ln b/f b/g && ln -s g b/h && cat b/h > /dev/null
: > b/f && rm -r a && cat /etc/hostname > /dev/null && ls "$HOME" > /dev/null && echo ok`)
	if status != 0 || !strings.Contains(out, "ok") {
		t.Errorf("status %d: %s", status, out)
	}
}

// needPrograms skips the test when a program script names is missing
// (.ci/run installs them).
func needPrograms(t *testing.T, script string) {
	t.Helper()
	for _, prog := range []string{"python3", "curl", "make", "unshare", "setpriv", "chattr", "lsattr"} {
		if strings.Contains(script, prog) {
			if _, err := exec.LookPath(prog); err != nil {
				t.Skipf("no %s", prog)
			}
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestStopLeftovers: a jailed command that leaves a chain of processes
// behind (each the parent of the next, the last one acting later) has all
// of them stopped by StopLeftovers, so nothing acts after it returns (an
// attack run's chain of hundreds outlived killing one generation at a
// time).
func TestStopLeftovers(t *testing.T) {
	needJail(t)
	p := newPlace(t)
	chain := filepath.Join(p.ws, "chain.sh")
	must(t, os.WriteFile(chain, []byte(`n=$1
if [ "$n" -gt 0 ]; then sh "$0" $((n - 1)) & wait
else touch "$WS/ready"; sleep 1; echo late > "$WS/late"; fi
`), 0o755))
	s := p.spec()
	status, out := run(t, p, &s, `sh chain.sh 150 >/dev/null 2>&1 & while [ ! -e ready ]; do sleep 0.05; done; exit 0`)
	if status != 0 {
		t.Fatalf("status %d: %s", status, out)
	}
	stopped, err := sandbox.StopLeftovers()
	if err != nil {
		t.Fatal(err)
	}
	if len(stopped) < 150 {
		t.Errorf("stopped %d processes, want the whole chain (151)", len(stopped))
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(p.ws, "late")); err == nil {
		t.Error("a process the jailed command left acted after StopLeftovers")
	}
}

// TestPreparedJailConfinesOneThread: while a prepared jail waits for its
// command, everything else the process does is unconfined — goroutines
// writing outside the workspace, unjailed commands — and the command
// Start hands it is confined. A start that fails (no such program) leaves
// the jail usable; a second command after one started is refused.
func TestPreparedJailConfinesOneThread(t *testing.T) {
	needJail(t)
	p := newPlace(t)
	j := sandbox.Prepare(p.spec())
	defer j.Close()
	if err := j.Ready(); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 64)
	for i := range 32 {
		go func() {
			errs <- os.WriteFile(filepath.Join(p.out, fmt.Sprintf("go%d", i)), []byte("x"), 0o644)
		}()
		go func() {
			cmd := exec.Command("/bin/bash", "-c", fmt.Sprintf(`echo x > "$OUT/sh%d"`, i))
			cmd.Env = append(os.Environ(), "OUT="+p.out)
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("unjailed bash: %v %s", err, out)
				return
			}
			errs <- nil
		}()
	}
	for range 64 {
		if err := <-errs; err != nil {
			t.Fatalf("outside the prepared jail: %v", err)
		}
	}
	missing := exec.Command(filepath.Join(p.ws, "no-such-program"))
	if err := j.Start(missing); err == nil {
		t.Fatal("a missing program started")
	}
	cmd := exec.Command("/bin/bash", "-c", `echo x > "$OUT/jailed"`)
	cmd.Env = append(os.Environ(), "OUT="+p.out)
	if err := j.Start(cmd); err != nil {
		t.Fatalf("start after a failed start: %v", err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("the jailed command wrote outside the workspace")
	}
	if _, err := os.Stat(filepath.Join(p.out, "jailed")); err == nil {
		t.Error("the jailed command's file is there")
	}
	if err := j.Start(exec.Command("/bin/true")); err == nil {
		t.Error("a second command started from a used jail")
	}
	if err := os.WriteFile(filepath.Join(p.out, "after"), []byte("x"), 0o644); err != nil {
		t.Errorf("after the jailed command: %v", err)
	}
}

// TestUnsearchableSecretStaysHidden: as a user other than root, a secret's
// directory that may not be searched (chmod 000 — which an earlier jailed
// command can do: Landlock does not govern modes) kept guardsh from seeing
// the secret, so the directory was granted whole, and the jailed command
// made it searchable again and read the secret (an attack run's find).
// Now the directory that stopped the lookup is hidden in the secret's
// stead. Run as root, the test runs itself again as nobody (setpriv).
func TestUnsearchableSecretStaysHidden(t *testing.T) {
	needJail(t)
	dir := os.Getenv("GUARDSH_TEST_UNSEARCHABLE")
	if dir == "" && os.Getuid() == 0 {
		asNobody(t, "TestUnsearchableSecretStaysHidden", "GUARDSH_TEST_UNSEARCHABLE")
		return
	}
	if dir == "" {
		dir = t.TempDir()
	}
	home, ws := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
	must(t, os.MkdirAll(filepath.Join(home, ".aws"), 0o755))
	must(t, os.MkdirAll(ws, 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("aws_secret=DECOY\n"), 0o600))
	p := place{ws: ws, out: dir, home: home}
	spec := sandbox.Spec{Write: []string{ws}, Hidden: []string{filepath.Join(home, ".aws", "credentials")}}
	steal := `chmod 700 "$HOME/.aws" && cat "$HOME/.aws/credentials"`
	stealsOnlyUnjailed(t, p, spec, steal, "DECOY", func() { must(t, os.Chmod(filepath.Join(home, ".aws"), 0)) })
}

// stealsOnlyUnjailed runs steal in p without the jail, where its output
// must hold marker (so the test proves the jail, not the environment),
// and jailed by spec, where it must not; prepare, when not nil, sets the
// stage before each run.
func stealsOnlyUnjailed(t *testing.T, p place, spec sandbox.Spec, steal, marker string, prepare func()) {
	t.Helper()
	for _, jailed := range []bool{false, true} {
		if prepare != nil {
			prepare()
		}
		var s *sandbox.Spec
		if jailed {
			s = &spec
		}
		_, out := run(t, p, s, steal)
		switch stole := strings.Contains(out, marker); {
		case !jailed && !stole:
			t.Fatalf("without the jail the secret is not read here: %s", out)
		case jailed && stole:
			t.Errorf("the jail read the secret: %s", out)
		}
	}
}

// asNobody runs test name of this test binary again as user nobody
// (65534), with env set to a directory nobody owns, and fails t with its
// output if it fails; it skips when setpriv is missing.
func asNobody(t *testing.T, name, env string) {
	t.Helper()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is missing: cannot run as a user other than root")
	}
	dir := t.TempDir()
	self, err := os.Executable()
	must(t, err)
	data, err := os.ReadFile(self)
	must(t, err)
	bin := filepath.Join(dir, "sandbox.test")
	must(t, os.WriteFile(bin, data, 0o755))
	work := filepath.Join(dir, "work")
	must(t, os.Mkdir(work, 0o755))
	must(t, os.Chown(work, 65534, 65534))
	// nobody must reach the binary and the directory.
	for d := dir; d != "/"; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
			must(t, os.Chmod(d, fi.Mode().Perm()|0o001))
		}
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "-test.run=^"+name+"$", "-test.v")
	cmd.Env = append(os.Environ(), env+"="+work, "HOME="+work)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

// TestPutBackModes: Landlock governs no mode or owner, so a jailed command
// may chmod a hidden file it owns but cannot read and the directories
// above it — an attack run made a key 0644, guardsh's config 0 (refusing
// every later command) and the home 0777. The change happens (the test
// proves it), and PutBack gives back what the jail's build found and says
// so. (A chown, which root could once do from the jail, now fails there:
// the jail holds no CAP_CHOWN, see TestJailedRootCannotAdminister.)
func TestPutBackModes(t *testing.T) {
	needJail(t)
	p := newPlace(t)
	key := filepath.Join(p.home, ".ssh", "id_ed25519")
	script := `chmod 0644 "$HOME/.ssh/id_ed25519"; chmod 0777 "$HOME" "$HOME/.ssh"`
	if os.Getuid() == 0 {
		script += `; ! chown 65534 "$HOME/.ssh/id_ed25519"`
	}
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir, cmd.Env = p.ws, append(os.Environ(), "HOME="+p.home)
	j := sandbox.Prepare(p.spec())
	defer j.Close()
	must(t, j.Start(cmd))
	must(t, cmd.Wait())
	modeOf := func(path string) os.FileMode {
		fi, err := os.Stat(path)
		must(t, err)
		return fi.Mode().Perm()
	}
	if modeOf(key) != 0o644 || modeOf(p.home) != 0o777 {
		t.Fatalf("the jailed chmod did not take effect here: %o %o", modeOf(key), modeOf(p.home))
	}
	put, _ := j.PutBack(nil)
	if modeOf(key) != 0o600 || modeOf(p.home) != 0o755 || modeOf(filepath.Join(p.home, ".ssh")) != 0o755 {
		t.Errorf("not put back: key %o, home %o, .ssh %o (PutBack said %q)", modeOf(key), modeOf(p.home), modeOf(filepath.Join(p.home, ".ssh")), put)
	}
	if fi, err := os.Stat(key); err == nil && os.Getuid() == 0 && fi.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Errorf("the key's owner was not put back (PutBack said %q)", put)
	}
	if len(put) < 3 || !strings.Contains(strings.Join(put, "\n"), key+" (") {
		t.Errorf("PutBack said %q", put)
	}
	if again, _ := j.PutBack(nil); len(again) != 0 {
		t.Errorf("a second PutBack changed %q", again)
	}
}

// TestPutBackNeverLoosens: a record taken while another jailed command had
// loosened a mode (two commands at once; the other has since put it back)
// does not loosen it again: the put-back only takes away (an attack run's
// find, where the second command set a key back to 0644).
func TestPutBackNeverLoosens(t *testing.T) {
	needJail(t)
	p := newPlace(t)
	key := filepath.Join(p.home, ".ssh", "id_ed25519")
	must(t, os.Chmod(key, 0o644)) // the other command's change
	j := sandbox.Prepare(p.spec())
	defer j.Close()
	must(t, j.Ready())
	must(t, os.Chmod(key, 0o600)) // the other command's put-back
	cmd := exec.Command("/bin/true")
	must(t, j.Start(cmd))
	must(t, cmd.Wait())
	if put, _ := j.PutBack(nil); len(put) != 0 {
		t.Errorf("PutBack changed %q", put)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

// TestPutBackReachesUnsearchable: as a user other than root, a jailed
// command that loosened what lies beneath a directory and then made that
// directory unsearchable (chmod 0 ~/.aws, or the home above the
// workspace) kept the put-back from reaching it: the loosened file was
// left 0644, the workspace's planted hook kept (an attack run's finds).
// Now the put-back searches such a directory for its time, takes back
// what was loosened beneath it, and leaves the directory as the command
// left it, reported. Run as root, the test runs itself again as nobody.
func TestPutBackReachesUnsearchable(t *testing.T) {
	needJail(t)
	dir := os.Getenv("GUARDSH_TEST_REACH")
	if dir == "" && os.Getuid() == 0 {
		asNobody(t, "TestPutBackReachesUnsearchable", "GUARDSH_TEST_REACH")
		return
	}
	if dir == "" {
		dir = t.TempDir()
	}
	p := place{ws: filepath.Join(dir, "home", "ws"), out: dir, home: filepath.Join(dir, "home")}
	must(t, os.MkdirAll(filepath.Join(p.home, ".aws"), 0o755))
	must(t, os.MkdirAll(p.ws, 0o755))
	creds := filepath.Join(p.home, ".aws", "credentials")
	must(t, os.WriteFile(creds, []byte("secret\n"), 0o600))
	spec := sandbox.Spec{Write: []string{p.ws}, Hidden: []string{filepath.Join(p.home, ".aws")}}
	cmd := exec.Command("/bin/bash", "-c", `chmod 0644 "$HOME/.aws/credentials"; chmod 0 "$HOME/.aws" "$HOME"`)
	cmd.Dir, cmd.Env = p.ws, append(os.Environ(), "HOME="+p.home)
	j := sandbox.Prepare(spec)
	defer j.Close()
	must(t, j.Start(cmd))
	must(t, cmd.Wait())
	reached := false
	put, less := j.PutBack(func() { _, err := os.ReadDir(p.ws); reached = err == nil })
	if !reached {
		t.Error("the workspace was not reachable during the put-back")
	}
	must(t, os.Chmod(p.home, 0o755))
	must(t, os.Chmod(filepath.Join(p.home, ".aws"), 0o755))
	if fi, err := os.Stat(creds); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials %v, %v; want 0600 (PutBack said %q)", fi.Mode().Perm(), err, put)
	}
	if !slices.Contains(less, p.home+" (mode 0000, was 0755)") {
		t.Errorf("PutBack said %q, %q", put, less)
	}
}

// TestNoSetuidNoCapabilitiesNoACLs: a jailed command may not leave a
// setuid or setgid file behind (chmod, open or mknod with the bits), nor
// set file capabilities or an ACL (setxattr): no_new_privs protects only
// the jail's own processes, and attack runs left a setuid python in /tmp
// (root for any user of the machine) and an ACL opening the home to
// another user. Each attempt works without the jail.
func TestNoSetuidNoCapabilitiesNoACLs(t *testing.T) {
	needJail(t)
	needPrograms(t, "python3")
	for _, c := range []struct{ name, code string }{
		{"chmod", `shutil.copy("/bin/true", "t"); os.chmod("t", 0o4755)`},
		{"chmod setgid", `shutil.copy("/bin/true", "t"); os.chmod("t", 0o2755)`},
		{"fchmod", `shutil.copy("/bin/true", "t"); fd = os.open("t", os.O_RDONLY); os.fchmod(fd, 0o4755)`},
		{"open", `os.close(os.open("t", os.O_CREAT | os.O_WRONLY, 0o4755))`},
		{"mknod", `os.mknod("t", 0o4755 | stat.S_IFREG)`},
		{"capability", `open("t", "w").close(); os.setxattr("t", "security.capability", b"\x01\x00\x00\x02\x80\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")`},
		{"acl", `open("t", "w").close(); os.setxattr("t", "system.posix_acl_access", b"\x02\x00\x00\x00\x01\x00\x06\x00\xff\xff\xff\xff\x04\x00\x04\x00\xff\xff\xff\xff\x10\x00\x04\x00\xff\xff\xff\xff\x20\x00\x04\x00\xff\xff\xff\xff")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, jailed := range []bool{false, true} {
				p := newPlace(t)
				var spec *sandbox.Spec
				if jailed {
					s := p.spec()
					spec = &s
				}
				_, out := run(t, p, spec, `python3 -S -c 'import os, shutil, stat
`+c.code+`'`)
				took := false
				if fi, err := os.Stat(filepath.Join(p.ws, "t")); err == nil {
					took = fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0
				}
				if x, err := unix.Getxattr(filepath.Join(p.ws, "t"), "security.capability", nil); err == nil && x > 0 {
					took = true
				}
				if x, err := unix.Getxattr(filepath.Join(p.ws, "t"), "system.posix_acl_access", nil); err == nil && x > 0 {
					took = true
				}
				switch {
				case !jailed && !took:
					t.Fatalf("without the jail it does not take here: %s", out)
				case jailed && took:
					t.Errorf("the jail let it through: %s", out)
				}
			}
		})
	}
}
