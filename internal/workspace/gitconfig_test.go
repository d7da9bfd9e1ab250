package workspace

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestConfigIncludes follows include.path and includeIf.*.path the way
// git-config(1) places them: relative to the including file's directory,
// "~/" at home, recursively, cycles once, whatever the condition.
func TestConfigIncludes(t *testing.T) {
	base := tree(t, map[string]string{
		"repo/.git/config": "[core]\n\tbare = false\n[include]\n\tpath = ../shared.gitconfig\n" +
			"[includeIf \"onbranch:never/*\"]\n\tpath = \"../conf/branch.gitconfig\" ; a comment\n",
		"repo/shared.gitconfig":      "[Include] path = conf/nested.gitconfig\n",
		"repo/conf/nested.gitconfig": "[include]\n\tpath = ../shared.gitconfig\n\tpath = ~/home.gitconfig\n\tpath = /abs/x.gitconfig\n",
		"home/":                      "",
	})
	home := filepath.Join(base, "home")
	want := []string{
		base + "/repo/shared.gitconfig",
		base + "/repo/conf/nested.gitconfig",
		home + "/home.gitconfig",
		"/abs/x.gitconfig",
		base + "/repo/conf/branch.gitconfig",
	}
	got := ConfigIncludes(home, RepoConfigs(filepath.Join(base, "repo/.git"))...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("ConfigIncludes = %q\nwant %q", got, want)
	}
}

// TestPlainIncludePathsAsGit: without git, the plain reading finds what
// git finds in the common forms.
func TestPlainIncludePathsAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	data := "[include]\n\tpath = a.gitconfig\n[includeIf \"gitdir:~/w/\"]\n  path = \"b c.gitconfig\"\n" +
		"[include] path = d.gitconfig # comment\n[core]\n\tpath = not-an-include\n[INCLUDE]\n\tPath=e.gitconfig\n"
	base := tree(t, map[string]string{"c": data})
	git := includePaths(filepath.Join(base, "c"), []byte(data))
	plain := plainIncludePaths([]byte(data))
	want := []string{"a.gitconfig", "b c.gitconfig", "d.gitconfig", "e.gitconfig"}
	if !slices.Equal(git, want) || !slices.Equal(plain, want) {
		t.Errorf("git found %q, the plain reading %q; want %q", git, plain, want)
	}
}
