package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// TestRunTimeReadsOfSecrets holds commands that read a key through a word
// only known at run time — a command's output, a variable, a loop's
// variable, xargs's input — which ran unasked under the embedded default
// policy (a new user's and an attack run's finds; README "Known limits"
// listed them). A word that may be any path could match the read deny
// rules: it asks. Beside them, the same shapes over paths that cannot be
// secrets still run unasked.
func TestRunTimeReadsOfSecrets(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(ws, "src"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, content := range map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): "k", filepath.Join(ws, "a.json"): "{}", filepath.Join(ws, "src", "b.go"): "",
	} {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []rules.Mode{rules.AskMode, rules.Auto} {
		g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
			Context: rules.Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws}}
		g.Analysis.Home, g.Analysis.Dir = home, ws
		for _, text := range []string{
			"cat $(echo ~/.ssh/id_rsa)",
			"cat \"$(printf %s ~/.ssh/id_rsa)\"",
			"cat `echo ~/.ssh/id_rsa`",
			"f=$(echo ~/.ssh/id_rsa); cat \"$f\"",
			"cat \"$1\"",
			"for f in ~/.ssh/id_*; do cat \"$f\"; done",
			"for f in ~/.ssh/id_*; do cat $f; done",
			"for f in ~/.ssh/*; do head -c 100 \"$f\"; done",
			"for f in a.json; do f=$(echo ~/.ssh/id_rsa); cat \"$f\"; done",
			"for f in a.json; do read f; cat \"$f\"; done < /dev/null",
			"for f in a.json; do declare f=~/.ssh/id_rsa; cat \"$f\"; done",
			"g() { f=~/.ssh/id_rsa; }; for f in a.json; do g; cat \"$f\"; done",
			"for f in a.json; do :; done; f=$(echo ~/.ssh/id_rsa); cat \"$f\"",
			"for f in a.json; do eval 'f=~/.ssh/id_rsa'; cat \"$f\"; done",
			"echo ~/.ssh/id_rsa | xargs cat",
			"echo ~/.ssh/id_rsa | xargs -I{} cat {}",
			"find ~/.ssh | xargs cat",
			"cd ~ && find . -type f | xargs cat",
			"find src | sed 's|.*|" + home + "/.ssh/id_rsa|' | xargs cat",
			"find . -printf '" + home + "/.ssh/id_rsa' | xargs cat",
			"cp \"$(echo ~/.ssh/id_rsa)\" /tmp/k",
			"exec cat \"$f\"",
			"cat \"$(cat <<EOF\n" + home + "/.ssh/id_rsa\nEOF\n)\"",
			"cat() { echo; }; head \"$(cat <<'EOF'\n" + home + "/.ssh/id_rsa\nEOF\n)\"",
			"head \"$(cat <<'EOF'\n" + home + "/.ssh/id_rsa\nEOF\n)\"",
		} {
			if o := g.Evaluate(text); o.Decision == rules.Allow {
				t.Errorf("%s: %q is allowed\n%s", mode, text, describeOutcome(o))
			}
		}
		for _, text := range []string{
			"for f in *.json; do jq . \"$f\"; done",
			"for f in src/*.go; do wc -l \"$f\"; done",
			"for m in a b; do grep -n \"$m\" a.json; done",
			"find src -name '*.go' | xargs grep -l main",
			"find src -type f -print0 | sort | xargs -0 wc -l",
			"git ls-files | xargs wc -l",
			"echo \"$HOME\"",
			"test -f \"$f\" && echo yes",
			"x=$(date); echo \"$x\"",
		} {
			if o := g.Evaluate(text); o.Decision != rules.Allow {
				t.Errorf("%s: %q is %v\n%s", mode, text, o.Decision, describeOutcome(o))
			}
		}
		// A commit message written as agents write it is text, not a
		// path: in auto it runs (a workspace write), in ask it asks as
		// any commit does, and never for the message.
		msg := "git commit -m \"$(cat <<'EOF'\nfeat: x $HOME `y`\n\nbody\nEOF\n)\""
		o := g.Evaluate(msg)
		if mode == rules.Auto && o.Decision != rules.Allow {
			t.Errorf("%s: the commit is %v\n%s", mode, o.Decision, describeOutcome(o))
		}
		for _, s := range o.Segments {
			if s.Verdict.Rule != nil && s.Verdict.Rule.Section == "read" {
				t.Errorf("%s: the commit message is matched against %s", mode, s.Verdict.Rule.Pattern)
			}
		}
	}
}
