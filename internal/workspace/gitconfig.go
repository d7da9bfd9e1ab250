package workspace

import (
	"bytes"
	"cmp"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// maxIncludeDepth is git's own limit on nested includes (config.c
// MAX_INCLUDE_DEPTH).
const maxIncludeDepth = 10

// ConfigIncludes returns the files the git config files configs include,
// directly or through one another: the value of every include.path and
// includeIf.<condition>.path (git-config(1) "Includes"), whatever its
// condition (a branch switched to or a remote added can make it hold), a
// relative one against the directory of the file that names it, "~/"
// against home. Each is absolute and cleaned, in the order found, none
// twice, none of configs; a file that does not exist yet is listed (a
// command may create it) but not read. A file git would run code from
// (core.fsmonitor, core.pager, aliases, filters) is as dangerous in an
// included file as in .git/config, so guardsh protects them alike.
//
// A file is read only when it holds "include" in any case; its keys are
// read by git itself (`git config --file F --no-includes --get-regexp`),
// with git's quoting, escapes and continuations, else, without git, by a
// plain reading of its lines that errs towards finding more.
func ConfigIncludes(home string, configs ...string) []string {
	return configIncludes(home, includePaths, configs)
}

// GlobalConfigs returns the git config files git reads in every
// repository (git-config(1), "FILES"): GIT_CONFIG_GLOBAL when set, else
// ~/.gitconfig and $XDG_CONFIG_HOME/git/config (~/.config/git/config);
// and GIT_CONFIG_SYSTEM when set, else /etc/gitconfig, unless
// GIT_CONFIG_NOSYSTEM is true as git reads a boolean ("0", "false", "no",
// "off" are not). getenv reads the environment (os.Getenv).
func GlobalConfigs(home string, getenv func(string) string) []string {
	var out []string
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		out = append(out, g)
	} else if home != "" {
		xdg := getenv("XDG_CONFIG_HOME")
		if !filepath.IsAbs(xdg) {
			xdg = filepath.Join(home, ".config")
		}
		out = append(out, filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config"))
	}
	if !gitNoSystem(getenv("GIT_CONFIG_NOSYSTEM")) {
		out = append(out, cmp.Or(getenv("GIT_CONFIG_SYSTEM"), "/etc/gitconfig"))
	}
	return slices.DeleteFunc(out, func(f string) bool { return !filepath.IsAbs(f) })
}

// configIncludes is ConfigIncludes with paths reading the include paths
// of one file.
func configIncludes(home string, paths func(file string, data []byte) []string, configs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range configs {
		seen[filepath.Clean(c)] = true
	}
	var walk func(file string, depth int)
	walk = func(file string, depth int) {
		if depth > maxIncludeDepth {
			return
		}
		data, err := os.ReadFile(file)
		if err != nil || !bytes.Contains(bytes.ToLower(data), []byte("include")) {
			return
		}
		for _, v := range paths(file, data) {
			p := resolveInclude(v, file, home)
			if p == "" || seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, p)
			walk(p, depth+1)
		}
	}
	for _, c := range configs {
		walk(filepath.Clean(c), 1)
	}
	return out
}

// resolveInclude makes an include path v, named in file, absolute: "~/"
// against home, a relative path against file's directory (git-config(1));
// "" when it cannot be placed ("~user/", or "~/" without home).
func resolveInclude(v, file, home string) string {
	switch {
	case v == "":
		return ""
	case v == "~" || strings.HasPrefix(v, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, v[1:])
	case strings.HasPrefix(v, "~"):
		return ""
	case filepath.IsAbs(v):
		return filepath.Clean(v)
	}
	return filepath.Join(filepath.Dir(file), v)
}

// includePaths returns the values of file's include.path and
// includeIf.*.path keys, not following them.
func includePaths(file string, data []byte) []string {
	if git, err := SystemGit(); err == nil {
		cmd := exec.Command(git, "config", "--file", file, "--no-includes", "--get-regexp", `^include(if\..*)?\.path$`)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		cmd.Dir = "/" // no repository's config around
		out, err := cmd.Output()
		var ee *exec.ExitError
		switch {
		case err == nil:
			var vals []string
			for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
				if _, v, ok := strings.Cut(line, " "); ok {
					vals = append(vals, v)
				}
			}
			return vals
		case errors.As(err, &ee) && ee.ExitCode() == 1:
			return nil // no such key
		}
		// A file git cannot parse (then git refuses to run with it too),
		// or no git after all: read it as below.
	}
	return plainIncludePaths(data)
}

// plainIncludePaths reads include paths as a plain reading of git's
// syntax finds them: a "path" key in a section whose name starts with
// "include", quotes and a trailing comment taken off.
func plainIncludePaths(data []byte) []string {
	var out []string
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = strings.ToLower(strings.TrimSpace(line[1:end]))
			line = strings.TrimSpace(line[end+1:]) // [include] path = x
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !strings.HasPrefix(section, "include") || !strings.EqualFold(strings.TrimSpace(k), "path") {
			continue
		}
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, `"`) {
			if end := strings.IndexByte(v[1:], '"'); end >= 0 {
				v = v[1 : end+1]
			}
		} else if i := strings.IndexAny(v, ";#"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// RepoConfigs returns the config files git reads for the repository whose
// git directory is gitDir: its config and config.worktree, and, for a
// linked work tree (a commondir file), the common directory's config.
func RepoConfigs(gitDir string) []string {
	out := []string{filepath.Join(gitDir, "config"), filepath.Join(gitDir, "config.worktree")}
	if data, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		out = append(out, filepath.Join(filepath.Clean(c), "config"))
	}
	return out
}
