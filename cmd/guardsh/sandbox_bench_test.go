package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/sandbox"
)

// BenchmarkSandboxOverhead runs `guardsh -c /bin/true` (a command that
// really starts a process, jailed under strict) and `guardsh -c true`
// (which guardsh answers without starting anything, so nothing is
// jailed: what the sandbox setting alone costs) under two user configs
// that differ only in `sandbox: strict`, alternately, b.N times each, in
// a git work tree, and reports, for each, both medians, the median of the paired differences
// (sandbox-overhead-µs, target ≤ 300 µs, issue: sandbox), the median of the
// paired differences of CPU time (sandbox-cpu-µs: what the jail costs the
// machine, less disturbed by other load than wall time) and the ratio.
// Both configs allow /bin/true by rule, so the decision is the same and
// only the jail (ruleset built from the file system, thread restricted,
// bash started under it) differs. HOME is a fresh directory under
// /var/tmp: the hidden paths are guardsh's config and audit log; a home
// with many entries costs one Landlock rule per entry beside a hidden
// path.
func BenchmarkSandboxOverhead(b *testing.B) {
	if why := sandbox.Unavailable(); why != "" {
		b.Skipf("sandbox %s", why)
	}
	// HOME, and so guardsh's config and audit log, which the jail hides,
	// lie outside the temp directory as they do on a real machine: a
	// hidden path inside a crowded /tmp would cost one rule per entry of
	// /tmp, twice (read and write).
	dir, err := os.MkdirTemp("/var/tmp", "guardsh-bench-")
	if err != nil {
		dir = b.TempDir()
	} else {
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	bin := buildStatic(b, dir)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	envFor := func(name, config string) []string {
		cfg := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(cfg, "guardsh"), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cfg, "guardsh", "config.yaml"), []byte(config), 0o644); err != nil {
			b.Fatal(err)
		}
		return append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+cfg,
			"XDG_STATE_HOME="+filepath.Join(dir, "state"), "GUARDSH_CONFIG=", "GUARDSH_AUDIT=", "GUARDSH_MODE=")
	}
	const rules = "mode: auto\nrules:\n  shell:\n    allow: [\"/bin/true\", \"true\"]\n"
	plainEnv := envFor("plain", rules)
	jailEnv := envFor("jail", rules+"sandbox: strict\n")
	// timeRun returns the wall time and the CPU time (user + system, of
	// guardsh and the bash it waited for) of one run.
	for _, command := range []string{"/bin/true", "true"} {
		b.Run(command, func(b *testing.B) { sandboxOverhead(b, bin, ws, command, plainEnv, jailEnv) })
	}
}

// sandboxOverhead times `guardsh -c command` under plainEnv and jailEnv
// alternately (see BenchmarkSandboxOverhead).
func sandboxOverhead(b *testing.B, bin, ws, command string, plainEnv, jailEnv []string) {
	timeRun := func(env []string) (wall, cpu time.Duration) {
		cmd := exec.Command(bin, "-c", command)
		cmd.Env, cmd.Dir = env, ws
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			b.Fatalf("guardsh -c %s: %v %s", command, err, out)
		}
		wall = time.Since(start)
		return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	timeRun(plainEnv) // creates the audit log
	timeRun(jailEnv)
	var plain, jail, diff, cpuDiff []time.Duration
	b.ResetTimer()
	for range b.N {
		p, pc := timeRun(plainEnv)
		j, jc := timeRun(jailEnv)
		plain, jail, diff, cpuDiff = append(plain, p), append(jail, j), append(diff, j-p), append(cpuDiff, jc-pc)
	}
	b.StopTimer()
	b.ReportMetric(float64(median(plain).Microseconds()), "unjailed-µs")
	b.ReportMetric(float64(median(jail).Microseconds()), "jailed-µs")
	b.ReportMetric(float64(median(diff).Microseconds()), "sandbox-overhead-µs")
	b.ReportMetric(float64(median(cpuDiff).Microseconds()), "sandbox-cpu-µs")
	b.ReportMetric(float64(median(jail))/float64(median(plain)), "ratio")
}
