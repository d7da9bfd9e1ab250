package ci_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/ci"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/rules"
)

func TestEnabled(t *testing.T) {
	for _, tt := range []struct {
		ci   string
		flag bool
		want bool
	}{{"true", false, true}, {"TRUE", false, true}, {"1", false, true}, {"", false, false}, {"false", false, false}, {"", true, true}, {"false", true, true}} {
		if got := ci.Enabled(func(string) string { return tt.ci }, tt.flag); got != tt.want {
			t.Errorf("Enabled(CI=%q, --ci %v) = %v", tt.ci, tt.flag, got)
		}
	}
}

// Only paths of the runner's shape are file commands: an agent that sets
// GITHUB_OUTPUT to a file of its choosing gains nothing.
func TestFindFileCommandsWantsTheRunnersShape(t *testing.T) {
	env := map[string]string{
		"GITHUB_OUTPUT":       "/home/runner/work/_temp/_runner_file_commands/set_output_6f1b0a4e-3c0d-4b7a-9f6e-2a2b1c0d9e8f",
		"GITHUB_ENV":          "/home/runner/.bashrc",
		"GITHUB_PATH":         "/tmp/_runner_file_commands/set_env_6f1b0a4e", // wrong prefix for PATH
		"GITHUB_STEP_SUMMARY": "relative/_runner_file_commands/step_summary_6f1b0a4e",
	}
	fc := ci.FindFileCommands(func(k string) string { return env[k] })
	if len(fc) != 1 || fc["GITHUB_OUTPUT"] == "" {
		t.Errorf("FindFileCommands = %v, want GITHUB_OUTPUT only", fc)
	}
}

func decideIn(t *testing.T, policy string, text string) guard.Outcome {
	t.Helper()
	p, err := rules.Parse([]byte(policy), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return newCIGuard(t, p).evaluate(text)
}

func TestFileCommandWrites(t *testing.T) {
	const ask = "mode: ask\nrules:\n  write:\n    deny: [\"~/.ssh/*\"]\n"
	tests := []struct {
		name, policy, text string
		want               rules.Decision
		reason             string
	}{
		{"an output is written unasked", ask, `echo "version=1.2" >> "$GITHUB_OUTPUT"`, rules.Allow, "file command $GITHUB_OUTPUT"},
		{"the step summary too, spelled ${…}", ask, `echo '### done' >> ${GITHUB_STEP_SUMMARY}`, rules.Allow, "GITHUB_STEP_SUMMARY"},
		{"an output of run-time text", ask, `echo "sha=$(git rev-parse HEAD)" >> $GITHUB_OUTPUT`, rules.Allow, ""},
		{"an ordinary variable for GITHUB_ENV", ask, `echo "CC=clang" >> $GITHUB_ENV`, rules.Allow, "as exports"},
		{"several lines of a quoted here-document", ask, "cat >> \"$GITHUB_ENV\" <<'EOF'\nCC=clang\nGOPRIVATE=example.com\nEOF", rules.Allow, "2 line"},
		// Variables that make a build tool run a program (an attack run
		// made the next step's make run its shell through MAKEFLAGS).
		{"MAKEFLAGS for the next steps", ask, `echo MAKEFLAGS=SHELL=/tmp/x >> $GITHUB_ENV`, rules.Ask, "MAKEFLAGS"},
		{"GOFLAGS for the next steps", ask, `echo GOFLAGS=-toolexec=/tmp/x >> $GITHUB_ENV`, rules.Ask, "GOFLAGS"},
		{"a rustc wrapper for the next steps", ask, `echo RUSTC_WRAPPER=/tmp/x >> $GITHUB_ENV`, rules.Ask, "RUSTC_WRAPPER"},
		{"npm's script shell for the next steps", ask, `echo npm_config_script_shell=/tmp/x >> $GITHUB_ENV`, rules.Ask, "npm_config_script_shell"},
		{"a JVM agent for the next steps", ask, `echo MAVEN_OPTS=-javaagent:/tmp/x.jar >> $GITHUB_ENV`, rules.Ask, "MAVEN_OPTS"},
		{"LD_PRELOAD for the next steps", ask, `echo "LD_PRELOAD=/tmp/x.so" >> $GITHUB_ENV`, rules.Ask, "export LD_PRELOAD"},
		{"BASH_ENV for the next steps, even in bypass", "mode: bypass\n", `echo BASH_ENV=/tmp/evil >> "$GITHUB_ENV"`, rules.Ask, "export BASH_ENV"},
		// Other ways to the same file, in bypass (an attack run's finds).
		{"GITHUB_ENV followed by an empty string", "mode: bypass\n", `echo LD_PRELOAD=/tmp/r.so >> $GITHUB_ENV""`, rules.Ask, "names $GITHUB_ENV"},
		{"GITHUB_ENV through an expansion", "mode: bypass\n", `echo BASH_ENV=/tmp/r >> ${GITHUB_ENV%%}`, rules.Ask, "names $GITHUB_ENV"},
		{"GITHUB_ENV from bash -c", "mode: bypass\n", `bash -c "echo NODE_OPTIONS=--require=/tmp/r.js >> \$GITHUB_ENV"`, rules.Ask, "names $GITHUB_ENV"},
		{"GITHUB_ENV from eval", "mode: bypass\n", `eval "echo LD_PRELOAD=x >> \$GITHUB_ENV"`, rules.Ask, "names $GITHUB_ENV"},
		{"GITHUB_PATH by tee", "mode: bypass\n", `echo /tmp/bin | tee -a "$GITHUB_PATH"`, rules.Ask, "names $GITHUB_PATH"},
		{"GITHUB_PATH by cp", "mode: bypass\n", `cp /dev/stdin $GITHUB_PATH <<< /tmp/evilbin`, rules.Ask, "names $GITHUB_PATH"},
		{"GITHUB_ENV from python", "mode: bypass\n", `python3 -c "import os; open(os.environ['GITHUB_ENV'],'a').write('LD_PRELOAD=x')"`, rules.Ask, "names $GITHUB_ENV"},
		{"reading GITHUB_ENV is fine", "mode: bypass\n", `cat "$GITHUB_ENV"`, rules.Allow, ""},
		// Targets only known at run time that could be the file.
		{"GITHUB_ENV by indirection", "mode: bypass\n", `v=GITHUB_ENV; echo LD_PRELOAD=/x >> ${!v}`, rules.Ask, "could be $GITHUB_ENV"},
		{"GITHUB_ENV from printenv", "mode: bypass\n", `echo LD_PRELOAD=/x >> "$(printenv GITHUB_"ENV")"`, rules.Ask, "could be $GITHUB_ENV"},
		{"GITHUB_PATH by a glob of its path", "mode: bypass\n", `echo /evil >> "$RUNNER_TEMP"/_runner_file_commands/add_path_*`, rules.Ask, "could be $GITHUB_PATH"},
		{"a run-time log file is not the env file", "mode: bypass\n", `echo done >> "$OUT/build.log"`, rules.Allow, ""},
		{"NODE_OPTIONS by printf", ask, `printf 'A=1\nNODE_OPTIONS=--require /tmp/x.js\n' >> $GITHUB_ENV`, rules.Ask, "NODE_OPTIONS"},
		{"a directory for GITHUB_PATH", ask, `echo "$HOME/.local/bin" >> $GITHUB_PATH`, rules.Ask, "only known at run time"},
		{"a static directory for GITHUB_PATH is a PATH export", ask, `echo /opt/tool/bin >> $GITHUB_PATH`, rules.Ask, "export PATH="},
		// What it says to do instead works (a new user's find: the
		// workflow's env: cannot append to PATH).
		{"a static directory for GITHUB_PATH in bypass", "mode: bypass\n", `echo /opt/tool/bin >> $GITHUB_PATH`, rules.Ask, "run the program by its full path, or give the job a PATH that holds the directory"},
		{"PATH for GITHUB_ENV in bypass", "mode: bypass\n", `echo PATH=/x >> $GITHUB_ENV`, rules.Ask, "as a step output ($GITHUB_OUTPUT"},
		{"run-time text into GITHUB_ENV could hold a newline", ask, `echo "V=$VERSION" >> $GITHUB_ENV`, rules.Ask, "newline"},
		{"a block writing GITHUB_ENV", ask, `{ echo A=1; cat /tmp/more; } >> $GITHUB_ENV`, rules.Ask, "cat of something other than a here-document"},
		// A group of static lines is read as its lines (a new user's find).
		{"a group of echos writing GITHUB_ENV", ask, `{ echo "A=1"; echo "B=2"; } >> "$GITHUB_ENV"`, rules.Allow, "2 line"},
		{"a group with a here-document", ask, "{ echo A=1\ncat <<'EOF'\nB=2\nEOF\n} >> \"$GITHUB_ENV\"", rules.Allow, "2 line"},
		{"a group setting LD_PRELOAD", ask, `{ echo A=1; echo LD_PRELOAD=/x.so; } >> "$GITHUB_ENV"`, rules.Ask, "LD_PRELOAD"},
		{"a group with run-time text", ask, `{ echo A=1; echo "V=$X"; } >> "$GITHUB_ENV"`, rules.Ask, "run time"},
		{"a group with && inside", ask, `{ echo A=1 && echo B=2; } >> "$GITHUB_ENV"`, rules.Ask, "compound"},
		{"a group with its own redirection", ask, `{ echo A=1; echo B=2 >/dev/null; } >> "$GITHUB_ENV"`, rules.Ask, "compound"},
		{"a subshell writing GITHUB_ENV", ask, `( echo A=1; echo B=2 ) >> "$GITHUB_ENV"`, rules.Ask, "compound"},
		{"another program writing GITHUB_ENV", ask, `./tool export >> $GITHUB_ENV`, rules.Ask, "writes it"},
		// What else may write while the redirection is open, or stand
		// for echo, printf or cat (attack run 84, in the CI preset's
		// bypass: each wrote BASH_ENV or LD_PRELOAD).
		{"a function named echo", "mode: bypass\n", `echo() { printf "BASH_ENV=/tmp/evil.sh\n"; }; echo SAFE=1 >> "$GITHUB_ENV"`, rules.Ask, "defines a function"},
		{"a function named printf", "mode: bypass\n", `function printf { builtin printf "LD_PRELOAD=/x.so\n"; }; printf "SAFE=1\n" >> $GITHUB_ENV`, rules.Ask, "defines a function"},
		{"a DEBUG trap", "mode: bypass\n", `trap "echo BASH_ENV=/tmp/x" DEBUG; { echo SAFE=1; } >> "$GITHUB_ENV"`, rules.Ask, "`trap`"},
		{"an alias", "mode: bypass\n", "shopt -s expand_aliases\nalias echo='printf \"BASH_ENV=/x\\n\"; echo'\necho A=1 >> $GITHUB_ENV", rules.Ask, "`shopt`"},
		{"set -x's trace on standard output", "mode: bypass\n", `BASH_XTRACEFD=1; PS4=BASH_ENV=/x; set -x; echo SAFE=1 >> $GITHUB_ENV`, rules.Ask, "BASH_XTRACEFD"},
		{"another cat on PATH", "mode: bypass\n", "PATH=./bin:$PATH\ncat <<EOF >> $GITHUB_ENV\nSAFE=1\nEOF", rules.Ask, "assigns PATH"},
		{"a function's definition through eval", "mode: bypass\n", `eval 'echo() { printf "BASH_ENV=/x\n"; }'; echo A=1 >> $GITHUB_ENV`, rules.Ask, "`eval`"},
		// Variables that pick a later step's program, toolchain, package
		// index or trusted certificates (attack run 84), and the bare
		// compiler names that stay lookups on PATH.
		{"CC by path", "mode: bypass\n", `echo CC=/tmp/evil/cc >> "$GITHUB_ENV"`, rules.Ask, "CC names a compiler"},
		{"CC with a flag", "mode: bypass\n", `echo "CC=gcc -fplugin=/tmp/x.so" >> "$GITHUB_ENV"`, rules.Ask, "CC names a compiler"},
		{"CC by name", "mode: bypass\n", `echo CC=gcc-12 >> "$GITHUB_ENV"`, rules.Allow, "as exports"},
		{"a compiler launcher", "mode: bypass\n", `echo CMAKE_C_COMPILER_LAUNCHER=/tmp/evil >> "$GITHUB_ENV"`, rules.Ask, "CMake settings"},
		{"Gradle's home", "mode: bypass\n", `echo GRADLE_USER_HOME=/tmp/evil >> "$GITHUB_ENV"`, rules.Ask, "init scripts"},
		{"cargo's home", "mode: bypass\n", `echo CARGO_HOME=/tmp/evil >> "$GITHUB_ENV"`, rules.Ask, "cargo settings"},
		{"a Go toolchain", "mode: bypass\n", `echo GOROOT=/tmp/evil >> "$GITHUB_ENV"`, rules.Ask, "a toolchain"},
		{"a Java runtime", "mode: bypass\n", `echo JAVA_HOME=/tmp/evil >> "$GITHUB_ENV"`, rules.Ask, "a Java runtime"},
		{"yarn's path", "mode: bypass\n", `echo YARN_YARN_PATH=/tmp/evil.js >> "$GITHUB_ENV"`, rules.Ask, "Yarn settings"},
		{"pip's index", "mode: bypass\n", `echo PIP_INDEX_URL=https://evil.example >> "$GITHUB_ENV"`, rules.Ask, "pip settings"},
		{"Node's certificates", "mode: bypass\n", `echo NODE_EXTRA_CA_CERTS=/tmp/ca.pem >> "$GITHUB_ENV"`, rules.Ask, "trusted certificates"},
		{"the runner's own", "mode: bypass\n", `echo ACTIONS_ID_TOKEN_REQUEST_URL=https://evil >> "$GITHUB_ENV"`, rules.Ask, "the runner's own"},
		{"a plain setting still goes", "mode: bypass\n", `echo RELEASE_CHANNEL=beta >> "$GITHUB_ENV"`, rules.Allow, "as exports"},
		{"set -eux alone changes nothing", ask, "set -euxo pipefail\nexport CC=gcc\necho CC=clang >> $GITHUB_ENV", rules.Allow, "as exports"},
		{"a deny rule on the real path still denies", "mode: ask\nrules:\n  write:\n    deny: [\"/*/_runner_file_commands/*\"]\n", `echo a=b >> $GITHUB_OUTPUT`, rules.Deny, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := decideIn(t, tt.policy, tt.text)
			var reasons []string
			for _, c := range o.Segments {
				reasons = append(reasons, c.Verdict.Decision.String()+": "+c.Verdict.Reason)
			}
			all := strings.Join(reasons, "\n")
			if o.Decision != tt.want || !strings.Contains(all, tt.reason) {
				t.Errorf("%s\n= %s, want %s with %q; segments:\n%s", tt.text, o.Decision, tt.want, tt.reason, all)
			}
		})
	}
}

func TestAnnotationEscapesTheMessage(t *testing.T) {
	got := ci.Annotation([]string{`guardsh: denied: rm -rf / (rule "rm * / *")`, "100% sure"})
	want := "::error title=guardsh refused a command::guardsh: denied: rm -rf / (rule \"rm * / *\")%0A100%25 sure\n"
	if got != want {
		t.Errorf("Annotation = %q, want %q", got, want)
	}
}

func TestSummaryIsAMarkdownTable(t *testing.T) {
	o := decideIn(t, "mode: ask\nrules:\n  shell:\n    deny: [\"git push *\"]\n", "git status && git push origin main | tee x")
	var b bytes.Buffer
	if err := ci.Summary(&b, "git status && git push origin main | tee x", o, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"### guardsh refused a command", "| decision | segment | rule | reason |", "| deny | `git push origin main` | `git push *` (test.yaml:4) |", "| allow | `git status` |"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// TestSummaryIsRedacted: the step summary, published with the run, shows
// the command and its segments redacted as the audit record is (a new
// user's find: a literal token of a refused step was in it twice).
func TestSummaryIsRedacted(t *testing.T) {
	const text = "curl -H 'Authorization: token ghp_S3CRETabcdefghijklmnopqrstuvwxyz0123' https://api.github.com && git push origin main"
	o := decideIn(t, "mode: ask\nrules:\n  shell:\n    deny: [\"git push *\"]\n", text)
	red, err := audit.NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := ci.Summary(&b, text, o, red); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "S3CRET") || !strings.Contains(out, audit.Redacted) || !strings.Contains(out, "git push origin main") {
		t.Errorf("summary keeps the token or loses the command:\n%s", out)
	}
}

func TestPresetParses(t *testing.T) {
	p, err := ci.PresetPolicy()
	if err != nil || p.Mode != rules.Bypass {
		t.Errorf("PresetPolicy = %v, %v; want mode bypass", p, err)
	}
}
