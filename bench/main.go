// Command bench measures guardsh against bash on this machine and prints one
// table: whole-process scenarios, each run as guardsh and as bash alternately
// in the same loop and reported as medians and their ratio, then in-process
// figures for analysis, deciding and audit appends. The scenarios take
// turns, so each starts with the caches the one before left (cold, like a
// command after an agent's other work); `-c true` and the floor are then
// timed again in a loop of their own ("back to back": warm, like commands
// in quick succession).
//
// Run it from the repository root:
//
//	go run ./bench            # 200 runs per scenario
//	go run ./bench -runs 50   # quicker, noisier
//
// It builds guardsh as install.sh does (static, -trimpath, -s -w, then
// copied into place) into a temporary directory, with a temporary HOME,
// so no user config, audit log or cache is touched. The floor row is a static Go program that only starts and
// execs /bin/true: what any Go front end pays before doing anything.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/benchdata"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

func main() {
	runs := flag.Int("runs", 200, "runs of each whole-process scenario (guardsh and bash each)")
	flag.Parse()
	if err := run(*runs, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

func run(runs int, w *os.File) error {
	dir, err := os.MkdirTemp("", "guardsh-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := setup(dir)
	if s != nil {
		defer func() {
			for _, f := range s.cleanup {
				os.Remove(f)
			}
		}()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "guardsh benchmark, %s\n%s\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), machine())
	fmt.Fprintf(w, "%-44s %10s %10s %7s\n", "whole process (median of "+fmt.Sprint(runs)+")", "guardsh", "bash", "ratio")
	results, err := s.timeAll(runs)
	if err != nil {
		return err
	}
	// The scenarios above take turns, so each starts with the caches
	// the one before left (cold, as a command after an agent's other
	// work); the first two once more, each in a loop of its own (warm, as
	// commands in quick succession).
	for i, name := range []string{"-c true, back to back", "floor, back to back"} {
		sc := s.scenarios[i]
		sc.name = name
		warm, err := (&suite{scenarios: []scenario{sc}}).timeAll(runs)
		if err != nil {
			return err
		}
		results = append(results, warm...)
	}
	for _, r := range results {
		fmt.Fprintf(w, "%-44s %10s %10s %7.2f\n", r.name, ms(r.guardsh), ms(r.bash), float64(r.guardsh)/float64(r.bash))
	}
	fmt.Fprintf(w, "%-44s %9.1f MB\n", "peak RSS of guardsh -c true (median)", float64(results[0].rssKB)/1024)
	fmt.Fprintln(w)
	return inProcess(w, dir)
}

// scenario is one command run as a whole process under guardsh and under
// bash with the same arguments and environment.
type scenario struct {
	name        string
	guardsh     []string // argv; bash's is the same with argv[0] replaced
	bash        []string
	dir         string
	env         []string
	wantOutputs bool // guardsh's stdout must equal bash's
}

type result struct {
	name          string
	guardsh, bash time.Duration
	rssKB         int64
}

type suite struct {
	scenarios []scenario
	cleanup   []string // files outside the temporary directory
}

func setup(dir string) (*suite, error) {
	s := &suite{}
	bin := filepath.Join(dir, "guardsh")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin+".built", "github.com/guardsh/guardsh/cmd/guardsh")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build guardsh: %v\n%s", err, out)
	}
	if err := installCopy(bin+".built", bin); err != nil {
		return nil, err
	}
	floorSrc := filepath.Join(dir, "floor.go")
	if err := os.WriteFile(floorSrc, []byte(floorProgram), 0o644); err != nil {
		return nil, err
	}
	floor := filepath.Join(dir, "floor")
	build = exec.Command("go", "build", "-trimpath", "-o", floor+".built", floorSrc)
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GO111MODULE=off")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build floor: %v\n%s", err, out)
	}
	if err := installCopy(floor+".built", floor); err != nil {
		return nil, err
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "home")
	ws := filepath.Join(home, "proj")
	snaps := filepath.Join(home, ".claude", "shell-snapshots")
	for _, d := range []string{filepath.Join(ws, "src"), snaps} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	snapshot := filepath.Join(snaps, "snapshot-bash-1747000000000-a1b2c3.sh")
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("line %d of the input # %d", i%37, i))
	}
	files := map[string]string{
		snapshot:                         benchdata.Snapshot(),
		filepath.Join(ws, "README.md"):   "guardsh bench workspace\n",
		filepath.Join(ws, "src/a.txt"):   "a\nb\n",
		filepath.Join(ws, "src/b.txt"):   "c\nd\nc\n",
		filepath.Join(ws, "ci"):          benchdata.CIScript(),
		filepath.Join(ws, "input.txt"):   strings.Join(lines, "\n") + "\n",
		filepath.Join(dir, "auto.yaml"):  "mode: auto\n",
		filepath.Join(dir, "empty.yaml"): "",
	}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			return nil, err
		}
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state")}
	git := exec.Command("git", "init", "-q", ws)
	git.Env = env
	if out, err := git.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git init: %v\n%s", err, out)
	}
	// Claude Code records the working directory in /tmp/claude-ID-cwd,
	// which the default policy lets it write.
	cwdFile := fmt.Sprintf("/tmp/claude-%d-cwd", os.Getpid())
	cc := benchdata.ClaudeCodeCommand(snapshot, "git status --short", cwdFile)
	s.cleanup = append(s.cleanup, cwdFile)
	auto := append(slices.Clone(env), "GUARDSH_CONFIG="+filepath.Join(dir, "auto.yaml"))
	withConfig := append(slices.Clone(env), "GUARDSH_CONFIG="+filepath.Join(dir, "empty.yaml"))
	s.scenarios = []scenario{
		{name: "-c true", guardsh: []string{bin, "-c", "true"}, dir: ws, env: env},
		{name: "floor: Go start + exec /bin/true", guardsh: []string{floor}, bash: []string{bash, "-c", "true"}, dir: ws, env: env},
		{name: "-c true, with a config file", guardsh: []string{bin, "-c", "true"}, dir: ws, env: withConfig},
		{name: "-c 'ls src'", guardsh: []string{bin, "-c", "ls src"}, dir: ws, env: env, wantOutputs: true},
		// The same command with an escape bash removes: guardsh hands it to
		// bash (no fast path), which execs ls in its place.
		{name: "-c '\\ls src' (through bash)", guardsh: []string{bin, "-c", `\ls src`}, dir: ws, env: env, wantOutputs: true},
		{name: "Claude Code command, 2,000-line snapshot", guardsh: []string{bin, "-c", cc}, dir: ws, env: env, wantOutputs: true},
		{name: "300-line CI script (auto mode)", guardsh: []string{bin, "ci"}, dir: ws, env: auto, wantOutputs: true},
		{name: "20-segment pipeline", guardsh: []string{bin, "-c", benchdata.Pipeline("input.txt")}, dir: ws, env: env, wantOutputs: true},
	}
	for i := range s.scenarios {
		sc := &s.scenarios[i]
		if sc.bash == nil {
			sc.bash = append([]string{bash}, sc.guardsh[1:]...)
		}
		// Each scenario must run, not be refused, and print what bash
		// prints; the first run also fills the snapshot's cache.
		g, gerr := runOnce(sc.guardsh, sc.dir, sc.env)
		b, berr := runOnce(sc.bash, sc.dir, sc.env)
		if gerr != nil || berr != nil {
			return nil, fmt.Errorf("%s: guardsh: %v, bash: %v\n%s", sc.name, gerr, berr, g)
		}
		if sc.wantOutputs && g != b {
			return nil, fmt.Errorf("%s: guardsh printed %q, bash %q", sc.name, g, b)
		}
	}
	return s, nil
}

// floorProgram starts the Go runtime and execs /bin/true: the least a
// static Go front end to a command costs.
// installCopy copies the binary the linker wrote at built to dst, as
// install.sh installs guardsh: the linker writes through a memory map,
// which leaves the file in the page cache in small pages, and a binary
// started from there runs some 0.06–0.15 ms slower (here) until the kernel
// drops it from the cache; a copy written in order is cached as a file
// read from disk is.
// It copies in a stream: a buffer of the whole binary would make the bench's
// own RSS, which the peak RSS row includes (see timeOnce), 8 MB larger.
func installCopy(built, dst string) error {
	in, err := os.Open(built)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Remove(built)
}

const floorProgram = `package main

import "syscall"

func main() { syscall.Exec("/bin/true", []string{"true"}, nil) }
`

func runOnce(argv []string, dir string, env []string) (string, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out) + string(ee.Stderr), err
	}
	return string(out), err
}

// timeAll runs every scenario runs times, guardsh and bash alternately
// (which goes first alternates too), and returns the medians.
func (s *suite) timeAll(runs int) ([]result, error) {
	type samples struct {
		g, b []time.Duration
		rss  []int64
	}
	all := make([]samples, len(s.scenarios))
	for i := range runs {
		for j, sc := range s.scenarios {
			for k := range 2 {
				// guardsh first on even runs, bash first on odd ones.
				isGuardsh := (k == 0) == (i%2 == 0)
				argv := sc.bash
				if isGuardsh {
					argv = sc.guardsh
				}
				d, rss, err := timeOnce(argv, sc.dir, sc.env)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: %v", sc.name, argv[0], err)
				}
				if isGuardsh {
					all[j].g, all[j].rss = append(all[j].g, d), append(all[j].rss, rss)
				} else {
					all[j].b = append(all[j].b, d)
				}
			}
		}
	}
	out := make([]result, len(s.scenarios))
	for j, sc := range s.scenarios {
		out[j] = result{name: sc.name, guardsh: median(all[j].g), bash: median(all[j].b), rssKB: median(all[j].rss)}
	}
	return out, nil
}

// timeOnce runs argv to completion with its output discarded and returns
// the wall time from start to exit and the peak resident set size in KiB.
// The peak is an upper bound: Go starts a child with vfork, and Linux's
// exec counts the peak of the memory it leaves, the bench's own, in the
// child's (so keep the bench's RSS small before this row is timed).
func timeOnce(argv []string, dir string, env []string) (time.Duration, int64, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	return d, rss, nil
}

func median[T time.Duration | int64](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/1e6) }

// machine describes the CPU, core count, kernel and Go version.
func machine() string {
	model := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	kernel := "unknown kernel"
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = "Linux " + strings.TrimSpace(string(data))
	}
	return fmt.Sprintf("%s, %d CPUs, %s, %s", model, runtime.NumCPU(), kernel, runtime.Version())
}

// inProcess prints the in-process figures: analysis throughput on a 1 MB
// script and allocation on a 10 MB one, deciding a 20-segment command under
// 10 and 10,000 rules, and audit appends per second.
func inProcess(w *os.File, dir string) error {
	fmt.Fprintf(w, "%-44s %s\n", "in process", "")
	mb1, mb10 := benchdata.Script(1<<20), benchdata.Script(10<<20)
	var aerr error
	r := testing.Benchmark(func(b *testing.B) {
		b.SetBytes(int64(len(mb1)))
		for b.Loop() {
			if _, err := interp.Analyze(mb1, interp.Options{Home: "/home/u"}); err != nil {
				aerr = err
				b.SkipNow()
			}
		}
	})
	if aerr != nil {
		return fmt.Errorf("analysing the 1 MB script: %v", aerr)
	}
	fmt.Fprintf(w, "%-44s %10.1f MB/s\n", "analysis, 1 MB script", float64(r.Bytes)*float64(r.N)/r.T.Seconds()/1e6)
	a1, t1, err := analyseOnce(mb1)
	if err != nil {
		return err
	}
	a10, t10, err := analyseOnce(mb10)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-44s %10.1f× bytes, %.1f× time (input 10×)\n", "analysis, 10 MB script vs 1 MB", float64(a10)/float64(a1), t10.Seconds()/t1.Seconds())
	for _, n := range []int{10, 10000} {
		evaluate, decide, err := decideNs(n)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-44s %10.1f µs\n", fmt.Sprintf("analyse+decide 20 segments, %d rules", n), evaluate/1000)
		fmt.Fprintf(w, "%-44s %10.1f µs\n", fmt.Sprintf("decide 20 analysed segments, %d rules", n), decide/1000)
	}
	perSec, err := appendRate(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-44s %10.0f records/s\n", "audit append (flock, no fsync)", perSec)
	return nil
}

// analyseOnce analyses text once and returns the bytes allocated and the
// time taken.
func analyseOnce(text string) (uint64, time.Duration, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := interp.Analyze(text, interp.Options{Home: "/home/u"})
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, d, err
}

// decideNs returns ns per Guard.Evaluate of benchdata.TwentySegments
// (analysis and decision) and ns per Guard.Decide of its segments,
// analysed once beforehand (the rules' decision alone), under a policy of
// n shell rules (benchdata.Policy).
func decideNs(n int) (evaluate, decide float64, err error) {
	p, err := rules.Parse([]byte(benchdata.Policy(n)), "bench.yaml")
	if err != nil {
		return 0, 0, err
	}
	g := &guard.Guard{Policy: p, PolicyFile: "bench.yaml",
		Context:  rules.Context{Mode: rules.AskMode, Cwd: "/home/bench/proj", Home: "/home/bench", Workspace: "/home/bench/proj"},
		Analysis: interp.Options{Home: "/home/bench", Env: os.LookupEnv}} // as for guardsh -c
	segs, err := g.Analyze(benchdata.TwentySegments)
	if err != nil {
		return 0, 0, err
	}
	if o := g.Decide(segs); len(o.Segments) < 20 {
		return 0, 0, fmt.Errorf("the 20-segment command gave %d segments", len(o.Segments))
	}
	perOp := func(f func()) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
		return float64(r.T.Nanoseconds()) / float64(r.N)
	}
	evaluate = perOp(func() { g.Evaluate(benchdata.TwentySegments) })
	decide = perOp(func() { g.Decide(segs) })
	return evaluate, decide, nil
}

// appendRate returns audit records appended per second to a fresh log.
func appendRate(path string) (float64, error) {
	l, err := audit.Open(path)
	if err != nil {
		return 0, err
	}
	defer l.Close()
	rec := audit.NewRecord(time.Now())
	rec.User, rec.Cwd, rec.Command, rec.Mode = "bench", "/home/bench/proj", "git status --short", "ask"
	rec.Argv = []string{"bash", "-c", rec.Command}
	rec.Decision, rec.DecidedBy = audit.Allow, "class"
	rec.Segments = []audit.Segment{{Argv: []string{"git", "status", "--short"}, Kind: "exec", Class: "read-only", Decision: audit.Allow, Reason: "git status is read-only"}}
	var aerr error
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if err := l.Append(rec); err != nil {
				aerr = err
				b.SkipNow()
			}
		}
	})
	if aerr != nil {
		return 0, aerr
	}
	return float64(r.N) / r.T.Seconds(), nil
}
