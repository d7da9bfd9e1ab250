package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/guardsh/guardsh/adversary/chat"
	"github.com/guardsh/guardsh/internal/sandbox"
)

// TestMain makes the test binary act as guardsh when run under guardsh's
// own names (testscript's "guardsh", and guardsh, bash, sh, guardsh-prefix
// or a login "-guardsh" through links the tests make), and runs the tests
// otherwise.
//
// The test binary reads the system config from $GUARDSH_TEST_SYSTEM_CONFIG
// (none when unset), so that tests neither depend on this machine's
// /etc/guardsh nor need root; the guardsh binary has no such variable.
func TestMain(m *testing.M) {
	systemConfig = os.Getenv("GUARDSH_TEST_SYSTEM_CONFIG")
	if systemConfig == "" {
		systemConfig = filepath.Join(os.TempDir(), "guardsh-test-no-system-config", "config.yaml")
	}
	if filepath.Base(os.Args[0]) == "guardsh-llm" {
		os.Exit(chat.Serve(os.Stdin, os.Stdout, os.Stderr))
	}
	// The scripts' guardsh runs as guardsh-llm a link to the test binary
	// (made by TestScripts' Setup), which then acts as guardsh-llm.
	if h := os.Getenv("GUARDSH_TEST_LLM_HELPER"); h != "" {
		llmHelper = h
	}
	// GUARDSH_TEST_ACT_AS_GUARDSH=1: the binary is run by its own path,
	// as guardsh runs itself (the tmux popup).
	if actsAsGuardsh(os.Args[0]) || os.Getenv("GUARDSH_TEST_ACT_AS_GUARDSH") == "1" {
		os.Exit(guardshMain(os.Args, os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"guardsh": func() { os.Exit(guardshMain(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

func actsAsGuardsh(arg0 string) bool {
	if strings.HasPrefix(arg0, "-") {
		return true
	}
	switch filepath.Base(arg0) {
	case "bash", "sh", "guardsh-prefix", "guardsh":
		return true
	}
	return false
}

// TestScripts runs the end-to-end scripts in testdata/script: guardsh as a
// real process, with HOME, config and state under the script's $WORK.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"chatserver": chatServerCmd, "chatrequests": chatRequestsCmd},
		Condition: func(cond string) (bool, error) {
			if cond == "landlock" {
				// The kernel can jail a command (issue: sandbox).
				return sandbox.Unavailable() == "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
			env.Setenv("USER", "tester")
			for _, name := range []string{"GUARDSH_CONFIG", "GUARDSH_MODE", "GUARDSH_AUDIT", "BASH_ENV", "ENV"} {
				env.Setenv(name, "")
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			env.Setenv("GUARDSH_TEST_BINARY", exe)
			helper := filepath.Join(env.WorkDir, ".llm", "guardsh-llm")
			if err := os.MkdirAll(filepath.Dir(helper), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(exe, helper); err != nil {
				return err
			}
			env.Setenv("GUARDSH_TEST_LLM_HELPER", helper)
			env.Values["chat"] = &chatState{}
			return os.MkdirAll(home, 0o755)
		},
	})
}
