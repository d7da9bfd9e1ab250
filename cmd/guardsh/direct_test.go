package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/interp"
)

// directAll runs TestDirectCorpus on every case of the agent command sample
// (about 400 take the fast path; a minute here) instead of every 16th.
var directAll = flag.Bool("direct.all", false, "TestDirectCorpus: run every agent command, not every 16th")

// directCase is one command text run both ways.
type directCase struct {
	name string
	argv []string // guardsh's arguments (bash's are the same)
}

// directWorld is a workspace where every program the cases name is a stub
// that prints its $0 and arguments and, with /usr/bin/env, the environment
// it received; PATH holds only the stubs, so nothing real runs. guardsh
// runs under strace, which tells whether it started bash (bashStarted).
type directWorld struct {
	root, work, bash, self string
	env                    []string
	strace, link, trace    string
}

func newDirectWorld(t *testing.T, names []string) *directWorld {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("no strace: the test cannot tell whether guardsh started bash")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w := &directWorld{root: root, work: filepath.Join(root, "work"), bash: bash, self: self,
		strace: strace, link: filepath.Join(root, "gs", "bash"), trace: filepath.Join(root, "trace")}
	stubs := filepath.Join(root, "stubs")
	for _, d := range []string{stubs, w.work, filepath.Dir(w.link)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The test binary acts as guardsh when run as "bash" (TestMain).
	if err := os.Symlink(self, w.link); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\nprintf '[%s]\\n' \"$0\" \"$@\"\nexec /usr/bin/env\n"
	for _, name := range names {
		p := filepath.Join(stubs, name)
		if strings.Contains(name, "/") {
			p = filepath.Join(w.work, name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.config(t, "mode: bypass\nshell: "+bash+"\n")
	w.env = []string{"PATH=" + stubs, "HOME=" + filepath.Join(root, "home"), "LANG=C.UTF-8", "TERM=dumb",
		"USER=u", "SHLVL=2", "OLDPWD=" + root, "PWD=" + w.work,
		"GUARDSH_CONFIG=" + filepath.Join(root, "guardsh.yaml"), "GUARDSH_AUDIT=" + filepath.Join(root, "audit.jsonl")}
	return w
}

// config writes guardsh's config.
func (w *directWorld) config(t *testing.T, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.root, "guardsh.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// command is argv run by guardsh (under strace when trace is set) or by
// bash, as "bash", with the signals in ignored (bash trap names) ignored.
func (w *directWorld) command(guardsh, trace bool, ignored string, argv []string) *exec.Cmd {
	run := append([]string{"-a", "bash", w.bash}, argv...)
	switch {
	case guardsh && trace:
		run = append([]string{w.strace, "-f", "-qq", "-e", "trace=execve", "-e", "signal=none", "-o", w.trace, w.link}, argv...)
	case guardsh:
		run = append([]string{"-a", "bash", w.link}, argv...)
	}
	launch := `exec "$@"`
	if ignored != "" {
		launch = "trap '' " + ignored + "; " + launch
	}
	cmd := exec.Command(w.bash, append([]string{"-c", launch, "launch"}, run...)...)
	cmd.Env, cmd.Dir = w.env, w.work
	if !guardsh {
		// bash as guardsh runs it: with the environment guardsh gives
		// the real shell (interp.ShellEnv: git's safe.bareRepository).
		cmd.Env = interp.ShellEnv(w.env)
	}
	return cmd
}

// run runs argv under guardsh or bash and returns stdout, stderr and exit
// status (128+n for death by signal n, as a shell reports it).
func (w *directWorld) run(t *testing.T, guardsh bool, argv []string) (string, string, int) {
	t.Helper()
	return w.output(t, w.command(guardsh, guardsh, "", argv), nil)
}

func (w *directWorld) output(t *testing.T, cmd *exec.Cmd, stdin []byte) (string, string, int) {
	t.Helper()
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		status = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal())
		}
	case err != nil:
		t.Fatalf("%q: %v", cmd.Args, err)
	}
	return out.String(), errOut.String(), status
}

// bashStarted reports whether the last guardsh run started bash.
func (w *directWorld) bashStarted(t *testing.T) bool {
	t.Helper()
	trace, err := os.ReadFile(w.trace)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(w.trace)
	return bytes.Contains(trace, []byte(`execve("`+w.bash+`"`))
}

// directCorpus is every command text of the invocation corpus and the
// agent command sample that the fast path's parse accepts.
func directCorpus(t *testing.T) []directCase {
	t.Helper()
	var cases []directCase
	data, err := os.ReadFile(filepath.Join("testdata", "invocations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var c invocationCase
		if err := json.Unmarshal(line, &c); err != nil {
			t.Fatalf("invocations.jsonl:%d: %v", i+1, err)
		}
		args, _, name := shellArgs(c)
		cases = append(cases, directCase{name: "invocation " + name, argv: guardshArgs(c, args)})
	}
	f, err := os.Open(filepath.Join("..", "..", "internal", "guard", "testdata", "agent-commands.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Cmd   string `json:"cmd"`
			Agent string `json:"agent"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, directCase{name: "agent " + c.Agent, argv: []string{"-c", c.Cmd}})
	}
	return cases
}

// TestDirectCorpus runs every case of the invocation corpus and of the
// agent command sample (every 16th, unless -direct.all) whose text the
// fast path accepts and that starts no login shell, once under guardsh
// and once under bash, with every program a stub that prints its argv and
// environment, and requires the same stdout (argv and environment),
// stderr and exit status; it requires the fast path to have been taken
// (guardsh did not start bash) exactly where guardsh's own conditions
// hold, and reports how many cases took it.
func TestDirectCorpus(t *testing.T) {
	all := directCorpus(t)
	var cases []directCase
	names := map[string]bool{}
	skipped := 0
	for _, c := range all {
		inv, err := parseInvocation(append([]string{"bash"}, c.argv...))
		if err != nil || !inv.command || inv.login || slices.ContainsFunc(inv.options, func(o string) bool {
			return o == "--login" || len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.ContainsRune(o, 'l')
		}) {
			// A login shell reads /etc/profile, which would set a PATH
			// to this machine's real programs; it never takes the fast
			// path (TestDirectOptions).
			continue
		}
		argv, ok := interp.DirectArgv(inv.operands[0])
		if !ok {
			continue
		}
		if filepath.IsAbs(argv[0]) {
			// A real program outside the workspace: not run here.
			skipped++
			continue
		}
		names[argv[0]] = true
		cases = append(cases, c)
	}
	if !*directAll {
		i := 0
		cases = slices.DeleteFunc(cases, func(c directCase) bool {
			i++
			return strings.HasPrefix(c.name, "agent") && i%16 != 0
		})
	}
	w := newDirectWorld(t, slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	}))
	var mu sync.Mutex
	taken := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			defer mu.Unlock()
			gotOut, gotErr, gotStatus := w.run(t, true, c.argv)
			direct := !w.bashStarted(t)
			inv, _ := parseInvocation(append([]string{"bash"}, c.argv...))
			if want := inv.direct(); direct != want {
				t.Errorf("%q: fast path taken %v, want %v (options %q)", c.argv, direct, want, inv.options)
			}
			if direct {
				taken++
			} else {
				t.Logf("%q went to bash", c.argv)
			}
			wantOut, wantErr, wantStatus := w.run(t, false, c.argv)
			if direct && (gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus) {
				t.Errorf("%q (fast path %v)\nbash:    status %d\nstdout %s\nstderr %q\nguardsh: status %d\nstdout %s\nstderr %q",
					c.argv, direct, wantStatus, wantOut, wantErr, gotStatus, gotOut, gotErr)
			}
		})
	}
	t.Logf("%d of %d cases run took the fast path; the corpus has %d command texts (%d more name a program by absolute path and were not run)",
		taken, len(cases), len(all), skipped)
	if want := len(cases) * 3 / 4; taken < want {
		t.Errorf("only %d of %d cases took the fast path, want at least %d", taken, len(cases), want)
	}
}

// TestDirectProbes runs programs that report what they inherited — their
// environment (in order), argv, signal mask and ignored signals, open file
// descriptors, stdin — three ways: through guardsh's fast path, through
// guardsh handing the same command to bash (the text with a backslash
// bash removes, which the fast path does not take), and under bash alone;
// with and without signals ignored and a descriptor inherited. The fast
// path must match both.
func TestDirectProbes(t *testing.T) {
	w := newDirectWorld(t, nil)
	w.env[0] = "PATH=/usr/local/bin:/usr/bin:/bin"
	extra, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	probes := []struct{ text, slow, stdin string }{
		{"env -0", `\env -0`, ""},
		{"env", `e\nv`, ""},
		{"cat /proc/self/cmdline", `\cat /proc/self/cmdline`, ""},
		{"/usr/bin/env -0", `/usr/bin/en\v -0`, ""},
		{"grep -e ^SigBlk -e ^SigIgn /proc/self/status", `\grep -e ^SigBlk -e ^SigIgn /proc/self/status`, ""},
		{"ls /proc/self/fd", `\ls /proc/self/fd`, ""},
		{"cat", `\cat`, "from stdin\n"},
		{"sh -c 'exit 7'", `\sh -c 'exit 7'`, ""},
		{"sh -c 'kill -PIPE $$'", `\sh -c 'kill -PIPE $$'`, ""},
	}
	for _, ignored := range []string{"", "TTOU TTIN TSTP"} {
		// Signals ignored and a descriptor inherited go together.
		for _, fd := range []bool{ignored != ""} {
			for _, p := range probes {
				if _, ok := interp.DirectArgv(p.slow); ok {
					t.Fatalf("%q would take the fast path", p.slow)
				}
				run := func(guardsh bool, text string) (string, string, int) {
					cmd := w.command(guardsh, guardsh && text == p.text, ignored, []string{"-c", text})
					if fd {
						cmd.ExtraFiles = []*os.File{extra}
					}
					return w.output(t, cmd, []byte(p.stdin))
				}
				name := p.text
				if ignored != "" {
					name += ", ignoring " + ignored
				}
				if fd {
					name += ", fd 3 inherited"
				}
				t.Run(name, func(t *testing.T) {
					fast, fastErr, fastStatus := run(true, p.text)
					if w.bashStarted(t) {
						t.Fatalf("%q did not take the fast path", p.text)
					}
					viaBash, viaBashErr, viaBashStatus := run(true, p.slow)
					bash, bashErr, bashStatus := run(false, p.text)
					if fast != viaBash || fastErr != viaBashErr || fastStatus != viaBashStatus {
						t.Errorf("fast path: status %d, stdout %q, stderr %q\nvia bash:  status %d, stdout %q, stderr %q",
							fastStatus, fast, fastErr, viaBashStatus, viaBash, viaBashErr)
					}
					if fast != bash || fastErr != bashErr || fastStatus != bashStatus {
						t.Errorf("fast path: status %d, stdout %q, stderr %q\nbash alone: status %d, stdout %q, stderr %q",
							fastStatus, fast, fastErr, bashStatus, bash, bashErr)
					}
				})
			}
		}
	}
}

// TestDirectSignalsIgnoredByTheParent starts guardsh with one signal
// ignored, as nohup (SIGHUP), a non-interactive shell's background job
// (SIGINT, SIGQUIT) or a parent ignoring SIGPIPE does, and compares the
// ignored set and blocked mask the command inherits: the fast path must
// give what guardsh's bash path gives; SIGHUP and SIGINT must also stay
// ignored as under bash alone. SIGQUIT, SIGPIPE and SIGTERM reach the
// command with their default disposition either way: the Go runtime
// catches them before guardsh's main runs and cannot tell that they were
// ignored (see README, Performance).
func TestDirectSignalsIgnoredByTheParent(t *testing.T) {
	w := newDirectWorld(t, nil)
	w.env[0] = "PATH=/usr/local/bin:/usr/bin:/bin"
	probe := "grep -e ^SigBlk -e ^SigIgn /proc/self/status"
	for _, sig := range []string{"HUP", "INT", "QUIT", "PIPE", "TERM"} {
		t.Run(sig, func(t *testing.T) {
			run := func(guardsh bool, text string) string {
				out, errOut, status := w.output(t, w.command(guardsh, guardsh && text == probe, sig, []string{"-c", text}), nil)
				if status != 0 {
					t.Fatalf("%q: status %d, stderr %q", text, status, errOut)
				}
				return out
			}
			fast := run(true, probe)
			if w.bashStarted(t) {
				t.Fatal("the probe did not take the fast path")
			}
			viaBash := run(true, `\`+probe)
			bash := run(false, probe)
			if fast != viaBash {
				t.Errorf("fast path %q, guardsh's bash path %q", fast, viaBash)
			}
			if (sig == "HUP" || sig == "INT") && fast != bash {
				t.Errorf("fast path %q, bash alone %q", fast, bash)
			}
			t.Logf("fast path %q, bash alone %q", fast, bash)
		})
	}
}

// TestDirectJailed runs an unknown program of the workspace, which the
// sandbox jails, through the fast path: it is started inside the same
// Landlock jail as bash would be, so its write outside the workspace and
// its read of a secret fail, while its write in the workspace succeeds.
func TestDirectJailed(t *testing.T) {
	if why := sandbox.Unavailable(); why != "" {
		t.Skip(why)
	}
	w := newDirectWorld(t, nil)
	w.env[0] = "PATH=/usr/local/bin:/usr/bin:/bin"
	home := filepath.Join(w.root, "home")
	for _, d := range []string{filepath.Join(w.work, ".git"), filepath.Join(home, ".ssh"), filepath.Join(w.root, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, text := range map[string]string{
		filepath.Join(w.root, "key"):          "public\n",
		filepath.Join(home, ".ssh", "id_rsa"): "secret\n",
	} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.config(t, "mode: auto\nsandbox: workspace\nshell: "+w.bash+"\n")
	cp, err := os.ReadFile("/bin/cp")
	if err != nil {
		t.Skip(err)
	}
	if err := os.WriteFile(filepath.Join(w.work, "tool"), cp, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text, made string
		ok         bool
	}{
		{"./tool ../key made.txt", filepath.Join(w.work, "made.txt"), true},
		{"./tool ../key " + filepath.Join(w.root, "outside", "f"), filepath.Join(w.root, "outside", "f"), false},
		{"./tool -r ../home stolen", filepath.Join(w.work, "stolen", ".ssh", "id_rsa"), false},
	} {
		_, stderr, status := w.run(t, true, []string{"-c", c.text})
		if w.bashStarted(t) {
			t.Errorf("%q did not take the fast path", c.text)
		}
		_, err := os.Stat(c.made)
		if c.ok != (status == 0) || c.ok != (err == nil) {
			t.Errorf("%q: status %d, %s made: %v; stderr %q", c.text, status, c.made, err == nil, stderr)
		}
		if !c.ok && !strings.Contains(stderr, "Permission denied") {
			t.Errorf("%q: stderr %q, want the jail's Permission denied", c.text, stderr)
		}
	}
}

// TestDirectOptions runs `env -0` under bash's options: the fast path is
// taken exactly for the options that change nothing a one-shot exec does,
// and the program's environment and output are bash's either way.
func TestDirectOptions(t *testing.T) {
	w := newDirectWorld(t, nil)
	w.env[0] = "PATH=/usr/local/bin:/usr/bin:/bin"
	for _, c := range []struct {
		options []string
		direct  bool
	}{
		{nil, true},
		{[]string{"-e"}, true},
		{[]string{"-eu"}, true},
		{[]string{"-o", "pipefail"}, true},
		{[]string{"-eo", "pipefail"}, true},
		{[]string{"--noprofile", "--norc", "-e", "-o", "pipefail"}, true},
		{[]string{"--ci"}, true},
		{[]string{"-f", "-C", "-B", "+h", "-E", "-T", "-P"}, true},
		{[]string{"-o", "noclobber", "-o", "nounset"}, true},
		{[]string{"+e"}, true},
		{[]string{"-a"}, false}, // bash exports the variables it sets at start-up
		{[]string{"-o", "allexport"}, false},
		{[]string{"-ea"}, false},
		{[]string{"-x"}, false}, // bash traces the command first
		{[]string{"-v"}, false},
		{[]string{"-n"}, false}, // bash runs nothing
		{[]string{"-o", "posix"}, false},
		{[]string{"-p"}, false},
		{[]string{"-r"}, false},
		{[]string{"-i"}, false},
	} {
		t.Run(strings.Join(c.options, " "), func(t *testing.T) {
			args := append(slices.Clone(c.options), "-c", "env -0")
			gotOut, gotErr, gotStatus := w.run(t, true, args)
			direct := !w.bashStarted(t)
			if direct != c.direct {
				t.Errorf("fast path taken %v, want %v", direct, c.direct)
			}
			if !direct {
				return
			}
			bashArgs := args
			if slices.Equal(c.options, []string{"--ci"}) {
				bashArgs = []string{"--noprofile", "--norc", "-e", "-o", "pipefail", "-c", "env -0"}
			}
			wantOut, wantErr, wantStatus := w.run(t, false, bashArgs)
			if gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus {
				t.Errorf("bash:    status %d stdout %q stderr %q\nguardsh: status %d stdout %q stderr %q",
					wantStatus, wantOut, wantErr, gotStatus, gotOut, gotErr)
			}
		})
	}
}
