// Package benchdata generates the inputs guardsh's benchmarks share: an
// agent's shell snapshot, a CI job script, a long pipeline, large scripts and
// policies of a given size. Each generator is deterministic, so runs compare.
package benchdata

import (
	"fmt"
	"strings"
)

// Snapshot returns a 2,000-line shell snapshot in the shape Claude Code
// writes before every command (functions, shell options, aliases, PATH):
// about 1,200 lines of functions, 300 shopt lines and 500 aliases.
func Snapshot() string {
	var b strings.Builder
	b.WriteString("# Snapshot file\n# Unset all aliases to avoid conflicts with functions\nunalias -a 2>/dev/null || true\n")
	b.WriteString("eval \"$(echo 'ZnVuY3Rpb24gYSgpIHsgOjsgfQo=' | base64 -d)\" > /dev/null 2>&1\n")
	lines := 4
	for i := 0; lines < 1200; i++ {
		fmt.Fprintf(&b, "fn_%d () {\n    local x=\"$1\";\n    if [ -n \"$x\" ]; then\n        echo \"$x\" | grep -q foo && return 0;\n    fi;\n    command ls -la \"$HOME/dir_%d\" 2>/dev/null\n}\n", i, i)
		lines += 7
	}
	for i := 0; lines < 1500; i++ {
		fmt.Fprintf(&b, "shopt -u opt%d\n", i%50)
		lines++
	}
	for i := 0; lines < 1999; i++ {
		fmt.Fprintf(&b, "alias -- a%d='ls -la --color=auto dir%d'\n", i, i)
		lines++
	}
	b.WriteString("export PATH=/usr/local/bin:/usr/bin:/bin\n")
	return b.String()
}

// ClaudeCodeCommand returns the command text Claude Code sends for one tool
// call running cmd: source the snapshot, eval the command with stdin from
// /dev/null, and record the working directory in cwdFile.
func ClaudeCodeCommand(snapshot, cmd, cwdFile string) string {
	return "source " + snapshot + " 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && " +
		"eval '" + strings.ReplaceAll(cmd, "'", `'\''`) + "' \\< /dev/null && pwd -P >| " + cwdFile
}

// ciStep is one step of CIScript: about ten lines reading the workspace,
// deciding on what they find and writing under build/ inside it, in the
// shape of GitHub Actions run: scripts. %[1]d is the step number.
const ciStep = `# step %[1]d: check sources and stage artefacts
echo "::group::step %[1]d"
if [ -f README.md ] && grep -q guardsh README.md; then
  echo "readme ok (step %[1]d)"
fi
for f in src/a.txt src/b.txt; do
  test -f "$f" && wc -l "$f" >> build/counts-%[1]d.txt
done
cp src/a.txt build/a-%[1]d.txt
printf '%%s=%%s\n' "step" "%[1]d" >> build/env.txt
echo "::endgroup::"
`

// CIScript returns a 300-line CI job script: a header that sets options
// and variables and creates build/, then steps of ciStep. Every command in
// it is read-only or writes inside the workspace, so guardsh runs it unasked
// in auto mode.
func CIScript() string {
	var b strings.Builder
	b.WriteString("set -eu\nVERSION=1.2.3\nmkdir -p build\ntrue\necho \"building $VERSION\"\nuname -s\ndate +%Y-%m-%d\nls -la src\nsort src/b.txt | uniq | head -3\n")
	lines := 9
	for i := 1; lines+11 <= 299; i++ {
		fmt.Fprintf(&b, ciStep, i)
		lines += 11
	}
	for ; lines < 299; lines++ {
		b.WriteString("true\n")
	}
	b.WriteString("echo done\n")
	return b.String()
}

// Pipeline returns a pipeline of 20 read-only commands over file.
func Pipeline(file string) string {
	stages := []string{"cat " + file, "grep -v '^#'", "tr a-z A-Z", "sed -e s/A/a/g", "sort", "uniq -c",
		"sort -rn", "head -50", "cut -c1-40", "tr -s ' '", "grep -v x", "sort", "uniq", "cat", "tail -40",
		"rev", "rev", "nl", "cut -f2", "wc -l"}
	return strings.Join(stages, " | ")
}

// Script returns a bash script of at most size bytes, as many whole steps
// of CIScript's as fit, for measuring analysis on large inputs.
func Script(size int) string {
	var b strings.Builder
	b.Grow(size)
	for i := 1; ; i++ {
		step := fmt.Sprintf(ciStep, i)
		if b.Len()+len(step) > size {
			return b.String()
		}
		b.WriteString(step)
	}
}

// Policy returns a config with n shell rules in a realistic mix (about 70%
// allow, 20% ask, 10% deny; most patterns "tool subcommand *", one in fifty
// with a leading '*', which every subject must try) plus 60 path rules.
func Policy(n int) string {
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

// TwentySegments is a command of 20 segments of the kind agents send: a
// cd, git, reads, pipes, a redirection, a command substitution and a
// workspace write.
const TwentySegments = `cd /srv/app && git status --short && git diff --stat | head -20; ` +
	`ls -la src/ | grep -v node_modules | wc -l; cat README.md | grep -n TODO > /tmp/todo.txt; ` +
	`npm test 2>&1 | tail -50; echo "done: $(date +%s)"; ` +
	`find . -name '*.go' | xargs grep -l 'func main' | sort | uniq; ` +
	`export A=1 && B=2 make -j4 build && rm -rf ./dist/tmp || true`
