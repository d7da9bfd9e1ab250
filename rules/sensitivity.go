package rules

import (
	"cmp"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Sensitivity says why a segment of class Sensitive is sensitive: the
// reasons of the design's class table. A verdict of another class has none.
type Sensitivity string

const (
	// Network: the program reaches other hosts (curl, git push, npm
	// install…).
	Network Sensitivity = "network"
	// OutsideWorkspace: it writes a file outside the workspace and the
	// temp directory.
	OutsideWorkspace Sensitivity = "outside-workspace"
	// Interpreter: it runs code no rule sees — a script, inline code, the
	// project's build or tests, a dangerous variable (LD_PRELOAD=…).
	Interpreter Sensitivity = "interpreter"
	// Privilege: it changes user, privileges, namespaces or the system
	// (sudo, chown, mount, systemctl…).
	Privilege Sensitivity = "privilege"
	// Destructive: it deletes, overwrites or kills beyond the workspace (rm,
	// dd, kill, git reset --hard…).
	Destructive Sensitivity = "destructive"
	// UnknownProgram: a program guardsh has no knowledge of.
	UnknownProgram Sensitivity = "unknown-program"
	// ProtectedPath: it writes a protected path, or reads a secret.
	ProtectedPath Sensitivity = "protected-path"
)

// privilegePrograms change who runs what, or the system itself: sudo(8),
// doas(1), su(1), runuser(1), pkexec(1), setpriv(1), chroot(8),
// nsenter(1), unshare(1), capsh(1), setcap(8), chown(1)/chgrp(1) (giving
// files away), mount(8)/umount(8), systemctl(1)/service(8), sysctl(8),
// modprobe(8)/insmod(8)/rmmod(8), iptables(8)/nft(8), user and group
// administration (useradd(8) usermod(8) userdel(8) groupadd(8) passwd(1)
// chpasswd(8) visudo(8)), crontab(1)/at(1) (scheduling outlives the
// session), and the terminal multiplexers tmux(1), screen(1), zellij,
// byobu, tmate, dtach and abduco: their client drives the user's other
// sessions and terminals (types into the human's shell, answers an
// approval dialog) through a server outside any jail, so they never run
// jailed (an attack run's find).
var privilegePrograms = sync.OnceValue(func() map[string]bool {
	return setOf("sudo", "doas", "su", "runuser", "pkexec", "setpriv", "chroot", "nsenter",
		"unshare", "capsh", "setcap", "chown", "chgrp", "mount", "umount", "systemctl", "service", "sysctl",
		"modprobe", "insmod", "rmmod", "iptables", "ip6tables", "nft", "useradd", "usermod", "userdel",
		"groupadd", "groupmod", "groupdel", "passwd", "chpasswd", "visudo", "crontab", "at", "batch",
		"tmux", "screen", "zellij", "byobu", "tmate", "dtach", "abduco")
})

// destructivePrograms delete, overwrite or stop things: rm(1), rmdir(1),
// unlink(1), shred(1), dd(1), truncate(1), wipefs(8), mkfs(8) and its
// mkfs.* forms, fdisk(8), parted(8), kill(1), pkill(1), killall(1),
// reboot/shutdown/halt/poweroff(8).
var destructivePrograms = sync.OnceValue(func() map[string]bool {
	return setOf("rm", "rmdir", "unlink", "shred", "dd", "truncate", "wipefs", "mkfs",
		"fdisk", "sfdisk", "parted", "kill", "pkill", "killall", "reboot", "shutdown", "halt", "poweroff")
})

// codeRunners run a program text they are given: shells (bash(1) and
// the like), language runtimes, and awk.
var codeRunners = sync.OnceValue(func() map[string]bool {
	return setOf("sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox",
		"python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "ruby", "perl",
		"php", "lua", "luajit", "tclsh", "wish", "Rscript", "R", "julia", "java", "jshell", "osascript",
		"awk", "gawk", "mawk", "nawk", "source", ".", "eval", "exec", "tsx", "ts-node", "irb", "ipython", "pwsh")
})

// RunsProject reports whether the program named name (a base name) runs
// code a project or a package defines — make, test runners, build tools,
// package managers and their runners — or code it is given (RunsCode): it
// can do anything its user can, so the policy asks for it, jails it, or
// trusts it by an allow rule or mode bypass.
func RunsProject(name string) bool {
	switch name {
	case "npm", "pnpm", "yarn", "pip", "pip3":
		return true
	}
	return codeRunners()[name] || projectRunners()[name] || packageRunners()[name]
}

// RunsCode reports whether the program named name (a base name, "bash",
// "python3") runs a program text it is given — a shell, a language
// runtime, awk — whose code no pattern of its words names when it reads
// it from standard input.
func RunsCode(name string) bool { return codeRunners()[name] }

// projectRunners run code the project defines: make(1) runs its Makefile,
// the package managers' run/test/start/exec run package.json scripts,
// test runners import the tests, build tools run build scripts.
var projectRunners = sync.OnceValue(func() map[string]bool {
	return setOf("make", "gmake", "cmake", "ninja", "just", "task", "pytest", "tox", "nox",
		"jest", "vitest", "mocha", "playwright", "gradle", "gradlew", "mvn", "ant", "bazel", "rake", "bundle",
		"uv", "poetry", "pipenv", "hatch", "pdm", "cargo", "go", "dotnet", "swift", "mix", "sbt", "tsc", "vite",
		"next", "webpack", "eslint", "prettier", "biome", "ruff", "mypy", "black", "isort", "flake8", "pylint")
})

// packageRunners fetch a package when it is missing and run it (npx(1),
// pnpm dlx, bunx, yarn dlx, pipx run, uvx): network, then code.
var packageRunners = sync.OnceValue(func() map[string]bool {
	return setOf("npx", "bunx", "uvx", "pipx")
})

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// sensitivityOf says why an exec subject of class Sensitive is sensitive,
// from its program and arguments (writesOutside: it is a known writer whose
// targets are not all inside the workspace).
func sensitivityOf(words, assigns []string, writesOutside bool) Sensitivity {
	s := programSensitivity(words, writesOutside)
	for _, a := range assigns {
		if checkName(a) != "" {
			// The stricter of the two: a new user's `GIT_TRACE=0 git
			// clean -fdx` ran jailed, unasked, where `git clean -fdx`
			// asks (destructive).
			switch s {
			case Privilege, Network, Destructive, ProtectedPath, OutsideWorkspace:
				return s
			}
			return Interpreter
		}
	}
	return s
}

// programSensitivity is sensitivityOf without the assignments.
func programSensitivity(words []string, writesOutside bool) Sensitivity {
	if len(words) == 0 || strings.Contains(words[0], Hole) {
		return UnknownProgram
	}
	name := path.Base(words[0])
	if mkfs, _ := path.Match("mkfs.*", name); mkfs {
		return Destructive
	}
	switch {
	case privilegePrograms()[name]:
		return Privilege
	case packageRunners()[name], networkUse(words):
		return Network
	case destructivePrograms()[name], destructiveGit(words), destructiveFind(name, words):
		return Destructive
	case gitWritesConfig(words):
		// The repository's config is a protected path: what writes it
		// asks, and the jail would only put the change back.
		return ProtectedPath
	case writesOutside:
		return OutsideWorkspace
	}
	if at, _, _ := runsArgument(words); at >= 0 {
		return Interpreter
	}
	switch {
	case codeRunners()[name], projectRunners()[name], strings.HasSuffix(name, ".py"), strings.HasSuffix(name, ".sh"):
		return Interpreter
	case len(words) > 1 && (name == "npm" || name == "pnpm" || name == "yarn") &&
		(words[1] == "run" || words[1] == "test" || words[1] == "start" || words[1] == "exec" || words[1] == "run-script"):
		return Interpreter
	case strings.Contains(words[0], "/"):
		// A program named by a path: the project's own, or the system's
		// under a name the tables do not know.
		return Interpreter
	}
	if _, isWriter := workspaceWriters()[name]; isWriter {
		return OutsideWorkspace
	}
	return UnknownProgram
}

// dryRun reports a git clean option list that leaves it a dry run: -n or
// --dry-run (alone or in a cluster of short options, up to "--"), the last
// of it and --no-dry-run winning, with -e/--exclude's value skipped
// (attack run 83: `git clean -fdx -e -n` and `-n --no-dry-run` cleaned).
// A word only known at run time that may be an option is not one.
func dryRun(args []string) bool {
	dry := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return dry
		case strings.HasPrefix(a, Hole):
			return false // may be --no-dry-run
		case strings.HasPrefix(a, "--"):
			name, _, glued := strings.Cut(a, "=")
			switch {
			case strings.HasPrefix(name, "--no-") && len(name) > 5 && strings.HasPrefix("--no-dry-run", name):
				dry = false
			case len(name) > 2 && strings.HasPrefix("--dry-run", name):
				dry = true
			case len(name) > 2 && strings.HasPrefix("--exclude", name) && !glued:
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for k := 1; k < len(a); k++ {
				if a[k] == 'e' {
					// -e takes a value: the rest, or the next word.
					if k == len(a)-1 {
						i++
					}
					break
				}
				if a[k] == 'n' {
					dry = true
				}
			}
		}
	}
	return dry
}

// destructiveGit reports git subcommands that throw away work no commit
// holds or rewrite published history: reset --hard, clean, checkout -f or
// --, switch --discard-changes, stash drop/clear, push --force
// (git-reset(1), git-clean(1), git-checkout(1), git-stash(1),
// git-push(1)).
// destructiveFind reports a find that deletes what it walks (GNU find(1)
// -delete): as destructive as rm -r, and it asked nothing where rm -rf .
// did (a new user's `find . -delete` removed a repository, .git and all,
// in a jail that only contains the workspace).
func destructiveFind(name string, words []string) bool {
	return (name == "find" || name == "gfind" || name == "bfs") && slices.Contains(words[1:], "-delete")
}

func destructiveGit(words []string) bool {
	if len(words) < 2 || path.Base(words[0]) != "git" {
		return false
	}
	// After git's own options (a new user's `git --no-pager reset
	// --hard` and `git -C . clean -fdx` ran unasked).
	i := GitSubcommandAt(words)
	if i >= len(words) {
		return false
	}
	rest := words[i+1:]
	switch words[i] {
	case "clean":
		// -n/--dry-run only lists what it would remove (a new user's
		// `git clean -n` asked as destructive); not with -i, whose menu
		// can clean.
		return !dryRun(rest) || hasOption(rest, "i", "e", "--interactive")
	case "reset":
		return hasOption(rest, "", "", "--hard", "--merge", "--keep")
	case "checkout":
		// `git checkout -- PATHS` discards changes as `git restore
		// PATHS` does, a workspace write (a new user's find); -f
		// throws away every change.
		return hasOption(rest, "f", "bB", "--force")
	case "switch":
		return hasOption(rest, "f", "cC", "--discard-changes", "--force")
	case "stash":
		return hasWord(rest, "drop", "clear")
	case "push":
		return hasOption(rest, "fd", "o", "--force", "--force-with-lease", "--mirror", "--delete")
	}
	return false
}

// hasOption reports whether args, up to "--", hold one of the short
// option letters shorts (alone or in a cluster: `-fq`; a letter of valued
// takes the rest of its cluster as its value, `-bfix`, and else the next
// word) or one of the long
// options longs, written whole or abbreviated (git's parse-options and
// getopt_long take an unambiguous prefix: attack run 82's `git reset
// --ha`), with or without "=value". An abbreviation git would find
// ambiguous counts too: git then refuses it, and the stricter reading
// costs nothing.
func hasOption(args []string, shorts, valued string, longs ...string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return false
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, _, _ := strings.Cut(a, "=")
			for _, l := range longs {
				if strings.HasPrefix(l, name) {
					return true
				}
			}
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			for k := 1; k < len(a); k++ {
				if strings.IndexByte(shorts, a[k]) >= 0 {
					return true
				}
				if strings.IndexByte(valued, a[k]) >= 0 {
					if k == len(a)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return false
}

func hasWord(words []string, any ...string) bool {
	for _, w := range words {
		for _, a := range any {
			if w == a || strings.HasPrefix(w, a+"=") {
				return true
			}
		}
	}
	return false
}

// gitWritesConfig reports git subcommands that write git configuration
// (the repository's .git/config, or with --global or --system the
// user's or the system's), a protected path: git config setting,
// unsetting, renaming or removing keys or editing the file, and the
// forms `git config set|unset|rename-section|remove-section|edit`
// (git-config(1)); git remote add, rename, remove, set-url, set-head and
// set-branches (git-remote(1)); git submodule add, init, deinit,
// set-url, set-branch and sync (git-submodule(1)); git maintenance
// register, unregister, start and stop; git lfs install and uninstall.
// Global options before the subcommand are skipped.
func gitWritesConfig(words []string) bool {
	if len(words) < 2 || path.Base(words[0]) != "git" {
		return false
	}
	i := GitSubcommandAt(words)
	if i >= len(words) {
		return false
	}
	sub, rest := words[i], words[i+1:]
	first := "" // the first word that is no option (`git remote -v add`)
	for _, w := range rest {
		if !strings.HasPrefix(w, "-") {
			first = w
			break
		}
	}
	switch sub {
	case "config":
		return gitConfigWrites(rest)
	case "remote":
		switch first {
		case "add", "rename", "remove", "rm", "set-url", "set-head", "set-branches":
			return true
		}
	case "submodule":
		for _, w := range rest {
			switch w {
			case "add", "init", "deinit", "set-url", "set-branch", "sync":
				return true
			}
		}
	case "maintenance":
		switch first {
		case "register", "unregister", "start", "stop":
			return true
		}
	case "lfs":
		return first == "install" || first == "uninstall"
	}
	return false
}

// gitConfigHarmless are the git config keys (lower-cased; "*" a
// subsection) whose value only sets a name, a default or a display
// choice — nothing git runs, loads or trusts: what a CI step sets before
// a commit or a tag (git-config(1)). Every other key may make git run a
// program (core.hooksPath, core.fsmonitor, core.pager, core.sshCommand,
// diff.external, filter.*.clean, credential.helper, alias.* with "!"),
// load a file (include.path) or trust what it did not (safe.directory,
// http.sslVerify), so writing it needs a human's yes in every mode.
var gitConfigHarmless = []string{
	"user.name", "user.email", "init.defaultbranch", "pull.rebase", "pull.ff", "push.default",
	"push.autosetupremote", "fetch.prune", "fetch.prunetags", "rebase.autostash", "rebase.autosquash",
	"merge.ff", "merge.conflictstyle", "core.autocrlf", "core.filemode", "core.ignorecase", "core.quotepath",
	"core.safecrlf", "core.eol", "core.longpaths", "commit.gpgsign", "tag.gpgsign", "color.ui",
	"advice.detachedhead", "diff.renames", "diff.algorithm", "diff.colormoved", "branch.*.remote",
	"branch.*.merge", "branch.*.rebase", "checkout.defaultremote", "column.ui", "log.date", "status.short",
	"gc.auto",
}

// GitSubcommandAt returns the index in words (git's) of the subcommand:
// past the global options, those of gitGlobalWithArg taking the next
// word unless written with "=" (--config-env NAME=ENV was taken for the
// subcommand, attack run 62); len(words) when there is none.
func GitSubcommandAt(words []string) int {
	i := 1
	for i < len(words) && strings.HasPrefix(words[i], "-") {
		if slices.Contains(gitGlobalWithArg, words[i]) {
			i++
		}
		i++
	}
	return i
}

// gitWorkTreeWriters are git's subcommands that write work-tree files.
var gitWorkTreeWriters = []string{"checkout", "restore", "reset", "switch", "stash", "merge", "pull", "rebase",
	"cherry-pick", "revert", "am", "apply", "read-tree", "checkout-index", "mv", "rm", "clean", "worktree", "sparse-checkout",
	"clone", "submodule", "bisect", "commit", "add"}

// GitWritesWorkTree reports whether a git command (words) runs a
// subcommand that writes work-tree files (gitWorkTreeWriters).
func GitWritesWorkTree(words []string) bool {
	if len(words) < 2 || path.Base(words[0]) != "git" {
		return false
	}
	i := GitSubcommandAt(words)
	return i < len(words) && slices.Contains(gitWorkTreeWriters, words[i])
}

// GitWorkTreeElsewhere returns the directory (as written) a git command
// (words) that writes work-tree files takes for its work tree or its
// start, when that is not a directory inside the workspace the analysis
// resolves: --work-tree=DIR or -C DIR outside the workspace (or only known
// at run time, or with cwd unknown). Any file of that tree may be
// written, the pathspecs are git's (`:/.bashrc` is the tree's top), so
// the command is a protected write (attack run 62: `git --work-tree=..
// checkout HEAD -- :/.bashrc` replaced ~/.bashrc in mode bypass). ""
// otherwise.
func GitWorkTreeElsewhere(words, assigns []string, ctx Context) string {
	if len(words) < 2 || path.Base(words[0]) != "git" {
		return ""
	}
	i := GitSubcommandAt(words)
	if i >= len(words) || !slices.Contains(gitWorkTreeWriters, words[i]) {
		return ""
	}
	// Where the tree is, said another way: GIT_WORK_TREE, GIT_DIR (a
	// repository whose core.worktree may be anywhere) in the command's
	// environment (attack run 63), and the subcommand's own options that
	// write outside the tree (checkout-index --prefix, apply
	// --unsafe-paths and --directory).
	for _, a := range assigns {
		if name, v, _ := strings.Cut(a, "="); gitPlaceVars[name] {
			return cmp.Or(v, "…")
		}
	}
	for _, w := range words[i+1:] {
		if strings.HasPrefix(w, "--prefix") || strings.HasPrefix(w, "--unsafe-paths") || strings.HasPrefix(w, "--directory") {
			return w
		}
	}
	for k := 1; k < i; k++ {
		w := words[k]
		dir := ""
		switch {
		case w == "-C" || w == "--work-tree":
			if k+1 < i {
				dir = words[k+1]
			}
		case strings.HasPrefix(w, "--work-tree="):
			dir = w[len("--work-tree="):]
		case strings.HasPrefix(w, "-C") && len(w) > 2:
			dir = w[2:]
		default:
			continue
		}
		if (w == "-C" || strings.HasPrefix(w, "-C") && len(w) > 2) && ctx.CwdForGit {
			// ctx.Cwd is where the -C options lead already.
			if ctx.Workspace == "" || !within(filepath.Clean(ctx.Cwd), ctx.Workspace) {
				return dir
			}
			continue
		}
		if dir == "" || strings.Contains(dir, Hole) || ctx.CwdUnknown && !strings.HasPrefix(dir, "/") {
			return cmp.Or(dir, "…")
		}
		abs := dir
		if !strings.HasPrefix(abs, "/") {
			abs = filepath.Join(ctx.Cwd, abs)
		}
		if ctx.Workspace == "" || !within(filepath.Clean(abs), ctx.Workspace) {
			return dir
		}
	}
	return ""
}

// gitHarmlessShown names gitConfigHarmless in a reason.
const gitHarmlessShown = "user.name, user.email and the other naming, default and display keys"

// GitConfigRunsCode returns the key a git command (words, its program's
// base name git) writes to its config that is not among
// gitConfigHarmless (the whole section for --rename-section,
// --remove-section; "an editor's choice" for --edit), "" when it writes
// none or only harmless keys, or writes a file named by --file/--blob
// (decided by that path).
func GitConfigRunsCode(words []string) string {
	if !gitWritesConfig(words) {
		return ""
	}
	i := GitSubcommandAt(words)
	if i >= len(words) || words[i] != "config" {
		return "" // remote add, submodule …: decided as before
	}
	args := words[i+1:]
	for j := 0; j < len(args); j++ {
		w := args[j]
		switch {
		case j == 0 && (w == "edit" || w == "rename-section" || w == "remove-section"):
			return w
		case j == 0 && (w == "set" || w == "unset"):
		case w == "-e" || strings.HasPrefix(w, "--e") || strings.HasPrefix(w, "--ren") || strings.HasPrefix(w, "--rem"):
			return w
		case w == "-f" || w == "--file" || w == "--blob" || strings.HasPrefix(w, "--file=") || strings.HasPrefix(w, "--blob="):
			return ""
		case w == "--type" || w == "--default" || w == "--comment" || w == "--value":
			j++ // the option's value
		case strings.HasPrefix(w, "-"):
		default:
			if !harmlessGitKey(w) {
				return w
			}
			return "" // the key; what follows is its value
		}
	}
	return ""
}

// harmlessGitKey reports whether key (section.name or
// section.subsection.name, the section and name in any case) is one of
// gitConfigHarmless.
func harmlessGitKey(key string) bool {
	if strings.Contains(key, Hole) {
		return false
	}
	first, last := strings.Index(key, "."), strings.LastIndex(key, ".")
	if first <= 0 || last == len(key)-1 {
		return false
	}
	k := strings.ToLower(key)
	if first != last {
		k = strings.ToLower(key[:first]) + ".*" + strings.ToLower(key[last:])
	}
	return slices.Contains(gitConfigHarmless, k)
}

// configWriteOptions are the options by which git config writes
// (git-config(1)).
var configWriteOptions = []string{"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "--edit"}

// gitConfigWrites reports whether the arguments of git config write: a
// writing subcommand or option, or (the old form) a key with a value.
func gitConfigWrites(args []string) bool {
	operands := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case i == 0 && (w == "set" || w == "unset" || w == "rename-section" || w == "remove-section" || w == "edit"):
			return true
		case i == 0 && (w == "get" || w == "list"):
			return false
		case operands == 0 && (w == "--get" || w == "--get-all" || w == "--get-regexp" || w == "--get-urlmatch" || w == "--get-color" ||
			w == "--get-colorbool" || w == "-l" || w == "--list"):
			// A read option counts only before the key: git 2.39 wrote
			// `git config core.fsmonitor CMD --get` (attack run 60).
			return false
		case w == "-e" || strings.HasPrefix(w, "--") && len(w) > 2 && slices.ContainsFunc(configWriteOptions, func(o string) bool {
			// An option git takes abbreviated as well (--ad, --remove-sec).
			return strings.HasPrefix(o, strings.SplitN(w, "=", 2)[0])
		}):
			return true
		case w == "-f" || w == "--file" || w == "--blob" || w == "--type" || w == "--default" || w == "--comment":
			i++ // the option's value
		case strings.HasPrefix(w, "-"):
		default:
			operands++
		}
	}
	return operands >= 2
}
