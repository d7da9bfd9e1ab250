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
