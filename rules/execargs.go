package rules

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// runsArgument reports a program that runs code given in its arguments,
// code no rule sees in full: an interpreter with inline code (python -c,
// node -e, perl -e, ruby -e, php -r, lua -e, deno eval, bun -e, vim -c),
// awk whose program calls system(), pipes or redirects output, sed with
// its e command, s///e or w, and options that name a command (tar
// --to-command, --checkpoint-action=exec, -I, --use-compress-program; sort
// --compress-program; man -P, -H; rsync -e, --rsync-path; zip -TT; git -c
// with a key whose value is a command or an alias starting with "!") or a
// file to write (find -fprint, -fprintf, -fls). It returns the index of
// the word that does it and the literal start an allow rule must spell out
// to count as written for it ("python3 -c"); at is -1 when there is none.
//
// Such a segment is sensitive, and an allow rule that does not name the
// option (python3 * for python3 -c …) does not allow it. Package interp
// analyses the shell commands among these (git aliases, tar
// --to-command, …) as segments of their own, which deny rules see.
func runsArgument(words []string) (at int, key, why string) {
	if len(words) == 0 {
		return -1, "", ""
	}
	name := words[0]
	prefix := func(i int, k string) string {
		return strings.Join(append(append([]string(nil), words[:i]...), k), " ")
	}
	hit := func(i int, k, what string) (int, string, string) {
		return i, prefix(i, k), fmt.Sprintf("%s %s", name, what)
	}
	switch {
	case isPython(name):
		return clusterRuns(words, interp{code: "c", withArg: "WX", stop: "m"}, hit)
	case name == "node" || name == "nodejs" || name == "bun":
		for i, w := range words[1:] {
			opt, _, _ := strings.Cut(w, "=")
			switch opt {
			case "-e", "--eval", "-p", "--print", "-pe", "-r", "--require", "--import", "--loader",
				"--experimental-loader":
				return hit(i+1, w, "runs inline code ("+opt+")")
			}
			if !strings.HasPrefix(w, "-") {
				break
			}
		}
	case interpreters()[name] != interp{}:
		return clusterRuns(words, interpreters()[name], hit)
	case name == "deno":
		if len(words) > 1 && (words[1] == "eval" || words[1] == "repl") {
			return hit(1, words[1], "runs inline code")
		}
	case name == "vim" || name == "vi" || name == "nvim" || name == "ex" || name == "view":
		for i, w := range words[1:] {
			if strings.HasPrefix(w, "-c") || w == "--cmd" || strings.HasPrefix(w, "+") || w == "-S" {
				return hit(i+1, w, "runs editor commands ("+w+")")
			}
		}
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "busybox awk":
		return awkRuns(words, hit)
	case name == "sed" || name == "gsed":
		return sedRuns(words, hit)
	case name == "find":
		for i, w := range words[1:] {
			switch w {
			case "-fprint", "-fprint0", "-fprintf", "-fls":
				return hit(i+1, w, "writes the file its "+w+" names")
			}
		}
	case name == "git" && gitVerifiesSignatures(words) >= 0:
		i := gitVerifiesSignatures(words)
		return hit(i, words[i], "verifies GPG signatures, which runs gpg (and writes ~/.gnupg)")
	case name == "git":
		return gitRuns(words, hit)
	default:
		if opts, ok := commandOptions[name]; ok {
			for i, w := range words[1:] {
				if w == "--" {
					break
				}
				if o := matchCommandOption(w, opts, name == "tar" && i == 0); o != "" {
					return hit(i+1, o, "runs the command its "+o+" option names")
				}
			}
		}
	}
	return -1, "", ""
}

// interp is the short-option grammar of an interpreter: the letters of
// inline code, those whose argument is the rest of the word or the next
// word, those whose optional argument can only be the rest of the word,
// those whose optional argument is the digits that follow (perl -l0, -0777),
// and those that end the options (python -m MODULE, php -f FILE).
type interp struct{ code, withArg, optArg, digits, stop string }

// interpreters are the grammars of perlrun(1), ruby(1), php(1), lua(1),
// luajit, Rscript(1) and osascript(1).
var interpreters = sync.OnceValue(func() map[string]interp {
	return map[string]interp{
		"perl":      {code: "eE", optArg: "IMmxCdDiF", digits: "l0"},
		"ruby":      {code: "e", withArg: "IrCEF", optArg: "xTWK", digits: "0"},
		"php":       {code: "rRBE", withArg: "cdzt", stop: "f"},
		"lua":       {code: "e", withArg: "l"},
		"luajit":    {code: "e", withArg: "lj", optArg: "O", stop: "b"},
		"Rscript":   {code: "e"},
		"osascript": {code: "e", withArg: "ls"},
	}
})

// clusterRuns scans the options before the first operand for a letter of
// inline code, in a cluster too (-ne, -Sc), as grammar g has them.
func clusterRuns(words []string, g interp, hit func(int, string, string) (int, string, string)) (int, string, string) {
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
			break
		}
		if strings.HasPrefix(w, "--") {
			continue
		}
	cluster:
		for j := 1; j < len(w); j++ {
			c := w[j]
			switch {
			case strings.IndexByte(g.code, c) >= 0:
				return hit(i, w, "runs inline code ("+w+")")
			case strings.IndexByte(g.stop, c) >= 0:
				return -1, "", ""
			case strings.IndexByte(g.withArg, c) >= 0:
				if j == len(w)-1 {
					i++ // the argument is the next word
				}
				break cluster
			case strings.IndexByte(g.optArg, c) >= 0:
				break cluster
			case strings.IndexByte(g.digits, c) >= 0:
				for j+1 < len(w) && w[j+1] >= '0' && w[j+1] <= '9' {
					j++
				}
			}
		}
	}
	return -1, "", ""
}

func isPython(name string) bool {
	if !strings.HasPrefix(name, "python") && name != "pypy" && name != "pypy3" {
		return false
	}
	rest := strings.TrimPrefix(name, "python")
	for _, c := range rest {
		if !(c >= '0' && c <= '9' || c == '.') {
			return name == "pypy" || name == "pypy3"
		}
	}
	return true
}

// commandOptions are the options that name a command the program runs
// (long ones match their abbreviations, as getopt_long accepts them);
// short ones are matched inside a cluster.
var commandOptions = map[string]struct {
	long  []string
	short string
}{
	"tar":   {long: []string{"--to-command", "--checkpoint-action", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script"}, short: "IF"},
	"sort":  {long: []string{"--compress-program"}},
	"man":   {long: []string{"--pager", "--html"}, short: "PH"},
	"rsync": {long: []string{"--rsh", "--rsync-path"}, short: "e"},
	"zip":   {long: []string{"--unzip-command"}},
	"split": {long: []string{"--filter"}},
}

func matchCommandOption(w string, opts struct {
	long  []string
	short string
}, tarOldStyle bool) string {
	if strings.HasPrefix(w, "--") {
		n, _, _ := strings.Cut(w, "=")
		if len(n) < 5 {
			return ""
		}
		for _, l := range opts.long {
			if strings.HasPrefix(l, n) {
				if l == "--checkpoint-action" && !strings.Contains(w, "exec") {
					return ""
				}
				return n
			}
		}
		return ""
	}
	if strings.HasPrefix(w, "-TT") && opts.long[0] == "--unzip-command" {
		return "-TT"
	}
	if (strings.HasPrefix(w, "-") || tarOldStyle) && len(w) > 1 && opts.short != "" {
		if i := strings.IndexAny(w[1:], opts.short); i >= 0 {
			return w
		}
	}
	return ""
}

// awkCode finds, in an awk program, what runs a command, writes a file or
// reads one the program names (getline < FILE, gawk's @include and @load):
// system(…), a pipe to or from a command (print | "cmd", "cmd" | getline,
// |&), and print or printf redirected with > or >>.
var awkCode = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`system\s*\(|\|\s*&|\|\s*"|\|\s*[A-Za-z_$(]|"\s*\|\s*getline|printf?\b[^;{}\n]*>|getline[^;{}\n]*<|@include|@load`)
})

// awkProgramRuns matches awkCode against an awk program, its logical
// "||" aside.
func awkProgramRuns(prog string) bool {
	return awkCode().MatchString(strings.ReplaceAll(prog, "||", "  "))
}

func awkRuns(words []string, hit func(int, string, string) (int, string, string)) (int, string, string) {
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			i++
			if i < len(words) && awkProgramRuns(words[i]) {
				return hit(i, words[i], "program runs a command or writes a file")
			}
			return -1, "", ""
		case w == "-f" || w == "--file" || strings.HasPrefix(w, "--file="):
			return -1, "", "" // a program file: not ours to read
		case w == "-e" || w == "--source":
			if i+1 < len(words) && awkProgramRuns(words[i+1]) {
				return hit(i+1, words[i+1], "program runs a command or writes a file")
			}
			i++
		case w == "-v" || w == "-F":
			i++
		case strings.HasPrefix(w, "-") && len(w) > 1:
		default:
			if awkProgramRuns(w) {
				return hit(i, w, "program runs a command or writes a file")
			}
			return -1, "", ""
		}
	}
	return -1, "", ""
}

func sedRuns(words []string, hit func(int, string, string) (int, string, string)) (int, string, string) {
	script := -1
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--sandbox":
			return -1, "", ""
		case w == "-e" || sedLong(w, "expression") && !strings.Contains(w, "="):
			if i+1 < len(words) && sedScriptRuns(words[i+1]) {
				return hit(i+1, words[i+1], "script runs a command, reads or writes a file (e, s///e, r, w)")
			}
			script = 0
			i++
		case sedLong(w, "expression"):
			if _, v, _ := strings.Cut(w, "="); sedScriptRuns(v) {
				return hit(i, w, "script runs a command, reads or writes a file (e, s///e, r, w)")
			}
			script = 0
		case w == "-f" || sedLong(w, "file") || (strings.HasPrefix(w, "--f") && !sedLong(w, "follow-symlinks")):
			// A script read from a file is not seen.
			return hit(i, w, "script is read from a file, which may run commands")
		case w == "-l" || (sedLong(w, "line-length") && !strings.Contains(w, "=")):
			i++ // --line-length N, or any abbreviation of it (--line N)
		case strings.HasPrefix(w, "-") && len(w) > 1 && !strings.HasPrefix(w, "--"):
			if in := strings.IndexByte(w, 'i'); in > 0 && (strings.IndexAny(w, "efl") < 0 || in < strings.IndexAny(w, "efl")) {
				// -i takes the rest of its cluster as its suffix: -iex
				// is -i with suffix "ex", not -i -e x (attack run 79's
				// `sed -iex '1e ln -s ~ d1' f` hid its script so).
				continue
			}
			if k := strings.IndexAny(w, "efl"); k > 0 && w[k] == 'f' {
				return hit(i, w, "script is read from a file, which may run commands")
			} else if k > 0 && w[k] == 'l' {
				if k == len(w)-1 {
					i++ // -l N
				}
			} else if k > 0 {
				script = 0
				if k == len(w)-1 {
					if w[k] == 'e' && i+1 < len(words) && sedScriptRuns(words[i+1]) {
						return hit(i+1, words[i+1], "script runs a command or writes a file (e, s///e, w)")
					}
					i++
				} else if w[k] == 'e' && sedScriptRuns(w[k+1:]) {
					return hit(i, w, "script runs a command or writes a file (e, s///e, w)")
				}
			}
		case strings.HasPrefix(w, "-") && len(w) > 1:
		default:
			if script < 0 {
				if sedScriptRuns(w) {
					return hit(i, w, "script runs a command or writes a file (e, s///e, w)")
				}
				script = i
			}
		}
	}
	return -1, "", ""
}

// sedScriptRuns reports whether a GNU sed script may run a command or
// read or write a file: the e command, the e or w flag of s, the r, R, w
// and W commands.
// It parses addresses, commands and s/y arguments; anything it does not
// understand counts as running.
func sedScriptRuns(s string) bool {
	i := 0
	n := len(s)
	skipDelim := func(d byte) bool { // past the next unescaped d
		for i < n {
			c := s[i]
			i++
			if c == '\\' {
				i++
				continue
			}
			if c == d {
				return true
			}
			if c == '\n' {
				return false
			}
		}
		return false
	}
	toEOL := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	for i < n {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!':
			i++
			continue
		case c == '#':
			toEOL()
			continue
		case c >= '0' && c <= '9' || c == '$' || c == ',' || c == '~' || c == '+':
			i++
			continue
		case c == '/':
			i++
			if !skipDelim('/') {
				return true
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case c == '\\':
			if i+1 >= n {
				return true
			}
			d := s[i+1]
			i += 2
			if !skipDelim(d) {
				return true
			}
			continue
		}
		i++ // the command letter
		switch c {
		case 'e', 'w', 'W':
			return true
		case 's', 'y':
			if i >= n {
				return true
			}
			d := s[i]
			i++
			if d == '\\' || d == '\n' || !skipDelim(d) || !skipDelim(d) {
				return true
			}
			if c == 'y' {
				continue
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'e', 'w', 'W':
					return true
				case 'g', 'p', 'i', 'I', 'm', 'M', ' ', '\t':
				default:
					if s[i] < '0' || s[i] > '9' {
						return true
					}
				}
				i++
			}
		case 'a', 'i', 'c':
			// The text runs to the end of the line, and on over
			// lines that end in a backslash.
			for {
				toEOL()
				if i < n && i > 0 && s[i-1] == '\\' {
					i++
					continue
				}
				break
			}
		case 'r', 'R':
			return true // reads a file the script names
		case 'b', 't', 'T', ':':
			// GNU sed ends a label at a blank as well as at ";" or a
			// newline: `:a e cmd` is a label and an e command.
			for i < n && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != ' ' && s[i] != '\t' {
				i++
			}
		case 'q', 'Q', 'l', 'L':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F':
		default:
			return true
		}
	}
	return false
}

// gitCodeKey reports a git config key (lower case) whose value is a
// command git runs, or that points git at code elsewhere (hooks, included
// config): git-config(1).
func gitCodeKey(k, v string) bool {
	switch k {
	case "core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.gitproxy", "core.hookspath",
		"sequence.editor", "diff.external", "credential.helper", "gpg.program", "interactive.difffilter",
		"sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd", "sendemail.headercmd", "imap.tunnel",
		"web.browser", "uploadpack.packobjectshook", "include.path", "init.templatedir", "core.worktree":
		return true
	case "core.fsmonitor":
		switch strings.ToLower(v) {
		case "", "true", "false", "yes", "no", "on", "off", "1", "0":
			return false
		}
		return true
	}
	if strings.HasPrefix(k, "alias.") {
		return strings.HasPrefix(v, "!")
	}
	for _, p := range []string{"pager.", "includeif.", "hook."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	for _, s := range []string{".command", ".textconv", ".driver", ".clean", ".smudge", ".process", ".helper",
		".program", ".cmd", ".uploadpack", ".receivepack", ".vcs", ".path"} {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

func gitRuns(words []string, hit func(int, string, string) (int, string, string)) (int, string, string) {
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-c" && i+1 < len(words):
			k, v, _ := strings.Cut(words[i+1], "=")
			if strings.Contains(k, Hole) || gitCodeKey(strings.ToLower(k), v) {
				return hit(i+1, k+"=", "-c "+k+" runs a command")
			}
			i++
		case strings.HasPrefix(w, "--config-env"):
			return hit(i, "--config-env", "--config-env sets config from the environment")
		case strings.HasPrefix(w, "--exec-path="):
			return hit(i, "--exec-path=", "--exec-path picks the programs git runs")
		case w == "-C" || w == "--git-dir" || w == "--work-tree" || w == "--namespace":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return -1, "", ""
		}
	}
	return -1, "", ""
}

// sedLong reports whether w is the long option --name or an abbreviation
// of it that getopt_long accepts (with or without "=value").
func sedLong(w, name string) bool {
	opt, ok := strings.CutPrefix(w, "--")
	if !ok {
		return false
	}
	opt, _, _ = strings.Cut(opt, "=")
	return opt != "" && strings.HasPrefix(name, opt)
}

// gitVerifiesSignatures returns the index of a word that makes git verify
// signatures (--show-signature, a %G placeholder of --format/--pretty), or
// -1.
func gitVerifiesSignatures(words []string) int {
	for i, w := range words[1:] {
		if w == "--show-signature" || strings.Contains(w, "%G") || strings.HasPrefix(w, "--show-sig") {
			return i + 1
		}
	}
	return -1
}
