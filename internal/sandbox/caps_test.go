package sandbox_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// capSets returns the capability sets in /proc/PID/status (CapInh,
// CapPrm, CapEff, CapBnd, CapAmb → hexadecimal masks) of a real bash
// started jailed by spec, or not when spec is nil, read once the shell
// runs. The jail may not read /proc/self, so the test reads the shell's
// from outside.
func capSets(t *testing.T, p place, spec *sandbox.Spec) map[string]string {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", "echo ready; read -r _")
	cmd.Dir = p.ws
	in, err := cmd.StdinPipe()
	must(t, err)
	out, err := cmd.StdoutPipe()
	must(t, err)
	if spec != nil {
		err = sandbox.Start(cmd, *spec)
	} else {
		err = cmd.Start()
	}
	must(t, err)
	defer func() { in.Close(); cmd.Wait() }()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the shell did not start: %q %v", line, err)
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status"))
	must(t, err)
	sets := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.HasPrefix(k, "Cap") {
			sets[k] = strings.TrimSpace(v)
		}
	}
	return sets
}

// TestJailedRootHasNoCapabilities: a shell jailed by root holds no
// capability in any set, the bounding set included, so no program it runs
// (setuid-root or not) gets one back; the same shell unjailed holds them
// (so the test proves the jail, not the environment).
func TestJailedRootHasNoCapabilities(t *testing.T) {
	needJail(t)
	if os.Geteuid() != 0 {
		t.Skip("capabilities are root's")
	}
	p := newPlace(t)
	free := capSets(t, p, nil)
	if free["CapEff"] == "" || strings.Trim(free["CapEff"], "0") == "" || strings.Trim(free["CapBnd"], "0") == "" {
		t.Fatalf("root holds no capabilities here: %v", free)
	}
	spec := p.spec()
	jailed := capSets(t, p, &spec)
	for _, set := range []string{"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"} {
		if v, ok := jailed[set]; !ok || strings.Trim(v, "0") != "" {
			t.Errorf("jailed shell: %s = %q, want all zero (unjailed: %q)", set, v, free[set])
		}
	}
}

// TestJailedRootCannotAdminister: what root does by its capabilities
// fails in the jail and works outside it; each probe leaves the machine
// as it was (the host name set to itself, a network namespace made and
// dropped, the loopback device set up while it is up) or touches only the
// test's own files.
func TestJailedRootCannotAdminister(t *testing.T) {
	needJail(t)
	if os.Geteuid() != 0 {
		t.Skip("capabilities are root's")
	}
	up := false
	if b, err := os.ReadFile("/sys/class/net/lo/operstate"); err == nil {
		up = strings.TrimSpace(string(b)) != "down"
	}
	for _, c := range []struct {
		name, script, needs string
	}{
		{"sethostname (CAP_SYS_ADMIN)", `hostname "$(hostname)"`, "hostname"},
		{"network namespace (CAP_SYS_ADMIN)", `unshare --net true`, "unshare"},
		{"netlink link change (CAP_NET_ADMIN)", `ip link set lo up`, "ip"},
		{"chown to another user (CAP_CHOWN)", `echo x > f && chown 4242 f`, ""},
		{"read past the mode bits (CAP_DAC_OVERRIDE)", `echo x > f && chmod 000 f && cat f`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.needs != "" {
				if _, err := exec.LookPath(c.needs); err != nil {
					t.Skipf("no %s", c.needs)
				}
			}
			if c.needs == "ip" && !up {
				t.Skip("the loopback device is down: setting it up would change the machine")
			}
			for _, jailed := range []bool{false, true} {
				p := newPlace(t)
				var spec *sandbox.Spec
				if jailed {
					s := p.spec()
					spec = &s
				}
				status, out := run(t, p, spec, c.script)
				switch {
				case !jailed && status != 0:
					t.Fatalf("without the jail root cannot do it here (status %d): %s", status, out)
				case jailed && status == 0:
					t.Errorf("the jail let root do it: %s", out)
				}
			}
		})
	}
}
