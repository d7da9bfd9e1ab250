package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/fsview"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/internal/workspace"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/prompt"
	"github.com/guardsh/guardsh/rules"
)

// embeddedName names the built-in policy in messages.
const embeddedName = rules.DefaultFile

// configPath is the user's config file: $GUARDSH_CONFIG, else
// $XDG_CONFIG_HOME/guardsh/config.yaml, else ~/.config/guardsh/config.yaml.
// explicit reports whether the user named it (then it must exist, and
// loadFor refuses a relative one). GUARDSH_CONFIG names the user layer: it
// has the user config's powers, within what the system config fixes.
func configPath() (path string, explicit bool) {
	if p := os.Getenv("GUARDSH_CONFIG"); p != "" {
		return p, true
	}
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		// A relative one is ignored, as the XDG Base Directory
		// specification says (an attack run's XDG_CONFIG_HOME=.cfg
		// named a config in each directory a command ran in).
		return filepath.Join(x, "guardsh", "config.yaml"), false
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "guardsh", "config.yaml"), false
	}
	return "", false
}

// systemConfig is the system layer's config file (see rules.Layers). It
// is a variable only so that tests can point it elsewhere; nothing a user
// or agent sets at run time changes it.
var systemConfig = "/etc/guardsh/config.yaml"

// projectConfig is the project layer's file name, at the workspace root.
const projectConfig = ".guardsh.yaml"

// loaded is the effective policy and where it came from.
type loaded struct {
	policy *rules.Policy
	// name is the user's config file, or "<embedded default>", for
	// guidance in messages; userPath is where the user's config was
	// looked for.
	name, userPath string
	// files are the config files read, canonical: protected paths.
	files []string
	// warnings say what a layer set but may not (rules.Merge).
	warnings []rules.Finding
	// projects are the project files looked for, outermost first.
	projects []string
	// guarded are the config files guardsh reads, there or not: a
	// command writing one needs a human's yes (a project file an agent
	// creates would tighten the policy at best, and a broken one stops
	// every command until a human fixes it).
	guarded []string
}

// loadPolicy reads the layers: the system config if it exists, the
// user's config at path (the embedded default when path is not explicit
// and does not exist) and the .guardsh.yaml of each project directory in
// dirs (outermost first, see workspace.Layout.Dirs) that exists, and
// merges them (rules.Merge). Any config file that exists but cannot be
// read or parsed is an error naming it (fail closed).
func loadPolicy(path string, explicit bool, dirs []string) (loaded, error) {
	var l rules.Layers
	var out loaded
	optional := func(file string) (*rules.Policy, error) {
		if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		p, err := rules.Load(file)
		if err == nil {
			out.files = append(out.files, canonical(file))
		}
		return p, err
	}
	out.guarded = append(out.guarded, canonicalFile(systemConfig))
	if path != "" {
		out.guarded = append(out.guarded, canonicalFile(path))
	}
	for _, d := range dirs {
		f := canonicalFile(filepath.Join(d, projectConfig))
		out.guarded = append(out.guarded, f)
		out.projects = append(out.projects, f)
	}
	var err error
	if l.System, err = optional(systemConfig); err != nil {
		return out, err
	}
	out.name, out.userPath = embeddedName, path
	if path != "" {
		if !explicit {
			l.User, err = optional(path)
		} else if l.User, err = rules.Load(path); err == nil {
			out.files = append(out.files, canonical(path))
		}
		if err != nil {
			return out, err
		}
	}
	if l.User != nil {
		out.name = path
	} else {
		l.User = rules.Default()
	}
	for _, d := range dirs {
		p, err := optional(filepath.Join(d, projectConfig))
		if err != nil {
			return out, err
		}
		if p != nil {
			l.Projects = append(l.Projects, p)
		}
	}
	out.policy, out.warnings = rules.Merge(l)
	out.warnings = append(out.warnings, auditEnvIgnored(out.policy)...)
	return out, nil
}

// loadFor finds the workspace of the working directory cwd and loads the
// layers for it: the user config is configFile when given (it must then
// exist), else configPath's. It returns the policy, the workspace and its
// root (see layout), or the config error.
func loadFor(cwd, configFile string, stderr io.Writer) (cfg loaded, ws, root string, err error) {
	ws, lay := layout(canonical(cwd), stderr)
	path, explicit := configPath()
	if configFile != "" {
		path, explicit = configFile, true
	} else if explicit && !filepath.IsAbs(path) {
		// Relative, it would name another file in each directory a
		// command runs in: one the agent wrote there.
		return cfg, ws, root, fmt.Errorf("GUARDSH_CONFIG=%q is not an absolute path", path)
	}
	if err := envPlacesOutside(ws, lay.Root); err != nil {
		return cfg, ws, lay.Root, err
	}
	cfg, err = loadPolicy(path, explicit, lay.Dirs)
	return cfg, ws, lay.Root, err
}

// accountHome is the home directory of the account guardsh runs as, from
// the user database (not HOME), or "" when it cannot be looked up.
func accountHome() string {
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

// envPlacesOutside refuses a user config or state directory the
// environment places in the workspace (ws, or the work tree root holding
// it): GUARDSH_CONFIG, XDG_CONFIG_HOME, XDG_STATE_HOME, GUARDSH_AUDIT. The
// commands guardsh runs there may write the workspace (mode auto, a jail),
// and an agent that loads a project's .env at its start (Gemini CLI,
// Aider) takes its environment from a file there: a policy or a log an
// agent wrote would be guardsh's own (attack run 35: GUARDSH_CONFIG naming
// a mode bypass of the agent's). The default places under the home
// directory, protected paths, are not refused even when the home is a
// work tree.
func envPlacesOutside(ws, root string) error {
	home, _ := os.UserHomeDir()
	if home != "" {
		// HOME set to a project's work tree, or to a place inside one,
		// moves the config and the log there with it (HOME from a
		// project's .env): refused unless it is the account's own home
		// (a home kept in git is a work tree too).
		h := canonical(home)
		_, isTree := os.Lstat(filepath.Join(h, ".git"))
		_, wsTree := os.Lstat(filepath.Join(ws, ".git"))
		inWs := ws != "" && wsTree == nil && (h == ws || strings.HasPrefix(h, ws+"/"))
		if (isTree == nil || inWs) && h != canonical(accountHome()) {
			return fmt.Errorf("HOME=%s is a project's work tree or lies in one, and not your account's home: the commands guardsh runs may write it (and an agent may set its environment from a file there), so guardsh takes no policy or state from there", home)
		}
	}
	if key, ok := workspace.EnvRunsProgram(os.LookupEnv); ok {
		// git would run it at the next git command, read-only ones
		// included (attack run 37: GIT_CONFIG_* with core.fsmonitor in
		// a project's .env an agent loaded at its start).
		return fmt.Errorf("the environment gives git configuration whose value git runs (%s, in GIT_CONFIG_COUNT/KEY/VALUE or GIT_CONFIG_PARAMETERS), which an agent may have set from a project's .env: guardsh runs nothing with it; unset it, or put it in ~/.gitconfig", key)
	}
	if ws == "" {
		return nil // no workspace (the home directory, "/"): writes there ask
	}
	for _, v := range []struct{ name, def string }{
		{"GUARDSH_CONFIG", filepath.Join(home, ".config", "guardsh", "config.yaml")},
		{"XDG_CONFIG_HOME", filepath.Join(home, ".config")},
		{"XDG_STATE_HOME", filepath.Join(home, ".local", "state")},
		{"GUARDSH_AUDIT", filepath.Join(home, ".local", "state", "guardsh", "audit.jsonl")},
	} {
		val := os.Getenv(v.name)
		if val == "" || !filepath.IsAbs(val) {
			continue // a relative GUARDSH_CONFIG is refused by loadFor
		}
		c := canonicalFile(val)
		if home != "" && c == canonicalFile(v.def) {
			continue
		}
		for _, d := range []string{ws, root} {
			if d != "" && (c == d || strings.HasPrefix(c, d+"/")) {
				return fmt.Errorf("%s=%s lies in the workspace %s, which the commands guardsh runs may write (and an agent may set its environment from a file there): guardsh takes no policy or state from there; use a place outside it (the default is under ~/.config and ~/.local/state)", v.name, val, d)
			}
		}
	}
	return nil
}

// warnLayers prints the warnings of the merge on w, one line each:
// "guardsh: warning: FILE:LINE: PROBLEM".
func (l loaded) warnLayers(w io.Writer) {
	l.printWarnings(w)
}

// warnLayersOnce prints the warnings as warnLayers does the first time a
// shell invocation meets them, and not again while the config files are
// unchanged: an agent reads stderr of every command, and the same lines
// each time are noise. A marker file under the cache directory, named by a
// hash of the warnings and of the files' sizes and times, remembers them.
// `guardsh check`, `config show` and `config lint` always print them.
func (l loaded) warnLayersOnce(w io.Writer, home string) {
	if len(l.warnings) == 0 {
		return
	}
	dir := sourceCacheDir(home)
	if dir == "" {
		l.printWarnings(w)
		return
	}
	h := sha256.New()
	for _, f := range l.warnings {
		fmt.Fprintf(h, "%s:%d:%s\n", f.File, f.Line, f.Problem)
		if info, err := os.Stat(f.File); err == nil {
			fmt.Fprintf(h, "%d %d\n", info.Size(), info.ModTime().UnixNano())
		}
	}
	marker := filepath.Join(filepath.Dir(dir), "warned", hex.EncodeToString(h.Sum(nil))[:32])
	if _, err := os.Stat(marker); err == nil {
		return
	}
	l.printWarnings(w)
	if os.MkdirAll(filepath.Dir(marker), 0o700) == nil {
		os.WriteFile(marker, nil, 0o600)
	}
}

func (l loaded) printWarnings(w io.Writer) {
	for _, f := range l.warnings {
		at := f.File
		if f.Line > 0 {
			at += ":" + strconv.Itoa(f.Line)
		}
		fmt.Fprintf(w, "guardsh: warning: %s: %s\n", at, f.Problem)
	}
}

// effectiveMode applies GUARDSH_MODE and then flag (--mode), which may
// only make the configured mode stricter: the environment is the agent's
// to set. A looser one is ignored with a warning on stderr.
func effectiveMode(configured rules.Mode, flag string, stderr io.Writer) (rules.Mode, error) {
	mode := configured
	for _, src := range []struct{ name, value string }{{"GUARDSH_MODE", os.Getenv("GUARDSH_MODE")}, {"--mode", flag}} {
		if src.value == "" {
			continue
		}
		m, err := rules.ParseMode(src.value)
		if err != nil {
			return "", fmt.Errorf("%s: %w", src.name, err)
		}
		if m, ok := rules.Tighten(mode, m); ok {
			mode = m
			continue
		}
		shown := mode
		if shown == "" {
			shown = rules.AskMode
		}
		sep := " "
		if src.name == "GUARDSH_MODE" {
			sep = "="
		}
		fmt.Fprintf(stderr, "guardsh: warning: %s%s%s (mode %s) is looser than the configured mode %s; ignored\n", src.name, sep, src.value, m, shown)
	}
	return mode, nil
}

// auditPath is the config's audit.path (the system's over the user's,
// rules.Merge), else $GUARDSH_AUDIT, else the default under
// $XDG_STATE_HOME: the environment, the agent's to set, places the log
// only where no config does (see auditEnvIgnored).
func auditPath(p *rules.Policy) (string, error) {
	if p.Audit.Path != "" {
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

// files is what this guardsh process has looked up while setting up: a
// command's start resolves its config files, the workspace and the
// protected paths, most beneath the same few directories, each of which
// it now looks up once.
var files = fsview.New()

// canonical makes p absolute and resolves its symlinks where it exists
// (filepath.EvalSymlinks, through files).
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, ok := files.Resolve(p); ok {
		return r
	}
	return filepath.Clean(p)
}

// canonicalFile is canonical for a file that may not exist: its
// directory's links resolved, so that a write through either spelling
// is seen.
func canonicalFile(p string) string {
	c := canonical(p)
	if _, err := os.Lstat(c); err != nil {
		return filepath.Join(canonical(filepath.Dir(c)), filepath.Base(c))
	}
	return c
}

// layout returns the workspace of the working directory dir and where its
// policy comes from (workspace.Find): ws is "" when the innermost work
// tree holding dir (else dir) is the home directory or "/" (no
// workspace), else that directory, or GUARDSH_WORKSPACE when that names a
// directory within it (the environment may only narrow which writes count
// as workspace writes) — otherwise it is ignored with a warning. The
// layout's Root, where relative path patterns are anchored, is the
// outermost work tree below home; a nested work tree, or one an agent
// made, moves neither it nor the project files read.
func layout(dir string, stderr io.Writer) (ws string, lay workspace.Layout) {
	home, err := os.UserHomeDir()
	if err == nil {
		home = canonical(home)
	}
	lay = findLayout(dir, home)
	top := lay.Top
	if top == "/" || (err == nil && (top == home || len(lay.Git) == 0 && strings.HasPrefix(home+"/", top+"/") || hiddenInHome(lay, home))) {
		// Started in the home directory, a directory holding it outside
		// a work tree (/home: attack run 84 wrote other projects and
		// ~/.gradle/init.d there as workspace writes), at the root, or in a hidden directory of
		// the home outside a work tree (~/.config: every tool's
		// settings): none of it is a workspace. Nothing counts as a
		// workspace write but the temp directory.
		return "", lay
	}
	if w := os.Getenv("GUARDSH_WORKSPACE"); w != "" {
		c := canonical(w)
		// Not inside a .git: a workspace narrowed to the repository's
		// own .git kept none of its protected paths (they were looked for
		// at .git/.git/…), and a jailed command planted a hook and a
		// core.fsmonitor unseen (an attack run's find).
		inGit := slices.Contains(strings.Split(c, "/"), ".git")
		if fi, err := os.Stat(c); err == nil && fi.IsDir() && !inGit && (c == top || strings.HasPrefix(c, top+"/")) {
			return c, lay
		}
		fmt.Fprintf(stderr, "guardsh: warning: GUARDSH_WORKSPACE=%s is not a directory within the workspace %s (outside any .git); ignored\n", w, top)
	}
	return top, lay
}

// hiddenInHome reports a layout with no work tree around its directory
// (Top is the directory itself) that lies in a hidden directory of home
// (~/.config/x, ~/.local/share): the settings and data of the user's
// tools, no project.
func hiddenInHome(lay workspace.Layout, home string) bool {
	rest, ok := strings.CutPrefix(lay.Top, home+"/")
	return ok && len(lay.Git) == 0 && strings.HasPrefix(rest, ".")
}

// layouts remembers the layouts this process found, by working and home
// directory: a command's start looks for its config files and builds its
// guard from the same directory (see files).
var layouts sync.Map // [2]string → workspace.Layout

// findLayout is workspace.Find, once per directory and home.
func findLayout(dir, home string) workspace.Layout {
	key := [2]string{dir, home}
	if l, ok := layouts.Load(key); ok {
		return l.(workspace.Layout)
	}
	l := workspace.Find(dir, home)
	layouts.Store(key, l)
	return l
}

// executable is os.Executable's path, "" when it fails: read once per
// process (a readlink of /proc/self/exe that every command's start made
// twice).
var executable = sync.OnceValue(func() string {
	p, _ := os.Executable()
	return p
})

// newGuard builds the guard for a policy, mode and working directory.
// protected are extra paths only a human may approve writing. Without
// paths (a command that can name none: `true`, `:`, `false` alone, see
// noOp), the git files of the repositories and what the user's and the
// system's git config reach are not looked up: they are protected paths,
// and such a command writes, reads and runs none.
func newGuard(p *rules.Policy, policyFile string, mode rules.Mode, cwd, ws, root string, paths bool, protected ...string) *guard.Guard {
	cwd = canonical(cwd)
	home, _ := os.UserHomeDir()
	if home != "" {
		home = canonical(home)
	}
	if exe := executable(); exe != "" {
		protected = append(protected, canonical(exe))
	}
	if home != "" {
		// A file in the approvals spool lets a command run.
		dir := prompt.SpoolDir(home)
		protected = append(protected, canonical(dir), canonical(dir)+"/*")
	}
	var sources interp.SourceCache
	if dir := sourceCacheDir(home); dir != "" {
		// What the cache says a sourced file runs is believed: it is
		// guarded like the config file.
		sources = interp.DirCache{Dir: dir}
		protected = append(protected, canonical(dir), canonical(dir)+"/*")
	}
	// The project directories of cwd, when root is theirs (the caller's
	// layout): relative deny and ask rules hold at each, and the git
	// config of each directory holding a .git is guarded.
	var anchors []string
	if lay := findLayout(cwd, home); lay.Root == root {
		anchors = lay.Dirs
		for _, d := range lay.Git {
			if paths {
				protected = append(protected, gitProtected(d)...)
			}
		}
	}
	if top := cmp.Or(root, ws); top != "" && anchors == nil && paths {
		protected = append(protected, gitProtected(top)...)
	}
	// What the user's and the system's git config (and the environment's)
	// make git read or run in every repository: the config files and what
	// they include, the programs they name, the hook directories (a
	// ~/.gitconfig including ~/dotfiles/git/local, or naming
	// ~/dotfiles/bin/fsmon as core.fsmonitor, written in the dotfiles
	// workspace, ran at the next git status anywhere).
	var reach workspace.GitReach
	switch {
	case !paths:
	case home != "":
		reach = workspace.GlobalReach(home, os.LookupEnv, filepath.Join(jailsDir(home), "gitreach.json"))
	default:
		reach = workspace.GlobalReach(home, os.LookupEnv, "")
	}
	// A relative core.hooksPath of the global config names a directory
	// in every repository, those a command makes or reaches (a nested
	// one, one whose .git file it writes) included: wherever it lies.
	for _, rel := range reach.RelDirs {
		protected = append(protected, "*/"+rel, "*/"+rel+"/*")
	}
	for _, list := range []*[]string{&reach.Files, &reach.Programs, &reach.Dirs} {
		for i, p := range *list {
			if list == &reach.Dirs {
				(*list)[i] = canonical(p)
				protected = append(protected, (*list)[i], (*list)[i]+"/*")
			} else {
				(*list)[i] = canonicalFile(p)
				protected = append(protected, (*list)[i])
			}
		}
	}
	// A file opened for writing under /proc/PID/fd is that process's
	// pipe or file: written there, a shell's script (a stream's or an
	// interactive session's bash reads one) gets lines no one analysed.
	protected = append(protected, "/proc", "/proc/*")
	unavailable := ""
	if p.Sandbox.On() || p.Sandbox.OffBy != "" {
		unavailable = sandbox.Unavailable()
	}
	return &guard.Guard{
		GlobalGit:          reach,
		SandboxUnavailable: unavailable,
		Policy:             p,
		Verdicts:           sources,
		PolicyFile:         policyFile,
		Context: rules.Context{
			Mode:      mode,
			Cwd:       cwd,
			Home:      home,
			Workspace: ws,
			Root:      root,
			Anchors:   anchors,
			Protected: protected,
		},
		Analysis: interp.Options{Home: home, Sources: sources, Dir: cwd, Env: os.LookupEnv},
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

// gitProtected returns the places outside .git/ that git of the repository
// at ws reads code or configuration from, as protected paths: the git
// directory a .git file points to ("gitdir: …", worktrees and submodules
// made so, or a .git a command replaced), where .git/hooks leads when it is
// a link, and the core.hooksPath of .git/config (husky's .husky): a hook
// written there runs at the next commit (an attack run's find). Each place
// and everything below it; none when ws has no .git. And the files the
// repository's config includes (workspace.ConfigIncludes), each alone.
func gitProtected(ws string) []string {
	var out []string
	add := func(p string) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(ws, p)
		}
		p = canonical(p)
		out = append(out, p, p+"/*")
	}
	git := filepath.Join(ws, ".git")
	info, err := os.Lstat(git)
	if err != nil {
		return nil
	}
	gitDir := git
	if !info.IsDir() {
		data, err := os.ReadFile(git)
		if err != nil {
			return nil
		}
		dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
		if !ok {
			return nil
		}
		gitDir = strings.TrimSpace(dir)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(ws, gitDir)
		}
		add(gitDir)
	}
	if real := canonical(filepath.Join(gitDir, "hooks")); !strings.HasPrefix(real, canonical(gitDir)+"/") {
		add(real)
	}
	// The files the repository's config includes (include.path,
	// includeIf.*.path): git runs their core.fsmonitor as its own (an
	// attack run appended one to a tracked shared.gitconfig).
	home, _ := os.UserHomeDir()
	for _, f := range workspace.ConfigIncludes(home, workspace.RepoConfigs(gitDir)...) {
		out = append(out, canonicalFile(f))
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "config"))
	if err != nil {
		return out
	}
	found := false
	section := ""
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = strings.ToLower(strings.Trim(strings.Fields(line + " ")[0], "[]"))
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && section == "core" && strings.EqualFold(strings.TrimSpace(k), "hookspath") {
			if i := strings.IndexAny(v, ";#"); i >= 0 && !strings.Contains(v[:i], `"`) {
				v = v[:i] // a comment after the value
			}
			if v = strings.Trim(strings.TrimSpace(v), `"`); v != "" && !strings.ContainsAny(v, `"\`) {
				found = true
				add(expandHome(v))
			}
		}
	}
	if lower := strings.ToLower(string(data)); strings.Contains(lower, "include") || !found && strings.Contains(lower, "hookspath") {
		// Includes, quoting, continuations, a one-line section: git's
		// syntax, which git itself reads (an attack run set
		// core.hooksPath through include.path and a one-line [core]
		// section). Only for such a config: git costs a process start.
		if v, ok := gitHooksPath(ws); ok && v != "" {
			add(expandHome(v))
		}
	}
	return out
}

// gitHooksPath asks git for the core.hooksPath of the repository at ws,
// with its includes; ok is false when git could not answer (then the
// file is read as guardsh reads it). "" when none is set.
func gitHooksPath(ws string) (string, bool) {
	git, err := workspace.SystemGit()
	if err != nil {
		return "", false
	}
	cmd := exec.Command(git, "-C", ws, "config", "--get", "core.hooksPath")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return strings.TrimSpace(string(out)), true
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		return "", true // not set
	}
	return "", false
}
