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

// TestGlobalIncludes: the global and system configs are git's (the
// environment's GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME, GIT_CONFIG_SYSTEM and
// GIT_CONFIG_NOSYSTEM heeded), and what they include is followed
// recursively without git.
func TestGlobalIncludes(t *testing.T) {
	base := tree(t, map[string]string{
		"home/.gitconfig":         "[include]\n\tpath = ~/dots/local\n",
		"home/.config/git/config": "[includeIf \"gitdir:~/work/\"]\n\tpath = work.gitconfig\n",
		"home/dots/local":         "[include]\n\tpath = nested\n",
		"xdg/git/config":          "[include]\n\tpath = /abs/xdg.inc\n",
		"alt.gitconfig":           "[include]\n\tpath = alt.inc\n",
		"sys.gitconfig":           "[include]\n\tpath = /abs/sys.inc\n",
	})
	home := filepath.Join(base, "home")
	for _, c := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"home", map[string]string{"GIT_CONFIG_NOSYSTEM": "1"},
			[]string{home + "/dots/local", home + "/dots/nested", home + "/.config/git/work.gitconfig"}},
		{"XDG_CONFIG_HOME", map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": base + "/xdg"},
			[]string{home + "/dots/local", home + "/dots/nested", "/abs/xdg.inc"}},
		{"GIT_CONFIG_GLOBAL", map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": base + "/alt.gitconfig"},
			[]string{base + "/alt.inc"}},
		{"GIT_CONFIG_SYSTEM", map[string]string{"GIT_CONFIG_GLOBAL": base + "/alt.gitconfig", "GIT_CONFIG_SYSTEM": base + "/sys.gitconfig"},
			[]string{base + "/alt.inc", "/abs/sys.inc"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := GlobalIncludes(home, func(k string) string { return c.env[k] })
			slices.Sort(got)
			slices.Sort(c.want)
			if !slices.Equal(got, c.want) {
				t.Errorf("GlobalIncludes = %q\nwant %q", got, c.want)
			}
		})
	}
}
