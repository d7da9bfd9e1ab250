package guard

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardsh/guardsh/internal/workspace"
)

// Planted content: what an earlier jailed command may have left where a
// later, unjailed one loads it from. The places are those a jail of this
// user may have written (mayHaveWritten); what leads a program there is
// its repository (untrustedRepo), PATH (writablePathEntry) and the
// inherited variables of plantVars.

// valueKind says how a variable's value names places.
type valueKind int

const (
	// pathList: entries separated by ':'; an empty entry is the current
	// directory (ld.so(8) and python(1) say so; for the other lists it is
	// the cautious reading), a relative one lies beneath it.
	pathList valueKind = iota
	// onePath: the whole value is one file or directory.
	onePath
	// command: a command line (a leading '|' or '||', as LESSOPEN has,
	// is dropped): every word of it that is a path (commandPlaces), the
	// program's and its arguments' (`sh /x/script`); a bare name is found
	// on PATH, which is checked on its own.
	command
	// options: command-line options; the value each loading option names
	// is a place (see loadOptions).
	options
	// spaceOrColon: ld.so's LD_PRELOAD, a list separated by spaces or
	// colons whose entries with a '/' are paths (the others are looked up
	// in the library directories).
	spaceOrColon
	// spaceList: a list separated by spaces, every entry a path (make's
	// MAKEFILES, read before any other makefile).
	spaceList
	// javaOptions: JVM options (see javaPlaces): agents, class and
	// module paths, argument files and options files it loads.
	javaOptions
	// luaPath: lua(1)'s search templates, separated by ';', each with
	// '?' standing for the module name; ";;" is the default path. The
	// directory of each template is the place.
	luaPath
	// atFile: lua(1)'s LUA_INIT, a file to run when it starts with '@'
	// (otherwise it is code, which names no place).
	atFile
)

// plantVar is an inherited variable whose value makes a program load
// code, or config that runs code, from a place.
type plantVar struct {
	name string
	kind valueKind
	// shell: the real shell (bash) itself loads code through it at
	// start-up, before any command: guardsh refuses to start (see
	// CheckShell) rather than run every command's bash unjailed.
	shell bool
}

// plantVars are the variables, besides PATH, whose value leads a program
// the rules allow by its class to code or config a jailed command could
// have planted, with their sources:
//
//   - the dynamic loader, ld.so(8): LD_LIBRARY_PATH, LD_PRELOAD, LD_AUDIT
//     (libraries every dynamically linked program loads, bash included);
//     glibc's GCONV_PATH (iconv(3) modules, loaded code);
//   - python(1): PYTHONPATH (sitecustomize.py and every module imported),
//     PYTHONHOME (the standard library), PYTHONSTARTUP (run by an
//     interactive python), PYTHONUSERBASE (user site-packages, whose .pth
//     files run);
//   - node(1): NODE_PATH (modules), NODE_OPTIONS (--require, --import,
//     --loader load a module before the program);
//   - perlrun(1): PERL5LIB, PERLLIB (modules), PERL5OPT (-I, -M);
//   - ruby(1): RUBYLIB (libraries), RUBYOPT (-I, -r); GEM_HOME, GEM_PATH
//     (gems, with their executables' code);
//   - git(1): GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM (config that names
//     programs: core.fsmonitor, core.pager, diff and filter drivers),
//     GIT_EXEC_PATH (git's own subcommands), GIT_TEMPLATE_DIR (hooks git
//     init and clone copy), GIT_DIR, GIT_WORK_TREE and GIT_COMMON_DIR
//     (the repository, its config and hooks);
//   - programs named by a variable and run by another: PAGER, MANPAGER,
//     GIT_PAGER, EDITOR, VISUAL, GIT_EDITOR, GIT_SSH, GIT_SSH_COMMAND,
//     GIT_ASKPASS, SSH_ASKPASS, SUDO_ASKPASS, GIT_EXTERNAL_DIFF, BROWSER,
//     less(1)'s LESSOPEN and LESSCLOSE (an input preprocessor),
//     SYSTEMD_PAGER, DPKG_PAGER;
//   - config that runs programs: DOCKER_CONFIG (config.json's CLI plugin
//     directories and credential helpers), KUBECONFIG (exec credential
//     plugins) and KUBERC, RIPGREP_CONFIG_PATH (rg options: --pre runs a
//     program), CURL_HOME (.curlrc), GNUPGHOME (gpg.conf names programs),
//     OPENSSL_CONF, OPENSSL_MODULES and OPENSSL_ENGINES (config(5ssl):
//     provider and engine modules), GOENV and GOFLAGS (go's -toolexec),
//     CARGO_HOME and RUSTUP_HOME (cargo's config and the toolchains rustup's
//     proxies run), npm's NPM_CONFIG_USERCONFIG and every npm_config_* or
//     NPM_CONFIG_* naming a path (script-shell, globalconfig, prefix …),
//     and bash's BASH_LOADABLES_PATH (enable -f);
//   - Java: the JVM's JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS and
//     _JAVA_OPTIONS (java(1): -javaagent, -agentpath, class and module
//     paths, @argfiles), the launch scripts' JAVA_OPTS, MAVEN_OPTS,
//     GRADLE_OPTS and SBT_OPTS, CLASSPATH, and GRADLE_USER_HOME (its
//     init.d scripts run on every build);
//   - lua(1): LUA_PATH, LUA_CPATH, LUA_INIT (with their _5_4 … forms);
//   - R: R_PROFILE_USER, R_PROFILE (code run at start), R_LIBS,
//     R_LIBS_USER; julia: JULIA_DEPOT_PATH (config/startup.jl),
//     JULIA_LOAD_PATH; IPYTHONDIR and JUPYTER_CONFIG_DIR (startup code);
//   - builds: GOROOT, GOPATH and GOMODCACHE (the toolchain and the module
//     sources go compiles), the compilers and tools make and cgo run (CC,
//     CXX, CPP, LD, AR, FC), make's MAKEFILES; zsh's ZDOTDIR;
//   - git's configuration given in the environment: GIT_CONFIG_VALUE_<n>
//     for n below GIT_CONFIG_COUNT, and GIT_CONFIG_PARAMETERS (`git -c`
//     passed on to subcommands), whose values name programs and included
//     files (see gitConfigPlaces);
//   - the XDG base directories (XDG_CONFIG_HOME, XDG_DATA_HOME,
//     XDG_CONFIG_DIRS, XDG_DATA_DIRS: the config of many tools) and HOME
//     itself (~/.gitconfig, ~/.config, ~/.npmrc, ~/.docker, ~/.kube …).
//
// macOS's DYLD_* are not here: the jail is Linux's (Landlock), and with
// the sandbox off nothing is checked.
//
// BASH_ENV and ENV are not here: guardsh removes them from the real shell's
// environment (interp.ShellEnv), so neither bash nor what it starts sees
// them.
var plantVars = []plantVar{
	{"LD_LIBRARY_PATH", pathList, true}, {"LD_PRELOAD", spaceOrColon, true}, {"LD_AUDIT", pathList, true},
	{"GCONV_PATH", pathList, true},
	{"PYTHONPATH", pathList, false}, {"PYTHONHOME", pathList, false}, {"PYTHONSTARTUP", onePath, false},
	{"PYTHONUSERBASE", onePath, false},
	{"NODE_PATH", pathList, false}, {"NODE_OPTIONS", options, false},
	{"PERL5LIB", pathList, false}, {"PERLLIB", pathList, false}, {"PERL5OPT", options, false},
	{"RUBYLIB", pathList, false}, {"RUBYOPT", options, false}, {"GEM_HOME", onePath, false}, {"GEM_PATH", pathList, false},
	{"GIT_CONFIG_GLOBAL", onePath, false}, {"GIT_CONFIG_SYSTEM", onePath, false}, {"GIT_EXEC_PATH", onePath, false},
	{"GIT_TEMPLATE_DIR", onePath, false}, {"GIT_DIR", onePath, false}, {"GIT_WORK_TREE", onePath, false},
	{"GIT_COMMON_DIR", onePath, false},
	{"PAGER", command, false}, {"MANPAGER", command, false}, {"GIT_PAGER", command, false},
	{"EDITOR", command, false}, {"VISUAL", command, false}, {"GIT_EDITOR", command, false},
	{"GIT_SEQUENCE_EDITOR", command, false}, {"GIT_PROXY_COMMAND", command, false},
	{"GIT_SSH", command, false}, {"GIT_SSH_COMMAND", command, false}, {"GIT_ASKPASS", command, false},
	{"SSH_ASKPASS", command, false}, {"SUDO_ASKPASS", command, false}, {"GIT_EXTERNAL_DIFF", command, false},
	{"BROWSER", command, false}, {"LESSOPEN", command, false}, {"LESSCLOSE", command, false},
	{"SYSTEMD_PAGER", command, false}, {"DPKG_PAGER", command, false},
	{"DOCKER_CONFIG", onePath, false}, {"KUBECONFIG", pathList, false}, {"KUBERC", onePath, false},
	{"RIPGREP_CONFIG_PATH", onePath, false}, {"CURL_HOME", onePath, false}, {"GNUPGHOME", onePath, false},
	{"OPENSSL_CONF", onePath, false}, {"OPENSSL_MODULES", onePath, false}, {"OPENSSL_ENGINES", onePath, false},
	{"GOENV", onePath, false}, {"GOFLAGS", options, false}, {"CARGO_HOME", onePath, false}, {"RUSTUP_HOME", onePath, false},
	{"BASH_LOADABLES_PATH", pathList, false},
	{"JAVA_TOOL_OPTIONS", javaOptions, false}, {"JDK_JAVA_OPTIONS", javaOptions, false}, {"_JAVA_OPTIONS", javaOptions, false},
	{"JAVA_OPTS", javaOptions, false}, {"MAVEN_OPTS", javaOptions, false}, {"GRADLE_OPTS", javaOptions, false},
	{"SBT_OPTS", javaOptions, false}, {"CLASSPATH", pathList, false}, {"GRADLE_USER_HOME", onePath, false},
	{"LUA_PATH", luaPath, false}, {"LUA_CPATH", luaPath, false}, {"LUA_INIT", atFile, false},
	{"LUA_PATH_5_4", luaPath, false}, {"LUA_CPATH_5_4", luaPath, false}, {"LUA_INIT_5_4", atFile, false},
	{"LUA_PATH_5_3", luaPath, false}, {"LUA_CPATH_5_3", luaPath, false}, {"LUA_INIT_5_3", atFile, false},
	{"R_PROFILE_USER", onePath, false}, {"R_PROFILE", onePath, false}, {"R_LIBS", pathList, false},
	{"R_LIBS_USER", pathList, false}, {"JULIA_DEPOT_PATH", pathList, false}, {"JULIA_LOAD_PATH", pathList, false},
	{"IPYTHONDIR", onePath, false}, {"JUPYTER_CONFIG_DIR", onePath, false},
	{"GOROOT", onePath, false}, {"GOPATH", pathList, false}, {"GOMODCACHE", onePath, false},
	{"CC", command, false}, {"CXX", command, false}, {"CPP", command, false}, {"LD", command, false},
	{"AR", command, false}, {"FC", command, false}, {"MAKEFILES", spaceList, false}, {"ZDOTDIR", onePath, false},
	{"XDG_CONFIG_HOME", onePath, false}, {"XDG_DATA_HOME", onePath, false},
	{"XDG_CONFIG_DIRS", pathList, false}, {"XDG_DATA_DIRS", pathList, false},
	{"HOME", onePath, false},
}

// loadOpt is an option whose value is code to load, or a directory to
// load it from. attached: a one-letter option may carry its value joined
// (-Idir, -rlib); a long one takes it after '=' or as the next word. bare:
// a relative value is a place beneath the current directory, a bare name
// included; otherwise only an absolute value, or one starting with "./" or
// "../", is a place (a bare one is looked up on a load path or PATH,
// checked on their own).
type loadOpt struct {
	name           string
	attached, bare bool
}

// loadOptions are the loading options of the options variables: node's
// --require (-r), --import, --loader and --experimental-loader (node
// resolves a bare module from the current directory's node_modules);
// perl's -I; ruby's -I and -r (a bare library is looked up on the load
// path); go's -toolexec and -exec (programs).
var loadOptions = map[string][]loadOpt{
	"NODE_OPTIONS": {{"--require", false, true}, {"-r", false, true}, {"--import", false, true}, {"--loader", false, true}, {"--experimental-loader", false, true}},
	"PERL5OPT":     {{"-I", true, true}},
	"RUBYOPT":      {{"-I", true, true}, {"-r", true, false}},
	"GOFLAGS":      {{"-toolexec", false, false}, {"--toolexec", false, false}, {"-exec", false, false}, {"--exec", false, false}},
}

// A place is one entry a variable names: an absolute path, or a relative
// one (rel), which lies beneath whatever directory the program runs in.
type place struct {
	path string
	rel  bool
}

// places returns the places value (of variable name, of kind k) names; npm
// tells the npm_config_* variables, whose values are mostly no paths: only
// one starting with '/', "./", "../" or "~/" (npm expands it) is taken.
func places(name, value string, k valueKind, npm bool, home string) []place {
	if value == "" {
		return nil
	}
	one := func(p string) place {
		if filepath.IsAbs(p) {
			return place{path: p}
		}
		return place{path: p, rel: true}
	}
	var out []place
	switch {
	case npm:
		switch {
		case strings.HasPrefix(value, "~/") && home != "":
			out = append(out, place{path: filepath.Join(home, value[2:])})
		case strings.HasPrefix(value, "./") || strings.HasPrefix(value, "../") || filepath.IsAbs(value):
			out = append(out, one(value))
		}
	case k == pathList:
		for _, e := range strings.Split(value, ":") {
			out = append(out, one(cmp.Or(e, ".")))
		}
	case k == onePath:
		out = append(out, one(value))
	case k == spaceOrColon:
		for _, e := range strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ' ' || r == '\t' }) {
			if strings.Contains(e, "/") {
				out = append(out, one(e))
			}
		}
	case k == spaceList:
		for _, e := range strings.Fields(value) {
			out = append(out, one(e))
		}
	case k == javaOptions:
		for _, p := range javaPlaces(value) {
			out = append(out, one(p))
		}
	case k == luaPath:
		for _, t := range strings.Split(value, ";") {
			if t != "" {
				out = append(out, one(cmp.Or(filepath.Dir(t), ".")))
			}
		}
	case k == atFile:
		if f, ok := strings.CutPrefix(value, "@"); ok && f != "" {
			out = append(out, one(f))
		}
	case k == command:
		out = append(out, commandPlaces(strings.TrimLeft(strings.TrimSpace(value), "|"), home, true)...)
	case k == options:
		words := strings.Fields(value)
		for i := 0; i < len(words); i++ {
			w := words[i]
			for _, o := range loadOptions[name] {
				val, ok := "", true
				switch {
				case w == o.name && i+1 < len(words):
					i++
					val = words[i]
				case strings.HasPrefix(w, o.name+"="):
					val = w[len(o.name)+1:]
				case o.attached && len(o.name) == 2 && strings.HasPrefix(w, o.name) && len(w) > 2:
					val = w[2:]
				default:
					ok = false
				}
				if !ok {
					continue
				}
				if o.bare || filepath.IsAbs(val) || strings.HasPrefix(val, "./") || strings.HasPrefix(val, "../") {
					out = append(out, one(val))
				}
				break
			}
		}
	}
	return out
}

// javaPlaces returns the paths JVM options (JAVA_TOOL_OPTIONS and the
// like, as java(1) documents them) load code or options from: the jar of
// -javaagent:JAR[=OPTS] and the library of -agentpath:LIB[=OPTS]; every
// entry of -cp, -classpath, --class-path, -p, --module-path,
// --upgrade-module-path (the next word, or after '='), of
// -Xbootclasspath[/a|/p]:PATHS and of the -Djava.class.path,
// java.library.path, java.ext.dirs and java.endorsed.dirs properties;
// the file of @ARGFILE, -XX:Flags=FILE and -XX:VMOptionsFile=FILE.
// Relative ones are returned as written (the JVM takes them in its
// current directory). Words are split at white space; quotes are
// dropped.
func javaPlaces(value string) []string {
	var out []string
	list := func(v string) {
		for _, e := range strings.Split(v, string(os.PathListSeparator)) {
			if e != "" {
				out = append(out, e)
			}
		}
	}
	words := strings.Fields(strings.NewReplacer(`"`, "", "'", "").Replace(value))
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case strings.HasPrefix(w, "@") && len(w) > 1:
			out = append(out, w[1:])
		case strings.HasPrefix(w, "-javaagent:"), strings.HasPrefix(w, "-agentpath:"):
			_, v, _ := strings.Cut(w, ":")
			v, _, _ = strings.Cut(v, "=")
			out = append(out, v)
		case w == "-cp" || w == "-classpath" || w == "--class-path" || w == "-p" || w == "--module-path" || w == "--upgrade-module-path":
			if i+1 < len(words) {
				i++
				list(words[i])
			}
		case strings.HasPrefix(w, "--class-path="), strings.HasPrefix(w, "--module-path="), strings.HasPrefix(w, "--upgrade-module-path="):
			_, v, _ := strings.Cut(w, "=")
			list(v)
		case strings.HasPrefix(w, "-Xbootclasspath"):
			if _, v, ok := strings.Cut(w, ":"); ok {
				list(v)
			}
		case strings.HasPrefix(w, "-XX:Flags="), strings.HasPrefix(w, "-XX:VMOptionsFile="):
			_, v, _ := strings.Cut(w, "=")
			out = append(out, v)
		case strings.HasPrefix(w, "-D"):
			name, v, _ := strings.Cut(w[2:], "=")
			switch name {
			case "java.class.path", "java.library.path", "java.ext.dirs", "java.endorsed.dirs":
				list(v)
			}
		}
	}
	return out
}

// gitConfigPlaces returns the places git configuration given in env
// (workspace.EnvConfig: GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n> and
// GIT_CONFIG_VALUE_<n>, and GIT_CONFIG_PARAMETERS, what `git -c` hands its
// subcommands) names: every word of every value, whatever its key, that
// is a path (see commandPlaces) — a program's (core.fsmonitor,
// core.pager, an alias's "!cmd", a diff or filter driver, `sh
// /x/script`) or an included file's. What the files it includes name in
// turn is protected as the global config's is (workspace.GlobalReach).
func gitConfigPlaces(vals map[string]string, home string) []place {
	lookup := func(k string) (string, bool) { v, ok := vals[k]; return v, ok }
	var out []place
	for _, e := range workspace.EnvConfig(lookup) {
		out = append(out, commandPlaces(strings.TrimLeft(strings.TrimSpace(e.Value), "!|"), home, false)...)
	}
	return out
}

// commandPlaces returns the places a command line names: every word,
// split at white space and the shell's operators and quotes, that starts
// with '/', "./", "../" or "~/" (a relative one taken in the directory
// the program runs in), and, with program, a first word holding a '/'
// anywhere (`bin/pager`: the program run, relative). A bare first word is
// looked up on PATH, which is checked on its own; a bare argument is no
// place guardsh can tell.
func commandPlaces(v, home string, program bool) []place {
	var out []place
	if program && (strings.ContainsAny(v, "$`") || strings.Contains(v, "..")) {
		// A part only known at run time ($PWD/e.sh), or a ".." whose
		// directory is unknown: anywhere, the workspace included (attack
		// run 39).
		out = append(out, place{path: v, rel: true})
	}
	words := strings.FieldsFunc(v, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(";&|()<>'\"`=", r)
	})
	// An interpreter with no script of its own (`sh`, `sh -x`; not `sh
	// /x/d.sh`, whose script is the place).
	alone := len(words) > 0 && interpreterNames[filepath.Base(words[0])] &&
		!slices.ContainsFunc(words[1:], func(w string) bool { return !strings.HasPrefix(w, "-") })
	for i, w := range words {
		switch {
		case strings.Contains(w, "%"):
			// A placeholder the caller fills in (LESSOPEN's %s).
		case i == 0 && program && alone:
			// An interpreter runs the file its caller names (git diff
			// gives GIT_EXTERNAL_DIFF=sh the workspace file, git commit
			// gives GIT_EDITOR=sh the message): the working directory's.
			out = append(out, place{path: ".", rel: true})
		case i == 0 && program && strings.Contains(w, "/") && !filepath.IsAbs(w) && !strings.HasPrefix(w, "~"):
			out = append(out, place{path: w, rel: true})
		case strings.HasPrefix(w, "~/"):
			if home != "" {
				out = append(out, place{path: filepath.Join(home, w[2:])})
			}
		case strings.HasPrefix(w, "~"):
			out = append(out, place{path: w, rel: true}) // another user's home: not looked up
		case filepath.IsAbs(w):
			out = append(out, place{path: w})
		case strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../"):
			out = append(out, place{path: w, rel: true})
		case i > 0 && program && !strings.HasPrefix(w, "-"):
			// An argument that names a file in the working directory
			// (`sh e.sh`).
			out = append(out, place{path: w, rel: true})
		}
	}
	return out
}

// interpreterNames are programs that, named alone as a variable's command,
// run the file the program that calls them passes: shells and script
// interpreters.
var interpreterNames = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "fish": true, "busybox": true,
	"python": true, "python3": true, "python2": true, "node": true, "nodejs": true, "deno": true, "bun": true,
	"perl": true, "ruby": true, "php": true, "lua": true, "tclsh": true, "Rscript": true, "awk": true,
	"gawk": true, "env": true, "xargs": true, "source": true, ".": true,
}

// plantedVar returns why a program the rules allow by its class may load
// what a jailed command planted, "" when nothing says so: the first of
// PATH (see writablePathEntry) and the variables of env (NAME=VALUE, as
// os.Environ) in plantVars, npm_config_* and NPM_CONFIG_* whose value names
// a relative place or one of writable (see mayHaveWritten), as "NAME holds
// ENTRY, where a jailed command writes, …"; or, when recErr says the
// record of earlier jails' writes cannot be read, that every place may
// have been written.
func (g *Guard) plantedVar(env []string, writable []string, recErr error) string {
	return g.plantedVarIn(env, writable, recErr, "where a jailed command writes", "may be one it planted", nil)
}

// plantedVarIn is plantedVar with the words that say where the places lie
// (where) and what may be there (what), skipping the variables of skip.
func (g *Guard) plantedVarIn(env []string, writable []string, recErr error, where, what string, skip map[string]bool) string {
	if recErr != nil {
		return fmt.Sprintf("%v: any place may hold what an earlier jailed command planted", recErr)
	}
	vals := make(map[string]string, len(plantVars)+1)
	var npm []string
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		vals[name] = v
		if strings.HasPrefix(name, "npm_config_") || strings.HasPrefix(name, "NPM_CONFIG_") {
			npm = append(npm, name)
		}
	}
	if e := writablePathEntry(vals["PATH"], g.Context.Home, writable); e != "" && !skip["PATH"] {
		return "PATH holds " + e + ", " + where + ", so a program found there (by this command or one it starts) " + what
	}
	slices.Sort(npm)
	check := func(name string, k valueKind, isNPM bool) string {
		v, ok := vals[name]
		if !ok {
			return ""
		}
		if e := placeIn(places(name, v, k, isNPM, g.Context.Home), "", writable); e != "" {
			return name + " holds " + e + ", " + where + ", so code or config a program loads from there (this one or one it starts) " + what
		}
		return ""
	}
	for _, pv := range plantVars {
		if skip[pv.name] {
			continue
		}
		if why := check(pv.name, pv.kind, false); why != "" {
			return why
		}
	}
	for _, name := range npm {
		if why := check(name, onePath, true); why != "" {
			return why
		}
	}
	if e := placeIn(gitConfigPlaces(vals, g.Context.Home), "", writable); e != "" {
		return "git configuration in the environment (GIT_CONFIG_COUNT or GIT_CONFIG_PARAMETERS) names " + e + ", " + where + ", so a program git runs or a file it includes from there " + what
	}
	return ""
}

// placeIn returns the first of ps that lies in writable, as written (a
// relative one with " (relative)" added), or "". With cwd "" a relative
// place always counts (a cd may lead anywhere, the workspace included);
// else it is taken beneath cwd.
func placeIn(ps []place, cwd string, writable []string) string {
	for _, p := range ps {
		path := p.path
		if isPerProcessPath(path) {
			// /dev/stdin, /dev/fd/N, /proc/…: whatever the program's
			// caller gave it (`npx -v < notes.txt` with
			// NODE_OPTIONS=--require=/dev/stdin: attack run 39).
			return p.path + " (what the command's descriptors hold)"
		}
		if p.rel {
			if cwd == "" {
				return p.path + " (relative)"
			}
			path = filepath.Join(cwd, path)
		}
		if JailWrites(filepath.Clean(path), writable) || JailWrites(resolveLoose(path), writable) {
			if p.rel {
				return p.path + " (relative: " + path + ")"
			}
			return p.path
		}
	}
	return ""
}

// isPerProcessPath reports a path under /dev/fd, /proc, or one of
// /dev/stdin, /dev/stdout, /dev/stderr: what it names is the process's.
func isPerProcessPath(p string) bool {
	switch {
	case p == "/dev/stdin" || p == "/dev/stdout" || p == "/dev/stderr" || p == "/dev/fd":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/")
}

// CheckShell returns an error when shell, the real bash that runs every
// command guardsh lets run unjailed, may run what a jailed command
// planted, with the sandbox on: it lies where a jail of this user may
// have written (see mayHaveWritten), or a variable of env that the
// dynamic loader reads at bash's start (the plantVars marked shell:
// LD_LIBRARY_PATH, LD_PRELOAD, LD_AUDIT, GCONV_PATH) names such a place,
// a relative entry taken in cwd, where bash starts. configFile is where
// shell: is set. The record of earlier jails' writes not readable is an
// error too. nil with the sandbox off.
func (g *Guard) CheckShell(shell, cwd string, env []string, configFile string) error {
	if !g.Policy.Sandbox.On() {
		return nil
	}
	writable, recErr := g.mayHaveWritten(true)
	if recErr != nil {
		return fmt.Errorf("sandbox: %w; guardsh cannot tell whether a jailed command planted the real shell (%s) or what it loads, and runs nothing until the record is readable again", recErr, shell)
	}
	if JailWrites(shell, writable) || JailWrites(resolveLoose(shell), writable) {
		return fmt.Errorf("the bash found on PATH, %s, lies where a jailed command writes; set shell: /usr/bin/bash (or another bash outside the workspace, the temp directories and sandbox.write) in %s", shell, configFile)
	}
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		i := slices.IndexFunc(plantVars, func(p plantVar) bool { return p.name == name && p.shell })
		if i < 0 {
			continue
		}
		if e := placeIn(places(name, v, plantVars[i].kind, false, g.Context.Home), cwd, writable); e != "" {
			return fmt.Errorf("%s holds %s, where a jailed command writes: the real shell (%s), which runs every command guardsh does not jail, would load what a jailed command planted there; start guardsh without it (env -u %s) or with only directories outside the workspace, the temp directories and sandbox.write", name, e, shell, name)
		}
	}
	return nil
}

// environ is the environment programs inherit from guardsh.
func environ() []string { return os.Environ() }
