package rules

import "sync"

// moreReadOnlyPrograms extends readOnlyPrograms (readonly.go): programs
// that only print something about files, processes, the system, or a
// container or package manager, each called as its Source describes. The
// man pages cited are those shipped by Debian 12 (coreutils 9.1,
// util-linux 2.38, procps 4.0.2, iproute2 6.1, lsof 4.95, diffutils 3.8,
// dpkg 1.21, apt 2.6, xxd 2022-01-14, binutils 2.40, fd 8.6, ag 2.2)
// unless a newer version is named; where a claim was checked by running
// the program, the Source says so.
//
// Deliberately absent, each for the reason given:
//
//   - node, except --check: every other option can run code (-e, -p,
//     -r/--require, --import, --loader; --env-file reads NODE_OPTIONS from a
//     file), and a script operand runs.
//   - npm, except --version: `npm ls` writes a debug log into the
//     logs-dir a project .npmrc names (checked: a logs-dir=DIR line made
//     `npm ls` create DIR/…-debug-0.log); npm view, outdated, search and
//     audit query the registry. pnpm: package.json's packageManager field
//     makes pnpm download and run the pnpm it names
//     (managePackageManagerVersions; pmOnFail: download, pnpm 11's
//     default). yarn: .yarnrc.yml's
//     yarnPath runs a JavaScript file of the workspace; corepack's yarn
//     and pnpm shims download the version package.json names.
//   - pip (list, show, freeze): pip list is an IndexGroupCommand whose
//     self version check queries the index and writes its selfcheck file
//     (pip 23 cli/req_command.py handle_pip_version_check); and every pip
//     runs in the Python of whatever environment is active, whose
//     site-packages .pth lines starting with "import" run at start-up
//     (site(7), Python docs "site"): a workspace venv turns a workspace
//     write into code that runs.
//   - go (version, env): with GOTOOLCHAIN=auto, the default of Go's
//     go.env, a go.mod or go.work `go` or `toolchain` line newer than the
//     local toolchain makes every go command download and run that
//     toolchain (go.dev/doc/toolchain; checked: `go version` and `go env`
//     in a module with `toolchain go1.99.0` start "go: downloading
//     go1.99.0"); go env also runs the C compiler to probe its flags.
//   - cargo (any subcommand, even --version): cargo is a rustup proxy,
//     and a rust-toolchain.toml `path` runs the cargo of any directory
//     (checked: a workspace rust-toolchain.toml with path = "fake" made
//     `cargo --version` run fake/bin/cargo); metadata and tree also fetch
//     the registry unless --offline.
//   - rpm -q: not installed here to check; its popt options include
//     --eval (macro expansion, where %(cmd) runs a shell), --define,
//     --macros, --rcfile, --load and --pipe (runs a command), so a safe
//     entry needs an allowlist written against the real program.
//   - gem list, brew list/info: gem loads rubygems_plugin.rb files of
//     installed gems on every command; brew runs Ruby from its taps and
//     may fetch its JSON API. gh: every command talks to GitHub.
//   - docker compose: a plugin binary, and loading a project follows
//     include: entries that may name remote git or OCI resources.
//   - less, more, most: LESSOPEN/LESSCLOSE filters, "!" shell escapes, and
//     v runs an editor.
//   - top: only batch mode (-b) takes no keys, and interactive top kills
//     (k) and renices (r); a -b anywhere in a cluster ("-bn1") is not
//     something Require can see.
//   - cloc: --extract-with=CMD and --vcs=CMD run commands; --report-file,
//     --out, --sql, --counted, --ignored, --found and --categorized write
//     files. tokei: not installed here to check its options.
//   - getent: hosts/ahosts and the NSS databases behind others (LDAP,
//     DNS) query the network with names the arguments choose.
//   - csplit, split, tee, ptx (-G's second operand is an output file),
//     truncate: they write files.
var moreReadOnlyPrograms = []program{
	// node: a syntax check only.
	{Name: "node", Source: nodeCheckSource, Require: []string{"--check", "-c", "--version", "-v"}, Only: []string{"--check", "-c", "--version", "-v"}, MaxOperands: 1},
	{Name: "nodejs", Source: nodeCheckSource, Require: []string{"--check", "-c", "--version", "-v"}, Only: []string{"--check", "-c", "--version", "-v"}, MaxOperands: 1},

	// npm: the version only.
	{Name: "npm", Source: "npm 11 lib/npm.js: for -v/--version npm prints its version and returns before it creates its cache, log files or timers (checked: no log file is written); every other command writes a debug log or contacts the registry (see the list above this table)",
		Require: []string{"-v", "--version"}, Only: []string{"-v", "--version"}, NoOperands: true},
	{Name: "npx", Source: "npm 11 bin/npx-cli.js: npx runs `npm exec` with its arguments, and for -v/--version npm prints its version and returns as above (checked: npx --version under a fresh home writes nothing)",
		Require: []string{"-v", "--version"}, Only: []string{"-v", "--version"}, NoOperands: true},

	// Checksums and encodings (GNU coreutils): they read files or stdin
	// and print; none of GNU's has an output-file option.
	{Name: "sha224sum", Source: "coreutils sha224sum(1): prints or checks checksums", HoleSafe: true},
	{Name: "sha384sum", Source: "coreutils sha384sum(1): prints or checks checksums", HoleSafe: true},
	{Name: "b2sum", Source: "coreutils b2sum(1): prints or checks BLAKE2 checksums", HoleSafe: true},
	{Name: "sum", Source: "coreutils sum(1): prints checksums and block counts", HoleSafe: true},
	{Name: "base64", Source: "coreutils base64(1): encodes or (-d) decodes to stdout (GNU's options are -d, -i and -w); excluded: -o/--output, macOS base64's output file",
		HoleSafe: true, Exclude: []string{"-o", "--output"}},
	{Name: "base32", Source: "coreutils base32(1): encodes or (-d) decodes to stdout; its options are -d, -i and -w, none names a file", HoleSafe: true},
	{Name: "basenc", Source: "coreutils basenc(1): encodes or decodes to stdout; its options pick the encoding", HoleSafe: true},

	// Text filters (GNU coreutils, util-linux): stdin or files to stdout.
	{Name: "fold", Source: "coreutils fold(1): wraps lines to stdout", HoleSafe: true},
	{Name: "fmt", Source: "coreutils fmt(1): reformats paragraphs to stdout", HoleSafe: true},
	{Name: "paste", Source: "coreutils paste(1): merges lines of files to stdout", HoleSafe: true},
	{Name: "join", Source: "coreutils join(1): joins lines of two files to stdout (-o FORMAT is an output format, not a file)", HoleSafe: true},
	{Name: "expand", Source: "coreutils expand(1): converts tabs to spaces, to stdout", HoleSafe: true},
	{Name: "unexpand", Source: "coreutils unexpand(1): converts spaces to tabs, to stdout", HoleSafe: true},
	{Name: "numfmt", Source: "coreutils numfmt(1): reformats numbers to stdout", HoleSafe: true},
	{Name: "tsort", Source: "coreutils tsort(1): prints a topological sort", HoleSafe: true},
	{Name: "pr", Source: "coreutils pr(1): paginates files to stdout", HoleSafe: true},
	{Name: "shuf", Source: "coreutils shuf(1): prints a permutation; excluded: -o/--output writes FILE",
		HoleSafe: true, Exclude: []string{"-o", "--output"}, ArgShort: "ino"},
	{Name: "factor", Source: "coreutils factor(1): prints prime factors", HoleSafe: true},
	{Name: "pathchk", Source: "coreutils pathchk(1): checks file names are valid, prints problems", HoleSafe: true},
	{Name: "rev", Source: "util-linux rev(1): reverses lines to stdout", HoleSafe: true},
	{Name: "look", Source: "util-linux look(1): prints the lines of a sorted file that begin with a string", HoleSafe: true},
	{Name: "col", Source: "util-linux col(1): filters reverse line feeds, stdin to stdout", HoleSafe: true},
	{Name: "colrm", Source: "util-linux colrm(1): removes columns, stdin to stdout", HoleSafe: true},
	{Name: "iconv", Source: "glibc iconv(1): converts encodings to stdout; excluded: -o/--output writes FILE (iconv modules come from GCONV_PATH, a dangerous name)",
		HoleSafe: true, Exclude: []string{"-o", "--output"}, ArgShort: "fto"},
	{Name: "diff3", Source: "diffutils diff3(1): compares three files, printing differences, an ed script (-e, -i only print it) or a merge (-m) to stdout; excluded: --diff-program runs PROGRAM",
		HoleSafe: true, Exclude: []string{"--diff-program"}, ArgShort: "L"},
	{Name: "sdiff", Source: "diffutils sdiff(1): prints two files side by side; excluded: -o/--output merges interactively into FILE (and its e command runs an editor), --diff-program runs PROGRAM",
		HoleSafe: true, Exclude: []string{"-o", "--output", "--diff-program"}, ArgShort: "Iow"},

	// Dumps of binary files.
	{Name: "hexdump", Source: "util-linux hexdump(1): dumps files to stdout (-f reads a format file, -e formats only print)", HoleSafe: true},
	{Name: "strings", Source: "binutils strings(1): prints printable strings of files; excluded: @FILE, which reads more options and files from FILE (attack run 33: `strings @opts` printed the key that opts named)",
		ExcludeText: []string{"@"}},
	{Name: "xxd", Source: "xxd(1): `xxd [options] [infile [outfile]]` writes outfile (with -r too), hence one operand at most; xxd reads only the first letter of an option (-ac is -a, not -a -c), so no option is taken to consume the next word: write -c16, not -c 16",
		MaxOperands: 1, OptionsFirst: true}, // xxd takes options only before infile: `xxd -r - -x` writes the file "-x"

	// The user, the session, the system.
	{Name: "logname", Source: "coreutils logname(1): prints the login name", HoleSafe: true},
	{Name: "users", Source: "coreutils users(1): prints the users logged in (reads utmp, or FILE)", HoleSafe: true},
	{Name: "who", Source: "coreutils who(1): prints who is logged in (reads utmp, or FILE)", HoleSafe: true},
	{Name: "arch", Source: "coreutils arch(1): prints the machine hardware name; no operand and no option but --help and --version, since macOS arch(1) runs its operand (arch -x86_64 PROG) as a wrapper",
		NoOperands: true, Only: []string{"--help", "--version"}},
	{Name: "hostid", Source: "coreutils hostid(1): prints the host identifier", HoleSafe: true},
	{Name: "dircolors", Source: "coreutils dircolors(1): prints shell code setting LS_COLORS (it does not run it)", HoleSafe: true},
	{Name: "dir", Source: "coreutils dir(1): ls -C -b", HoleSafe: true},
	{Name: "vdir", Source: "coreutils vdir(1): ls -l -b", HoleSafe: true},
	{Name: "env", Source: "coreutils env(1) with no operand prints the environment; with a NAME=VALUE or COMMAND operand it runs a command (the wrapped command is its own segment, and this entry does not cover it); excluded: -S/--split-string, whose string env splits into more options and a command",
		HoleSafe: true, NoOperands: true, Exclude: []string{"-S", "--split-string"}, ArgShort: "uCS",
		ArgLong: []string{"--unset", "--chdir", "--split-string"}},
	{Name: "getconf", Source: "glibc getconf(1): prints configuration values; excluded: -v SPEC, which glibc builds without every environment built in answer by running GETCONF_DIR/SPEC (posix/getconf.c; GETCONF_DIR is a dangerous name)",
		HoleSafe: true, Exclude: []string{"-v"}},
	{Name: "locale", Source: "glibc locale(1): prints locale settings, locales (-a) and charmaps (-m)", HoleSafe: true},
	{Name: "uptime", Source: "procps uptime(1): prints how long the system has run", HoleSafe: true},
	{Name: "w", Source: "procps w(1): prints who is logged in and what they run", HoleSafe: true},
	{Name: "vmstat", Source: "procps vmstat(8): prints virtual memory statistics (DELAY COUNT repeat it)", HoleSafe: true},
	{Name: "pgrep", Source: "procps pgrep(1): prints the ids of matching processes; it signals none (pkill, a separate name, does; checked: `pgrep --signal KILL` leaves the process running and pgrep refuses -9)", HoleSafe: true},
	{Name: "pidof", Source: "pidof(8): prints the ids of processes running a program", HoleSafe: true},
	{Name: "pstree", Source: "psmisc pstree(1): prints the process tree", HoleSafe: true},
	{Name: "last", Source: "util-linux last(1): prints logins from wtmp (or -f FILE)", HoleSafe: true},
	{Name: "lsblk", Source: "util-linux lsblk(8): prints block devices", HoleSafe: true},
	{Name: "lscpu", Source: "util-linux lscpu(1): prints CPU information", HoleSafe: true},
	{Name: "lsmem", Source: "util-linux lsmem(1): prints memory blocks", HoleSafe: true},
	{Name: "lsns", Source: "util-linux lsns(8): prints namespaces", HoleSafe: true},
	{Name: "lslocks", Source: "util-linux lslocks(8): prints file locks", HoleSafe: true},
	{Name: "lsipc", Source: "util-linux lsipc(1): prints IPC facilities", HoleSafe: true},
	{Name: "findmnt", Source: "util-linux findmnt(8): prints mounted file systems (--poll only waits, --verify only checks)", HoleSafe: true},
	{Name: "mountpoint", Source: "util-linux mountpoint(1): says whether a directory is a mount point", HoleSafe: true},
	{Name: "dmesg", Source: "util-linux dmesg(1): prints the kernel ring buffer; excluded: -C/--clear and -c/--read-clear clear it, -D/--console-off, -E/--console-on and -n/--console-level change console logging (its pager is PAGER, a dangerous name)",
		HoleSafe: true, Exclude: []string{"-C", "--clear", "-c", "--read-clear", "-D", "--console-off", "-E", "--console-on", "-n", "--console-level"},
		ArgShort: "Fflns"},

	// Open files and sockets.
	{Name: "lsof", Source: "lsof(8): lists open files (+|-r repeat mode only waits); excluded: -D, whose b and u functions build or update the device cache file at the path given (where lsof is built with HASDCACHE), -k and -m, which name kernel name list and memory files lsof reads with its setgid kmem rights on the dialects that install it so; any argument holding \"@\" (-i@host), whose host name lsof resolves, a query naming what the argument says; not HoleSafe since a run-time part could hold either",
		PlusOptions: true, Exclude: []string{"-D", "-k", "-m"}, ExcludeText: []string{"@"}},
	{Name: "ss", Source: "iproute2 ss(8): prints sockets; excluded: -K/--kill closes sockets, -D/--diag writes FILE, -F/--filter reads a filter whose host names ss resolves, and operands (a filter: `dst HOST` resolves HOST)",
		NoOperands: true, Exclude: []string{"-K", "--kill", "-D", "--diag", "-F", "--filter"}, ArgShort: "fAN",
		ArgLong: []string{"--family", "--query", "--socket", "--net"}},
	{Name: "netstat", Source: "net-tools netstat(8): prints connections, routes, interfaces and statistics (-c repeats); it resolves only the addresses it lists", HoleSafe: true},
	{Name: "ip", Source: ipSource,
		GlobalOptions: []string{"-4", "-6", "-0", "-B", "-M", "-f", "-family", "-h", "-human", "-human-readable", "-iec",
			"-s", "-stats", "-statistics", "-d", "-details", "-o", "-oneline", "-N", "-Numeric", "-br", "-brief",
			"-j", "-json", "-p", "-pretty", "-c", "-color", "-V", "-Version",
			"--json", "--pretty", "--brief", "--details", "--stats", "--oneline", "--color"},
		GlobalArg: []string{"-f", "-family"},
		Sub: []program{
			{Name: "a", Source: ipSource, Sub: ipShow}, {Name: "addr", Source: ipSource, Sub: ipShow},
			{Name: "address", Source: ipSource, Sub: ipShow},
			{Name: "l", Source: ipSource, Sub: ipShow}, {Name: "link", Source: ipSource, Sub: ipShow},
			{Name: "r", Source: ipSource, Sub: ipShow}, {Name: "route", Source: ipSource, Sub: ipShow},
			{Name: "neigh", Source: ipSource, Sub: ipShow}, {Name: "neighbor", Source: ipSource, Sub: ipShow},
			{Name: "neighbour", Source: ipSource, Sub: ipShow},
		}},

	// Searching.
	{Name: "fd", Source: fdSource, HoleSafe: true, Exclude: fdExclude},
	{Name: "fdfind", Source: fdSource, HoleSafe: true, Exclude: fdExclude},
	{Name: "ag", Source: "the_silver_searcher ag(1): searches files (-z decompresses in-process); excluded: --pager runs COMMAND",
		HoleSafe: true, Exclude: []string{"--pager"}},
	{Name: "yq", Source: "yq (kislyuk's jq wrapper, whose jq language cannot write or run anything, and mikefarah's Go yq): filters YAML to stdout; excluded: -i/--in-place (kislyuk) and --inplace (mikefarah) edit files, -s/--split-exp (mikefarah) writes one file per result (in kislyuk's yq -s is jq's --slurp, excluded with it)",
		HoleSafe: true, Exclude: []string{"-i", "--in-place", "--inplace", "-s", "--split-exp"},
		// mikefarah's load, load_str, load_xml, load_props, load_base64
		// read any file the expression names (attack run 33:
		// `yq -n 'load_str("../.ssh/id_" + "rsa")'`).
		ExcludeText: []string{"load"}},

	// Package databases.
	{Name: "dpkg-query", Source: "dpkg-query(1): every action only reads the package database (--admindir and --root choose which); its pager, only on a terminal, is PAGER or DPKG_PAGER, dangerous names", HoleSafe: true},
	{Name: "dpkg", Source: "dpkg(1) \"dpkg-query actions\": -l, -L, -S, -s and -p are handed to dpkg-query; every other action installs, removes or configures, and options such as --pre-invoke (runs a command) and --log (writes a file) serve them, so only those actions (and --no-pager) are allowed, the action first",
		Require: dpkgQueryActions, Only: append([]string{"--no-pager"}, dpkgQueryActions...), HoleSafe: true},
	{Name: "apt", Source: "apt(8): list, show, search and policy read the package cache; excluded: every other subcommand (install, update, upgrade, remove, edit-sources, …), and every option but the listed output ones: -o/--option and -c/--config-file set any APT option (DPkg::Pre-Invoke runs commands, Dir::Cache::* are where apt writes its caches)",
		Sub: []program{
			{Name: "list", Source: "apt(8) list: prints packages; --installed, --upgradable, --upgradeable, --manual-installed, -a/--all-versions select them",
				HoleSafe: true, Only: []string{"--installed", "--upgradable", "--upgradeable", "--manual-installed", "-a", "--all-versions", "-q", "--quiet"}},
			{Name: "show", Source: "apt(8) show: prints package records (apt-cache show)", HoleSafe: true, Only: []string{"-a", "--all-versions", "-q", "--quiet"}},
			{Name: "search", Source: "apt(8) search: searches the package cache (apt-cache search)", HoleSafe: true, Only: []string{"-n", "--names-only", "-f", "--full", "-q", "--quiet"}},
			{Name: "policy", Source: "apt(8) policy: prints priorities and candidates (apt-cache policy)", HoleSafe: true, Only: []string{"-q", "--quiet"}},
		}},
	{Name: "apt-cache", Source: "apt-cache(8): the listed subcommands print from the package cache; excluded: gencaches and every other subcommand, and every option but the listed output ones: -p/--pkg-cache and -s/--src-cache name the cache files apt-cache writes when it regenerates them, -c/--config-file and -o/--option set any APT option, --with-source adds metadata files",
		Sub: []program{
			{Name: "show", Source: "apt-cache(8) show: prints package records", HoleSafe: true, Only: aptCacheOnly},
			{Name: "showpkg", Source: "apt-cache(8) showpkg: prints package information", HoleSafe: true, Only: aptCacheOnly},
			{Name: "policy", Source: "apt-cache(8) policy: prints priorities and candidates", HoleSafe: true, Only: aptCacheOnly},
			{Name: "search", Source: "apt-cache(8) search: searches package names and descriptions", HoleSafe: true, Only: aptCacheOnly},
			{Name: "depends", Source: "apt-cache(8) depends: prints dependencies", HoleSafe: true, Only: aptCacheOnly},
			{Name: "rdepends", Source: "apt-cache(8) rdepends: prints reverse dependencies", HoleSafe: true, Only: aptCacheOnly},
			{Name: "madison", Source: "apt-cache(8) madison: prints available versions", HoleSafe: true, Only: aptCacheOnly},
		}},

	// Containers and clusters: listing and inspecting only, with no
	// global option before the subcommand (docker -H/--host and
	// --context pick a daemon, ssh:// running ssh; --config picks a
	// config.json whose plugin directories and hooks run programs;
	// kubectl's global flags, allowed anywhere, are all left out but -n
	// and -v: --kubeconfig names exec credential plugins, -s/--server,
	// --token, --as and the TLS flags send credentials elsewhere, and
	// --cache-dir, --profile-output and klog's --log-file write files).
	{Name: "docker", Source: dockerSource,
		Sub: []program{
			dockerPs("ps"), dockerImages("images"), dockerInspect("inspect"), dockerLogs("logs"),
			{Name: "version", Source: "docker version: prints client and daemon versions", HoleSafe: true, Only: []string{"-f", "--format"}, ArgShort: "f"},
			{Name: "info", Source: "docker info: prints daemon information (and the plugins of the CLI plugin directories, by running their metadata command)", HoleSafe: true, Only: []string{"-f", "--format"}, ArgShort: "f"},
			{Name: "container", Source: dockerSource, Sub: []program{
				dockerPs("ls"), dockerPs("list"), dockerPs("ps"), dockerInspect("inspect"), dockerLogs("logs")}},
			{Name: "image", Source: dockerSource, Sub: []program{
				dockerImages("ls"), dockerImages("list"), dockerInspect("inspect")}},
		}},
	{Name: "kubectl", Source: kubectlSource,
		Sub: []program{
			{Name: "get", Source: "kubectl get: prints resources (-o go-template/jsonpath only format; --raw GETs an API path); excluded: -f/--filename, which may be a URL kubectl fetches, and -k/--kustomize, whose remote bases kustomize clones",
				HoleSafe: true, ArgShort: "lLnov", Only: kubectlOnly("-A", "--all-namespaces", "--allow-missing-template-keys", "--chunk-size",
					"--field-selector", "--ignore-not-found", "-L", "--label-columns", "--no-headers", "-o", "--output",
					"--output-watch-events", "--raw", "-l", "--selector", "--server-print", "--show-kind", "--show-labels",
					"--show-managed-fields", "--sort-by", "--subresource", "--template", "-w", "--watch", "--watch-only")},
			{Name: "describe", Source: "kubectl describe: prints resources and events; excluded: -f/--filename (may be a URL) and -k/--kustomize (remote bases)",
				HoleSafe: true, ArgShort: "lnv", Only: kubectlOnly("-A", "--all-namespaces", "--chunk-size", "-l", "--selector", "--show-events")},
			{Name: "logs", Source: "kubectl logs: prints container logs (-f follows); excluded: --insecure-skip-tls-verify-backend",
				HoleSafe: true, ArgShort: "clnv", Only: kubectlOnly("--all-containers", "--all-pods", "-c", "--container", "-f", "--follow",
					"--ignore-errors", "--limit-bytes", "--max-log-requests", "--pod-running-timeout", "--prefix", "-p",
					"--previous", "-l", "--selector", "--since", "--since-time", "--tail", "--timestamps")},
			{Name: "version", Source: "kubectl version: prints client and server versions",
				HoleSafe: true, ArgShort: "nov", Only: kubectlOnly("--client", "-o", "--output")},
			{Name: "api-resources", Source: "kubectl api-resources: prints the server's resource types",
				HoleSafe: true, ArgShort: "nov", Only: kubectlOnly("--api-group", "--cached", "--categories", "--namespaced",
					"--no-headers", "-o", "--output", "--sort-by", "--verbs")},
			{Name: "explain", Source: "kubectl explain: prints a resource's documentation",
				HoleSafe: true, ArgShort: "nov", Only: kubectlOnly("--api-version", "-o", "--output", "--recursive")},
		}},
}

const nodeCheckSource = "node(1) -c/--check: \"Syntax check the script without executing\" (checked with node 20: a script that writes a file, CommonJS or ES module, is parsed and not run; node refuses -c with -e); only -c/--check is allowed and it must come first, since every other option may run code (-r/--require and --import preload modules even under --check — checked with NODE_OPTIONS=--require, a dangerous name — and --env-file can set NODE_OPTIONS); one operand, the script; and -v/--version, which prints the version and runs nothing (checked with node 20: not a NODE_OPTIONS --require module, not a script operand)"

const ipSource = "iproute2 ip(8): `ip [OPTIONS] OBJECT [show|list] [FILTER]` for addresses, links, routes and neighbours prints them (no command is list); the allowed global options only format output (-f/-family picks the family); excluded: every other object and command (add, del, set, flush, change, replace, save/restore, netns exec, monitor…), -b/-batch (runs commands from a file), -force, -n/-netns and -a/-all (run the command in other namespaces), and abbreviations other than a, l, r"

// ipShow are the commands of an ip object that list it; what follows them
// is a filter, which cannot turn into another command.
var ipShow = []program{
	{Name: "show", Source: ipSource, HoleSafe: true},
	{Name: "list", Source: ipSource, HoleSafe: true},
}

const fdSource = "fd(1) (Debian: fdfind): finds files; excluded: -x/--exec and -X/--exec-batch run a command, -l/--list-details runs ls through --exec-batch"

var fdExclude = []string{"-x", "--exec", "-X", "--exec-batch", "-l", "--list-details"}

// dpkgQueryActions are the actions dpkg hands to dpkg-query.
var dpkgQueryActions = []string{"-l", "--list", "-L", "--listfiles", "-S", "--search", "-s", "--status", "-p", "--print-avail"}

// aptCacheOnly are apt-cache's options that only shape what it prints.
var aptCacheOnly = []string{"-q", "--quiet", "-i", "--important", "-f", "--full", "-a", "--all-versions",
	"-n", "--names-only", "--all-names", "--recurse", "--installed", "--implicit",
	"--no-pre-depends", "--no-depends", "--no-recommends", "--no-suggests", "--no-conflicts",
	"--no-breaks", "--no-replaces", "--no-enhances"}

const dockerSource = "docker CLI 28: the listed subcommands ask the daemon and print; global options are refused (after the subcommand docker rejects them too: checked, `docker ps -H x` is \"unknown shorthand flag\"), and each subcommand allows only the options of its --help (Go templates of --format have no function that writes or runs)"

func dockerPs(name string) program {
	return program{Name: name, Source: "docker ps / container ls: prints containers", HoleSafe: true, ArgShort: "fn",
		Only: []string{"-a", "--all", "-f", "--filter", "--format", "-n", "--last", "-l", "--latest", "--no-trunc", "-q", "--quiet", "-s", "--size"}}
}

func dockerImages(name string) program {
	return program{Name: name, Source: "docker images / image ls: prints images", HoleSafe: true, ArgShort: "f",
		Only: []string{"-a", "--all", "--digests", "-f", "--filter", "--format", "--no-trunc", "-q", "--quiet"}}
}

func dockerInspect(name string) program {
	return program{Name: name, Source: "docker inspect: prints objects as JSON or through a template", HoleSafe: true, ArgShort: "f",
		Only: []string{"-f", "--format", "-s", "--size", "--type"}}
}

func dockerLogs(name string) program {
	return program{Name: name, Source: "docker logs: prints a container's logs (-f follows, read-only though it does not end)", HoleSafe: true, ArgShort: "n",
		Only: []string{"--details", "-f", "--follow", "--since", "-n", "--tail", "-t", "--timestamps", "--until"}}
}

const kubectlSource = "kubectl 1.32: the listed subcommands GET from the API server of the user's kubeconfig and print (kubectl caches discovery under ~/.kube/cache, as git refreshes its index); no global option before the subcommand, and after it only the listed options of its --help and the global -n/--namespace and -v (`kubectl options`): --kubeconfig names exec credential plugins, -s/--server, --token, --user, --as and the TLS flags send credentials elsewhere, --cache-dir, --profile-output and --log-file write files; no plugin (kubectl-*) serves a built-in subcommand"

// kubectlOnly returns a kubectl subcommand's options plus the global ones
// it may have: -n/--namespace and -v/--v (log verbosity, to stderr).
func kubectlOnly(opts ...string) []string {
	return append([]string{"-n", "--namespace", "-v", "--v"}, opts...)
}

// toolConfigNames are variables, beyond dangerousNames, whose value makes a
// program of moreReadOnlyPrograms run, write or send something else:
// KUBECONFIG (kubeconfig exec credential plugins, and the server that gets
// the credentials), KUBERC (kubectl 1.33+ kuberc: default flags for
// commands), KUBECACHEDIR (where kubectl writes its caches); DOCKER_HOST
// (ssh:// runs ssh), DOCKER_CONTEXT (a context's host), DOCKER_CONFIG
// (config.json: current context, CLI plugin directories and hooks);
// DPKG_PAGER (dpkg-query runs it with $SHELL -c); APT_CONFIG (an apt.conf
// setting Dir::Cache::* and DPkg::Pre-Invoke); GETCONF_DIR (getconf runs
// programs there); LSOFDEVCACHE (the device cache path lsof writes);
// NODE_V8_COVERAGE and NODE_REDIRECT_WARNINGS (node writes coverage files
// to that directory and warnings to that file, under --check too —
// checked for NODE_V8_COVERAGE); TAR_OPTIONS, ZIPOPT, ZIP and GZIP (the
// options tar(1), zip(1) and gzip(1) read before their command line's:
// --remove-files, -m, -r; attack run 76 removed .git and the audit log
// with TAR_OPTIONS=--remove-files and ZIPOPT=-m).
var toolConfigNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"KUBECONFIG": true, "KUBERC": true, "KUBECACHEDIR": true,
		"DOCKER_HOST": true, "DOCKER_CONTEXT": true, "DOCKER_CONFIG": true,
		"DPKG_PAGER": true, "APT_CONFIG": true, "GETCONF_DIR": true, "LSOFDEVCACHE": true,
		"NODE_V8_COVERAGE": true, "NODE_REDIRECT_WARNINGS": true,
		"TAR_OPTIONS": true, "ZIPOPT": true, "ZIP": true, "GZIP": true,
	}
})
