package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestPlainGlobs: a glob written plainly (interp.GlobWord) is decided by
// the names it can expand to — `rm -f *.log` and `rm -rf build/*` run in
// mode auto (a new user's find: every deletion by glob asked) — while the
// same pattern from a variable, quoted parts, a brace or a tilde keep
// asking.
func TestPlainGlobs(t *testing.T) {
	root := t.TempDir()
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(ws, "build"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link to a key and one out of the workspace, as a cloned
	// repository may hold.
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"k": filepath.Join(home, ".ssh", "id_rsa"), "evil": filepath.Join(home, "decoy")} {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: "c.yaml",
		Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}},
		Analysis: interp.Options{Home: home, Dir: ws}}
	for cmd, want := range map[string]rules.Decision{
		"rm -f ./*.log":           rules.Allow,
		"rm -f -- *.log":          rules.Allow,
		"rm -rf build/*":          rules.Allow,
		"cp ./*.log build/":       rules.Allow,
		"rm -f build/*.o ./*.tmp": rules.Allow,
		// Attack-run finds: a name that is an option, bracket
		// expressions holding "]", a link moved then used.
		// (rm -f *.log: no name here starts with "-", so its glob is
		// looked at as if -r were given, and .gi? then reaches .git.)
		"rm -f *.log":                 rules.Allow,
		"touch ./-r && rm -f ?r .gi?": rules.Ask,
		"touch ./-r && rm -f ?r b*":   rules.Allow, // build holds nothing protected
		"rm -rf .gi[[:alpha:]]":       rules.Ask,
		"cat [[:alpha:]]":             rules.Deny,
		"cat []k]":                    rules.Deny,
		"mv evi? lnk && rm -rf lnk/*": rules.Ask,
		"cp -P evil? l2 && ls l2":     rules.Ask,
		"f='*.log'; rm -f $f":         rules.Ask,
		`rm -f "$D"/*.log`:            rules.Ask,
		"rm -f {a,b}*.log":            rules.Ask,
		"rm -rf ~/*":                  rules.Ask,
		"rm -rf *":                    rules.Deny, // beside the link to the key
		"rm -rf /*":                   rules.Ask,
		"rm -rf build/* && rm -rf ~":  rules.Deny,
		// A walker's directory through one an earlier command makes
		// (attack run 32 printed the key with grep -r).
		"mkdir -p d && grep -r x d/../../home/.ssh":          rules.Deny,
		"mkdir -p ./--x && grep -r -- x --x/../../home/.ssh": rules.Deny,
		// Under globstar (a session's earlier line, a sourced snapshot)
		// "**" crosses directories (build/sub/.git/…): not a plain glob.
		"rm -f build/**": rules.Ask,
	} {
		if o := g.Evaluate(cmd); o.Decision != want {
			t.Errorf("%s: %s, want %s (%s)", cmd, o.Decision, want, o.Segments[len(o.Segments)-1].Verdict.Reason)
		}
	}
}

// TestLinkThenDotDot: a ".." after a directory that does not exist now
// leads where no one knows when an earlier segment of the command may
// make that directory a link (attack run 33: `ln -s . up && cat
// up/../.ssh/id_rsa` printed the key, `… >> up/../.bashrc` wrote it; the
// kernel's ".." goes to the target's parent, not back lexically). Where
// no segment can make a link, it is read lexically, as before.
func TestLinkThenDotDot(t *testing.T) {
	root := t.TempDir()
	ws, home := filepath.Join(root, "ws"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(home, ".ssh"), filepath.Join(ws, "x", "p")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, "a", "b", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"L": ".", "D": "../a/b/c"} {
		if err := os.Symlink(target, filepath.Join(ws, "x", name)); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: "c.yaml",
		Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}},
		Analysis: interp.Options{Home: home, Dir: ws}}
	for cmd, want := range map[string]rules.Decision{
		// A directory that exists now, replaced by a link earlier in
		// the command (attack run 34: x/L -> . is x; x/p/../.. is the
		// workspace's parent once x/p is such a link).
		"rmdir x/p && mv x/L x/p && cat x/p/../../home/.ssh/id_rsa":      rules.Ask,
		"rmdir x/p && cp -P x/L x/p && echo k >> x/p/../../home/.bashrc": rules.Ask,
		"rmdir x/p && mv x/L x/p && rm -f x/p/../../victim":              rules.Ask,
		// cd -P through it lands in a/b, where no cd the text shows
		// leads: ../../../home is the home.
		"rmdir x/p && mv x/D x/p && cd -P x/p/.. && cat ../../../home/.ssh/id_rsa": rules.Ask,
		"cat x/p/../../ws/README.md": rules.Allow,
		// s/up -> s: s/up/../.. is the workspace's parent. (The ln
		// asks itself, or runs jailed: a link to a directory.)
		"mkdir -p s && ln -s . s/up":                                      rules.Ask,
		"mkdir -p s && ln -s . s/up && cat s/up/../../home/.ssh/id_rsa":   rules.Ask,
		"mkdir -p s && ln -s . s/up && echo x >> s/up/../../home/.bashrc": rules.Ask,
		"mkdir -p s && ln -s . s/up && rm -f s/up/../../victim":           rules.Ask,
		"mkdir -p s && ln -s . s/up && grep -r x s/up/../../home":         rules.Ask,
		// Lexically these name files in the workspace.
		"mkdir -p s && cat s/up/../../ws/home/.ssh/id_rsa":   rules.Allow,
		"mkdir -p build && cd build && ls ..":                rules.Allow,
		"mkdir -p build && cat build/../README.md":           rules.Allow,
		"mkdir -p s && echo x >> s/up/../../ws/home/.bashrc": rules.Allow,
	} {
		// The strictest verdict but those of the segments that make
		// the link: those through it.
		o := g.Evaluate(cmd)
		v := rules.Verdict{Decision: rules.Allow}
		for _, c := range o.Segments {
			if c.Verdict.Decision > v.Decision && (!slices.Contains([]string{"ln", "mv", "cp", "rmdir", "cd"}, c.Segment.Args[0].Value) || strings.HasSuffix(cmd, "s/up")) {
				v = c.Verdict
			}
		}
		if v.Decision != want {
			t.Errorf("%s: %s, want %s (%s)", cmd, v.Decision, want, v.Reason)
		}
	}
}

// A sed that runs no command, a cp that copies no link as a link, and git
// add, status, diff and the like make no link: a cd after them leads where
// the text says (a new user's `git add -A && cd pypkg && python -m pytest`
// asked, the cd's target only known at run time). A cp -s, git stash or a
// sed with an e command still leave it unknown.
func TestLinklessBeforeCd(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"f", "sub/x"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g := &Guard{Policy: rules.Default(), PolicyFile: "c.yaml",
		Context:  rules.Context{Mode: rules.Auto, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}},
		Analysis: interp.Options{Home: home, Dir: ws}}
	for cmd, want := range map[string]rules.Decision{
		"git add -A && cd sub && cat x":                                                rules.Allow,
		"git status --short; cd sub; cat x":                                            rules.Allow,
		"sed -n 1p f && cd sub && cat x":                                               rules.Allow,
		"sed -i s/a/b/ f && cd sub && cat x":                                           rules.Allow,
		"cp f /tmp/f2 && cd sub && cat x":                                              rules.Allow,
		"cp -s f g && cd sub && cat x":                                                 rules.Ask,
		"cp -r sub s2 && cd sub && cat x":                                              rules.Ask,
		"cp $OPT f g && cd sub && cat x":                                               rules.Ask,
		"git stash && cd sub && cat x":                                                 rules.Ask,
		"git fetch --upload-pack='ln -s ~ sub2; git-upload-pack' . && cd sub && cat x": rules.Ask,
		"git diff && cd sub && cat x":                                                  rules.Ask,
		"GIT_EXTERNAL_DIFF=x git status && cd sub && cat x":                            rules.Ask,
		"git add -p && cd sub && cat x":                                                rules.Ask,
		"git -C . add f && cd sub && cat x":                                            rules.Ask,
		"sed -n 's/x/ln -s ~ h/e' f && cd sub && cat x":                                rules.Ask,
	} {
		o := g.Evaluate(cmd)
		var v rules.Verdict
		for _, c := range o.Segments {
			if c.Segment.Args[0].Value == "cat" {
				v = c.Verdict
			}
		}
		if v.Decision != want {
			t.Errorf("%s: cat x is %s, want %s (%s)", cmd, v.Decision, want, v.Reason)
		}
	}
}

// bash's * matches no name starting with "." unless dotglob is on or
// GLOBIGNORE set: `rm -f *` at the workspace's top names no protected
// .guardsh.yaml, while after `shopt -s dotglob` (in the same command, or
// an earlier one of a script) it may; so may a glob after `shopt -s
// extglob` or `nocaseglob` (attack run 78). `shopt -u`, which every
// Claude Code command holds, changes nothing.
func TestDotGlobAndProtectedNames(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".guardsh.yaml", "a.txt"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("BASHOPTS", "")
	p, err := rules.Parse([]byte("mode: bypass\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	newGuard := func() *Guard {
		return &Guard{Policy: p, PolicyFile: "c.yaml",
			Context:  rules.Context{Mode: rules.Bypass, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/tmp"}, Protected: []string{filepath.Join(ws, ".guardsh.yaml")}},
			Analysis: interp.Options{Home: home, Dir: ws}}
	}
	g := newGuard()
	for cmd, want := range map[string]rules.Decision{
		"rm -f *":                      rules.Allow,
		"rm -f .*":                     rules.Ask,
		"shopt -s dotglob; rm -f *":    rules.Ask,
		"bash -O dotglob -c 'rm -f *'": rules.Ask,
		"GLOBIGNORE=x; rm -f *":        rules.Ask,
		"shopt -s extglob; echo x >> *(.)guardsh.yaml": rules.Ask,
		"shopt -s nocaseglob; rm -f .GUARDSH.YAM?":     rules.Ask,
		"shopt -u extglob; rm -f *":                    rules.Allow,
	} {
		if o := g.Evaluate(cmd); o.Decision != want {
			t.Errorf("%s: %s, want %s", cmd, o.Decision, want)
		}
	}
	// A script's earlier command counts for the later ones.
	g.MakesLinks(g.Evaluate("shopt -s dotglob"))
	if o := g.Evaluate("rm -f *"); o.Decision != rules.Ask {
		t.Errorf("rm -f * after shopt -s dotglob in a script: %s", o.Decision)
	}
	t.Setenv("BASHOPTS", "checkwinsize:nocaseglob")
	if o := newGuard().Evaluate("rm -f *"); o.Decision != rules.Ask {
		t.Errorf("rm -f * with BASHOPTS holding dotglob: %s", o.Decision)
	}
}
