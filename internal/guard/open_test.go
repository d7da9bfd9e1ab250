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
	makeTree(t, []string{filepath.Join(ws, ".git"), filepath.Join(ws, "src"), filepath.Join(home, ".ssh"), filepath.Join(home, ".kube")}, map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): "k", filepath.Join(ws, "a.json"): "{}", filepath.Join(ws, "src", "b.go"): "",
		filepath.Join(home, ".kube", "config"): "k",
		filepath.Join(ws, "list.txt"):          filepath.Join(home, ".ssh", "id_rsa") + "\n",
	})
	if err := os.MkdirAll(filepath.Join(ws, "lnk"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "lnk", "k")); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []rules.Mode{rules.AskMode, rules.Auto} {
		g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
			Context: rules.Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws}}
		g.Analysis.Home, g.Analysis.Dir = home, ws
		env := map[string]string{"K": ".ssh/id_rsa", "KUBECONFIG": filepath.Join(home, ".kube", "config"),
			"D": filepath.Join(home, ".ssh"), "TERM": "xterm", "EV": filepath.Join(ws, "a.json"), "PS1": "x"}
		g.Analysis.Env = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
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
			// An attack run against the first version of this check.
			"find -L ../.ssh -type f | xargs cat",
			"find -L ../.ssh -type f -print0 | xargs -0 cat",
			"find -- " + home + "/.ssh -type f -print0 | xargs -0 cat",
			"find -O3 " + home + "/.ssh -type f -print0 | xargs -0 cat",
			"printf '%s\\0' " + home + "/.ssh/id_rsa | find -files0-from - -print0 | xargs -0 cat",
			"find . -print0 | sort list.txt | xargs -0 cat",
			"git ls-files -z | head -n 5 list.txt | xargs -0 cat",
			"find . -name '*.json' -print0 | grep -h . list.txt | xargs -0 cat",
			"find . -print0 | xargs -0 -a list.txt cat",
			"find . -name id_rsa | xargs cat",
			"for f in a.json; do read \"f\" <<< ~/.ssh/id_rsa; cat \"$f\"; done",
			"for f in a.json; do read -af <<< ~/.ssh/id_rsa; cat \"$f\"; done",
			"for f in a.json; do declare \"f=$HOME/.ssh/id_rsa\"; cat \"$f\"; done",
			"for f in a.json; do export \"f=$HOME/.ssh/id_rsa\"; cat \"$f\"; done",
			"for f in a.json; do mapfile -t \"f\" <<< ~/.ssh/id_rsa; cat \"$f\"; done",
			"for f in a.json; do printf \"-vf\" %s ~/.ssh/id_rsa; cat \"$f\"; done",
			"for f in a.json; do for f in \"$(echo ~/.ssh/id_rsa)\"; do :; done; cat \"$f\"; done",
			"for f in '../.ssh/i?_rsa'; do cat $f; done",
			"for f in \"../.ss[h]/id_rsa\"; do cat $f; done",
			"declare -l f; for f in ../.SSH/ID_RSA; do cat \"$f\"; done",
			"eval \"l\"\"s(\"\"){ read f <<< ../.ssh/id_rsa; }\"; for f in a.json; do ls; cat \"$f\"; done",
			"for i in 1 2; do for f in a.json; do g; cat \"$f\"; done; eval \"g\"\"() { f=../.ssh/id_rsa; }\"; done",
			"eval \"c\"\"at() { echo ~/.ssh/id_rsa; }\"; head \"$(cat <<'EOF'\nx\nEOF\n)\"",
			"cat ./\"$(echo ../.ssh/id_rsa)\"",
			"f=$(echo ../.ssh/id_rsa); cat ./\"$f\"",
			"cat src/$(echo ../../.ssh/id_rsa)",
			"cat src$(echo /../../.ssh/id_rsa)",
			"cat .git\"$(echo /../../.ssh/id_rsa)\"",
			"printf '%s\\0' ../.ssh/id_rsa | sort --files0-from=-",
			"wc --files0-from list.txt",
			// A second attack run.
			"for f in \"\"; do : \"${f:=$HOME/.ssh/id_rsa}\"; cat \"$f\"; done",
			"for _ in a.json; do true ~/.ssh/id_rsa; cat \"$_\"; done",
			"for BASH_REMATCH in a.json; do [[ /x" + home + "/.ssh/id_rsa =~ /.* ]]; cat \"$BASH_REMATCH\"; done",
			"find d -name id_rsa -print0 | tail -c 32 | xargs -0 cat",
			"find x-u -name id_rsa -print0 | tac -s -u | xargs -0 cat",
			"find . -print0 | tail -n 1 | xargs -0 cat",
			"find . -print0 | sort -r | xargs -0 cat",
			"OLDPWD=~/.ssh; cat ~-/id_rsa",
			"PWD=~/.ssh; cat ~+/id_rsa",
			"OLDPWD=~/.ssh; for f in ~-/id_*; do cat \"$f\"; done",
			"git ls-files -o -z '*files0*' | xargs -0 wc",
			"find . -print0 | xargs -0 cat < list.txt",
			"find . -print0 | xargs -0 cat 0<list.txt",
			"builtin declare -a -l f; for f in ~/.SSH/ID_RSA; do cat \"$f\"; done",
			"command typeset -x -l f; for f in ~/.SSH/ID_RSA; do cat \"$f\"; done",
			// A third attack run (K, KUBECONFIG, D and TERM are in
			// the environment the guard is given).
			"cd ~; for f in .ssh/id_rsa; do cat \"$f\"; done",
			"cd ..; for f in .ss[h]/id_rs?; do cat \"$f\"; done",
			"for f in .ssh/id_rsa; do cd ~; cat \"$f\"; done",
			"(cd ~ && for f in .ssh/id_rsa; do cat \"$f\"; done)",
			"cd ~; for f in .ssh; do cat \"$f\"/id_rsa; done",
			"cd ~; cat \"$K\"",
			"cat \"$KUBECONFIG\"",
			"head -50 $KUBECONFIG",
			"cat \"$D/id_rsa\"",
			"for TERM in ~/.ssh/id_rsa; do :; done; cat \"$TERM\"",
			"select TERM in ~/.ssh/id_rsa; do break; done <<< 1; cat \"$TERM\"",
			// A variable a top-level statement assigned a plain value is
			// read with it (certainLiteral) only while nothing could
			// have changed it.
			"f=a.json; false && f=../.ssh/id_rsa; cat \"$f\"",
			"f=a.json; for f in ../.ssh/id_rsa; do :; done; false && f=a.json; cat \"$f\"",
			"readonly f=../.ssh/id_rsa; f=a.json; cat \"$f\"",
			"eval \"read\"\"only f=../.ssh/id_rsa\"; f=a.json; cat \"$f\"",
			"f=a.json; f=(../.ssh/id_rsa); cat $f",
			"f=a.json; f=../.ssh/id_rsa :; cat \"$f\"",
			"f=a.json; { f=../.ssh/id_rsa; } 2>/dev/null; cat \"$f\"",
			"f=a.json; f=../.ssh/id_rsa & cat \"$f\"",
			"f=a.json; : ${f:=x}; f=; : ${f:=../.ssh/id_rsa}; cat \"$f\"",
			"PWD=~/.ssh; cat \"$PWD/id_rsa\"",
			"f=.ssh; cat ~/\"$f\"/id_rsa",
			"f=../.ssh/id_rsa; cat \"$f\"",
			"IFS=x; f=axbx" + home + "/.ssh/id_rsa; cat $f",
			"f=../.ssh/id_rsa\nUID=0; f=a.json\ncat \"$f\"",
			"f=../.ssh/id_rsa\n: $((1/0)); f=a.json\ncat \"$f\"",
			"f=../.ssh/id_rsa; eval 'f=a.json'; cat \"$f\"",
			"f=../.ssh/id_rsa; false && eval 'f=a.json'; cat \"$f\"",
			"f=../.ssh/id_rsa\neval 'UID=0; f=a.json\ncat \"$f\"'",
			"eval 'f=a.json'; f=../.ssh/id_rsa; eval 'cat \"$f\"'",
			"f=../.ssh/id_rsa\nUID=0; \\\nf=a.json\ncat \"$f\"",
			"cat < <(cat ~/.ssh/id_rsa)",
			"bash -c 'cat ~/.ssh/id_rsa'",
			// Attack run 47: a prefix assignment holds in the code the
			// command runs; a child shell has none of the text's
			// unexported variables, and what env -i/-u leaves; bash
			// drops PS1.
			"f=a.json; f=$(echo ~/.ssh/id_rsa) eval 'cat \"$f\"'",
			"EV=$(echo ~/.ssh/id_rsa) bash -c 'cat \"$EV\"'",
			"f=a.json; bash -c 'cat lnk/k\"$f\"'",
			"for f in a.json; do bash -c 'cat lnk/k\"$f\"'; done",
			"env -u EV bash -c 'cat lnk/k\"$EV\"'",
			"env -i sh -c 'cat lnk/k\"$EV\"'",
			"cat lnk/k\"$PS1\"",
			"bash -o posix -c 'cat ../.ssh/id_rsa'",
			"eval 'cat ~/.ssh/id_rsa'",
			// Attack run 48: bash reads long options only before the
			// first short one.
			"bash -e -rcfile -- \"-x||cat ~/.ssh/$'\\x69'd_rsa\" ls",
			"bash -x -rcfile 'cat ~/.ssh/id_rsa' -c ls",
			"bash -e -rcfile 'rm -rf .git' -c ls",
			"bash -norc ~/.ssh/id_rsa",
			"bash -oc ~/.ssh/id_rsa README",
			// Attack run 43.
			"[[ EV=../.ssh/id_rsa -eq 1 ]]; cat \"$EV\"",
			"test -v \"a[EV=11]\"; cat \"$EV\"",
			": {EV}>/dev/null; cat \"$EV\"",
			"f=a.json; [[ f=11 -eq 1 ]]; cat \"$f\"",
			"cd \"$(echo ~/.ssh)\" && cat ?d_rsa",
			"cd \"$(echo ~/.ssh)\" && cat *",
			"cd \"$(echo ~/.ssh)\" && grep -r . *",
			"d=$(echo ~/.ssh); cd \"$d\" && cat $((1))",
			"cd \"$(echo ~/.kube)\" && cat *",
			// Attack run 51: below a descriptor, and /proc paths in
			// redirections.
			"{ grep -r . /dev/fd/3/; } 3< ~/.ssh",
			"{ cat /dev/fd/3/*; } 3< ~/.ssh",
			"{ cat /dev/stdin/*; } < ~/.ssh",
			"cat < /proc/self/root" + home + "/.ssh/id_rsa",
			"cat < /proc/self/cwd/../.ssh/id_rsa",
			"cat < /proc/self/root" + home + "/.kube/config",
			"cat < /proc/./self/root" + home + "/.kube/config",
			"cat < /proc/self/../self/root" + home + "/.kube/config",
			"cat < /proc/$$/root" + home + "/.kube/config",
			"cat < /proc/$$/environ",
			"wc -l < <(cat ../.ssh/id_rsa)",
			"for f in ../.ssh/id_*; do wc -c < \"$f\"; done",
			"for f in ../.ssh/*; do wc -c < \"$f\"; done",
			"cd ~; for f in .ssh/*; do wc -c < \"$f\"; done",
			// A glob's value names the links beside it as what they
			// lead to (lnk/k is one to the key).
			"for f in lnk/*; do cat \"$f\"; done",
			"for f in lnk/*; do wc -c < \"$f\"; done",
			"for f in lnk/*; do cp \"$f\" /tmp/x; done",
			"for f in lnk/*; do wc -c < $f; done",
			"for f in src/*; do wc -c < \"$f\"/../../.ssh/id_rsa; done",
			"for f in ../.ss?/*; do wc -c < \"$f\"; done",
		} {
			if o := g.Evaluate(text); o.Decision == rules.Allow {
				t.Errorf("%s: %q is allowed\n%s", mode, text, describeOutcome(o))
			}
		}
		for _, text := range []string{
			"for f in *.json; do jq . \"$f\"; done",
			"for f in src/*.go; do wc -l \"$f\"; done",
			"for f in src/*.go; do n=$(wc -l < \"$f\"); echo \"$f $n\"; done",
			"for m in a b; do grep -n \"$m\" a.json; done",
			"find src -name '*.go' -print0 | xargs -0 grep -l main",
			"find src -type f -print0 | sort -z | xargs -0 wc -l",
			"for f in *.json; do printf '%s\\n' \"$f\"; jq . \"$f\"; done",
			"for f in *.json; do [ -f \"$f\" ] && jq . \"$f\"; done",
			"find src -name '*.go' -print0 | sort -z | xargs -0 wc -l 2>/dev/null",
			"echo \"$HOME\"",
			"test -f \"$f\" && echo yes",
			"x=$(date); echo \"$x\"",
			"cat \"$EV\"",
			"jq . \"$EV\" && wc -l \"$EV\"",
			"f=a.json; cat \"$f\"",
			"f=src/b.go; n=3; head -n \"$n\" \"$f\"",
			"eval 'f=src/b.go; cat \"$f\"' < /dev/null && pwd -P",
			// Code given to eval or a shell's -c is no path (a new
			// user's: "./.git/*" in it asked as a protected path).
			"eval 'find src -name \"*.go\" -not -path \"./.git/*\"' < /dev/null",
			"bash -c 'find src -not -path \"./.git/*\" | wc -l'",
			"bash -e -o pipefail -c 'grep -rn x src/ | grep -v /.git/'",
			"f=a.json; eval 'cat \"$f\"'",
			// A pipe from a process substitution is no file (a new
			// user's).
			"while read -r l; do echo \"$l\"; done < <(ls src)",
			"mapfile -t a < <(find src -name '*.go')",
			"echo x > >(wc -l)",
			"for f in src/*.go; do wc -l \"$f\"; done",
			"for f in src/*.go; do n=$(wc -l < \"$f\"); echo \"$f $n\"; done",
			"n=0; (( n++ )); let n=n+1; echo $n",
			// Descriptors themselves, listed or read as links.
			"ls -l /proc/self/fd",
			"ls /dev/fd/",
			"readlink /proc/self/fd/2",
			"d=src; ls \"$d\" && wc -l \"$d\"/b.go",
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

// TestGlobsFollowLinks checks that a glob names the links beside it as the
// paths they lead to: `cat *` in a directory holding a link to a key read
// the key unasked (a program follows the link the glob gives it).
func TestGlobsFollowLinks(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	makeTree(t, []string{filepath.Join(ws, ".git"), filepath.Join(ws, "docs"), filepath.Join(home, ".ssh")}, map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): "k", filepath.Join(ws, "README.md"): "r", filepath.Join(ws, "docs", "a.md"): "a",
	})
	for link, target := range map[string]string{
		filepath.Join(ws, "notes.txt"):     filepath.Join(home, ".ssh", "id_rsa"),
		filepath.Join(ws, "docs", "k.txt"): "../../.ssh/id_rsa",
		filepath.Join(ws, "sd"):            filepath.Join(home, ".ssh"),
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws}}
	g.Analysis.Home, g.Analysis.Dir = home, ws
	for _, text := range []string{
		"cat *", "cat *.txt", "head n*", "cat docs/*", "cat docs/*.txt", "grep -h . docs/k*",
		"cat */*", "cat [d]ocs/k.txt", "cat d*/k.txt", "cat */id_rsa", "cat s?/id_rsa",
		"for f in */*; do cat \"$f\"; done", "for d in */; do cat \"$d\"id_rsa; done",
		"for f in *; do cat \"$f\"; done",
		"for f in docs/*.txt; do cat $f; done",
		"find . -name '*.txt' -print0 | xargs -0 cat",
		"find docs -print0 | xargs -0 cat",
	} {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%q is allowed\n%s", text, describeOutcome(o))
		}
	}
	for _, text := range []string{
		"cat *.md", "cat docs/*.md", "cat */*.md", "for m in a b; do grep \"$m\" README.md; done", "find docs -name '*.md' -print0 | xargs -0 cat",
	} {
		if o := g.Evaluate(text); o.Decision != rules.Allow {
			t.Errorf("%q is %v\n%s", text, o.Decision, describeOutcome(o))
		}
	}
}

// TestRunTimeDirectoriesWithoutDenyRules holds a fourth attack run's
// finds: under a policy of only `mode: auto` (the built-in secrets are
// ask rules, no deny rule at all), a relative read after a cd to a
// directory only known at run time read ~/.netrc and ~/.ssh/id_rsa; only
// deny rules were tried for such a path.
func TestRunTimeDirectoriesWithoutDenyRules(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	makeTree(t, []string{filepath.Join(ws, ".git"), filepath.Join(home, ".ssh")}, map[string]string{
		filepath.Join(home, ".ssh", "id_rsa"): "k", filepath.Join(home, ".netrc"): "k", filepath.Join(ws, "a.txt"): "a",
	})
	p, err := rules.Parse([]byte("mode: auto\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws}}
	g.Analysis.Home, g.Analysis.Dir = home, ws
	for _, text := range []string{
		"cd \"$HOME\" && cat .netrc",
		"cd \"$HOME\" && cat < .netrc",
		"d=~/.ssh; cd \"$d\"; cat id_rsa",
		"cd \"$(echo ~/.ssh)\"; cat id_rsa",
		"cd \"$(echo ~)\" && grep -r . .ssh",
		"cd ~; cd /tmp; cd -; cat .ssh/id_rsa",
		"for d in ~/.ssh; do cd \"$d\"; done; cat id_rsa",
		"cat < \"$f\"",
	} {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%q is allowed\n%s", text, describeOutcome(o))
		}
	}
	for _, text := range []string{"cat a.txt", "cat < a.txt", "cd .git && cat HEAD"} {
		if o := g.Evaluate(text); o.Decision != rules.Allow {
			t.Errorf("%q is %v\n%s", text, o.Decision, describeOutcome(o))
		}
	}
}

// makeTree makes directories dirs and files (path → content, mode 0600)
// for a test.
func makeTree(t *testing.T, dirs []string, files map[string]string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, content := range files {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTrapActionRunsLater checks that a trap's action, which runs when
// the trap fires, is not decided with the values its variables have where
// it is set: a later assignment changes them (the environment's value of
// EV, a top-level literal's), in mode bypass with the embedded deny rules.
func TestTrapActionRunsLater(t *testing.T) {
	g, _, ws := autoWorkspace(t, rules.Bypass, nil, map[string]string{"a.json": "{}"})
	env := map[string]string{"EV": filepath.Join(ws, "a.json")}
	g.Analysis.Env = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	expectRuns(t, g, nil, []string{
		"trap 'cat \"$EV\"' EXIT; EV=~/.ssh/id_rsa",
		"f=a.json; trap 'cat \"$f\"' EXIT; f=../.ssh/id_rsa",
	})
}

// TestFunctionsDefinedInTheCommand checks that a call of a function the
// command defines at its top level, before the call, is decided by the
// function's body, analysed where it is defined (a new user's find: in
// mode auto such calls asked as unknown programs); and that wherever a
// program of that name could run instead, the call is decided as one.
func TestFunctionsDefinedInTheCommand(t *testing.T) {
	g, _, _ := autoWorkspace(t, rules.Auto, nil, map[string]string{"a.json": "{}"})
	expectRuns(t, g, []string{
		"f() { echo hi; }; f; f",
		"check() { test -f \"$1\" && echo ok; }; check a.json; check b | wc -l",
		"function show { cat a.json; }\nshow",
		"f() { cat a.json; } > /dev/null; f",
	}, []string{
		"f() { cat ~/.ssh/id_rsa; }; f",
		"f() { echo; }; unset -f f; f",
		"f() { echo; }; unset f; f",
		"f() { :; }; eval \"un\"\"set -f f\"; f",
		"f() { :; }; builtin unset -f f; f",
		"if true; then f() { :; }; fi; f",
		"(f() { :; }); f",
		"f; f() { :; }",
		"for i in 1 2; do f; f() { :; }; done",
		"f() { :; }; command f",
		"f() { :; }; timeout 5 f",
		"f() { :; }; exec f",
		"f() { :; }; bash -c f",
		"f() { :; }; f() { rm -rf ~; }; f",
		"f() { :; } > ~/.bashrc; f",
		"f() { :; } & f",
		"g() { f; }; f() { :; }; g",
		"f() { :; }; $(echo unset) -f f; f",
		// An error earlier on its line skips the definition (attack run
		// 44: the next line's call ran the program).
		"UID=0; rm() { echo safe; }\nrm -rf .git",
		": $((1/0)); rm() { echo safe; }\nrm -rf .git",
		// A backslash before the newline joins the lines (attack run 45).
		"UID=0; \\\nrm() { echo FUNC; }\nrm -rf .git",
		"UID=0 \\\n; \\\nrm() { echo FUNC; }\nrm -rf .git",
	})
}

// TestLoopWrites checks, in mode auto, writes whose words hold a bounded
// loop variable: each value is decided in a segment of its own, so the
// loop's segment as written is no write outside the workspace for it (a
// new user's `for f in src/*.py; do cp "$f" out/; done` asked), and "$f"
// of a glob's value is decided as the glob (the links beside it).
func TestLoopWrites(t *testing.T) {
	g, home, ws := autoWorkspace(t, rules.Auto, []string{".git/hooks", "src", "out", "lnk"},
		map[string]string{"src/a.py": "", "src/b.py": ""})
	if err := os.Symlink(filepath.Join(home, ".ssh", "id_rsa"), filepath.Join(ws, "lnk", "k")); err != nil {
		t.Fatal(err)
	}
	expectRuns(t, g, []string{
		"for f in src/*.py; do cp \"$f\" out/; done",
		"for f in src/a.py src/b.py; do cp \"$f\" out/; done",
		"for d in out; do cp src/a.py \"$d\"/; done",
		// sed's backup suffix glued to -i (a new user's).
		"sed -i.bak s/a/b/ src/a.py",
		"sed -ni~ s/a/b/ src/a.py",
		"sed --in-place=.orig s/a/b/ src/a.py",
		"cp -b -S .bak src/a.py src/b.py",
	}, []string{
		"sed -i.yaml s/a/b/ src/a.py",
		// Backup suffixes that make protected names (attack run 50).
		"sed --in-place=t/hooks/pre-commit s/a/a/ .gi",
		"cp -b -S .json src/a.py .mcp",
		"mv -b -S .yaml src/a.py .pre-commit-config",
		"cp -b src/a.py src/b.py",
		"cp -b -S .json src/.mcp ./",
		"sed -i../../x s/a/b/ src/a.py",
		"sed -i.bak s/a/b/ ~/.bashrc",
		"for f in lnk/*; do cp \"$f\" out/; done",
		"for f in src/*.py; do cp \"$f\" ~/.bashrc; done",
		"for d in ~; do cp src/a.py \"$d\"/.bashrc; done",
		"for f in -t; do cp \"$f\" ~/x src/a.py; done",
		"for f in .git/*; do rm -rf \"$f\"; done",
		"for f in src/*.py; do mv \"$f\" .git/hooks/; done",
		"for f in src/*.py; do cp $f ~/x; done",
		"for f in ../*; do cp \"$f\" out/; done",
		// A glob character beside the variable globs its value (attack
		// run 46).
		"for f in ln; do cp src/a.py \"$f\"*; done",
		"for f in i; do cat < ~/.ssh/\"$f\"*; done",
		"for f in .gi; do rm -r \"$f\"?; done",
		"for f in .gi; do cp src/a.py \"$f\"?/hooks/; done",
		"for f in .gi; do echo x > \"$f\"?/config; done",
		"for f in ~/.bash; do cp src/a.py \"$f\"r?; done",
		"for f in ~/.ssh/i; do cat \"$f\"*; done",
		"for f in ~/.ssh/i; do cat \"${f}\"[d]_rsa; done",
	})
	g.Context.Mode = rules.Bypass
	expectRuns(t, g, nil, []string{
		"for f in .gi; do rm -r \"$f\"?; done",
		"for f in ~/.bash; do cp src/a.py \"$f\"r?; done",
		"for f in ~/.ssh/i; do cat \"$f\"*; done",
		"for f in i; do cat < ~/.ssh/\"$f\"*; done",
	})
}

// autoWorkspace makes a home with ~/.ssh/id_rsa and a workspace proj in
// it holding .git and files (relative to the workspace: contents), and a
// guard deciding there in mode under the embedded default policy.
func autoWorkspace(t *testing.T, mode rules.Mode, dirs []string, files map[string]string) (g *Guard, home, ws string) {
	t.Helper()
	home = t.TempDir()
	ws = filepath.Join(home, "proj")
	all := []string{filepath.Join(ws, ".git"), filepath.Join(home, ".ssh")}
	for _, d := range dirs {
		all = append(all, filepath.Join(ws, d))
	}
	fs := map[string]string{filepath.Join(home, ".ssh", "id_rsa"): "k"}
	for name, body := range files {
		fs[filepath.Join(ws, name)] = body
	}
	makeTree(t, all, fs)
	g = &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws}}
	g.Analysis.Home, g.Analysis.Dir = home, ws
	return g, home, ws
}

// expectRuns checks that g lets every text of run run unasked and none of
// refused.
func expectRuns(t *testing.T, g *Guard, run, refused []string) {
	t.Helper()
	for _, text := range run {
		if o := g.Evaluate(text); o.Decision != rules.Allow {
			t.Errorf("%s: %q is %v\n%s", g.Context.Mode, text, o.Decision, describeOutcome(o))
		}
	}
	for _, text := range refused {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%s: %q is allowed\n%s", g.Context.Mode, text, describeOutcome(o))
		}
	}
}

// TestShellOptionsInBypass checks, in mode bypass where only deny rules
// stop a command, that the code a nested shell runs is the code decided:
// bash reads long options only before its first short one (attack run
// 48) and skips a lone + (attack run 49: `bash -c + CODE` runs CODE).
func TestShellOptionsInBypass(t *testing.T) {
	g, _, _ := autoWorkspace(t, rules.Bypass, nil, nil)
	expectRuns(t, g, []string{"bash -c 'echo hi'", "bash -e -o pipefail -c 'ls'"}, []string{
		"bash -c + 'cat ~/.ssh/id_rsa'",
		"sh -c + 'cat ~/.ssh/id_rsa'",
		"bash + -c 'cat ~/.ssh/id_rsa'",
		"env bash -c + 'cat ~/.ssh/id_rsa'",
		"bash -e -rcfile -- \"-x||cat ~/.ssh/$'\\x69'd_rsa\" ls",
		"bash -x -rcfile 'cat ~/.ssh/id_rsa' -c ls",
		"bash -oc ~/.ssh/id_rsa README",
		"env 'BASH_FUNC_ls%%=() { cat ~/.ssh/id_rsa; }' bash -c ls",
	})
}

// TestProcRedirectionsWithoutDenyRules checks, under a config of just
// mode auto (the built-in secrets ask, no deny rule could match), that a
// redirection through /proc is decided as the path it reaches or as any
// path, not as a descriptor (attack runs 51 and 52 read the key so).
func TestProcRedirectionsWithoutDenyRules(t *testing.T) {
	g, home, _ := autoWorkspace(t, rules.Auto, nil, nil)
	p, err := rules.Parse([]byte("mode: auto\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g.Policy = p
	expectRuns(t, g, []string{"echo x 2>/dev/stderr", "cat < /dev/stdin", "ls -l /proc/self/fd"}, []string{
		"cat < /proc/self/root" + home + "/.ssh/id_rsa",
		"cat < /proc/./self/root" + home + "/.ssh/id_rsa",
		"cat < /proc/self/../self/root" + home + "/.ssh/id_rsa",
		"cat < /proc/$$/root" + home + "/.ssh/id_rsa",
		"cat < /proc/self/cwd/../.ssh/id_rsa",
		"cat < /proc/$$/environ",
	})
}

// TestArithmeticAssignments checks that what (( )), let and a C-style
// for loop assign is decided as an assignment of that name (attack run 53:
// `(( PATH=0 )); ls` ran a workspace's 0/ls unjailed once (( )) was
// read-only), while counters run.
func TestArithmeticAssignments(t *testing.T) {
	g, _, _ := autoWorkspace(t, rules.Auto, nil, nil)
	g.Analysis.Env = func(string) (string, bool) { return "", false } // as for guardsh -c
	expectRuns(t, g, []string{
		"n=0; (( n++ )); echo $n",
		"for ((i = 0; i < 3; i++)); do echo $i; done",
		"n=0; let n=n+1",
	}, []string{
		"(( PATH=0 )); ls",
		"let PATH=0; ls",
		"let 'PATH=0'; ls",
		"for ((PATH=0; 0;)); do :; done; ls -la",
		"(( BASH_CMDS[ls]=1 )); ls",
		"(( IFS=1 ))",
	})
}
