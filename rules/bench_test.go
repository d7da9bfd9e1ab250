package rules

import (
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
)

func benchSubjects(ctx Context) []Subject {
	return []Subject{
		exec("git", "status"),
		exec("git", "diff", "--stat", "HEAD~3"),
		exec("npm", "run", "build"),
		exec("go", "test", "./...", "-run", "TestDecide"),
		exec("kubectl", "get", "pods", "-n", "default", "-o", "wide"),
		exec("docker", "run", "--rm", "-it", "ubuntu:24.04", "bash"),
		exec("cargo", "build", "--release"),
		exec("ls", "-la", "src"),
		exec("cat", "README.md"),
		exec("grep", "-rn", "TODO", "."),
		exec("rm", "-rf", "build"),
		exec("python3", "-m", "pytest", "-x"),
		exec("terraform", "apply", "-auto-approve"),
		exec("make", "-j8"),
		exec("echo", Hole),
		exec("rm", "-rf", Hole),
		{Kind: KindExec, Words: []string{"make", "test"}, Assigns: []string{"CC=clang"}},
		write(ctx.Workspace + "/out/result.txt"),
		write("/tmp/guardsh-bench.log"),
		read(ctx.Workspace + "/input.json"),
	}
}

// BenchmarkDecide decides a 20-segment command against 1,000 shell rules
// and 60 path rules, with the built-in read-only table, as guardsh does:
// one op is the whole command, whose segments share a new Lookups (the
// budget is 100 µs).
func BenchmarkDecide(b *testing.B) {
	p, err := Parse([]byte(benchdata.Policy(1000)), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	if n := len(p.Rules()); n != 1060 {
		b.Fatalf("%d rules", n)
	}
	ctx := Context{Mode: AskMode, Cwd: "/home/bench/proj", Home: "/home/bench", Workspace: "/home/bench/proj"}
	subjects := benchSubjects(ctx)
	if len(subjects) != 20 {
		b.Fatal(len(subjects))
	}
	b.ReportAllocs()
	for b.Loop() {
		c := ctx
		c.Lookups = NewLookups()
		for _, s := range subjects {
			p.Decide(s, c)
		}
	}
}

// BenchmarkDecideExec is BenchmarkDecide without the path segments (whose
// cost is mostly the file system lookups resolving symlinks).
func BenchmarkDecideExec(b *testing.B) {
	p, err := Parse([]byte(benchdata.Policy(1000)), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	ctx := Context{Mode: AskMode, Cwd: "/home/bench/proj", Home: "/home/bench", Workspace: "/home/bench/proj"}
	subjects := benchSubjects(ctx)[:17]
	b.ReportAllocs()
	for b.Loop() {
		c := ctx
		c.Lookups = NewLookups()
		for _, s := range subjects {
			p.Decide(s, c)
		}
	}
}

// BenchmarkParse measures parsing and compiling the 1,060-rule config.
func BenchmarkParse(b *testing.B) {
	data := []byte(benchdata.Policy(1000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data, "bench.yaml"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchPolicyDecides makes sure the benchmark exercises every branch
// it claims to: rules of each decision match some subject.
func TestBenchPolicyDecides(t *testing.T) {
	p, err := Parse([]byte(benchdata.Policy(1000)), "bench.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Mode: AskMode, Cwd: "/home/bench/proj", Home: "/home/bench", Workspace: "/home/bench/proj"}
	seen := map[string]int{}
	for _, s := range benchSubjects(ctx) {
		v := p.Decide(s, ctx)
		seen[v.Decision.String()+"/"+v.DecidedBy]++
	}
	for _, k := range []string{"allow/rule", "ask/rule", "allow/class", "ask/class"} {
		if seen[k] == 0 {
			t.Errorf("no subject decided %s: %v", k, seen)
		}
	}
}

// BenchmarkDefault measures parsing the embedded default policy, which
// every guardsh process without a config file pays.
func BenchmarkDefault(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Default()
	}
}
