package interp

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDirectArgv(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // nil: not direct
	}{
		{"ls src", []string{"ls", "src"}},
		{"ls -la src/\n", []string{"ls", "-la", "src/"}},
		{"  git log --oneline -n 5;", []string{"git", "log", "--oneline", "-n", "5"}},
		{"git commit -m 'a $b `c` \\d'", []string{"git", "commit", "-m", "a $b `c` \\d"}},
		{`grep "two words" a.txt`, []string{"grep", "two words", "a.txt"}},
		{`x"y"'z' a=b:c,d@e%f+g`, []string{"xyz", "a=b:c,d@e%f+g"}},
		{"./gradlew build # comment", []string{"./gradlew", "build"}},
		{"/usr/bin/env", []string{"/usr/bin/env"}},
		// Expansions, globs, escapes: bash would change the words.
		{"ls $HOME", nil},
		{`ls "$HOME"`, nil},
		{"ls *.go", nil},
		{"ls src?", nil},
		{"ls [ab]", nil},
		{"ls ~", nil},
		{"ls a=~/x", nil},
		{"ls {a,b}", nil},
		{`ls a\ b`, nil},
		{`ls "a\"b"`, nil},
		{"ls $'a'", nil},
		{`ls $"a"`, nil},
		{"ls `pwd`", nil},
		{"ls $(pwd)", nil},
		{"ls !x", nil},
		// Not one simple command bash execs in place.
		{"ls > out", nil},
		{"ls 2>&1", nil},
		{"A=1 ls", nil},
		{"! ls", nil},
		{"ls &", nil},
		{"ls | wc", nil},
		{"ls && pwd", nil},
		{"ls; pwd", nil},
		{"ls\n\n", nil},
		{"ls\n# later", nil},
		{"# first\nls", nil},
		{"time ls", nil},
		{"(ls)", nil},
		{"{ ls; }", nil},
		{"ls (", nil},
		{"ls\r", nil},
		// Builtins and reserved words are not programs.
		{"echo hi", nil},
		{"cd /", nil},
		{"test -f x", nil},
		{"[ -f x ]", nil},
		{"kill 1", nil},
		{"printf x", nil},
		{"exec ls", nil},
		{"command ls", nil},
		{"true", nil},
		{"''", nil},
		{"'echo' hi", nil},
	} {
		got, ok := DirectArgv(c.text)
		if ok != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("DirectArgv(%q) = %q, %v; want %q", c.text, got, ok, c.want)
		}
	}
}

// TestDirectBuiltinsAreBash checks the builtin and reserved-word lists
// against the bash on this machine: a builtin missing from the list would
// be run as a program of the same name instead.
func TestDirectBuiltinsAreBash(t *testing.T) {
	bash := needBash(t)
	for flag, set := range map[string]map[string]bool{"-b": bashBuiltins, "-k": bashKeywords} {
		out, err := exec.Command(bash, "-c", "compgen "+flag).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range strings.Fields(string(out)) {
			if !set[name] {
				t.Errorf("bash's compgen %s lists %q, which the fast path does not know", flag, name)
			}
		}
	}
}

// TestDirectVariablesAreBash checks that every variable a fresh bash
// defines is either one DirectEnv handles, passes through unchanged (and
// TestDirectEnvMatchesBash checks), or makes it give up.
func TestDirectVariablesAreBash(t *testing.T) {
	bash := needBash(t)
	cmd := exec.Command(bash, "-c", "compgen -v")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	known := setOf("PATH PWD OLDPWD SHLVL _ HOSTNAME HOSTTYPE MACHTYPE OSTYPE SHELL TERM")
	for _, name := range strings.Fields(string(out)) {
		if !known[name] && !bashOwnVariables[name] && !strings.HasPrefix(name, "BASH") {
			t.Errorf("bash defines %s, which DirectEnv neither handles nor refuses", name)
		}
	}
}

func needBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	return bash
}

// collide returns n variable names that fall into the same bucket of
// bash's variable table as name.
func collide(name string, n int) []string {
	var out []string
	want := bashHash(name) % bashBuckets
	for i := 0; len(out) < n; i++ {
		v := fmt.Sprintf("V%d", i)
		if bashHash(v)%bashBuckets == want && v != name {
			out = append(out, v)
		}
	}
	return out
}

// TestDirectEnvMatchesBash runs `bash -c 'probe'` (probe: a copy of env
// found on PATH) with many environments and requires DirectEnv's answer to
// be exactly what the program received from bash: the same entries in the
// same order, _ and the PATH lookup included. Environments DirectEnv
// refuses are listed and must include the ones it is meant to refuse.
func TestDirectEnvMatchesBash(t *testing.T) {
	bash := needBash(t)
	envProg, err := exec.LookPath("env")
	if err != nil {
		t.Skip("no env")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	other := filepath.Join(dir, "other")
	for _, d := range []string{bin, other, filepath.Join(dir, "sub"), filepath.Join(bin, "isdir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(envProg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(bin, "probe"), filepath.Join(other, "isdir"), filepath.Join(dir, "sub", "probe")} {
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A file that is not executable earlier on PATH: bash would fail
	// with 126 on it, so the fast path must not be taken.
	if err := os.WriteFile(filepath.Join(other, "noexec"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "noexec"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "probe"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	cwd := dir
	path := other + ":" + bin + ":/usr/bin:/bin"
	base := []string{"HOME=/home/u", "PATH=" + path, "LANG=C.UTF-8", "TERM=xterm"}
	with := func(extra ...string) []string { return append(slices.Clone(base), extra...) }
	pwdCollisions := collide("PWD", 2)
	shlvlCollisions := collide("SHLVL", 2)
	pair := collide("FOO", 3)
	cases := []struct {
		name string
		text string
		env  []string
		want bool // the fast path is expected to be taken
	}{
		{"plain", "probe", base, true},
		{"arguments", "probe -0", base, true},
		{"empty", "probe", []string{"PATH=" + path}, true},
		{"PWD right", "probe", with("PWD=" + cwd), true},
		{"PWD with dot-dot", "probe", with("PWD=" + cwd + "/../" + filepath.Base(cwd)), true},
		{"PWD wrong", "probe", with("PWD=/"), true},
		{"PWD relative", "probe", with("PWD=."), true},
		{"OLDPWD a directory", "probe", with("OLDPWD=/tmp"), true},
		{"OLDPWD not a directory", "probe", with("OLDPWD=/nonexistent"), true},
		{"OLDPWD empty", "probe", with("OLDPWD="), true},
		{"SHLVL 1", "probe", with("SHLVL=1"), true},
		{"SHLVL 07", "probe", with("SHLVL=07"), true},
		{"SHLVL 998", "probe", with("SHLVL=998"), true},
		{"SHLVL empty", "probe", with("SHLVL="), true},
		{"underscore", "probe", with("_=/bin/sh"), true},
		{"names that are not variables", "probe", with("a-b=1", "x.y=2", "1a=3"), true},
		{"collisions with PWD", "probe", with(pwdCollisions[0]+"=1", pwdCollisions[1]+"=2"), true},
		{"collisions with SHLVL", "probe", with(shlvlCollisions[0]+"=1", "SHLVL=4", shlvlCollisions[1]+"=2"), true},
		{"collisions among themselves", "probe", with(pair[2]+"=3", pair[0]+"=1", "FOO=0", pair[1]+"=2"), true},
		{"values with spaces and newlines", "probe", with("X=a b", "Y=line1\nline2", "Z="), true},
		{"empty PATH entry", "probe", []string{"PATH=:" + path}, true},
		{"PATH entry dot", "probe", []string{"PATH=.:" + path}, true},
		{"relative PATH entry", "probe", []string{"PATH=sub:" + path}, true},
		{"PATH entry with a tilde", "probe", []string{"PATH=~/bin:" + path}, false},
		{"PATH entry with a slash at the end", "probe", []string{"PATH=" + bin + "/:/usr/bin"}, true},
		{"directory of the same name skipped", "isdir", base, true},
		{"name with a slash", filepath.Join(dir, "sub", "probe"), base, true},
		{"relative name with a slash", "./probe", base, true},
		{"not executable first, executable later", "noexec", base, true},
		{"only not executable", "noexec", []string{"PATH=" + other}, false},
		{"not found", "nonexistent-program", base, false},
		{"PATH unset", filepath.Join(bin, "probe"), []string{"HOME=/"}, false},
		{"IFS", "probe", with("IFS=:"), false},
		{"POSIXLY_CORRECT", "probe", with("POSIXLY_CORRECT=1"), false},
		{"EXECIGNORE", "probe", with("EXECIGNORE=*"), false},
		{"BASH_COMPAT", "probe", with("BASH_COMPAT=50"), false},
		{"LC_ALL unknown", "probe", with("LC_ALL=xx_YY"), false},
		{"LC_ALL C", "probe", with("LC_ALL=C"), true},
		{"SHLVL 999", "probe", with("SHLVL=999"), false},
		{"SHLVL text", "probe", with("SHLVL=abc"), false},
		{"PS1", "probe", with("PS1=$ "), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			argv, ok := DirectArgv(c.text)
			if !ok {
				t.Fatalf("DirectArgv(%q) refused", c.text)
			}
			pathValue := ""
			for _, kv := range c.env {
				if v, isPath := strings.CutPrefix(kv, "PATH="); isPath {
					pathValue = v
				}
			}
			prog, ok := DirectPath(argv[0], pathValue)
			var want []string
			if ok {
				want, ok = DirectEnv(c.env, prog)
			}
			if ok != c.want {
				t.Fatalf("fast path taken: %v, want %v (prog %q)", ok, c.want, prog)
			}
			if !ok {
				return
			}
			cmd := exec.Command(bash, "-c", c.text+" -0")
			if len(argv) > 1 {
				cmd = exec.Command(bash, "-c", c.text)
			}
			cmd.Env = c.env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v: %s", err, stderr.String())
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			if !slices.Equal(got, want) {
				t.Errorf("env from bash:\n%q\nDirectEnv:\n%q", got, want)
			}
		})
	}
}

// TestDirectRun runs Run.Direct: exit statuses as Command reports them,
// and nothing run where bash is wanted: an unknown program, a builtin, a
// file the kernel cannot exec (bash would run it as a script), a
// configured shell that is a wrapper script rather than bash, or bash run
// as sh.
func TestDirectRun(t *testing.T) {
	bash := needBash(t)
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "bash")
	noMagic := filepath.Join(dir, "nomagic")
	for p, text := range map[string]string{wrapper: "#!/bin/sh\nexec " + bash + " \"$@\"\n", noMagic: "echo run by bash\n"} {
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		shell, arg0, text string
		status            int
		ran               bool
	}{
		{bash, "bash", "/bin/sh -c 'exit 3'", 3, true},
		{bash, "", "/bin/sh -c 'kill -TERM $$'", 128 + 15, true},
		{bash, "/usr/local/bin/guardsh", "/bin/sh -c 'exit 3'", 3, true},
		{bash, "bash", "nonexistent-program-x", 0, false},
		{bash, "bash", "echo hi", 0, false},
		{bash, "bash", noMagic, 0, false},
		{wrapper, "bash", "/bin/sh -c 'exit 3'", 0, false},
		// Run as sh, bash is in POSIX mode.
		{bash, "sh", "/bin/sh -c 'exit 3'", 0, false},
		{bash, "/bin/sh", "/bin/sh -c 'exit 3'", 0, false},
	} {
		var out bytes.Buffer
		r := Run{Shell: c.shell, Arg0: c.arg0, Env: []string{"PATH=/usr/bin:/bin"}, Stdout: &out, Stderr: &out}
		status, ran, err := r.Direct(c.text)
		if err != nil || status != c.status || ran != c.ran {
			t.Errorf("shell %s: Direct(%q) = %d, %v, %v; want %d, %v", c.shell, c.text, status, ran, err, c.status, c.ran)
		}
		if !c.ran && out.Len() > 0 {
			t.Errorf("Direct(%q) printed %q but reports that nothing ran", c.text, out.String())
		}
	}
}

// TestDirectArgvIsAnalysed requires, for every corpus command the fast path
// accepts, that what it would run is exactly the first segment the analysis
// decides on: the same argv, with nothing only known at run time, and no
// assignment or redirection beside it.
func TestDirectArgvIsAnalysed(t *testing.T) {
	n := 0
	for _, file := range []string{"agent-commands.jsonl", "bypass-commands.jsonl", "invocations.jsonl"} {
		for _, src := range corpus(t, file) {
			argv, ok := DirectArgv(src)
			if !ok {
				continue
			}
			n++
			segs, err := Analyze(src, Options{Home: "/home/user"})
			if err != nil || len(segs) == 0 {
				t.Errorf("%q: the fast path takes it but the analysis gives %v, %v", src, segs, err)
				continue
			}
			s := segs[0]
			var args []string
			for _, w := range s.Args {
				if w.Dynamic() {
					t.Errorf("%q: the analysis sees a run-time word %q", src, w.Value)
				}
				args = append(args, w.Value)
			}
			if s.Kind != Exec || len(s.Assigns) > 0 || !slices.Equal(args, argv) {
				t.Errorf("%q: the fast path runs %q, the analysis decides %s %q (assigns %v)", src, argv, s.Kind, args, s.Assigns)
			}
			for _, o := range segs[1:] {
				if o.Kind != Exec || !s.Nested {
					t.Errorf("%q: the analysis sees a %s segment %q beside the one command", src, o.Kind, o.Args)
				}
			}
		}
	}
	t.Logf("%d corpus commands take the fast path's parse", n)
	if n < 300 {
		t.Errorf("only %d corpus commands take the fast path's parse", n)
	}
}

// FuzzDirectArgv: whatever text the fast path accepts, the analysis's first
// segment is the same argv with no run-time word.
func FuzzDirectArgv(f *testing.F) {
	for _, s := range []string{"ls src", `git commit -m "a b" 'c$d'`, "a=b c", "ls -la\n", "x'y'\"z\" -- +@%^:,."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		argv, ok := DirectArgv(src)
		if !ok {
			return
		}
		segs, err := Analyze(src, Options{Home: "/home/user"})
		if err != nil || len(segs) == 0 || segs[0].Kind != Exec || len(segs[0].Assigns) > 0 {
			t.Fatalf("%q: fast path %q, analysis %v %v", src, argv, segs, err)
		}
		var args []string
		for _, w := range segs[0].Args {
			if w.Dynamic() {
				t.Fatalf("%q: run-time word %q", src, w.Value)
			}
			args = append(args, w.Value)
		}
		if !slices.Equal(args, argv) {
			t.Fatalf("%q: fast path runs %q, analysis decides %q", src, argv, args)
		}
	})
}

// BenchmarkDirectPrepare is what the fast path costs before it starts the
// program: parse, PATH lookup and bash's environment, for `ls -la src` in
// this process's environment.
func BenchmarkDirectPrepare(b *testing.B) {
	env := os.Environ()
	path := os.Getenv("PATH")
	for b.Loop() {
		argv, ok := DirectArgv("ls -la src")
		if !ok {
			b.Fatal("not direct")
		}
		prog, ok := DirectPath(argv[0], path)
		if !ok {
			b.Skip("no ls on PATH")
		}
		if _, ok := DirectEnv(env, prog); !ok {
			b.Skip("this environment goes to bash")
		}
	}
}

// The fast path is bash's own: not under a restricted bash's name, not
// for a program named bash that is not the system's.
func TestDirectOnlySystemBash(t *testing.T) {
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "bash")
	self, err := os.ReadFile("/bin/bash")
	if err != nil {
		t.Skip("no /bin/bash")
	}
	if err := os.WriteFile(wrapper, self, 0o755); err != nil {
		t.Fatal(err)
	}
	if isBash(wrapper) {
		t.Error("a copy of bash elsewhere counts as the system's bash")
	}
	if !isBash("/bin/bash") {
		t.Error("/bin/bash does not count")
	}
	r := Run{Shell: "/bin/bash", Arg0: "rbash", Env: []string{"PATH=/usr/bin:/bin"}}
	if _, ran, _ := r.Direct("/usr/bin/true"); ran {
		t.Error("the fast path ran under rbash")
	}
}
