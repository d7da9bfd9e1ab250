package interp

import "testing"

// TestShellEnvDropsArgcomplete: an inherited _ARGCOMPLETE* would make yq
// (argcomplete) write its completions to the file the variable names.
func TestShellEnvDropsArgcomplete(t *testing.T) {
	got := ShellEnv([]string{"_ARGCOMPLETE=1", "_ARGCOMPLETE_STDOUT_FILENAME=/home/u/.bashrc", "LANG=C"})
	if len(got) != 1 || got[0] != "LANG=C" {
		t.Errorf("ShellEnv = %q", got)
	}
}
