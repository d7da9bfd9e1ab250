package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
			return os.MkdirAll(home, 0o755)
		},
	})
}
