package interp

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// output is a file the session writes to directly, as a terminal would
// be: what a command printed is there when Run returns.
type output struct{ f *os.File }

func (o output) String() string {
	b, _ := os.ReadFile(o.f.Name())
	return string(b)
}

func (o output) Reset() { _ = o.f.Truncate(0); _, _ = o.f.Seek(0, 0) }

// newSession starts a session on the real bash with output into out.
func newSession(t *testing.T) (*Session, output) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { devNull.Close() })
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	env := append(os.Environ(), "PS1=start$ ")
	r := Run{Shell: bash, Arg0: "bash", Env: env, Stdin: devNull, Stdout: f, Stderr: f}
	s, err := r.StartSession([]string{"mysh", "one", "two"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); s.Wait() })
	return s, output{f}
}

func TestSessionKeepsStateAcrossCommands(t *testing.T) {
	s, out := newSession(t)
	dir := t.TempDir()
	steps := []struct {
		text   string
		status int
	}{
		{"cd " + Quote(dir), 0},
		{"greet() { echo \"hi $1\"; }", 0},
		{"x=41; alias ll='echo aliased'", 0},
		{"greet there; echo $((x+1)) $0 $1 $2 $-", 0},
		{"ll; false", 1},
		{"echo status $?", 0},
		{"set -x; (exit 7)", 7},
		{"echo traced; set +x", 0},
	}
	for _, st := range steps {
		rep, err := s.Run(st.text)
		if err != nil {
			t.Fatalf("Run(%q): %v", st.text, err)
		}
		if rep.Status != st.status {
			t.Errorf("Run(%q): status %d, want %d", st.text, rep.Status, st.status)
		}
	}
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(s.Pid()), "cwd"))
	if err != nil || cwd != dir {
		t.Errorf("the shell's directory: %q %v, want %q", cwd, err, dir)
	}
	got := out.String()
	for _, want := range []string{"hi there\n", "42 mysh one two ", "aliased\n", "status 1\n", "+ echo traced\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// The commands saw an interactive shell with history expansion off.
	_, flags, _ := strings.Cut(got, "42 mysh one two ")
	flags, _, _ = strings.Cut(flags, "\n")
	if !strings.Contains(flags, "i") || strings.Contains(flags, "H") {
		t.Errorf("$- is %q, want i and no H", flags)
	}
	// guardsh's own lines never show, even traced.
	for _, leak := range []string{"guardsh_", "__guardsh", "builtin"} {
		if strings.Contains(got, leak) {
			t.Errorf("output shows guardsh's own lines (%q):\n%s", leak, got)
		}
	}
}

func TestSessionReportsPrompts(t *testing.T) {
	s, out := newSession(t)
	rep, err := s.Run(`PS1='[$?] \$ '; PS2='more> '; PROMPT_COMMAND=('echo one' 'echo two')`)
	if err != nil {
		t.Fatal(err)
	}
	if rep.PS1 != `[$?] \$ ` || rep.PS2 != "more> " || strings.Join(rep.PromptCommand, "|") != "echo one|echo two" {
		t.Errorf("report %+v", rep)
	}
	rep, err = s.Run("(exit 3)")
	if err != nil || rep.Status != 3 {
		t.Fatalf("status %d %v", rep.Status, err)
	}
	if _, err := s.RunPromptCommand(rep.PromptCommand, rep.Status); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "one\ntwo\n") {
		t.Errorf("prompt commands did not run: %q", out.String())
	}
	// What is expanded is the value given, not the shell's PS1.
	p1, p2, err := s.ExpandPrompts(`[$?] $(echo sub) \$ `, "> ", rep.Status)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[3] sub # "; os.Geteuid() != 0 {
		want = "[3] sub $ "
		if p1 != want {
			t.Errorf("PS1 expands to %q, want %q", p1, want)
		}
	} else if p1 != want {
		t.Errorf("PS1 expands to %q, want %q", p1, want)
	}
	if p2 != "> " {
		t.Errorf("PS2 %q", p2)
	}
	// $? is back for the next command.
	out.Reset()
	if _, err := s.Run("echo after $?"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "after 3\n") {
		t.Errorf("$? after the prompt: %q", out.String())
	}
}

// A command that writes to the report pipe cannot pass for the report.
func TestSessionIgnoresForgedReports(t *testing.T) {
	s, _ := newSession(t)
	rep, err := s.Run(`printf '%s\0' guardsh_x 0 himB 'forged' '' 0 guardsh_x_end >&4; PS1=real; (exit 5)`)
	if err != nil {
		t.Fatal(err)
	}
	if rep.PS1 != "real" || rep.Status != 5 {
		t.Errorf("report %+v, want PS1 real, status 5", rep)
	}
}

func TestSessionEnds(t *testing.T) {
	s, _ := newSession(t)
	if _, err := s.Run("sleep 30 >/dev/null 2>&1 & exit 4"); !errors.Is(err, ErrSessionEnded) {
		t.Fatalf("Run(exit): %v, want ErrSessionEnded", err)
	}
	if status, err := s.Wait(); status != 4 || err != nil {
		t.Errorf("Wait: %d %v, want 4", status, err)
	}
}

func TestPromptText(t *testing.T) {
	for ps, want := range map[string][]string{
		`\u@\h:\w\$ `:                           {":"},
		`[$?] $(git branch --show-current) \$ `: {"git branch --show-current", ":"},
		`\044(touch pwned)`:                     {"touch pwned", ":"},
		"\\140touch b\\140":                     {"touch b", ":"},
		`\e[32m\u@\h\e[0m:\w\$ `:                {":"},
		`$(: \ntouch n1)`:                       {":", "touch n1", ":"},
		`{"exit_code": "$?", "working_dir": "$(pwd)", "py": "$(command -v python || echo '')"}`: {"pwd", "command -v python", "echo ", ":"},
		`\$(touch c) \\`:        {":"},
		"GUARDSH_PROMPT\n$(id)": {"id", ":"},
	} {
		text, ok := PromptText(ps)
		if !ok {
			t.Errorf("PromptText(%q) refused", ps)
			continue
		}
		segs, err := Analyze(text, Options{})
		if err != nil {
			t.Errorf("PromptText(%q): %v", ps, err)
			continue
		}
		var got []string
		for _, s := range segs {
			if s.Kind == Exec {
				var words []string
				for _, w := range s.Args {
					words = append(words, w.Value)
				}
				got = append(got, strings.Join(words, " "))
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("PromptText(%q) runs %q, want %q", ps, got, want)
		}
	}
}

func TestDefinedFunctions(t *testing.T) {
	funcs := map[string]string{"old": "{ :; }", "gone": "{ :; }", "keep": "{ echo; }"}
	text := "cd /tmp && greet() { echo hi; }\nouter() { inner() { :; }; }\nif x; then two() { a; }; else two() { b; }; fi\nunset -f old\nnotrun() { :; }"
	segs, err := Analyze(text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{"greet": true, "outer": true, "two": true, "keep": true, "old": true, "inner": true, "fromfile": true}
	DefinedFunctions(text, segs, map[string]string{"fromfile": "{ id; }", "greet": "{ other; }"}, defined, funcs)
	// greet is defined by the text and by a sourced file: which ran last
	// is not known, so it is dropped.
	// gone is not defined any more, though nothing in the text removed
	// it: its body is not known.
	want := map[string]string{"outer": "{ inner() { :; }; }", "keep": "{ echo; }", "fromfile": "{ id; }", "gone": Hole}
	if len(funcs) != len(want) {
		t.Errorf("functions %q, want %q", funcs, want)
	}
	for name, body := range want {
		if funcs[name] != body {
			t.Errorf("%s: %q, want %q (all: %q)", name, funcs[name], body, funcs)
		}
	}
	// A call of a carried function is analysed into its body.
	segs, err = Analyze("outer", Options{Functions: funcs})
	if err != nil || len(segs) != 2 || !segs[0].Function {
		t.Errorf("call: %v %v", segs, err)
	}
}

// With expand_aliases kept on, a top-level word naming a session alias is
// only read expanded; a payload parsed at run time (eval, bash -c) or a
// quoted word is read as written.
func TestAliasesOn(t *testing.T) {
	opt := Options{Aliases: map[string]string{"ll": "ls -l"}, AliasesOn: true}
	for text, want := range map[string][]bool{
		"ll x":           {true, false},
		`\ll x`:          {false},
		"eval ll":        {false, false, false},
		"bash -c ll":     {false, false, false},
		"f() { ll; }":    {true, false},
		"true && ll | x": {false, true, false, false},
	} {
		segs, err := Analyze(text, opt)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		var got []bool
		for _, s := range segs {
			got = append(got, s.Aliased)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d segments %v, want %v", text, len(got), renderRuns(segs), want)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: Aliased %v, want %v (%v)", text, got, want, renderRuns(segs))
				break
			}
		}
	}
}

// A session learns the functions a sourced file defines.
func TestSourcedFunctions(t *testing.T) {
	dir := t.TempDir()
	rc := filepath.Join(dir, "rc")
	if err := os.WriteFile(rc, []byte("hello() { echo \"hello $1\"; }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	if _, err := Analyze(". "+rc, Options{SourcedFunctions: out}); err != nil {
		t.Fatal(err)
	}
	if out["hello"] == "" {
		t.Fatalf("sourced functions %q", out)
	}
	segs, err := Analyze("hello you", Options{Functions: out})
	if err != nil || len(segs) != 2 || !segs[0].Function || segs[1].Args[0].Value != "echo" {
		t.Errorf("call: %v %v", renderRuns(segs), err)
	}
}

// An escape whose value is only known when the prompt is shown cannot
// stand inside an expansion: a directory named "(touch m)" after "$"
// makes "$(touch m)", and strftime's %n a newline.
func TestPromptTextRefusesValuesInExpansions(t *testing.T) {
	for _, ps := range []string{`$\W`, `$(: \D{%n}touch d1)`, `$(echo \w)`, "`echo \\u`", `${x:-\h}`, `$((\#))`, `\044\W`} {
		if text, ok := PromptText(ps); ok {
			t.Errorf("PromptText(%q) = %q, want a refusal", ps, text)
		}
	}
}

func TestLessSecure(t *testing.T) {
	if got := LessSecure([]string{"A=1"}); strings.Join(got, " ") != "A=1 LESSSECURE=1" {
		t.Errorf("LessSecure: %q", got)
	}
	if got := LessSecure([]string{"LESSSECURE=0"}); strings.Join(got, " ") != "LESSSECURE=0" {
		t.Errorf("a user's setting is kept: %q", got)
	}
}

// guardsh's own variables are named anew each time: a readonly variable
// of an old name changes neither the prompt expanded nor the status.
func TestSessionReadonlyNames(t *testing.T) {
	s, _ := newSession(t)
	marker := filepath.Join(t.TempDir(), "ran")
	for _, v := range []string{"__guardsh_p1", "__guardsh_p2", "__guardsh_s", "__guardsh_f"} {
		if _, err := s.Run(v + "='$(touch " + marker + ")'; readonly " + v); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := s.Run("readonly CDPATH=/tmp; (exit 3)")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != 3 || rep.CDPATH != "/tmp" {
		t.Errorf("report %+v, want status 3 and the readonly CDPATH", rep)
	}
	p1, _, err := s.ExpandPrompts("safe> ", "> ", rep.Status)
	if err != nil || p1 != "safe> " {
		t.Errorf("prompt %q %v", p1, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a readonly variable's code ran")
	}
	rep, err = s.Run("sleep 5 & (exit 4)")
	if err != nil || rep.Jobs != 1 || rep.Status != 4 {
		t.Errorf("report %+v %v, want 1 running job", rep, err)
	}
}

// In a session, a trap's action and command_not_found_handle are parsed
// again when they run, with later aliases and files: they ask (or are not
// understood) there, and are analysed as before elsewhere.
func TestSessionLateParsedCode(t *testing.T) {
	segs, err := Analyze("trap 'ls' ERR", Options{Session: true})
	if err != nil || !segs[0].RunsCode {
		t.Errorf("trap in a session: %v %v, want RunsCode", renderRuns(segs), err)
	}
	if segs, err := Analyze("trap - ERR; trap -p", Options{Session: true}); err != nil || segs[0].RunsCode || segs[1].RunsCode {
		t.Errorf("trap reset and listing: %v %v", renderRuns(segs), err)
	}
	if segs, err := Analyze("trap 'ls' ERR", Options{}); err != nil || segs[0].RunsCode {
		t.Errorf("trap outside a session: %v %v", renderRuns(segs), err)
	}
	if _, err := Analyze("command_not_found_handle() { . ./f.sh; }", Options{Session: true}); err == nil {
		t.Error("command_not_found_handle in a session is understood")
	}
}
