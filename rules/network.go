package rules

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// netCmd says which calls of a program (or of one of its subcommands) use
// the network.
type netCmd struct {
	// Source says where the entry comes from.
	Source string
	// All: every call does.
	All bool
	// Bare: a call with no subcommand does (yarn alone installs).
	Bare bool
	// Sub are the subcommands that do; a subcommand not listed does not.
	Sub map[string]netCmd
	// ArgOpts are the options before the subcommand whose value is the
	// next word; an option of neither list may have taken the next word
	// when Loose is set (see subcommandWords).
	ArgOpts []string
	// NetOpts are options before the subcommand that make any call use
	// the network (docker -H names a daemon elsewhere).
	NetOpts []string
	// Loose: the option grammar is not modelled in full, so the word after
	// the first operand is a subcommand candidate too when an option
	// precedes it (npm --prefix DIR install).
	Loose bool
	// With: the subcommand uses the network only with one of these
	// options (git archive --remote).
	With []string
	// Operand: the subcommand uses the network only with an operand (npm
	// init NAME runs npm exec create-NAME; npm init alone writes
	// package.json).
	Operand bool
	// Remote: the program uses the network when an operand names a host
	// (scp and rsync: HOST:PATH, a ':' before any '/', or a URL).
	Remote bool
}

// networkPrograms are the programs known to reach the network, by base
// name, each with its source: their manuals' synopses and the command
// lists of `git help -a`, `npm help`, `pnpm help`, `yarn help`, `bun
// --help`, `pip help`, `cargo --list`, `go help`, apt(8), apt-get(8),
// aptitude(8), `brew help`, `gem help commands`, docker(1) and podman(1).
var networkPrograms = sync.OnceValue(func() map[string]netCmd {
	networkPrograms := map[string]netCmd{}
	all := func(src string, names ...string) {
		for _, n := range names {
			networkPrograms[n] = netCmd{Source: src, All: true}
		}
	}
	all("transfer or fetch URLs (curl(1), wget(1), lftp(1), tftp(1), aria2c(1); HTTPie http/https, xh)",
		"curl", "wget", "lftp", "tftp", "aria2c", "http", "https", "xh")
	all("remote shells and file transfer (ssh(1), sftp(1), telnet(1), ftp(1))", "ssh", "sftp", "telnet", "ftp")
	all("raw sockets (nc(1), ncat(1), netcat, socat(1))", "nc", "ncat", "netcat", "socat")
	all("network diagnostics that send packets or queries (ping(8), dig(1), nslookup(1), host(1), whois(1), traceroute(8), tracepath(8), mtr(8))",
		"ping", "ping6", "dig", "nslookup", "host", "whois", "traceroute", "traceroute6", "tracepath", "mtr")
	all("forge CLIs: every command calls the GitHub or GitLab API (gh(1), glab, hub)", "gh", "glab", "hub")
	all("run a package fetched from a registry if not installed (npx(1), pnpx, bunx, uvx)", "npx", "pnpx", "bunx", "uvx")

	remote := netCmd{Source: "scp(1), rsync(1): an operand [USER@]HOST:PATH (a ':' before any '/'), rsync://… or scp://… is on another host; rsync --daemon serves the network", Remote: true}
	networkPrograms["scp"] = remote
	networkPrograms["rsync"] = remote

	networkPrograms["git"] = netCmd{
		Source:  "git(1): the commands that talk to a remote repository",
		ArgOpts: []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--attr-source"},
		Sub: map[string]netCmd{
			"push": {All: true}, "fetch": {All: true}, "pull": {All: true}, "clone": {All: true},
			"ls-remote": {All: true}, "fetch-pack": {All: true}, "send-pack": {All: true},
			"http-fetch": {All: true}, "http-push": {All: true}, "request-pull": {All: true},
			"send-email": {All: true}, "svn": {All: true}, "p4": {All: true},
			"archive":   {With: []string{"--remote"}},
			"submodule": {Sub: map[string]netCmd{"update": {All: true}, "add": {All: true}, "foreach": {All: true}}},
			"remote":    {Sub: map[string]netCmd{"update": {All: true}, "show": {All: true}, "prune": {All: true}}},
			"lfs":       {Sub: map[string]netCmd{"pull": {All: true}, "fetch": {All: true}, "push": {All: true}, "clone": {All: true}}},
		},
	}

	npmSub := subs("install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall",
		"add", "install-test", "it", "install-ci-test", "cit", "ci", "clean-install", "ic", "install-clean",
		"isntall-clean", "update", "up", "upgrade", "udpate", "dedupe", "ddp", "link", "ln", "publish", "unpublish",
		"exec", "x", "create", "view", "info", "show", "v", "outdated", "search", "s", "se", "find", "audit",
		"login", "adduser", "add-user", "whoami", "ping", "dist-tag", "dist-tags", "owner", "author", "access",
		"deprecate", "star", "unstar", "stars", "token", "org", "team", "doctor", "diff", "docs", "home", "bugs", "repo")
	npmSub["init"] = netCmd{Operand: true}
	networkPrograms["npm"] = netCmd{Source: "npm(1): the commands that install, query or publish to the registry (npm help)", Loose: true, Sub: npmSub}
	networkPrograms["pnpm"] = netCmd{Source: "pnpm: the commands that install, query or publish to the registry (pnpm help)", Loose: true,
		Sub: withSub(subs("add", "install", "i", "install-test", "it", "update", "up", "upgrade", "publish", "dlx",
			"fetch", "outdated", "audit", "create", "env", "self-update", "login", "whoami", "view", "info", "search",
			"patch", "deploy", "link"),
			"store", netCmd{Sub: subs("add")})}
	networkPrograms["yarn"] = netCmd{Source: "yarn (classic and berry): yarn alone installs; the commands that install, query or publish", Loose: true, Bare: true,
		Sub: withSub(withSub(withSub(subs("add", "install", "up", "upgrade", "upgrade-interactive", "dlx", "publish",
			"info", "outdated", "audit", "create", "login", "whoami", "dedupe", "set"),
			"npm", netCmd{Sub: subs("publish", "login", "info", "whoami", "audit", "tag")}),
			"global", netCmd{Sub: subs("add", "upgrade")}),
			"plugin", netCmd{Sub: subs("import")})}
	networkPrograms["bun"] = netCmd{Source: "bun: the commands that install, query or publish (bun --help)", Loose: true,
		Sub: subs("install", "i", "add", "a", "update", "publish", "x", "create", "c", "upgrade", "outdated", "audit", "info")}

	pip := netCmd{Source: "pip(1): install, download, wheel and index fetch from the index; list checks the index for a newer pip (pip 23 handle_pip_version_check); search queries it", Loose: true,
		Sub: subs("install", "download", "wheel", "index", "search", "list")}
	networkPrograms["pip"] = pip
	networkPrograms["pip3"] = pip
	networkPrograms["pipx"] = netCmd{Source: "pipx: the commands that install from the index", Loose: true,
		Sub: subs("install", "run", "upgrade", "upgrade-all", "reinstall", "reinstall-all", "inject")}
	networkPrograms["uv"] = netCmd{Source: "uv: the commands that resolve or install from the index, or fetch Python or uv itself", Loose: true,
		Sub: withSub(withSub(withSub(withSub(subs("add", "sync", "lock"),
			"pip", netCmd{Sub: subs("install", "compile", "sync")}),
			"tool", netCmd{Sub: subs("install", "run", "upgrade")}),
			"python", netCmd{Sub: subs("install")}),
			"self", netCmd{Sub: subs("update")})}
	networkPrograms["cargo"] = netCmd{Source: "cargo(1): the commands whose job is to fetch from or publish to the registry", Loose: true,
		Sub: subs("fetch", "install", "publish", "search", "login", "owner", "yank", "update", "add", "generate-lockfile", "vendor", "info")}
	networkPrograms["go"] = netCmd{Source: "go(1): go install and go get fetch modules; go mod download and tidy, go work sync resolve them", Loose: true,
		Sub: withSub(withSub(subs("install", "get"),
			"mod", netCmd{Sub: subs("download", "tidy")}),
			"work", netCmd{Sub: subs("sync")})}

	apt := netCmd{Source: "apt(8), apt-get(8): the commands that download package lists, packages, sources or changelogs", Loose: true,
		Sub: subs("install", "reinstall", "update", "upgrade", "dist-upgrade", "full-upgrade", "download", "source",
			"changelog", "build-dep", "satisfy")}
	networkPrograms["apt"] = apt
	networkPrograms["apt-get"] = apt
	networkPrograms["aptitude"] = netCmd{Source: "aptitude(8): the commands that download package lists or packages", Loose: true,
		Sub: subs("install", "reinstall", "update", "upgrade", "safe-upgrade", "full-upgrade", "download", "changelog", "build-dep")}
	networkPrograms["brew"] = netCmd{Source: "brew(1): the commands that download formulae, bottles or taps", Loose: true,
		Sub: subs("install", "reinstall", "upgrade", "update", "fetch", "tap", "bundle")}
	networkPrograms["gem"] = netCmd{Source: "gem(1): the commands that fetch from or push to rubygems.org", Loose: true,
		Sub: subs("install", "update", "fetch", "push", "search")}
	networkPrograms["bundle"] = netCmd{Source: "bundle(1): the commands that resolve or install from the gem server", Loose: true,
		Sub: subs("install", "update", "add", "outdated")}

	containerSub := withSub(withSub(withSub(withSub(withSub(withSub(withSub(withSub(
		subs("pull", "push", "login", "search", "run", "create", "build", "scout", "trust"),
		"image", netCmd{Sub: subs("pull", "push", "build")}),
		"container", netCmd{Sub: subs("run", "create")}),
		"compose", netCmd{Sub: subs("pull", "push", "up", "build", "run", "create")}),
		"buildx", netCmd{Sub: subs("build", "bake")}),
		"builder", netCmd{Sub: subs("build")}),
		"manifest", netCmd{Sub: subs("inspect", "create", "push")}),
		"plugin", netCmd{Sub: subs("install", "upgrade", "push")}),
		"system", netCmd{Sub: subs("dial-stdio")})
	networkPrograms["docker"] = netCmd{
		Source:  "docker(1): the commands that pull, push or log in to a registry, build (base images, RUN steps) or run containers (which have network access by default); -H/--host and -c/--context pick a daemon that may be elsewhere (tcp://, ssh://)",
		ArgOpts: []string{"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"},
		NetOpts: []string{"-H", "--host", "-c", "--context"},
		Sub:     containerSub,
	}
	networkPrograms["podman"] = netCmd{
		Source: "podman(1): as docker; -r/--remote, --url and -c/--connection talk to a service that may be elsewhere",
		ArgOpts: []string{"--url", "-c", "--connection", "--identity", "--root", "--runroot", "--storage-driver",
			"--log-level", "--module", "--cgroup-manager", "--conmon", "--events-backend", "--hooks-dir",
			"--network-cmd-path", "--network-config-dir", "--runtime", "--runtime-flag", "--ssh", "--storage-opt",
			"--tmpdir", "--volumepath", "--imagestore", "--config"},
		NetOpts: []string{"-r", "--remote", "--url", "-c", "--connection"},
		Loose:   true,
		Sub:     containerSub,
	}
	return networkPrograms
})

// subs returns a subcommand table where each name uses the network.
func subs(names ...string) map[string]netCmd {
	m := make(map[string]netCmd, len(names))
	for _, n := range names {
		m[n] = netCmd{All: true}
	}
	return m
}

// withSub adds subcommand name, with subcommands of its own, to m.
func withSub(m map[string]netCmd, name string, c netCmd) map[string]netCmd {
	m[name] = c
	return m
}

// networkUse reports whether words, an exec segment's argv after quote
// removal (each run-time part a Hole), run a program or subcommand known
// to reach the network (see networkPrograms): curl, wget, ssh, scp and
// rsync to a host, nc, git push/fetch/pull/clone/ls-remote, package
// installs and publishes (npm, pnpm, yarn, bun, pip, cargo, go, apt,
// brew, gem), npx, gh, docker pull/push/login/run/build, and the like.
// The program is matched by its base name (/usr/bin/curl is curl), and
// `python -m pip …` as pip. It fails closed: a program name, or a word
// where a subcommand may stand, that is only known at run time counts as
// network use.
//
// It sees one segment: a wrapper's command (sudo curl, env curl) is a
// segment of its own. It does not see what runs behind a command: a git
// alias, an npm script, a build that fetches missing dependencies (go
// build with a cold module cache, cargo build without --offline, bun's
// auto-install), a toolchain or package-manager switch (GOTOOLCHAIN=auto
// with a go.mod toolchain line, rust-toolchain.toml, corepack, pnpm's
// manage-package-manager-versions). kubectl and docker's read-only
// subcommands talk to the API server or daemon the user configured and
// are not counted.
func networkUse(words []string) bool {
	return networkSource(words) != ""
}

// networkSource returns the Source of the networkPrograms entry that
// makes words use the network, or "" when none does.
func networkSource(words []string) string {
	if len(words) == 0 {
		return ""
	}
	if strings.Contains(words[0], Hole) {
		return "the command name is only known at run time"
	}
	name := path.Base(words[0])
	args := words[1:]
	if isPython(name) {
		i, dyn := pythonModule(args, "pip")
		if dyn {
			return "a run-time argument of " + name + " may be -m pip (pip(1))"
		}
		if i < 0 {
			return ""
		}
		name, args = "pip", args[i:]
	} else if strings.HasPrefix(name, "pip") && isPython("python"+strings.TrimPrefix(name, "pip")) {
		name = "pip" // pip3.11
	}
	if !networkName(name) {
		return ""
	}
	c, ok := networkPrograms()[name]
	if !ok {
		return ""
	}
	if name == "npx" && len(args) == 1 && (args[0] == "-v" || args[0] == "--version") {
		return "" // npm's version, printed before anything is fetched (see the read-only table)
	}
	if c.uses(args) {
		return c.Source
	}
	return ""
}

// pythonModule returns the index in args of the first word after `-m
// module` (after the interpreter's own options; python(1): -m ends them),
// or -1 when the interpreter runs something else (-c code, a script, stdin,
// another module); dyn reports a run-time word before that is known.
func pythonModule(args []string, module string) (after int, dyn bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.Contains(a, Hole):
			return -1, true
		case a == "--check-hash-based-pycs":
			i++
			continue
		case strings.HasPrefix(a, "--") && a != "--":
			continue
		case a == "-" || a == "--" || !strings.HasPrefix(a, "-"):
			return -1, false // stdin or a script: not -m
		}
	cluster:
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'c':
				return -1, false // inline code
			case 'm':
				mod, next := a[k+1:], i+1
				if mod == "" {
					if next >= len(args) {
						return -1, false
					}
					mod, next = args[next], next+1
				}
				if strings.Contains(mod, Hole) {
					return -1, true
				}
				if mod == module {
					return next, false
				}
				return -1, false
			case 'W', 'X':
				if k == len(a)-1 {
					i++ // the argument is the next word
				}
				break cluster // else it is the rest of this one
			}
		}
	}
	return -1, false
}

// uses reports whether a call of c with args (the words after the
// program or subcommand name) uses the network.
func (c netCmd) uses(args []string) bool {
	switch {
	case c.All:
		return true
	case c.Remote:
		return remoteOperand(args)
	case c.Operand:
		for _, a := range args {
			if strings.Contains(a, Hole) || !strings.HasPrefix(a, "-") {
				return true
			}
		}
		return false
	case len(c.With) > 0:
		for _, a := range args {
			if strings.Contains(a, Hole) {
				return true
			}
			for _, w := range c.With {
				if a == w || strings.HasPrefix(a, w+"=") {
					return true
				}
			}
		}
		return false
	case c.Sub == nil:
		return false
	}
	cands, dyn, net := c.subcommandWords(args)
	if dyn || net {
		return true
	}
	if len(cands) == 0 {
		// Alone, yarn installs; asking only for the version or help
		// does not.
		return c.Bare && !slices.ContainsFunc(args, func(a string) bool {
			return a == "-v" || a == "--version" || a == "-h" || a == "--help"
		})
	}
	for _, i := range cands {
		if s, ok := c.Sub[args[i]]; ok {
			if c.Loose {
				s.Loose = true
			}
			if s.uses(args[i+1:]) {
				return true
			}
		}
	}
	return false
}

// subcommandWords returns the indexes in args of the words that may be
// the subcommand: the first operand and, when c.Loose and an option not
// known to stand alone came before it, the operand after it (the first
// may have been that option's value). dyn reports a run-time word before
// or at the subcommand; net an option of c.NetOpts.
func (c netCmd) subcommandWords(args []string) (cands []int, dyn, net bool) {
	unknownOpt := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.Contains(a, Hole) {
			return nil, true, false
		}
		if a == "--" {
			if i+1 < len(args) {
				cands = append(cands, i+1)
			}
			return cands, false, false
		}
		if strings.HasPrefix(a, "+") {
			continue // rustup's cargo +toolchain: no subcommand starts with "+"
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasValue := strings.Cut(a, "=")
			if slices.Contains(c.NetOpts, name) {
				return nil, false, true
			}
			if !hasValue && slices.Contains(c.ArgOpts, name) {
				i++
			} else if !hasValue {
				unknownOpt = true
			}
			continue
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			// A cluster (-aH): each letter is an option until one
			// takes the rest of the word, or the next word, as value.
			known := false
			for k := 1; k < len(a); k++ {
				opt := "-" + a[k:k+1]
				if slices.Contains(c.NetOpts, opt) {
					return nil, false, true
				}
				if slices.Contains(c.ArgOpts, opt) {
					known = true
					if k == len(a)-1 {
						i++
					}
					break
				}
			}
			if !known {
				unknownOpt = true
			}
			continue
		}
		cands = append(cands, i)
		if !c.Loose || !unknownOpt {
			return cands, false, false
		}
		for j := i + 1; j < len(args); j++ {
			if strings.Contains(args[j], Hole) {
				return nil, true, false
			}
			if !strings.HasPrefix(args[j], "-") {
				return append(cands, j), false, false
			}
		}
		return cands, false, false
	}
	return cands, false, false
}

// remoteOperand reports whether an operand of scp or rsync names another
// host: HOST:PATH (a ':' before any '/'), a URL, or a run-time word; or
// rsync's --daemon.
func remoteOperand(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, Hole) || a == "--daemon" || strings.Contains(a, "://") {
			return true
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		colon := strings.IndexByte(a, ':')
		slash := strings.IndexByte(a, '/')
		if colon >= 0 && (slash < 0 || colon < slash) {
			return true
		}
	}
	return false
}

// networkName reports whether networkPrograms has an entry for name, so
// that the many commands that are none of them are answered without
// building the table (a few hundred entries; most commands a process
// decides need none). TestNetworkNames keeps the two the same.
func networkName(name string) bool {
	switch name {
	case "apt", "apt-get", "aptitude", "aria2c", "brew", "bun", "bundle", "bunx", "cargo", "curl", "dig",
		"docker", "ftp", "gem", "gh", "git", "glab", "go", "host", "http", "https", "hub", "lftp", "mtr",
		"nc", "ncat", "netcat", "npm", "npx", "nslookup", "ping", "ping6", "pip", "pip3", "pipx", "pnpm",
		"pnpx", "podman", "rsync", "scp", "sftp", "socat", "ssh", "telnet", "tftp", "tracepath",
		"traceroute", "traceroute6", "uv", "uvx", "wget", "whois", "xh", "yarn":
		return true
	}
	return false
}
