package interp

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
	"mvdan.cc/sh/v3/syntax"
)

// benchLine is a 20-command line of the kind agents send.
const benchLine = benchdata.TwentySegments

func TestBenchLineHasTwentyCommands(t *testing.T) {
	segs, err := Analyze(benchLine, Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range segs {
		if s.Kind == Exec && len(s.Via) == 0 {
			n++
		}
	}
	if n != 20 {
		t.Fatalf("%d top-level commands, want 20: %q", n, renderAll(segs))
	}
}

func BenchmarkAnalyze(b *testing.B) {
	cases := []struct{ name, src string }{
		{"one command", "git status"},
		{"twenty commands", benchLine},
		{"claude code wrapper", `source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh 2>/dev/null || true && ` +
			`shopt -u extglob 2>/dev/null || true && eval 'npm test' \< /dev/null && pwd -P >| /tmp/claude-4f2a-cwd`},
		{"200 line script", strings.Repeat("if [ -f x ]; then cp x \"y/$z\" && echo ok >> log; fi\n", 200)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.src)))
			for b.Loop() {
				if _, err := Analyze(c.src, Options{Home: "/home/u"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCommandReader(b *testing.B) {
	script := strings.Repeat("echo a | grep b\ncat <<EOF\nbody\nEOF\n", 100)
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		cr := NewCommandReader(strings.NewReader(script))
		for {
			if _, err := cr.Next(); err != nil {
				break
			}
		}
	}
}

// BenchmarkAnalyzeScript measures analysis of the large CI-shaped scripts
// of internal/benchdata, 1 MB (parsed whole) and 10 MB (parsed one
// top-level command at a time): MB/s, and B/op for linear memory.
func BenchmarkAnalyzeScript(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"1MB", 1 << 20}, {"10MB", 10 << 20}} {
		src := benchdata.Script(size.n)
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			cpu := cpuTime()
			for b.Loop() {
				if _, err := Analyze(src, Options{Home: "/home/u"}); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time (all threads, the collector's too) varies less
			// than wall time on a shared machine.
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cpuTime is the user and system CPU time of the process so far, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkParseScript is the floor of BenchmarkAnalyzeScript/1MB: the
// parse alone of the same script by mvdan.cc/sh/v3/syntax.
func BenchmarkParseScript(b *testing.B) {
	src := benchdata.Script(1 << 20)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	cpu := cpuTime()
	for b.Loop() {
		if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAnalyzeShapes measures pathological shapes at two sizes, 4×
// apart: MB/s that holds between the two says the analysis is linear in
// the text. Each text repeats a block at the bounds checkText allows
// (maxKeywords nesting, maxChain operators); deeper ones are refused.
func BenchmarkAnalyzeShapes(b *testing.B) {
	const depth = maxKeywords - 1
	block := func(n int, unit string) string { return strings.Repeat(unit, max(1, n/len(unit))) }
	nest := func(open, mid, close string) string {
		return strings.Repeat(open, depth) + mid + strings.Repeat(close, depth) + "\n"
	}
	shapes := []struct {
		name string
		gen  func(n int) string // a text of about n bytes
	}{
		{"nested loops with cd", func(n int) string { return block(n, nest("for i in a; do cd x; ", "echo > y", "; done")) }},
		{"loops after cd", func(n int) string { return "cd x\n" + block(n, "for i in 1; do echo > f; done\n") }},
		{"and chains", func(n int) string { return block(n, strings.Repeat("a && ", maxChain-1)+"a\n") }},
		{"nested if", func(n int) string { return block(n, nest("if true; then ", "x", "; fi")) }},
		{"nested case", func(n int) string { return block(n, nest("case a in a) ", "x", ";; esac")) }},
		{"here-document", func(n int) string { return "cat <<E\n" + block(n, "line $x and $(y)\n") + "E\n" }},
		{"continuations and comments", func(n int) string {
			return "echo 'a' \\\n  b\n" + block(n, "echo 'q' \"# x\" \\\n  # c\n")
		}},
		{"words", func(n int) string { return "echo " + block(n, "\"$x\" ") }},
	}
	for _, sh := range shapes {
		for _, size := range []int{64 << 10, 256 << 10} {
			src := sh.gen(size)
			b.Run(fmt.Sprintf("%s/%dKiB", sh.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if _, err := Analyze(src, Options{Home: "/home/u"}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
