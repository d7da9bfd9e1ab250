package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkStartVersusBash runs `guardsh -c true` (a static build, default
// policy, audit record written) and `bash -c true` alternately, b.N times
// each, and reports both medians and their ratio (target ≤ 2.5).
func BenchmarkStartVersusBash(b *testing.B) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("no bash")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "guardsh")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "GUARDSH_CONFIG=", "GUARDSH_AUDIT=", "GUARDSH_MODE=")
	timeRun := func(path string) time.Duration {
		cmd := exec.Command(path, "-c", "true")
		cmd.Env = env
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatalf("%s -c true: %v", path, err)
		}
		return time.Since(start)
	}
	timeRun(bin) // first run creates the audit log
	var guard, plain []time.Duration
	b.ResetTimer()
	for range b.N {
		guard = append(guard, timeRun(bin))
		plain = append(plain, timeRun(bash))
	}
	b.StopTimer()
	g, p := median(guard), median(plain)
	b.ReportMetric(float64(g.Microseconds()), "guardsh-µs")
	b.ReportMetric(float64(p.Microseconds()), "bash-µs")
	b.ReportMetric(float64(g)/float64(p), "ratio")
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
