package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// invocationCase is one line of testdata/invocations.jsonl: an argv a real
// agent or CI system passed to its shell.
type invocationCase struct {
	Argv []string `json:"argv"`
	Note string   `json:"note"`
}

// stubs are programs the corpus commands call; each prints its name and
// arguments so that bash's and guardsh's runs can be compared without
// touching the network or a real project.
var stubs = []string{"npm", "pnpm", "bun", "cargo", "pytest", "python", "jest", "vim", "ssh",
	"htop", "gcc", "cmake", "make", "rg", "apply_patch", "git-upload-pack", "git"}

// gitlabJob is a job script in the shape GitLab's shell executor generates.
const gitlabJob = `set -eo pipefail
set +o noclobber
: | eval $'echo "Running on $(hostname -s 2>/dev/null || echo runner)..." >/dev/null\necho job start\n'
: | eval $'echo "$ make test"\nmake test\n'
exit 0
`

// ciScript is a CI step script (GitHub Actions, Jenkins, a repository's
// scripts/ci.sh).
const ciScript = `echo "::group::build"
echo "step $#"
for f in src/*.c; do echo "source $f"; done
make build 2>&1 | tail -n 3
echo "::endgroup::"
`

// TestInvocationCorpus runs every argv of the corpus under real bash and
// under guardsh (bypass mode, so only parsing and running are compared) and
// requires the same stdout and exit status.
func TestInvocationCorpus(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "invocations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	env := corpusWorld(t, root)
	rewrite := strings.NewReplacer("/home/u/", root+"/home/u/", "/home/runner/", root+"/home/runner/",
		"/var/lib/jenkins/", root+"/var/lib/jenkins/", "/tmp/", root+"/tmp/", "/repo/", root+"/repo/",
		"/srv/git/", root+"/srv/git/")
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var c invocationCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		args, stdin, name := shellArgs(c)
		for i := range args {
			args[i] = rewrite.Replace(args[i])
		}
		t.Run(fmt.Sprintf("%02d-%s", n, name), func(t *testing.T) {
			wantOut, wantStatus := runCorpus(t, bash, "bash", args, stdin, root, env)
			arg0 := "bash"
			if name == "login" {
				arg0 = "-guardsh"
			}
			gotOut, gotStatus := runCorpus(t, self, arg0, guardshArgs(c, args), stdin, root, env)
			t.Logf("status %d stdout %q", gotStatus, gotOut)
			if gotStatus != wantStatus || gotOut != wantOut {
				t.Errorf("argv %q\nbash:    status %d stdout %q\nguardsh: status %d stdout %q",
					c.Argv, wantStatus, wantOut, gotStatus, gotOut)
			}
		})
	}
	if n != 50 {
		t.Errorf("corpus has %d invocations, want 50", n)
	}
}

// shellArgs turns a corpus argv into the arguments a shell receives and the
// stdin it reads, and names the case.
func shellArgs(c invocationCase) (args []string, stdin, name string) {
	arg0 := c.Argv[0]
	args = append([]string(nil), c.Argv[1:]...)
	name = filepath.Base(arg0)
	switch {
	case arg0 == "su":
		// su -s /bin/bash USER -c CMD runs the shell as `bash -c CMD`.
		args, name = []string{"-c", c.Argv[len(c.Argv)-1]}, "su"
	case strings.HasSuffix(arg0, "guardsh-prefix"):
		args, name = []string{"-c", c.Argv[1]}, "prefix"
	case arg0 == "-guardsh":
		args, name, stdin = []string{"-l"}, "login", "echo login shell\npwd >/dev/null\n"
	case len(args) > 0 && args[0] == "--ci":
		args = append([]string{"--noprofile", "--norc", "-e", "-o", "pipefail"}, args[1:]...)
	}
	switch {
	case strings.Contains(c.Note, "generated job script"):
		stdin = gitlabJob
	case strings.Contains(c.Note, "stdin(PTY)"):
		stdin = "set +H; export PROMPT_COMMAND='export PS1=\"\\n###PS1JSON###\\n\"'; export PS2=\"\"\ngit status\necho typed\n"
	}
	return args, stdin, name
}

// guardshArgs are the arguments guardsh receives for the case: its own
// forms (--ci, the prefix) where the corpus uses them.
func guardshArgs(c invocationCase, shellArgs []string) []string {
	if len(c.Argv) > 1 && c.Argv[1] == "--ci" {
		return append([]string{"--ci"}, shellArgs[5:]...)
	}
	if c.Argv[0] == "-guardsh" {
		return nil
	}
	return shellArgs
}

// corpusWorld makes the files and programs the corpus commands expect under
// root and returns the environment to run them in.
func corpusWorld(t *testing.T, root string) []string {
	t.Helper()
	home := filepath.Join(root, "home", "u")
	stubDir := filepath.Join(root, "stubs")
	files := map[string]string{
		"home/u/.claude/shell-snapshots/snapshot-bash-1747000000000-a1b2c3.sh":           "snapshot_fn() { :; }\nalias ll='ls -l'\n",
		"home/u/.codex/shell_snapshots/0199a1b2-c3d4.1747000000123.sh":                   "export CODEX_SNAPSHOT=1\n",
		"home/u/.codex/shell_snapshots/0199a1b2-c3d4.tmp-1747000000123":                  "echo snapshot-written\n",
		"home/u/.codex/shell_snapshots/abc.sh":                                           "SNAP=1\n",
		"home/u/.bashrc":                                                                 "# empty rc\n",
		"home/u/.bash_profile":                                                           "PATH=" + stubDir + ":$PATH\n",
		"home/u/proj/README":                                                             "project\n",
		"home/runner/actions-runner/_work/_temp/8c3e4a52-1f0d-4b7e-9a51-2d7c0e6f9b11.sh": ciScript,
		"home/runner/actions-runner/_work/_temp/8c3e4a52-1f0d-4b7e-9a51-2d7c0e6f9b11":    ciScript,
		"var/lib/jenkins/ws/app@tmp/durable-1a2b3c4d/script.sh":                          ciScript,
		"work/scripts/ci.sh":                                                             "#!/bin/sh\necho ci script\n",
		"work/src/main.c":                                                                "int main(void) { return 0; }\n",
		"work/build/.keep":                                                               "",
		"tmp/.keep":                                                                      "",
		"repo/.git/.keep":                                                                "",
		"srv/git/repo.git/HEAD":                                                          "ref: refs/heads/main\n",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(stubDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range stubs {
		script := "#!/bin/sh\necho \"stub " + name + " $*\"\n"
		if err := os.WriteFile(filepath.Join(stubDir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(root, "guardsh.yaml")
	if err := os.WriteFile(config, []byte("mode: bypass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "HOME", name == "BASH_ENV", name == "ENV",
			strings.HasPrefix(name, "GUARDSH_"), strings.HasPrefix(name, "XDG_"):
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "PATH="+stubDir+":"+os.Getenv("PATH"),
		"GUARDSH_CONFIG="+config, "GUARDSH_AUDIT="+filepath.Join(root, "audit.jsonl"))
}

// runCorpus runs path with argv[0] arg0 in root/work and returns its stdout
// and exit status.
func runCorpus(t *testing.T, path, arg0 string, args []string, stdin, root string, env []string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Args = append([]string{arg0}, args...)
	cmd.Dir = filepath.Join(root, "work")
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		status = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("%s %q: %v", arg0, args, err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s %q timed out; stderr: %s", arg0, args, errOut.String())
	}
	return out.String(), status
}
