package interp

import "strings"

// gitGlobal is git's grammar before the subcommand (git 2.4x).
var gitGlobal = optSpec{short: "C:c:hpPv", long: long("exec-path::", "html-path", "man-path", "info-path",
	"paginate", "no-pager", "no-replace-objects", "no-lazy-fetch", "no-optional-locks", "no-advice", "bare",
	"git-dir:", "work-tree:", "namespace:", "config-env:", "super-prefix:", "literal-pathspecs",
	"glob-pathspecs", "noglob-pathspecs", "icase-pathspecs", "list-cmds:", "attr-source:", "help", "version")}

// gitCodeKeys are config keys (lower case, "*" one subsection) whose value
// is a command git runs through the shell (git-config(1)).
var gitCodeKeys = []string{
	"core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.askpass", "core.gitproxy",
	"sequence.editor", "pager.*", "diff.external", "diff.*.command", "diff.*.textconv", "merge.*.driver",
	"filter.*.clean", "filter.*.smudge", "filter.*.process", "credential.helper", "credential.*.helper",
	"gpg.program", "gpg.*.program", "interactive.difffilter", "mergetool.*.cmd", "difftool.*.cmd",
	"sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd", "imap.tunnel",
	"web.browser", "browser.*.cmd", "man.*.cmd", "uploadpack.packobjectshook", "remote.*.uploadpack",
	"remote.*.receivepack", "remote.*.vcs", "ssh.variant", "uploadarchive.*", "core.hookspath", "hook.*.command",
}

// gitOpaqueKeys make git run code from a place the analysis cannot read:
// hooks from another directory, config from another file.
var gitOpaqueKeys = []string{"core.hookspath", "include.path", "includeif.*.path", "core.worktree", "init.templatedir"}

func keyMatches(key string, pats []string) bool {
	for _, p := range pats {
		if p == key {
			return true
		}
		pre, post, ok := strings.Cut(p, "*")
		if ok && strings.HasPrefix(key, pre) && strings.HasSuffix(key, post) && len(key) > len(pre)+len(post) {
			return true
		}
	}
	return false
}

// unwrapGit handles the code git runs from its -c options: an alias
// whose value starts with "!" (run by "sh -c", the alias's arguments
// appended as "$@") when the subcommand is that alias, and an alias
// without "!" as the git command it expands to; a key whose value is a
// command (core.pager, core.sshCommand, …, see gitCodeKeys) as shell
// code; keys that point git at code elsewhere (core.hooksPath,
// include.path) and --config-env (a value from the environment) as
// unknown.
func unwrapGit(args []Word) (r wrapResult) {
	// git runs what its options name from the top of its work tree (a
	// `!` alias sees GIT_PREFIX: attack run 79's `cd src && git -c
	// alias.x='!echo … >> ../.bashrc' x`): where that is, no one knows.
	defer func() {
		for k := range r.code {
			r.code[k].elsewhere = true
		}
	}()
	opts, i, ok := getopt(args, 1, &gitGlobal)
	if !ok {
		r.unknown = true
		return r
	}
	aliases := map[string]option{}
	for _, o := range opts {
		switch o.name {
		case "--config-env", "--exec-path":
			if o.name == "--exec-path" && !o.hasValue {
				continue
			}
			r.unknown = true
		case "-c":
			k, v, _ := strings.Cut(o.value, "=")
			k = strings.ToLower(k)
			switch {
			case strings.Contains(k, Hole):
				r.unknown = true
			case strings.HasPrefix(k, "alias."):
				aliases[strings.TrimPrefix(k, "alias.")] = option{name: k, value: v, at: o.at}
			case keyMatches(k, gitOpaqueKeys):
				r.unknown = true
			case keyMatches(k, gitCodeKeys):
				if k == "core.fsmonitor" && isGitBool(v) {
					continue
				}
				v = strings.TrimPrefix(v, "!")
				r.shellCode(v, "git -c "+k, o.at, true)
			}
		}
	}
	if i >= len(args) {
		return r
	}
	sub := args[i]
	if sub.Dynamic() {
		if len(aliases) > 0 {
			r.unknown = true
		}
		return r
	}
	r.gitSubcommandCode(sub.Value, args, i)
	// Follow the chain of aliases: each expands to words with
	// shell-like quoting, the first of which may be another alias.
	name := sub.Value
	at := i
	var words []Word // the expansion so far, then the arguments
	seen := map[string]bool{}
	via := ""
	for {
		a, ok := aliases[strings.ToLower(name)]
		if !ok {
			break
		}
		if seen[strings.ToLower(name)] {
			return r // git refuses an alias loop
		}
		seen[strings.ToLower(name)] = true
		if via == "" {
			via = "git alias " + name
		}
		at = a.at
		if v, isCode := strings.CutPrefix(a.value, "!"); isCode {
			if len(words) > 1 || i+1 < len(args) {
				v += ` "$@"`
			}
			for _, w := range args[i+1:] {
				if !oneWord(w) {
					r.unknown = true
				}
			}
			r.shellCode(v, via, a.at, true)
			return r
		}
		split, ok := splitEnvString(a.value)
		if !ok || len(split) == 0 {
			r.unknown = true
			return r
		}
		ws := make([]Word, len(split))
		for k, w := range split {
			ws[k] = Word{Value: w, Source: args[a.at].Source}
		}
		if len(words) > 0 {
			words = words[1:]
		}
		words = append(ws, words...)
		name = split[0]
	}
	if via == "" {
		return r
	}
	// git, its global options (the alias definitions only when the
	// expansion starts with an option, which git reads as a global one
	// and after which another alias may follow), the expansion, the
	// arguments.
	inner := []Word{args[0]}
	from := []int{0}
	keepAliases := strings.HasPrefix(words[0].Value, "-")
	for _, o := range opts {
		if o.name == "-c" && strings.HasPrefix(strings.ToLower(o.value), "alias.") && !keepAliases {
			continue
		}
		for k := o.word; k <= o.at; k++ {
			if k == o.word && k > 0 && len(inner) > 0 && from[len(from)-1] == k {
				continue // a cluster already copied
			}
			inner = append(inner, args[k])
			from = append(from, k)
		}
	}
	for _, w := range words {
		inner = append(inner, w)
		from = append(from, at)
	}
	for k := i + 1; k < len(args); k++ {
		inner = append(inner, args[k])
		from = append(from, k)
	}
	r.cmds = append(r.cmds, wrapped{via: via, args: inner, from: from})
	return r
}

// gitProgramOptions are the options of git subcommands whose value is a
// command git runs through the shell: the program run on the other side
// of a local or ssh transport (git-fetch(1), git-clone(1), git-ls-remote(1),
// git-pull(1): --upload-pack; git-push(1), git-send-pack(1): --receive-pack,
// --exec; git-archive(1): --exec), and git-grep(1)'s pager (-O,
// --open-files-in-pager). Attack run 78 wrote ~/.bashrc through
// `git fetch --upload-pack="…; git-upload-pack" .` and `git grep -O…`.
var gitProgramOptions = map[string][]string{
	"fetch": {"--upload-pack"}, "clone": {"--upload-pack", "-u"}, "ls-remote": {"--upload-pack", "-u"},
	"pull": {"--upload-pack"}, "push": {"--receive-pack", "--exec"}, "send-pack": {"--receive-pack", "--exec"},
	"archive": {"--exec"}, "grep": {"-O", "--open-files-in-pager"},
	// git-rebase(1) --exec, git-difftool(1) --extcmd, git-send-email(1)'s
	// commands (attack run 81).
	"rebase": {"--exec", "-x"}, "difftool": {"--extcmd", "-x"},
	"send-email": {"--to-cmd", "--cc-cmd", "--header-cmd", "--sendmail-cmd"},
}

// gitOpaqueSubcommands run code the analysis does not follow: a template
// directory's hooks (init, clone --template), filters (filter-branch), a
// command bisect or submodule foreach runs per step.
var gitOpaqueSubcommands = map[string]func(args []Word) bool{
	"init":          func(args []Word) bool { return hasPrefixWord(args, "--template") },
	"clone":         func(args []Word) bool { return hasPrefixWord(args, "--template") },
	"filter-branch": func([]Word) bool { return true },
	"filter-repo":   func([]Word) bool { return true },
	"bisect":        func(args []Word) bool { return len(args) > 0 && args[0].Value == "run" },
	"submodule": func(args []Word) bool {
		return len(args) > 0 && (args[0].Value == "foreach" || strings.Contains(args[0].Value, Hole))
	},
}

// hasPrefixWord reports a word of args that is opt or starts with opt and
// "=".
func hasPrefixWord(args []Word, opt string) bool {
	for _, w := range args {
		if w.Value == opt || strings.HasPrefix(w.Value, opt+"=") || strings.Contains(w.Value, Hole) {
			return true
		}
	}
	return false
}

// gitSubcommandCode adds the commands the options of subcommand sub
// (args[at]) name (see gitProgramOptions) as shell code: a long option's
// value after "=" or as the next word (abbreviated as git's parser takes
// it: any prefix, "--u=" included), a short one's glued (in a cluster:
// `-qu CMD`, `-iOcmd`) or the next word (grep's -O takes only a glued
// one: with none it opens the pager); and the command of an ext::
// transport URL (git-remote-ext(1): "% " a space), which git runs when
// protocol.ext.allow lets it (attack run 79).
func (r *wrapResult) gitSubcommandCode(sub string, args []Word, at int) {
	if opaque := gitOpaqueSubcommands[sub]; opaque != nil && opaque(args[at+1:]) {
		r.unknown = true
		if sub == "submodule" && args[at+1].Value == "foreach" {
			// Its command is shell code, run in each submodule.
			k := at + 2
			for k < len(args) && strings.HasPrefix(args[k].Value, "-") {
				k++
			}
			if k < len(args) {
				var code []string
				for _, w := range args[k:] {
					code = append(code, w.Value)
				}
				r.shellCode(strings.Join(code, " "), "git submodule foreach", k, true)
				r.unknown = false
			}
		}
	}
	opts := gitProgramOptions[sub]
	for k := at + 1; k < len(args); k++ {
		w := args[k].Value
		if cmd, ok := strings.CutPrefix(w, "ext::"); ok {
			r.shellCode(strings.ReplaceAll(cmd, "% ", " "), "git "+sub+" ext::", k, true)
			continue
		}
		if w == "--" {
			return
		}
		for _, o := range opts {
			via := "git " + sub + " " + o
			name, val, glued := strings.Cut(w, "=")
			if strings.HasPrefix(o, "--") {
				if len(name) >= 3 && strings.HasPrefix(o, name) {
					if glued {
						r.shellCode(val, via, k, true)
					} else if sub != "grep" && k+1 < len(args) {
						r.shellCode(args[k+1].Value, via, k+1, true)
					}
				}
				continue
			}
			if !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "--") {
				continue
			}
			if i := strings.IndexByte(w[1:], o[1]); i >= 0 {
				if v := w[i+2:]; v != "" {
					r.shellCode(v, via, k, true)
				} else if sub != "grep" && k+1 < len(args) {
					r.shellCode(args[k+1].Value, via, k+1, true)
				}
			}
		}
	}
}

func isGitBool(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// execOptions are, per program, the long options whose argument is a
// command the program runs through the shell (or splits into words, a
// subset of what the shell does): tar(1) --to-command, --use-compress-program
// (-I), --rsh-command, --info-script and --new-volume-script (-F),
// --checkpoint-action=exec=CMD; sort(1) --compress-program; man(1) --pager
// (-P); rsync(1) --rsh (-e); zip(1) --unzip-command (-TT); install(1)
// --strip-program; split(1) --filter. A long option may be abbreviated.
var execOptions = map[string]struct {
	long  []string
	short map[string]string // short option -> its long form
}{
	"tar": {long: []string{"to-command", "use-compress-program", "rsh-command", "info-script", "new-volume-script",
		"checkpoint-action"}, short: map[string]string{"-I": "use-compress-program", "-F": "info-script"}},
	"sort":  {long: []string{"compress-program"}},
	"man":   {long: []string{"pager"}, short: map[string]string{"-P": "pager"}},
	"rsync": {long: []string{"rsh"}, short: map[string]string{"-e": "rsh"}},
	"zip":   {long: []string{"unzip-command"}, short: map[string]string{"-TT": "unzip-command"}},
	// install -s runs its --strip-program (attack run 79).
	"install": {long: []string{"strip-program"}},
	// split --filter=CMD runs CMD for each chunk, its name in $FILE
	// (attack run 83 appended to ~/.bashrc so).
	"split": {long: []string{"filter"}},
}

// unwrapExecOption finds the commands of execOptions in args, as shell
// code. It does not parse the program's whole grammar: a short option is
// only recognised as its own word (-I CMD, -ICMD), so a cluster such as
// tar -xIzstd is missed here (package rules still treats such a segment
// as running code).
func unwrapExecOption(base string, args []Word) (r wrapResult) {
	spec := execOptions[base]
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if v == "--" {
			break
		}
		name, val, hasVal := "", "", false
		at := i
		switch {
		case strings.HasPrefix(v, "--"):
			n, vv, h := strings.Cut(v[2:], "=")
			if n == "" {
				continue
			}
			// Any prefix: getopt_long takes an unambiguous one, and an
			// ambiguous one it refuses (attack run 83: split --f=CMD).
			for _, l := range spec.long {
				if strings.HasPrefix(l, n) {
					name, val, hasVal = l, vv, h
					break
				}
			}
		default:
			for s, l := range spec.short {
				if strings.HasPrefix(v, s) {
					name = l
					if len(v) > len(s) {
						val, hasVal = v[len(s):], true
					}
				}
			}
		}
		if name == "" {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				continue
			}
			i++
			at, val = i, args[i].Value
		}
		if name == "checkpoint-action" {
			cmd, ok := strings.CutPrefix(val, "exec=")
			if !ok {
				continue
			}
			val = cmd
		}
		r.shellCode(val, base+" --"+name, at, true)
	}
	return r
}
