package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoOpMatchesBash runs no-op builtins (which guardsh may answer without
// bash) and near misses under bash and under guardsh with many option
// sets, and requires the same stdout, stderr and exit status: the fast
// path must be invisible.
func TestNoOpMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	config := filepath.Join(root, "guardsh.yaml")
	if err := os.WriteFile(config, []byte("mode: bypass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+root, "GUARDSH_CONFIG="+config, "GUARDSH_AUDIT="+filepath.Join(root, "audit.jsonl"),
		"GUARDSH_MODE=", "BASH_ENV=", "ENV=")
	commands := []string{"true", ":", "false", "true\n", "# note\nfalse\n", "! true", "! false", "true &", "false &",
		"true; false", "false; true", "true >/dev/null", "x=1 true", "true x", "false x", "(false)", "{ false; }",
		"'false'", "\\false", "fals\\e", "exit 3", "true #c", "$x", "", " "}
	options := [][]string{nil, {"-e"}, {"-eu"}, {"+e"}, {"-x"}, {"-v"}, {"-n"}, {"-xe"}, {"-eo", "pipefail"},
		{"-o", "pipefail"}, {"-o", "xtrace"}, {"-o", "noexec"}, {"--noprofile", "--norc"}, {"--posix"}}
	run := func(path string, args []string) (string, string, int) {
		cmd := exec.Command(path)
		cmd.Args = append([]string{"bash"}, args...)
		cmd.Env, cmd.Dir = env, root
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		status := 0
		var exitErr *exec.ExitError
		if err := cmd.Run(); errors.As(err, &exitErr) {
			status = exitErr.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errOut.String(), status
	}
	for _, opts := range options {
		for _, c := range commands {
			args := append(append([]string(nil), opts...), "-c", c, "name", "arg")
			t.Run(strings.Join(opts, " ")+" "+c, func(t *testing.T) {
				t.Parallel()
				wantOut, wantErr, wantStatus := run(bash, args)
				gotOut, gotErr, gotStatus := run(self, args)
				if gotOut != wantOut || gotErr != wantErr || gotStatus != wantStatus {
					t.Errorf("bash %q\nbash:    status %d stdout %q stderr %q\nguardsh: status %d stdout %q stderr %q",
						args, wantStatus, wantOut, wantErr, gotStatus, gotOut, gotErr)
				}
			})
		}
	}
}

// TestQuietOptions checks which invocations let guardsh answer a no-op
// builtin itself.
func TestQuietOptions(t *testing.T) {
	for _, tc := range []struct {
		argv  []string
		quiet bool
	}{
		{[]string{"bash", "-c", "true"}, true},
		{[]string{"bash", "-ec", "true"}, true},
		{[]string{"bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", "true"}, true},
		{[]string{"bash", "-o", "nounset", "+o", "errexit", "-c", "true"}, true},
		{[]string{"guardsh", "--ci", "-c", "true"}, true},
		{[]string{"bash", "-lc", "true"}, false},
		{[]string{"-bash", "-c", "true"}, false},
		{[]string{"bash", "-xc", "true"}, false},
		{[]string{"bash", "-vc", "true"}, false},
		{[]string{"bash", "-nc", "true"}, false},
		{[]string{"bash", "-ic", "true"}, false},
		{[]string{"bash", "-eo", "xtrace", "-c", "true"}, false},
		{[]string{"bash", "-o", "noexec", "-c", "true"}, false},
		{[]string{"bash", "--login", "-c", "true"}, false},
		{[]string{"bash", "--posix", "-c", "true"}, false},
		{[]string{"bash", "--rcfile", "f", "-c", "true"}, false},
	} {
		inv, err := parseInvocation(tc.argv)
		if err != nil {
			t.Fatalf("%q: %v", tc.argv, err)
		}
		if got := inv.quiet(); got != tc.quiet {
			t.Errorf("%q: quiet() = %v, want %v (options %q)", tc.argv, got, tc.quiet, inv.options)
		}
	}
}
