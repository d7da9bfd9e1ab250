package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// benchGuard returns a Guard under benchdata.Policy(n) in mode ask, with
// the context bench/main.go uses for its "decide a 20-segment command" rows.
func benchGuard(b *testing.B, n int) *Guard { return benchGuardT(b, n) }

func benchGuardT(b testing.TB, n int) *Guard {
	p, err := rules.Parse([]byte(benchdata.Policy(n)), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	return &Guard{Policy: p, PolicyFile: "bench.yaml",
		Context:  rules.Context{Mode: rules.AskMode, Cwd: "/home/bench/proj", Home: "/home/bench", Workspace: "/home/bench/proj"},
		Analysis: interp.Options{Home: "/home/bench", Env: os.LookupEnv}} // as for guardsh -c
}

// BenchmarkEvaluate analyses and decides benchdata.TwentySegments under
// 10 and 10,000 shell rules (plus 60 path rules): one op is one Evaluate.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			g := benchGuard(b, n)
			if o := g.Evaluate(benchdata.TwentySegments); len(o.Segments) < 20 {
				b.Fatalf("%d segments", len(o.Segments))
			}
			b.ReportAllocs()
			for b.Loop() {
				g.Evaluate(benchdata.TwentySegments)
			}
		})
	}
}

// BenchmarkDecide decides the segments of benchdata.TwentySegments,
// analysed once beforehand, under 10 and 10,000 shell rules: one op is one
// Guard.Decide (the rules' decision of every segment in every directory a
// cd may lead to, with its file system lookups; issue target ≤ 50 µs with
// 10,000 rules).
func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			benchDecide(b, benchGuard(b, n))
		})
	}
}

// benchDecide times g.Decide of benchdata.TwentySegments, analysed once.
func benchDecide(b *testing.B, g *Guard) {
	segs, err := g.Analyze(benchdata.TwentySegments)
	if err != nil {
		b.Fatal(err)
	}
	if o := g.Decide(segs); len(o.Segments) < 20 {
		b.Fatalf("%d segments", len(o.Segments))
	}
	b.ReportAllocs()
	for b.Loop() {
		g.Decide(segs)
	}
}

// BenchmarkDecideWorkspace is BenchmarkDecide with a home directory and
// workspace that exist (a checkout with README.md, src/, dist/tmp and
// .git), as in real use, so that the arguments naming files cost the
// lookups of files that are there.
func BenchmarkDecideWorkspace(b *testing.B) {
	home := b.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{"src", "dist/tmp", ".git/hooks", "node_modules/x"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range []string{"README.md", "src/main.go", "src/util.go", "package.json", "Makefile", ".git/config"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("TODO\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			g := benchGuard(b, n)
			g.Context.Cwd, g.Context.Home, g.Context.Workspace = ws, home, ws
			g.Analysis.Home = home
			benchDecide(b, g)
		})
	}
}
