package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindFilterOf(t *testing.T) {
	tests := []struct {
		words []string
		names []string
		whole bool
		ok    bool
	}{
		{[]string{"find", ".", "-name", "*.pyc", "-delete"}, []string{"*.pyc"}, false, true},
		{[]string{"find", ".", "-type", "d", "-name", "__pycache__", "-exec", "rm", "-rf", "{}", "+"}, []string{"__pycache__"}, true, true},
		{[]string{"find", "src", "-iname", "*.LOG", "-mtime", "+7", "-delete"}, []string{"*.LOG"}, false, true},
		// -name's value is no operator, nor is -path's.
		{[]string{"find", ".", "-path", "-o", "-name", "x", "-delete"}, []string{"x"}, false, true},
		{[]string{"find", ".", "-newermt", "-o", "-name", "x", "-delete"}, []string{"x"}, false, true},
		// An -exec's words are its command's.
		{[]string{"find", ".", "-name", "x", "-exec", "sh", "-c", "!", ";", "-delete"}, []string{"x"}, true, true},
		// What is not a plain "and" of tests, or not told now.
		{[]string{"find", ".", "-name", "*.pyc", "-o", "-delete"}, nil, false, false},
		{[]string{"find", ".", "!", "-name", "*.pyc", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-not", "-name", "*.pyc", "-delete"}, nil, false, false},
		{[]string{"find", ".", "!", "-path", "./vendor/*", "-name", "*.go", "-exec", "gofmt", "-w", "{}", ";"}, []string{"*.go"}, true, true},
		{[]string{"find", ".", "!", "!", "-name", "x", "-delete"}, nil, false, false},
		{[]string{"find", ".", "!", "(", "-name", "x", ")", "-delete"}, nil, false, false},
		{[]string{"find", ".", "(", "-name", "*.pyc", ")", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-name", "x", ",", "-delete"}, nil, false, false},
		{[]string{"find", "-L", ".", "-name", "*.pyc", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-follow", "-name", "*.pyc", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-name", "[!a]*", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-name", Hole, "-delete"}, nil, false, false},
		{[]string{"find", ".", Hole, "-name", "x", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-delete"}, nil, false, false},
		// find evaluates left to right: a test after an action does not
		// narrow it (attack run 78: `find . -delete -name zzz`).
		{[]string{"find", ".", "-delete", "-name", "zzz"}, nil, false, false},
		{[]string{"find", ".", "-exec", "rm", "-rf", "{}", "+", "-name", "zzz"}, nil, false, false},
		{[]string{"find", ".", "-name", "a", "-delete", "-name", "b"}, []string{"a"}, false, true},
		// "+" ends an -exec only right after "{}".
		{[]string{"find", ".", "-exec", "true", "+", "-name", "zzz", "{}", ";", "-delete"}, nil, false, false},
		{[]string{"find", ".", "-name"}, nil, false, false},
	}
	for _, tc := range tests {
		f, ok := findFilterOf(tc.words)
		var names []string
		for _, n := range f.names {
			names = append(names, n.glob)
		}
		if ok != tc.ok || ok && (strings.Join(names, " ") != strings.Join(tc.names, " ") || f.whole != tc.whole) {
			t.Errorf("findFilterOf(%q) = %q whole %v, %v; want %q whole %v, %v", tc.words, names, f.whole, ok, tc.names, tc.whole, tc.ok)
		}
	}
	f, _ := findFilterOf([]string{"find", ".", "-iname", "*.LOG", "-name", "a*"})
	for name, want := range map[string]bool{"a.log": true, "A.LOG": false, "b.log": false, "a.LoG": true} {
		if got := f.takes(name); got != want {
			t.Errorf("takes(%q) = %v, want %v", name, got, want)
		}
	}
}

// A find whose actions take only entries of some names reaches only the
// protected paths of such names, or below them: `find . -name '*.pyc'
// -delete` at a repository's top asked in every mode, since .git is
// protected whole, while `find . -name HEAD -delete` removes .git/HEAD.
func TestFindByNameAndProtectedPaths(t *testing.T) {
	ctx := testContext(t, Bypass)
	ws := ctx.Workspace
	for _, d := range []string{ws + "/.git/hooks", ws + "/.git/refs/heads", ws + "/src/__pycache__", ctx.Home + "/.local/state/guardsh", ws + "/lib/sub/.git/hooks"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{ws + "/.git/HEAD", ws + "/.git/hooks/pre-commit", ws + "/lib/sub/.git/hooks/post-checkout", ws + "/.git/refs/heads/feature.pyc", ws + "/src/a.pyc", ws + "/src/__pycache__/b.pyc", ctx.Home + "/.local/state/guardsh/audit.jsonl"} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx.Protected = []string{ctx.Home + "/.local/state/guardsh/audit.jsonl"}
	bypass := mustParse(t, "mode: bypass\n")
	asks := [][]string{
		{"find", ".", "-name", "HEAD", "-delete"},
		{"find", ".", "-iname", "head", "-delete"},
		{"find", ".", "-name", "pre-*", "-delete"},
		{"find", ".", "-name", "*", "-delete"},
		{"find", ".", "-name", "*.pyc", "-delete"}, // a branch named feature.pyc
		{"find", ".", "-name", "hooks", "-exec", "rm", "-rf", "{}", "+"},
		{"find", ".", "-name", ".git", "-exec", "rm", "-rf", "{}", "+"},
		{"find", ".", "-name", "x", "-o", "-delete"},
		// A nested repository's hooks, met where find meets them
		// (attack run 78).
		{"find", ".", "-name", "post-checkout", "-delete"},
		{"find", ".", "-name", "sub", "-exec", "rm", "-rf", "{}", "+"},
		{"find", ".", "-delete", "-name", "zzz"},
		{"find", ".", "-exec", "true", "+", "-name", "zzz", "{}", ";", "-delete"},
		{"find", ctx.Home, "-name", "*.jsonl", "-delete"},
		{"find", ctx.Home, "-name", "state", "-exec", "rm", "-rf", "{}", ";"},
	}
	for _, w := range asks {
		if v := bypass.Decide(exec(w...), ctx); v.Decision != Ask || v.Protected == "" {
			t.Errorf("%q in mode bypass: %v (%s), want a protected path's ask", w, v.Decision, v.Reason)
		}
	}
	if err := os.Remove(ws + "/.git/refs/heads/feature.pyc"); err != nil {
		t.Fatal(err)
	}
	runs := [][]string{
		{"find", ".", "-name", "*.pyc", "-delete"},
		{"find", ".", "-type", "d", "-name", "__pycache__", "-exec", "rm", "-rf", "{}", "+"},
		{"find", ctx.Home, "-name", "*.pyc", "-delete"},
		{"find", ".", "-name", "*.o", "-name", "*", "-delete"},
	}
	for _, w := range runs {
		if v := bypass.Decide(exec(w...), ctx); v.Decision != Allow {
			t.Errorf("%q in mode bypass: %v (%s), want it to run", w, v.Decision, v.Reason)
		}
	}
	// In mode auto, find -delete by name at the workspace's top is a
	// workspace write; at a temp directory's top it is not (others'
	// files are there), nor with a name that takes the start itself.
	auto := mustParse(t, "mode: auto\n")
	ctx.Mode = Auto
	tmp := filepath.Join(filepath.Dir(ctx.Home), "tmp")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx.TempDirs = []string{tmp}
	if v := auto.Decide(exec("find", ".", "-name", "*.pyc", "-delete"), ctx); v.Decision != Allow || v.Class != Workspace {
		t.Errorf("find . -name *.pyc -delete in mode auto: %v, class %v (%s)", v.Decision, v.Class, v.Reason)
	}
	for _, w := range [][]string{
		{"find", tmp, "-name", "*.pyc", "-delete"},
		{"find", ws, "-name", "proj", "-delete"},
	} {
		if v := auto.Decide(exec(w...), ctx); v.Class == Workspace {
			t.Errorf("%q in mode auto: a workspace write (%s)", w, v.Reason)
		}
	}
}

// A run-time part in a protected file's own name (a glob, a variable's
// value) names the protected file when the directory holds it now: in
// mode bypass `>> ~/.bashr*`, `rm -f .guardsh.yam?` and `truncate -s0
// LOGDIR/audit.js*` ran unasked (attack run 77), and `rm -rf ~/.loc*`
// removed the audit log's directory.
func TestRunTimeNamesOfProtectedFiles(t *testing.T) {
	ctx := testContext(t, Bypass)
	home, ws := ctx.Home, ctx.Workspace
	logDir := home + "/.local/state/guardsh"
	for _, d := range []string{logDir, ws + "/.vscode", ws + "/build"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{home + "/.bashrc", ws + "/.guardsh.yaml", ws + "/.vscode/tasks.json", logDir + "/audit.jsonl", ws + "/build/out.txt"} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx.Protected = []string{ws + "/.guardsh.yaml", logDir + "/audit.jsonl"}
	p := mustParse(t, "mode: bypass\n")
	// globbed marks the words with a run-time part as a glob's.
	globbed := func(s Subject) Subject {
		for i, w := range s.Words {
			if strings.Contains(w, Hole) {
				s.Glob |= 1 << i
			}
		}
		return s
	}
	asks := []Subject{
		{Kind: KindWrite, Words: []string{home + "/.bashr" + Hole}},
		{Kind: KindWrite, Words: []string{".vscode/tasks.jso" + Hole}},
		exec("sed", "-i", "s/a/b/", home+"/.bash"+Hole+"c"),
		exec("rm", "-f", home+"/.bashr"+Hole),
		exec("rm", "-f", ".guardsh.yam"+Hole),
		exec("truncate", "-s0", logDir+"/audit.js"+Hole),
		exec("rm", "-f", logDir+"/"+Hole),
		exec("rm", "-rf", home+"/.loc"+Hole),
	}
	for _, s := range asks {
		if v := p.Decide(globbed(s), ctx); v.Decision != Ask || v.Protected == "" {
			t.Errorf("%s %q: %v (%s), want a protected path's ask", s.Kind, s.Words, v.Decision, v.Reason)
		}
	}
	runs := []Subject{
		{Kind: KindWrite, Words: []string{"build/out" + Hole}},
		exec("rm", "-f", "build/"+Hole),
		exec("cat", home+"/.bashr"+Hole),
		exec("rm", "-f", home+"/.nothing"+Hole),
		// A variable's whole name may be any (a known limit).
		{Kind: KindExec, Words: []string{"rm", "-f", Hole}, Open: 1 << 2},
	}
	for _, s := range runs {
		if s.Open == 0 {
			s = globbed(s)
		}
		if v := p.Decide(s, ctx); v.Decision != Allow {
			t.Errorf("%s %q: %v (%s), want it to run", s.Kind, s.Words, v.Decision, v.Reason)
		}
	}
	// bash's * leaves names starting with "." alone: in the workspace's
	// top, `rm -f *` names no .guardsh.yaml, unless a shopt may change how
	// globs match; and matches case and all.
	star := globbed(exec("rm", "-f", Hole))
	ctx.PlainGlobs = true
	if v := p.Decide(star, ctx); v.Decision != Allow {
		t.Errorf("rm -f * under PlainGlobs: %v (%s), want it to run", v.Decision, v.Reason)
	}
	if v := p.Decide(globbed(exec("rm", "-f", "."+Hole)), ctx); v.Decision != Ask {
		t.Errorf("rm -f .* under PlainGlobs: %v (%s), want ask", v.Decision, v.Reason)
	}
	if v := p.Decide(globbed(exec("rm", "-f", home+"/.BASHR"+Hole)), ctx); v.Decision != Allow {
		t.Errorf("rm -f ~/.BASHR* under PlainGlobs: %v (%s), want it to run", v.Decision, v.Reason)
	}
	ctx.PlainGlobs = false
	if v := p.Decide(globbed(exec("rm", "-f", home+"/.BASHR"+Hole)), ctx); v.Decision != Ask {
		t.Errorf("rm -f ~/.BASHR* with nocaseglob maybe on: %v (%s), want ask", v.Decision, v.Reason)
	}
	if v := p.Decide(star, ctx); v.Decision != Ask {
		t.Errorf("rm -f * with dotglob maybe on: %v (%s), want ask", v.Decision, v.Reason)
	}
	// A bracket matches one character: `pip install .[testing]` names no
	// .git (a CI preset's false positive).
	ctx.PlainGlobs = true
	if err := os.MkdirAll(ws+"/.git", 0o755); err != nil {
		t.Fatal(err)
	}
	bracket := globbed(exec("pip", "install", "."+Hole))
	bracket.GlobPatterns = []string{"", "", ".[testing]"}
	if v := p.Decide(bracket, ctx); v.Decision != Allow {
		t.Errorf("pip install .[testing]: %v (%s), want it to run", v.Decision, v.Reason)
	}
	bracket.GlobPatterns = []string{"", "", ".[g]it"}
	if v := p.Decide(bracket, ctx); v.Decision != Ask {
		t.Errorf("pip install .[g]it: %v (%s), want ask", v.Decision, v.Reason)
	}
	// A glob that matches none of the names a directory holding the
	// audit log's holds removes nothing protected (a new CI user's `rm -rf
	// "$RUNNER_TEMP"/*.tgz` with the log in $RUNNER_TEMP/guardsh); one that
	// matches the log's directory does.
	if v := p.Decide(globbed(exec("rm", "-rf", home+"/.local/state/"+Hole+".tgz")), ctx); v.Decision != Allow {
		t.Errorf("rm -rf STATE/*.tgz: %v (%s), want it to run", v.Decision, v.Reason)
	}
	if v := p.Decide(globbed(exec("rm", "-rf", home+"/.local/state/"+Hole)), ctx); v.Decision != Ask {
		t.Errorf("rm -rf STATE/*: %v (%s), want ask", v.Decision, v.Reason)
	}
	// A protected path that is not there is not held (`rm -rf ~/.cache`
	// asked for an LLM cache guardsh never made).
	withCache := ctx
	withCache.Protected = append([]string{home + "/.cache/guardsh/llm", home + "/.cache/guardsh/llm/*"}, ctx.Protected...)
	if err := os.MkdirAll(home+"/.cache/pip", 0o755); err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(exec("rm", "-rf", home+"/.cache"), withCache); v.Decision != Allow {
		t.Errorf("rm -rf ~/.cache without guardsh's cache: %v (%s), want it to run", v.Decision, v.Reason)
	}
	if err := os.MkdirAll(home+"/.cache/guardsh/llm", 0o755); err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(exec("rm", "-rf", home+"/.cache"), withCache); v.Decision != Ask {
		t.Errorf("rm -rf ~/.cache with guardsh's cache: %v (%s), want ask", v.Decision, v.Reason)
	}
	// A process substitution's name (/dev/fd/N) is no glob.
	if v := p.Decide(exec("bash", Hole, "-X"), ctx); v.Protected != "" {
		t.Errorf("bash <(…): %v (%s), want no protected path", v.Decision, v.Reason)
	}
}

// find -exec rm -rf {} + of names is what -delete of them is: in mode
// auto a workspace write (the find and the rm it runs), and what find
// gives the rm lies below its start path (a new user's `find pypkg -type d
// -name __pycache__ -exec rm -rf {} +` asked twice: for the find, and for
// `rm -rf {}` as if {} could be /).
func TestFindExecRemove(t *testing.T) {
	ctx := testContext(t, Auto)
	ws := ctx.Workspace
	for _, d := range []string{ws + "/.git/hooks", ws + "/src/__pycache__"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := mustParse(t, "mode: auto\n")
	for _, tc := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"find", ".", "-type", "d", "-name", "__pycache__", "-exec", "rm", "-rf", "{}", "+"}, Allow},
		{[]string{"find", "src", "-name", "*.pyc", "-exec", "rm", "-f", "{}", ";"}, Allow},
		{[]string{"find", ".", "-name", "hooks", "-exec", "rm", "-rf", "{}", "+"}, Ask},
		{[]string{"find", ".", "-exec", "rm", "-rf", "{}", "+"}, Ask},
		{[]string{"find", ".", "-name", "x", "-exec", "rm", "-rf", "{}", "/", "+"}, Ask},
		{[]string{"find", ".", "-name", "x", "-exec", "sh", "-c", "rm {}", ";"}, Ask},
	} {
		if v := p.Decide(exec(tc.words...), ctx); v.Decision != tc.want {
			t.Errorf("%q: %v (%s), want %v", tc.words, v.Decision, v.Reason, tc.want)
		}
	}
	// The rm find runs: a path below the start path (Subject.Found).
	for _, tc := range []struct {
		word string
		want Decision
	}{
		{"./" + Hole, Allow},
		{"src/" + Hole, Allow},
		{ws + "/" + Hole, Ask}, // the workspace's top itself, found first
		{"/" + Hole, Ask},
		{".git/" + Hole, Ask},
	} {
		s := exec("rm", "-rf", tc.word)
		s.Found = 1 << 2
		if v := p.Decide(s, ctx); v.Decision != tc.want {
			t.Errorf("rm -rf %q of find: %v (%s), want %v", tc.word, v.Decision, v.Reason, tc.want)
		}
	}
	// A found path is one argument: a deny rule that needs a word of its
	// own ("/") cannot match what lies below the start path (a new
	// user's find . -name __pycache__ -exec rm -rf {} + asked for
	// "rm * / *"), while one that names a path below it still could.
	denies := mustParse(t, "mode: auto\nrules:\n  shell:\n    deny: [\"rm * / *\", \"rm * ~ *\"]\n")
	below := mustParse(t, "mode: auto\nrules:\n  shell:\n    deny: [\"rm -rf ./src/*\"]\n")
	for _, tc := range []struct {
		p     *Policy
		word  string
		found bool
		want  Decision
	}{
		{denies, "./" + Hole, true, Allow},
		{denies, "./" + Hole, false, Ask}, // any run-time word: could be "x / y"
		{denies, "docs/" + Hole, true, Allow},
		{below, "./" + Hole, true, Ask}, // could be ./src/x
	} {
		s := exec("rm", "-rf", tc.word)
		if tc.found {
			s.Found = 1 << 2
		}
		if v := tc.p.Decide(s, ctx); v.Decision != tc.want {
			t.Errorf("rm -rf %q (found %v): %v (%s), want %v", tc.word, tc.found, v.Decision, v.Reason, tc.want)
		}
	}
	// sed -i replaces the file it is given, a link too, as rm removes
	// it: a found path below a workspace directory is a workspace write
	// (a new user's find src -name '*.py' -exec sed -i … {} + asked),
	// unless --follow-symlinks (or an abbreviation) makes it write where
	// a link leads.
	for _, tc := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"sed", "-i", "s/a/b/g", "src/" + Hole}, Allow},
		{[]string{"sed", "-i", "--follow-symlinks", "s/a/b/g", "src/" + Hole}, Ask},
		{[]string{"sed", "-i", "--fol", "s/a/b/g", "src/" + Hole}, Ask},
		{[]string{"sed", "-i", "s/a/b/g", ".git/" + Hole}, Ask},
	} {
		s := exec(tc.words...)
		s.Found = 1 << (len(tc.words) - 1)
		if v := p.Decide(s, ctx); v.Decision != tc.want {
			t.Errorf("%q of find: %v (%s), want %v", tc.words, v.Decision, v.Reason, tc.want)
		}
	}
	if v := denies.Decide(exec("find", ".", "-name", "__pycache__", "-exec", "rm", "-rf", "{}", "+"), ctx); v.Decision != Allow {
		t.Errorf("find's own segment: %v (%s)", v.Decision, v.Reason)
	}
}

// find -delete of names reads nothing, and the values of its name and
// path tests are patterns, not files: a .env beside `find . -name '*.pyc'
// -delete`, and `-not -path './.git/*'`, made a new user's cleaning ask.
// A find that runs a reader on the .env still asks.
func TestFindByNameReadsNothing(t *testing.T) {
	ctx := testContext(t, Auto)
	ws := ctx.Workspace
	if err := os.MkdirAll(ws+"/.git/hooks", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ws+"/.env", []byte("SECRET=x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "mode: auto\n")
	for _, tc := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"find", ".", "-name", "*.pyc", "-delete"}, Allow},
		{[]string{"find", ".", "-name", "*.pyc", "-not", "-path", "./.git/*", "-delete"}, Allow},
		{[]string{"find", ".", "-name", ".env", "-exec", "cat", "{}", "+"}, Ask},
	} {
		if v := Default().Decide(exec(tc.words...), ctx); tc.want == Ask && v.Decision != Ask {
			t.Errorf("default policy: %q: %v (%s), want ask", tc.words, v.Decision, v.Reason)
		}
		if v := p.Decide(exec(tc.words...), ctx); v.Decision != tc.want {
			t.Errorf("%q: %v (%s), want %v", tc.words, v.Decision, v.Reason, tc.want)
		}
	}
}
