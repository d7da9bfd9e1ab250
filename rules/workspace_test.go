package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkspaceWriters checks that in mode auto the programs that only
// change the files they are given run when every file lies inside the
// workspace, and ask otherwise; in mode ask they still ask.
func TestWorkspaceWriters(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "f"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"sub", "nested/.git", "x/y"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws,
		LinksOnlyHere: true} // decided alone (see the end of TestCopiedLinks)
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"touch", "x"}, Allow},
		{[]string{"mkdir", "-p", "build/a"}, Allow},
		{[]string{"sed", "-i", "s/a/b/", "f"}, Allow},
		{[]string{"cp", "f", "g"}, Allow},
		{[]string{"rm", "-rf", "build"}, Allow},
		{[]string{"rm", "-rf", "."}, Ask},
		{[]string{"rm", "-rf", ws}, Ask},
		// find -delete as rm -rf of its start paths (a new user's
		// `find . -delete` took .git with it in a jail).
		{[]string{"find", "build", "-name", "*.o", "-delete"}, Allow},
		{[]string{"find", "-P", "build", "sub", "-delete"}, Allow},
		{[]string{"find", "-L", "build", "-delete"}, Ask},
		{[]string{"find", "-H", "build", "-delete"}, Ask},
		{[]string{"find", "build", "-follow", "-delete"}, Ask},
		{[]string{"find", "-files0-from", "list", "-delete"}, Ask},
		// Attack run 70: "--" and -f before a start path, bfs's paths
		// after the expression, mktemp's template after -p with "..".
		{[]string{"find", "--", "/etc", "-delete"}, Ask},
		{[]string{"find", "--", "..", "-delete"}, Ask},
		{[]string{"find", "-f", "/etc", "-delete"}, Ask},
		{[]string{"bfs", "-delete", "/etc"}, Ask},
		{[]string{"bfs", "build", "-delete"}, Ask},
		{[]string{"mktemp", "-p", "sub", "../x.XXXX"}, Ask},
		{[]string{"mktemp", "-p", "sub", "y/x.XXXX"}, Ask},
		{[]string{"mktemp", "-p", "sub/", "x.XXXX"}, Allow},
		// Attack run 71: "-", "," and ")" are start paths to GNU find.
		{[]string{"find", "-", "/etc", "-delete"}, Ask},
		{[]string{"find", "build", "-", "/etc", "-delete"}, Ask},
		{[]string{"find", ",", "..", "-delete"}, Ask},
		{[]string{"find", ")", "-delete"}, Ask},
		{[]string{"mktemp", "-t", "-p", "sub", "x.XXXX"}, Ask},
		// Attack run 72: a glob first in a start path may expand to
		// an option (-files0-from, -L).
		{[]string{"find", Hole, "-delete"}, Ask},
		{[]string{"find", "build", Hole + ".o", "-delete"}, Ask},
		// By name, only what it takes: not the top, nor a .git at any
		// depth (nested/.git).
		{[]string{"find", ".", "-name", "*.pyc", "-delete"}, Allow},
		{[]string{"find", ".", "-name", "*", "-delete"}, Ask},
		{[]string{"find", ".", "-name", ".g*", "-delete"}, Ask},
		{[]string{"find", "-delete"}, Ask},
		{[]string{"find", "nested", "-delete"}, Ask},
		{[]string{"find", "out", "-delete"}, Ask},
		{[]string{"find", "build", "-delete", "-fprint", "/tmp/x"}, Ask},
		{[]string{"find", Hole, "-delete"}, Ask},
		// mktemp as touch of where its file lands (a new user's
		// `mktemp` asked as an unknown program).
		{[]string{"mktemp", "build/x.XXXX"}, Allow},
		{[]string{"mktemp", "-d", "-p", "sub", "d.XXXX"}, Allow},
		{[]string{"mktemp", "-p", "/etc", "x.XXX"}, Ask},
		{[]string{"mktemp", ".git/hooks/pre-commitXXX"}, Ask},
		{[]string{"mktemp", "a", "b"}, Ask},
		{[]string{"mktemp", "--bogus"}, Ask},
		// kill of the command's own jobs.
		{[]string{"kill", "%1"}, Allow},
		{[]string{"kill", "-9", "%1", "%2"}, Allow},
		{[]string{"kill", "-s", "TERM", "%%"}, Allow},
		{[]string{"kill", "1234"}, Ask},
		{[]string{"kill", "%1", "1234"}, Ask},
		{[]string{"kill", "%vim"}, Ask},
		{[]string{"kill", "%" + Hole}, Ask},
		{[]string{"kill", "-l"}, Ask},
		{[]string{"cp", "f", "out/x"}, Ask},
		{[]string{"cp", "/etc/hostname", "x"}, Ask},
		{[]string{"touch", ".git/config"}, Ask},
		{[]string{"touch", Hole}, Ask},
		{[]string{"sed", "-i", "1e id", "f"}, Ask},
		{[]string{"mkdir", filepath.Join(home, "x")}, Ask},
		{[]string{"mv", "-t" + home, "f"}, Ask},
		{[]string{"cp", "-tsub/../../.ssh", "f"}, Ask},
		{[]string{"ln", "-ft" + home, ws + "/f"}, Ask},
		{[]string{"cp", "-t", "sub", "f"}, Allow},
		{[]string{"mkdir", "-m755", "z"}, Ask},
		{[]string{"rm", "-rf", ".git"}, Ask},
		{[]string{"mv", ".git", "g2"}, Ask},
		{[]string{"cp", "-r", "nested", "n2"}, Ask},
		{[]string{"ln", "-s", "../../.ssh/id_rsa", "link"}, Ask},
		{[]string{"ln", "-s", "f", "link"}, Allow},
		// The target is relative to the link's directory, not the
		// working directory (a new user's `ln -sf ../README.md
		// docs/README.md` asked as a write outside the workspace).
		{[]string{"ln", "-sf", "../f", "sub/f"}, Allow},
		{[]string{"ln", "-sf", "../../f", "sub/f"}, Ask},
		{[]string{"ln", "-sf", "../.git/config", "sub/c"}, Ask},
		// -t DIR: DIR/basename(TARGET), the target read from DIR (an
		// attack run's `ln -s -t ws/d ../../.ssh` was read as a link
		// named ../../.ssh to ws/d).
		{[]string{"ln", "-s", "-t", "sub", "../f"}, Allow},
		{[]string{"ln", "-s", "-t", "sub", "f"}, Ask}, // sub/f -> f: itself, no file
		{[]string{"ln", "-s", "-t", "sub", "../../f"}, Ask},
		{[]string{"ln", "-s", "--target-directory=sub", "../../f"}, Ask},
		{[]string{"ln", "-s", "--target=sub", "../../f"}, Ask},
		{[]string{"ln", "-st", "sub", "../../f"}, Ask},
		{[]string{"ln", "-s", "-t", filepath.Join(ws, "sub"), "../../f"}, Ask},
		// -S's value is a suffix, not -s (an attack run's `ln -S -s
		// d/e/f/up c` made a hard link of a relative link).
		{[]string{"ln", "-S", "-s", "f", "g"}, Allow},
		// An option not known, or abbreviated ambiguously: not known.
		{[]string{"ln", "-s", "--s", "f", "g"}, Ask},
		{[]string{"cp", "--no", "f", "g"}, Ask},
		{[]string{"cp", "-Q", "f", "g"}, Ask},
		// After "--" every word is a path, whatever it starts with
		// (attack run 32: after `mkdir ./--x`, `rm -rf -- --x/../.git`
		// and `ln -s -- --x/../.. e` were skipped as long options).
		{[]string{"rm", "-rf", "--", "--x/../.git", "f"}, Ask},
		{[]string{"rm", "-f", "--", "--x/../../victim", "f"}, Ask},
		{[]string{"cp", "--", "f", "--x/../../.local/bin/ls"}, Ask},
		{[]string{"chmod", "+x", "--", "--x/../../y", "f"}, Ask},
		// A symbolic mode with a leading "-" is chmod's MODE, not an
		// option (a new user's `chmod -x f.sh` asked); after "--" it is
		// a path.
		{[]string{"chmod", "-x", "f"}, Allow},
		{[]string{"chmod", "-rwx", "f"}, Allow},
		{[]string{"chmod", "-x", "../../y"}, Ask},
		{[]string{"chmod", "-Q", "f"}, Ask},
		{[]string{"ln", "-s", "--", "--x/../..", "e"}, Ask},
		{[]string{"rm", "-f", "--", "f"}, Allow},
		{[]string{"ln", "-s", "--", "f", "l2"}, Allow},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("auto: %q is %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
		}
	}
	// A glob after a dash MODE is chmod's files, as after +x (attack
	// run 76: `chmod -x src/*.sh` asked where `chmod +x src/*.sh` ran).
	for _, mode := range []string{"-x", "+x"} {
		s := Subject{Kind: KindExec, Words: []string{"chmod", mode, "sub/" + Hole + ".sh"}, Glob: 1 << 2}
		if v := p.Decide(s, ctx); v.Decision != Allow {
			t.Errorf("auto: chmod %s sub/*.sh is %v (%s), want allow", mode, v.Decision, v.Reason)
		}
	}
	// A relative symlink target is resolved from the link's directory:
	// from x/y, ../../d/k -> ../../.ssh/id_rsa points at ~/.ssh/id_rsa.
	sub := ctx
	sub.Cwd = filepath.Join(ws, "x", "y")
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"ln", "-s", "../../.ssh/id_rsa", "../../sub/k"}}, sub); v.Decision == Allow {
		t.Errorf("ln -s from a subdirectory is allowed: %s", v.Reason)
	}
	ctx.Mode = AskMode
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"touch", "x"}}, ctx); v.Decision != Ask {
		t.Errorf("ask: touch x is %v, want ask", v.Decision)
	}
}

// TestGitWorkspaceWrites checks which git commands mode auto runs as
// workspace writes: those that change only the workspace's repository.
func TestGitWorkspaceWrites(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	plain := filepath.Join(home, "plain") // no .git: git would find another repository
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(ws, "sub"), plain, filepath.Join(ws, "cfg", ".vscode")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "cfg", ".vscode", "tasks.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := Default()
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"git", "add", "src/a.go"}, Allow},
		{[]string{"git", "commit", "-m", "fix: x"}, Allow},
		{[]string{"git", "commit", "-m", Hole}, Allow}, // a message from $(cat <<EOF …)
		{[]string{"git", "commit", Hole}, Ask},         // could be --interactive
		{[]string{"git", "checkout", "-b", "feature"}, Allow},
		{[]string{"git", "checkout", "-f", "main"}, Ask},
		{[]string{"git", "checkout", "-fb", "x"}, Ask},
		// `git checkout -- a.go` discards changes as `git restore a.go`
		// does (a new user found one asked, the other ran).
		{[]string{"git", "checkout", "--", "a.go"}, Allow},
		{[]string{"git", "restore", "a.go"}, Allow},
		// cfg holds a protected path (.vscode/tasks.json): a pathspec
		// of it restores that file too, unless only the index is.
		{[]string{"git", "restore", "--staged", "../cfg"}, Allow},
		{[]string{"git", "restore", "-S", "../cfg"}, Allow},
		{[]string{"git", "restore", "-SW", "../cfg"}, Ask},
		{[]string{"git", "restore", "--staged", "--worktree", "../cfg"}, Ask},
		{[]string{"git", "restore", "../cfg"}, Ask},
		{[]string{"git", "checkout", "--", "../cfg"}, Ask},
		{[]string{"git", "stash"}, Allow},
		{[]string{"git", "stash", "drop"}, Ask},
		{[]string{"git", "rebase", "main"}, Allow},
		{[]string{"git", "rebase", "--exec", "make", "main"}, Ask},
		{[]string{"git", "rebase", "--exe=make", "main"}, Ask}, // an abbreviation git accepts
		{[]string{"git", "rebase", "-x", "make", "main"}, Ask},
		{[]string{"git", "reset", "--hard", "HEAD~1"}, Ask},
		{[]string{"git", "reset", "HEAD~1"}, Allow},
		{[]string{"git", "push"}, Ask},
		{[]string{"git", "clean", "-fdx"}, Ask},
		{[]string{"git", "-C", "/tmp/x", "add", "a"}, Ask},
		{[]string{"git", "-c", "core.hooksPath=/tmp", "commit", "-m", "x"}, Ask},
	} {
		ctx := Context{Mode: Auto, Cwd: filepath.Join(ws, "sub"), Home: home, Workspace: ws}
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("auto: %q is %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
		}
	}
	// GIT_ICASE_PATHSPECS: a pathspec names protected paths in any case
	// (attack run 37: git restore LEFTHOOK.YML).
	t.Setenv("GIT_ICASE_PATHSPECS", "1")
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"git", "restore", "LEFTHOOK.YML"}}, Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws}); v.Decision != Ask {
		t.Errorf("git restore LEFTHOOK.YML with GIT_ICASE_PATHSPECS: %v (%s)", v.Decision, v.Reason)
	}
	t.Setenv("GIT_ICASE_PATHSPECS", "")
	for _, ctx := range []Context{
		{Mode: Auto, Cwd: plain, Home: home, Workspace: plain},             // not a work tree's top
		{Mode: Auto, Cwd: home, Home: home, Workspace: ws},                 // working directory outside
		{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, CwdUnknown: true}, // a cd made it unknown
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: []string{"git", "add", "a"}}, ctx); v.Decision != Ask {
			t.Errorf("git add in %+v: %v (%s)", ctx, v.Decision, v.Reason)
		}
	}
}

// TestCopiedLinks: cp -r or mv of a directory that holds a link leading
// out of the workspace (or to a protected path) is no workspace write: the
// copy is a new name for what the link leads to, which the rest of the
// command reads and writes through unasked (attack run 30: a jailed
// command planted src/z.py -> ~/.ssh/id_rsa, then `cp -r src h && cat
// h/z.py`).
func TestCopiedLinks(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{".git", "out/sub", "in", "deep/a/b", "sec", "a/b", "d/e"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"README.md", ".env", "d/f"} {
		if err := os.WriteFile(filepath.Join(ws, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"out/sub/z.py": filepath.Join(home, ".ssh", "id_rsa"),
		"in/ok.md":     "../README.md",
		"deep/a/b/c":   "../../../.git/config",
		"sec/l":        "../.env", // a secret inside the workspace
		"a/b/up":       "../..",   // the workspace top, from a/b
		"d/e/up":       "..",      // d, from d/e
		"deep/a/b/up":  "../..",   // deep
	} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true,
		LinksOnlyHere: true} // decided alone (see the end of TestCopiedLinks)
	for _, c := range []struct {
		s    Subject
		want Decision
	}{
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "out", "h"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "-a", "out", "h"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"mv", "out", "h"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"mv", "deep", "h"}}, Ask}, // a link to a protected path
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "in", "h"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "sec", "h"}}, Ask}, // read through h/l, no rule would see .env
		{Subject{Kind: KindExec, Words: []string{"mv", "in", "h"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "./" + Hole, "h/"}, Glob: 1 << 2}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "./i" + Hole, "h/"}, Glob: 1 << 2}, Allow},
		// A symbolic link to such a directory is a new name too (attack
		// run 31: `ln -s d e && cat e/k`).
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "out", "e"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", ".", "e"}}, Ask},
		// A link to a directory, or to nothing yet: ".." through it
		// leads to the directory's parent, not where a command decided
		// before it reads: jailed or asked, as the copies above.
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "in", "e"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "nothing", "e"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "in"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "README.md", "e"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"ln", "-sf", "../README.md", "in/r.md"}}, Allow},
		// A relative link is read from where the copy or the moved
		// link will stand (attack run 33: `mv a/b b` took a/b/up ->
		// ../.. to the workspace's parent; `cp -P d/e/up c`, `ln
		// d/e/up c` made c -> .. at the top).
		{Subject{Kind: KindExec, Words: []string{"mv", "a/b", "b"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "a/b", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "-a", "a/b", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "-rt", "deep", "a/b"}}, Allow}, // deep/b/up -> deep
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "a/b", "deep/a"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"cp", "-P", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "-d", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "--no-dereference", "d/e/up", "c"}}, Ask},
		// Long options by any unambiguous prefix, as cp takes them, and
		// -S's value no -s (attack run 34).
		{Subject{Kind: KindExec, Words: []string{"cp", "--recur", "a/b", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "--arc", "a/b", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"cp", "--no-de", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-S", "-s", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "--suffix", "-s", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "--suf=-s", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-P", "d/e/up", "c"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"mv", "d/e/up", "c"}}, Ask},
		// A hard link to deep/a/b/up (-> ../.., deep) in sec, two
		// levels up; in d/e, one.
		{Subject{Kind: KindExec, Words: []string{"ln", "-t", "sec", "deep/a/b/up"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "--target-directory=sec", "deep/a/b/up"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-t", "d/e", "deep/a/b/up"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"cp", "-P", "d/e/up", "d/c"}}, Allow}, // d/c -> .. is the top
		{Subject{Kind: KindExec, Words: []string{"mv", "d/e/up", "d/e/up2"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"cp", "-r", "d/e", "d/f"}}, Allow},
		{Subject{Kind: KindExec, Words: []string{"cp", "-P", "d/e/up", "d/" + Hole}, Glob: 1 << 3}, Ask}, // where it lands not known
		// ln -r reads the target from the working directory (attack
		// run 33: `ln -rs .. d/e/k` made d/e/k -> ../../..).
		{Subject{Kind: KindExec, Words: []string{"ln", "-rs", "../f", "d/e/k"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "--rel", "../f", "d/e/k"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "--sym", "--relative", "../f", "d/e/k"}}, Ask},
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "../f", "d/e/k"}}, Allow}, // d/f
		{Subject{Kind: KindExec, Words: []string{"ln", "-s", "../../README.md", "d/e/k"}}, Allow},
	} {
		if v := p.Decide(c.s, ctx); v.Decision != c.want {
			t.Errorf("%q: %s (%s), want %s", c.s.Words, v.Decision, v.Reason, c.want)
		}
	}
	// With another part of the command that can make links, the place
	// a relative link climbing out of will stand may be a link itself
	// (attack run 34: `rmdir d/e && mv x/L d/e && ln -s ../../f d/e/k`):
	// not known.
	other := ctx
	other.LinksOnlyHere = false
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"ln", "-s", "../../README.md", "d/e/k"}, Ask},
		{[]string{"ln", "-s", "-t", "d/e", "../../README.md"}, Ask},
		{[]string{"ln", "-s", "README.md", "k"}, Allow},
		{[]string{"ln", "-s", "d/f", "k"}, Allow},
		{[]string{"cp", "-r", "a/b", "deep/a"}, Ask},
		{[]string{"mv", "d/e/up", "d/e/up2"}, Ask},
		{[]string{"cp", "-r", "in", "h"}, Ask},
		{[]string{"cp", "x", "y"}, Allow},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, other); v.Decision != c.want {
			t.Errorf("%q beside another link maker: %s (%s), want %s", c.words, v.Decision, v.Reason, c.want)
		}
	}
	// A ".." in the link's name after a link is not lexical: from d/e,
	// up/../k is the workspace's k (d/e/up -> d), where ../../README.md
	// is outside the workspace.
	ctx.Cwd = filepath.Join(ws, "d", "e")
	for words, want := range map[string]Decision{"ln -s ../../README.md up/../k": Ask, "ln -s ../../README.md k": Allow,
		// -t DIR: the target read from DIR (attack run 34: ws/d/.ssh
		// -> ../../.ssh, the home's).
		"ln -s -t " + filepath.Join(ws, "d") + " ../../.ssh":   Ask,
		"ln -s -t " + filepath.Join(ws, "d") + " ../README.md": Allow} {
		if v := p.Decide(Subject{Kind: KindExec, Words: strings.Fields(words)}, ctx); v.Decision != want {
			t.Errorf("%s in d/e: %s (%s), want %s", words, v.Decision, v.Reason, want)
		}
	}
}

// TestSensitivity checks the reason given for each sensitive segment.
func TestSensitivity(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Default()
	ctx := Context{Mode: AskMode, Cwd: ws, Home: home, Workspace: ws}
	for _, c := range []struct {
		s    Subject
		want Sensitivity
	}{
		{Subject{Kind: KindExec, Words: []string{"curl", "https://example.com"}}, Network},
		{Subject{Kind: KindExec, Words: []string{"git", "push", "origin", "main"}}, Network},
		{Subject{Kind: KindExec, Words: []string{"npm", "install", "left-pad"}}, Network},
		{Subject{Kind: KindExec, Words: []string{"npx", "prettier", "."}}, Network},
		{Subject{Kind: KindExec, Words: []string{"python3", "x.py"}}, Interpreter},
		{Subject{Kind: KindExec, Words: []string{"python3", "-c", "print(1)"}}, Interpreter},
		{Subject{Kind: KindExec, Words: []string{"npm", "test"}}, Interpreter},
		{Subject{Kind: KindExec, Words: []string{"./build.sh"}}, Interpreter},
		{Subject{Kind: KindExec, Words: []string{"ls"}, Assigns: []string{"LD_PRELOAD=/tmp/x.so"}}, Interpreter},
		{Subject{Kind: KindExec, Words: []string{"sudo", "ls"}}, Privilege},
		{Subject{Kind: KindExec, Words: []string{"chown", "root", "f"}}, Privilege},
		{Subject{Kind: KindExec, Words: []string{"rm", "-rf", "/srv/data"}}, Destructive},
		{Subject{Kind: KindExec, Words: []string{"kill", "-9", "1"}}, Destructive},
		// The workspace holds .git: removing it all is a protected
		// path's write (attack run 74), as for rm -rf .
		{Subject{Kind: KindExec, Words: []string{"find", ".", "-delete"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"find", "/srv/data", "-name", "*.o", "-delete"}}, Destructive},
		{Subject{Kind: KindExec, Words: []string{"git", "reset", "--hard"}}, Destructive},
		{Subject{Kind: KindExec, Words: []string{"git", "checkout", "-f", "--", "a.go"}}, Destructive},
		{Subject{Kind: KindExec, Words: []string{"git", "stash", "drop"}}, Destructive},
		// git clean's dry run only lists (a new user's `git clean -n`).
		{Subject{Kind: KindExec, Words: []string{"git", "clean", "-fdn"}}, UnknownProgram},
		{Subject{Kind: KindExec, Words: []string{"git", "clean", "--dry-run"}}, UnknownProgram},
		{Subject{Kind: KindExec, Words: []string{"git", "clean", "-fd"}}, Destructive},
		{Subject{Kind: KindExec, Words: []string{"git", "clean", "-n", "-i"}}, Destructive},
		{Subject{Kind: KindExec, Words: []string{"git", "clean", "-fen"}}, Destructive}, // -e's value "n"
		{Subject{Kind: KindExec, Words: []string{"cp", "a", "/srv/b"}}, OutsideWorkspace},
		{Subject{Kind: KindWrite, Words: []string{"/srv/out.txt"}}, OutsideWorkspace},
		{Subject{Kind: KindWrite, Words: []string{home + "/.bashrc"}}, ProtectedPath},
		{Subject{Kind: KindWrite, Words: []string{ws + "/.claude/settings.json"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"tee", ws + "/.vscode/tasks.json"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"frobnicate", "--all"}}, UnknownProgram},
		// Writes of git configuration (the repository's is protected):
		// none may run jailed, since the jail would put the change back.
		// (A naming key of the repository's own config is a workspace
		// write: TestGitConfigNamingKeysInAuto.)
		{Subject{Kind: KindExec, Words: []string{"git", "config", "--global", "user.email", "a@b.c"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "config", "set", "core.fsmonitor", "x"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "config", "--unset", "core.pager"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "-C", "sub", "config", "--add", "a.b", "c"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "remote", "add", "origin", "https://example.com/r.git"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "remote", "set-url", "origin", "x"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "submodule", "init"}}, ProtectedPath},
		// Abbreviated options, and options before the subcommand (an
		// attack run's finds).
		{Subject{Kind: KindExec, Words: []string{"git", "config", "--ad", "a.b", "c"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "config", "--remove-sec", "core"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "config", "--edi"}}, ProtectedPath},
		{Subject{Kind: KindExec, Words: []string{"git", "remote", "-v", "add", "o", "x"}}, ProtectedPath},
	} {
		v := p.Decide(c.s, ctx)
		if v.Class != Sensitive || v.Sensitivity != c.want {
			t.Errorf("%s %q: %s/%s (%s), want sensitive/%s", c.s.Kind, c.s.Words, v.Class, v.Sensitivity, v.Reason, c.want)
		}
	}
	// Other classes carry none.
	for _, s := range []Subject{{Kind: KindExec, Words: []string{"ls"}}, {Kind: KindWrite, Words: []string{ws + "/out"}}} {
		if v := p.Decide(s, ctx); v.Sensitivity != "" {
			t.Errorf("%q: sensitivity %q for class %s", s.Words, v.Sensitivity, v.Class)
		}
	}
}

// TestMktempInTheTempDirectory: mktemp with no template, or with -t or
// --tmpdir, makes its file in the temp directory, a workspace write in
// mode auto; -p elsewhere asks.
func TestMktempInTheTempDirectory(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{tmp}, LinksOnlyHere: true}
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"mktemp"}, Allow},
		{[]string{"mktemp", "-d"}, Allow},
		{[]string{"mktemp", "-t", "foo.XXXX"}, Allow},
		{[]string{"mktemp", "--tmpdir", "foo.XXXX"}, Allow},
		{[]string{"mktemp", "-p", home, "x.XXXX"}, Ask},
	} {
		if v := p.Decide(exec(c.words...), ctx); v.Decision != c.want {
			t.Errorf("%q: %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
		}
	}
}

// TestMktempAfterTMPDIRIsSet: a command that sets TMPDIR itself asks, so
// that mktemp, decided as a write to the temp directory, cannot be sent
// elsewhere by it.
func TestMktempAfterTMPDIRIsSet(t *testing.T) {
	for _, w := range [][]string{{"export", "TMPDIR=/home/u/.ssh"}, {"declare", "-x", "TMPDIR=/etc"}} {
		if c, why, bad := classifyExec(w, nil); c != Sensitive || !bad {
			t.Errorf("%q: %s (%s), want a sensitive assignment", w, c, why)
		}
	}
	if c, _, bad := classifyExec(nil, []string{"TMPDIR=/etc"}); c != Sensitive || !bad {
		t.Errorf("TMPDIR=/etc: %s, want a sensitive assignment", c)
	}
}

// TestArchiverOptionVariables: the variables tar, zip and gzip read their
// options from are sensitive to assign (attack run 76: TAR_OPTIONS=
// --remove-files and ZIPOPT=-m removed .git and the audit log, where the
// same options on the command line ask).
func TestArchiverOptionVariables(t *testing.T) {
	for _, a := range []string{"TAR_OPTIONS=--remove-files", "ZIPOPT=-m", "ZIP=-m", "GZIP=-r"} {
		if c, _, bad := classifyExec([]string{"tar", "-cf", "x.tar", "."}, []string{a}); c != Sensitive || !bad {
			t.Errorf("%s tar: %s, want a sensitive assignment", a, c)
		}
		if c, _, bad := classifyExec([]string{"export", a}, nil); c != Sensitive || !bad {
			t.Errorf("export %s: %s, want a sensitive assignment", a, c)
		}
	}
}

// What cp, mv, ln and install put in a directory lands as the source's
// base name there: a protected path so made asks in every mode (in mode
// bypass `cp x/.bashrc ~/` replaced ~/.bashrc unasked), and a directory
// that only receives the sources is not moved (`mv build.tar ~/` asked as
// if the home were moved) nor, at the top of the workspace or a temp
// directory, written itself (`cp x /tmp/`, `mv x ./` were no workspace
// writes).
func TestLandingInADirectory(t *testing.T) {
	ctx := testContext(t, Bypass)
	tmp := filepath.Join(filepath.Dir(ctx.Home), "tmp")
	ctx.TempDirs = []string{tmp}
	home, ws := ctx.Home, ctx.Workspace
	ctx.Protected = []string{ws + "/.guardsh.yaml"} // as guardsh's own run has it
	ctx.PlainGlobs = true                           // no shopt in these commands
	for _, d := range []string{home + "/.ssh", ws + "/in/sub", ws + "/build", ws + "/.git/hooks", tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{home + "/.bashrc", ws + "/in/.bashrc", ws + "/in/.guardsh.yaml", ws + "/in/a.txt", ws + "/README.md", ws + "/build/a.o"} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	globbed := func(bits uint64, words ...string) Subject {
		s := exec(words...)
		s.Glob = bits
		return s
	}
	opened := func(bits uint64, words ...string) Subject { // a variable's value
		s := exec(words...)
		s.Open = bits
		return s
	}
	bypass := mustParse(t, "mode: bypass\n")
	cases := []struct {
		name   string
		s      Subject
		want   Decision
		reason string
	}{
		{"cp of an rc file into the home asks", exec("cp", ws+"/in/.bashrc", home+"/"), Ask, "writes protected path ~/.bashrc"},
		{"cp -t into the home asks", exec("cp", "-t", home, ws+"/in/.bashrc"), Ask, "writes protected path ~/.bashrc"},
		{"mv into the home asks", exec("mv", ws+"/in/.bashrc", home), Ask, "writes protected path ~/.bashrc"},
		{"ln -s into the home asks", exec("ln", "-s", ws+"/in/.bashrc", home+"/"), Ask, "writes protected path ~/.bashrc"},
		{"install into the home asks", exec("install", "-m", "644", ws+"/in/.bashrc", home+"/"), Ask, "writes protected path ~/.bashrc"},
		{"cp of the project config to the top asks", exec("cp", "in/.guardsh.yaml", "./"), Ask, ".guardsh.yaml"},
		{"cp -r of a tree's contents into the home asks", exec("cp", "-r", ws+"/in/.", home), Ask, "what lies below ~"},
		{"mv renaming a tree to .git asks", exec("mv", ws+"/in", ws+"/build/.git"), Ask, "protected path"},
		{"mv renaming a tree to .claude asks", exec("mv", ws+"/in", ws+"/build/.claude"), Ask, "which may hold protected paths"},
		{"a glob that matches an rc file now asks", globbed(1<<1, "cp", ws+"/in/."+Hole, home+"/"), Ask, "writes protected path ~/.bashrc"},
		{"bash's * leaves it alone", globbed(1<<1, "cp", ws+"/in/"+Hole, home+"/"), Allow, ""},
		{"a run-time source into the home asks", opened(1<<1, "cp", Hole, home+"/"), Ask, "which may hold protected names"},
		{"one whose value may hold a slash asks", opened(1<<1, "cp", "x"+Hole, home+"/"), Ask, "which may hold protected names"},
		// Attack run 78: -t in a cluster, --parents, a backup's suffix.
		{"cp -ft into the home asks", exec("cp", "-ft", home, ws+"/in/.bashrc"), Ask, "writes protected path ~/.bashrc"},
		{"mv -ft into the home asks", exec("mv", "-ft", home, ws+"/in/.bashrc"), Ask, "writes protected path ~/.bashrc"},
		{"cp --parents lands as the whole path", exec("cp", "--parents", "home/.bashrc", filepath.Dir(home)+"/"), Ask, "writes protected path ~/.bashrc"},
		{"a backup's suffix makes a protected name", exec("cp", "-b", "-S", "rc", ws+"/README.md", home+"/.bash"), Ask, "~/.bashrc"},
		{"-S in a cluster too", exec("cp", "-bSrc", ws+"/README.md", home+"/.bash"), Ask, "~/.bashrc"},
		{"a backup with no suffix given may be named anything", exec("mv", "-b", ws+"/README.md", home+"/.bash"), Ask, "a backup of ~/.bash"},
		{"cp of a plain file into the home runs", exec("cp", ws+"/README.md", home+"/"), Allow, ""},
		{"a backup whose names are no protected one runs", exec("cp", "-b", ws+"/README.md", home+"/notes.txt"), Allow, ""},
		{"mv of a plain file into the home runs", exec("mv", ws+"/README.md", home), Allow, ""},
		{"a glob that matches no protected name runs", globbed(1<<1, "cp", ws+"/in/"+Hole+".txt", home+"/"), Allow, ""},
		{"a run-time source named *.txt into the home runs", opened(1<<1, "cp", Hole+".txt", home+"/"), Allow, ""},
		{"a run-time tree named .git into the top asks", opened(1<<2, "cp", "-r", Hole+".git", "./"), Ask, "which may hold protected names (.git)"},
		{"a glob into build runs", globbed(1<<1, "cp", ws+"/build/"+Hole, ws+"/in/sub/"), Allow, ""},
		{"cp into the top of the workspace runs", exec("cp", "build/a.o", "./"), Allow, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := bypass.Decide(tc.s, ctx)
			if v.Decision != tc.want || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("%q: %v (%s), want %v with %q", tc.s.Words, v.Decision, v.Reason, tc.want, tc.reason)
			}
		})
	}
	auto := mustParse(t, "mode: auto\n")
	ctx.Mode = Auto
	for _, words := range [][]string{
		{"cp", "README.md", tmp + "/"},
		{"cp", "-t", tmp, "README.md"},
		{"mv", "build/a.o", "./"},
		{"cp", "-r", "build", "./in/"},
		{"cp", "-r", "build", tmp},
	} {
		if v := auto.Decide(exec(words...), ctx); v.Decision != Allow || v.Class != Workspace {
			t.Errorf("%q in mode auto: %v, class %v (%s), want a workspace write", words, v.Decision, v.Class, v.Reason)
		}
	}
	for _, words := range [][]string{
		{"cp", "-T", "README.md", tmp},     // replaces the temp directory's name
		{"cp", "-r", "in/.", "./"},         // names only known when it runs
		{"cp", "in/.guardsh.yaml", "./"},   // the project's config
		{"cp", "README.md", ws + "/.git/"}, // into .git
	} {
		if v := auto.Decide(exec(words...), ctx); v.Decision == Allow {
			t.Errorf("%q in mode auto: allowed (%s)", words, v.Reason)
		}
	}
}
