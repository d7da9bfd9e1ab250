package guard

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/guardsh/guardsh/internal/fsview"
	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"

	"golang.org/x/sys/unix"
)

// contain turns an Ask into a jailed Allow when the policy's sandbox is on
// and every segment that asks could be contained by the jail (see
// rules.Sandboxable); under sandbox: strict an allowed command runs jailed
// too. When the jail is needed but g.SandboxUnavailable says the kernel
// cannot provide it, or a protected path outside the workspace leads
// where a jail writes outside it (see linkedOutside), o keeps asking and
// says why in o.SandboxNote. A deny, a command not understood, or any
// segment asking for another reason is left as it is: the sandbox widens
// nothing a rule forbids.
//
// A git segment allowed by its class in a repository a jail may have
// written (see untrustedRepo), and a program the rules allow by its class
// while PATH or another inherited variable leads to where a jail may have
// written (see plantedVar), run jailed as well: what they run may be of
// an earlier jailed command's making, of this workspace or another (see
// mayHaveWritten). Where no jail can be had they ask instead. cwds are the
// directories the command's cd may lead to, and cwdUnknown says they are
// not known (see Evaluate).
func (g *Guard) contain(o *Outcome, cwds []string, cwdUnknown bool) {
	sb := g.Policy.Sandbox
	if sb.OffBy != "" && !sb.On() && o.Err == nil && o.Decision != rules.Deny {
		g.askUnjailed(o, cwds, cwdUnknown)
		return
	}
	if !sb.On() || o.Err != nil || o.Decision == rules.Deny {
		if !sb.On() && o.Err == nil && o.Decision != rules.Deny {
			g.askWorkspaceLoads(o)
			g.askNestedRepos(o, cwds, cwdUnknown)
		}
		return
	}
	unavailable := g.unavailable()
	mode := g.mode()
	if o.Decision == rules.Allow {
		if mode == rules.Bypass {
			return
		}
		if sb.Mode == rules.SandboxStrict {
			if unavailable == "" {
				unavailable = g.linkedOutside()
			}
			if unavailable != "" {
				o.SandboxNote = unavailable
				o.Decision, o.DecidedBy = rules.Ask, "sandbox"
				return
			}
			o.jailed(sb.Mode)
			return
		}
		// What may run what an earlier jailed command planted runs
		// jailed; where no jail can run (the kernel, a session that
		// jails nothing), it asks.
		where := sync.OnceValue(func() written {
			p, err := g.mayHaveWritten(unavailable == "")
			return written{p, err}
		})
		env := sync.OnceValue(func() string { return g.plantedVar(environ(), where().places, where().err) })
		planted := false // a segment may run what a jail planted
		for i := range o.Segments {
			c := &o.Segments[i]
			why := ""
			if repo := g.untrustedRepo(*c, cwds, cwdUnknown, where); repo != "" {
				why = "the repository " + repo + " lies where a jailed command writes, so its config and hooks may run anything"
			} else if runsProgram(*c) {
				why = env()
			}
			if why == "" {
				continue
			}
			planted = true
			if unavailable != "" {
				c.Verdict.Decision = rules.Ask
				c.Verdict.Reason += "; " + why + "; no jail can run it here, so it asks"
				continue
			}
			c.Sandboxed = true
			c.Verdict.Reason += "; runs inside the sandbox: " + why
		}
		switch {
		case planted && unavailable != "":
			o.Decision, o.DecidedBy, o.SandboxNote = rules.Ask, "sandbox", unavailable
		case planted:
			o.DecidedBy = "sandbox"
			if why := g.linkedOutside(); why != "" {
				// It must run jailed, and no jail may run here.
				o.SandboxNote = why
				o.Decision = rules.Ask
				return
			}
			o.jailed(sb.Mode)
		}
		return
	}
	// Each segment that asks must be one the jail takes: by what it is
	// (rules.Sandboxable), or a write beneath a directory the jail may
	// write (sandbox.write; see jailTakes).
	var writes []int
	for i, c := range o.Segments {
		if c.Verdict.Decision == rules.Allow || rules.Sandboxable(c.Verdict, mode) {
			continue
		}
		if unavailable == "" && outsideWrite(c.Verdict) && len(g.Policy.Sandbox.Write) > 0 && g.jailTakes(c, nil, cwds, cwdUnknown, mode) {
			writes = append(writes, i)
			continue
		}
		if unavailable == "" {
			g.explainUnjailed(o, cwds, cwdUnknown, mode)
		}
		return
	}
	if unavailable == "" {
		unavailable = g.linkedOutside()
	}
	if unavailable != "" {
		o.SandboxNote = unavailable
		return
	}
	for i := range o.Segments {
		c := &o.Segments[i]
		if c.Verdict.Decision == rules.Ask {
			c.Sandboxed = true
			c.Verdict.Decision = rules.Allow
			c.Verdict.Reason += "; runs inside the sandbox (sandbox: " + string(sb.Mode) + ")"
			if slices.Contains(writes, i) {
				c.Verdict.Reason += ", which may write there (sandbox.write)"
			}
			c.Verdict.Suggest = ""
		}
	}
	o.Decision, o.DecidedBy = rules.Allow, "sandbox"
	o.jailed(sb.Mode)
}

// askWorkspaceLoads makes, without a sandbox and but in mode bypass, a
// segment that runs a program ask while an inherited variable (PATH and
// plantVars, see plantedVarIn) leads programs to code or config in the
// workspace (or a relative place): what the agent writes there, or a cloned
// repository holds, would run unasked through a command the rules allow
// (attack run 38: NODE_OPTIONS=--require ./x.js, GIT_EXTERNAL_DIFF,
// GIT_CONFIG_GLOBAL from a project's .env the agent loaded, then `npx
// -v`, `git diff`, `git status`). With the sandbox on, such a segment runs
// jailed (see contain).
func (g *Guard) askWorkspaceLoads(o *Outcome) {
	if g.mode() == rules.Bypass {
		return
	}
	// The workspace (a relative place is taken for one in it): the temp
	// directories are left out here, where a home in one (HOME and the
	// XDG variables are among plantVars) would make every command ask.
	var places []string
	if ws := g.Context.Workspace; ws != "" {
		places = append(places, ws, resolveLoose(ws))
	}
	why := ""
	for i := range o.Segments {
		c := &o.Segments[i]
		// By class or by an allow rule: the rule vouches for the
		// command, not for what a variable leads it to (attack run 39:
		// GIT_SSH_COMMAND=./p.sh under an allow rule for git fetch).
		seg := c.Segment
		if c.Verdict.Decision != rules.Allow || seg.Kind != interp.Exec || len(seg.Args) == 0 || seg.Function ||
			!seg.Args[0].Dynamic() && interp.Builtin(seg.Args[0].Value) {
			continue
		}
		if why == "" {
			why = g.workspaceLoads(places)
			if why == "" {
				return
			}
		}
		o.askFor(c, why)
	}
}

// askFor makes c, allowed, ask for why, and o with it.
func (o *Outcome) askFor(c *Checked, why string) {
	c.Verdict.Decision = rules.Ask
	c.Verdict.Reason += "; " + why
	if o.Decision == rules.Allow {
		o.Decision, o.DecidedBy = rules.Ask, "class"
	}
}

// askNestedRepos asks, in modes ask and auto with no sandbox, for a git
// segment allowed by its class (in mode bypass, for one that writes the
// work tree, which such a repository's core.worktree may put anywhere) that runs in a repository inside the
// workspace other than the workspace's own: a directory holding .git made
// by a command (or a .git file naming a repository anywhere), whose config
// and hooks are no protected path, and which git runs (attack run 63:
// `cd sub && git status` ran sub/.git/config's core.fsmonitor, unasked).
// With the sandbox on, such a segment runs jailed (untrustedRepo).
func (g *Guard) askNestedRepos(o *Outcome, cwds []string, cwdUnknown bool) {
	ws := g.Context.Workspace
	if ws == "" {
		return
	}
	bypass := g.mode() == rules.Bypass
	dropsSafety := sync.OnceValue(func() bool { return dropsGitSafety(o.Segments) })
	found := map[string]string{} // see discover
	// A cd's directory as written (//ws/sub, ~//ws): compared with the
	// workspace as text, it was outside it, and the nested repository
	// there went unasked (attack run 69).
	clean := make([]string, len(cwds))
	for k, d := range cwds {
		clean[k] = filepath.Clean(d)
	}
	cwds = clean
	for i := range o.Segments {
		c := &o.Segments[i]
		seg := c.Segment
		if c.Verdict.Decision != rules.Allow || c.Verdict.Rule != nil || seg.Kind != interp.Exec || len(seg.Args) == 0 ||
			filepath.Base(seg.Args[0].Value) != "git" || gitConfigOnly(seg) {
			continue
		}
		if bypass {
			// Mode bypass runs what a config names; not a work tree
			// such a config puts anywhere (core.worktree=$HOME: attack
			// run 65's checkout over ~/.bashrc), a protected write.
			words := make([]string, len(seg.Args))
			for k, a := range seg.Args {
				words[k] = a.Value
			}
			if !rules.GitWritesWorkTree(words) {
				continue
			}
		}
		why := ""
		if cwdUnknown {
			why = "git runs where a cd leads that is not there now or only known at run time, in a repository whose config and hooks may be of a command's making (a clone, git init)"
		}
		if why == "" && dropsSafety() {
			why = "the command runs git without the safe.bareRepository=explicit guardsh gives it (env -i, env -u GIT_CONFIG_PARAMETERS, exec -c, unset), so git may take a directory of the workspace for a bare repository and run its config"
		}
		for _, dir := range cwds {
			if why != "" {
				break
			}
			if bare := bareBelow(dir, ws); bare != "" {
				why = "the directory " + bare + " has a bare repository's layout (HEAD, objects, refs), whose config git runs"
			}
		}
		for _, dir := range cwds {
			if why != "" {
				break
			}
			// Only a repository inside the workspace is asked
			// about: the search for one stops where it leaves it.
			repo, _, ok := gitRepo(seg, dir, found, ws)
			switch {
			case !ok:
				why = "git's repository is only known at run time, and its config and hooks may be of a command's making"
			case repo != "" && repo != ws && JailWrites(repo, []string{ws}) && !submoduleOf(repo, ws):
				why = "the repository " + repo + " is not the workspace's own: its config and hooks are no protected path, and git runs what they name"
			}
		}
		if why == "" {
			continue
		}
		o.askFor(c, why)
	}
}

// dropsGitSafety reports a segment that takes GIT_CONFIG_PARAMETERS (and
// with it safe.bareRepository=explicit, see interp.ShellEnv) away from
// what it runs: env -i or --ignore-environment, env -u or --unset of it,
// exec -c, unset of it (attack run 66: `env -u GIT_CONFIG_PARAMETERS git
// status` in a planted bare layout ran its core.fsmonitor).
func dropsGitSafety(segs []Checked) bool {
	for _, c := range segs {
		args := c.Segment.Args
		if len(args) == 0 {
			continue
		}
		name := filepath.Base(args[0].Value)
		for i, a := range args[1:] {
			v := a.Value
			switch {
			case name == "env" && (v == "-i" || v == "--ignore-environment" || v == "-" || strings.Contains(v, "GIT_CONFIG_PARAMETERS") ||
				strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsRune(v, 'i')):
				return true
			case name == "exec" && i == 0 && strings.HasPrefix(v, "-") && strings.ContainsRune(v, 'c'):
				return true
			case name == "unset" && strings.Contains(v, "GIT_CONFIG_PARAMETERS"):
				return true
			}
		}
	}
	return false
}

// bareBelow returns the first directory from dir up to ws (not ws
// itself) holding HEAD, objects and refs, a bare repository's layout
// (gitrepository-layout(5)), or "".
func bareBelow(dir, ws string) string {
	for d := dir; d != ws && JailWrites(d, []string{ws}); d = filepath.Dir(d) {
		ok := true
		for _, n := range []string{"HEAD", "objects", "refs"} {
			if _, err := os.Lstat(filepath.Join(d, n)); err != nil {
				ok = false
				break
			}
		}
		if ok {
			return d
		}
	}
	return ""
}

// worktreeGitDirs returns the git directory ws's .git file names and
// that directory's commondir, cleaned, when ws's .git is such a file
// (git-worktree(1)); nil otherwise.
func worktreeGitDirs(ws string) []string {
	if ws == "" {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(ws, ".git"))
	if err != nil || len(data) > 4096 {
		return nil
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return nil
	}
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	gitDir := real(absIn(ws, strings.TrimSpace(dir)))
	out := []string{gitDir}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil && len(common) < 4096 {
		out = append(out, real(absIn(gitDir, strings.TrimSpace(string(common)))))
	}
	return out
}

// submoduleOf reports whether repo's .git is a file naming a git
// directory inside ws's own .git (a submodule's, .git/modules/NAME), which
// is protected with it (attack run 65: `cd sm && git status` asked).
func submoduleOf(repo, ws string) bool {
	data, err := os.ReadFile(filepath.Join(repo, ".git"))
	if err != nil || len(data) > 4096 {
		return false
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return false
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = repo + "/" + dir // not cleaned: ".." after a link is the link's (attack run 66)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	gitDir := filepath.Join(ws, ".git")
	if r, err := filepath.EvalSymlinks(gitDir); err == nil {
		gitDir = r
	}
	return strings.HasPrefix(real, gitDir+"/")
}

// workspaceLoads is askWorkspaceLoads's reason: plantedVarIn of guardsh's
// environment and the workspace's places. The answer (a walk of PATH and
// of the variables' places through their links: some 50 µs) is kept for a
// Guard that decides one command of a fresh shell (Options.Env set, not a
// session): decided again, the same command sees the same files. In an
// interactive session and for the later commands of a script on stdin,
// an earlier command may have made a place lead elsewhere (attack run
// 45: a link to a missing directory that `mkdir` then made in the
// workspace), so it is made again at every decision.
func (g *Guard) workspaceLoads(places []string) string {
	env := environ()
	if g.loads != nil && g.fresh(g.loadsWhen) && slices.Equal(env, g.loadsEnv) &&
		slices.Equal(places, g.loadsAt) {
		return *g.loads
	}
	why := g.plantedVarIn(env, places, nil, "in the workspace, where commands write and a cloned repository keeps its files", "may be what they put there; start guardsh without it, or with the sandbox on (it runs such commands jailed)", homeVars)
	g.loads, g.loadsEnv, g.loadsAt, g.loadsWhen = &why, env, places, time.Now()
	return why
}

// fresh reports whether what this Guard found on the file system at
// time at still holds: it decides one command of a fresh shell
// (Options.Env set, not a session, no link made by a command decided
// before), and less than freshFor has passed (see workspaceLoads and
// protectedLinks).
func (g *Guard) fresh(at time.Time) bool {
	return g.Analysis.Env != nil && !g.Analysis.Session && !g.LinksMade && time.Since(at) < freshFor
}

// freshFor is how long an answer found on the file system is kept for
// the decisions of one command: its record taken ahead and its decision
// come within a millisecond of each other; a command that waited between
// them (for the user's unjailed commands, for the workspace's turn: up to
// 90 s) looks again, since a link may have been made meanwhile (attack
// run 54). 250 ms, as long as a record taken ahead stays usable
// (cmd/guardsh keepFresh).
const freshFor = 250 * time.Millisecond

// homeVars are the variables of plantVars that place the user's own
// files (HOME and the XDG base directories): a workspace that holds the
// home (a command run in /home) is no reason for every command to ask;
// guardsh refuses one that places its own config or state there (see
// cmd/guardsh's envPlacesOutside).
//
// PATH too: a project directory on it (direnv's PATH_add bin, ./node_modules/.bin)
// is a choice of the user's; without the sandbox, a program the agent
// puts there runs by name (a known limit, README).
var homeVars = map[string]bool{"HOME": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "XDG_CONFIG_DIRS": true, "XDG_DATA_DIRS": true, "PATH": true}

// askUnjailed is contain for a sandbox a project file turned off
// (rules.SandboxConfig.OffBy): a project file may only tighten, so what
// the jail would have taken and the rules allow asks instead of running
// unjailed — a segment that may run what an earlier jailed command
// planted (as contain finds it; a jail may have run in this workspace before the
// project file appeared, or from the directory around it), and under
// sandbox: strict every one. In mode bypass nothing changes, as with the
// sandbox on. What asks anyway keeps asking, as it does without a
// sandbox. Not when the kernel has no jail to give (g.SandboxUnavailable):
// then none ran.
func (g *Guard) askUnjailed(o *Outcome, cwds []string, cwdUnknown bool) {
	sb := g.Policy.Sandbox
	if g.mode() == rules.Bypass || g.SandboxUnavailable != "" {
		return
	}
	off := "; asks: the sandbox (" + string(sb.Wanted) + ") that would have contained it is turned off by the project file at " + sb.OffBy
	// Where a jail may have written: as contain has it, this workspace
	// included (a jail may have run here before the project file came).
	where := sync.OnceValue(func() written {
		p, err := g.mayHaveWritten(true)
		return written{p, err}
	})
	env := sync.OnceValue(func() string { return g.plantedVar(environ(), where().places, where().err) })
	asked := false
	for i := range o.Segments {
		c := &o.Segments[i]
		if rules.Sandboxable(c.Verdict, g.mode()) {
			// It asks as it would without a sandbox: say which file
			// took away the jail that would have run it.
			c.Verdict.Reason += "; the sandbox (" + string(sb.Wanted) + ") that would have run it jailed is turned off by the project file at " + sb.OffBy
			continue
		}
		if c.Verdict.Decision != rules.Allow {
			continue
		}
		why := ""
		if repo := g.untrustedRepo(*c, cwds, cwdUnknown, where); repo != "" {
			why = "the repository " + repo + " lies where a jailed command writes, so its config and hooks may run anything"
		} else if runsProgram(*c) {
			why = env()
		}
		if why == "" && sb.Wanted == rules.SandboxStrict {
			why = "sandbox: strict runs every command inside the jail"
		}
		if why == "" {
			continue
		}
		c.Verdict.Decision = rules.Ask
		c.Verdict.Reason += "; " + why + off
		asked = true
	}
	if asked && o.Decision == rules.Allow {
		o.Decision, o.DecidedBy = rules.Ask, "sandbox"
	}
}

// jailed marks o to run inside the jail of sandbox mode m.
func (o *Outcome) jailed(m rules.SandboxMode) {
	o.Sandbox, o.Network = true, network(o.Segments)
	o.SandboxNote = string(m)
	if o.Network {
		o.SandboxNote += ", network"
	}
}

// network reports whether an allowed segment reaches the network (an
// allow rule let it), so that the jail must let TCP through.
func network(segs []Checked) bool {
	for _, c := range segs {
		if c.Verdict.Decision == rules.Allow && c.Verdict.Sensitivity == rules.Network {
			return true
		}
	}
	return false
}

// Jail returns the jail o runs in: writes beneath the workspace, the temp
// directories and the policy's sandbox.write paths; no reads of the
// policy's secrets (rules.Policy.HiddenPaths), of guardsh's own
// configuration directory, or of the context's protected paths (guardsh's
// config files, audit log and caches) except self, guardsh's binary,
// which a jailed command may run, and what git config makes git read or
// run (GlobalGit); TCP only when o.Network.
func (g *Guard) Jail(o Outcome, self string) sandbox.Spec {
	ctx := g.Context
	spec := sandbox.Spec{Write: g.jailWrites()}
	spec.Hidden = g.hiddenPaths()
	if ctx.Home != "" {
		spec.Hidden = append(spec.Hidden, filepath.Join(ctx.Home, ".config", "guardsh"))
	}
	// What git config makes git read or run is no secret, and git in
	// the jail reads it (/etc/gitconfig, the pager, the credential
	// helper): it stays readable; outside the places a jail writes, the
	// jail cannot change it (and where it lies inside one, see
	// linkedOutside and KeepPaths).
	gitReach := map[string]bool{}
	for _, list := range [][]string{g.GlobalGit.Files, g.GlobalGit.Programs, g.GlobalGit.Dirs} {
		for _, p := range list {
			gitReach[p] = true
		}
	}
	// A linked work tree's git directory (its .git file names one under
	// the main repository's .git/worktrees) and that repository's common
	// directory: git in the jail reads them, and a jail cannot write
	// them (outside the workspace); hidden, git failed there with "not a
	// git repository" (a new user's find).
	for _, d := range worktreeGitDirs(ctx.Workspace) {
		gitReach[d] = true
	}
	for _, p := range ctx.Protected {
		p = strings.TrimSuffix(p, "/*")
		if ctx.Workspace != "" && (p == ctx.Workspace || strings.HasPrefix(p, ctx.Workspace+"/")) {
			continue // kept and restored instead (see Keep): hiding it would carve the workspace
		}
		if gitReach[p] {
			continue
		}
		if !filepath.IsAbs(p) || p == self {
			continue
		}
		if strings.ContainsAny(p, "*?[") {
			// A pattern (the audit log's rotated files, LOG.*): the
			// files it names now are hidden; those made later are
			// guardsh's own, after the command.
			spec.Hidden = append(spec.Hidden, globNow(p)...)
			continue
		}
		spec.Hidden = append(spec.Hidden, p)
	}
	spec.Write, spec.Hidden = unique(spec.Write), unique(spec.Hidden)
	spec.Hidden, spec.Kept = hashless(spec.Hidden, spec.Write, rules.PasswordFiles)
	// Landlock governs no mode: a jailed command may chmod what it may
	// only read (attack run 77 left ~/.bashrc and ~/.gitconfig 0666, and
	// guardsh's binary and its bash link's directory 0777, for another
	// user to replace). The protected paths of the home outside the
	// places it writes, guardsh's binary and that directory are kept and
	// put back as the hidden paths' modes are (and the directories above
	// them: the home's own).
	files, dirs := rules.HomeProtected(ctx.Home)
	// Only what is there (a home holds a few of the forty): the home's
	// names listed once, rather than each path resolved by the jail's
	// build (0.2 ms of every jailed command's start).
	var kept []string
	if names, err := os.ReadDir(ctx.Home); ctx.Home != "" && err == nil {
		have := make(map[string]bool, len(names))
		for _, e := range names {
			have[e.Name()] = true
		}
		for _, p := range append(files, dirs...) {
			rel, ok := strings.CutPrefix(p, ctx.Home+"/")
			if first, _, _ := strings.Cut(rel, "/"); !ok || have[first] {
				kept = append(kept, p)
			}
		}
	} else {
		kept = append(files, dirs...)
	}
	if self != "" {
		// install.sh's layout: PREFIX/bin/guardsh, PREFIX/lib/guardsh/bash.
		kept = append(kept, self, filepath.Join(filepath.Dir(filepath.Dir(self)), "lib", "guardsh", "bash"))
	}
	for _, p := range kept {
		if !slices.ContainsFunc(spec.Write, func(w string) bool { return p == w || strings.HasPrefix(p, strings.TrimSuffix(w, "/")+"/") }) && !slices.Contains(spec.Hidden, p) {
			spec.Kept = append(spec.Kept, p)
		}
	}
	spec.Kept = unique(spec.Kept)
	if self != "" {
		spec.Runnable = []string{self}
	}
	spec.Network = o.Network
	return spec
}

// hashless moves out of hidden, into kept, the password files (of
// passwords: rules.PasswordFiles) that hold no password hash when the jail is
// built: every line's second field is empty or only "!" and "*" (an
// account locked, or one without a password), as on the images
// containers run as root. Hiding one costs a rule for each of /etc's
// hundred-odd other entries (0.2 ms a jailed command); kept, its mode
// and owner are still put back after the command. A password set while
// the command runs (by root, outside the jail) is readable to it. A file
// beneath a writable directory, a link, one that cannot be read, one of
// more than 1 MiB and a line without a second field all stay hidden.
func hashless(hidden, write, passwords []string) (stay, kept []string) {
	for _, p := range hidden {
		if slices.Contains(passwords, p) && !slices.ContainsFunc(write, func(w string) bool { return within(p, w) }) && holdsNoHash(p) {
			kept = append(kept, p)
			continue
		}
		stay = append(stay, p)
	}
	return stay, kept
}

// holdsNoHash reports whether the password file at p (shadow(5) or
// gshadow(5) form) holds no hash (see hashless).
func holdsNoHash(p string) bool {
	f, err := os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	const most = 1 << 20
	data, err := io.ReadAll(io.LimitReader(f, most+1))
	if err != nil || len(data) > most {
		return false
	}
	for line := range strings.Lines(string(data)) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" {
			continue
		}
		_, rest, ok := strings.Cut(line, ":")
		if !ok {
			return false
		}
		pw, _, _ := strings.Cut(rest, ":")
		if strings.Trim(pw, "!*") != "" {
			return false
		}
	}
	return true
}

// globNow returns the files pattern p names now, as filepath.Glob does
// (sorted; nil when none): for a pattern whose directory holds no
// pattern characters, from one listing of it (getdents, see
// fsview.ReadDir) instead of Glob's lstat, open and status calls.
func globNow(p string) []string {
	dir, base := filepath.Split(p)
	if dir == "" || strings.ContainsAny(dir, `*?[\`) {
		m, _ := filepath.Glob(p)
		return m
	}
	ents, err := fsview.ReadDir(filepath.Clean(dir))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if ok, err := filepath.Match(base, e.Name()); err != nil {
			return nil // a malformed pattern names nothing, as for Glob
		} else if ok {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out
}

// unique returns paths without repeats, in their first order.
func unique(paths []string) []string {
	out := paths[:0:0]
	for _, p := range paths {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Writable returns the directories a jail writes beneath: the workspace,
// the temp directories and the policy's sandbox.write paths.
func (g *Guard) Writable() []string { return g.jailWrites() }

// jailWrites is Writable.
func (g *Guard) jailWrites() []string {
	ctx := g.Context
	var spec sandbox.Spec
	if ctx.Workspace != "" {
		spec.Write = append(spec.Write, ctx.Workspace)
	}
	spec.Write = append(spec.Write, g.tempDirs()...)
	for _, w := range g.Policy.Sandbox.Write {
		if rest, ok := strings.CutPrefix(w, "~/"); ok {
			if ctx.Home == "" {
				continue
			}
			w = filepath.Join(ctx.Home, rest)
		}
		spec.Write = append(spec.Write, w)
	}
	return spec.Write
}

// MakeSandboxWrite makes the directories the user's sandbox.write names
// that are not there yet (mkdir -p, mode 0700): a jail may write only
// beneath a directory that exists when it is built, and a tool's cache
// directory (~/.cache/go-build) often does not before its first run (a new
// user's go test failed in the jail with sandbox.write set as the README
// shows). It returns the first error, naming the directory.
func (g *Guard) MakeSandboxWrite() error {
	for _, w := range g.Policy.Sandbox.Write {
		if rest, ok := strings.CutPrefix(w, "~/"); ok {
			if g.Context.Home == "" {
				continue
			}
			w = filepath.Join(g.Context.Home, rest)
		}
		if !filepath.IsAbs(w) {
			continue
		}
		if _, err := os.Lstat(w); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(w, 0o700); err != nil {
				return fmt.Errorf("sandbox.write %s: %w", w, err)
			}
		}
	}
	return nil
}

// anchors returns the directories relative path patterns are anchored
// at: Root (else Workspace), then Context.Anchors.
func (g *Guard) anchors() []string {
	return unique(append([]string{cmp.Or(g.Context.Root, g.Context.Workspace)}, g.Context.Anchors...))
}

// hiddenPaths is rules.Policy.HiddenPaths with relative patterns at each
// of anchors.
func (g *Guard) hiddenPaths() []string {
	var out []string
	for _, base := range g.anchors() {
		out = append(out, g.Policy.HiddenPaths(g.Context.Home, base)...)
	}
	return unique(out)
}

// tempDirs returns the temp directories a jail writes: the context's
// (os.TempDir and /tmp when not set), but not "/" or a directory holding
// home, as for the analysis.
func (g *Guard) tempDirs() []string {
	ctx := g.Context
	tmp := ctx.TempDirs
	if tmp == nil {
		tmp = []string{os.TempDir(), "/tmp"}
	}
	var out []string
	for _, t := range tmp {
		if t = filepath.Clean(t); t != "/" && (ctx.Home == "" || !strings.HasPrefix(ctx.Home+"/", t+"/")) {
			out = append(out, t)
		}
	}
	return out
}

// written is what mayHaveWritten returns.
type written struct {
	places []string
	err    error
}

// mayHaveWritten returns the directories beneath which a jail of this
// user may have written, each also with its links resolved (see
// resolveLoose): the temp directories; those recorded when earlier jails
// were built (g.JailRecord, see ReadJailRecord), of any workspace; and,
// when jailHere (a jail can run here), this command's jail's (Writable),
// since jails of guardsh versions before the record were not recorded.
// err says the record cannot be read: the caller then takes every place
// as one a jail may have written.
func (g *Guard) mayHaveWritten(jailHere bool) ([]string, error) {
	out := g.tempDirs()
	if jailHere {
		out = g.jailWrites()
	}
	var err error
	if g.JailRecord != "" {
		var rec []string
		rec, err = ReadJailRecord(g.JailRecord)
		out = append(out, rec...)
	}
	for _, w := range slices.Clone(out) {
		out = append(out, resolveLoose(w)) // a sandbox.write path may be a link
	}
	return unique(out), err
}

// RecordJail adds the directories the jail of this command writes
// (Writable) to the record of jails' writes, g.JailRecord (see
// AddJailRecord), before the jail starts. An error means the command must
// not run jailed (nor unjailed): later commands could not know where it
// may have planted something. It is an error as well that g.JailRecord is
// "" (no state directory).
func (g *Guard) RecordJail() error {
	return AddJailRecord(g.JailRecord, g.jailWrites())
}

// JailUnavailable says why a command decided to run jailed may not run
// so after all, "" when it may: a protected path outside the workspace
// that now leads where a jail writes outside it (see linkedOutside), as
// the last Keep found (attack run 54: such a link made while the command
// waited for its turn was not seen, the decision having looked before).
func (g *Guard) JailUnavailable() string {
	return g.linkedOutside()
}

// linkedOutside says why no command may run jailed while a protected
// path outside the workspace leads where a jail writes outside the
// workspace (see linkedProtected), "" when none does: such a path could
// not be put back after the jail.
func (g *Guard) linkedOutside() string {
	if why := g.protectedLinks().outside; why != "" {
		return "unavailable (" + why + ", where a jailed command writes)"
	}
	return ""
}

// unavailable says why no command may run jailed here, "" when one may:
// the kernel's (SandboxUnavailable), or a read rule that names a place
// inside the workspace. Landlock cannot hide a place below a directory
// the jail may write without taking from the jail the right to make files
// in that directory, so such a workspace gets no jail: what would run in
// it asks (an attack run read a workspace-relative read-deny path from
// the jail).
func (g *Guard) unavailable() string {
	if g.SandboxUnavailable != "" {
		return g.SandboxUnavailable
	}
	ws := g.Context.Workspace
	if ws == "" {
		return ""
	}
	for _, h := range g.hiddenPaths() {
		if h == ws || strings.HasPrefix(h, ws+"/") {
			src := ""
			for _, base := range g.anchors() {
				if src = g.Policy.HiddenPathSource(g.Context.Home, base, h); src != "" {
					break
				}
			}
			return "unavailable (read rule at " + src + " names " + h + ", inside the workspace: a jail that writes the workspace could not be kept from it; name a place outside the workspace, or turn the sandbox off in this project)"
		}
	}
	return ""
}

// Keep records the protected paths inside the workspace, and the places
// the policy's write deny and ask rules name there, before a jailed
// command runs (sandbox.Keep of KeepPaths), so that what the jail could
// write there is put back afterwards; nil without a workspace. Where the
// protected paths outside the workspace lead is found anew, not taken
// from the decision (see protectedLinks): a record taken again after a
// wait (for the workspace's turn, for the user's unjailed commands, for
// an approval) must see a link made meanwhile (attack run 54: ~/.bashrc
// linked into the workspace while the jailed command waited, then
// appended to by it and not put back); JailUnavailable then says whether
// the command may still run jailed.
func (g *Guard) Keep() *sandbox.Kept {
	g.links = nil
	files, dirs, ok := g.KeepPaths()
	if !ok {
		return nil
	}
	return sandbox.Keep(g.Context.Workspace, files, dirs)
}

// KeepPaths returns what Keep records, as absolute paths: the files and
// the directories (whose entries are kept too) of rules.WorkspaceProtected
// in the workspace, the places the policy's write deny and ask rules name
// inside it (rules.Policy.WriteGuarded), the protected paths guardsh
// found for this workspace, and where the protected paths outside it
// (~/.gitconfig, ~/.bashrc …) lead into it through symbolic links, with
// the links on the way (see protectedLinks); ok is false without a
// workspace.
func (g *Guard) KeepPaths() (files, dirs []string, ok bool) {
	ws := g.Context.Workspace
	if ws == "" {
		return nil, nil, false
	}
	relFiles, relDirs := rules.WorkspaceProtected()
	for _, base := range g.settingsDirs() {
		for _, f := range relFiles {
			files = append(files, filepath.Join(base, f))
		}
		for _, d := range relDirs {
			dirs = append(dirs, filepath.Join(base, d))
		}
	}
	// The policy's write deny and ask rules inside the workspace: the jail
	// could write there unseen.
	var wf, wd []string
	for _, base := range g.anchors() {
		f, d := g.Policy.WriteGuarded(g.Context.Home, base)
		wf, wd = append(wf, f...), append(wd, d...)
	}
	inside := func(p string) bool { return strings.HasPrefix(p, ws+"/") }
	for _, f := range wf {
		if inside(f) {
			files = append(files, f)
		}
	}
	for _, d := range wd {
		if inside(d) {
			dirs = append(dirs, d)
		}
	}
	// The protected paths guardsh found for this workspace (a
	// core.hooksPath such as .husky): "DIR/*" keeps the directory.
	for _, p := range g.Context.Protected {
		if d, ok := strings.CutSuffix(p, "/*"); ok && inside(d) {
			dirs = append(dirs, d)
		} else if !strings.Contains(p, "*") && inside(p) {
			if info, err := os.Lstat(p); err != nil || !info.IsDir() {
				files = append(files, p)
			}
		}
	}
	lp := g.protectedLinks()
	files = append(files, lp.files...)
	dirs = append(dirs, lp.dirs...)
	return files, dirs, true
}

// settingsDirs returns the directories whose agent, editor and project
// settings files (rules.WorkspaceProtected) a jail's record keeps: the
// workspace root, and the working directory and the agent's (guardsh's
// parent process's, /proc/PPID/cwd) when they lie below it, the
// directory an agent started in a monorepo's package reads its
// .claude/settings.json from (attack run 84: a jailed command wrote
// pkg/.claude/settings.json and it stayed). The same names deeper in
// the workspace are not kept (README, Sandbox: what it does not
// guarantee).
func (g *Guard) settingsDirs() []string {
	ws := g.Context.Workspace
	out := []string{ws}
	agent, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", os.Getppid()))
	for _, d := range []string{g.Context.Cwd, agent} {
		if d = filepath.Clean(d); strings.HasPrefix(d, ws+"/") && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// untrustedRepo returns the repository a git segment the rules allowed
// by its class (not by a rule) works in when that repository lies where a
// jail may have written (where, see mayHaveWritten: the workspace, the
// temp directories, sandbox.write, the directories of earlier jails; any,
// when their record cannot be read), or
// "of a run-time directory" when a cd makes the directory unknown; ""
// otherwise, and for anything but git. A jailed command may have planted
// there what the next git runs: a core.fsmonitor or a hook of a nested
// repository or of a submodule (git status and git diff run git in every
// submodule, with its own config: an attack run's find), a filter or a
// diff driver. The workspace's own repository is no exception, since its
// submodules' configs are not kept and put back.
func (g *Guard) untrustedRepo(c Checked, cwds []string, cwdUnknown bool, where func() written) string {
	seg := c.Segment
	if seg.Kind != interp.Exec || len(seg.Args) == 0 || filepath.Base(seg.Args[0].Value) != "git" || c.Verdict.Rule != nil {
		return ""
	}
	if gitConfigOnly(seg) {
		// git config runs nothing a config names (no hook, pager or
		// fsmonitor; --edit's editor is a protected write, asked): it
		// runs unjailed, and a jail would put back the .git/config it
		// was asked to write (a new user's `git config user.email`).
		return ""
	}
	if cwdUnknown {
		return "of a run-time directory"
	}
	writable, err := where().places, where().err
	if err != nil {
		return fmt.Sprintf("(any: %v)", err)
	}
	for _, dir := range cwds {
		repo, start, ok := gitRepo(seg, dir, nil, "")
		if !ok {
			return "of a run-time directory"
		}
		// git also takes a directory holding HEAD, objects and refs for
		// a repository (a bare layout the jail can make anywhere it
		// writes: an attack run's find), so where git starts counts too.
		for _, p := range []string{repo, start} {
			if p != "" && JailWrites(p, writable) {
				return p
			}
		}
	}
	return ""
}

// gitConfigOnly reports a git segment whose subcommand is config, reading
// or writing keys that run nothing (rules.GitConfigRunsCode: not --edit,
// not a key that makes git run a program), with no -c or --exec-path
// option before it and no word only known at run time.
func gitConfigOnly(seg interp.Segment) bool {
	words := make([]string, len(seg.Args))
	for i, a := range seg.Args {
		if strings.Contains(a.Value, interp.Hole) {
			return false
		}
		words[i] = a.Value
	}
	i := 1
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		switch words[i] {
		case "-C":
			i += 2
			continue
		case "--no-pager", "--no-replace-objects", "--literal-pathspecs", "--no-optional-locks":
			i++
			continue
		}
		return false // -c, --exec-path, --git-dir…: decided as they are
	}
	return i < len(words) && words[i] == "config" && rules.GitConfigRunsCode(words) == ""
}

// JailWrites reports whether p is one of the writable directories or
// beneath one.
func JailWrites(p string, writable []string) bool {
	for _, w := range writable {
		if w = filepath.Clean(w); p == w || strings.HasPrefix(p, w+"/") || w == "/" {
			return true
		}
	}
	return false
}

// runsProgram reports whether c is a command the rules allowed by its
// class (not by a rule) that bash runs from a file: not a builtin, a
// reserved word or a function.
func runsProgram(c Checked) bool {
	seg := c.Segment
	return seg.Kind == interp.Exec && len(seg.Args) > 0 && c.Verdict.Rule == nil &&
		(seg.Args[0].Dynamic() || !interp.Builtin(seg.Args[0].Value)) && !seg.Function
}

// writablePathEntry returns the first entry of path (a PATH value) that
// lies where a jail may have written (writable, see mayHaveWritten), as
// bash searches it: an empty or relative entry (it names a directory
// beneath whatever directory the command, or a cd in it, is in:
// node_modules/.bin), one starting with "~" (bash expands it against
// home), or a directory that is, or resolves through links to, one in
// writable; "" when there is none. A jailed command may have planted a
// program there under a read-only tool's name, which the tool's caller,
// or another program that starts it by name (sdiff runs diff, kubectl a
// credential helper: attack-run finds), would then run unjailed; so while
// PATH holds such an entry, what the rules allow by class runs jailed.
func writablePathEntry(path, home string, writable []string) string {
	if path == "" {
		return ""
	}
	for _, e := range strings.Split(path, ":") {
		switch {
		case e == "" || !filepath.IsAbs(e) && !strings.HasPrefix(e, "~"):
			return cmp.Or(e, ".") + " (relative)"
		case strings.HasPrefix(e, "~"):
			rest, ok := strings.CutPrefix(e, "~/")
			if !ok || home == "" {
				return e
			}
			e = filepath.Join(home, rest)
		}
		if JailWrites(filepath.Clean(e), writable) || JailWrites(resolveLoose(e), writable) {
			return e
		}
	}
	return ""
}

// resolveLoose returns p with links resolved as far as it exists: the
// longest existing prefix resolved, the rest joined as written.
func resolveLoose(p string) string {
	p = filepath.Clean(p)
	if filepath.IsAbs(p) && linkFree(p) {
		return p
	}
	rest := ""
	for d := p; ; d = filepath.Dir(d) {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
		if d == "/" || d == "." {
			return p
		}
		rest = filepath.Join(filepath.Base(d), rest)
	}
}

// linkFree reports whether the kernel reaches absolute path p, or stops
// at a component of it that is missing (or no directory), without meeting
// a symbolic link: then p is what resolveLoose makes of it. One
// openat2(2) with RESOLVE_NO_SYMLINKS, where EvalSymlinks costs an
// lstat per component (PATH's entries at every command: attack run 38's
// check).
func linkFree(p string) bool {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &how)
		switch err {
		case unix.EINTR:
			continue
		case nil:
			unix.Close(fd)
			return true
		case unix.ENOENT, unix.ENOTDIR:
			return true
		}
		return false // ELOOP (a link), ENOSYS, EPERM …: the long way
	}
}

// gitRepo returns, for seg run in dir, the directory git starts in (its
// -C options followed) and the repository it uses there: the one
// --git-dir, --work-tree or GIT_DIR (GIT_WORK_TREE) names, else the first
// directory from the start up that holds .git, "" when there is none
// (see discover, which found and within are for). ok is false when a word
// it depends on is only known at run time.
func gitRepo(seg interp.Segment, dir string, found map[string]string, within string) (repo, start string, ok bool) {
	// Cleaned: a directory written //ws/sub is compared with places as
	// text (attack run 69).
	dir = filepath.Clean(dir)
	for _, a := range seg.Assigns {
		if name, v, _ := strings.Cut(a.Value, "="); name == "GIT_DIR" || name == "GIT_WORK_TREE" {
			if a.Dynamic() {
				return "", "", false
			}
			repo = absIn(dir, v)
		}
	}
	words := seg.Args
options:
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w.Dynamic() {
			return "", "", false
		}
		switch v := w.Value; {
		case v == "-C" || v == "--git-dir" || v == "--work-tree":
			if i+1 >= len(words) || words[i+1].Dynamic() {
				return "", "", false
			}
			if v == "-C" {
				dir = absIn(dir, words[i+1].Value)
			} else {
				repo = absIn(dir, words[i+1].Value)
			}
			i++
		case strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree="):
			_, val, _ := strings.Cut(v, "=")
			repo = absIn(dir, val)
		case v == "-c" || v == "--namespace" || v == "--exec-path" || v == "--config-env":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			break options // the subcommand: git's own options end here
		}
	}
	if repo != "" {
		return repo, dir, true
	}
	return discover(dir, found, within), dir, true
}

// discover returns the first directory from dir (clean: gitRepo cleans
// it) up that holds .git, as
// git's discovery finds it, "" for none; with within set, only one at or
// below within counts, and the search stops where it leaves within.
// found, when not nil, keeps the answers of one decision (several git
// segments in the same directories looked each one up again).
func discover(dir string, found map[string]string, within string) string {
	if r, ok := found[dir]; ok {
		return r
	}
	r := ""
	for d := dir; ; d = filepath.Dir(d) {
		if within != "" && !JailWrites(d, []string{within}) {
			break
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			r = d
			break
		}
		if d == "/" || d == "." {
			break
		}
	}
	if found != nil {
		found[dir] = r
	}
	return r
}

// absIn returns p made absolute against dir, cleaned.
func absIn(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}
