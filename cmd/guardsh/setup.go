package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// embeddedName names the built-in policy in messages.
const embeddedName = rules.DefaultFile

// configPath is the user's config file: $GUARDSH_CONFIG, else
// $XDG_CONFIG_HOME/guardsh/config.yaml, else ~/.config/guardsh/config.yaml.
// explicit reports whether the user named it (then it must exist).
func configPath() (path string, explicit bool) {
	if p := os.Getenv("GUARDSH_CONFIG"); p != "" {
		return p, true
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "guardsh", "config.yaml"), false
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "guardsh", "config.yaml"), false
	}
	return "", false
}

// loadPolicy reads the policy at path, or the embedded default when path
// is not explicit and does not exist. It returns the policy and the name
// to show for it.
func loadPolicy(path string, explicit bool) (*rules.Policy, string, error) {
	if path == "" {
		return rules.Default(), embeddedName, nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !explicit {
		return rules.Default(), embeddedName, nil
	}
	p, err := rules.Load(path)
	if err != nil {
		return nil, path, err
	}
	return p, path, nil
}

// effectiveMode applies GUARDSH_MODE, which may only make the configured
// mode stricter: the environment is the agent's to set. A looser one is
// ignored with a warning on stderr.
func effectiveMode(configured rules.Mode, stderr io.Writer) (rules.Mode, error) {
	s := os.Getenv("GUARDSH_MODE")
	if s == "" {
		return configured, nil
	}
	m, err := rules.ParseMode(s)
	if err != nil {
		return "", fmt.Errorf("GUARDSH_MODE: %w", err)
	}
	if m.Stricter(configured) || m == configured {
		return m, nil
	}
	fmt.Fprintf(stderr, "guardsh: warning: GUARDSH_MODE=%s (mode %s) is looser than the configured mode %s; ignored\n", s, m, configured)
	return configured, nil
}

// auditPath is $GUARDSH_AUDIT, else the config's audit.path, else the
// default under $XDG_STATE_HOME.
func auditPath(p *rules.Policy) (string, error) {
	if os.Getenv("GUARDSH_AUDIT") == "" && p.Audit.Path != "" {
		return expandHome(p.Audit.Path), nil
	}
	return audit.DefaultPath()
}

func expandHome(p string) string {
	if h, err := os.UserHomeDir(); err == nil && (p == "~" || len(p) > 1 && p[:2] == "~/") {
		return filepath.Join(h, p[1:])
	}
	return p
}

// canonical makes p absolute and resolves its symlinks where it exists.
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// workspaceOf is the root of the git work tree holding dir, else dir.
func workspaceOf(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// newGuard builds the guard for a policy, mode and working directory.
// protected are extra paths only a human may approve writing.
func newGuard(p *rules.Policy, policyFile string, mode rules.Mode, cwd string, protected ...string) *guard.Guard {
	cwd = canonical(cwd)
	home, _ := os.UserHomeDir()
	if home != "" {
		home = canonical(home)
	}
	if policyFile != embeddedName {
		protected = append(protected, canonical(policyFile))
	}
	if exe, err := os.Executable(); err == nil {
		protected = append(protected, canonical(exe))
	}
	var sources interp.SourceCache
	if dir := sourceCacheDir(home); dir != "" {
		// What the cache says a sourced file runs is believed: it is
		// guarded like the config file.
		sources = interp.DirCache{Dir: dir}
		protected = append(protected, canonical(dir), canonical(dir)+"/*")
	}
	return &guard.Guard{
		Policy:     p,
		Verdicts:   sources,
		PolicyFile: policyFile,
		Context: rules.Context{
			Mode:      mode,
			Cwd:       cwd,
			Home:      home,
			Workspace: workspaceOf(cwd),
			Protected: protected,
		},
		Analysis: interp.Options{Home: home, Sources: sources, Dir: cwd},
	}
}

// sourceCacheDir is where the analyses of sourced files (shell snapshots)
// are kept between runs: $XDG_CACHE_HOME/guardsh/source, else
// ~/.cache/guardsh/source; "" when neither is known.
func sourceCacheDir(home string) string {
	if x := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "guardsh", "source")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cache", "guardsh", "source")
}
