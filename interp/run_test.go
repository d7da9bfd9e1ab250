package interp

import (
	"slices"
	"testing"
)

// TestShellEnvDropsArgcomplete: an inherited _ARGCOMPLETE* would make yq
// (argcomplete) write its completions to the file the variable names.
func TestShellEnvDropsArgcomplete(t *testing.T) {
	got := ShellEnv([]string{"_ARGCOMPLETE=1", "_ARGCOMPLETE_STDOUT_FILENAME=/home/u/.bashrc", "LANG=C"})
	if len(got) != 2 || got[0] != "LANG=C" {
		t.Errorf("ShellEnv = %q", got)
	}
}

// TestShellEnvBareRepositories: git in the real shell takes bare
// repositories only when named; the caller's own GIT_CONFIG_PARAMETERS
// are kept before it.
func TestShellEnvBareRepositories(t *testing.T) {
	const bare = "'safe.bareRepository'='explicit'"
	if got := ShellEnv([]string{"LANG=C"}); !slices.Contains(got, "GIT_CONFIG_PARAMETERS="+bare) {
		t.Errorf("ShellEnv = %q", got)
	}
	got := ShellEnv([]string{"GIT_CONFIG_PARAMETERS='color.ui'='never'", "LANG=C"})
	if want := []string{"LANG=C", "GIT_CONFIG_PARAMETERS='color.ui'='never' " + bare}; !slices.Equal(got, want) {
		t.Errorf("ShellEnv = %q, want %q", got, want)
	}
}

// TestShellEnvDropsInteractiveState: what an interactive shell a command
// starts would run or write with it is not passed on (attack run 38:
// PROMPT_COMMAND ran in a `bash -i`; HISTFILE=~/.bashrc had its history
// written there).
func TestShellEnvDropsInteractiveState(t *testing.T) {
	in := []string{"PROMPT_COMMAND=touch x", "PS0=$(touch y)", "PS1=$(id)", "PS2=>", "PS3=?", "HISTFILE=/home/u/.bashrc", "histchars=%", "HISTTIMEFORMAT=%F",
		"MAILPATH=f?$(id)", "MAIL=/var/mail/u", "MAILCHECK=0", "LANG=C"}
	got := ShellEnv(in)
	if len(got) != 2 || got[0] != "LANG=C" {
		t.Errorf("ShellEnv = %q", got)
	}
}
