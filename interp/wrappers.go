package interp

import (
	"slices"
	"strings"

	"github.com/guardsh/guardsh/internal/findexpr"
)

// wrapped is a command a wrapper runs.
type wrapped struct {
	via     string
	args    []Word
	from    []int // index in the wrapper's argv of each of args
	assigns []Word
}

// codeText is shell code a program runs: the -c string of su, the remote
// command of ssh, a git alias starting with "!".
type codeText struct {
	text  string
	via   string
	from  int  // index in argv of the word that holds it
	posix bool // run by sh (dash), not by the user's shell
	// elsewhere: it runs in a directory of the program's choosing (git
	// runs an alias, a hook, a pager at its work tree's top).
	elsewhere bool
}

// wrapResult is what a program runs besides itself.
type wrapResult struct {
	cmds []wrapped
	code []codeText
	// stdin: the program runs a shell that reads its code from its
	// standard input (sudo -s, su, chroot with no command).
	stdin bool
	// unknown: it may run a command no segment shows: an option or
	// operand only known at run time, an option the table does not know,
	// or a form not modelled. The segment gets RunsCode.
	unknown bool
}

func (r *wrapResult) cmd(via string, args []Word, i int, assigns []Word) {
	if i >= len(args) {
		return
	}
	inner := append([]Word(nil), args[i:]...)
	from := make([]int, len(inner))
	for k := range from {
		from[k] = i + k
	}
	r.cmds = append(r.cmds, wrapped{via: via, args: inner, from: from, assigns: assigns})
}

// shellCode adds a payload of shell code, or marks the result unknown when
// the code is only known at run time.
func (r *wrapResult) shellCode(text, via string, from int, posix bool) {
	if strings.Contains(text, Hole) {
		r.unknown = true
		return
	}
	r.code = append(r.code, codeText{text: text, via: via, from: from, posix: posix})
}

// simpleWrapper is a wrapper whose options are followed by a fixed number
// of operands and then the command it runs.
type simpleWrapper struct {
	opts optSpec
	// operands before the command: timeout DURATION, chroot NEWROOT.
	operands int
	// stop are options after which no command runs (command -v, sudo -l,
	// ionice -p): the wrapper is left as it is.
	stop []string
	// code are options whose argument is shell code (su -c).
	code []string
	// shellIfNone: with no command, the program starts an interactive
	// shell, which reads its standard input (chroot, nsenter, unshare).
	shellIfNone bool
}

func (sw *simpleWrapper) unwrap(base string, args []Word) (r wrapResult) {
	opts, i, ok := getopt(args, 1, &sw.opts)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, sw.stop...) || has(opts, "--help", "--version") {
		return r
	}
	for _, o := range opts {
		if has([]option{o}, sw.code...) {
			r.shellCode(o.value, base+" "+o.name, o.at, false)
		}
	}
	for k := 0; k < sw.operands; k++ {
		if i >= len(args) {
			return r
		}
		if !oneWord(args[i]) {
			r.unknown = true
			return r
		}
		i++
	}
	if i >= len(args) {
		r.stdin = sw.shellIfNone && len(r.code) == 0
		return r
	}
	r.cmd(base, args, i, nil)
	return r
}

// wrappers are the programs that run a command given in their arguments,
// each with the option grammar of its --help and man page (coreutils 9,
// util-linux 2.38+, sudo 1.9, procps 4, strace 6, OpenSSH 9, docker 28).
// unwrapArgs handles a few more with grammars of their own.
var wrappers = map[string]*simpleWrapper{
	// bash builtins.
	"command": {opts: optSpec{short: "pvV"}, stop: []string{"-v", "-V"}},
	"builtin": {},
	"exec":    {opts: optSpec{short: "cla:"}},
	// coreutils.
	"nohup": {opts: optSpec{long: long("help", "version"), abbrev: true}},
	"nice":  {opts: optSpec{short: "n:", long: long("adjustment:", "help", "version"), abbrev: true, numeric: true}},
	"timeout": {opts: optSpec{short: "k:s:v", long: long("kill-after:", "signal:", "preserve-status", "foreground",
		"verbose", "help", "version"), abbrev: true}, operands: 1},
	"stdbuf": {opts: optSpec{short: "i:o:e:", long: long("input:", "output:", "error:", "help", "version"), abbrev: true}},
	"chroot": {opts: optSpec{long: long("groups:", "userspec:", "skip-chdir", "help", "version"), abbrev: true},
		operands: 1, shellIfNone: true},
	// util-linux: prlimit(1) runs a command under new limits (a
	// resource's value only attached: --nofile=100, -n100), chrt(1) one
	// under a scheduling policy after its priority.
	"prlimit": {opts: optSpec{short: "p:o:vhVA::c::d::e::f::i::l::m::n::q::r::s::t::u::v::x::y::",
		long: long("pid:", "output:", "noheadings", "raw", "verbose", "help", "version", "as::", "core::", "cpu::",
			"data::", "fsize::", "locks::", "memlock::", "msgqueue::", "nice::", "nofile::", "nproc::", "rss::",
			"rtprio::", "rttime::", "sigpending::", "stack::"), abbrev: true}, stop: []string{"-p", "--pid"}},
	"chrt": {opts: optSpec{short: "abdefiomprRvhVT:P:D:", long: long("all-tasks", "batch", "deadline", "fifo", "idle",
		"other", "rr", "ext", "reset-on-fork", "sched-runtime:", "sched-period:", "sched-deadline:", "pid", "max",
		"verbose", "help", "version"), abbrev: true}, operands: 1, stop: []string{"-p", "--pid", "-m", "--max"}},
	// npm's npx(1): the command a package provides, fetched when it is
	// not installed (the npx segment stays: the network), or shell code
	// with -c/--call.
	// -v/--version prints npm's version and runs nothing.
	"npx": {opts: optSpec{short: "yqvp:c:w:", long: long("yes", "no", "quiet", "version", "package:", "call:", "no-install",
		"ignore-existing", "prefer-online", "prefer-offline", "offline", "workspace:", "workspaces",
		"include-workspace-root")}, code: []string{"-c", "--call"}, stop: []string{"-v", "--version"}},
	"setsid": {opts: optSpec{short: "cfwhV", long: long("ctty", "fork", "wait", "help", "version"), abbrev: true}},
	"ionice": {opts: optSpec{short: "c:n:p:P:tu:hV", long: long("class:", "classdata:", "pid:", "pgid:", "ignore",
		"uid:", "help", "version"), abbrev: true}, stop: []string{"-p", "-P", "-u", "--pid", "--pgid", "--uid"}},
	"taskset": {opts: optSpec{short: "acphV", long: long("all-tasks", "pid", "cpu-list", "help", "version"), abbrev: true},
		operands: 1, stop: []string{"-p", "--pid"}},
	"nsenter": {opts: optSpec{short: "at:m::u::i::n::p::C::U::T::S:G:r::w::W:eFZchV",
		long: long("all", "target:", "mount::", "uts::", "ipc::", "net::", "pid::", "cgroup::", "user::", "time::",
			"setuid:", "setgid:", "preserve-credentials", "root::", "wd::", "wdns:", "env", "no-fork",
			"follow-context", "join-cgroup", "user-parent", "keep-caps", "help", "version"), abbrev: true},
		shellIfNone: true},
	"unshare": {opts: optSpec{short: "fhVm::u::i::n::p::C::U::T::rcR:w:S:G:l:",
		long: long("mount::", "uts::", "ipc::", "net::", "pid::", "user::", "cgroup::", "time::", "fork",
			"kill-child::", "mount-proc::", "mount-binfmt::", "map-user:", "map-users:", "map-group:", "map-groups:",
			"map-root-user", "map-current-user", "map-auto", "map-subids", "propagation:", "setgroups:", "keep-caps",
			"setuid:", "setgid:", "root:", "wd:", "monotonic:", "boottime:", "load-interp:", "forward-signals",
			"help", "version"), abbrev: true},
		shellIfNone: true},
	"setpriv": {opts: optSpec{short: "dhV", long: long("dump", "nnp", "no-new-privs", "ambient-caps:", "inh-caps:",
		"bounding-set:", "ruid:", "euid:", "rgid:", "egid:", "reuid:", "regid:", "clear-groups", "keep-groups",
		"init-groups", "groups:", "securebits:", "pdeathsig:", "selinux-label:", "apparmor-profile:",
		"landlock-access:", "landlock-rule:", "seccomp-filter:", "reset-env", "help", "version"), abbrev: true},
		stop: []string{"-d", "--dump"}},
	// others.
	"doas": {opts: optSpec{short: "a:C:Lnsu:"}, stop: []string{"-C", "-L"}},
	"time": {opts: optSpec{short: "af:o:pqvV", long: long("append", "format:", "output:", "portability", "quiet",
		"verbose", "help", "version"), abbrev: true}, stop: []string{"-V"}},
	"ltrace": {opts: optSpec{short: "a:A:bcCD:e:F:hiLl:n:o:p:r:s:SRt:Tu:Vw:x:",
		long: long("align:", "config:", "demangle", "debug:", "help", "indent:", "library:", "output:", "version",
			"where:", "no-signals", "no-plt"), abbrev: true}},
}

// strace's grammar: strace 6. Its -o "|cmd" and "!cmd" pipe the trace to a
// shell command; -E VAR=VAL sets the command's environment.
var straceSpec = optSpec{short: "a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ",
	long: long("columns:", "abbrev:", "verbose:", "raw:", "read:", "write:", "trace:", "signal:", "status:",
		"quiet::", "silent::", "decode-fds::", "decode-pids:", "trace-fds:", "trace-path:", "output:",
		"output-separately", "output-append-mode", "attach:", "string-limit:", "strings-in-hex::", "summary-only",
		"summary", "summary-wall-clock", "summary-columns:", "summary-sort-by:", "summary-syscall-overhead:",
		"follow-forks", "env:", "user:", "timestamps::", "absolute-timestamps::", "relative-timestamps::",
		"syscall-times::", "instruction-pointer", "stack-trace", "stack-trace-frame-limit:", "successful-only",
		"failed-only", "seccomp-bpf", "kill-on-exit", "detach-on:", "daemonize::", "inject:", "fault:",
		"const-print-style:", "no-abbrev", "tips::", "argv0:", "debug", "help", "version", "interruptible:",
		"secontext::", "namespace:", "pidns-translation", "syscall-number", "daemonise::", "decode-fd:",
		"follow-forks-separately", "summary-sort:"),
	abbrev: true}

// unwrapArgs returns what the program base, called with args, runs in
// turn (see wrapResult): nil for a program that is not a wrapper and runs
// no code given in its arguments.
func unwrapArgs(base string, args []Word) wrapResult {
	if sw, ok := wrappers[base]; ok {
		return sw.unwrap(base, args)
	}
	switch base {
	case "npm":
		// npm exec and npm x run what npx does (npm-exec(1)).
		if len(args) > 1 && (args[1].Value == "exec" || args[1].Value == "x") {
			return wrappers["npx"].unwrap("npm "+args[1].Value, args[1:])
		}
		return wrapResult{}
	case "env":
		return unwrapEnv(args)
	case "sudo":
		return unwrapSudo(args)
	case "su", "runuser":
		return unwrapSu(base, args)
	case "flock":
		return unwrapFlock(args)
	case "watch":
		return unwrapWatch(args)
	case "script":
		return unwrapScript(args)
	case "strace":
		return unwrapStrace(args)
	case "xargs":
		return unwrapXargs(args)
	case "find":
		return unwrapFind(args)
	case "busybox":
		var r wrapResult
		if len(args) > 1 && !strings.HasPrefix(args[1].Value, "-") {
			if !oneWord(args[1]) || args[1].Dynamic() {
				r.unknown = true
				return r
			}
			r.cmd("busybox", args, 1, nil)
		}
		return r
	case "ssh":
		return unwrapSSH(args)
	case "docker", "podman":
		return unwrapDocker(base, args)
	case "kubectl", "oc":
		return unwrapKubectl(base, args)
	case "tmux":
		return unwrapTmux(args)
	case "parallel":
		return unwrapParallel(args)
	case "git":
		return unwrapGit(args)
	case "tar", "sort", "man", "rsync", "zip", "install", "split":
		return unwrapExecOption(base, args)
	}
	return wrapResult{}
}

var envSpec = optSpec{short: "0iu:C:S:v", long: long("ignore-environment", "null", "unset:", "chdir:",
	"split-string:", "block-signal::", "default-signal::", "ignore-signal::", "list-signal-handling", "debug",
	"help", "version"), abbrev: true}

// unwrapEnv handles env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]:
// NAME=VALUE become Assigns of the command; -S/--split-string's string is
// split as env splits it and its words take its place, options included
// (GNU env re-reads them).
func unwrapEnv(args []Word) (r wrapResult) {
	spec := envSpec
	args = append([]Word(nil), args...)
	from := make([]int, len(args))
	for k := range from {
		from[k] = k
	}
	i := 1
	var assigns []Word
	for splits := 0; ; {
		opts, next, ok := getopt(args, i, &spec)
		if !ok {
			r.unknown = true
			return r
		}
		if has(opts, "--help", "--version", "-0", "--null") {
			return r
		}
		split := -1
		for k, o := range opts {
			if o.name == "-S" || o.name == "--split-string" {
				split = k
				break
			}
		}
		if split < 0 {
			i = next
			break
		}
		o := opts[split]
		words, ok := splitEnvString(o.value)
		if !ok || splits > 8 {
			r.unknown = true
			return r
		}
		splits++
		// The split words replace the option (and its argument), and
		// option parsing goes on with them.
		src := args[o.at]
		ws := make([]Word, len(words))
		wf := make([]int, len(words))
		for k, w := range words {
			ws[k] = Word{Value: w, Source: src.Source}
			wf[k] = from[o.at]
		}
		args = append(append(append([]Word(nil), args[:o.at+1]...), ws...), args[o.at+1:]...)
		from = append(append(append([]int(nil), from[:o.at+1]...), wf...), from[o.at+1:]...)
		i = o.at + 1
	}
	if i < len(args) && args[i].Value == "-" {
		i++
	}
	// env(1) takes every operand holding "=" before the command as
	// NAME=VALUE, whatever NAME is: `BASH_FUNC_ls%%=() { … }` exports a
	// function to the bash it starts (attack run 50).
	for i < len(args) && (assignPrefixLen(args[i].Value) > 0 || strings.Index(args[i].Value, "=") > 0) {
		if !oneWord(args[i]) {
			r.unknown = true
			return r
		}
		assigns = append(assigns, args[i])
		i++
	}
	if i < len(args) && !oneWord(args[i]) {
		r.unknown = true
		return r
	}
	if i >= len(args) {
		return r
	}
	inner := append([]Word(nil), args[i:]...)
	r.cmds = append(r.cmds, wrapped{via: "env", args: inner, from: append([]int(nil), from[i:]...), assigns: assigns})
	return r
}

// splitEnvString splits the string of env -S as GNU env does: at blanks,
// with single quotes, double quotes, and the escapes \\ \" \' \_ (a
// space inside quotes, a separator outside) \t \n \r \f \v \# \$ and \c
// (ends the string); "#" at the start of a word starts a comment. A
// ${NAME} is a variable's value, only known at run time: a Hole. It
// reports false for what env would refuse, or for a Hole in s.
func splitEnvString(s string) ([]string, bool) {
	if strings.Contains(s, Hole) {
		return nil, false
	}
	var out []string
	var cur strings.Builder
	inWord := false
	end := func() {
		if inWord {
			out = append(out, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
				continue
			}
			if c == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
				i++
				c = s[i]
			}
			cur.WriteByte(c)
			continue
		case c == '\'' || c == '"':
			if quote == c {
				quote = 0
				continue
			}
			if quote == 0 {
				quote, inWord = c, true
				continue
			}
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'):
			end()
			continue
		case quote == 0 && c == '#' && !inWord:
			i = len(s)
			continue
		case c == '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			switch s[i] {
			case 'c':
				if quote != 0 {
					return nil, false
				}
				end()
				return out, true
			case '_':
				if quote == 0 {
					end()
					continue
				}
				c = ' '
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 'f':
				c = '\f'
			case 'v':
				c = '\v'
			case '\\', '"', '\'', '#', '$', ' ':
				c = s[i]
			default:
				return nil, false
			}
			cur.WriteByte(c)
			inWord = true
			continue
		case c == '$':
			if i+1 < len(s) && s[i+1] == '{' {
				j := strings.IndexByte(s[i:], '}')
				if j < 0 {
					return nil, false
				}
				cur.WriteString(Hole)
				inWord = true
				i += j
				continue
			}
			return nil, false // env requires ${NAME}
		}
		cur.WriteByte(c)
		inWord = true
	}
	if quote != 0 {
		return nil, false
	}
	end()
	return out, true
}

var sudoSpec = optSpec{short: "AbBC:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv", long: long("askpass", "background", "bell",
	"close-from:", "chdir:", "preserve-env::", "edit", "group:", "set-home", "help", "host:", "login",
	"remove-timestamp", "reset-timestamp", "list", "no-update", "non-interactive", "preserve-groups", "prompt:",
	"chroot:", "role:", "stdin", "shell", "type:", "command-timeout:", "other-user:", "user:", "version", "validate")}

// unwrapSudo handles sudo [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...].
// With -s or -i the command runs as "$SHELL -c TEXT", TEXT being the
// arguments with every character but letters, digits, "_", "-" and "$"
// escaped by a backslash (sudo's parse_args.c); without a command, a shell
// that reads its standard input.
func unwrapSudo(args []Word) (r wrapResult) {
	opts, i, ok := getopt(args, 1, &sudoSpec)
	if !ok {
		r.unknown = true
		return r
	}
	for _, o := range opts {
		switch o.name {
		case "-h":
			if !o.hasValue {
				return r
			}
		case "-e", "--edit", "-l", "--list", "-v", "--validate", "-K", "--remove-timestamp",
			"-V", "--version", "--help":
			return r
		}
	}
	var assigns []Word
	// env(1) takes every operand holding "=" before the command as
	// NAME=VALUE, whatever NAME is: `BASH_FUNC_ls%%=() { … }` exports a
	// function to the bash it starts (attack run 50).
	for i < len(args) && (assignPrefixLen(args[i].Value) > 0 || strings.Index(args[i].Value, "=") > 0) {
		if !oneWord(args[i]) {
			r.unknown = true
			return r
		}
		assigns = append(assigns, args[i])
		i++
	}
	if i < len(args) && !oneWord(args[i]) {
		r.unknown = true
		return r
	}
	if has(opts, "-s", "--shell", "-i", "--login") {
		if i >= len(args) {
			r.stdin = true
			return r
		}
		var b strings.Builder
		for k, w := range args[i:] {
			if k > 0 {
				b.WriteByte(' ')
			}
			for _, c := range []byte(w.Value) {
				if !(isAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '$') {
					b.WriteByte('\\')
				}
				b.WriteByte(c)
			}
		}
		r.shellCode(b.String(), "sudo -s", i, false)
		return r
	}
	if i < len(args) {
		r.cmd("sudo", args, i, assigns)
	}
	return r
}

// unwrapSu handles su [OPTION]... [-] [USER [ARG]...] (the ARGs go to the
// user's shell: "-c CODE" is code) and runuser, the same, or with -u USER
// runuser [OPTION]... -u USER [--] COMMAND [ARG]... (no shell). -c and
// --session-command are shell code; with neither and no ARG, the shell
// reads its standard input.
func unwrapSu(base string, args []Word) (r wrapResult) {
	spec := optSpec{short: "c:fg:G:lmpPs:w:hV", long: long("command:", "session-command:", "fast", "group:",
		"supp-group:", "login", "preserve-environment", "pty", "shell:", "whitelist-environment:", "help", "version"),
		abbrev: true}
	if base == "runuser" {
		spec.short += "u:"
		spec.long = append(spec.long[:len(spec.long):len(spec.long)], "user:")
	}
	opts, i, ok := getopt(args, 1, &spec)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "-h", "--help", "-V", "--version") {
		return r
	}
	if has(opts, "-u", "--user") {
		if has(opts, "-c", "--command", "--session-command") {
			r.unknown = true // runuser refuses it
			return r
		}
		if i < len(args) && !oneWord(args[i]) {
			r.unknown = true
			return r
		}
		r.cmd(base, args, i, nil)
		return r
	}
	if has(opts, "-s", "--shell") {
		// Another shell: we cannot say how it reads -c.
		for _, o := range opts {
			if (o.name == "-s" || o.name == "--shell") && (o.value == "" || !shells[lastPathElem(o.value)]) {
				r.unknown = true
				return r
			}
		}
	}
	sawCode := false
	for _, o := range opts {
		switch o.name {
		case "-c", "--command", "--session-command":
			r.shellCode(o.value, base+" -c", o.at, false)
			sawCode = true
		}
	}
	if i < len(args) && args[i].Value == "-" {
		i++
	}
	if i < len(args) {
		if !oneWord(args[i]) {
			r.unknown = true
			return r
		}
		i++ // USER
	}
	if i < len(args) {
		// ARGs to the user's shell: only "-c CODE [ARG]..." is modelled.
		if args[i].Value == "-c" && i+1 < len(args) {
			r.shellCode(args[i+1].Value, base+" -c", i+1, false)
			return r
		}
		r.unknown = true
		return r
	}
	r.stdin = !sawCode
	return r
}

func lastPathElem(p string) string {
	if k := strings.LastIndexByte(p, '/'); k >= 0 {
		return p[k+1:]
	}
	return p
}

// unwrapFlock handles flock [OPTION]... FILE|DIR COMMAND [ARG]...,
// flock [OPTION]... FILE|DIR -c|--command CODE (run by $SHELL -c), and
// flock [OPTION]... FD (no command).
func unwrapFlock(args []Word) (r wrapResult) {
	spec := optSpec{short: "sexnoFuw:E:hV", long: long("shared", "exclusive", "unlock", "nonblock", "nb", "close",
		"no-fork", "timeout:", "wait:", "conflict-exit-code:", "verbose", "help", "version"), abbrev: true}
	opts, i, ok := getopt(args, 1, &spec)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "-h", "--help", "-V", "--version") || i >= len(args) {
		return r
	}
	if !oneWord(args[i]) {
		r.unknown = true
		return r
	}
	i++ // FILE
	if i >= len(args) {
		return r
	}
	if v := args[i].Value; v == "-c" || v == "--command" {
		if i+1 < len(args) {
			r.shellCode(args[i+1].Value, "flock -c", i+1, false)
		}
		return r
	}
	if !oneWord(args[i]) {
		r.unknown = true
		return r
	}
	r.cmd("flock", args, i, nil)
	return r
}

// unwrapWatch handles watch [OPTION]... COMMAND...: the command's words are
// joined by spaces and run by "sh -c", or with -x/--exec run as they are.
func unwrapWatch(args []Word) (r wrapResult) {
	spec := optSpec{short: "bcCd::eghq:n:prtwxv", long: long("beep", "color", "no-color", "differences::",
		"errexit", "chgexit", "equexit:", "interval:", "precise", "no-rerun", "no-title", "no-wrap", "no-linewrap",
		"exec", "help", "version"), abbrev: true}
	opts, i, ok := getopt(args, 1, &spec)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "-h", "--help", "-v", "--version") || i >= len(args) {
		return r
	}
	if has(opts, "-x", "--exec") {
		r.cmd("watch", args, i, nil)
		return r
	}
	r.shellCode(joinValues(args[i:]), "watch", i, true)
	return r
}

// unwrapScript handles script [OPTION]... [FILE]: -c CODE is run by
// $SHELL -c; without it, an interactive shell reads the standard input.
// script permutes its arguments, so options may follow FILE.
func unwrapScript(args []Word) (r wrapResult) {
	spec := optSpec{short: "aB:c:eE:fI:m:O:o:qT:t::hV", long: long("append", "log-io:", "command:", "echo:",
		"return", "flush", "force", "log-in:", "logging-format:", "log-out:", "output-limit:", "quiet",
		"log-timing:", "timing::", "help", "version"), abbrev: true}
	i := 1
	var opts []option
	for i < len(args) {
		o, next, ok := getopt(args, i, &spec)
		if !ok {
			r.unknown = true
			return r
		}
		opts = append(opts, o...)
		if next > i && args[next-1].Value == "--" {
			break
		}
		if next >= len(args) {
			break
		}
		i = next + 1 // an operand: permuted past
	}
	if has(opts, "-h", "--help", "-V", "--version") {
		return r
	}
	for _, o := range opts {
		if o.name == "-c" || o.name == "--command" {
			r.shellCode(o.value, "script -c", o.at, false)
		}
	}
	r.stdin = len(r.code) == 0 && !r.unknown
	return r
}

// unwrapStrace handles strace [OPTION]... COMMAND [ARG]...; -E VAR=VAL
// become Assigns of the command, -o "|CMD" or "!CMD" pipes the trace into
// a shell command, and -p without a command attaches to a process.
func unwrapStrace(args []Word) (r wrapResult) {
	opts, i, ok := getopt(args, 1, &straceSpec)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "-h", "--help", "-V", "--version") {
		return r
	}
	var assigns []Word
	for _, o := range opts {
		switch o.name {
		case "-o", "--output":
			if v := o.value; strings.HasPrefix(v, "|") || strings.HasPrefix(v, "!") {
				r.shellCode(v[1:], "strace -o", o.at, false)
			}
		case "-E", "--env":
			if assignPrefixLen(o.value) > 0 {
				assigns = append(assigns, Word{Value: o.value, Source: args[o.at].Source})
			}
		}
	}
	if i < len(args) && !oneWord(args[i]) {
		r.unknown = true
		return r
	}
	if i < len(args) {
		r.cmd("strace", args, i, assigns)
	}
	return r
}

// unwrapXargs handles xargs [OPTION]... [COMMAND [INITIAL-ARGS]...]: the
// command gets a trailing Hole for the arguments it reads, or with -I/-i
// each replacement string a Hole; with no command it runs echo.
func unwrapXargs(args []Word) (r wrapResult) {
	spec := optSpec{short: "0a:d:E:e::I:i::L:l::n:oP:prs:tx", long: long("null", "arg-file:", "delimiter:", "eof::",
		"replace::", "max-lines::", "max-args:", "open-tty", "max-procs:", "interactive", "process-slot-var:",
		"no-run-if-empty", "max-chars:", "show-limits", "verbose", "exit", "help", "version"), abbrev: true}
	opts, i, ok := getopt(args, 1, &spec)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "--help", "--version") || i >= len(args) {
		return r
	}
	if !oneWord(args[i]) {
		r.unknown = true
		return r
	}
	replace := ""
	var assigns []Word
	for _, o := range opts {
		switch o.name {
		case "-I":
			replace = o.value
		case "-i", "--replace":
			replace = o.value
			if !o.hasValue {
				replace = "{}"
			}
		case "-L", "-l", "-n", "--max-lines", "--max-args":
			// GNU xargs: a later -L, -l or -n cancels -I ("ignoring
			// previous --replace value") and appends the input again.
			replace = ""
		case "--process-slot-var":
			// Sets NAME in the command's environment.
			assigns = append(assigns, Word{Value: o.value + "=" + Hole, Source: "--process-slot-var=" + o.value})
		}
	}
	r.cmd("xargs", args, i, assigns)
	w := &r.cmds[0]
	if replace != "" {
		for k := range w.args {
			if v := strings.ReplaceAll(w.args[k].Value, replace, Hole); v != w.args[k].Value {
				w.args[k].Value, w.args[k].Source = v, w.args[k].Source+" "+xargsInput
			}
		}
	} else {
		w.args = append(w.args, Word{Value: Hole, Source: xargsInput})
		w.from = append(w.from, 0)
	}
	return r
}

// xargsInput is the Source of the Hole xargs appends for the words it
// reads (its ending, with -I); xargsPaths replaces it when that input is
// paths a lister printed (see listsPaths).
const (
	xargsInput = "(xargs input)"
	xargsPaths = "(paths xargs reads)"
)

// unwrapFind returns the commands of find's -exec actions. A word only
// known at run time could itself be -exec: it runs what follows up to a
// ";" or "+", or words xargs appends could hold the whole action; the
// value of a test such as -name is one word and runs nothing.
func unwrapFind(args []Word) wrapResult {
	unknown := false
	for i, w := range args[1:] {
		if !strings.HasPrefix(w.Value, Hole) || findexpr.Values(args[i].Value) > 0 {
			continue
		}
		if w.Source == xargsInput || w.Source == xargsPaths || slices.ContainsFunc(args[i+2:], func(x Word) bool { return x.Value == ";" || x.Value == "+" }) {
			unknown = true
		}
	}
	return wrapResult{cmds: findExec(args), unknown: unknown}
}

// foundBelow returns the prefix of the paths find (words, static) gives an
// -exec or -ok command for "{}": its one start path and a "/" ("./" for
// none), when the paths it finds lie there, reached through no link: no
// -L, -H or -follow, one start path, known now ("" otherwise). A path
// find gives is that start path itself or one below it, with no ".."
// (GNU find(1)); the word made of it is a FoundWord.
func foundBelow(words []string) string {
	i := 1
	for i < len(words) {
		switch w := words[i]; {
		case w == "-H" || w == "-L":
			return ""
		case w == "-P" || strings.HasPrefix(w, "-O"):
			i++
			continue
		case w == "-D":
			i += 2
			continue
		}
		break
	}
	var starts []string
	for ; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") || w == "(" || w == "!" || w == "," || w == ")" {
			break
		}
		starts = append(starts, w)
	}
	if slices.Contains(words[i:], "-follow") || slices.Contains(words[i:], "-files0-from") || len(starts) > 1 {
		return ""
	}
	if len(starts) == 0 {
		return "./"
	}
	s := starts[0]
	if s == "" || strings.Contains(s, Hole) || strings.Contains(s, "..") {
		return ""
	}
	return strings.TrimRight(s, "/") + "/"
}

// FoundWord reports whether w is a path find gives an -exec or -ok
// command ("{}" as written, quoted or not): its start path and below, through no link
// (see foundBelow). The find segment itself answers for which protected
// paths such a command reaches (rules: an altering walk, its names).
func FoundWord(w Word) bool {
	switch w.Source {
	case "{}", "'{}'", `"{}"`, `\{\}`, `\{}`:
		// (Quoted, as many write it: find sees "{}" all the same.)
		return strings.HasSuffix(w.Value, "/"+Hole)
	}
	return false
}

// ListedWord reports whether w is a path a lister printed that xargs gives
// its command (see analyzer.listedDir): its value is the lister's start
// directory, a Hole for what lies below, and the names' suffix.
func ListedWord(w Word) bool {
	return strings.HasSuffix(w.Source, xargsPaths) && strings.Contains(w.Value, Hole)
}

// findExec returns the commands of find's -exec, -execdir, -ok and -okdir
// actions, each ended by ";" or by "+" right after "{}" (findexpr.ExecEnd:
// attack run 78's `-exec true + -name zzz {} \;` ran `true + -name zzz
// PATH`); "{}" stands for a found path (a Hole).
func findExec(args []Word) []wrapped {
	var out []wrapped
	var words []string // the values of args, for findexpr
	for i := 1; i < len(args); i++ {
		switch args[i].Value {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		via := "find " + args[i].Value
		if words == nil {
			words = make([]string, len(args))
			for k, w := range args {
				words[k] = w.Value
			}
		}
		j := findexpr.ExecEnd(words, i+1)
		if j > i+1 {
			inner := append([]Word(nil), args[i+1:j]...)
			from := make([]int, len(inner))
			below := ""
			if args[i].Value == "-exec" || args[i].Value == "-ok" {
				below = foundBelow(words)
			}
			for k := range inner {
				if inner[k].Value == "{}" && below != "" {
					// A path find found: its one start path, or below
					// it, reached through no link (FoundWord).
					inner[k].Value = below + Hole
				} else {
					inner[k].Value = strings.ReplaceAll(inner[k].Value, "{}", Hole)
				}
				from[k] = i + 1 + k
			}
			out = append(out, wrapped{via: via, args: inner, from: from})
		}
		i = j
	}
	return out
}
