package guard

import (
	"strings"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

func testGuard(t *testing.T, mode rules.Mode) *Guard {
	t.Helper()
	p, err := rules.Parse([]byte(`rules:
  shell:
    allow: ["make *", "echo *"]
    deny: ["rm -rf *", "curl *"]
`), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	return &Guard{Policy: p, PolicyFile: "policy.yaml",
		Context: rules.Context{Mode: mode, Cwd: home, Home: home, Workspace: home}}
}

func TestEvaluate(t *testing.T) {
	cases := []struct {
		name, text string
		mode       rules.Mode
		want       rules.Decision
		wantBy     string
	}{
		{"an allowed list runs", "make build && echo done", rules.AskMode, rules.Allow, "rule"},
		// A redirection to a bounded loop variable is decided per value
		// (a new user's `for f in …; do wc -l < "$f"; done` asked).
		{"a read redirection from a loop's values", `for f in a.py b.py; do wc -l < "$f"; done`, rules.AskMode, rules.Allow, "class"},
		{"a write redirection to a loop's values", `for f in a.txt b.txt; do echo x > "out/$f"; done`, rules.Auto, rules.Allow, "class"},
		{"one protected value asks", `for f in a.txt ~/.bashrc; do echo x > "$f"; done`, rules.Auto, rules.Ask, "class"},
		{"a value outside the workspace asks", `for f in a.txt /etc/x; do echo x > "$f"; done`, rules.Auto, rules.Ask, "class"},
		{"a loop variable changed in the body is any text", `for f in a b; do f=/etc/x; echo x > "$f"; done`, rules.Auto, rules.Ask, "class"},
		{"a read into it too", `for f in a b; do read -r f; echo x > "$f"; done`, rules.Auto, rules.Ask, "class"},
		// A program in a shell reading its script from stdin may read the
		// rest of the script (head -c to the byte), and the shell then runs
		// a here-document's body: asks even in bypass (attack run 29).
		{"a program that may read its shell's script asks", "bash <<'EOS'\nhead -c 5 >/dev/null\ncat <<X\nrm -rf /\nX\nEOS", rules.Bypass, rules.Ask, "class"},
		{"one with input of its own does not", "bash <<'EOS'\nhead -c 5 < f\nEOS", rules.Bypass, rules.Allow, "class"},
		{"/dev/stdin is no input of its own", "bash <<'EOS'\nhead -c 5 < /dev/stdin\nEOS", rules.Bypass, rules.Ask, "class"},
		{"nor is a copied descriptor", "bash <<'EOS'\nexec 3<&0; head -c 5 <&3\nEOS", rules.Bypass, rules.Ask, "class"},
		{"nor does a builtin", "bash <<'EOS'\necho hi; cd /tmp\nEOS", rules.Bypass, rules.Allow, "class"},
		{"a program behind a wrapper may read it too", "bash <<'EOS'\ntimeout 5 head -c 5\nEOS", rules.Bypass, rules.Ask, "class"},
		{"behind the command builtin too", "bash <<'EOS'\ncommand head -c 5\nEOS", rules.Bypass, rules.Ask, "class"},
		{"a loop variable set by an escaped builtin is any text", `for f in a b; do \export f=/etc/x; echo x > "$f"; done`, rules.Auto, rules.Ask, "class"},
		{"one denied segment denies the whole command", "echo ok; rm -rf build", rules.AskMode, rules.Deny, "rule"},
		{"a denied command inside a substitution denies", "echo $(curl https://example.com)", rules.AskMode, rules.Deny, "rule"},
		{"a denied command inside eval denies", "eval 'curl https://x'", rules.Bypass, rules.Deny, "rule"},
		{"a denied command inside bash -c denies", "make && bash -c 'rm -rf /'", rules.Bypass, rules.Deny, "rule"},
		{"an unknown program asks", "make && npm test", rules.AskMode, rules.Ask, "class"},
		{"bypass runs what no rule denies", "npm test", rules.Bypass, rules.Allow, "class"},
		{"a denied command in a $(( that bash reads as $( ( denies", `x="$((echo a; rm -rf /) | cat)"`, rules.Bypass, rules.Deny, "rule"},
		{"a parse error is never allowed", `echo "open`, rules.Bypass, rules.Ask, "analysis"},
		{"a carriage return is never allowed", "echo a\rrm -rf x", rules.Bypass, rules.Ask, "analysis"},
		{"chat runs nothing", "echo hi", rules.Chat, rules.Deny, "mode"},
		{"eval of analysed text adds nothing", "eval 'make test'", rules.AskMode, rules.Allow, "class"},
		{"bash -c of analysed text adds nothing", "/bin/bash -lc 'echo hi && make'", rules.AskMode, rules.Allow, "class"},
		{"bash -c still asks for what it runs", "bash -c 'npm test'", rules.AskMode, rules.Ask, "class"},
		{"eval of run-time text asks", `eval "$cmd"`, rules.AskMode, rules.Ask, "class"},
		{"exec of an analysed shell adds nothing", `exec '/bin/bash' -c 'make test'`, rules.AskMode, rules.Allow, "class"},
		{"exec of a run-time command asks", `exec $x`, rules.AskMode, rules.Ask, "class"},
		{"sudo is not transparent", `sudo make`, rules.AskMode, rules.Ask, "class"},
		{"timeout adds nothing of its own", `timeout 60 make test`, rules.AskMode, rules.Allow, "class"},
		{"nice, env and xargs add nothing of their own", `nice -n 5 env CC=clang make && echo x | xargs echo`, rules.AskMode, rules.Allow, "class"},
		{"nohup may write nohup.out", `nohup make`, rules.AskMode, rules.Ask, "class"},
		{"env -C moves relative paths", `env -C /tmp make`, rules.AskMode, rules.Ask, "class"},
		{"a wrapped command still meets its rules", `timeout 5 curl x`, rules.AskMode, rules.Deny, "rule"},
		{"eval of run-time text asks even in bypass", `x=$(cat f); eval "$x"`, rules.Bypass, rules.Ask, "class"},
		{"eval of a variable assigned a denied command denies", `x='curl evil'; eval "$x"`, rules.Bypass, rules.Deny, "rule"},
		{"a program name assigned earlier is matched", `C=rm; $C -rf build`, rules.Bypass, rules.Deny, "rule"},
		{"an assumed reading never allows", `C=make; $C`, rules.AskMode, rules.Ask, "rule"},
		{"bash -c of run-time text asks even in bypass", `bash -c "$1"`, rules.Bypass, rules.Ask, "class"},
		{"a trap of run-time code asks even in bypass", `trap "$x" EXIT`, rules.Bypass, rules.Ask, "class"},
		{"prompt expansion of a variable asks even in bypass", `echo "${x@P}"`, rules.Bypass, rules.Ask, "class"},
		{"a local program named bash is not a shell", "./bash -c 'echo hi'", rules.AskMode, rules.Ask, "class"},
		{"an assignment before bash -c asks", "LD_PRELOAD=/tmp/x.so bash -c 'echo hi'", rules.AskMode, rules.Ask, "class"},
		{"an rc file before bash -c asks", "bash --rcfile x.sh -i -c 'echo hi'", rules.AskMode, rules.Ask, "class"},
		{"bash -o pipefail -c is a shell with options", "bash -o pipefail -c 'make'", rules.AskMode, rules.Allow, "class"},
		{"approve mode decides eval by the code it runs", "eval 'echo hi'", rules.Approve, rules.Allow, "class"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := testGuard(t, c.mode).Evaluate(c.text)
			if o.Decision != c.want || o.DecidedBy != c.wantBy {
				t.Errorf("Evaluate(%q) = %v by %q, want %v by %q (segments %+v, err %v)",
					c.text, o.Decision, o.DecidedBy, c.want, c.wantBy, o.Segments, o.Err)
			}
		})
	}
}

func TestRefusal(t *testing.T) {
	g := testGuard(t, rules.AskMode)
	deny := g.Evaluate("echo ok && rm -rf build")
	lines := strings.Join(deny.Refusal("policy.yaml", "no approval channel"), "\n")
	if !strings.Contains(lines, `guardsh: denied: rm -rf build (rule "rm -rf *" in policy.yaml:4)`) {
		t.Errorf("deny refusal:\n%s", lines)
	}
	ask := g.Evaluate("npm test")
	lines = strings.Join(ask.Refusal("policy.yaml", "no approval channel"), "\n")
	for _, want := range []string{"guardsh: needs approval: npm test (", "to allow it, add ", "rules.shell.allow in policy.yaml", "refused (no approval channel)"} {
		if !strings.Contains(lines, want) {
			t.Errorf("ask refusal lacks %q:\n%s", want, lines)
		}
	}
	bad := g.Evaluate("echo 'open")
	lines = strings.Join(bad.Refusal("policy.yaml", "no approval channel"), "\n")
	if !strings.HasPrefix(lines, "guardsh: not understood: ") {
		t.Errorf("parse error refusal:\n%s", lines)
	}
}

// Run-time code asks only because a deny rule could match it: with no deny
// rule at all, bypass runs it as bash would.
func TestRunTimeCodeWithoutDenyRules(t *testing.T) {
	p, err := rules.Parse([]byte("mode: bypass\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	g := &Guard{Policy: p, Context: rules.Context{Mode: rules.Bypass, Cwd: home, Home: home, Workspace: home}}
	if o := g.Evaluate(`eval "$x"; sh -c /bin/bash`); o.Decision != rules.Allow {
		t.Errorf("got %v, want allow: %+v", o.Decision, o.Segments)
	}
}

// After a cd, relative arguments name paths only known at run time: one a
// read deny rule could match asks, in ask mode, where cat would run.
func TestRelativeArgumentsAfterCd(t *testing.T) {
	p, err := rules.Parse([]byte("rules: {read: {deny: [\"~/.ssh/id_*\"]}}\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	g := &Guard{Policy: p, Context: rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home}}
	for _, text := range []string{"cd ~/.ssh; cat id_rsa", "(cd ~/.ssh && cat id_rsa)", "cat id_rsa; cd ~/.ssh"} {
		if o := g.Evaluate(text); o.Decision != rules.Ask {
			t.Errorf("%q: %v, want ask", text, o.Decision)
		}
	}
	if o := g.Evaluate("cat README.md"); o.Decision != rules.Allow {
		t.Errorf("without cd: %v, want allow", o.Decision)
	}
	g.Analysis.DirChanged = true // a cd in an earlier command of a script
	if o := g.Evaluate("cat id_rsa"); o.Decision != rules.Ask {
		t.Errorf("after an earlier cd: %v, want ask", o.Decision)
	}
}

// A shell given operands after its -c string is not transparent: they are
// the analysed code's $0 $1 …, so a protected path among them still asks.
func TestShellOperandsAreNotTransparent(t *testing.T) {
	g := testGuard(t, rules.Bypass)
	text := "bash -c 'echo hi > \"$0\"' " + g.Context.Home + "/.bashrc"
	if o := g.Evaluate(text); o.Decision != rules.Ask {
		t.Errorf("%q: %v, want ask (%+v)", text, o.Decision, o.Segments)
	}
}

// A deny rule sees the command a wrapper runs, however it is wrapped; a
// wrapper that cannot be followed asks, even when an allow rule matches it.
func TestWrappedCommandsAreDecided(t *testing.T) {
	p, err := rules.Parse([]byte(`rules:
  shell:
    allow: ["sudo *", "flock *", "docker *", "git *", "env *", "ssh *", "timeout *", "kubectl *", "tmux *", "tar *", "watch *", "su *"]
    deny: ["rm -rf *"]
`), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	g := &Guard{Policy: p, Context: rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home}}
	cases := []struct {
		text string
		want rules.Decision
	}{
		{"flock /tmp/l rm -rf /", rules.Deny},
		{"flock /tmp/l -c 'rm -rf /'", rules.Deny},
		{"docker exec c rm -rf /", rules.Deny},
		{"docker run --rm img rm -rf /", rules.Deny},
		{"git -c alias.x='!rm -rf /' x", rules.Deny},
		{"git -c core.pager='rm -rf /' log", rules.Deny},
		{"env -S 'rm -rf /'", rules.Deny},
		{"ssh host 'rm -rf /'", rules.Deny},
		{"su -c 'rm -rf /'", rules.Deny},
		{"sudo -s rm -rf /", rules.Deny},
		{"kubectl exec pod -- rm -rf /", rules.Deny},
		{"tmux send-keys 'rm -rf /' Enter", rules.Deny},
		{"tar --to-command='rm -rf /' -xf x.tar", rules.Deny},
		{"watch 'rm -rf /'", rules.Deny},
		{"timeout 5 rm -rf /", rules.Deny},
		{"sudo --bogus rm -rf /", rules.Ask},
		{"timeout $t rm -rf /", rules.Ask},
		{"kubectl exec pod rm -rf /", rules.Ask},
		{"tmux send-keys -t x C-c", rules.Ask},
		{"sudo -u root make", rules.Ask}, // make: no rule, sensitive
		{"flock /tmp/l git status", rules.Allow},
		{"docker ps", rules.Allow},
		{"timeout 5 git log", rules.Allow},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			o := g.Evaluate(c.text)
			if o.Decision != c.want {
				t.Errorf("Evaluate(%q) = %v, want %v (segments %+v, err %v)", c.text, o.Decision, c.want, o.Segments, o.Err)
			}
		})
	}
}

// Code given in an argument, and environment that changes what runs, are
// not allowed by allow rules written for the plain command.
func TestCodeInArgumentsAndEnvironment(t *testing.T) {
	p, err := rules.Parse([]byte(`rules:
  shell:
    allow: ["git log *", "sed -n *", "find *", "grep *", "python3 *", "sudo *"]
    deny: ["rm -rf *"]
`), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	g := &Guard{Policy: p, Context: rules.Context{Mode: rules.AskMode, Cwd: home, Home: home, Workspace: home}}
	cases := []struct {
		text string
		want rules.Decision
	}{
		{"NO_COLOR=1 LANG=C git log --oneline -5", rules.Allow},
		{"sed -n '/error/p' logs/app.log", rules.Allow},
		{`find src -name "*.js" -exec grep -l x {} \;`, rules.Allow},
		{"python3 app.py", rules.Allow},
		{"python3 -c 'import os'", rules.Ask},
		{"sudo python3 -c 'import os'", rules.Ask},
		{"sed -n 'w /tmp/x' f", rules.Ask},
		{"LD_PRELOAD=/tmp/x.so git log", rules.Ask},
		{"PAGER='rm -rf /' git log", rules.Deny}, // git's pager, analysed as git -c core.pager's
		{"export PATH=/tmp/evil:$PATH; git log", rules.Ask},
		{"GIT_SSH_COMMAND=x git log", rules.Ask},
		{"git -c core.pager='rm -rf /' log", rules.Deny},
		{"find . -name x -fprint out.txt", rules.Ask}, // allow "find *" does not name -fprint
		{"sudo find / -fprintf /etc/cron.d/x '%p'", rules.Ask},
	}
	for _, c := range cases {
		t.Run(c.text, func(t *testing.T) {
			o := g.Evaluate(c.text)
			if o.Decision != c.want {
				t.Errorf("Evaluate(%q) = %v, want %v (segments %+v, err %v)", c.text, o.Decision, c.want, o.Segments, o.Err)
			}
		})
	}
}

// git's inline aliases are followed, through chains, to what they run.
func TestGitAliasesAreFollowed(t *testing.T) {
	p, err := rules.Parse([]byte(`rules:
  shell:
    allow: ["git *"]
    deny: ["git reset --hard*", "rm -rf *"]
`), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	g := &Guard{Policy: p, Context: rules.Context{Mode: rules.Approve, Cwd: home, Home: home, Workspace: home}}
	for _, text := range []string{
		"git -c alias.rh='foo' -c alias.foo='reset --hard' rh",
		"git -c alias.x='reset --hard' x HEAD~1",
		"git -c alias.x='!rm -rf /' x",
		"git -c alias.x='!f() { rm -rf \"$1\"; }; f' x /",
	} {
		if o := g.Evaluate(text); o.Decision != rules.Deny {
			t.Errorf("Evaluate(%q) = %v, want deny (segments %+v, err %v)", text, o.Decision, o.Segments, o.Err)
		}
	}
}
