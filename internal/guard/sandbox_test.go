package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestSandboxDecides: with sandbox: workspace only what asks as an
// unknown program, an interpreter or (in ask) a workspace write runs
// jailed; a rule, the network, a protected path, a secret or a write
// outside the workspace still decide, and an unavailable kernel asks.
func TestSandboxDecides(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, ".git"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy, err := rules.Parse([]byte(`sandbox: workspace
rules:
  shell:
    ask: ["./ask-me *"]
    deny: ["./deny-me *"]
    allow: ["curl https://example.com/*"]
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		mode        rules.Mode
		cmd         string
		want        rules.Decision
		jailed, net bool
		unavailable string
	}{
		{rules.Auto, "./build.sh --fast", rules.Allow, true, false, ""},
		{rules.Auto, "python3 -c 'print(1)'", rules.Allow, true, false, ""},
		{rules.Auto, "some-unknown-tool x", rules.Allow, true, false, ""},
		{rules.AskMode, "mkdir build", rules.Allow, true, false, ""},
		{rules.Auto, "mkdir build", rules.Allow, false, false, ""}, // auto allows it unjailed
		{rules.Auto, "ls", rules.Allow, false, false, ""},
		{rules.Auto, "./ask-me now", rules.Ask, false, false, ""},
		{rules.Auto, "./deny-me now", rules.Deny, false, false, ""},
		{rules.Auto, "./build.sh && ./deny-me now", rules.Deny, false, false, ""},
		{rules.Auto, "npx playwright test", rules.Ask, false, false, ""},
		{rules.Auto, "./build.sh && curl https://evil.example/x", rules.Ask, false, false, ""},
		{rules.Auto, "./build.sh && curl https://example.com/x", rules.Allow, true, true, ""},
		{rules.Auto, "python3 x.py > ~/.bashrc", rules.Ask, false, false, ""},
		{rules.Auto, "./build.sh > /etc/x", rules.Ask, false, false, ""},
		{rules.Auto, "sudo ./build.sh", rules.Ask, false, false, ""},
		// A multiplexer's client drives the human's sessions through a
		// server outside the jail (an attack run answered an approval so).
		{rules.Auto, "tmux new-window -d ./build.sh", rules.Ask, false, false, ""},
		{rules.Auto, "screen -X stuff y", rules.Ask, false, false, ""},
		// Writes of the repository's config, which the jail would only
		// put back (the command then failing with no approval to give):
		// they ask up front (a new user's find) — but a naming key's
		// write, and any read, run unjailed: git config runs nothing.
		{rules.Auto, "git config core.pager less", rules.Ask, false, false, ""},
		{rules.Auto, "git config user.email a@b.c", rules.Allow, false, false, ""},
		{rules.Auto, "git remote add origin https://example.com/r.git", rules.Ask, false, false, ""},
		{rules.Auto, "git config --get user.email", rules.Allow, true, false, ""}, // a read asks unjailed: not in the read-only table
		// A loop's variable over plain words is its values, not a
		// run-time `-m pip` (a new user's loop asked as network).
		{rules.Auto, "for f in a.py b.py; do python3 $f; done", rules.Allow, true, false, ""},
		{rules.Auto, "for f in a.py '-m pip install x'; do python3 $f; done", rules.Ask, false, false, ""},
		{rules.Auto, "./build.sh", rules.Ask, false, false, "unavailable (ABI 3)"},
		{rules.Approve, "./build.sh", rules.Ask, false, false, ""},
		{rules.Plan, "./build.sh", rules.Deny, false, false, ""},
	} {
		t.Run(string(tt.mode)+" "+tt.cmd, func(t *testing.T) {
			g := &Guard{Policy: policy, PolicyFile: "c.yaml", SandboxUnavailable: tt.unavailable,
				Context:  rules.Context{Mode: tt.mode, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}},
				Analysis: interp.Options{Home: home, Dir: ws}}
			o := g.Evaluate(tt.cmd)
			if o.Decision != tt.want || o.Sandbox != tt.jailed || o.Network != tt.net {
				t.Fatalf("decision %s sandbox %v network %v (%s), want %s %v %v", o.Decision, o.Sandbox, o.Network, o.DecidedBy, tt.want, tt.jailed, tt.net)
			}
			if tt.unavailable != "" {
				if o.SandboxNote != tt.unavailable || !strings.Contains(strings.Join(o.Refusal("c.yaml", "x"), "\n"), "sandbox "+tt.unavailable) {
					t.Errorf("note %q, refusal %q", o.SandboxNote, o.Refusal("c.yaml", "x"))
				}
			}
			if o.Sandbox && o.DecidedBy == "sandbox" {
				n := 0
				for _, c := range o.Segments {
					if c.Sandboxed {
						n++
					}
				}
				if n == 0 {
					t.Errorf("jailed by the sandbox, but no segment is marked")
				}
			}
		})
	}
}

// TestJailSpec: the jail writes beneath the workspace, temp and
// sandbox.write, and hides secrets and guardsh's state outside the
// workspace but not guardsh's binary.
func TestJailSpec(t *testing.T) {
	policy, err := rules.Parse([]byte("sandbox: {mode: workspace, write: [~/.cache/go-build, /opt/x]}\nrules: {read: {deny: [\"~/private/*\", \"wsecret/*\"]}}\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: policy, Context: rules.Context{Home: "/home/u", Workspace: "/home/u/p", TempDirs: []string{"/tmp"},
		Protected: []string{"/home/u/.local/state/guardsh/audit.jsonl", "/usr/bin/guardsh", "/home/u/p/.guardsh.yaml"}}}
	spec := g.Jail(Outcome{}, "/usr/bin/guardsh")
	want := []string{"/home/u/p", "/tmp", "/home/u/.cache/go-build", "/opt/x"}
	if strings.Join(spec.Write, " ") != strings.Join(want, " ") {
		t.Errorf("Write = %v, want %v", spec.Write, want)
	}
	hidden := " " + strings.Join(spec.Hidden, " ") + " "
	// A relative read deny names a place in the workspace (an attack run
	// read wsecret/ from the jail).
	for _, h := range []string{"/home/u/.ssh", "/home/u/.aws/credentials", "/home/u/private", "/home/u/p/wsecret", "/home/u/.config/guardsh", "/home/u/.local/state/guardsh/audit.jsonl"} {
		if !strings.Contains(hidden, " "+h+" ") {
			t.Errorf("%s is not hidden: %v", h, spec.Hidden)
		}
	}
	for _, h := range []string{"/usr/bin/guardsh", "/home/u/p/.guardsh.yaml"} {
		if strings.Contains(hidden, " "+h+" ") {
			t.Errorf("%s is hidden: %v", h, spec.Hidden)
		}
	}
}

// TestNoJailWhereAReadRuleNamesTheWorkspace: a read rule naming a place in
// the workspace cannot be hidden in a jail that writes the workspace (an
// attack run read it from the jail); such a workspace gets no jail, and
// what would have run jailed asks, saying why.
func TestNoJailWhereAReadRuleNamesTheWorkspace(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		readDeny string
		jailed   bool
	}{{"wsecret/*", false}, {ws + "/keys/*", false}, {"~/private/*", true}} {
		policy, err := rules.Parse([]byte("sandbox: workspace\nrules: {read: {deny: [\""+tt.readDeny+"\"]}}\n"), "c.yaml")
		if err != nil {
			t.Fatal(err)
		}
		g := &Guard{Policy: policy, PolicyFile: "c.yaml",
			Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: filepath.Join(root, "home"), Workspace: ws, TempDirs: []string{"/tmp"}},
			Analysis: interp.Options{Home: filepath.Join(root, "home"), Dir: ws}}
		o := g.Evaluate("./build.sh")
		if o.Sandbox != tt.jailed || tt.jailed != (o.Decision == rules.Allow) {
			t.Errorf("%s: decision %s sandbox %v, want jailed %v", tt.readDeny, o.Decision, o.Sandbox, tt.jailed)
		}
		if !tt.jailed && !strings.Contains(strings.Join(o.Refusal("c.yaml", "x"), "\n"), "read rule at c.yaml:2 names "+filepath.Join(ws, strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(tt.readDeny, ws+"/"), "/*"), "/"))+", inside the workspace") {
			t.Errorf("%s: the refusal does not say why: %q", tt.readDeny, o.Refusal("c.yaml", "x"))
		}
	}
}

// TestJailHidesRotatedLogs: a protected pattern (the audit log's rotated
// files, LOG.*) hides the files it names when the jail is built (an
// attack run read a rotated log, with earlier commands, from the jail).
func TestJailHidesRotatedLogs(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	rotated := log + ".20261130T061526.067Z"
	for _, f := range []string{log, rotated, filepath.Join(dir, "other")} {
		if err := os.WriteFile(f, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	policy, err := rules.Parse([]byte("sandbox: workspace\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: policy, Context: rules.Context{Home: "/home/u", Workspace: "/home/u/p", Protected: []string{log, log + ".*"}}}
	hidden := " " + strings.Join(g.Jail(Outcome{}, "").Hidden, " ") + " "
	if !strings.Contains(hidden, " "+rotated+" ") || !strings.Contains(hidden, " "+log+" ") {
		t.Errorf("the log and its rotated file are not hidden: %s", hidden)
	}
	if strings.Contains(hidden, filepath.Join(dir, "other")) {
		t.Errorf("a file the pattern does not name is hidden: %s", hidden)
	}
}

// TestSandboxTakesInstalledNpxPrograms: `npx NAME` whose program is
// installed in the project (node_modules/.bin) runs the project's code
// without a registry, so the jail takes it as it takes an interpreter; a
// name npx would fetch still asks as the network, and a cd to a directory
// only known at run time leaves it to the network too.
func TestSandboxTakesInstalledNpxPrograms(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	makeTree(t, []string{filepath.Join(ws, ".git"), filepath.Join(ws, "node_modules", ".bin"), filepath.Join(ws, "web"), home},
		map[string]string{filepath.Join(ws, "node_modules", ".bin", "tsc"): "#!/bin/sh\n"})
	policy, err := rules.Parse([]byte("sandbox: workspace\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []rules.Mode{rules.Auto, rules.AskMode} {
		sandboxCases(t, policy, mode, ws, home, []sandboxCase{
			{"npx tsc --noEmit", rules.Allow, true},
			{"cd web && npx tsc --noEmit -p .", rules.Allow, true},
			{"npx tsc --noEmit && npx playwright test", rules.Ask, false},
			{"npx tsc@5.4 --noEmit", rules.Ask, false},
			{`cd "$D" && npx tsc`, rules.Ask, false},
			{"cd /srv && npx tsc", rules.Ask, false},
		})
	}
}

// sandboxCase is a command and the decision it must get, jailed or not.
type sandboxCase struct {
	cmd    string
	want   rules.Decision
	jailed bool
}

// sandboxCases evaluates each case under policy in mode, in workspace ws.
func sandboxCases(t *testing.T, policy *rules.Policy, mode rules.Mode, ws, home string, cases []sandboxCase) {
	t.Helper()
	for _, tt := range cases {
		g := &Guard{Policy: policy, PolicyFile: "c.yaml",
			Context:  rules.Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}},
			Analysis: interp.Options{Home: home, Dir: ws}}
		if o := g.Evaluate(tt.cmd); o.Decision != tt.want || o.Sandbox != tt.jailed {
			t.Errorf("%s %q: %s sandbox %v (%s), want %s %v", mode, tt.cmd, o.Decision, o.Sandbox, describeOutcome(o), tt.want, tt.jailed)
		}
	}
}

// TestSandboxKeepsAnAskFromAnotherDirectory: a segment decided in every
// directory a cd may lead to asks for the reason the sandbox does not
// take when any directory gives one, though another gives the same ask
// for a reason it takes: `./dep` is an unknown program where the command
// starts, but after `cd bin` a link to a program an ask rule names.
func TestSandboxKeepsAnAskFromAnotherDirectory(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	tools := filepath.Join(root, "tools")
	makeTree(t, []string{filepath.Join(ws, ".git"), filepath.Join(ws, "bin"), home, tools},
		map[string]string{filepath.Join(tools, "deploy"): "#!/bin/sh\n"})
	if err := os.Symlink(filepath.Join(tools, "deploy"), filepath.Join(ws, "bin", "dep")); err != nil {
		t.Fatal(err)
	}
	policy, err := rules.Parse([]byte("sandbox: workspace\nrules:\n  shell:\n    ask: [\"deploy *\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sandboxCases(t, policy, rules.Auto, ws, home, []sandboxCase{
		{"./bin/dep prod", rules.Ask, false},
		{"cd bin && ./dep prod", rules.Ask, false},
		{"cd bin && ./other prod", rules.Allow, true}, // no rule anywhere: jailed
	})
}
