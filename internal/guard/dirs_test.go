package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestWorkingDirectoryAfterCd checks that relative paths after a cd with a
// static target are decided where the cd leads, and stay unknown after any
// other cd.
func TestWorkingDirectoryAfterCd(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"sub", "secrets"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "secrets", "key.pem"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte("mode: ask\nrules:\n  read:\n    deny: [\"secrets/*\"]\n  shell:\n    deny: [\"rm -rf *\"]\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.AskMode, Cwd: ws, Home: ws, Workspace: ws}}
	g.Analysis.Home = ws
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"cd sub && ls", rules.Allow},
		{"cd sub && cat ../secrets/key.pem", rules.Deny},
		{"cd secrets && cat key.pem", rules.Deny},
		{"cd sub; cd ../secrets; cat key.pem", rules.Deny},
		{"pushd secrets >/dev/null && cat key.pem; popd", rules.Deny},
		{"cd " + ws + "/secrets && cat key.pem", rules.Deny},
		{"cd sub && cat key.pem", rules.Allow},
		{`cd "$d" && cat key.pem`, rules.Ask},
		{"cd - && cat key.pem", rules.Ask},
		{"CDPATH=/x cd sub && cat key.pem", rules.Ask},
		{"shopt -s cdable_vars; cd sub && cat key.pem", rules.Ask},
		// A run-time value printed or assigned to a known name moves no
		// directory; a run-time name may be CDPATH.
		{`printf '%s\n' "$v"; cd sub && cat key.pem`, rules.Allow},
		{`export OUT="$d/out"; cd sub && cat key.pem`, rules.Allow},
		{`printf -v "$n" %s /x; cd sub && cat key.pem`, rules.Ask},
		{`printf "$f" -v CDPATH /x; cd sub && cat key.pem`, rules.Ask},
		{`export "$n=/x"; cd sub && cat key.pem`, rules.Ask},
		// A segment runs where the cds before it lead, not a later
		// one's; unless it may run again or out of order (a loop, a
		// function's or a trap's body: the trap runs at the end).
		{"cat key.pem; cd secrets", rules.Allow},
		{"cat key.pem && cd secrets && ls && cat key.pem", rules.Deny},
		// Further along an && chain, after the cd back: only where the
		// chain's cds led (the cd .. runs only where cd secrets did).
		{"cat key.pem && cd secrets && ls && cd .. && cat key.pem", rules.Allow},
		{"cd secrets && ls && cd ..; cat key.pem", rules.Deny},
		{"cd secrets && ls || cd .. && cat key.pem", rules.Deny},
		{"for i in 1; do cat key.pem; done; cd secrets", rules.Deny},
		{"f() { cat key.pem; }; cd secrets; f", rules.Deny},
		{"trap 'cat key.pem' EXIT; cd secrets", rules.Deny},
		{"cd secrets; while false; do :; done; cat key.pem", rules.Deny},
		// After `cd DIR &&`, a cd back to a directory counted before
		// (attack run 40 read the key so).
		{"cd secrets; cd sub && { cd ../secrets; cat key.pem; }", rules.Deny},
		{"cd sub && { cd ../secrets; cat key.pem; }", rules.Deny},
		{"cd sub && cat key.pem", rules.Allow},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}

// TestCdThatDoesNotMove checks what follows `cd DIR &&` where the cd
// succeeds without leading to DIR (attack run 41, in mode auto, home
// above the workspace): pushd -n and pushd +N leave the shell where it
// was, and a cd into a name after a segment that can make links goes
// wherever that link leads by then (`git checkout evil -- lnk` made lnk,
// a link to sub when decided, one to a directory below home).
func TestCdThatDoesNotMove(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "ws")
	for _, d := range []string{filepath.Join(ws, "sub", "deep"), filepath.Join(ws, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, ".git", "config"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "key.pem"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(ws, "lnk")); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte("mode: auto\nrules:\n  read:\n    deny: [\"~/key.pem\"]\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml", Context: rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws}}
	g.Analysis.Home = home
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"pushd -n sub && cat ../key.pem", rules.Ask},
		{"pushd -n -- sub && cat ../key.pem", rules.Ask},
		{"pushd +0 && cat ../key.pem", rules.Ask},
		{"pushd -0 && cat ../key.pem", rules.Ask},
		{"pushd sub && cat ../x", rules.Allow},
		{"git checkout evil -- lnk; cd lnk && cat ../key.pem", rules.Ask},
		{"git checkout evil -- lnk; cd lnk && cat ../../key.pem", rules.Ask},
		{"git checkout evil -- lnk && cd lnk && cat key.pem", rules.Ask},
		// Links made after the cd move no shell; mkdir makes none.
		{"cd lnk && cat ../key.pem && git status", rules.Allow},
		{"mkdir -p lnk/x; cd lnk && cat ../key.pem", rules.Allow},
		{"export X=1; cd lnk && cat ../key.pem", rules.Allow},
		{"git checkout evil -- lnk; cd .. && cat key.pem", rules.Deny},
		// What runs before the cd that makes the directory unknown is
		// decided where it runs (a new user's `make build && cd web &&
		// npm run build` asked); a program that runs a project's code
		// asks (or runs jailed) on its own account.
		{"cat ../key.pem; git checkout evil -- lnk; cd lnk && ls", rules.Deny},
		{"cat ../key.pem; cd \"$d\" && ls", rules.Deny},
		{"for i in 1; do cat ../key.pem; done; cd \"$d\"", rules.Ask},
		// (make asks here, or runs jailed with the sandbox, where a read
		// deny path is hidden; as with `make build; cd lnk && …`.)
		{"make build && cd lnk && cat ../key.pem", rules.Ask},
		// A directory under /proc or /dev is the process's view: what
		// follows a cd there is in a directory only known at run time
		// (attack run 50: /proc/self/root is /).
		{"cd /proc/self/root" + home + " && cat key.pem", rules.Ask},
		{"cd /proc && cat self/root" + home + "/key.pem", rules.Ask},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}

// TestWorkingDirectoryTricks are ways an attack run found to move the
// working directory where the tracking did not follow.
func TestWorkingDirectoryTricks(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "src", "proj")
	for _, d := range []string{ws, filepath.Join(home, ".ssh"), filepath.Join(home, ".config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".config"), filepath.Join(ws, "l")); err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: rules.AskMode, Cwd: ws, Home: home, Workspace: ws}}
	g.Analysis.Home = home
	for _, text := range []string{
		"for i in 1 2; do cd ..; done; cat .ssh/id_rsa",
		"while cd ..; do [ -d .ssh ] && break; done; cat .ssh/id_rsa",
		"CDPATH[0]=" + home + "; cd .ssh; cat id_rsa",
		": ${CDPATH:=" + home + "}; cd .ssh; cat id_rsa",
		"read CDPATH <<< " + home + "; cd .ssh; cat id_rsa",
		"pushd /tmp; DIRSTACK[1]=" + home + "/.ssh; popd; cat id_rsa",
		"cd -P l/..; cat .ssh/id_rsa",
		"set -o physical; cd l/..; cat .ssh/id_rsa",
		`v=CD; declare "${v}PATH=` + home + `"; cd .ssh; cat id_rsa`,
		"f() { cd ..; }; f; f; f; cat .ssh/id_rsa",
		"trap 'cat .ssh/id_rsa' EXIT; cd ../..",
		"trap 'cat .ssh/id_rsa' RETURN; cd ../..; f() { :; }; f",
		"f() { cat .ssh/id_rsa; }; cd ../..; f",
	} {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%q is allowed\n%s", text, describeOutcome(o))
		}
	}
}

// TestVouchedSnapshotCdCounts checks that a static cd in a snapshot an
// allow rule vouches for still moves the directory relative paths of the
// command are decided in.
func TestVouchedSnapshotCdCounts(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	snaps := filepath.Join(home, ".claude", "shell-snapshots")
	for _, d := range []string{ws, snaps, filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(snaps, "snapshot-bash-1.sh")
	if err := os.WriteFile(snap, []byte("eval \"$(echo Y2QK | base64 -d)\"\ncd "+home+"/.ssh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: rules.AskMode, Cwd: ws, Home: home, Workspace: ws}}
	g.Analysis.Home = home
	if o := g.Evaluate("source " + snap + " && cat id_rsa"); o.Decision != rules.Deny {
		t.Errorf("after a snapshot's cd: %v, want deny\n%s", o.Decision, describeOutcome(o))
	}
	if err := os.WriteFile(snap, []byte("eval \"$(echo Y2QK | base64 -d)\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := g.Evaluate("source " + snap + " && cat README"); o.Decision != rules.Allow {
		t.Errorf("a snapshot's eval of run-time text: %v, want allow\n%s", o.Decision, describeOutcome(o))
	}
}

// TestSnapshotShellOptions checks that a snapshot turning autocd and
// cdable_vars off (as Claude Code's do) leaves the working directory
// known, that one turning them on does not, and that the verdict is the
// same with the clear cache cold and warm.
func TestSnapshotShellOptions(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	snaps := filepath.Join(home, ".claude", "shell-snapshots")
	for _, d := range []string{ws, snaps} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	off := filepath.Join(snaps, "snapshot-bash-1.sh")
	on := filepath.Join(snaps, "snapshot-bash-2.sh")
	cd := filepath.Join(snaps, "snapshot-bash-3.sh")
	for p, content := range map[string]string{
		off: "shopt -u autocd\nshopt -u cdable_vars\nshopt -s expand_aliases\n",
		on:  "shopt -s cdable_vars\n",
		cd:  "cd " + home + "\n",
	} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := interp.DirCache{Dir: filepath.Join(home, ".cache", "guardsh", "source")}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile, Verdicts: cache,
		Context:  rules.Context{Mode: rules.AskMode, Cwd: ws, Home: home, Workspace: ws},
		Analysis: interp.Options{Home: home, Sources: cache}}
	for run := range 2 {
		if o := g.Evaluate("source " + off + " && eval 'cat go.mod'"); o.Decision != rules.Allow {
			t.Errorf("run %d: snapshot turning options off: %v, want allow\n%s", run, o.Decision, describeOutcome(o))
		}
		if o := g.Evaluate("source " + on + " && cd x && cat id_rsa"); o.Decision == rules.Allow {
			t.Errorf("run %d: snapshot turning cdable_vars on: allowed\n%s", run, describeOutcome(o))
		}
		if o := g.Evaluate("source " + cd + " && cat .ssh/id_rsa"); o.Decision == rules.Allow {
			t.Errorf("run %d: snapshot with a cd home: allowed\n%s", run, describeOutcome(o))
		}
	}
}

// TestRedirectionAfterCd checks that a relative redirection after a cd
// with a static target is decided in each directory the cd may lead to,
// and stays a path only known at run time after any other cd.
func TestRedirectionAfterCd(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(ws, "sub"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/nonexistent-temp"}},
		Analysis: interp.Options{Home: home, Dir: ws}}
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"cd sub && echo hi > out.txt", rules.Allow},
		{"cd sub; cat > notes.md <<'EOF'\nx\nEOF", rules.Allow},
		{"cd ~/.ssh && echo key >> authorized_keys", rules.Deny},
		{"cd sub; cd ~/.ssh; echo key > authorized_keys", rules.Deny},
		{"cd " + home + " && echo x > out.txt", rules.Ask}, // outside the workspace
		{`cd "$d" && echo hi > out.txt`, rules.Ask},
		{"for d in a b; do cd $d; echo > f; done", rules.Ask},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}

// TestMentionsDirState: which segments may change how cd resolves — a
// run-time name assigned (printf -v, declare NAME, a nameref to a run-time
// name), not a run-time value assigned to a known name or printed.
func TestMentionsDirState(t *testing.T) {
	for text, want := range map[string]bool{
		`printf '%s\n' "$v"`:       false,
		`printf -v "$n" %s /x`:     true,
		`printf "$f" -v CDPATH /x`: true,
		`declare OUT="$d/out"`:     false,
		`declare "$n=/x"`:          true,
		`declare -n ref="$n"`:      true,
		`local -gn ref="$n"`:       true,
		`read -r line`:             false,
		`read -r -- "$n"`:          true,
	} {
		segs, err := interp.Analyze(text, interp.Options{Home: "/h"})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, s := range segs {
			got = got || mentionsDirState(s)
		}
		if got != want {
			t.Errorf("%s: mentionsDirState %v, want %v", text, got, want)
		}
	}
}

// TestCdBackAfterWrite: a write before a `cd ..` is decided where it runs,
// in the workspace, not in the directory the later cd leads to (a new
// user's find: `cd calc && sed -i … div.py && cd .. && git diff` asked
// as a write outside the workspace in mode auto).
func TestCdBackAfterWrite(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{"calc", ".git/hooks"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: rules.DefaultFile,
		Context: rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}}}
	g.Analysis.Home = home
	for text, want := range map[string]rules.Decision{
		`cd calc && sed -i "s/a/b/" div.py && cd .. && git diff --stat`:    rules.Allow,
		`cd calc && echo "x = 1" >> div.py && cd .. && git status --short`: rules.Allow,
		"touch y; cd /etc":                       rules.Allow,
		"cd calc && cd .. && cd .. && touch y":   rules.Ask, // ../y: outside
		"for d in calc; do touch y; cd ..; done": rules.Ask,
		// After `cd DIR &&` the rest runs where the cd led, never where a
		// failed cd would have stayed (a new user's `cd sub && echo x >>
		// ../README.md` asked as a write outside the workspace).
		"cd calc && echo x >> ../README.md":       rules.Allow,
		"cd calc && sed -i s/a/b/ ../README.md":   rules.Allow,
		"cd calc; echo x >> ../README.md":         rules.Ask,
		"cd calc || echo x >> ../README.md":       rules.Ask,
		"! cd calc && echo x >> ../README.md":     rules.Ask,
		"cd calc && echo x >> ../../README.md":    rules.Ask,
		"cd calc > /dev/null && echo x >> ../y":   rules.Ask,
		"cd() { :; }; cd calc && echo x >> ../y":  rules.Ask,
		"cd calc && cd .. && echo x >> ../y":      rules.Ask,
		"cd calc && { cd ..; echo x >> calc/y; }": rules.Allow,
		// A later cd back to a directory counted before (attack run 40).
		"cd calc && { cd ..; echo x > ../out; }":         rules.Ask,
		"cd calc && (cd ..; echo x > ../out)":            rules.Ask,
		"cd calc && { cd ..; rm -rf .git; }":             rules.Ask,
		"pushd calc && { popd; echo x > ../out; }":       rules.Ask,
		"cd calc && { cd nowhere; echo x >> ../y; }":     rules.Allow,
		"cd calc && { cd " + ws + "; echo x > ../out; }": rules.Ask,
	} {
		if o := g.Evaluate(text); o.Decision != want {
			t.Errorf("%q is %v, want %v\n%s", text, o.Decision, want, describeOutcome(o))
		}
	}
}

// TestCdChain: in `cd DIR && … && cd .. && …`, what follows the chain's
// later cds runs where they lead from DIR, not from where a failed first
// cd would have stayed (a new user's `cd web && ls && cd .. && touch f`
// asked in mode auto as a write in the workspace's parent).
func TestCdChain(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "web"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse([]byte("mode: auto\n"), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml",
		Context: rules.Context{Mode: rules.Auto, Cwd: ws, Home: root, Workspace: ws, TempDirs: []string{filepath.Join(root, "tmp")}}}
	g.Analysis.Home = root
	for _, c := range []struct {
		text string
		want rules.Decision
	}{
		{"cd web && ls && cd .. && touch newfile", rules.Allow},
		{"cd web && git status && npm --version && cd .. && echo ok > status.txt", rules.Allow},
		{"cd web && cd .. && touch newfile", rules.Allow},
		// Where a failed cd or a failed command leaves the shell.
		{"cd web; ls && cd .. && touch newfile", rules.Ask},
		{"cd web && ls; cd .. && touch newfile", rules.Ask},
		{"cd web || cd .. && touch newfile", rules.Ask},
		{"! cd web && cd .. && touch newfile", rules.Ask},
	} {
		if o := g.Evaluate(c.text); o.Decision != c.want {
			t.Errorf("%q is %v, want %v\n%s", c.text, o.Decision, c.want, describeOutcome(o))
		}
	}
}

// TestMoveOfTheShellsDirectory: a mv (git mv, rename) of the directory
// the shell stands in, or of one above it, moves the shell with it: a
// ".." after it climbs from the new place, so what follows is decided in
// a directory only known at run time (attack run 58: `cd t && mkdir -p
// ../a && mv ../t ../a/ && cat ../../../.ssh/id_rsa` read the key in mode
// auto and past a deny rule in mode bypass). A mv of files, or into the
// parent, moves no directory of the shell's.
func TestMoveOfTheShellsDirectory(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	for _, d := range []string{"t", "x/y/t", "src", "a"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, mode := range []string{"auto", "bypass"} {
		g := guardAt(t, "mode: "+mode+"\nrules:\n  read:\n    deny:\n      - \"~/.ssh/id_*\"\n", root, ws)
		for _, text := range []string{
			// Each cat reads root/.ssh/id_rsa from where the shell is
			// after the mv; from where it was, the path leads above root.
			"cd t && mkdir -p ../a && mv ../t ../a/ && cat ../../../.ssh/id_rsa",
			"cd t && { mv ../t ../a/ && cat ../../../.ssh/id_rsa; }",
			"cd x/y/t && mv ../../../x ../../../a/ && cat ../../../../../.ssh/id_rsa",
			"cd t && mv -t ../a ../t && cat ../../../.ssh/id_rsa",
			"cd t && mv -vt ../a ../t && cat ../../../.ssh/id_rsa",
			"cd t && mv --target ../a ../t && cat ../../../.ssh/id_rsa",
			"cd t && mv --target=../a ../t && cat ../../../.ssh/id_rsa",
			"cd t && git mv ../t ../a/ && cat ../../../.ssh/id_rsa",
			"cd t && rename s/t/u/ ../t && cat ../../../.ssh/id_rsa",
			"cd t && mv \"$d\" ../a && cat ../../../.ssh/id_rsa",
		} {
			if o := g.Evaluate(text); o.Decision == rules.Allow {
				t.Errorf("mode %s: %q is allowed, want it asked or denied\n%s", mode, text, describeOutcome(o))
			}
		}
	}
	g := guardAt(t, "mode: auto\n", root, ws)
	for _, text := range []string{"cd src && mv a.py b.py && cat b.py", "mv src/a.py src/b.py && cat src/b.py", "cd src && mv ../a ../b && ls"} {
		if o := g.Evaluate(text); o.Decision != rules.Allow {
			t.Errorf("%q is %v, want allow\n%s", text, o.Decision, describeOutcome(o))
		}
	}
}

// TestDirectoryStackTilde: ~N is the directory stack's entry N (bash's
// dirs +N), any directory: `pushd ~/.ssh && pushd / && cat ~1/id_rsa`
// read the key in every config, the word taken for a name "~1" in / (attack
// run 58).
func TestDirectoryStackTilde(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(root, ".ssh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	g := guardAt(t, "mode: bypass\nrules:\n  read:\n    deny:\n      - \"~/.ssh/id_*\"\n", root, ws)
	for _, text := range []string{
		"pushd " + root + "/.ssh && pushd / && cat ~1/id_rsa",
		"pushd ~/.ssh && pushd / && cat < ~1/id_rsa",
		"pushd ~/.ssh >/dev/null; cd /; cat ~0/id_rsa",
		"pushd ~/.ssh && pushd / && cat x=~1/id_rsa",
	} {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%q is allowed, want it asked or denied\n%s", text, describeOutcome(o))
		}
	}
}

// TestSourcedFileRepeats: a sourced file's loops, function bodies (its
// functions called more than once) and trap actions may run again, as in
// the command's own text: a relative cd among them leaves the directory
// unknown (attack run 58: `cd sub/deep && source f.sh && cat
// .ssh/id_rsa`, f.sh climbing three times in a loop, read the key past
// mode bypass's deny rule).
func TestSourcedFileRepeats(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"f2.sh": "up() { cd ..; }\nup; up; up\n",
		"f3.sh": "i=0; while [ $i -lt 3 ]; do cd ..; i=$((i+1)); done\n",
		"f4.sh": "trap \"cd ..\" DEBUG\n",
		"f5.sh": "cd .. && cd ..\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := guardAt(t, "mode: bypass\nrules:\n  read:\n    deny:\n      - \"~/.ssh/id_*\"\n", root, ws)
	for _, text := range []string{
		"cd sub/deep && source " + ws + "/f2.sh && cat .ssh/id_rsa",
		"cd sub/deep && source " + ws + "/f3.sh && cat .ssh/id_rsa",
		"cd sub/deep && source " + ws + "/f4.sh && true && cat ../.ssh/id_rsa",
	} {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%q is allowed, want it asked or denied\n%s", text, describeOutcome(o))
		}
	}
	// A file's own cd chain is followed where it leads.
	if o := g.Evaluate("cd sub/deep && source " + ws + "/f5.sh && cat ../.ssh/id_rsa"); o.Decision != rules.Deny {
		t.Errorf("f5: %v, want deny\n%s", o.Decision, describeOutcome(o))
	}
}

// TestProtectedNamesInRunTimeDirectories: a name written in a directory
// only known at run time — after `cd "$(dirname "$PWD")"`, or through
// git -C DIR, which resolves -f and --output from DIR — is a protected
// write when some directory's name is one (.bashrc, .git/config,
// .git/hooks/x), in mode bypass too (attack run 62 wrote ~/.bashrc and
// .git/config so under the CI preset). Other names in such a directory
// are not.
func TestProtectedNamesInRunTimeDirectories(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := guardAt(t, "mode: bypass\n", root, ws)
	for _, text := range []string{
		`cd "$(dirname "$PWD")" && echo 'echo hi' >> .bashrc`,
		`cd - && cp payload .bashrc`,
		`cd - && echo x > .git/hooks/pre-commit`,
		`git -C .git config -f config core.fsmonitor 'touch x'`,
		`git -C .. config -f .gitconfig core.fsmonitor 'touch x'`,
		`git -C .. --git-dir=ws/.git log -1 --format=%B --output=.bashrc`,
		`git --config-env core.x=HOME config core.fsmonitor 'touch x'`,
		`git --work-tree=.. checkout HEAD -- :/.bashrc`,
		`git --work-tree=.. restore --source=HEAD :/.ssh/authorized_keys`,
		// Attack run 63.
		`GIT_WORK_TREE=.. git checkout HEAD -- :/.bashrc`,
		`git checkout-index -f --prefix=../ .bashrc`,
		`git apply --unsafe-paths p.diff`,
		`cd "$(dirname "$PWD")/.ssh" && echo KEY >> authorized_keys`,
		`cd "$(printf .git)" && cp x hooks/pre-commit`,
		// Attack run 65.
		`export GIT_WORK_TREE=..; git checkout HEAD -- :/.bashrc`,
		`mkdir -p sub && echo "gitdir: /x" > sub/.git && cd sub && git status`,
		`cd "$(printf .git)" && echo DIR > commondir`,
		// Attack run 66.
		`declare -n r=GIT_WORK_TREE; export r=..; git checkout HEAD -- :/.bashrc`,
	} {
		if o := g.Evaluate(text); o.Decision == rules.Allow {
			t.Errorf("%q is allowed, want it asked\n%s", text, describeOutcome(o))
		}
	}
	for _, text := range []string{`cd - && echo x > out.txt`, `cd - && cp a b`, `git -C sub status`, `git -C sub checkout main`} {
		if o := g.Evaluate(text); o.Decision != rules.Allow {
			t.Errorf("%q is %v, want allow\n%s", text, o.Decision, describeOutcome(o))
		}
	}
}

// guardAt returns a Guard for policy (YAML) in the workspace ws under
// root, the home, with root/tmp for the temp directory.
func guardAt(t *testing.T, policy, root, ws string) *Guard {
	t.Helper()
	p, err := rules.Parse([]byte(policy), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := &Guard{Policy: p, PolicyFile: "policy.yaml",
		Context: rules.Context{Mode: p.Mode, Cwd: ws, Home: root, Workspace: ws, TempDirs: []string{filepath.Join(root, "tmp")}}}
	g.Analysis.Home = root
	return g
}

// TestNestedRepositoryAsks: with no sandbox, in mode auto, git in a
// repository inside the workspace other than its own — a directory a
// command made, whose config is no protected path — asks: git runs what
// its config names (attack run 63: `cd sub && git status` ran
// sub/.git/config's core.fsmonitor unasked).
func TestNestedRepositoryAsks(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	for _, d := range []string{".git", "sub/.git", "src", ".git/modules/sm", "sm", "bare/objects", "bare/refs"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A submodule: its .git file names a git directory inside the
	// workspace's own .git, protected with it.
	if err := os.WriteFile(filepath.Join(ws, "sm", ".git"), []byte("gitdir: ../.git/modules/sm\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "bare", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := guardAt(t, "mode: auto\n", root, ws)
	for text, want := range map[string]rules.Decision{
		// A bare layout, and git run without guardsh's
		// safe.bareRepository (attack run 66).
		"cd bare && env -u GIT_CONFIG_PARAMETERS git status": rules.Ask,
		"cd bare && git status":                              rules.Ask,
		"env -i git status":                                  rules.Ask,
		"cd sm && git status":                                rules.Allow,
		"cd sub && git status":                               rules.Ask,
		"git -C sub log -1":                                  rules.Ask,
		"git status":                                         rules.Allow,
		"cd src && git status":                               rules.Allow,
		"cd sub && git config user.name":                     rules.Ask, // a read outside the read-only table asks anyway
		// The directory written with doubled slashes (attack run 69).
		"cd /" + ws + "/sub && git status":      rules.Ask,
		"cd " + root + "//ws/sub && git status": rules.Ask,
		"cd " + ws + "//sub/. && git status":    rules.Ask,
	} {
		if o := g.Evaluate(text); o.Decision != want {
			t.Errorf("%q is %v, want %v\n%s", text, o.Decision, want, describeOutcome(o))
		}
	}
	// Mode bypass runs what such a repository's config names, but not a
	// work-tree write its core.worktree may put anywhere (attack run 65).
	b := guardAt(t, "mode: bypass\n", root, ws)
	for text, want := range map[string]rules.Decision{
		"cd bare && git checkout HEAD -- .bashrc": rules.Ask,
		"cd bare && git status":                   rules.Allow,
		"git checkout main":                       rules.Allow,
	} {
		if o := b.Evaluate(text); o.Decision != want {
			t.Errorf("bypass: %q is %v, want %v\n%s", text, o.Decision, want, describeOutcome(o))
		}
	}
}

// TestGitRepoCleansTheDirectory: where git starts and the repository it
// finds are given cleaned, whatever slashes the directory was written
// with, since both are then compared with places as text (attack run 69:
// //ws/sub went past the nested-repository check).
func TestGitRepoCleansTheDirectory(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "sub", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	segs, err := interp.Analyze("git status", interp.Options{})
	if err != nil || len(segs) != 1 {
		t.Fatalf("%v %v", segs, err)
	}
	for _, dir := range []string{"/" + ws + "/sub", ws + "//sub/.", ws + "/sub/"} {
		repo, start, ok := gitRepo(segs[0], dir, nil, "")
		if want := filepath.Join(ws, "sub"); !ok || repo != want || start != want {
			t.Errorf("gitRepo in %q = %q, %q, %v; want %q for both", dir, repo, start, ok, want)
		}
		if repo, _, _ := gitRepo(segs[0], dir, map[string]string{}, ws); repo != filepath.Join(ws, "sub") {
			t.Errorf("gitRepo in %q within the workspace = %q", dir, repo)
		}
	}
}
