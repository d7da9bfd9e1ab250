package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGlobExpansionMatch: couldRepeating, the match of deny rules
// against a plain glob's expansions, is sound: wherever some expansion
// of a glob word (each Hole some name part without '/' or ' ', the word
// repeated one to three times) matches a pattern as a plain string,
// could says so. Checked by enumeration over a small alphabet.
func TestGlobExpansionMatch(t *testing.T) {
	fills := []string{"", "a", "~", "a~", "~~"}
	shapes := []string{Hole, "a" + Hole, Hole + "/a", "a/" + Hole, "/" + Hole, Hole + "a" + Hole}
	alphabet := []byte{'a', '/', ' ', '~', '*'}
	var patterns []string
	var gen func(prefix string)
	gen = func(prefix string) {
		patterns = append(patterns, prefix)
		if len(prefix) == 5 {
			return
		}
		for _, c := range alphabet {
			gen(prefix + string(c))
		}
	}
	gen("")
	var hm holeMatcher
	checked := 0
	for _, shape := range shapes {
		words := []string{"x", shape}
		units := execUnitsGlobs(words, []string{shape})
		// Every expansion: 1-3 copies, each Hole filled alike within a
		// copy (enough to reach every pattern of length 5).
		var expansions []string
		for _, f1 := range fills {
			for _, f2 := range fills {
				w1 := strings.ReplaceAll(shape, Hole, f1)
				w2 := strings.ReplaceAll(shape, Hole, f2)
				expansions = append(expansions, "x "+w1, "x "+w1+" "+w2, "x "+w1+" "+w2+" "+w1)
			}
		}
		for _, pat := range patterns {
			g := compileGlob("x "+pat, true)
			could := hm.could(g, units)
			for _, e := range expansions {
				if g.match(e) && !could {
					t.Fatalf("pattern %q matches %q, an expansion of %q, but could is false", "x "+pat, e, strings.ReplaceAll(shape, Hole, "*"))
				}
			}
			checked++
		}
	}
	// And it is not everything: a glob word never stands for "/" alone,
	// nor for a word after a space that is not of its shape.
	for _, c := range []struct {
		shape, pat string
		want       bool
	}{
		{Hole + ".log", "rm * / *", false},
		{Hole + ".log", "rm * ~ *", false},
		{"build/" + Hole, "rm * ~ *", false},
		{"build/" + Hole, "rm * / *", false},
		{Hole, "rm * ~ *", true}, // a file named "~"
		{"/" + Hole, "rm * / *", true},
		{"build/" + Hole, "rm -rf build/x build/y", true},
	} {
		words := append(strings.Fields("rm -rf"), c.shape)
		if got := hm.could(compileGlob(c.pat, true), execUnitsGlobs(words, []string{c.shape})); got != c.want {
			t.Errorf("could(%q, rm -rf %s) = %v, want %v", c.pat, strings.ReplaceAll(c.shape, Hole, "*"), got, c.want)
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

// TestGlobWorkspaceWrites: in mode auto a plain glob (Subject.Glob) that
// rm removes, or cp and mv take as sources, is a workspace write when its
// names lie in one static directory of the workspace and none of those
// there now is a protected path or (removed recursively) holds one (a new
// user's `rm -f *.log` and `rm -rf build/*` asked
// in every mode); the same word from a variable is not, nor one whose
// pattern could name a protected path, nor one reaching a nested
// repository recursively; and a deny rule no expansion can match does not
// make it ask.
func TestGlobWorkspaceWrites(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{".git", "build/sub/.git", "out", "src", "dist", ".vscode"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".vscode/tasks.json", "opencode.json", "a.log"} {
		if err := os.WriteFile(filepath.Join(ws, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, "decoy"), filepath.Join(ws, "lnk")); err != nil {
		t.Fatal(err)
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true}
	glob := func(words ...string) Subject {
		s := Subject{Kind: KindExec}
		for i, w := range words {
			if strings.Contains(w, "*") {
				w = strings.ReplaceAll(w, "*", Hole)
				s.Glob |= 1 << i
			}
			s.Words = append(s.Words, w)
		}
		return s
	}
	for _, c := range []struct {
		s    Subject
		want Decision
	}{
		{glob("rm", "-f", "./*.log"), Allow},
		{glob("rm", "-rf", "out/*"), Allow},
		{glob("rm", "-f", "src/*.pyc"), Allow},
		{glob("mv", "./*.log", "out/"), Allow},
		{glob("cp", "./*.log", "out/"), Allow},
		{glob("rm", "-rf", "build/*"), Ask},       // build/sub is a repository
		{glob("rm", "-f", ".vscode/*.json"), Ask}, // .vscode/tasks.json is there
		{glob("rm", "-f", ".vscode/*.md"), Allow},
		{glob("rm", "-f", "*.json"), Ask}, // opencode.json is there
		{glob("rm", "-rf", ".git/*"), Ask},
		{glob("rm", "-rf", "*"), Ask},       // a file named "~" is no home, but the rule says "~"
		{glob("rm", "-rf", "src/*/x"), Ask}, // a link on the way
		{glob("rm", "-rf", "../*"), Ask},
		{glob("cp", "out/*", "*.log"), Ask}, // a glob destination
		// Programs that change what a name's link leads to (touch,
		// chmod, sed -i --follow-symlinks): no link among the names.
		{glob("touch", "out/*"), Allow},
		{glob("touch", "lnk*"), Ask},
		{glob("chmod", "+x", "out/*"), Allow},
		{glob("chmod", "+x", "lnk*"), Ask},
		{glob("chmod", "out/*"), Ask}, // the glob could be the mode (u+s)
		{glob("sed", "-i", "s/a/b/", "out/*"), Allow},
		{glob("sed", "-i", "-e", "s/a/b/", "out/*"), Allow},
		{glob("sed", "-i", "--expression=s/a/b/", "out/*"), Allow},
		{glob("sed", "-i", "out/*"), Ask},       // the glob is the script
		{glob("sed", "-i", "-e", "out/*"), Ask}, // -e's value, the script
		{glob("sed", "-i", "-f", "x", "out/*"), Ask},
		{glob("sed", "-i", "s/a/b/", "lnk*"), Ask},
		{glob("sed", "-i", "s/a/b/", ".vscode/*.json"), Ask},
		// A name that starts with "-" is an option (an attack run's
		// `touch ./-r; rm -f ?r .gi?`): for rm, a glob that can start
		// so is looked at as recursive where no name starts with "-"
		// now (see TestRmLeadingGlob); for the others it needs "--"
		// before it, or a directory in front.
		{glob("rm", "-f", "*.log"), Allow},
		{glob("rm", "-f", "*"), Ask}, // build/sub is a repository: looked at as recursive
		{glob("cp", "*.log", "out/"), Ask},
		{glob("sed", "-i", "s/a/b/", "*.log"), Ask},
		{glob("rm", "-f", "--", "*.log"), Allow},
		{glob("rm", "-f", "./*.log"), Allow},
		// A link among cp's or mv's glob sources (moved, then used).
		{glob("mv", "lnk*", "out/"), Ask},
		{glob("cp", "lnk*", "out/"), Ask},
		{glob("rm", "-f", "lnk*"), Allow}, // rm removes the link itself
		// The same words from a variable: any text at all.
		{Subject{Kind: KindExec, Words: []string{"rm", "-f", Hole + ".log"}, Open: 1 << 2}, Ask},
	} {
		if v := p.Decide(c.s, ctx); v.Decision != c.want {
			t.Errorf("%q (glob %b): %s (%s), want %s", c.s.Words, c.s.Glob, v.Decision, v.Reason, c.want)
		}
	}
}

// TestGlobOptionHint: a command that is a workspace write but for a glob
// that could expand to an option says how to write it (a new user's
// `rm -rf node_modules *.egg-info` asked with no way to tell why), and
// proposes no allow rule.
func TestGlobOptionHint(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true}
	for _, c := range []struct {
		words []string
		glob  uint64
		hint  bool
	}{
		{[]string{"cp", Hole + ".egg-info", "out/"}, 1 << 1, true},
		{[]string{"sed", "-i", "s/a/b/", Hole + ".py"}, 1 << 3, true},
		{[]string{"rm", "-rf", "../" + Hole + ".x"}, 1 << 2, false}, // outside: no hint
		{[]string{"rm", "-rf", Hole + ".x", "/etc/x"}, 1 << 2, false},
	} {
		v := p.Decide(Subject{Kind: KindExec, Words: c.words, Glob: c.glob}, ctx)
		hinted := strings.Contains(v.Reason, "or put -- before the files")
		if v.Decision != Ask || hinted != c.hint || c.hint && v.Suggest != "" {
			t.Errorf("%q: %s (%s), suggest %q; want ask, hint %v", c.words, v.Decision, v.Reason, v.Suggest, c.hint)
		}
	}
}

// TestRmLeadingGlob: rm with a glob that could expand to an option runs
// as a workspace write where no name in its directory starts with "-",
// looked at as if recursive (an injected -r then removes only what was
// looked at); with such a name there, it asks.
func TestRmLeadingGlob(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{".git", "clean", "dashed", "nested/sub/.git"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"clean/a.log", "dashed/a.log", "dashed/-r"} {
		if err := os.WriteFile(filepath.Join(ws, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	for _, c := range []struct {
		cwd   string
		words []string
		want  Decision
	}{
		{"clean", []string{"rm", "-f", Hole + ".log"}, Allow},
		{"dashed", []string{"rm", "-f", Hole + ".log"}, Ask},
		{"nested", []string{"rm", "-f", Hole + "b"}, Ask},         // sub holds a repository: looked at as recursive
		{"nested", []string{"rm", "-f", "--", Hole + "b"}, Allow}, // after --: rm -f removes no directory
		{"clean", []string{"cp", Hole + ".log", "x/"}, Ask},
	} {
		ctx := Context{Mode: Auto, Cwd: filepath.Join(ws, c.cwd), Home: home, Workspace: ws, PlainGlobs: true}
		s := Subject{Kind: KindExec, Words: c.words}
		for i, w := range c.words {
			if strings.Contains(w, Hole) {
				s.Glob |= 1 << i
			}
		}
		if v := p.Decide(s, ctx); v.Decision != c.want {
			t.Errorf("in %s: %q: %s (%s), want %s", c.cwd, c.words, v.Decision, v.Reason, c.want)
		}
	}
}

// TestGlobVanishes: under nullglob a glob that matches nothing is no word
// at all, so a deny rule the rest of the command matches could match.
func TestGlobVanishes(t *testing.T) {
	p, err := Parse([]byte("rules:\n  shell:\n    deny: [\"deploy prod now\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Mode: Bypass, Cwd: t.TempDir()}
	s := Subject{Kind: KindExec, Words: []string{"deploy", "prod", Hole + ".x", "now"}, Glob: 1 << 2}
	if v := p.Decide(s, ctx); v.Decision != Ask {
		t.Errorf("%q: %s (%s), want ask", s.Words, v.Decision, v.Reason)
	}
}

// TestGlobBrackets: a bracket expression holding "]" (a class, or "]"
// first) is one run-time part, so what the glob could name is seen (an
// attack run deleted .git with `rm -rf .gi[[:alpha:]]`, read a key
// through `cat [[:alpha:]]`, and dodged a deny rule on keep.db with
// `rm -f kee[]p].db`).
func TestGlobBrackets(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := Parse([]byte("mode: auto\nrules:\n  shell:\n    deny: [\"rm * keep.db\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true}
	for _, w := range []string{"kee" + Hole + ".db"} {
		s := Subject{Kind: KindExec, Words: []string{"rm", "-f", w}, Glob: 1 << 2}
		if v := p.Decide(s, ctx); v.Decision == Allow {
			t.Errorf("%q: %s (%s), want it to ask", s.Words, v.Decision, v.Reason)
		}
	}
}

// TestWalkersFollowingLinks: a walker that follows the links below its
// directory arguments (grep -R, cp -rL, rg -L, tar -h …) reads or writes
// their targets: a link to a key inside a walked directory is a read of
// the key (an attack run's `cp -rL s1 c && cat c/k`; `grep -R . s1`
// printed it), while walkers that do not follow links (grep -r, cp -r)
// and links elsewhere leave the command as before.
// TestWalkerThroughMissingDirectory: a walker's directory that does not
// exist now, through a directory an earlier command may make, is not
// skipped (attack run 32: `mkdir -p d && grep -r x d/../../.ssh` printed
// the key: the walk below it was skipped); and since that directory may
// be made a link (attack run 33: `ln -s . up && cat up/../.ssh/id_rsa`),
// where ".." after it leads is unknown: a rule that could match below
// asks. See also the guard's TestPlainGlobs, which decides it as the
// shell does.
func TestWalkerThroughMissingDirectory(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(ws, ".git"), filepath.Join(ws, "src"), filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	ctx := Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, Lookups: NewLookups(), PlainGlobs: true}
	// lexical: the decision when no segment of the command makes a link
	// (Context.NoNewLinks: `mkdir -p d && grep …`).
	for _, c := range []struct {
		words         []string
		want, lexical Decision
	}{
		// As it reads now, a deny rule matches: denied either way.
		{[]string{"grep", "-r", "x", "d/../../.ssh"}, Deny, Deny},
		{[]string{"grep", "-r", "--", "x", "--x/../../.ssh"}, Deny, Deny},
		{[]string{"grep", "-r", "x", "d/../src"}, Ask, Allow}, // src/ of anywhere
		// src exists, but an earlier command could replace it with a
		// link (attack run 34: `rmdir x/p && ln -s . x/p && cat
		// x/p/../../.ssh/id_rsa`).
		{[]string{"grep", "-r", "x", "src/../src"}, Ask, Allow},
		{[]string{"cat", "d/../.ssh/id_rsa"}, Ask, Allow},
		{[]string{"grep", "-r", "x", "d"}, Allow, Allow}, // nothing there, nor lexically
	} {
		v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx)
		if v.Decision != c.want {
			t.Errorf("%q: %s (%s), want %s", c.words, v.Decision, v.Reason, c.want)
		}
		if c.want == Ask && c.lexical != Ask && !strings.Contains(v.Reason, `holds ".." after a directory`) {
			t.Errorf("%q: %s, want the missing directory named", c.words, v.Reason)
		}
		lx := ctx
		lx.NoNewLinks = true
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, lx); v.Decision != c.lexical {
			t.Errorf("%q, no new links: %s (%s), want %s", c.words, v.Decision, v.Reason, c.lexical)
		}
	}
}

func TestWalkersFollowingLinks(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{".git", "s1/deep", "s2", "plain"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "plain", "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"s1/deep/k": filepath.Join(home, ".ssh", "id_rsa"), "s2/ssh": filepath.Join(home, ".ssh"),
		"plain/l": filepath.Join(ws, "plain", "a.txt")} {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	ctx := Context{Mode: AskMode, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true}
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"grep", "-R", "x", "s1"}, Deny},
		{[]string{"grep", "--dereference-recursive", "x", "."}, Deny},
		{[]string{"rg", "-L", "x", "s2"}, Deny},
		{[]string{"cp", "-rL", "s1", "c"}, Deny},
		{[]string{"tar", "-chf", "x.tar", "s1"}, Deny},
		{[]string{"diff", "-r", "s1", "plain"}, Deny},               // diff follows links
		{[]string{"grep", "-e", "--", "-e", "x", "-R", "s1"}, Deny}, // "--" an option's value
		{[]string{"cp", "-r", "-S", "--", "-L", "s1", "c"}, Deny},
		{[]string{"grep", "-r", "x", "s1"}, Allow},
		{[]string{"grep", "-R", "x", "plain"}, Allow},
		{[]string{"rg", "x", "s1"}, Allow},
	} {
		v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx)
		if v.Decision != c.want && !(c.want == Allow && v.Decision != Deny && !strings.Contains(v.Reason, "follow")) {
			t.Errorf("%q: %s (%s), want %s", c.words, v.Decision, v.Reason, c.want)
		}
	}
	// Past the budget the rest could hold a link to anything: the first
	// deny rule could match, and the secrets' ask rules ask (an attack
	// run hid the link behind 25,000 files).
	defer func(b int) { derefBudget = b }(derefBudget)
	derefBudget = 1
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"grep", "-R", "x", "plain"}}, ctx); v.Decision == Allow {
		t.Errorf("grep -R past the budget: %s (%s)", v.Decision, v.Reason)
	}
	// A config of only `mode: auto`: the secrets' ask rules, no deny.
	auto, err := Parse([]byte("mode: auto\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if v := auto.Decide(Subject{Kind: KindExec, Words: []string{"grep", "-R", "x", "plain"}}, Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true}); v.Decision == Allow {
		t.Errorf("grep -R past the budget, mode: auto alone: %s (%s)", v.Decision, v.Reason)
	}
}

// TestProtectedDirectories: a directory that a protected pattern for any
// directory names, or that holds what one names, is not removed or moved
// unasked (an attack run's `rm -rf .claude`, `mv ./.vscod? vv`), nor are
// git's pathspecs that could name a protected path (`git rm
// ".guardsh.yam?"`, `git rm -r .claude`).
func TestProtectedDirectories(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{".git", ".claude", "out"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".claude/settings.json", ".guardsh.yaml", "a.log"} {
		if err := os.WriteFile(filepath.Join(ws, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkDecisions(t, Default(), Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, PlainGlobs: true}, []decideCase{
		{[]string{"rm", "-rf", ".claude"}, Ask},
		{[]string{"mv", ".claude", "x"}, Ask},
		{[]string{"rm", "-rf", "out"}, Allow},
		{[]string{"git", "rm", "-q", ".guardsh.yam?"}, Ask},
		{[]string{"git", "rm", "-q", "-r", "--", ".claude"}, Ask},
		{[]string{"git", "rm", "-q", "*.json"}, Ask},
		{[]string{"git", "rm", "-q", "a.log"}, Allow},
	})
}

// decideCase is an exec subject's words and the decision wanted.
type decideCase struct {
	words []string
	want  Decision
}

// checkDecisions decides each case's words as an exec subject under p in
// ctx and reports those decided otherwise.
func checkDecisions(t *testing.T, p *Policy, ctx Context, cases []decideCase) {
	t.Helper()
	for _, c := range cases {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("%q: %s (%s), want %s", c.words, v.Decision, v.Reason, c.want)
		}
	}
}
