package interp

import "strings"

// sshSpec is OpenSSH 9's ssh(1) option string (no long options).
var sshSpec = optSpec{short: "1246ab:c:e:fgi:kl:m:no:p:qstvxAB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy"}

// unwrapSSH handles ssh [OPTION]... DESTINATION [COMMAND [ARG]...]. The
// remote command's words are joined by spaces and run by the remote
// user's shell: shell code, analysed as such so that deny rules see it
// (the ssh segment itself stays a segment of its own, not in the read-only
// table). Options may also follow DESTINATION. -o ProxyCommand,
// LocalCommand and KnownHostsCommand run local shell code, RemoteCommand
// remote code; -F names a config file that may hold any of them (unknown);
// -N, -W, -O, -Q, -G and -s run no shell command. With no command, the
// remote shell reads ssh's standard input.
func unwrapSSH(args []Word) (r wrapResult) {
	opts, i, ok := getopt(args, 1, &sshSpec)
	dest := ok && i < len(args)
	if ok && i < len(args) && args[i-1].Value != "--" {
		if !oneWord(args[i]) {
			r.unknown = true
			return r
		}
		var more []option
		more, i, ok = getopt(args, i+1, &sshSpec)
		opts = append(opts, more...)
	} else if ok && i < len(args) {
		i++ // DESTINATION after "--"
	}
	if !ok {
		r.unknown = true
		return r
	}
	noCmd := false
	for _, o := range opts {
		switch o.name {
		case "-F":
			r.unknown = true
		case "-N", "-W", "-O", "-Q", "-G", "-s", "-V":
			noCmd = true
		case "-o":
			key, val, found := strings.Cut(o.value, "=")
			if !found {
				key, val, _ = strings.Cut(strings.TrimLeft(o.value, " \t"), " ")
			}
			switch strings.ToLower(strings.TrimSpace(key)) {
			case "proxycommand", "localcommand", "knownhostscommand":
				r.shellCode(strings.TrimSpace(val), "ssh -o "+strings.TrimSpace(key), o.at, false)
			case "remotecommand":
				r.shellCode(strings.TrimSpace(val), "ssh (remote)", o.at, false)
				noCmd = true
			}
		}
	}
	if noCmd {
		return r
	}
	if i >= len(args) {
		// With no destination ssh only prints its usage (or it is
		// the transport of git or rsync, which give it one).
		r.stdin = dest && !r.unknown
		return r
	}
	r.shellCode(joinValues(args[i:]), "ssh (remote)", i, false)
	return r
}

// dockerGlobal is the grammar of the docker CLI before its subcommand
// (docker 28; podman's differs and unknown options fail closed).
var dockerGlobal = optSpec{short: "c:DH:l:v", long: long("config:", "context:", "debug", "host:", "log-level:",
	"tls", "tlscacert:", "tlscert:", "tlskey:", "tlsverify", "version", "help")}

var dockerExec = optSpec{short: "de:itu:w:", long: long("detach", "detach-keys:", "env:", "env-file:", "interactive",
	"privileged", "tty", "user:", "workdir:", "help")}

// dockerRun is `docker run --help` of docker 28: bool flags first.
var dockerRun = optSpec{short: "a:c:de:h:il:m:p:Pqtu:v:w:", long: long(
	"detach", "disable-content-trust", "help", "init", "interactive", "no-healthcheck", "oom-kill-disable",
	"privileged", "publish-all", "quiet", "read-only", "rm", "sig-proxy", "tty", "use-api-socket",
	"add-host:", "annotation:", "attach:", "blkio-weight:", "blkio-weight-device:", "cap-add:", "cap-drop:",
	"cgroup-parent:", "cgroupns:", "cidfile:", "cpu-count:", "cpu-percent:", "cpu-period:", "cpu-quota:",
	"cpu-rt-period:", "cpu-rt-runtime:", "cpu-shares:", "cpus:", "cpuset-cpus:", "cpuset-mems:", "detach-keys:",
	"device:", "device-cgroup-rule:", "device-read-bps:", "device-read-iops:", "device-write-bps:",
	"device-write-iops:", "dns:", "dns-option:", "dns-search:", "domainname:", "entrypoint:", "env:", "env-file:",
	"expose:", "gpus:", "group-add:", "health-cmd:", "health-interval:", "health-retries:",
	"health-start-interval:", "health-start-period:", "health-timeout:", "hostname:", "io-maxbandwidth:",
	"io-maxiops:", "ip:", "ip6:", "ipc:", "isolation:", "kernel-memory:", "label:", "label-file:", "link:",
	"link-local-ip:", "log-driver:", "log-opt:", "mac-address:", "memory:", "memory-reservation:", "memory-swap:",
	"memory-swappiness:", "mount:", "name:", "network:", "network-alias:", "oom-score-adj:", "pid:", "pids-limit:",
	"platform:", "publish:", "pull:", "restart:", "runtime:", "security-opt:", "shm-size:", "stop-signal:",
	"stop-timeout:", "storage-opt:", "sysctl:", "tmpfs:", "ulimit:", "user:", "userns:", "uts:", "volume:",
	"volume-driver:", "volumes-from:", "workdir:")}

// unwrapDocker handles docker|podman [GLOBAL] exec [OPTION]... CONTAINER
// COMMAND [ARG]... and docker|podman [GLOBAL] run|create [OPTION]... IMAGE
// [COMMAND [ARG]...] (also as "container exec|run|create"): the command
// runs in the container, and is unwrapped so that deny rules see it. A
// --entrypoint is the command's program (its arguments follow); a
// --health-cmd is shell code run in the container. A bool flag written
// as --rm=false is not modelled (unknown).
func unwrapDocker(base string, args []Word) (r wrapResult) {
	_, i, ok := getopt(args, 1, &dockerGlobal)
	if !ok {
		r.unknown = true
		return r
	}
	if i < len(args) && args[i].Value == "container" {
		i++
	}
	if i >= len(args) {
		return r
	}
	sub := args[i].Value
	var spec *optSpec
	switch sub {
	case "exec":
		spec = &dockerExec
	case "run", "create":
		spec = &dockerRun
	default:
		if args[i].Dynamic() {
			r.unknown = true
		}
		return r
	}
	opts, j, ok := getopt(args, i+1, spec)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "--help") || j >= len(args) {
		return r
	}
	if !oneWord(args[j]) {
		r.unknown = true
		return r
	}
	j++ // CONTAINER or IMAGE
	via := base + " " + sub
	for _, o := range opts {
		switch o.name {
		case "--health-cmd":
			r.shellCode(o.value, via+" --health-cmd", o.at, true)
		case "--entrypoint":
			if o.value == "" {
				continue
			}
			ep := Word{Value: o.value, Source: args[o.at].Source}
			inner := append([]Word{ep}, args[j:]...)
			from := []int{o.at}
			for k := j; k < len(args); k++ {
				from = append(from, k)
			}
			r.cmds = append(r.cmds, wrapped{via: via, args: inner, from: from})
			return r
		}
	}
	if j < len(args) && !oneWord(args[j]) {
		r.unknown = true
		return r
	}
	r.cmd(via, args, j, nil)
	return r
}

// unwrapKubectl handles kubectl exec|run|debug … -- COMMAND [ARG]...: the
// command after "--" runs in the pod. exec without "--" (the deprecated
// form kubectl exec POD COMMAND) is not modelled (unknown).
func unwrapKubectl(base string, args []Word) (r wrapResult) {
	sub := ""
	dash := -1
	for k := 1; k < len(args); k++ {
		v := args[k].Value
		if v == "--" {
			dash = k
			break
		}
		if sub == "" {
			switch v {
			case "exec", "run", "debug", "attach":
				sub = v
			}
		}
	}
	switch {
	case sub == "":
		return r
	case dash < 0:
		if sub == "exec" {
			r.unknown = true
		}
		return r
	}
	for k := 1; k < dash; k++ {
		if !oneWord(args[k]) {
			r.unknown = true
			return r
		}
	}
	if dash+1 < len(args) && !oneWord(args[dash+1]) {
		r.unknown = true
		return r
	}
	r.cmd(base+" "+sub, args, dash+1, nil)
	return r
}

// tmux's commands that run a shell command, each with its option string
// (tmux 3.4), and those that type keys into a pane.
var tmuxCommands = map[string]optSpec{
	"new-session": {short: "Ac:dDe:EF:f:n:Ps:t:x:Xy:"}, "new": {short: "Ac:dDe:EF:f:n:Ps:t:x:Xy:"},
	"new-window": {short: "abc:de:F:kn:PSt:"}, "neww": {short: "abc:de:F:kn:PSt:"},
	"split-window": {short: "bc:de:fF:hIl:p:Pt:vZ"}, "splitw": {short: "bc:de:fF:hIl:p:Pt:vZ"},
	"respawn-pane": {short: "c:e:kt:"}, "respawnp": {short: "c:e:kt:"},
	"respawn-window": {short: "c:e:kt:"}, "respawnw": {short: "c:e:kt:"},
	"run-shell": {short: "bd:Ct:c:"}, "run": {short: "bd:Ct:c:"},
	"display-popup": {short: "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:"}, "popup": {short: "Bb:Cc:d:e:Eh:s:S:t:T:w:x:y:"},
	"pipe-pane": {short: "IOot:"}, "pipep": {short: "IOot:"},
}

// unwrapTmux handles tmux [GLOBAL] COMMAND [ARG]... [; COMMAND …]: the
// shell command of new-session, new-window, split-window, respawn-*,
// run-shell, display-popup and pipe-pane is run by "sh -c" (tmux's
// default-shell; several words are run as they are); send-keys types text
// into a pane, usually a shell, which no analysis can follow: the segment
// gets RunsCode, and the text typed is analysed as shell code too (Enter,
// C-m and KPEnter as newlines, Space as a space). if-shell, other
// commands that take a command, and -c SHELL-COMMAND before the command
// are unknown.
func unwrapTmux(args []Word) (r wrapResult) {
	global := optSpec{short: "2c:CDf:lL:NS:T:uvV"}
	opts, i, ok := getopt(args, 1, &global)
	if !ok {
		r.unknown = true
		return r
	}
	if has(opts, "-c") {
		for _, o := range opts {
			if o.name == "-c" {
				r.shellCode(o.value, "tmux -c", o.at, false)
			}
		}
	}
	for i < len(args) {
		end := i
		for end < len(args) && args[end].Value != ";" && !strings.HasSuffix(args[end].Value, `\;`) {
			end++
		}
		r.tmuxCommand(args[:end], i)
		i = end + 1
	}
	return r
}

func (r *wrapResult) tmuxCommand(args []Word, i int) {
	if i >= len(args) {
		return
	}
	if !oneWord(args[i]) || args[i].Dynamic() {
		r.unknown = true
		return
	}
	name := args[i].Value
	switch name {
	case "send-keys", "send":
		r.unknown = true
		opts, j, ok := getopt(args, i+1, &optSpec{short: "FHc:KlMN:RXt:"})
		if !ok || has(opts, "-X", "-H", "-K") {
			return
		}
		var b strings.Builder
		for _, w := range args[j:] {
			switch w.Value {
			case "Enter", "C-m", "KPEnter", "C-j":
				b.WriteByte('\n')
			case "Space":
				b.WriteByte(' ')
			default:
				if has(opts, "-l") || len(w.Value) > 1 && !isKeyName(w.Value) {
					b.WriteString(w.Value)
				} else if len(w.Value) == 1 {
					b.WriteString(w.Value)
				}
			}
		}
		if t := strings.TrimSpace(b.String()); t != "" {
			r.shellCode(b.String(), "tmux send-keys", i, false)
		}
		return
	case "if-shell", "if", "bind-key", "bind", "confirm-before", "confirm", "command-prompt",
		"display-menu", "menu", "set-hook", "source-file", "source", "set-option", "set", "set-environment", "setenv":
		r.unknown = true
		return
	}
	spec, ok := tmuxCommands[name]
	if !ok {
		return
	}
	_, j, ok := getopt(args, i+1, &spec)
	if !ok {
		r.unknown = true
		return
	}
	if j >= len(args) {
		return // the default shell, interactive in a pane
	}
	if j+1 == len(args) {
		r.shellCode(args[j].Value, "tmux "+name, j, true)
		return
	}
	if !oneWord(args[j]) {
		r.unknown = true
		return
	}
	r.cmd("tmux "+name, args, j, nil)
}

// isKeyName reports a tmux key name such as C-c, M-x, Escape or F1: typed
// as a key, not as text.
func isKeyName(v string) bool {
	if len(v) > 2 && (v[1] == '-') && strings.ContainsRune("CMS", rune(v[0])) {
		return true
	}
	switch v {
	case "Escape", "Tab", "BTab", "BSpace", "Up", "Down", "Left", "Right", "Home", "End", "NPage", "PPage",
		"PageUp", "PageDown", "IC", "DC", "Insert", "Delete":
		return true
	}
	return len(v) >= 2 && v[0] == 'F' && allDigits(v[1:])
}

// unwrapParallel handles GNU parallel [OPTION]... COMMAND… [::: ARG…]: the
// command template is run by a shell with each input (from ":::", "::::"
// or the standard input) in place of its replacement strings ({}, {.},
// {/}, {1}, …) or appended. It is analysed as shell code with every
// input a run-time word; since parallel quotes its inputs its own way,
// and its options are many, the segment also gets RunsCode.
func unwrapParallel(args []Word) (r wrapResult) {
	r.unknown = true
	spec := optSpec{short: "0a:AC:d:E:eI:j:kL:l::m:n:N:P:qrS:s:tuvX", long: long("null", "arg-file:", "colsep:",
		"delimiter:", "eof::", "jobs:", "keep-order", "max-lines::", "max-args:", "max-procs:", "quote",
		"no-run-if-empty", "sshlogin:", "max-chars:", "verbose", "ungroup", "xargs", "halt:", "halt-on-error:",
		"joblog:", "results:", "tmpdir:", "timeout:", "eta", "bar", "progress", "dry-run", "tag", "line-buffer",
		"group", "will-cite", "pipe", "block:", "retries:", "delay:", "shuf", "env:", "replace::", "group-by:",
		"tagstring:", "linebuffer", "no-notice", "bibtex", "plus", "lb"), abbrev: true}
	_, i, ok := getopt(args, 1, &spec)
	if !ok || i >= len(args) {
		return r
	}
	end := i
	for end < len(args) && !strings.HasPrefix(args[end].Value, "::::") && args[end].Value != ":::" &&
		args[end].Value != ":::+" {
		end++
	}
	if end == i {
		return r
	}
	text := joinValues(args[i:end])
	var b strings.Builder
	replaced := false
	for k := 0; k < len(text); k++ {
		if text[k] == '{' {
			if e := strings.IndexByte(text[k:], '}'); e > 0 && e <= 8 && isReplacement(text[k+1:k+e]) {
				b.WriteString("${PARALLEL_ARG}")
				k += e
				replaced = true
				continue
			}
		}
		b.WriteByte(text[k])
	}
	if !replaced {
		b.WriteString(" ${PARALLEL_ARG}")
	}
	r.shellCode(b.String(), "parallel", i, false)
	return r
}

func isReplacement(s string) bool {
	switch s {
	case "", ".", "/", "//", "/.", "#", "%":
		return true
	}
	for len(s) > 0 && (isDigit(s[0]) || s[0] == '.' || s[0] == '/') {
		s = s[1:]
	}
	return s == ""
}
