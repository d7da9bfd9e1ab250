package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// BenchmarkStart starts and waits for `/bin/bash -c /bin/true`, alternately
// jailed (Start with the Spec guardsh builds: the workspace and temp
// writable, the real home's ~/.ssh, ~/.aws and ~/.config/guardsh hidden)
// and not (exec.Cmd.Start), and reports both medians and the median of the
// paired differences: what the jail adds to a command, in µs (target
// ≤ 300 µs, issue: sandbox).
func BenchmarkStart(b *testing.B) {
	if why := sandbox.Unavailable(); why != "" {
		b.Skipf("sandbox %s", why)
	}
	home, _ := os.UserHomeDir()
	ws := b.TempDir()
	spec := sandbox.Spec{Write: []string{ws, "/tmp"},
		Hidden: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".aws"), filepath.Join(home, ".config", "guardsh")}}
	once := func(jail bool) time.Duration {
		cmd := exec.Command("/bin/bash", "-c", "/bin/true")
		cmd.Dir = ws
		start := time.Now()
		var err error
		if jail {
			err = sandbox.Start(cmd, spec)
		} else {
			err = cmd.Start()
		}
		if err == nil {
			err = cmd.Wait()
		}
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var plain, jail, diff []time.Duration
	for range b.N {
		p, j := once(false), once(true)
		plain, jail, diff = append(plain, p), append(jail, j), append(diff, j-p)
	}
	b.ReportMetric(float64(med(plain).Microseconds()), "unjailed-µs")
	b.ReportMetric(float64(med(jail).Microseconds()), "jailed-µs")
	b.ReportMetric(float64(med(diff).Microseconds()), "overhead-µs")
}

// BenchmarkRules builds the Landlock rules of guardsh's Spec (the file
// system walk beside the hidden paths) without applying them.
func BenchmarkRules(b *testing.B) {
	home, _ := os.UserHomeDir()
	spec := sandbox.Spec{Write: []string{b.TempDir(), "/tmp"},
		Hidden: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".aws"), filepath.Join(home, ".config", "guardsh")}}
	for range b.N {
		if _, err := spec.Rules(); err != nil {
			b.Fatal(err)
		}
	}
}

func med(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkRuleset builds the Landlock ruleset of a Spec like the one
// guardsh builds for a workspace under /var/tmp (one rule per entry of
// /, /var, /var/tmp and the home beside the hidden paths) and reports
// the CPU time of the building thread (getrusage RUSAGE_THREAD, user +
// system, median µs of a build), which load on the machine disturbs less than
// wall time.
func BenchmarkRuleset(b *testing.B) {
	if why := sandbox.Unavailable(); why != "" {
		b.Skipf("sandbox %s", why)
	}
	home, err := os.MkdirTemp("/var/tmp", "guardsh-bench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(home)
	for _, d := range []string{".ssh", ".config/guardsh", ".local/state/guardsh/jails", "state/guardsh", "ws/.git"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	spec := sandbox.Spec{Write: []string{filepath.Join(home, "ws"), "/tmp"},
		Hidden: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".config", "guardsh"),
			filepath.Join(home, ".local", "state", "guardsh", "jails"), filepath.Join(home, "state", "guardsh")}}
	var cpu []time.Duration
	for range b.N {
		c, err := sandbox.RulesetCPU(spec)
		if err != nil {
			b.Fatal(err)
		}
		cpu = append(cpu, c)
	}
	b.ReportMetric(float64(med(cpu).Microseconds()), "cpu-µs")
}
