package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewPlainFile checks argScan.newPlainFile, which joins a plain
// word's paths on the stack, against newFile of the paths joined the long
// way (as check joined them before): the same could-match, ask and
// protected path for every pairing of directory spellings (the
// directory itself, the root, one reached through a symlink), words that
// name a protected file or a path rule's file, and names too long for
// the stack buffer.
func TestNewPlainFile(t *testing.T) {
	p := mustParse(t, `
rules:
  write:
    deny: ["~/.ssh/*", "/srv/data/*", "/key.pem", "~/proj/gen/*"]
    ask: ["~/notes/*", "/srv/link/y"]
  read:
    deny: ["/srv/data/z"]
`)
	ctx := testContext(t, AskMode)
	x := p.pathIndexFor(ctx)
	long := strings.Repeat("n", 300)
	dirs := [][2]string{ // dir, canon
		{ctx.Home + "/.ssh", ctx.Home + "/.ssh"},
		{"/", "/"},
		{"/srv/data", "/srv/data"},
		{"/srv/link", "/srv/data"},
		{"/srv/data", "/srv/link"},
		{"/srv/data", "/"},
		{"/", "/srv/data"},
		{ctx.Home + "/notes", ctx.Home + "/notes"},
		{ctx.Workspace + "/gen", ctx.Workspace + "/gen"},
		{ctx.Workspace, ctx.Home + "/.ssh"},
		{"/srv/" + long, "/srv/data"},
		{"/srv/data", "/srv/" + long},
	}
	words := []string{"authorized_keys", "y", "z", "key.pem", "x", "config", "pre-commit", long}
	sections := [][]int{readThenWrite, readThenWrite[:1]}
	// The long way: the paths as check joined them before newPlainFile.
	join := func(dir, canon, c string) (cleaned, resolved string) {
		resolved = canon + "/" + c
		if canon == "/" {
			resolved = "/" + c
		}
		switch {
		case dir == canon:
			cleaned = resolved
		case dir == "/":
			cleaned = "/" + c
		default:
			cleaned = dir + "/" + c
		}
		return cleaned, resolved
	}
	tried := 0
	for _, d := range dirs {
		for _, w := range words {
			for _, secs := range sections {
				short := argScan{x: x, home: ctx.Home, protect: true, sections: secs}
				longWay := short
				short.newPlainFile(w, d[0], d[1], w)
				cleaned, resolved := join(d[0], d[1], w)
				longWay.newFile(w, cleaned, resolved)
				if got, want := describeScan(&short), describeScan(&longWay); got != want {
					t.Errorf("%q in %s (canonical %s): %s, the long way %s", w, d[0], d[1], got, want)
				}
				if describeScan(&longWay) != "could - ask - protected -" {
					tried++
				}
			}
		}
	}
	if tried < 10 {
		t.Fatalf("only %d cases matched a rule or protected path: the test checks too little", tried)
	}
}

// describeScan renders what a scan found, for comparisons.
func describeScan(sc *argScan) string {
	hit := func(a *argHit) string {
		if a == nil {
			return "-"
		}
		pat := ""
		if a.rule != nil {
			pat = a.rule.Pattern
		}
		return pat + "|" + a.arg + "|" + a.via + "|" + a.clauseShape()
	}
	return "could " + hit(sc.could) + " ask " + hit(sc.ask) + " protected " + hit(sc.protected)
}

// clauseShape is the flags of a, for comparisons.
func (a *argHit) clauseShape() string {
	var b strings.Builder
	for _, f := range []bool{a.could, a.cwdUnknown, a.runtime, a.newFile, a.open} {
		if f {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// TestNamesFromFile checks the options that name the files a program
// reads from a file: the option alone or with a glued value, no other
// spelling.
func TestNamesFromFile(t *testing.T) {
	for w, want := range map[string]bool{
		"--files0-from": true, "--files0-from=-": true, "--files-from": true, "--files-from=list": true,
		"--pathspec-from-file": true, "--pathspec-from-file=x": true, "--files-from=": true,
		"--files-fromx": false, "--files-fro": false, "-files-from": false, "files-from": false, "--": false,
		"--files0": false, "--pathspec-from-files": false, "": false, "-T": false,
	} {
		if got := namesFromFile(w); got != want {
			t.Errorf("namesFromFile(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestPlanTraits checks planTraits, one lookup for the four name sets
// planArgs reads, against the sets themselves, for every name in any of
// them and a few in none.
func TestPlanTraits(t *testing.T) {
	names := map[string]bool{"": true, "cat": true, "zzz": true, "/bin/echo": true}
	for _, set := range []map[string]bool{stringOnly(), readsArgs, notPaths(), subcommandTools()} {
		for n := range set {
			names[n] = true
		}
	}
	if len(names) < 60 {
		t.Fatalf("only %d names", len(names))
	}
	for n := range names {
		tr := planTraits()[n]
		for _, c := range []struct {
			set   map[string]bool
			trait uint8
		}{{stringOnly(), traitStringOnly}, {readsArgs, traitReads}, {notPaths(), traitNotPaths}, {subcommandTools(), traitSubcommands}} {
			if got := tr&c.trait != 0; got != c.set[n] {
				t.Errorf("%q: trait %d is %v, the set says %v", n, c.trait, got, c.set[n])
			}
		}
	}
}

// TestSubLabels checks what checkSub relies on to pass a subcommand its
// label without joining it: in every program of the read-only table, as
// readOnlyProgram labels it, each subcommand's label is the program's,
// a space and the subcommand's name, at every depth; and that a call
// decided through a subcommand gives the reason with that label.
func TestSubLabels(t *testing.T) {
	var walk func(p *program, depth int) int
	walk = func(p *program, depth int) int {
		n := 0
		for k := range p.Sub {
			s := &p.Sub[k]
			if want := p.label + " " + s.Name; s.label != want {
				t.Errorf("subcommand %q of %q is labelled %q, want %q", s.Name, p.label, s.label, want)
			}
			n += 1 + walk(s, depth+1)
		}
		return n
	}
	subs := 0
	for name := range readOnlyIndex() {
		subs += walk(readOnlyProgram(name), 0)
	}
	if subs < 20 {
		t.Fatalf("only %d subcommands in the table", subs)
	}
	for _, words := range [][]string{{"git", "status"}, {"git", "log", "--oneline"}, {"git", "diff", "--stat"}} {
		c, why, _ := classifyExec(words, nil)
		if want := strings.Join(words[:2], " ") + " is in the read-only table"; c != ReadOnly || why != want {
			t.Errorf("%q: %s %q, want read-only %q", words, c, why, want)
		}
	}
}

// TestRequiredReasons checks the reason made once per labelled program
// with Require against the one made at the call, for every such program
// and subcommand of the table, called without arguments.
func TestRequiredReasons(t *testing.T) {
	var walk func(p *program) int
	walk = func(p *program) int {
		n := 0
		if len(p.Require) > 0 {
			n++
			c, why, _ := p.check(p.label, nil)
			if want := requiredReason(p, p.label); c != Sensitive || why != want || p.required != want {
				t.Errorf("%s: %s %q (made once: %q), want sensitive %q", p.label, c, why, p.required, want)
			}
		}
		for k := range p.Sub {
			n += walk(&p.Sub[k])
		}
		return n
	}
	n := 0
	for name := range readOnlyIndex() {
		n += walk(readOnlyProgram(name))
	}
	if n == 0 {
		t.Fatal("no program of the table has Require")
	}
	t.Logf("%d programs with Require", n)
}

// TestNoNamesStaysEmpty decides commands naming files in directories
// that exist and that do not (a walker's secret search lists them too)
// through one command's lookups, and checks that the listing shared by
// missing directories is still empty and is what they list, and that a
// directory that exists lists its own entries.
func TestNoNamesStaysEmpty(t *testing.T) {
	p := mustParse(t, `
rules:
  write:
    deny: ["~/.ssh/*"]
  read:
    deny: ["/srv/data/*"]
`)
	ctx := testContext(t, AskMode)
	if err := os.WriteFile(filepath.Join(ctx.Workspace, "real.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx.Lookups = NewLookups()
	for _, dir := range []string{ctx.Workspace, "/nonexistent-x/y", ctx.Workspace + "/missing"} {
		c := ctx
		c.Cwd = dir
		for _, words := range [][]string{{"cat", "real.txt", "other"}, {"grep", "-r", "x", "."}, {"rg", "x"}, {"touch", "new", "real.txt"}, {"cp", "a", "b"}} {
			p.Decide(Subject{Kind: KindExec, Words: words}, c)
		}
	}
	if len(noNames) != 0 {
		t.Fatalf("the shared listing of missing directories holds %v", noNames)
	}
	if names := ctx.Lookups.listed("/nonexistent-x/y"); names == nil || len(names) != 0 {
		t.Errorf("a missing directory lists %v", names)
	}
	if names := ctx.Lookups.listed(ctx.Workspace); !names["real.txt"] {
		t.Errorf("the workspace lists %v", names)
	}
}
