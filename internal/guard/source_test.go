package guard

import (
	"os"
	"path/filepath"
	"testing"

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
