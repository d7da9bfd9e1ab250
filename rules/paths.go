package rules

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Path patterns (the write and read sections) match canonical absolute
// paths. A pattern is anchored by its start:
//
//	/abs/…   absolute
//	~ or ~/… the home directory (Context.Home)
//	other    relative to the workspace (Context.Workspace; Context.Cwd when
//	         the workspace is unknown), so "*.pem" is every .pem directly or
//	         indirectly under the workspace and "/*.pem" is every .pem anywhere
//
// After expansion the pattern is cleaned (filepath.Clean, '*' being an
// ordinary byte to it). Because the home directory and workspace come with
// the Context, path patterns are compiled on first use for a given Context
// and cached in the Policy (guardsh decides one command per process, so the
// cache lives as long as one command). The bare " *" rule of shell patterns
// does not apply to paths.
//
// Symlinks must not dodge a rule, so each pattern with a literal directory
// part gets a second entry with that directory's symlinks resolved (a user
// whose ~/.ssh is a link to /data/ssh is protected at both names), and each
// subject is resolved too (see canonical). Deny and ask rules match if
// either the cleaned or the resolved subject path matches; an allow rule
// must match the resolved path.

// pathRule is a write/read rule before its Context is known.
type pathRule struct {
	rule   *Rule
	anchor byte   // '/' absolute, '~' home, '.' workspace
	rest   string // the pattern after the anchor, without leading '/'
}

func newPathRule(r *Rule) pathRule {
	p := r.Pattern
	switch {
	case strings.HasPrefix(p, "/"):
		return pathRule{rule: r, anchor: '/', rest: strings.TrimLeft(p, "/")}
	case p == "~" || strings.HasPrefix(p, "~/"):
		return pathRule{rule: r, anchor: '~', rest: strings.TrimLeft(strings.TrimPrefix(p, "~"), "/")}
	}
	return pathRule{rule: r, anchor: '.', rest: strings.TrimPrefix(p, "./")}
}

// expand returns the absolute pattern for ctx, or "" when the rule cannot
// apply. A home- or workspace-relative pattern whose base is unknown becomes
// "*/rest" for deny and ask rules (matching the rest under any directory,
// the strict reading) and does not apply for allow rules.
func (pr pathRule) expand(home, base string) string {
	var dir string
	switch pr.anchor {
	case '/':
		return filepath.Clean("/" + pr.rest)
	case '~':
		dir = home
	default:
		dir = base
	}
	if dir == "" {
		if pr.rule.Decision == Allow || pr.rest == "" {
			return ""
		}
		return "*/" + pr.rest
	}
	if pr.rest == "" {
		return filepath.Clean(dir)
	}
	return filepath.Clean(dir + "/" + pr.rest)
}

// anchorsOf returns the directories pr is anchored at: base, and for a
// relative deny or ask pattern each of anchors too (Context.Anchors).
func anchorsOf(pr pathRule, base string, anchors []string) []string {
	out := []string{base}
	if pr.anchor != '.' || pr.rule.Decision == Allow || base == "" {
		return out
	}
	for _, a := range anchors {
		if a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// pathIndex is the compiled form of the path rules and of the protected
// paths for one Context.
type pathIndex struct {
	home, ws, root, cwd string
	anchors             []string
	protectedIn         []string
	tmpIn               []string

	sections  [2]*trie // write, read
	protected []*glob
	// protectedIndex files the protected patterns (as deny entries, in
	// the order of protected) for protectedBy.
	protectedIndex *trie
	wsDirs         []string // the workspace, as given and resolved
	homeDirs       []string // the home directory, as given and resolved
	tmpDirs        []string // temp directories, as given and resolved

	// cwdRes caches the last working directory resolved (see cwdForms).
	cwdRes atomic.Pointer[[2]string]
}

// cwdForms returns filepath.Clean(cwd) and canonical(cwd), or "" and ""
// when cwd is not absolute. With lk both are remembered in lk (one
// command's lookups: matchArgs asks at every segment, and a command
// decided in each directory a cd may lead to asks for several); without,
// the last canonical form is remembered in x.
func (x *pathIndex) cwdForms(cwd string, lk *Lookups) (cleaned, canon string) {
	if !filepath.IsAbs(cwd) {
		return "", ""
	}
	if lk != nil {
		if c, ok := lk.canon[cwd]; ok {
			return c[0], c[1]
		}
		out, _ := resolve(lk, cwd)
		if lk.canon == nil {
			lk.canon = make(map[string][2]string, 2)
		}
		cleaned = ""
		if out != "" {
			cleaned = filepath.Clean(cwd)
		}
		lk.canon[cwd] = [2]string{cleaned, out}
		return cleaned, out
	}
	if c := x.cwdRes.Load(); c != nil && c[0] == cwd {
		return filepath.Clean(cwd), c[1]
	}
	out := canonical(cwd)
	x.cwdRes.Store(&[2]string{cwd, out})
	if out == "" {
		return "", ""
	}
	return filepath.Clean(cwd), out
}

func (x *pathIndex) fits(ctx Context, tmp []string) bool {
	return x.home == ctx.Home && x.ws == ctx.Workspace && x.root == ctx.Root && slices.Equal(x.anchors, ctx.Anchors) &&
		(ctx.Workspace != "" || x.cwd == ctx.Cwd) &&
		slices.Equal(x.tmpIn, tmp) && slices.Equal(x.protectedIn, ctx.Protected)
}

// builtinProtected are paths written to only with a human's yes, in every
// mode, on top of Context.Protected. Sources: shell start-up files from
// bash(1) INVOCATION and zsh(1) STARTUP/SHUTDOWN FILES (code there runs in
// every later shell, guardsh's real shell included); ~/.ssh (keys,
// authorized_keys, config with ProxyCommand); git hooks and config (run by
// every later git command, see githooks(5) and core.fsmonitor,
// core.pager in git-config(1); and what points git at another config:
// commondir, config.worktree, a worktree's or submodule's config, a
// rebase's todo list with its exec lines, see gitrepository-layout(5): all
// of .git, which git itself writes), and the user's git config (aliases and
// core.pager run programs); ~/.gnupg; guardsh's own configuration; and the
// settings of the agents and editors that decide what an agent may run or
// that run commands themselves: Claude Code (~/.claude, a project's
// .claude/settings*.json with permissions and hooks, .claude/hooks/ where
// its documentation puts the scripts hooks run — attack run 84 appended
// to one in mode auto —, .mcp.json servers),
// Codex (~/.codex: config.toml and rules), Gemini CLI (~/.gemini and a
// project's .gemini), goose (~/.config/goose), opencode
// (~/.config/opencode, a project's opencode.json), Cursor (~/.cursor, a
// project's .cursor/cli.json and mcp.json), Aider (.aider.conf.yml, whose
// lint and test commands it runs) and VS Code (.vscode/settings.json and
// tasks.json, which run tasks and approve agent tools, and mcp.json, whose
// servers it starts); and the project files of other agents and editors
// that start programs named there (attack run 29 wrote them unasked):
// Qwen Code (.qwen/settings.json, a Gemini CLI fork's mcpServers), Zed
// (.zed/settings.json context_servers), Roo Code (.roo/mcp.json), Kiro
// (.kiro/settings/mcp.json), Amazon Q (.amazonq/mcp.json), Crush
// (.crush.json, crush.json), Continue (.continue/mcpServers/*), dev
// containers (devcontainer.json, whose initializeCommand runs on the host
// when the editor opens the project), pre-commit
// (.pre-commit-config.yaml, whose hooks the git hook it installs runs),
// the other git hook managers whose project files hold what hooks run
// (husky's .husky/*: its hooks path .husky/_ runs .husky/pre-commit, an
// attack run's find; lefthook's config files, see lefthookFiles, and its
// script directories .lefthook/ and .lefthook-local/;
// overcommit's .overcommit.yml), and Gemini CLI's .gemini/.env, which it
// loads into its environment, and so into guardsh's, at its start.
var builtinProtected = append([]string{
	"~/.ssh", "~/.ssh/*",
	"~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.bash_logout", "~/.profile",
	"~/.bash_aliases",
	"~/.zshrc", "~/.zprofile", "~/.zshenv", "~/.zlogin", "~/.zlogout",
	"~/.config/fish/config.fish", "~/.config/fish/conf.d/*",
	"~/.gitconfig", "~/.config/git/config", "~/.gnupg", "~/.gnupg/*",
	"~/.config/guardsh", "~/.config/guardsh/*",
	"/etc/guardsh", "/etc/guardsh/*",
	"*/.git/hooks", "*/.git/*",
	"~/.claude", "~/.claude/*", "~/.claude.json", "*/.claude/settings.json", "*/.claude/settings.local.json",
	"*/.claude/hooks/*", "*/.mcp.json",
	"~/.codex", "~/.codex/*", "*/.codex/*",
	"~/.gemini", "~/.gemini/*", "*/.gemini/settings.json",
	"~/.config/goose", "~/.config/goose/*",
	"~/.config/opencode", "~/.config/opencode/*", "*/opencode.json", "*/opencode.jsonc",
	"~/.cursor", "~/.cursor/*", "*/.cursor/cli.json", "*/.cursor/mcp.json",
	"~/.aider.conf.yml", "*/.aider.conf.yml",
	"*/.vscode/settings.json", "*/.vscode/tasks.json", "*/.vscode/mcp.json",
	"*/.qwen/settings.json", "*/.zed/settings.json", "*/.roo/mcp.json", "*/.kiro/settings/mcp.json",
	"*/.amazonq/mcp.json", "*/.crush.json", "*/crush.json", "*/.continue/mcpServers/*",
	"*/.devcontainer/devcontainer.json", "*/.devcontainer.json", "*/.pre-commit-config.yaml",
	"*/.husky/*", "*/.lefthook/*", "*/.lefthook-local/*", "*/.overcommit.yml", "*/.gemini/.env",
}, lefthookFiles()...)

// lefthookFiles are the config files lefthook reads (lefthook's
// configuration docs: lefthook and lefthook-local, each with or without
// a leading dot, or in .config/, as .yml, .yaml, .toml, .json or .jsonc;
// an attack run planted lefthook-local.yaml), as "*/NAME" patterns: each a
// literal name, so the jail keeps and puts them back too.
func lefthookFiles() []string {
	var out []string
	for _, base := range []string{"lefthook", "lefthook-local"} {
		for _, ext := range []string{".yml", ".yaml", ".toml", ".json", ".jsonc"} {
			out = append(out, "*/"+base+ext, "*/."+base+ext, "*/.config/"+base+ext)
		}
	}
	return out
}

// SecretsFile is the File of the built-in read rules for secrets.
const SecretsFile = "<built-in secrets>"

// PasswordFiles are the system's password hash files: shadow(5),
// gshadow(5), and the copies their tools keep (shadow's "-" backups).
var PasswordFiles = []string{"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-"}

// builtinSecrets are files that hold credentials, read (by a redirection
// or as a program's argument) only with a human's yes: built-in read ask
// rules, after the policy's own. Sources: ssh(1) FILES (private keys),
// the AWS CLI, gcloud and Azure CLI credential files, netrc(5),
// git-credential-store(1), docker-login(1) config.json, kubectl's
// kubeconfig, npm's and PyPI's token files, gh's hosts.yml, pgpass, GnuPG
// keyrings, Hugging Face's token, s3cmd's and rclone's configs, RubyGems',
// Terraform's and Composer's credentials, Maven's settings (server
// passwords), and dotenv files in any directory (.env and its .local and
// environment forms, direnv's .envrc; .env.example and the like are
// templates, not secrets); and the system's password hashes (shadow(5),
// gshadow(5), and the copies shadow's tools keep), which root reads
// like any file (a new user's find: `cat /etc/shadow` ran unasked).
var builtinSecrets = func() []Rule {
	pats := []string{
		"~/.ssh/id_*", "~/.ssh/*_key", "~/.aws/credentials", "~/.aws/config", "~/.config/gcloud/*",
		"~/.azure/*", "~/.netrc", "~/.git-credentials", "~/.docker/config.json", "~/.kube/config",
		"~/.npmrc", "~/.pypirc", "~/.config/gh/hosts.yml", "~/.pgpass", "~/.gnupg/*",
		"~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json",
		"~/.local/share/opencode/auth.json", "~/.vault-token", "~/.cargo/credentials", "~/.cargo/credentials.toml",
		"~/.cache/huggingface/token", "~/.huggingface/token", "~/.s3cfg", "~/.config/rclone/rclone.conf",
		"~/.gem/credentials", "~/.terraform.d/credentials.tfrc.json", "~/.composer/auth.json", "~/.m2/settings.xml",
		"/*/.env", "/*/.env.local", "/*/.env.*.local", "/*/.env.production", "/*/.env.development",
		"/*/.env.prod", "/*/.env.staging", "/*/.envrc",
	}
	pats = append(pats, PasswordFiles...)
	rs := make([]Rule, len(pats))
	for i, p := range pats {
		rs[i] = Rule{Section: "read", Decision: Ask, Pattern: p, File: SecretsFile}
	}
	return rs
}()

// builtinReads are the built-in read ask rules: builtinSecrets, and what
// another process has open or holds, which the sandbox cannot hide and a
// command reading it gets without a human's yes: its descriptors
// (/proc/PID/fd/N: the terminal guardsh reads keys from, a shell's pipes),
// its environment and memory (proc(5)), other terminals (/dev/pts/N, whose
// keys a reader takes), and guardsh's own terminal recordings, which may
// hold what was typed (record_input), at their default place.
var builtinReads = func() []Rule {
	rs := slices.Clone(builtinSecrets)
	for _, p := range []string{"/proc/*/fd/*", "/proc/*/task/*/fd/*", "/proc/*/environ", "/proc/*/mem",
		"/dev/pts/*", "~/.local/state/guardsh/recordings/*"} {
		rs = append(rs, Rule{Section: "read", Decision: Ask, Pattern: p, File: SecretsFile})
	}
	return rs
}()

// PreparePaths builds the policy's path rules for ctx (see pathIndexFor)
// ahead of the first decision that needs them (a read, a write, a path
// argument), so that a caller may have them built on another goroutine
// while it does other work: about 0.3 ms of file system lookups and
// compiling for the default policy, which a Claude Code command's first
// decision paid. A decision made meanwhile waits for it. ctx.Lookups is
// not used (they belong to the caller's goroutine).
func (p *Policy) PreparePaths(ctx Context) {
	ctx.Lookups = nil
	p.pathIndexFor(ctx)
}

// ForgetPaths drops the path rules built so far (see PreparePaths), once
// any build under way has ended: the next decision builds them again from
// the file system as it is then. A caller that waited (for other commands
// to end) calls it, since links on the rules' paths may have changed
// meanwhile.
func (p *Policy) ForgetPaths() {
	p.building.Lock()
	defer p.building.Unlock()
	p.cache.Store(nil)
}

// pathIndexFor returns the compiled path rules for ctx, building and caching
// them on first use. Safe for concurrent use (ctx.Lookups aside).
func (p *Policy) pathIndexFor(ctx Context) *pathIndex {
	tmp := ctx.TempDirs
	var defaultTmp [2]string
	if tmp == nil {
		defaultTmp = [2]string{ctx.Lookups.tempDir(), "/tmp"}
		tmp = defaultTmp[:]
	}
	if x := p.cache.Load(); x != nil && x.fits(ctx, tmp) {
		return x
	}
	// One build at a time: a decision made while PreparePaths builds the
	// index for its context waits for that index instead of building one
	// of its own.
	p.building.Lock()
	defer p.building.Unlock()
	if x := p.cache.Load(); x != nil && x.fits(ctx, tmp) {
		return x
	}
	x := &pathIndex{
		home: ctx.Home, ws: ctx.Workspace, root: ctx.Root, cwd: ctx.Cwd, anchors: slices.Clone(ctx.Anchors),
		protectedIn: slices.Clone(ctx.Protected), tmpIn: slices.Clone(tmp),
	}
	// The patterns' directories are resolved through one set of lookups:
	// most lie beneath the home directory, whose components were looked
	// up again for each of a hundred patterns.
	lk := NewLookups()
	base := ctx.Workspace
	if ctx.Root != "" {
		base = ctx.Root
	}
	if base == "" {
		base = ctx.Cwd
	}
	for s := range p.paths {
		var entries []entry
		add := func(pr pathRule) {
			for _, b := range anchorsOf(pr, base, ctx.Anchors) {
				pat := pr.expand(ctx.Home, b)
				if pat == "" {
					continue
				}
				for _, v := range patternVariants(pat, lk) {
					entries = append(entries, entry{g: compileGlob(v, false), rule: pr.rule})
				}
			}
		}
		for _, pr := range p.paths[s] {
			add(pr)
		}
		if s == 1 {
			for i := range builtinReads {
				add(newPathRule(&builtinReads[i]))
			}
		}
		x.sections[s] = newTrie(entries)
		x.sections[s].indexFiles()
	}
	strict := &Rule{Decision: Deny}
	for _, pat := range append(slices.Clone(builtinProtected), ctx.Protected...) {
		if pat == "" {
			continue
		}
		if strings.HasPrefix(pat, "~") {
			pat = pathRule{rule: strict, anchor: '~', rest: strings.TrimLeft(pat[1:], "/")}.expand(ctx.Home, "")
		} else if !strings.HasPrefix(pat, "*") {
			pat = filepath.Clean(pat)
		}
		if pat == "" {
			continue
		}
		for _, v := range patternVariants(pat, lk) {
			x.protected = append(x.protected, compileGlob(v, false))
		}
	}
	protectedRule := &Rule{Decision: Deny}
	entries := make([]entry, len(x.protected))
	for i, g := range x.protected {
		entries[i] = entry{g: g, rule: protectedRule}
	}
	x.protectedIndex = newTrie(entries)
	x.wsDirs = dirVariants(ctx.Workspace, lk)
	x.homeDirs = dirVariants(ctx.Home, lk)
	for _, t := range tmp {
		// A temp dir of "/" or one holding the home directory would make
		// every write a workspace write; ignore such a setting.
		if !filepath.IsAbs(t) || t == "/" || (ctx.Home != "" && within(ctx.Home, filepath.Clean(t))) {
			continue
		}
		x.tmpDirs = append(x.tmpDirs, dirVariants(t, lk)...)
	}
	p.cache.Store(x)
	return x
}

// patternVariants returns pat and, if different, pat with the symlinks of
// its literal directory part resolved: all of pat when it has no '*', else
// the directories before the first '*'.
func patternVariants(pat string, lk *Lookups) []string {
	if !strings.HasPrefix(pat, "/") {
		return []string{pat}
	}
	star := strings.IndexByte(pat, '*')
	var resolved string
	if star < 0 {
		resolved, _ = resolve(lk, pat)
	} else {
		slash := strings.LastIndexByte(pat[:star], '/')
		if slash <= 0 {
			return []string{pat}
		}
		dir, _ := resolve(lk, pat[:slash])
		resolved = dir + pat[slash:]
	}
	if resolved == pat {
		return []string{pat}
	}
	return []string{pat, resolved}
}

func dirVariants(d string, lk *Lookups) []string {
	if d == "" || !filepath.IsAbs(d) {
		return nil
	}
	d = filepath.Clean(d)
	if c, _ := resolve(lk, d); c != d {
		return []string{d, c}
	}
	return []string{d}
}

// within reports whether path p is dir or lies below it.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || (len(p) > len(dir)+1 && p[len(dir)] == '/' && strings.HasPrefix(p, dir))
}

// maxLinks bounds symlink resolution, as the kernel's ELOOP limit does.
const maxLinks = 40

// canonical returns the absolute path abs names after resolving every
// symlink in its existing part, the way the kernel would when opening it
// for writing: ".." after a symlink goes to the parent of the link's target,
// a dangling symlink resolves to where the file would be created, and the
// part that does not exist yet is cleaned lexically. abs must be absolute;
// it need not be clean. It costs one lstat per existing component (plus one
// readlink per symlink) and one for the first missing component.
func canonical(abs string) string {
	p, _ := resolve(nil, abs)
	return p
}

// resolve is canonical with lk's lookups. It also returns the file's
// status when the whole path exists and its last component was looked up
// (the target's, for a symlink), else nil: a probe that finds the path
// (see Lookups.probe) spares that lookup, no caller needing the status
// (those that do call resolveIn).
func resolve(lk *Lookups, abs string) (string, os.FileInfo) {
	p, info, _ := resolveProbing(lk, "", abs, probeMinNew, false)
	return p, info
}

// resolveIn resolves path p, absolute or relative to dir, as canonical does.
// dir must be "" or "/" (the root) or a canonical path (absolute, clean,
// without symlinks), so that only the components of p cost lookups. exists
// reports whether the whole path exists; info is the status of the last
// component looked at, nil when the path exists but ends in "..", "." or
// is dir itself.
func resolveIn(lk *Lookups, dir, p string) (resolvedPath string, info os.FileInfo, exists bool) {
	return resolveProbing(lk, dir, p, probeMin, true)
}

// resolveProbing is resolveIn with probes (see Lookups.probe) for min
// components or more not yet looked up; without status, info may be nil
// for a path that exists (its last component is not looked up when a
// probe found it).
func resolveProbing(lk *Lookups, dir, p string, min int, status bool) (resolvedPath string, info os.FileInfo, exists bool) {
	rest := p      // components still to resolve, joined by '/'
	resolved := "" // resolved prefix, "" meaning "/"
	if !strings.HasPrefix(p, "/") && dir != "/" {
		resolved = dir
	}
	// While the walk follows an absolute p letter by letter, each path
	// it looks up is a prefix of p, not a new string.
	src := ""
	if strings.HasPrefix(p, "/") {
		src = p
	}
	links := 0
	for rest != "" {
		var c string
		c, rest, _ = strings.Cut(rest, "/")
		switch c {
		case "", ".":
			continue
		case "..":
			// resolved has no symlinks, so its lexical parent is its real one.
			resolved = resolved[:max(strings.LastIndexByte(resolved, '/'), 0)]
			info = nil
			continue
		}
		var next string
		if n := len(resolved) + 1 + len(c); len(src) >= n && src[len(resolved)] == '/' && src[len(resolved)+1:n] == c && src[:len(resolved)] == resolved {
			next = src[:n]
		} else {
			next = resolved + "/" + c
		}
		if rest != "" {
			// Components to look up: one probe may answer for all of
			// them (see Lookups.probe).
			full := ""
			if len(src) == len(next)+1+len(rest) && src[len(next)] == '/' && src[len(next)+1:] == rest && src[:len(next)] == next {
				full = src // next + "/" + rest is p itself
			}
			if full, missing := lk.probe(next, rest, full, min); missing {
				return full, nil, false
			}
		}
		if lk != nil {
			// A path a probe found, no symlink itself, is walked
			// through without a lookup when plain names follow: the
			// next component's lookup answers as it would (ENOTDIR
			// below a file), and gives the status; before "." or ".."
			// it is looked up, whose status the walk may return.
			if onWay, ok := lk.linkFree[next]; ok && (rest != "" && (onWay || plainNames(rest)) || rest == "" && !status) {
				resolved, info = next, nil
				continue
			}
		}
		fi, err := lk.lstat(next)
		if err != nil {
			// The rest does not exist (or cannot be looked at): clean it
			// (next, made of a canonical path and a plain name, is).
			if rest == "" {
				return next, nil, false
			}
			if len(src) == len(next)+1+len(rest) && src[len(next)] == '/' && src[len(next)+1:] == rest && src[:len(next)] == next {
				// next + "/" + rest is p itself: cleaned without
				// joining them again (no copy when p is clean).
				return filepath.Clean(src), nil, false
			}
			return filepath.Clean(next + "/" + rest), nil, false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			resolved, info = next, fi
			continue
		}
		if perProcess(next) {
			// /proc/self, /dev/stdin, /dev/fd: where it leads is the
			// command's business, not guardsh's own (attack run 34: a
			// link to /proc/self/fd/0, then `cat s0/../.ssh/id_rsa <
			// .`). Left as written, for isProcPath to read.
			if rest != "" {
				next += "/" + rest
			}
			return next, nil, false
		}
		target, err := os.Readlink(next)
		if links++; err != nil || links > maxLinks {
			return filepath.Clean(next + "/" + rest), nil, false
		}
		if strings.HasPrefix(target, "/") {
			resolved = ""
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = target
	}
	if resolved == "" {
		return "/", info, true
	}
	return resolved, info, true
}

// pathSubject is a write or read target resolved against a Context.
type pathSubject struct {
	static bool
	// For a static path: the absolute path cleaned lexically, and resolved.
	cleaned, resolved string
	// links is the number of hard links of an existing regular file.
	links uint64
	// For a dynamic path: units of the absolute path, the static part
	// before the first Hole cleaned and its directory resolved.
	units []uint16
	shown string // the path for messages, Holes as "…"
}

// dotDotAfterMissing reports whether abs, an absolute path, holds a ".."
// after a directory that does not exist now, and returns what follows the
// first such ".." (and the ".." after it): an earlier command of the same
// text may make that directory a link to anywhere, and ".." then leads
// past the link's target (the kernel's reading), not back lexically.
func dotDotAfterMissing(abs string) (string, bool) {
	if !strings.Contains(abs, "..") {
		return "", false
	}
	parts := strings.Split(abs, "/")
	for i := 1; i < len(parts); i++ {
		if parts[i] != ".." {
			continue
		}
		prefix := strings.Join(parts[:i], "/")
		if prefix == "" {
			continue // "/.." is "/"
		}
		if _, err := os.Stat(prefix); err == nil {
			continue
		}
		return afterDotDots(parts, i), true
	}
	return "", false
}

// afterDotDots returns what follows parts[i], a "..", and the "..", "."
// and empty components right after it, joined by "/" ("." for nothing).
func afterDotDots(parts []string, i int) string {
	for i < len(parts) && (parts[i] == ".." || parts[i] == "" || parts[i] == ".") {
		i++
	}
	if rest := strings.Join(parts[i:], "/"); rest != "" {
		return rest
	}
	return "."
}

// linklessPrograms are the programs MakesNoLinks knows make no symbolic
// link, whatever their arguments: they make directories and regular files,
// remove, change modes, or only read (common in agents' commands: `mkdir
// -p build && cd build && ls ..`).
var linklessPrograms = map[string]bool{
	"mkdir": true, "touch": true, "rm": true, "rmdir": true, "chmod": true,
	"cd": true, "pushd": true, "popd": true, "pwd": true, "echo": true, "printf": true,
	"test": true, "[": true, "true": true, "false": true, ":": true,
	"ls": true, "cat": true, "head": true, "tail": true, "wc": true, "grep": true, "rg": true,
	"sort": true, "uniq": true, "diff": true, "cmp": true, "stat": true, "file": true,
	"realpath": true, "readlink": true, "basename": true, "dirname": true, "date": true, "sleep": true,
	"base64": true, "which": true,
	// Builtins that only set the shell's state (a trap's action and an
	// alias's expansion are analysed where they run).
	"export": true, "declare": true, "typeset": true, "local": true, "readonly": true, "unset": true,
	"set": true, "shopt": true, "alias": true, "unalias": true, "trap": true, "type": true, "umask": true,
	"let": true, "shift": true,
}

// linklessGit are the git subcommands that make no symbolic link in the
// work tree: they read it, or write the index only (git-add(1),
// git-rm(1) …), and run no program a command line or the environment
// names. checkout, switch, restore, stash, merge, reset and the like write
// the work tree from a commit, links included; commit runs the hooks;
// fetch runs --upload-pack's command, diff and log an external diff, tag
// -a and grep -O an editor or pager (attack run 78 made a link with
// `git fetch --upload-pack="ln -s ~ d1; …"` before `cd d1`).
var linklessGit = map[string]bool{
	"add": true, "status": true, "rm": true, "rev-parse": true, "ls-files": true, "ls-tree": true,
}

// gitRunsEditor are the options of linklessGit's subcommands that start
// an editor or an interactive loop (git-add(1): --edit, --patch,
// --interactive).
var gitRunsEditor = []string{"-e", "--edit", "-p", "--patch", "-i", "--interactive"}

// MakesNoLinks reports whether a segment of kind exec that runs words (its
// words as the analysis gives them, the program written plainly, not a
// path) can make no symbolic link: a program of a short list whatever its
// arguments (mkdir, cd, touch, rm, ls, cat, grep …); sed whose script runs
// no command and writes no file (see runsArgument: sed -i replaces a link
// with a regular file, it makes none); cp with no option that copies or
// makes links as links (-s, -r, -R, -a, -d, -P and their long forms: a
// plain cp follows a link it is given and writes a regular file); git of
// a subcommand in linklessGit right after its name. A run-time word among
// the arguments of one of the last three may be an option: it makes them
// count as making links (a new user's `git add -A && cd pypkg && python
// -m pytest` asked, the cd's target then only known at run time). A
// caller sets Context.NoNewLinks when every exec segment of a command
// does. assigns says the segment sets variables for the program (a
// GIT_EXTERNAL_DIFF, a SIMPLE_BACKUP_SUFFIX): then only the list counts.
func MakesNoLinks(words []string, assigns bool) bool {
	if len(words) == 0 {
		return false
	}
	if linklessPrograms[words[0]] {
		return true
	}
	if assigns || slices.ContainsFunc(words[1:], func(w string) bool { return strings.Contains(w, Hole) }) {
		return false
	}
	switch words[0] {
	case "sed":
		at, _, _ := runsArgument(words)
		return at < 0
	case "cp":
		fo, ok := parseFileOpts(words)
		return ok && !fo.recursive && !fo.archive && !fo.noDeref && !fo.symbolic
	case "git":
		return len(words) > 1 && linklessGit[words[1]] && !slices.ContainsFunc(words[2:], func(w string) bool {
			return slices.Contains(gitRunsEditor, w) || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w[1:], "epi")
		})
	}
	return false
}

// dotDotAfterName reports whether the path p, as a command's word gives
// it, holds a ".." after a name it writes (not after "", "." or ".."),
// and returns what follows that ".." (and the ".." and "." after it):
// when an earlier part of the command can make links, it may have put a
// link where that name was (`rmdir x/p && ln -s . x/p && cat
// x/p/../../.ssh/id_rsa`: attack run 34), and ".." then leads to the
// link target's parent, wherever that is. A ".." at the start (`../x`,
// from the working directory) follows no name.
func dotDotAfterName(p string) (string, bool) {
	if !strings.Contains(p, "..") {
		return "", false
	}
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		if parts[i] != ".." {
			continue
		}
		if prev := parts[i-1]; prev == "" || prev == "." || prev == ".." {
			continue
		}
		return afterDotDots(parts, i), true
	}
	return "", false
}

// ClimbsAfterName reports whether the path p, as written, holds a ".."
// after a name it gives (see dotDotAfterName): where it leads depends on
// whether that name is a link when it is used.
func ClimbsAfterName(p string) bool {
	_, ok := dotDotAfterName(p)
	return ok
}

func newPathSubject(w string, ctx Context) pathSubject {
	return newPathSubjectProbing(w, ctx, probeMin)
}

// newPathSubjectProbing is newPathSubject with probes for min components
// or more not yet looked up (see probeMinNew).
func newPathSubjectProbing(w string, ctx Context, min int) pathSubject {
	shown := strings.ReplaceAll(w, Hole, "…")
	abs := w
	if !strings.HasPrefix(w, "/") {
		if ctx.Cwd == "" || strings.HasPrefix(w, Hole) {
			// Unknown base: the path could be anywhere.
			return pathSubject{units: append([]uint16{uHole}, appendUnits(nil, strings.TrimPrefix(w, Hole))...), shown: shown}
		}
		abs = ctx.Cwd + "/" + w
	}
	if isProcPath(abs) {
		cwd := ctx.Cwd
		if ctx.CwdUnknown {
			cwd = ""
		}
		if d, ok := otherDescriptor(abs); ok {
			// Another process's descriptor (/proc/PID/fd/N): a pipe or
			// terminal it reads, matched as written (the built-in read
			// rules name these), whatever it leads to.
			if strings.Contains(d, Hole) {
				return pathSubject{units: appendUnits(nil, d), shown: shown}
			}
			return pathSubject{static: true, cleaned: d, resolved: d, shown: shown}
		}
		p, known := procPath(abs, cwd)
		if !known {
			// Where the link leads is only known at run time.
			return pathSubject{units: append([]uint16{uHole, '/'}, appendUnits(nil, p)...), shown: shown}
		}
		abs = p
	}
	h := strings.Index(abs, Hole)
	if h < 0 {
		if rest, ok := dotDotAfterMissing(abs); ok && !ctx.NoNewLinks {
			// Where ".." leads from a directory that is not there now
			// depends on what makes it (a link: `ln -s . up && cat
			// up/../.ssh/id_rsa`, attack run 33): unknown.
			return pathSubject{units: append([]uint16{uHole, '/'}, appendUnits(nil, rest)...), shown: shown}
		}
		cleaned := filepath.Clean(abs)
		if !strings.Contains(abs, "..") {
			// Without "..", cleaning only drops what resolving skips
			// ("." components, doubled and trailing slashes): resolving
			// the clean path gives the same, and one missing below the
			// first component is not cleaned again.
			abs = cleaned
		}
		resolved, info, _ := resolveProbing(ctx.Lookups, "", abs, min, true)
		if isProcPath(resolved) && !isProcPath(abs) {
			// Through a link into /proc or /dev/fd: as the command sees
			// it (see procPath), once.
			cwd := ctx.Cwd
			if ctx.CwdUnknown {
				cwd = ""
			}
			p, known := procPath(resolved, cwd)
			if !known || isProcPath(p) {
				return pathSubject{units: append([]uint16{uHole, '/'}, appendUnits(nil, p)...), shown: shown}
			}
			resolved, info, _ = resolveProbing(ctx.Lookups, "", p, min, true)
			if isProcPath(resolved) {
				return pathSubject{units: append([]uint16{uHole, '/'}, appendUnits(nil, p)...), shown: shown}
			}
		}
		ps := pathSubject{static: true, cleaned: cleaned, resolved: resolved, shown: shown}
		if info != nil && info.Mode().IsRegular() {
			ps.links = hardLinks(info)
		}
		return ps
	}
	static, dyn := abs[:h], abs[h:]
	slash := strings.LastIndexByte(static, '/')
	dir, tail := static[:slash], static[slash+1:]
	if dir == "" {
		dir = "/"
	} else {
		dir, _ = resolve(ctx.Lookups, dir)
	}
	prefix := dir + "/" + tail
	if dir == "/" {
		prefix = "/" + tail
	}
	return pathSubject{units: appendUnits(appendUnits(nil, prefix), dyn), shown: shown}
}

// devSinks are write targets that write no file.
var devSinks = []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"}

// protectedBy returns the protected pattern s writes to, or "".
// It is the first of x.protected that matches s.cleaned or s.resolved.
func (x *pathIndex) protectedBy(s pathSubject) string {
	i := x.protectedIndex.matchString(s.cleaned).deny
	if s.resolved != s.cleaned {
		i = minHit(i, x.protectedIndex.matchString(s.resolved).deny)
	}
	if i < 0 {
		for _, p := range []string{s.cleaned, s.resolved} {
			if p != "" && withinAny(p, x.wsDirs) && gitComponent(p) {
				// A repository's git directory (or .git file) inside
				// the workspace other than its own, made in the same
				// command or before: git runs what its config names
				// (attack run 65: `… > sub/.git && cd sub && git
				// status` ran a planted core.fsmonitor).
				return "a .git inside the workspace"
			}
		}
		return ""
	}
	return x.protected[i].pat
}

// gitComponent reports whether p has a component named .git.
func gitComponent(p string) bool {
	return strings.HasSuffix(p, "/.git") || strings.Contains(p, "/.git/")
}

// protectedDirNames are the files ssh and git read from the directories
// the policy protects whole (~/.ssh/*, .git/*): what they hold runs code or
// lets a key in (sshd(8) AUTHORIZED_KEYS FILE FORMAT, ssh_config(5),
// githooks(5)).
var protectedDirNames = []string{"authorized_keys", "authorized_keys2", "config", "environment", "rc",
	"commondir", "gitdir", "config.worktree", "attributes", "exclude", "alternates", ".git",
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit", "prepare-commit-msg",
	"commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push", "pre-receive", "update",
	"proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
	"post-rewrite", "sendemail-validate", "fsmonitor-watchman", "post-index-change"}

// protectedTail returns the protected pattern that c, a relative path in
// a directory only known at run time, may name in some directory: a
// suffix of the pattern from one of its "/" matches "/"+c, and holds a
// literal name (.bashrc, .git/config, .git/hooks/x); a pattern's bare
// "/*" (a protected directory's every file) matches no name alone, or
// every write after `cd "$GITHUB_WORKSPACE"` would be protected.
func (x *pathIndex) protectedTail(c string) string {
	c = path.Clean(c)
	// Each tail too: a name before it may be a link to anywhere (attack
	// run 81: `env -C src sed -i … hm/.bashrc` with src/hm a link to ~).
	for i := strings.IndexByte(c, '/'); i >= 0 && i+1 < len(c); i = strings.IndexByte(c, '/') {
		if pat := x.protectedTailOnly(c); pat != "" {
			return pat
		}
		c = c[i+1:]
	}
	return x.protectedTailOnly(c)
}

// protectedTailOnly is protectedTail for c as a whole.
func (x *pathIndex) protectedTailOnly(c string) string {
	for strings.HasPrefix(c, "../") {
		c = c[3:]
	}
	if c == "." || c == ".." || c == "" || strings.HasPrefix(c, "/") {
		return ""
	}
	if base := path.Base(c); slices.Contains(protectedDirNames, base) {
		// A name only a protected directory gives meaning to (~/.ssh's
		// authorized_keys, a git hook): the directory may be that one
		// (attack run 63: `cd "$(dirname "$PWD")/.ssh" && echo KEY >>
		// authorized_keys`).
		for _, g := range x.protected {
			if strings.HasSuffix(g.pat, "/*") {
				return g.pat
			}
		}
	}
	for _, g := range x.protected {
		pat := g.pat
		for i := 0; i < len(pat); i++ {
			if pat[i] != '/' {
				continue
			}
			suffix := pat[i:]
			if strings.Trim(suffix, "/*") == "" {
				break
			}
			if compileGlob(suffix, false).match("/" + c) {
				return pat
			}
		}
	}
	return ""
}

func withinAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}
