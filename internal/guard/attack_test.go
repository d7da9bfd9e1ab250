package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// TestAttackRunFinds holds commands attack runs against guardsh found
// allowed though they ran code never analysed, wrote a protected path or
// read a denied file. None may be allowed under the embedded default
// policy in ask mode, nor (where a deny rule applies) in bypass.
func TestAttackRunFinds(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, content := range map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): "k", filepath.Join(home, ".bashrc"): "",
		filepath.Join(ws, ".git", "config"): "", filepath.Join(ws, "f.txt"): "x",
	} {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ask := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: rules.AskMode, Cwd: ws, Home: home, Workspace: ws}}
	ask.Analysis.Home, ask.Analysis.Dir = home, ws
	p, err := rules.Parse([]byte("mode: bypass\nrules:\n  shell:\n    deny: [\"touch *\"]\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bypass := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.Bypass, Cwd: ws, Home: home, Workspace: ws}}
	bypass.Analysis.Home, bypass.Analysis.Dir = home, ws
	for _, c := range []struct {
		text   string
		bypass bool // also refused in bypass mode with a deny rule on touch
	}{
		{"read -raPS4 <<< '$(touch /tmp/m)'; set -x; :", true},
		{"read -aPATH <<< /tmp; ls", true},
		{"echo '1e touch /tmp/m' | sed -n -f /dev/stdin f.txt", false},
		{"sed -n ':a e touch /tmp/m' f.txt", false},
		{"echo x | sed -n --expr='1e touch /tmp/m'", false},
		{"sed -s -i '1i touch /tmp/m' ~/.bashrc", true},
		{"sed -E -i '$a x' .git/config && git status --short", true},
		{"sed -n '1r " + home + "/.ssh/id_rsa' f.txt", false},
		{"git rev-list --output=.git/config HEAD", true},
		{"cd ~/.ssh && git grep --no-index -h e", false},
		{"cd ~/.ssh && grep -rh e", false},
		{"printf '%s\\0' -exec touch X ';' | xargs -0 find f.txt", true},
		{"for i in 1 2; do cd ..; done; cat .ssh/id_rsa", false},
		{`awk 'BEGIN{print "a;" > "/tmp/m"}'`, false},
		{"awk 'BEGIN{print \"x\" |\\\n \"touch /tmp/m\"}'", false},
		{`awk 'BEGIN{ARGV[1]=ENVIRON["HOME"] "/.ssh/id_rsa"; ARGC=2} {print}'`, false},
		{"gofmt --w x.go", false},
		{"gofmt -cpuprofile=/tmp/p x.go", false},
		{"echo . -maxdepth 0 -exec touch /tmp/m \\; | xargs -I{} -L1 find", true},
		{"echo x | xargs -I{} --process-slot-var=BASH_ENV bash -c true", true},
		{"MAGIC=~/.ssh/id_rsa file f.txt", false},
		{"git log --show-signature", false},
		{"git log '--format=%G?'", false},
		{"POSIXLY_CORRECT=1 uniq f.txt -x", true},
		{"file -z f.txt", false},
		{"diff -l f.txt f.txt", false},
		{"sort -T /tmp f.txt", false},
		{"git -p log", false},
		{"shopt -s expand_aliases; alias touch=ls\ntouch /tmp/m", false},
	} {
		if o := ask.Evaluate(c.text); o.Decision == rules.Allow {
			t.Errorf("ask mode: %q is allowed\n%s", c.text, describeOutcome(o))
		}
		if c.bypass {
			if o := bypass.Evaluate(c.text); o.Decision == rules.Allow {
				t.Errorf("bypass mode: %q is allowed\n%s", c.text, describeOutcome(o))
			}
		}
	}
}
