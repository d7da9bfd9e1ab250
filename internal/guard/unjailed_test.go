package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestRefusalSaysWhyNotJailed: with the sandbox on, a command the jail
// would take but for one segment is refused with why it was not jailed
// and what would let it run jailed (sandbox.write for a write outside,
// when that is no wide grant), never with an allow rule for the segment
// the jail would take — that rule would run it unjailed, with the user's
// full rights. A write beneath a sandbox.write directory is one the jail
// takes.
func TestRefusalSaysWhyNotJailed(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	out := filepath.Join(root, "out") // outside the workspace, home and /tmp
	for _, d := range []string{filepath.Join(ws, ".git"), home, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	guardFor := func(t *testing.T, config string, mode rules.Mode) *Guard {
		policy, err := rules.Parse([]byte(config), "c.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return &Guard{Policy: policy, PolicyFile: "c.yaml",
			Context:  rules.Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}},
			Analysis: interp.Options{Home: home, Dir: ws}}
	}
	q := regexp.QuoteMeta
	for _, tt := range []struct {
		name, config string
		mode         rules.Mode
		cmd          string
		want, not    []string // regexps the refusal matches, and must not
	}{
		{
			name: "a redirection outside: sandbox.write", config: "sandbox: workspace\n", mode: rules.AskMode,
			cmd: "python3 x.py > " + out + "/r.txt",
			want: []string{
				`needs approval: > ` + q(out) + `/r.txt \(`,
				`^guardsh:   to run it jailed, add ` + q(out) + ` to sandbox.write in c.yaml$`,
				`^guardsh: sandbox: not jailed: > ` + q(out) + `/r.txt writes outside the directories the jail may write \(the workspace, the temp directories, sandbox.write\)$`,
				`^guardsh:   without it python3 x.py would run jailed; an allow rule would run it outside the jail, with your full rights$`,
			},
			not: []string{`to allow it`},
		},
		{
			name: "a command writing outside, in auto", config: "sandbox: workspace\n", mode: rules.Auto,
			cmd: "./build.sh && cp x.txt " + out + "/x.txt",
			want: []string{
				`^guardsh:   to run it jailed, add ` + q(out) + ` to sandbox.write in c.yaml$`,
				`^guardsh: sandbox: not jailed: cp x.txt ` + q(out) + `/x.txt writes outside`,
				`without it ./build.sh would run jailed`,
			},
			not: []string{`to allow it`},
		},
		{
			name: "a write into the home directory: no sandbox.write offered", config: "sandbox: workspace\n", mode: rules.AskMode,
			cmd: "python3 x.py > ~/notes.txt",
			want: []string{
				`sandbox: not jailed: > ` + q(home) + `/notes.txt writes outside .*; write inside them instead$`,
				`without it python3 x.py would run jailed`,
			},
			not: []string{`to allow it`, `sandbox.write in`},
		},
		{
			name: "the network: its own allow rule only", config: "sandbox: workspace\n", mode: rules.Auto,
			cmd: "./build.sh && curl -O https://example.com/x",
			want: []string{
				`^guardsh:   to allow it, add "curl -O https://example.com/x" to rules.shell.allow in c.yaml$`,
				`^guardsh: sandbox: not jailed: curl -O https://example.com/x is sensitive \(network\), which the jail does not take$`,
				`without it ./build.sh would run jailed`,
			},
			not: []string{`add "./build.sh`},
		},
		{
			name: "an ask rule", config: "sandbox: workspace\nrules: {shell: {ask: [\"git push *\"]}}\n", mode: rules.Auto,
			cmd: "make && git push",
			want: []string{
				`sandbox: not jailed: git push asks under rule "git push \*" \(c.yaml:2\), which the jail does not lift$`,
				`without it make would run jailed`,
			},
			not: []string{`add "make`},
		},
		{
			name: "nothing the jail would take: as before", config: "sandbox: workspace\n", mode: rules.Auto,
			cmd:  "curl -O https://example.com/x",
			want: []string{`to allow it, add "curl -O https://example.com/x"`},
			not:  []string{`sandbox`},
		},
		{
			name: "sandbox off: as before", config: "mode: ask\n", mode: rules.AskMode,
			cmd:  "python3 x.py > " + out + "/r.txt",
			want: []string{`to allow it, add "python3 x.py`, `to allow it, add "` + q(out) + `/\*" to rules.write.allow`},
			not:  []string{`sandbox`},
		},
		{
			name: "mode approve jails nothing: as before", config: "sandbox: workspace\n", mode: rules.Approve,
			cmd:  "python3 x.py > " + out + "/r.txt",
			want: []string{`to allow it, add "python3 x.py`},
			not:  []string{`sandbox`},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := guardFor(t, tt.config, tt.mode)
			o := g.Evaluate(tt.cmd)
			if o.Decision != rules.Ask || o.Sandbox {
				t.Fatalf("decision %s sandbox %v, want ask, unjailed", o.Decision, o.Sandbox)
			}
			lines := o.Refusal("c.yaml", "no trusted terminal")
			text := strings.Join(lines, "\n")
			for _, w := range tt.want {
				if !regexp.MustCompile("(?m)" + w).MatchString(text) {
					t.Errorf("refusal does not match %s:\n%s", w, text)
				}
			}
			for _, n := range tt.not {
				if regexp.MustCompile("(?m)" + n).MatchString(text) {
					t.Errorf("refusal matches %s:\n%s", n, text)
				}
			}
		})
	}

	// What the hint offers works: with the directory in sandbox.write the
	// same commands run jailed, unasked.
	for _, tt := range []struct {
		mode rules.Mode
		cmd  string
	}{
		{rules.AskMode, "python3 x.py > " + out + "/r.txt"},
		{rules.Auto, "./build.sh && cp x.txt " + out + "/x.txt"},
		{rules.AskMode, "cp x.txt " + out + "/x.txt"},
	} {
		t.Run("with sandbox.write: "+tt.cmd, func(t *testing.T) {
			g := guardFor(t, "sandbox: {mode: workspace, write: ["+out+"]}\n", tt.mode)
			o := g.Evaluate(tt.cmd)
			if o.Decision != rules.Allow || !o.Sandbox || o.DecidedBy != "sandbox" {
				t.Fatalf("decision %s sandbox %v by %s, want allow, jailed", o.Decision, o.Sandbox, o.DecidedBy)
			}
			for _, c := range o.Segments {
				if c.Verdict.Sensitivity == rules.OutsideWorkspace && (!c.Sandboxed || !strings.Contains(c.Verdict.Reason, "(sandbox.write)")) {
					t.Errorf("segment %s: sandboxed %v, reason %q", c.Segment, c.Sandboxed, c.Verdict.Reason)
				}
			}
		})
	}
	// A write beneath sandbox.write is one the jail takes, also in a
	// command kept out of the jail by another segment: the refusal names
	// that segment, not the write.
	t.Run("with sandbox.write, kept out by the network", func(t *testing.T) {
		g := guardFor(t, "sandbox: {mode: workspace, write: ["+out+"]}\n", rules.Auto)
		o := g.Evaluate("python3 x.py > " + out + "/r.txt && curl -O https://example.com/x")
		text := strings.Join(o.Refusal("c.yaml", "x"), "\n")
		if o.Decision != rules.Ask || o.Sandbox ||
			!strings.Contains(text, "guardsh: sandbox: not jailed: curl -O https://example.com/x is sensitive (network)") ||
			!strings.Contains(text, "without it > "+out+"/r.txt and 1 more would run jailed") {
			t.Errorf("decision %s sandbox %v, refusal:\n%s", o.Decision, o.Sandbox, text)
		}
	})
	// sandbox.write lifts no rule and no protected path: a write deny
	// rule and ~/.bashrc still decide, and a path outside it still asks.
	for _, tt := range []struct {
		cmd  string
		want rules.Decision
	}{
		{"python3 x.py > " + out + "/denied.txt", rules.Deny},
		{"python3 x.py > " + out + "/asked.txt", rules.Ask},
		{"python3 x.py > ~/.bashrc", rules.Ask},
		{"python3 x.py > " + root + "/elsewhere.txt", rules.Ask},
	} {
		t.Run("sandbox.write lifts no rule: "+tt.cmd, func(t *testing.T) {
			g := guardFor(t, "sandbox: {mode: workspace, write: ["+out+", ~/]}\nrules: {write: {deny: [\""+out+"/denied.txt\"], ask: [\""+out+"/asked.txt\"]}}\n", rules.Auto)
			if o := g.Evaluate(tt.cmd); o.Decision != tt.want || o.Sandbox {
				t.Fatalf("decision %s sandbox %v, want %s unjailed", o.Decision, o.Sandbox, tt.want)
			}
		})
	}
}
