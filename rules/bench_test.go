package rules

import (
	"fmt"
	"strings"
	"testing"
)

// benchPolicy returns a config with n shell rules in a realistic mix (about
// 70% allow, 20% ask, 10% deny; most patterns "tool subcommand *", a few
// with a leading '*', which every subject must try) plus 60 path rules.
func benchPolicy(n int) string {
	tools := []string{"git", "npm", "yarn", "pnpm", "go", "cargo", "make", "docker", "kubectl", "python3",
		"pip", "node", "terraform", "aws", "gcloud", "helm", "rustup", "bundle", "rake", "mvn",
		"gradle", "dotnet", "swift", "brew", "apt-get", "systemctl", "journalctl", "ssh", "scp", "rsync",
		"curl", "wget", "tar", "zip", "unzip", "sed", "awk", "find", "xargs", "jq",
		"psql", "mysql", "redis-cli", "mongo", "ffmpeg", "convert", "openssl", "gpg", "deno", "bun"}
	subs := []string{"build", "test", "run", "install", "lint", "fmt", "check", "deploy", "status", "log",
		"diff", "show", "get", "describe", "apply", "delete", "push", "pull", "exec", "logs"}
	var allow, ask, deny []string
	for i := 0; len(allow)+len(ask)+len(deny) < n; i++ {
		tool := tools[i%len(tools)]
		sub := subs[(i/len(tools))%len(subs)]
		variant := i / (len(tools) * len(subs))
		pat := fmt.Sprintf("%s %s *", tool, sub)
		if variant > 0 {
			pat = fmt.Sprintf("%s %s --flag%d *", tool, sub, variant)
		}
		switch {
		case i%100 < 2:
			deny = append(deny, fmt.Sprintf("* --danger%d *", i)) // leading star: tried for every subject
		case i%10 == 9:
			deny = append(deny, pat)
		case i%10 >= 7:
			ask = append(ask, pat)
		default:
			allow = append(allow, pat)
		}
	}
	q := func(xs []string) string {
		var b strings.Builder
		for _, x := range xs {
			fmt.Fprintf(&b, "      - %q\n", x)
		}
		return b.String()
	}
	var paths []string
	for i := 0; i < 20; i++ {
		paths = append(paths, fmt.Sprintf("~/secrets%d/*", i), fmt.Sprintf("/srv/data%d/*", i), fmt.Sprintf("gen%d/*", i))
	}
	return "mode: ask\nrules:\n  shell:\n    allow:\n" + q(allow) + "    ask:\n" + q(ask) + "    deny:\n" + q(deny) +
		"  write:\n    deny:\n" + q(paths[:40]) + "  read:\n    deny:\n" + q(paths[40:])
}

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
	p, err := Parse([]byte(benchPolicy(1000)), "bench.yaml")
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
	p, err := Parse([]byte(benchPolicy(1000)), "bench.yaml")
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
	data := []byte(benchPolicy(1000))
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
	p, err := Parse([]byte(benchPolicy(1000)), "bench.yaml")
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
