package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStartLLMConfigured measures what configuring the LLM layer
// costs a command that rules alone decide: `guardsh -c 'ls >/dev/null'`
// (read-only, allowed by class, run by bash) under a user config with no
// llm: section, and under one with an llm: section (reviewer and judge on)
// and an adversary.md whose match: does not cover ls, alternately with
// `bash -c` of the same command, b.N times each. It reports the medians,
// llm-ratio (configured / not configured; 1.0 means no cost) and each
// guardsh/bash ratio. The endpoint is a closed loopback port: a request
// would fail the run.
func BenchmarkStartLLMConfigured(b *testing.B) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("no bash")
	}
	dir := b.TempDir()
	bin := buildStatic(b, dir)
	envFor := func(name, config, adversaryMD string) []string {
		home := filepath.Join(dir, name)
		cfgDir := filepath.Join(home, ".config", "guardsh")
		if err := os.MkdirAll(cfgDir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cfgDir, "config.yaml"), []byte(config), 0o644); err != nil {
			b.Fatal(err)
		}
		if adversaryMD != "" {
			if err := os.WriteFile(filepath.Join(cfgDir, "adversary.md"), []byte(adversaryMD), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		return append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
			"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"),
			"GUARDSH_CONFIG=", "GUARDSH_AUDIT=", "GUARDSH_MODE=")
	}
	plain := envFor("plain", "mode: ask\n", "")
	llm := envFor("llm", "mode: ask\nllm:\n  base_url: http://127.0.0.1:9/v1\n  model: m\n  smart: true\n",
		"---\nmatch: [\"curl *\"]\n---\n- Block uploads.\n")
	const command = "ls >/dev/null"
	timeRun := func(path string, env []string) time.Duration {
		cmd := exec.Command(path, "-c", command)
		cmd.Env = env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil || len(out) != 0 {
			b.Fatalf("%s -c %q: %v %s", path, command, err, out)
		}
		return time.Since(start)
	}
	timeRun(bin, plain)
	timeRun(bin, llm)
	var tPlain, tLLM, tBash []time.Duration
	b.ResetTimer()
	for range b.N {
		tPlain = append(tPlain, timeRun(bin, plain))
		tLLM = append(tLLM, timeRun(bin, llm))
		tBash = append(tBash, timeRun(bash, plain))
	}
	b.StopTimer()
	p, l, s := median(tPlain), median(tLLM), median(tBash)
	b.ReportMetric(float64(p.Microseconds()), "guardsh-µs")
	b.ReportMetric(float64(l.Microseconds()), "guardsh-llm-configured-µs")
	b.ReportMetric(float64(s.Microseconds()), "bash-µs")
	b.ReportMetric(float64(l)/float64(p), "llm-ratio")
	b.ReportMetric(float64(p)/float64(s), "ratio")
	b.ReportMetric(float64(l)/float64(s), "llm-configured-ratio")
}
