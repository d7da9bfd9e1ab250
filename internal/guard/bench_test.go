package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// BenchmarkClaudeCodeCommand analyses and decides the command Claude Code
// sends for every tool call (source the snapshot, eval the command, record
// the working directory) with a 2,000-line snapshot, under the embedded
// default policy: once with the analysis cache warm (guardsh's normal case
// from the second command on; issue target ≤ 1 ms) and once without.
func BenchmarkClaudeCodeCommand(b *testing.B) {
	home := b.TempDir()
	dir := filepath.Join(home, ".claude", "shell-snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	snap := filepath.Join(dir, "snapshot-bash-1747000000000-a1b2c3.sh")
	text := benchdata.Snapshot()
	if n := strings.Count(text, "\n"); n != 2000 {
		b.Fatalf("snapshot has %d lines", n)
	}
	if err := os.WriteFile(snap, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	command := "source " + snap + " 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && " +
		"eval 'git status' \\< /dev/null && pwd -P >| /tmp/claude-4f2a-cwd"
	for _, c := range []struct {
		name  string
		cache interp.SourceCache
	}{{"cached", interp.DirCache{Dir: filepath.Join(home, ".cache", "guardsh", "source")}}, {"uncached", nil}} {
		b.Run(c.name, func(b *testing.B) {
			g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile, Verdicts: c.cache,
				Context:  rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home, TempDirs: []string{"/tmp"}},
				Analysis: interp.Options{Home: home, Sources: c.cache}}
			if o := g.Evaluate(command); o.Decision != rules.Allow {
				b.Fatalf("decision %v\n%s", o.Decision, describeOutcome(o))
			}
			b.ReportAllocs()
			for b.Loop() {
				g.Evaluate(command)
			}
		})
	}
}
