package interp

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Each refused text below was checked against bash 5.2 (dash 0.5.12 for sh):
// with a canary in place of the command, bash runs a command the parser
// does not see, or would not see it where the parser sees it.
func TestAnalyzeRefusesDifferentReadings(t *testing.T) {
	const nl = "\\\n" // a line continuation
	cases := []struct{ name, src, want string }{
		// 1. A comment ends at the newline, backslash or not.
		{"a comment ending in a backslash", "echo hi #" + nl + "touch PWNED", "comment ending in a backslash"},
		{"a comment with text ending in a backslash", "ls # list " + nl + "touch PWNED", "comment ending in a backslash"},
		{"a comment after a semicolon", "ls;#x" + nl + "touch PWNED", "comment ending in a backslash"},
		{"a comment in a substitution", "echo $(true #" + nl + "touch PWNED\n)", "comment ending in a backslash"},
		{"a comment in a substitution in double quotes", "echo \"$(true #" + nl + "touch PWNED\n)\"", "comment ending in a backslash"},
		{"a comment in an eval payload", "eval $'ls #\\\\\\ntouch PWNED'", "comment ending in a backslash"},

		// 2. "$" then backslash-newline: bash joins them.
		{"dollar continuation in double quotes", "echo \"$" + nl + "(touch PWNED)\"", `"$" followed by a line continuation`},
		{"dollar continuation in an assignment", "x=\"$" + nl + "(touch PWNED)\"", `"$" followed by a line continuation`},
		{"dollar continuation makes $@", "$" + nl + "@touch PWNED", `"$" followed by a line continuation`},
		{"dollar continuation makes $'", "$" + nl + "'\\x74ouch' PWNED", `"$" followed by a line continuation`},
		{"dollar continuation makes ${", "echo \"$" + nl + "{x:-$(touch PWNED)}\"", `"$" followed by a line continuation`},
		{"dollar continuation in a heredoc body", "cat <<E\n$" + nl + "(touch PWNED)\nE\n", `"$" followed by a line continuation`},
		{"dollar continuations in a row", "echo \"$" + nl + nl + "(touch PWNED)\"", `"$" followed by a line continuation`},
		// … and so do other tokens: "((" is arithmetic, where bash
		// expands inside single quotes.
		{"a continuation inside ((", "(" + nl + "(echo '$(touch PWNED)'))", "joins into one token"},
		{"a continuation inside $((", "echo $(" + nl + "(echo '$(touch PWNED)'))", "joins into one token"},
		{"a continuation inside ${x:-", "echo \"${x:" + nl + "-'$(touch PWNED)'}\"", "read differently by bash"},
		{"a continuation inside 2>", "echo a 2" + nl + ">PWNED", "joins into one token"},

		// 3. Single quotes that bash reads as plain characters.
		{"default operand in double quotes", `echo "${x:-'$(touch PWNED)'}"`, "single quotes"},
		{"unset-default operand", `echo "${x-'$(touch PWNED)'}"`, "single quotes"},
		{"alternate operand", `x=1; echo "${x:+'$(touch PWNED)'}"`, "single quotes"},
		{"set-alternate operand", `x=1; echo "${x+'$(touch PWNED)'}"`, "single quotes"},
		{"assign-default operand", `echo "${x:='$(touch PWNED)'}"`, "single quotes"},
		{"unset-assign operand", `echo "${x='$(touch PWNED)'}"`, "single quotes"},
		{"error operand", `echo "${x:?'$(touch PWNED)'}"`, "single quotes"},
		{"unset-error operand", `echo "${x?'$(touch PWNED)'}"`, "single quotes"},
		{"a quote hiding the closing brace", `echo "${x:-'}" $(touch PWNED) "'}"`, "single quotes"},
		{"nested operand", `echo "${x:-${y:-'$(touch PWNED)'}}"`, "single quotes"},
		{"operand in a heredoc body", "cat <<E\n${x:-'$(touch PWNED)'}\nE\n", "single quotes"},
		{"ANSI-C quotes in a double-quoted operand", `echo "${x:-$'\x24(touch PWNED)'}"`, "single quotes"},
		{"arithmetic expansion", `echo $(( '$(touch PWNED)' ))`, "single quotes"},
		{"arithmetic command", `(( x = '$(touch PWNED)' ))`, "single quotes"},
		{"old arithmetic", `echo $[ x='a[$(touch PWNED)]', x ]`, "single quotes"},
		{"a subscript", `echo ${a['$(touch PWNED)']}`, "single quotes"},
		{"an assignment subscript", `a['$(touch PWNED)']=1`, "single quotes"},
		{"a declaration subscript", `declare a['$(touch PWNED)']=1`, "single quotes"},
		{"an array element subscript", `a=(['$(touch PWNED)']=1)`, "single quotes"},
		{"a substring offset", `echo "${x:'$(touch PWNED)'}"`, "single quotes"},
		{"an arithmetic for loop", `for ((i='$(touch PWNED)';;)); do break; done`, "single quotes"},
		{"dash's shorter operand", `sh -c "echo \"\${x:-'}\" \$(touch PWNED) \"'}\""`, "single quotes"},

		// Process substitution in a ${…} operand runs; the parser sees text.
		{"process substitution in a default operand", "echo ${x:=<(touch PWNED)}", "process substitution"},
		{"process substitution in a replacement", "x=a; echo ${x/a/>(touch PWNED)}", "process substitution"},
		{"process substitution after text in an operand", "echo ${x:-a<(touch PWNED)}", "process substitution"},

		// A script that ends in a backslash: bash drops it.
		{"a trailing backslash", `rm -rf /important\`, "ends in a backslash"},

		// 4. A heredoc delimiter reached through a continuation.
		{"delimiter after a lone backslash line", "cat <<E\nhi\n" + nl + "E\ntouch PWNED\nE\n", "here-document"},
		{"tab-stripped delimiter after a continuation", "cat <<-E\n\t" + nl + "E\ntouch PWNED\nE\n", "here-document"},
		{"delimiter joined from a line and an empty one", "cat <<E\nE" + nl + "\ntouch PWNED\nE\n", "here-document"},
		{"body whose last line continues into the delimiter", "cat <<E\nfoo" + nl + "E", "here-document"},
		{"a heredoc fed to a shell", "bash <<E\necho hi\n" + nl + "E\ntouch PWNED\nE\n", "here-document"},

		// 5. Backquotes end at the next backquote whatever the quotes.
		{"a single quote inside backquotes", "echo `echo '`; touch PWNED #'`", "backquote substitution"},
		{"a single quote inside backquotes over lines", "echo `echo '`\ntouch PWNED\n#'`", "backquote substitution"},
		{"a quote in a backquote in a heredoc body", "cat <<EOF\n`echo '`$(touch PWNED)'`\nEOF\n", "backquote substitution"},
		// (Nested backquotes, an empty delimiter and a case word are
		// refused whatever the parser reads: rare, and not worth proving
		// alike.)
		{"backquotes in backquotes", "echo `echo \\`touch PWNED\\``", "backquotes inside backquotes"},
		// … and a here-document inside them ends with their text.
		{"a heredoc inside backquotes", "echo `cat <<true`\ntouch PWNED\ntrue", "here-document inside backquotes"},
		{"a heredoc inside backquotes in an assignment", "x=`cat <<EOF`\ntouch PWNED\nEOF", "here-document inside backquotes"},
		{"a heredoc inside backquotes in an array", "a=(`cat <<EOF`)\ntouch PWNED\nEOF", "here-document inside backquotes"},
		{"a heredoc inside backquotes in a case word", "case `cat <<EOF` in\ntouch PWNED\nEOF\n*) ;; esac", "here-document inside backquotes"},
		{"a heredoc inside backquotes in double quotes", "echo \"`cat <<-EOF`\"\ntouch PWNED\nEOF", "here-document inside backquotes"},

		// 6. Delimiters that quote removal changes.
		{"an ANSI-C quoted delimiter", "cat <<$'\\x3a'\n:\ntouch PWNED\n\\x3a", "delimiter"},
		{"a backslash in a double-quoted delimiter", "cat <<\"#\\\\\"\n#\\\ntouch PWNED\n#\\\\", "delimiter"},
		{"an escaped quote in a delimiter", "cat <<\"a\\\"b\"\na\"b\ntouch PWNED\na\\\"b", "delimiter"},
		{"a dollar in a delimiter", "cat <<\"a\\$b\"\ntouch PWNED\na$b", "here-document"},
		{"an empty delimiter", "cat <<''\n\ntouch PWNED\n", "delimiter"},

		// 7. A body line that begins with the delimiter.
		{"a substitution spanning the delimiter line", "cat <<:\n$(echo '\n:\ntouch PWNED\n#')\n:", "begins with its delimiter"},
		{"a parameter operand spanning the delimiter line", "cat <<EOF\n${x:-\nEOF\ntouch PWNED\n}\nEOF", "begins with its delimiter"},
		{"a nested heredoc spanning the delimiter line", "cat <<EOF\n$(cat <<X\nEOF\ntouch PWNED\nX\n)\nEOF", "begins with its delimiter"},
		{"a delimiter closing a substitution", "echo $(cat <<EOF\nx\nEOF) ; touch PWNED ; : <<'Z'\nEOF\n) ; : <<'Z'\nZ", "begins with its delimiter"},
		// 8. "!(" at a command's start: negation and a subshell to bash.
		{"a negated subshell read as a glob", "!(touch PWNED)", "extended glob"},
		{"a negated subshell after an assignment", "x=1 !(touch PWNED)", "extended glob"},
		{"a negated subshell in a condition", "if !(touch PWNED); then :; fi", "extended glob"},
		// 10. A body the parser ends at a line that only ends with the
		// delimiter; extended-glob patterns bash expands; bash 5.3's
		// ${ cmd; }; "time --".
		{"a body line ending in the delimiter after an expansion", "cat <<EOF\n${x}EOF\n: '\nEOF\ntouch PWNED\nx=' #'\n", "not its delimiter"},
		{"the same after a tab-stripped expansion", "cat <<-EOF\n\t${x}\tEOF\n: '\nEOF\ntouch PWNED\nx=' #'\n", "not its delimiter"},
		{"the same after a substitution", "cat <<EOF\n$(:)EOF\n: '\nEOF\ntouch PWNED\nx=' #'\n", "not its delimiter"},
		{"an extended glob with a substitution in [[", "[[ x == @($(touch PWNED)) ]]", "extended glob"},
		{"an extended glob with backquotes in [[", "[[ x != +(a|`touch PWNED`) ]]", "extended glob"},
		{"an extended glob in a word of bash -O extglob", "bash -O extglob -c 'echo @($(touch PWNED))'", "extglob"},
		{"bash 5.3 command substitution", "(: ${ : # }); touch PWNED '\n} ) #'", "${ cmd; }"},
		{"bash 5.3 reply substitution (refused whatever bash makes of it)", "echo ${| REPLY=x; }; touch PWNED", "${ cmd; }"},
		{"time skipping --", "time -- touch PWNED", "time --"},
		{"time -p skipping --", "time -p -- touch PWNED", "time --"},
		{"unset", "a=(1); unset 'a[$(touch PWNED)]'", "array subscript"},
		{"an arithmetic comparison in [[", "[[ 'x[$(touch PWNED)]' -eq 1 ]]", "array subscript"},
		{"an arithmetic comparison in [[ on the right", "[[ 1 -lt 'x[$(touch PWNED)]' ]]", "array subscript"},

		// 9. Array subscripts in the static arguments of builtins that
		// evaluate them: bash expands "$(…)" there.
		{"let", "let 'a[$(touch PWNED)]=1'", "array subscript"},
		{"let with backquotes", "let 'a[`touch PWNED`]=1'", "array subscript"},
		{"declare", "declare 'a[$(touch PWNED)]=1'", "array subscript"},
		{"local in a function", "f(){ local 'a[$(touch PWNED)]=1'; }; f", "array subscript"},
		{"a nameref's target", "declare -n r='a[$(touch PWNED)]'; r=1", "array subscript"},
		{"an integer's value", "declare -i n='a[$(touch PWNED)]'", "array subscript"},
		{"read", "read 'a[$(touch PWNED)]' <<<x", "array subscript"},
		{"read -a", "read -a 'a[$(touch PWNED)]' <<<x", "array subscript"},
		{"test -v", "test -v 'a[$(touch PWNED)]'", "array subscript"},
		{"[ -v", "[ -v 'a[$(touch PWNED)]' ]", "array subscript"},
		{"[[ -v", "[[ -v 'a[$(touch PWNED)]' ]]", "array subscript"},
		{"printf -v", "printf -v 'a[$(touch PWNED)]' x", "array subscript"},
		{"printf -v attached", "printf -v'a[$(touch PWNED)]' x", "array subscript"},
		{"builtin let", "builtin let 'a[$(touch PWNED)]=1'", "array subscript"},
		{"a tab-stripped delimiter closing a substitution", "echo $(cat <<-EOF\nx\n\tEOF) ; touch PWNED ; : <<'Z'\nEOF\n) ; : <<'Z'\nZ", "begins with its delimiter"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			segs, err := Analyze(tc.src, home)
			var nu *NotUnderstood
			if !errors.As(err, &nu) {
				t.Fatalf("Analyze(%q) = %q, %v; want *NotUnderstood", tc.src, renderAll(segs), err)
			}
			if !strings.Contains(nu.Reason, tc.want) {
				t.Errorf("Analyze(%q): %v; want a reason with %q", tc.src, err, tc.want)
			}
		})
	}
}

// Texts that read the same to the parser and to bash stay analysed, the
// usual line continuations in particular.
func TestAnalyzeKeepsSameReadings(t *testing.T) {
	const nl = "\\\n"
	runCases(t, home, []analyzeCase{
		{"a continuation after a blank", "ls " + nl + "  --all " + nl + "  -h", []string{"exec ls --all -h"}},
		{"a continuation after an operator and a blank", "make &&" + nl + "  make install | " + nl + " tee log",
			[]string{"exec make", "exec make install", "exec tee log"}},
		{"a continuation after a pipe", "cat f |" + nl + "  grep x", []string{"exec cat f", "exec grep x"}},
		{"a continuation inside a word", "ec" + nl + "ho a" + nl + "b", []string{"exec echo ab"}},
		{"a continuation at the start", nl + "ls", []string{"exec ls"}},
		{"a continuation in double quotes", "echo \"a " + nl + "b\"", []string{"exec echo \"a b\""}},
		{"an escaped backslash before a newline", "echo a\\\\\nls", []string{"exec echo \"a\\\\\"", "exec ls"}},
		{"dollar continuation in single quotes", "echo 'a$" + nl + "(b)'", []string{"exec echo \"a$\\\\\\n(b)\""}},
		{"dollar continuation in a quoted heredoc", "cat <<'E'\n$" + nl + "(x)\nE\n", []string{"exec cat"}},
		{"a comment without a trailing backslash", "ls # a \\ b\nrm x", []string{"exec ls", "exec rm x"}},
		{"a hash in double quotes before a continuation", "echo \"a #b " + nl + "c\"", []string{"exec echo \"a #b c\""}},
		{"a hash inside a word before a continuation", "echo a#b " + nl + "c", []string{"exec echo \"a#b\" c"}},
		{"a continued heredoc line that is not the delimiter", "cat <<E\nfoo" + nl + "E\nbar\nE\nls\n", []string{"exec cat", "exec ls"}},
		{"a continued heredoc body", "cat > Dockerfile <<EOF\nRUN apt-get update && " + nl + "    apt-get install -y x\nEOF\n",
			[]string{"write Dockerfile", "exec cat"}},
		{"a backslash line in a quoted heredoc", "cat <<'E'\nhi\\\nE\ntouch x\n", []string{"exec cat", "exec touch x"}},
		{"unquoted operand quotes are quotes", "echo ${x:-'$(touch x)'}", []string{"exec echo \"\\x00\""}},
		{"plain quoted keys and operands", `echo "${m['k']}" "${x:-'a b'}" $(( 'x' )); m['a b']=1`,
			[]string{"exec echo \"\\x00\" \"\\x00\" \"\\x00\"", "exec {\"m[a b]=1\"}"}},
		{"quotes in a substitution inside double quotes", `echo "${x:-$(echo '$(y)')}"`,
			[]string{"exec echo \"$(y)\" via $(…)", "exec echo \"\\x00\""}},
		{"let operands are words, and assign", "let 'x=1'", []string{"exec {\"x=\\x00\"} let x=1"}},
		{"plain here-documents", "cat <<EOF >a\nEOFX $HOME\nEOF\ncat <<'E.1' >b\n$x\nE.1\ncat <<-\"END\" >c\n\tEND2\n\tEND\ncat <<\\X >d\nX\nls",
			[]string{"write a", "exec cat", "write b", "exec cat", "write c", "exec cat", "write d", "exec cat", "exec ls"}},
		{"brackets and dollars where no subscript is evaluated",
			"read -p 'cost[$1]: ' x; [ x = 'a[$b]' ]; printf '%s[$x]' y; declare x='cost[$5]'; let 'a[i]=1'",
			[]string{"exec read -p \"cost[$1]: \" x", "exec [ x = \"a[$b]\" ]", "exec printf \"%s[$x]\" y", "exec {\"x=cost[$5]\"} declare", "exec {\"a=\\x00\"} let a[i]=1"}},
		{"extended globs as arguments", "ls @(a|b) !(c)", []string{"exec ls \"\\x00\" \"\\x00\""}},
		{"backquotes", "echo `date` \"`date +%F`\"", []string{"exec date via `…`", "exec date +%F via `…`", "exec echo \"\\x00\" \"\\x00\""}},
	})
}

func TestAnalyzeAnsiCEscapes(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"braced hex", `$'\x{74}ouch' PWNED`, []string{"exec touch PWNED"}},
		{"braced hex takes every digit, modulo 256", `$'\x{174}\x{0000006f}'`, []string{"exec to"}},
		{"empty braced hex ends the value", `echo $'a\x{}b'`, []string{"exec echo a"}},
		{"control escapes", `echo $'\c[\c{'`, []string{"exec echo \"\\x1b\\x1b\""}},
		{"unicode below 0x80 is the byte", `$'\u0074ouch' $'\U00000074'`, []string{"exec touch t"}},
	})
}

// sh, dash and ash are dash here: their code is parsed as POSIX sh; sh's
// code is read as bash too (/bin/sh is bash on Fedora, Arch and macOS), and
// where that reading differs its segments are kept as well.
func TestAnalyzePOSIXShells(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"double parentheses are subshells to dash", `sh -c "((curl - x))"`,
			[]string{"exec sh -c \"((curl - x))\"", "exec curl - x via sh -c", "exec (( \"curl - x\" )) via sh -c (read as bash)"}},
		{"dash -c", `dash -c "((curl x))"`, []string{"exec dash -c \"((curl x))\"", "exec curl x via dash -c"}},
		{"ash -c", `ash -c "((curl x))"`, []string{"exec ash -c \"((curl x))\"", "exec curl x via ash -c"}},
		{"/bin/sh -c", `/bin/sh -ec "((curl x))"`, []string{"exec /bin/sh -ec \"((curl x))\"", "exec curl x via sh -c"}},
		{"busybox sh", `busybox sh -c "((curl x))"`, []string{"exec busybox sh -c \"((curl x))\"", "exec curl x via sh -c"}},
		{"a heredoc fed to sh", "sh <<'EOF'\n((curl x))\nEOF\n", []string{"exec sh", "exec curl x via sh <<"}},
		{"echo piped into sh", `echo "((curl x))" | sh`, []string{"exec echo \"((curl x))\"", "exec sh", "exec curl x via | sh"}},
		{"eval inside sh -c", `sh -c 'eval "((curl x))"'`,
			[]string{"exec sh -c \"eval \\\"((curl x))\\\"\"", "exec eval \"((curl x))\" via sh -c", "exec curl x via sh -c,eval"}},
		{"trap inside sh -c", `sh -c 'trap "((curl x))" EXIT'`,
			[]string{"exec sh -c \"trap \\\"((curl x))\\\" EXIT\"", "exec trap \"((curl x))\" EXIT via sh -c", "exec curl x via sh -c,trap"}},
		{"dash has no brace expansion", `sh -c 'rm {a,b} x=~/y'`,
			[]string{"exec sh -c \"rm {a,b} x=~/y\"", "exec rm {a,b} x=~/y via sh -c", "exec rm a b x=/home/u/y via sh -c (read as bash)"}},
		{"[[ is a command to dash", `sh -c '[[ a < b ]]'`,
			[]string{"exec sh -c \"[[ a < b ]]\"", "read b via sh -c", "exec [[ a ]] via sh -c", "exec [[ a < b ]] via sh -c (read as bash)"}},
		{"$'…' hides a command only from dash", `sh -c "echo \$'\\'';touch x;#'"`,
			[]string{"exec sh -c \"echo $'\\\\'';touch x;#'\"", "exec echo \"$\\\\;touch x;#\" via sh -c",
				"exec echo \"'\" via sh -c (read as bash)", "exec touch x via sh -c (read as bash)"}},
		{"bash -c stays bash", `bash -c "((x))"`, []string{"exec bash -c ((x))", "exec (( x )) via bash -c"}},
	})
	for _, src := range []string{`sh -c 'a=(1 2)'`, `sh -c 'cat <(ls)'`, "sh <<'E'\necho ${x/a/b}\nE\n", `dash -c 'cat <<< x'`} {
		_, err := Analyze(src, home)
		var nu *NotUnderstood
		if !errors.As(err, &nu) {
			t.Errorf("Analyze(%q): err = %v, want *NotUnderstood (not POSIX sh)", src, err)
		}
	}
}

// A path of the shell's own process means something else to the analysis.
func TestAnalyzeSelfPaths(t *testing.T) {
	runCases(t, home, []analyzeCase{
		// Below its working directory, a path relative to it (here
		// after a cd, so only known once the cd has run); below a root,
		// the same path from / (attack run 51 read the key through one).
		{"the shell's working directory", "cd /secret; echo hi > /proc/self/cwd/x",
			[]string{"exec cd /secret", "write \"\\x00\"", "exec echo hi"}},
		{"other proc paths of the shell", "echo > /proc/thread-self/cwd/x > /proc/123/root/x < /proc/$pid/environ > /proc/net/x",
			[]string{"write x", "write /x", "read \"\\x00\"", "write \"/proc/\\x00\"", "exec echo"}},
		// A "..", a run-time part or another spelling: to write, a
		// process's file still (protected); to read, any path at all
		// (attack run 52).
		{"dots and slashes lead there too", "echo > /proc/./self/cwd/x > //proc/self/x > /tmp/../proc/self/cwd/y > /dev/fd/../cwd/z",
			[]string{"write \"/proc/\\x00\"", "write \"/proc/\\x00\"", "write \"/proc/\\x00\"", "write \"/proc/\\x00\"", "exec echo"}},
		{"read below /proc: any path", "cat < /proc/./self/cwd/x < /proc/self/../1/root/y < /dev/fd/3/z",
			[]string{"read \"\\x00\"", "read \"\\x00\"", "read \"\\x00/z\"", "exec cat"}},
		{"a root below /proc is /", "cat < /proc/self/root/etc/passwd < /proc/1/environ < /dev/fd/3/x",
			[]string{"read /etc/passwd", "read /proc/1/environ", "read \"\\x00/x\"", "exec cat"}},
		{"descriptors other than the standard ones", "cat < /dev/fd/5 > /dev/fd/3 2> /dev/fd/2",
			[]string{"read \"/proc/\\x00\"", "write \"/proc/\\x00\"", "exec cat"}},
		{"writing standard input", "echo PWN < victim > /dev/stdin",
			[]string{"read victim", "write \"/proc/\\x00\"", "exec echo PWN"}},
		{"other proc files stay", "cat < /proc/cpuinfo", []string{"read /proc/cpuinfo", "exec cat"}},
		{"a file opened on standard error may be written", "exec 2</etc/passwd",
			[]string{"write /etc/passwd", "read /etc/passwd", "exec exec"}},
		{"duplicating another descriptor onto stdout or stderr", "echo x 2>&5 1<&0 >&2 2>&1 3>&4",
			[]string{"write \"\\x00\"", "write \"\\x00\"", "exec echo x"}},
	})
}

func TestAnalyzeLoopVariables(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"for assigns its variable", "for PS4 in '$(id)'; do set -x; done",
			[]string{"exec {\"PS4=\\x00\"}", "exec set -x"}},
		{"for without in assigns its variable", "for PATH; do ls; done", []string{"exec {\"PATH=\\x00\"}", "exec ls"}},
		{"select assigns its variable", "select HOME in a b; do cd; done", []string{"exec {\"HOME=\\x00\"}", "exec cd"}},
		{"the assignment follows the words' commands", "for f in $(ls); do :; done",
			[]string{"exec ls via $(…)", "exec {\"f=\\x00\"}", "exec :"}},
	})
}

// renderRuns is render with a "!" after segments with RunsCode.
func renderRuns(segs []Segment) []string {
	out := renderAll(segs)
	for i, s := range segs {
		if s.RunsCode {
			out[i] = strings.Replace(out[i], " assuming ", " ! assuming ", 1)
			if !strings.Contains(out[i], " ! assuming ") {
				out[i] += " !"
			}
		}
	}
	return out
}

func TestAnalyzeRunsCode(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"prompt expansion", `echo "${x@P}"`, []string{"exec echo \"\\x00\" !"}},
		{"prompt expansion is a whole hole", `cat /tmp/${x@P}`, []string{"exec cat \"\\x00\" !"}},
		{"other transformations run nothing", `echo ${x@Q} ${x@E}`, []string{"exec echo \"\\x00\" \"\\x00\""}},
		{"locale translation", `echo $"hello"`, []string{"exec echo \"\\x00\" !"}},
		{"in an assignment", `X=${y@P}`, []string{"exec {\"X=\\x00\"} !"}},
		{"in a redirection target", `echo > ${y@P}`, []string{"write \"\\x00\" !", "exec echo"}},
		{"in a heredoc body", "cat <<E\n${y@P}\nE\n", []string{"exec cat !"}},
		{"not in a quoted heredoc body", "cat <<'E'\n${y@P}\nE\n", []string{"exec cat"}},
		{"in a test", `[[ ${y@P} ]]`, []string{"exec [[ \"\\x00\" ]] !"}},
		{"in arithmetic", `(( ${y@P} ))`, []string{"exec (( \"\\x00\" )) !"}},
		{"in a for list", `for i in ${y@P}; do :; done`, []string{"exec {\"i=\\x00\"} !", "exec :"}},
		{"in a nested payload", `eval 'echo ${y@P}'`, []string{"exec eval \"echo ${y@P}\"", "exec echo \"\\x00\" via eval !"}},
		{"eval of a hole", `eval "$cmd"`, []string{"exec eval \"\\x00\" !"}},
		{"static eval", `eval ls`, []string{"exec eval ls", "exec ls via eval"}},
		{"shell -c of a hole", `bash -c "$cmd"`, []string{"exec bash -c \"\\x00\" !"}},
		{"shell with dynamic options", `bash $opts 'rm x'`, []string{"exec bash \"\\x00\" \"rm x\" !"}},
		{"shell with a dynamic option argument", `bash -o $o -c ls`, []string{"exec bash -o \"\\x00\" -c ls !"}},
		{"find -exec sh -c with the path", `find . -exec sh -c 'rm {}' \;`,
			[]string{"exec find . -exec sh -c \"rm {}\" \";\"", "exec sh -c \"rm \\x00\" via find -exec !"}},
		{"a shell reading a dynamic heredoc", "sh <<E\n$x\nE\n", []string{"exec sh !"}},
		{"a shell reading an unknown pipe", "curl x | sh", []string{"exec curl x", "exec sh !"}},
		{"a shell reading its inherited input", "{ bash; } <<'E'\nrm x\nE\n", []string{"exec bash !"}},
		{"a shell reading a file that cannot be read now", "bash < script", []string{"read script", "exec bash !"}},
		{"a script operand that cannot be read now", "bash script.sh", []string{"exec bash script.sh !"}},
		{"trap of a hole", `trap "rm -f $tmp" EXIT`, []string{"exec trap \"rm -f \\x00\" EXIT !"}},
		{"trap with a dynamic signal list", `trap 'ls' $sigs`, []string{"exec trap ls \"\\x00\" !"}},
		{"trap reset with a dynamic signal", `trap - "$sig"`, []string{"exec trap - \"\\x00\""}},
		{"alias of a hole", `alias ll="ls $opts"`, []string{"exec alias \"ll=ls \\x00\" !"}},
		{"source of a hole", `source "$HOME/.env"; . $f`, []string{"exec source \"\\x00/.env\" !",
			"exec source /home/u/.env ! assuming HOME=/home/u", "exec . \"\\x00\" !"}},
		{"source of a file that cannot be read now", `source ./env.sh`, []string{"exec source ./env.sh !"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			segs, err := Analyze(tc.src, home)
			if err != nil {
				t.Fatalf("Analyze(%q): %v", tc.src, err)
			}
			if got := renderRuns(segs); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Analyze(%q):\n got  %q\n want %q", tc.src, got, tc.want)
			}
		})
	}
	for _, src := range []string{
		`case ${x@P} in a) ;; esac`, `case a in $"b") ;; esac`, `for ((i=${x@P};;)); do :; done`,
		"{ cat; } <<E\n${x@P}\nE\n", "<<E\n${x@P}\nE\n",
	} {
		_, err := Analyze(src, home)
		var nu *NotUnderstood
		if !errors.As(err, &nu) {
			t.Errorf("Analyze(%q): err = %v, want *NotUnderstood (nothing carries RunsCode)", src, err)
		}
	}
}

// TestContinuationsReadAlike inserts a line continuation at every position
// of commands with no quotes, comments, here-documents or backslashes of
// their own (where bash simply removes it): each variant is either refused
// or analysed exactly like the command without it.
func TestContinuationsReadAlike(t *testing.T) {
	bases := []string{
		"echo $(id) && ls || x; y | z |& w", "cat <(ls) >(wc) <<<x", "cat < <(ls) > >(wc)",
		"a=(1 2) b=$((1+2)) c=${x:-y} d=${#z} e=${y/a/b}", "(( x++ )) ; [[ a == b && -f c ]]",
		"echo \"$x ${y} $(z) `w`\"", "f() { :; }; case a in b) c;; (d) e;; esac",
		"echo a 2>&1 >f &>g >>h <i 3<>j >|k", "x=$[1+2] y=$((a[1]))", "echo @(a|b) !(c) *(d) +(e) ?(f)",
		"for ((i=0;i<3;i++)); do :; done", "for x in a b; do echo $x; done",
		"echo ${a[1]} ${a[@]:1:2} ${!x} ${x@Q} $$ $? $# $@ $*", "echo ~ ~/x a=~ {a,b}c",
		"if true; then :; elif false; then :; else :; fi &", "coproc x { a; }; time b; ! c",
		"echo $((1<<2)) $((3>>1)) $((a&&b)) $((a||b))", "declare -A m=([k]=v) ; local x=1",
		"eval \"rm x\"; bash -c \"ls\"; sh -c \"((x))\"",
	}
	for _, src := range corpus(t, "agent-commands.jsonl") {
		if !strings.ContainsAny(src, "'#\\\r") && !strings.Contains(src, "<<") && len(src) < 300 {
			bases = append(bases, src)
		}
	}
	accepted := 0
	for _, base := range bases {
		want, err := Analyze(base, home)
		if err != nil {
			continue
		}
		for i := 1; i < len(base); i++ {
			v := base[:i] + "\\\n" + base[i:]
			got, err := Analyze(v, home)
			if err != nil {
				continue
			}
			accepted++
			if !reflect.DeepEqual(renderAll(got), renderAll(want)) {
				t.Errorf("Analyze(%q):\n got  %q\n want %q (as without the continuation)", v, renderAll(got), renderAll(want))
			}
		}
	}
	if accepted == 0 {
		t.Error("every variant refused")
	}
}

// TestAliasKeepsRedirections: an alias is read expanded with the rest of
// its command's text, redirections included, as bash substitutes it (an
// alias ending in an open quote swallowed a here-string and hid the
// command after it).
func TestAliasKeepsRedirections(t *testing.T) {
	for _, src := range []string{
		"shopt -s expand_aliases\nalias echo=\"echo '\"\necho <<<\"';touch PWNED;#\" \\'",
		"alias echo=\"echo '\"\necho 2>\"';touch PWNED;#\" \\'",
	} {
		segs, err := Analyze(src, home)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", src, err)
		}
		found := false
		for _, s := range segs {
			if len(s.Args) > 0 && s.Args[0].Value == "touch" {
				found = true
			}
		}
		if !found {
			t.Errorf("Analyze(%q) = %q: the command hidden behind the alias is not a segment", src, renderAll(segs))
		}
	}
}

// TestSourceNotReadWhenRewritten: a file the same text may rewrite before
// sourcing it is not read now (what runs is not what it holds now): named
// by dd's of=, a copy into its directory, or a write through a link to it
// (an attack run had the analysis show a stale copy while bash ran the new
// one).
func TestSourceNotReadWhenRewritten(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/x.sh"
	if err := os.WriteFile(file, []byte("echo stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("x.sh", dir+"/wl"); err != nil {
		t.Fatal(err)
	}
	opt := Options{Home: "/home/u", Dir: dir}
	for _, src := range []string{
		"echo new | dd of=" + file + " status=none; . " + file,
		"cp /tmp/y.sh " + dir + "/; . " + file,
		"echo new > " + dir + "/wl; . " + file,
		"echo new > wl; bash " + file,
	} {
		segs, err := Analyze(src, opt)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", src, err)
		}
		for _, s := range segs {
			if len(s.Args) > 1 && s.Args[1].Value == "stale" {
				t.Errorf("Analyze(%q) read the file's present contents: %q", src, renderAll(segs))
			}
		}
	}
	segs, _ := Analyze(". "+file, opt)
	if r := renderAll(segs); !strings.Contains(strings.Join(r, "\n"), "echo stale") {
		t.Errorf("a file nothing rewrites is read: %q", r)
	}
}

// TestSecretCheckedOnTheFileOpened: Options.Secret is asked about the file
// actually opened, so a link that leads to a secret only when the file is
// read is seen (an attack run raced the check and the read with a link
// swapped between them).
func TestSecretCheckedOnTheFileOpened(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/token", []byte("echo S3CRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("token", dir+"/rx"); err != nil {
		t.Fatal(err)
	}
	// The check on the name given says no; the one on the file opened
	// says yes, as after a swap.
	secret := func(p string) bool { return p == dir+"/token" }
	segs, err := Analyze(". "+dir+"/rx", Options{Home: "/home/u", Secret: func(p string) bool {
		return p != dir+"/rx" && secret(p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r := strings.Join(renderAll(segs), "\n"); strings.Contains(r, "S3CRET") {
		t.Errorf("the secret's lines are segments: %q", r)
	}
}

// TestScriptsBashRuns: a script run as a program is read when bash would
// run it as shell code — a #! line through env -S, or no #! line at all
// (bash runs such a text file itself) — and a NUL after its first line
// (bash runs the script without it) is not understood; a binary is not
// read as code.
func TestScriptsBashRuns(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"envs.sh":  "#!/usr/bin/env -S bash -e\ntouch PWNED\n",
		"envs2.sh": "#!/usr/bin/env -Sbash\ntouch PWNED\n",
		"plain.sh": "echo start\ntouch PWNED\n",
		"nul.sh":   "echo start\ntou\x00ch PWNED\n",
		"bin":      "\x7fELF\x00\x01touch PWNED\n",
	}
	for name, data := range files {
		if err := os.WriteFile(dir+"/"+name, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opt := Options{Home: "/home/u", Dir: dir}
	for _, src := range []string{"./envs.sh", "./envs2.sh", "./plain.sh"} {
		segs, err := Analyze(src, opt)
		if err != nil {
			t.Fatalf("Analyze(%q): %v", src, err)
		}
		if r := strings.Join(renderAll(segs), "\n"); !strings.Contains(r, "exec touch PWNED") {
			t.Errorf("Analyze(%q) did not read the script: %q", src, r)
		}
	}
	for _, src := range []string{"bash nul.sh", "./nul.sh"} {
		var nu *NotUnderstood
		if _, err := Analyze(src, opt); !errors.As(err, &nu) || !strings.Contains(nu.Reason, "NUL") {
			t.Errorf("Analyze(%q): %v; want not understood for the NUL", src, err)
		}
	}
	if segs, err := Analyze("./bin", opt); err != nil || strings.Contains(strings.Join(renderAll(segs), "\n"), "touch") {
		t.Errorf("Analyze(./bin) = %q, %v: a binary read as code", renderAll(segs), err)
	}
}

// TestShebangTakenAsWritten: a #! line is read as the shell it names only
// when the kernel runs that shell: an absolute interpreter in a system
// directory, with at most flags the analysis need not follow (attack run
// 84: #!bash ran ./bash, a workspace program, while the script was shown
// to its approver as bash would run it). Otherwise the script is a
// program of its own, not read.
func TestShebangTakenAsWritten(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"rel.sh":     "#!bash\necho hello\n",
		"other.sh":   "#!" + dir + "/sh\necho hello\n",
		"dotdot.sh":  "#!/usr/bin/../../" + dir + "/sh\necho hello\n",
		"k.sh":       "#!/bin/bash -k\necho hello\n",
		"login.sh":   "#!/bin/bash -l\necho hello\n",
		"envpath.sh": "#!/usr/bin/env ./sh\necho hello\n",
		"long.sh":    "#!/bin/bash " + strings.Repeat("x", 300) + "\necho hello\n",
		"ok.sh":      "#!/bin/bash -eu\necho hello\n",
		"env.sh":     "#!/usr/bin/env bash\necho hello\n",
	}
	for name, data := range files {
		if err := os.WriteFile(dir+"/"+name, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opt := Options{Home: "/home/u", Dir: dir}
	for name := range files {
		segs, err := Analyze("./"+name, opt)
		if err != nil {
			t.Fatalf("Analyze(./%s): %v", name, err)
		}
		read := strings.Contains(strings.Join(renderAll(segs), "\n"), "exec echo hello")
		if want := name == "ok.sh" || name == "env.sh"; read != want {
			t.Errorf("Analyze(./%s) read the script as shell code: %v, want %v (%q)", name, read, want, renderAll(segs))
		}
	}
}
