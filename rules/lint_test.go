package rules

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lintLines lints src and renders each finding as "LINE: SEVERITY: PROBLEM".
func lintLines(src string) []string {
	var out []string
	for _, f := range Lint([]byte(src), "c.yaml") {
		out = append(out, strconv.Itoa(f.Line)+": "+string(f.Severity)+": "+f.Problem)
	}
	return out
}

// expect is one expected finding: its line and severity, and a part of
// its problem.
type expect struct {
	line int
	sev  Severity
	part string
}

func want(line int, sev Severity, part string) expect { return expect{line, sev, part} }

func (e expect) String() string {
	return strconv.Itoa(e.line) + ": " + string(e.sev) + ": …" + e.part + "…"
}

// checkFindings reports a mismatch between got (from lintLines) and want,
// in order.
func checkFindings(t *testing.T, got []string, want []expect) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		prefix := strconv.Itoa(want[i].line) + ": " + string(want[i].sev) + ": "
		ok = strings.HasPrefix(got[i], prefix) && strings.Contains(got[i][len(prefix):], want[i].part)
	}
	if !ok {
		t.Errorf("findings:\n\t%s\nwant:\n\t%v", strings.Join(got, "\n\t"), want)
	}
}

func TestLintDefaultIsClean(t *testing.T) {
	if fs := Lint(DefaultConfig(), DefaultFile); len(fs) != 0 {
		t.Errorf("the embedded default policy has findings:\n%v", fs)
	}
}

func TestFindingString(t *testing.T) {
	for _, c := range []struct {
		f    Finding
		want string
	}{
		{Finding{File: "c.yaml", Line: 3, Severity: SeverityWarning, Problem: "p"}, "c.yaml:3: warning: p"},
		{Finding{File: "c.yaml", Severity: SeverityError, Problem: "p"}, "c.yaml: error: p"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
}

// TestLintErrors: what Parse rejects is an error, with Parse's message and
// line; Lint reads on after an error and reports the next ones.
func TestLintErrors(t *testing.T) {
	const E = SeverityError
	cases := []struct {
		name string
		src  string
		want []expect
	}{
		{"unknown mode", "mode: yolo\n", []expect{want(1, E, `mode: unknown mode "yolo"`)}},
		{"unknown top-level key", "mode: ask\nrulez: {}\n", []expect{want(2, E, `unknown key "rulez"`)}},
		{"wrong type", "rules:\n  shell:\n    allow: [1]\n", []expect{want(3, E, "rules.shell.allow[0]: expected a pattern string, got a number; quote it")}},
		{"empty pattern", "rules:\n  write:\n    deny: [\"\"]\n", []expect{want(3, E, "empty pattern")}},
		{"shell pattern with trailing space", "rules:\n  shell:\n    deny: [\"rm \"]\n", []expect{want(3, E, "trailing white space")}},
		{"~user path", "rules:\n  read:\n    deny: [\"~root/x\"]\n", []expect{want(3, E, `only "~/" is expanded`)}},
		{"relative shell", "shell: bash\n", []expect{want(1, E, "shell: must be an absolute path")}},
		{"duplicate key", "mode: ask\nmode: auto\n", []expect{want(2, E, `duplicate key "mode" (first at line 1)`)}},
		{"YAML syntax error stops the reading", "rules:\n  shell: {allow: [\"ls *\"\nmode: yolo\n", []expect{want(2, E, "invalid YAML")}},
		{"a second document stops the reading", "mode: ask\n---\nmode: yolo\n", []expect{want(2, E, "one YAML document")}},
		{"a top level that is no mapping stops the reading", "- a\n- b\n", []expect{want(1, E, "expected a mapping of mode")}},
		{"several errors, each reported",
			"mode: yolo\nbogus: 1\nrules:\n  shell:\n    allow: [\"ls *\", 5, \"\", \"cat *\"]\n    alow: []\n  read: []\naudit: {required: maybe}\n",
			[]expect{
				want(1, E, `unknown mode "yolo"`),
				want(2, E, `unknown key "bogus"`),
				want(5, E, "rules.shell.allow[1]: expected a pattern string"),
				// After the number is dropped, the empty string is item 1.
				want(5, E, "rules.shell.allow[1]: empty pattern"),
				want(6, E, `rules.shell: unknown key "alow"`),
				want(7, E, "rules.read: expected a mapping of allow, ask or deny, got a list"),
				want(8, E, "audit.required: expected true or false"),
			}},
		{"warnings for what parses, next to the errors",
			"mode: yolo\nrules:\n  shell:\n    deny: [\"rm -rf *\"]\n    allow: [\"rm -rf build\", 1]\n",
			[]expect{
				want(1, E, "unknown mode"),
				want(5, E, "expected a pattern string"),
				want(5, SeverityWarning, `allow rule "rm -rf build" never takes effect`),
			}},
		{"an alias to a bad node", "x: &bad 5\n", []expect{want(1, E, `unknown key "x"`)}},
		{"a bad item shared through an alias is reported once",
			"rules:\n  shell:\n    allow: [&n 5]\n    ask: [*n]\n",
			[]expect{want(3, E, "rules.shell.allow[0]: expected a pattern string")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFindings(t, lintLines(c.src), c.want)
		})
	}
}

// TestLintAgreesWithParse: Lint finds an error exactly when Parse fails,
// and Parse's error is among Lint's.
func TestLintAgreesWithParse(t *testing.T) {
	srcs := []string{
		"", "---\n", "mode: ask\n", "mode: yolo\n", "rules:\n  shell:\n    allow: [ls]\n",
		"rules:\n  shell:\n    allow: [yes]\n", "rules: [1]\n", "audit: {path: 1}\n", "shell: /bin/bash\n",
		"rules:\n  write: {deny: [\"~x\"]}\n", "mode: ask\n\tbad\n", "rules:\n  shell: {deny: [\"*\"]}\n",
		"x: &a [1]\nrules: {shell: {allow: *a}}\n", "rules:\n  shell:\n    deny: [\"a\", \"a\"]\n",
	}
	for _, src := range srcs {
		_, perr := Parse([]byte(src), "c.yaml")
		var errs []Finding
		for _, f := range Lint([]byte(src), "c.yaml") {
			if f.Severity == SeverityError {
				errs = append(errs, f)
			}
		}
		if (perr == nil) != (len(errs) == 0) {
			t.Errorf("%q: Parse error %v, Lint errors %v", src, perr, errs)
			continue
		}
		if perr == nil {
			continue
		}
		ce := perr.(*ConfigError)
		found := false
		for _, f := range errs {
			found = found || (f.Line == ce.Line && f.Problem == ce.Problem && f.File == ce.File)
		}
		if !found {
			t.Errorf("%q: Parse's error %v is not among Lint's %v", src, perr, errs)
		}
	}
}

// TestLintWarnings: one table per check, with cases that must warn and
// cases that must not.
func TestLintWarnings(t *testing.T) {
	const W = SeverityWarning
	shell := func(lists string) string { return "rules:\n  shell:\n" + lists }
	cases := []struct {
		name string
		src  string
		want []expect
	}{
		// readonly patterns for programs that do more than read.
		{"a readonly pattern for a writer", "readonly: [\"rm *\"]\n",
			[]expect{want(1, W, `readonly pattern "rm *" declares a command read-only that deletes or stops things`)}},
		{"a readonly pattern for a network command", "readonly: [\"curl https://x *\"]\n",
			[]expect{want(1, W, `that reaches the network`)}},
		{"a readonly pattern for a project runner", "readonly:\n  - \"make -n *\"\n",
			[]expect{want(2, W, `that runs code`)}},
		{"a readonly pattern for a reader", "readonly: [\"tokei *\", \"git lfs ls-files *\"]\n", nil},
		// With the sandbox on, allow rules for what the jail would take
		// run it with full rights (a new user's "python3 *", "make *").
		{"allow rules the jail would make needless", "sandbox: workspace\n" + shell("    allow: [\"python3 *\", \"curl https://x/*\", \"ls *\"]\n    ask: [\"make *\"]\n"),
			[]expect{want(4, W, `allow rule "python3 *" runs what it matches outside the jail, with your full rights: with sandbox: workspace`)}},
		{"no sandbox, no such warning", shell("    allow: [\"python3 *\"]\n"), nil},
		// "make*" is make too (a new user's rule drew no warning).
		{"a glued star after the program's name", "sandbox: workspace\n" + shell("    allow: [\"make*\"]\n"),
			[]expect{want(4, W, `allow rule "make*" runs what it matches outside the jail`)}},
		// Two blanks in a row match no command.
		{"two blanks in a row", shell("    allow: [\"git  status\"]\n    deny: [\"rm -rf  /\"]\n"),
			[]expect{want(3, W, `allow rule "git  status" holds two blanks in a row or a blank other than a space, which no command matches`), want(4, W, `deny rule "rm -rf  /" holds two blanks`)}},
		{"a tab between words", shell("    deny: [\"git\\tpush *\"]\n"),
			[]expect{want(3, W, `deny rule "git\tpush *" holds two blanks in a row or a blank other than a space`)}},
		// Allow rules so broad that they undo the checks (the allow
		// rules guardsh itself once proposed: "rm *", "sed *").
		{"broad allow rules for destructive programs", shell("    allow: [\"rm *\", \"sed *\", \"chmod *\", \"git clean *\", \"sudo *\"]\n"),
			[]expect{want(3, W, `allow rule "rm *" allows rm whatever follows, outside the workspace too ("rm -rf ~/Documents")`),
				want(3, W, `allow rule "sed *"`), want(3, W, `allow rule "chmod *"`), want(3, W, `allow rule "git clean *"`), want(3, W, `allow rule "sudo *"`)}},
		{"narrow or harmless allow rules", shell("    allow: [\"rm -rf build/*\", \"ls *\", \"npm test *\", \"git push *\", \"rm -rf node_modules\"]\n"), nil},
		{"a source rule vouches for a file the shell reads", "sandbox: workspace\n" + shell("    allow: [\"source ~/.claude/shell-snapshots/snapshot-*.sh\", \". ~/x/*.sh\"]\n"), nil},
		// Shadowed by a deny rule.
		{"allow under a deny that matches all it matches", shell("    deny: [\"rm -rf *\"]\n    allow: [\"rm -rf build\"]\n"),
			[]expect{want(4, W, `allow rule "rm -rf build" never takes effect: deny rule "rm -rf *" (line 3) matches every command it matches`)}},
		{"the deny may come after", shell("    allow: [\"rm -rf build\"]\n    deny: [\"rm -rf *\"]\n"),
			[]expect{want(3, W, `deny rule "rm -rf *" (line 4)`)}},
		{"a bare pattern matches the command alone", shell("    deny: [\"git *\"]\n    allow: [\"git\"]\n"),
			[]expect{want(4, W, `allow rule "git" never takes effect`)}},
		{"not shadowed: the deny wants a space after -r", shell("    deny: [\"rm -r *\"]\n    allow: [\"rm -rf build\"]\n"), nil},
		{"not shadowed: another command", shell("    deny: [\"git *\"]\n    allow: [\"gitk *\"]\n"), nil},
		{"not shadowed: only partly covered", shell("    deny: [\"make *test\"]\n    allow: [\"make *\"]\n"), nil},
		{"ask under deny", shell("    deny: [\"git push *\"]\n    ask: [\"git push origin *\"]\n"),
			[]expect{want(4, W, `ask rule "git push origin *" never takes effect: deny rule "git push *" (line 3)`)}},
		{"ask naming options under a deny reading the same options", shell("    deny: [\"rm -rf *\"]\n    ask: [\"rm -rf build\"]\n"),
			[]expect{want(4, W, `ask rule "rm -rf build" never takes effect`)}},
		{"not shadowed: ask naming options, deny matching only one spelling", shell("    deny: [\"rm -r*\"]\n    ask: [\"rm -rf build\"]\n"), nil},
		{"a deny under a deny is only redundant", shell("    deny: [\"rm *\", \"rm -rf /\"]\n"), nil},
		{"shadowing is per section", "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n  read:\n    allow: [\"~/.ssh/config\"]\n", nil},

		// Shadowed by an ask rule.
		{"allow under ask", shell("    ask: [\"git push *\"]\n    allow: [\"git push origin main\"]\n"),
			[]expect{want(4, W, `allow rule "git push origin main" never allows anything: ask rule "git push *" (line 3) matches every command it matches, and ask rules come first`)}},
		{"not shadowed: ask narrower than allow", shell("    ask: [\"git push -f *\"]\n    allow: [\"git push *\"]\n"), nil},
		{"the deny is named before an ask", shell("    ask: [\"npm *\"]\n    deny: [\"npm publish *\"]\n    allow: [\"npm publish --dry-run\"]\n"),
			[]expect{want(5, W, `deny rule "npm publish *" (line 4)`)}},

		// Path rules.
		{"path allow under a deny of its directory", "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n    allow: [\"~/.ssh/id_*\"]\n",
			[]expect{want(4, W, `allow rule "~/.ssh/id_*" never takes effect: deny rule "~/.ssh/*" (line 3) matches every path it matches`)}},
		{"a longer literal directory may be a symlink", "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n    allow: [\"~/.ssh/config\"]\n",
			[]expect{want(4, W, `matches every path it matches (unless a symlink on the way to "~/.ssh/config" leads elsewhere)`)}},
		{"paths compare as cleaned", "rules:\n  read:\n    deny: [\"/etc/*\"]\n    ask: [\"/etc/x/\"]\n",
			[]expect{
				want(4, W, `ask rule "/etc/x/" never takes effect: deny rule "/etc/*"`),
				want(4, W, `ask rule "/etc/x/" matches only "/etc/x" itself`),
			}},
		{"not shadowed: home and absolute are not compared", "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n    allow: [\"/home/me/.ssh/x\"]\n", nil},
		{"not shadowed: the directory itself", "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n    allow: [\"~/.ssh\"]\n", nil},
		{"a deny of every path shadows every anchor", "rules:\n  write:\n    deny: [\"/*\"]\n    allow: [\"~/x\"]\n",
			[]expect{
				want(3, W, `deny rule "/*" matches every path`),
				want(4, W, `allow rule "~/x" never takes effect: deny rule "/*"`),
			}},

		// Duplicates.
		{"a list key twice is a parse error, and its second list is not read", shell("    allow: [\"make *\"]\n    ask: [\"x\"]\n    allow: [\"make *\"]\n"),
			[]expect{want(5, SeverityError, `duplicate key "allow"`)}},
		{"duplicate in one list", shell("    allow: [\"make *\", \"make test\", \"make *\"]\n"),
			[]expect{want(3, W, `duplicate allow rule "make *" (first at line 3)`)}},
		{"same pattern, other decision", shell("    allow:\n      - \"make x\"\n    deny:\n      - \"make x\"\n"),
			[]expect{want(6, W, `pattern "make x" is a deny rule here and an allow rule at line 4: the allow rule never takes effect`)}},
		{"same pattern, other section", "rules:\n  write:\n    deny: [\"~/.x\"]\n  read:\n    deny: [\"~/.x\"]\n", nil},

		// Catch-alls.
		{"deny *", shell("    deny: [\"*\"]\n"), []expect{want(3, W, `deny rule "*" matches every command: nothing runs`)}},
		{"ask * *", shell("    ask: [\"* *\"]\n"), []expect{want(3, W, `ask rule "* *" matches every command: nothing runs without asking`)}},
		{"allow **", shell("    allow: [\"**\"]\n"), []expect{want(3, W, `allow rule "**" matches every command`)}},
		{"not a catch-all: * * * needs two spaces", shell("    allow: [\"* * *\"]\n"), nil},
		{"not a catch-all: x*", shell("    deny: [\"x*\"]\n"), nil},
		{"write /*", "rules:\n  write:\n    ask: [\"/*\"]\n", []expect{want(3, W, `ask rule "/*" matches every path: every write asks`)}},
		{"read //**", "rules:\n  read:\n    allow: [\"//**\"]\n",
			[]expect{want(3, W, `allow rule "//**" matches every path`), want(3, W, `is matched as "/**"`)}},
		{"not a catch-all: relative *", "rules:\n  write:\n    deny: [\"*\"]\n", []expect{want(3, W, `deny rule "*" is relative`)}},

		// Relative paths.
		{"relative path", "rules:\n  write:\n    deny: [\".env\"]\n", []expect{want(3, W, `deny rule ".env" is relative: it is matched under the workspace`)}},
		{"relative allow path", "rules:\n  write:\n    allow: [\"build/*\"]\n", nil},
		{"not relative: ~ and /", "rules:\n  write:\n    deny: [\"~\", \"~/x\", \"/x\"]\n", nil},

		// Paths not written as matched.
		{"trailing slash", "rules:\n  write:\n    deny: [\"~/.aws/\"]\n",
			[]expect{want(3, W, `deny rule "~/.aws/" matches only "~/.aws" itself, not what is in it: paths are matched without a trailing "/" (write "~/.aws/*"`)}},
		{"double slash", "rules:\n  write:\n    deny: [\"/tmp//x\"]\n", []expect{want(3, W, `deny rule "/tmp//x" is matched as "/tmp/x"`)}},
		{"dot-dot after a star", "rules:\n  read:\n    deny: [\"/a/*/../b\"]\n", []expect{want(3, W, `deny rule "/a/*/../b" is matched as "/a/b"`)}},
		{"a relative ./ is fine", "rules:\n  read:\n    deny: [\"./x\"]\n", []expect{want(3, W, `deny rule "./x" is relative`)}},
		{"clean paths are fine", "rules:\n  read:\n    deny: [\"/\", \"/etc/x*\", \"~/.ssh/*\"]\n", nil},

		// Assignments.
		{"assignment first", shell("    allow: [\"CI=1 make *\", \"X+=y *\"]\n"),
			[]expect{
				want(3, W, `allow rule "CI=1 make *" starts with an assignment`),
				want(3, W, `allow rule "X+=y *" starts with an assignment`),
			}},
		{"not an assignment", shell("    allow: [\"env CI=1 make *\", \"make CI=1\", \"1A=x\", \"=x\", \"A*=x\"]\n"), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFindings(t, lintLines(c.src), c.want)
		})
	}
}

// TestShadowCasesHoldInDecide shows, with Decide, that the cases the
// shadow check leaves out are real: an ask rule naming options takes
// effect on a spelling the deny rule does not match, and an allow rule
// whose literal path is a symlink takes effect on the link's target.
func TestShadowCasesHoldInDecide(t *testing.T) {
	ctx := testContext(t, AskMode)
	p := mustParse(t, "rules:\n  shell:\n    deny: [\"rm -r*\"]\n    ask: [\"rm -rf build\"]\n")
	if v := p.Decide(exec("rm", "-f", "-r", "build"), ctx); v.Decision != Ask || v.Rule == nil || v.Rule.Pattern != "rm -rf build" {
		t.Errorf("rm -f -r build: %+v, want ask by rule \"rm -rf build\"", v)
	}

	ssh := filepath.Join(ctx.Home, ".ssh")
	elsewhere := filepath.Join(ctx.Home, "elsewhere")
	for _, d := range []string{ssh, elsewhere} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(elsewhere, "cfg"), filepath.Join(ssh, "config")); err != nil {
		t.Fatal(err)
	}
	src := "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n    allow: [\"~/.ssh/config\"]\n"
	p = mustParse(t, src)
	if v := p.Decide(write(filepath.Join(elsewhere, "cfg")), ctx); v.Decision != Allow || v.Rule == nil || v.Rule.Pattern != "~/.ssh/config" {
		t.Errorf("write to the link's target: %+v, want allow by rule \"~/.ssh/config\"", v)
	}
	// Hence the caveat in the message.
	checkFindings(t, lintLines(src), []expect{want(4, SeverityWarning, `unless a symlink on the way to "~/.ssh/config" leads elsewhere`)})

	// And what is reported is real: the allow rule never decides a path
	// it names.
	if v := p.Decide(write(filepath.Join(ssh, "config")), ctx); v.Decision != Deny {
		t.Errorf("write ~/.ssh/config: %+v, want deny", v)
	}
	p = mustParse(t, "rules:\n  shell:\n    deny: [\"rm -rf *\"]\n    ask: [\"rm -rf build\"]\n")
	for _, words := range [][]string{{"rm", "-rf", "build"}, {"rm", "-f", "-r", "build"}, {"rm", "build", "-fr"}, {"rm", "-rf", Hole}} {
		if v := p.Decide(exec(words...), ctx); v.Rule == nil || v.Rule.Pattern != "rm -rf *" {
			t.Errorf("%q: %+v, want decided by the deny rule", words, v)
		}
	}
}

// TestGlobDiffBruteForce checks the inclusion test against exhaustive
// enumeration: for random short patterns over a small alphabet, a
// difference globDiff finds is matched by a and not by b, and no string
// shorter than it is; when it finds none, no string up to a length limit
// is matched by a and not by b.
func TestGlobDiffBruteForce(t *testing.T) {
	const maxLen = 6
	// Subjects may hold 'c' and '*', which no pattern writes literally.
	subjects := []string{""}
	for n, level := 0, []string{""}; n < maxLen; n++ {
		var next []string
		for _, s := range level {
			for _, c := range "ab c*" {
				next = append(next, s+string(c))
			}
		}
		subjects = append(subjects, next...)
		level = next
	}
	rng := rand.New(rand.NewPCG(1, 2))
	randPattern := func() *glob {
		var b strings.Builder
		for n := rng.IntN(6); n > 0; n-- {
			b.WriteByte("ab *"[rng.IntN(4)])
		}
		if rng.IntN(3) == 0 {
			b.WriteString(" *") // a bare shell pattern
		}
		return compileGlob(b.String(), rng.IntN(2) == 0)
	}
	pairs := 3000
	if testing.Short() {
		pairs = 300
	}
	included := 0
	for range pairs {
		a, b := randPattern(), randPattern()
		w, found := globDiff(a, b)
		if found {
			if !a.match(w) || b.match(w) {
				t.Fatalf("globDiff(%q bare=%v, %q bare=%v) = %q, which is not in a and not b", a.pat, a.bare, b.pat, b.bare, w)
			}
		} else {
			included++
		}
		for _, s := range subjects {
			if found && len(s) >= len(w) {
				break // subjects are in order of length
			}
			if a.match(s) && !b.match(s) {
				t.Fatalf("globDiff(%q bare=%v, %q bare=%v) = %q, %v; but %q is in a and not b", a.pat, a.bare, b.pat, b.bare, w, found, s)
			}
		}
	}
	if included < pairs/20 || included > pairs*19/20 {
		t.Errorf("%d of %d pairs included: the generator does not exercise both answers", included, pairs)
	}
}

// TestGlobSubset spells out cases of the inclusion test.
func TestGlobSubset(t *testing.T) {
	cases := []struct {
		a, b       string
		bareA, bar bool
		want       bool
	}{
		{"rm -rf build", "rm -rf *", true, true, true},
		{"rm -rf *", "rm -rf build", true, true, false},
		{"git", "git *", true, true, true},    // the bare rule
		{"git", "git *", true, false, false},  // without it (a path pattern)
		{"git *", "git*", true, true, true},   // "git" and "git …" both start with git
		{"git*", "git *", true, true, false},  // "gitk"
		{"*a*b*", "*b*", false, false, true},  // whatever holds a then b holds b
		{"*b*", "*a*b*", false, false, false}, // "b"
		{"a*a", "*a", false, false, true},
		{"*", "* *", false, true, true}, // "* *" also matches "*", everything
		{"*", "* * *", false, true, false},
		{"ab*", "a*b*", false, false, true},
		{"**", "*", false, false, true},
	}
	for _, c := range cases {
		a, b := compileGlob(c.a, c.bareA), compileGlob(c.b, c.bar)
		if got := globSubset(a, b); got != c.want {
			t.Errorf("globSubset(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestLintFileMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.yaml")
	fs := LintFile(path)
	if len(fs) != 1 || fs[0].Severity != SeverityError || fs[0].File != path || fs[0].Line != 0 || fs[0].Problem != "config file does not exist" {
		t.Errorf("LintFile(missing) = %v", fs)
	}
}

// TestLintShadowWarningsHoldInDecide checks that shadow warnings are true,
// end to end: for random shell policies over a few words (rm and its
// options included, which deny and ask rules also match in other
// spellings), a rule reported as never taking effect decides no command
// made of those words.
func TestLintShadowWarningsHoldInDecide(t *testing.T) {
	ctx := testContext(t, AskMode)
	vocab := []string{"rm", "-r", "-f", "-rf", "-fr", "x", ""}
	var subjects [][]string
	var grow func(prefix []string)
	grow = func(prefix []string) {
		if len(prefix) > 0 {
			subjects = append(subjects, prefix)
		}
		if len(prefix) == 4 {
			return
		}
		for _, w := range vocab {
			grow(append(append([]string(nil), prefix...), w))
		}
	}
	grow(nil)
	tokens := []string{"-r", "-f", "-rf", "x", "*"}
	rng := rand.New(rand.NewPCG(3, 4))
	pattern := func() string {
		b := []string{"rm", "*"}[rng.IntN(5)/4]
		for n := 1 + rng.IntN(3); n > 0; n-- {
			if rng.IntN(4) > 0 {
				b += " "
			}
			b += tokens[rng.IntN(len(tokens))]
		}
		return b
	}
	policies := 300
	if testing.Short() {
		policies = 20
	}
	warned := 0
	for range policies {
		var src strings.Builder
		src.WriteString("rules:\n  shell:\n")
		line := 3
		lines := map[int]string{}
		for _, d := range []string{"deny", "ask", "allow"} {
			src.WriteString("    " + d + ":\n")
			line++
			for n := rng.IntN(3); n >= 0; n-- {
				p := pattern()
				src.WriteString("      - " + strconv.Quote(p) + "\n")
				lines[line] = p
				line++
			}
		}
		p := mustParse(t, src.String())
		shadowed := map[int]bool{}
		for _, f := range Lint([]byte(src.String()), "test.yaml") {
			if strings.Contains(f.Problem, "never takes effect: ") || strings.Contains(f.Problem, "never allows anything: ") {
				shadowed[f.Line] = true
				warned++
			}
		}
		if len(shadowed) == 0 {
			continue
		}
		for _, words := range subjects {
			v := p.Decide(exec(words...), ctx)
			if v.Rule != nil && shadowed[v.Rule.Line] {
				t.Fatalf("policy:\n%s\n%q is decided by %s, reported as never taking effect", src.String(), words, v.Rule)
			}
		}
	}
	if warned < policies/10 {
		t.Errorf("only %d shadow warnings in %d policies: the generator does not exercise the check", warned, policies)
	}
}

// FuzzLint: Lint never panics, finds an error exactly when Parse fails,
// and then finds Parse's.
func FuzzLint(f *testing.F) {
	f.Add(string(defaultYAML))
	f.Add(modeTablePolicy)
	f.Add("mode: yolo\nbogus: 1\nrules:\n  shell: {allow: [1, \"a\"], deny: [\"*\"]}\n  write: {allow: [\"x/\", \"/a//b\"], deny: [\"/*\"]}\n")
	f.Add("a: &x {b: 1}\n<<: *x\n")
	f.Add("rules: {shell: &s {allow: [*s]}}\n")
	f.Fuzz(func(t *testing.T, src string) {
		_, perr := Parse([]byte(src), "f.yaml")
		var errs []Finding
		for _, fd := range Lint([]byte(src), "f.yaml") {
			if fd.Severity == SeverityError {
				errs = append(errs, fd)
			}
		}
		if (perr == nil) != (len(errs) == 0) {
			t.Fatalf("Parse error %v, Lint errors %v", perr, errs)
		}
		if perr == nil {
			return
		}
		ce := perr.(*ConfigError)
		for _, fd := range errs {
			if fd.Line == ce.Line && fd.Problem == ce.Problem {
				return
			}
		}
		t.Fatalf("Parse's error %v is not among Lint's %v", perr, errs)
	})
}
