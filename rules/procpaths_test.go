package rules

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOtherDescriptorQuickReject: the early answer for words that cannot
// name /proc/PID/fd/… gives what squeezing them first gives, for paths
// built from pieces that make and nearly make such a name.
func TestOtherDescriptorQuickReject(t *testing.T) {
	reference := func(p string) (string, bool) {
		s := squeeze(p)
		rest, ok := strings.CutPrefix(s, "/proc/")
		if !ok {
			return "", false
		}
		proc, rest, _ := strings.Cut(rest, "/")
		if proc == "self" || proc == "thread-self" || proc == "" {
			return "", false
		}
		if t, ok := strings.CutPrefix(rest, "task/"); ok {
			_, rest, _ = strings.Cut(t, "/")
		}
		if !strings.HasPrefix(rest, "fd/") {
			return "", false
		}
		return s, true
	}
	pieces := []string{"/", "//", ".", "./", "proc", "proc/", "12", "self", "task", "fd", "fd/", "0", "x", "dev", "/proc/1/fd/0"}
	r := rand.New(rand.NewSource(5))
	descriptors := 0
	for range 20000 {
		var b strings.Builder
		for range 1 + r.Intn(8) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		p := b.String()
		gs, gok := otherDescriptor(p)
		ws, wok := reference(p)
		if gs != ws || gok != wok {
			t.Fatalf("%q: %q %v, squeezed first %q %v", p, gs, gok, ws, wok)
		}
		if wok {
			descriptors++
		}
	}
	if descriptors < 100 {
		t.Errorf("only %d descriptors among the paths: the test tries too little", descriptors)
	}
}

// TestProcPathsSpelledOtherwise: a /proc path that reaches a process's cwd
// or root through ".." or a link of /proc (net -> self/net), or through
// /proc/self/root, names a file in a directory guardsh cannot know: after
// `cd ..` the command's cwd is not guardsh's (attack run 33 read the key
// with `cat /proc/self/../self/cwd/.ssh/id_rsa`).
func TestProcPathsSpelledOtherwise(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Default()
	// The command's working directory is the home (cd ..), guardsh's is
	// the workspace.
	ctx := Context{Mode: AskMode, Cwd: home, Home: home, Workspace: ws}
	for _, c := range []struct {
		arg  string
		want Decision
	}{
		{"/proc/self/../self/cwd/.ssh/id_rsa", Ask},
		{"/proc/net/../cwd/.ssh/id_rsa", Ask},
		{"/sys/../proc/self/cwd/.ssh/id_rsa", Ask},
		{"/proc/self/root/proc/self/cwd/.ssh/id_rsa", Deny},
		{"/proc/self/cwd/.ssh/id_rsa", Deny},
		{"/proc/cpuinfo", Allow},
	} {
		v := p.Decide(Subject{Kind: KindExec, Words: []string{"cat", c.arg}}, ctx)
		if v.Decision != c.want {
			t.Errorf("cat %s: %s (%s), want %s", c.arg, v.Decision, v.Reason, c.want)
		}
	}
	// shopt names after "--", strings' @FILE, Go yq's load: read-only no
	// more (attack run 33).
	for _, words := range [][]string{
		{"shopt", "-s", "--", "extglob"}, {"strings", "@opts"}, {"yq", "-n", `load_str("x")`},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: words}, ctx); v.Class == ReadOnly {
			t.Errorf("%q: read-only (%s)", words, v.Reason)
		}
	}
}

// TestStdinAsADirectory: /dev/stdin (a link to /proc/self/fd/0), and any
// link into /proc or /dev/fd, leads where the command's descriptors do,
// not guardsh's own: with `< .` the command's stdin is a directory, and
// /dev/stdin/.. its parent (attack run 34 read the key in every config
// with `cat /dev/stdin/../.ssh/id_rsa < .`, and through a planted link to
// /proc/self/fd/0).
func TestStdinAsADirectory(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"s0": "/proc/self/fd/0", "s1": "/dev/stdin", "cw": "/proc/self/cwd", "df": "/dev/fd"} {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "README.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := Default()
	// No part of the command makes links (as in `cat … < .`): the ".."
	// after a name is read as the links now lead.
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, NoNewLinks: true}
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"cat", "/dev/stdin/../.ssh/id_rsa"}, Ask},
		{[]string{"cat", "/dev/stdin/./../.ssh/id_rsa"}, Ask},
		{[]string{"cat", "/dev/stdin/.ssh/id_rsa"}, Ask}, // `< ~`
		{[]string{"cat", "/dev//stdin/../.ssh/id_rsa"}, Ask},
		{[]string{"grep", "-r", ".", "/dev/stdin/../.ssh"}, Ask},
		{[]string{"cat", "/dev/stderr/../.ssh/id_rsa"}, Ask},
		{[]string{"cat", "s0/../.ssh/id_rsa"}, Ask},
		{[]string{"cat", "s1/../.ssh/id_rsa"}, Ask},
		{[]string{"cat", "df/0/../.ssh/id_rsa"}, Ask},
		{[]string{"cat", "cw/README.md"}, Allow},     // the command's cwd, known
		{[]string{"cat", "cw/../.ssh/id_rsa"}, Deny}, // ".." after the cwd link: the home's key
		{[]string{"cat", "/dev/stdin"}, Allow},
		{[]string{"cat", "/proc/self/status"}, Allow},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("%q: %s (%s), want %s", c.words, v.Decision, v.Reason, c.want)
		}
	}
	// A redirection through such a link too.
	for _, w := range []string{"s0/../.bashrc", "/dev/stdin/../.bashrc"} {
		if v := p.Decide(Subject{Kind: KindWrite, Words: []string{w}}, ctx); v.Decision == Allow {
			t.Errorf("> %s: allowed (%s)", w, v.Reason)
		}
	}
}
