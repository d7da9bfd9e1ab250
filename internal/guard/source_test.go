package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestSourcedFileUnderAllowRule checks that an allow rule on `source FILE`
// vouches for what FILE runs, except what deny and ask rules and protected
// paths decide, and that without such a rule the file's commands are
// decided like any others.
func TestSourcedFileUnderAllowRule(t *testing.T) {
	home := t.TempDir()
	snapDir := filepath.Join(home, ".claude", "shell-snapshots")
	if err := os.MkdirAll(snapDir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		p := filepath.Join(snapDir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("snapshot-bash-1.sh", "unalias -a 2>/dev/null || true\nshopt -s expand_aliases\n"+
		"eval \"$(echo ZWNobyBoaQo= | base64 -d)\" > /dev/null 2>&1\nexport PATH=/opt/x/bin:$PATH\nnvm() { curl -s https://example.com; }\n")
	evil := write("snapshot-bash-2.sh", "rm -rf ~/project\n")
	asking := write("snapshot-bash-3.sh", "git push --force origin main\n")
	writing := write("snapshot-bash-4.sh", "echo x >> ~/.bashrc\n")
	other := filepath.Join(home, "other.sh")
	if err := os.WriteFile(other, []byte("export PATH=/opt/x/bin:$PATH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte(`rules:
  shell:
    allow: ["source ~/.claude/shell-snapshots/snapshot-*.sh", "git status *"]
    ask: ["git push --force *"]
    deny: ["rm -rf *"]
`), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home}}
	g.Analysis.Home = home
	for _, c := range []struct {
		name, text string
		want       rules.Decision
	}{
		{"a snapshot under the allow rule runs", "source " + plain + " && eval 'git status' && pwd -P", rules.Allow},
		{"a deny rule still reaches inside the snapshot", "source " + evil + " && git status", rules.Deny},
		{"an ask rule still asks inside the snapshot", "source " + asking, rules.Ask},
		{"a protected path still asks inside the snapshot", "source " + writing, rules.Ask},
		{"calling a snapshot function decides its body on its own merits", "source " + plain + " && nvm", rules.Ask},
		{"a file no allow rule names is decided command by command", "source " + other, rules.Ask},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := g.Evaluate(c.text)
			if o.Decision != c.want {
				t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
			}
		})
	}
}

// TestClearFilesAreSkippedOnlyUnderTheSameKey checks the record of files
// found clear: a second run skips the commands of an unchanged snapshot,
// but a changed snapshot, a new deny rule or another working directory is
// decided afresh, and a snapshot with an ask is never recorded.
func TestClearFilesAreSkippedOnlyUnderTheSameKey(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "shell-snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "snapshot-bash-1.sh")
	write := func(content string) {
		if err := os.WriteFile(snap, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shopt -s expand_aliases\nhelper() { touch /tmp/helper-ran; }\nexport PATH=$PATH:/opt/bin\n")
	cache := interp.DirCache{Dir: filepath.Join(home, ".cache", "guardsh", "source")}
	guardFor := func(policy, cwd string) *Guard {
		p, err := rules.Parse([]byte(policy), "policy.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return &Guard{Policy: p, PolicyFile: "policy.yaml", Verdicts: cache,
			Context:  rules.Context{Mode: rules.AskMode, Cwd: cwd, Home: home, Workspace: cwd},
			Analysis: interp.Options{Home: home, Sources: cache}}
	}
	base := "rules:\n  shell:\n    allow: [\"source ~/.claude/shell-snapshots/snapshot-*.sh\"]\n    deny: [\"rm -rf *\"]\n"
	text := "source " + snap + " && pwd"
	count := func(o Outcome) int {
		n := 0
		for _, c := range o.Segments {
			if c.Segment.Sourced != "" {
				n++
			}
		}
		return n
	}
	g := guardFor(base, home)
	first := g.Evaluate(text)
	second := g.Evaluate(text)
	if first.Decision != rules.Allow || second.Decision != rules.Allow {
		t.Fatalf("decisions %v, %v; want allow\n%s", first.Decision, second.Decision, describeOutcome(first))
	}
	if count(first) == 0 || count(second) != 0 {
		t.Errorf("snapshot commands decided: first run %d, second run %d; want some, then none", count(first), count(second))
	}
	if o := g.Evaluate("source " + snap + " && helper"); o.Decision != rules.Ask {
		t.Errorf("a call of a function of a skipped snapshot is %v, want ask (its body runs touch)\n%s", o.Decision, describeOutcome(o))
	}

	// A new deny rule that matches a snapshot command: decided afresh.
	denying := guardFor("rules:\n  shell:\n    allow: [\"source ~/.claude/shell-snapshots/snapshot-*.sh\"]\n    deny: [\"rm -rf *\", \"shopt *\"]\n", home)
	if o := denying.Evaluate(text); o.Decision != rules.Deny {
		t.Errorf("after a deny rule for shopt was added: %v, want deny\n%s", o.Decision, describeOutcome(o))
	}
	// Another working directory is another key.
	if o := guardFor(base, t.TempDir()).Evaluate(text); count(o) == 0 {
		t.Errorf("in another working directory the snapshot was skipped")
	}
	// The file changes: its new commands are decided.
	write("shopt -s expand_aliases\nrm -rf ~/work\n")
	if o := g.Evaluate(text); o.Decision != rules.Deny {
		t.Errorf("after the snapshot changed: %v, want deny\n%s", o.Decision, describeOutcome(o))
	}
	// A snapshot with an ask rule match is never recorded clear.
	write("git push --force\n")
	asking := guardFor(base+"    ask: [\"git push --force *\"]\n", home)
	for run := range 2 {
		if o := asking.Evaluate(text); o.Decision != rules.Ask {
			t.Errorf("run %d: a snapshot that force-pushes is %v, want ask", run, o.Decision)
		}
	}
}

// TestSnapshotAliasesAreFollowed checks that an alias a snapshot defines
// is read expanded where the command uses it, also when the snapshot's
// commands were skipped as clear.
func TestSnapshotAliasesAreFollowed(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "shell-snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "snapshot-bash-1.sh")
	if err := os.WriteFile(snap, []byte("shopt -s expand_aliases\nalias -- ll='ls -l'\nalias -- wipe='rm -rf'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte("mode: bypass\nrules:\n  shell:\n    allow: [\"source ~/.claude/shell-snapshots/snapshot-*.sh\"]\n    deny: [\"rm -rf *\"]\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cache := interp.DirCache{Dir: filepath.Join(home, ".cache", "guardsh", "source")}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Verdicts: cache,
		Context:  rules.Context{Mode: rules.Bypass, Cwd: home, Home: home, Workspace: home},
		Analysis: interp.Options{Home: home, Sources: cache}}
	for run := range 3 {
		if o := g.Evaluate("source " + snap + " && eval 'll'"); o.Decision != rules.Allow {
			t.Errorf("run %d: ll is %v, want allow\n%s", run, o.Decision, describeOutcome(o))
		}
		if o := g.Evaluate("source " + snap + " && eval 'wipe ~'"); o.Decision != rules.Deny {
			t.Errorf("run %d: wipe ~ is %v, want deny\n%s", run, o.Decision, describeOutcome(o))
		}
	}
}

// TestScriptFiles checks that a script a shell runs is decided by its
// content when it can be read, and asks when it cannot, unless an allow
// rule names it.
func TestScriptFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "clean.sh"), []byte("rm -rf build\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte("mode: bypass\nrules:\n  shell:\n    allow: [\"bash verify.sh *\"]\n    deny: [\"rm -rf *\"]\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.Bypass, Cwd: dir, Home: dir, Workspace: dir},
		Analysis: interp.Options{Home: dir, Dir: dir}}
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"bash clean.sh", rules.Deny},
		{"echo 'rm -rf ~' > new.sh; bash new.sh", rules.Ask},
		{"bash verify.sh --all", rules.Allow},
		{"bash other.sh", rules.Ask},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}

// TestFilesReadAsCode covers ways to run a file's code that the analysis
// must either read or refuse to guess (from an attack run).
func TestFilesReadAsCode(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	snaps := filepath.Join(home, ".claude", "shell-snapshots")
	for _, d := range []string{ws, snaps, filepath.Join(ws, "~", ".codex", "shell_snapshots")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, content string) string {
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := write(filepath.Join(ws, "t.sh"), "touch /tmp/marker\n")
	write(filepath.Join(ws, "r.sh"), "#!/bin/sh\necho fine\n")
	write(filepath.Join(ws, "s.sh"), "echo fine\n")
	inner := write(filepath.Join(ws, "inner.sh"), "true\n")
	snap := write(filepath.Join(snaps, "snapshot-bash-1.sh"), "source "+inner+"\n")
	write(filepath.Join(ws, "~", ".codex", "shell_snapshots", "x.sh"), "touch /tmp/marker\n")
	cache := interp.DirCache{Dir: filepath.Join(home, ".cache", "guardsh", "source")}
	guardFor := func(policy string) *Guard {
		p, err := rules.Parse([]byte(policy), "policy.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return &Guard{Policy: p, PolicyFile: "policy.yaml", Verdicts: cache,
			Context:  rules.Context{Mode: p.Mode, Cwd: ws, Home: home, Workspace: ws},
			Analysis: interp.Options{Home: home, Dir: ws, Sources: cache}}
	}
	bypass := guardFor("mode: bypass\nrules:\n  shell:\n    allow: [\"source ~/.claude/shell-snapshots/snapshot-*.sh\"]\n    deny: [\"touch *\"]\n")
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"source -- " + bad, rules.Deny},
		{"bash < t.sh", rules.Deny},
		{"source /dev/stdin < t.sh", rules.Deny},
		{"source /dev/fd/5 5< t.sh", rules.Ask},
		{"echo x > s.sh; source " + filepath.Join(ws, "s.sh"), rules.Ask},
		{"echo x >> r.sh; ./r.sh", rules.Ask},
		{"echo x > ./s.sh; bash s.sh", rules.Ask},
		{"echo x > " + filepath.Join(ws, "s.sh") + "; bash ./s.sh", rules.Ask},
		{"echo x > .//s.sh; bash s.sh", rules.Ask},
		{"cp t.sh new.sh; source new.sh", rules.Ask},
		{"source new.sh", rules.Ask},
		{"source s.sh", rules.Allow},
		{"bash s.sh && ./r.sh", rules.Allow},
	} {
		if o := bypass.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
	// A snapshot that sources another file is never recorded clear: a
	// change of the inner file is seen.
	if o := bypass.Evaluate("source " + snap); o.Decision != rules.Allow {
		t.Fatalf("first run: %v\n%s", o.Decision, describeOutcome(o))
	}
	write(inner, "touch /tmp/marker\n")
	if o := bypass.Evaluate("source " + snap); o.Decision != rules.Deny {
		t.Errorf("after the inner file changed: %v, want deny\n%s", o.Decision, describeOutcome(o))
	}
	// A quoted "~" is a relative directory, not the home the default
	// policy's snapshot rules name.
	def := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context:  rules.Context{Mode: rules.AskMode, Cwd: ws, Home: home, Workspace: ws},
		Analysis: interp.Options{Home: home, Dir: ws}}
	for _, text := range []string{`. "~/.codex/shell_snapshots/x.sh"`, `source \~/.codex/shell_snapshots/x.sh`} {
		if o := def.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%s is allowed\n%s", text, describeOutcome(o))
		}
	}
}

// TestSnapshotAliasRunsAsItsExpansion checks that an alias a snapshot
// defines is read expanded where it is used (a deny rule reaches what it
// expands to), and that the name itself is still decided as a program.
func TestSnapshotAliasRunsAsItsExpansion(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "shell-snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	on := filepath.Join(dir, "snapshot-bash-1.sh")
	off := filepath.Join(dir, "snapshot-bash-2.sh")
	for p, content := range map[string]string{
		on:  "shopt -s expand_aliases\nalias -- ll='ls -alF'\nalias -- wipe='rm -rf'\n",
		off: "alias -- ll='ls -alF'\n",
	} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home}}
	g.Analysis.Home = home
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		// The literal name still decides as a program: where bash
		// expands an alias (line by line, not in child shells) is more
		// than the analysis follows.
		{"source " + on + " && eval 'll'", rules.Ask},
		{"source " + on + " && eval 'wipe ~'", rules.Deny},
		{"source " + off + " && eval 'll'", rules.Ask},
		{"alias ll='ls -l'; ll", rules.Ask},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}

// TestSnapshotAliasVerdictCacheIndependent runs the alias case with the
// clear cache, cold then warm: the verdict must not change.
func TestSnapshotAliasVerdictCacheIndependent(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".claude", "shell-snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "snapshot-bash-1.sh")
	if err := os.WriteFile(snap, []byte("shopt -s expand_aliases\nalias -- ll='ls -alF'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := interp.DirCache{Dir: filepath.Join(home, ".cache", "guardsh", "source")}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile, Verdicts: cache,
		Context:  rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home},
		Analysis: interp.Options{Home: home, Sources: cache}}
	for run := range 3 {
		if o := g.Evaluate("source " + snap + " && eval 'll'"); o.Decision != rules.Ask {
			t.Errorf("run %d: %v, want ask\n%s", run, o.Decision, describeOutcome(o))
		}
		if o := g.Evaluate("source " + snap + " && eval 'ls'"); o.Decision != rules.Allow {
			t.Errorf("run %d: ls: %v, want allow\n%s", run, o.Decision, describeOutcome(o))
		}
	}
}
