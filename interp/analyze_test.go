package interp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/guardsh/guardsh/internal/benchdata"
)

// render shows a segment compactly for tables: the kind, the assignments in
// braces, the argv, and the Via chain after "via". A word that is not plain
// is quoted with %q, so a Hole shows as \x00.
func render(s Segment) string {
	var b strings.Builder
	b.WriteString(string(s.Kind))
	if len(s.Assigns) > 0 {
		b.WriteString(" {")
		for i, w := range s.Assigns {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(renderWord(w.Value))
		}
		b.WriteString("}")
	}
	for _, w := range s.Args {
		b.WriteString(" ")
		b.WriteString(renderWord(w.Value))
	}
	if len(s.Via) > 0 {
		b.WriteString(" via " + strings.Join(s.Via, ","))
	}
	if s.Assumed != "" {
		b.WriteString(" assuming " + s.Assumed)
	}
	return b.String()
}

func renderWord(v string) string {
	if v == "" {
		return `""`
	}
	for _, r := range v {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_./=:@%+,~[](){}!&|<>", r)) {
			return fmt.Sprintf("%q", v)
		}
	}
	return v
}

func renderAll(segs []Segment) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = render(s)
	}
	return out
}

type analyzeCase struct {
	name string
	src  string
	want []string
}

func runCases(t *testing.T, opt Options, cases []analyzeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			segs, err := Analyze(tc.src, opt)
			if err != nil {
				t.Fatalf("Analyze(%q): %v", tc.src, err)
			}
			got := renderAll(segs)
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Analyze(%q):\n got  %q\n want %q", tc.src, got, tc.want)
			}
		})
	}
}

var home = Options{Home: "/home/u"}

func TestAnalyzeStructure(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"an empty text has no segments", "", nil},
		{"a comment has no segments", "# rm -rf /", nil},
		{"a simple command is one segment", "git status", []string{"exec git status"}},
		{"an and-list yields each command", "git log && curl https://x.sh | sh",
			[]string{"exec git log", "exec curl https://x.sh", "exec sh"}},
		{"an or-list yields each command", "true || rm x", []string{"exec true", "exec rm x"}},
		{"a semicolon list yields each command", "a; b;c", []string{"exec a", "exec b", "exec c"}},
		{"newlines separate commands", "a\nb\n\nc\n", []string{"exec a", "exec b", "exec c"}},
		{"a single ampersand separates commands", "ls & rm -rf /tmp/pwn",
			[]string{"exec ls", "exec rm -rf /tmp/pwn"}},
		{"every pipeline stage is a segment", "rm -rf /home/user/ | grep x | wc -l",
			[]string{"exec rm -rf /home/user/", "exec grep x", "exec wc -l"}},
		{"a stderr pipe stage is a segment", "make |& tee log", []string{"exec make", "exec tee log"}},
		{"a negated pipeline still runs", "! grep -q x f", []string{"exec grep -q x f"}},
		{"a subshell body is walked", "(cd /x; rm y)", []string{"exec cd /x", "exec rm y"}},
		{"a brace group body is walked", "{ a; b; }", []string{"exec a", "exec b"}},
		{"if conditions and branches are walked", "if a; then b; elif c; then d; else e; fi",
			[]string{"exec a", "exec b", "exec c", "exec d", "exec e"}},
		{"while loops are walked", "while read l; do rm \"$l\"; done",
			[]string{"exec read l", "exec rm \"\\x00\""}},
		{"until loops are walked", "until a; do b; done", []string{"exec a", "exec b"}},
		{"for loop items and body are walked", "for f in $(ls); do rm $f; done",
			[]string{"exec ls via $(…)", "exec {\"f=\\x00\"}", "exec rm \"\\x00\""}},
		{"c-style for loops are walked, and what they assign", "for ((i=$(a); i<3; i++)); do b; done",
			[]string{"exec a via $(…)", "exec {\"i=\\x00\"}", "exec b"}},
		{"select bodies are walked", "select x in a b; do c; done", []string{"exec {\"x=\\x00\"}", "exec c"}},
		{"case words, patterns and bodies are walked", "case $(a) in $(b)) c;; *) d;; esac",
			[]string{"exec a via $(…)", "exec b via $(…)", "exec c", "exec d"}},
		{"a function body counts as code", "f() { rm -rf /; }", []string{"exec rm -rf /"}},
		{"a function keyword body counts as code", "function g { curl x; }", []string{"exec curl x"}},
		{"time runs its pipeline", "time rm x", []string{"exec rm x"}},
		{"coproc runs its command", "coproc rm x", []string{"exec rm x"}},
		{"a redirection alone has only its write", "> f", []string{"write f"}},
		{"a command that expands to no words is no segment", "{,} > f", []string{"write f"}},
	})
}

func TestAnalyzeNestedCode(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"command substitution runs before its command", "echo $(rm -rf /)",
			[]string{"exec rm -rf / via $(…)", "exec echo \"\\x00\""}},
		{"backticks are command substitution", "echo `id`", []string{"exec id via `…`", "exec echo \"\\x00\""}},
		{"nested substitutions are found", "a $(b $(c))",
			[]string{"exec c via $(…),$(…)", "exec b \"\\x00\" via $(…)", "exec a \"\\x00\""}},
		{"input process substitution runs", "diff <(sort a) b", []string{"exec sort a via <(…)", "exec diff \"\\x00\" b"}},
		{"output process substitution runs", "tee >(rm x)", []string{"exec rm x via >(…)", "exec tee \"\\x00\""}},
		{"arithmetic expansion can hold a substitution", "echo $((1 + $(a)))",
			[]string{"exec a via $(…)", "exec echo \"\\x00\""}},
		{"an arithmetic command is a segment, with what it assigns", "(( x = $(a) ))",
			[]string{"exec a via $(…)", "exec {\"x=\\x00\"} (( \"x = \\x00\" ))"}},
		{"a test clause is a segment with its operands", "[[ -f $(a) && x == \"y z\" ]]",
			[]string{"exec a via $(…)", "exec [[ -f \"\\x00\" && x == \"y z\" ]]"}},
		{"test clause parentheses and negation are words", "[[ ! ( a < b ) ]]",
			[]string{"exec [[ ! ( a < b ) ]]"}},
		{"let is a segment with its expressions, and what they assign", "let 'a[i+1]=1' b=2",
			[]string{"exec {\"a=\\x00\" \"b=\\x00\"} let a[i+1]=1 b=2"}},
		{"let expressions can hold substitutions", "let x=$(a)+1",
			[]string{"exec a via $(…)", "exec {\"x=\\x00\"} let \"x=\\x00+1\""}},
		{"a default-value operand can hold a substitution", "echo ${x:-$(rm y)}",
			[]string{"exec rm y via $(…)", "exec echo \"\\x00\""}},
		{"replace and index operands are walked", "echo ${x/$(a)/$(b)} ${y[$(c)]} ${z:$(d):1}",
			[]string{"exec a via $(…)", "exec b via $(…)", "exec c via $(…)", "exec d via $(…)", "exec echo \"\\x00\" \"\\x00\" \"\\x00\""}},
		{"a redirect target can hold a substitution", "echo hi > $(mktemp)",
			[]string{"exec mktemp via $(…)", "write \"\\x00\"", "exec echo hi"}},
		{"an assignment value can hold a substitution", "X=$(curl x) make",
			[]string{"exec curl x via $(…)", "exec {\"X=\\x00\"} make"}},
		{"an assignment-only statement can hold a substitution", "X=$(rm y)",
			[]string{"exec rm y via $(…)", "exec {\"X=\\x00\"}"}},
		{"an array assignment can hold a substitution", "a=(x $(b) [2]=$(c))",
			[]string{"exec b via $(…)", "exec c via $(…)", "exec {\"a=(x \\x00 [2]=\\x00)\"}"}},
		{"an unquoted heredoc body is code", "cat <<EOF\nhi $(whoami)\n`id`\nEOF\n",
			[]string{"exec whoami via $(…)", "exec id via `…`", "exec cat"}},
		{"a quoted heredoc body is data", "cat <<'EOF'\n$(whoami)\nEOF\n", []string{"exec cat"}},
		{"a backslash-quoted heredoc body is data", "cat <<\\EOF\n$(whoami)\nEOF\n", []string{"exec cat"}},
		{"a tab-stripped heredoc body is code", "cat <<-EOF\n\t$(whoami)\n\tEOF\n",
			[]string{"exec whoami via $(…)", "exec cat"}},
		{"an escaped substitution in a heredoc is data", "cat <<EOF\n\\$(whoami)\nEOF\n", []string{"exec cat"}},
		{"a here-string can hold a substitution", "cat <<< $(id)", []string{"exec id via $(…)", "exec cat"}},
		{"a double-quoted substitution is found", `echo "a $(b) c"`, []string{"exec b via $(…)", "exec echo \"a \\x00 c\""}},
	})
}

func TestAnalyzeAssignsAndDeclarations(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"prefix assignments go to Assigns", "A=1 B=$x cmd arg",
			[]string{"exec {A=1 \"B=\\x00\"} cmd arg"}},
		{"an assignment-only statement has no Args", "A=1 B=2", []string{"exec {A=1 B=2}"}},
		{"assignment values get quote removal", `A="x y" B='$z' C=a\ b`,
			[]string{"exec {\"A=x y\" \"B=$z\" \"C=a b\"}"}},
		{"assignment values get no brace expansion or globbing", "A={a,b} B=* C=a\\{b cmd",
			[]string{"exec {A={a,b} \"B=*\" C=a{b} cmd"}},
		{"append and index assignments keep their form", "a+=x b[1]=y c[$i]=z",
			[]string{"exec {a+=x b[1]=y \"c[\\x00]=z\"}"}},
		{"tilde expands at the start and after colons of a value", "P=~/bin:~/x:~ Q=a~ R=~root/x",
			[]string{"exec {P=/home/u/bin:/home/u/x:/home/u Q=a~ \"R=\\x00/x\"}"}},
		{"export is a segment with its assignments", "export A=1 B",
			[]string{"exec {A=1} export B"}},
		{"declare keeps flags in Args", "declare -x -r A=1 B",
			[]string{"exec {A=1} declare -x -r B"}},
		{"local, readonly and typeset are declarations", "local a=1; readonly b=2; typeset c=3",
			[]string{"exec {a=1} local", "exec {b=2} readonly", "exec {c=3} typeset"}},
		{"a quoted declaration operand that assigns is an assignment", `export "PATH=/tmp:$PATH"`,
			[]string{"exec {\"PATH=/tmp:\\x00\"} export"}},
		{"a dynamic declaration operand stays in Args", "export $x",
			[]string{"exec export \"\\x00\""}},
		{"a declaration value can hold a substitution", "local x=$(id)",
			[]string{"exec id via $(…)", "exec {\"x=\\x00\"} local"}},
		{"an indexed declaration keeps the index", "declare -A m; m[k]=v",
			[]string{"exec declare -A m", "exec {m[k]=v}"}},
	})
}

func TestAnalyzeRedirections(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"output to a file is a write before the command", "echo hi > out", []string{"write out", "exec echo hi"}},
		{"append is a write", "echo hi >> log", []string{"write log", "exec echo hi"}},
		{"clobber is a write", "echo hi >| f", []string{"write f", "exec echo hi"}},
		{"both-streams redirection is a write", "make &> all; make &>> all2", []string{"write all", "exec make", "write all2", "exec make"}},
		{"a numbered fd to a file is a write", "cmd 2> err 3>>x", []string{"write err", "write x", "exec cmd"}},
		{"read-write is a write and a read", "cmd <> rw", []string{"write rw", "read rw", "exec cmd"}},
		{"input from a file is a read", "sort < in", []string{"read in", "exec sort"}},
		{"dev null is neither", "cmd > /dev/null 2>/dev/null < /dev/null", []string{"exec cmd"}},
		{"standard streams and terminals are not files", "cmd >/dev/stderr 2>/dev/stdout >/dev/tty </dev/stdin >/dev/fd/2 </dev/fd/0",
			[]string{"exec cmd"}},
		{"another descriptor's device is a hole", "cmd >/dev/fd/3", []string{"write \"/proc/\\x00\"", "exec cmd"}},
		{"reading the standard output device is a hole", "cat < /dev/stdout", []string{"read \"/proc/\\x00\"", "exec cat"}},
		{"fd duplications are not writes", "cmd 2>&1 >&2 3>&- <&0 4<&- 5>&6-", []string{"exec cmd"}},
		{"greater-ampersand a file name is a write", "cmd >&out", []string{"write out", "exec cmd"}},
		{"heredocs and here-strings are not reads", "cat <<EOF\nx\nEOF\ncat <<< y", []string{"exec cat", "exec cat"}},
		{"a target gets quote removal and tilde", "echo > \"a b\" >~/x", []string{"write \"a b\"", "write /home/u/x", "exec echo"}},
		{"a glob target keeps its literal parts", "echo > *.txt", []string{"write \"\\x00.txt\"", "exec echo"}},
		{"a brace target yields each word", "echo > {a,b}", []string{"write a", "write b", "exec echo"}},
		{"redirections of a compound command come before its body", "{ a; b; } > out",
			[]string{"write out", "exec a", "exec b"}},
		{"a loop reading a file", "while read l; do echo $l; done < list",
			[]string{"read list", "exec read l", "exec echo \"\\x00\""}},
		{"redirections of a test clause are found", "[[ -f x ]] > out", []string{"write out", "exec [[ -f x ]]"}},
		{"a redirection before the command name", "> out echo hi", []string{"write out", "exec echo hi"}},
		{"a named fd redirection is a write, and assigns its name", "exec {fd}> f", []string{"exec {\"fd=\\x00\"}", "write f", "exec exec"}},
		{"a network device is a write and a read", "exec 3<>/dev/tcp/h/80", []string{"write /dev/tcp/h/80", "read /dev/tcp/h/80", "exec exec"}},
	})
}

func TestAnalyzeWorkingDirectory(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"a relative target before any cd stays", "echo > out; cd /tmp", []string{"write out", "exec echo", "exec cd /tmp"}},
		{"a relative target after cd is a hole", "cd /tmp && echo > out", []string{"exec cd /tmp", "write \"\\x00\"", "exec echo"}},
		{"an absolute target after cd stays", "cd /tmp; echo > /abs/out", []string{"exec cd /tmp", "write /abs/out", "exec echo"}},
		{"a relative read after pushd is a hole", "pushd d; sort < in", []string{"exec pushd d", "read \"\\x00\"", "exec sort"}},
		{"a relative target after popd is a hole", "popd; echo > out", []string{"exec popd", "write \"\\x00\"", "exec echo"}},
		{"cd at any depth counts", "echo $(cd /; pwd); echo > out",
			[]string{"exec cd / via $(…)", "exec pwd via $(…)", "exec echo \"\\x00\"", "write \"\\x00\"", "exec echo"}},
		{"cd inside eval counts", "eval 'cd /'; echo > out",
			[]string{"exec eval \"cd /\"", "exec cd / via eval", "write \"\\x00\"", "exec echo"}},
		{"builtin cd counts", "builtin cd /; echo > out",
			[]string{"exec builtin cd /", "exec cd / via builtin", "write \"\\x00\"", "exec echo"}},
		{"a dynamic command name may be cd", "$c /; echo > out",
			[]string{"exec \"\\x00\" /", "write \"\\x00\"", "exec echo"}},
		{"eval of dynamic text may cd", "eval \"$x\"; echo > out",
			[]string{"exec eval \"\\x00\"", "write \"\\x00\"", "exec echo"}},
		{"the redirection of cd itself applies before cd runs", "cd /x > out", []string{"write out", "exec cd /x"}},
		{"a loop containing cd makes its earlier targets holes", "for d in a b; do echo > out; cd $d; done",
			// (and the cd once with each value of the loop's variable)
			[]string{"exec {\"d=\\x00\"}", "write \"\\x00\"", "exec echo", "exec cd \"\\x00\"",
				"exec cd a assuming d=a", "exec cd b assuming d=b"}},
		{"a function body target is a hole when the text cds", "f() { echo > out; }; cd /; f",
			[]string{"write \"\\x00\"", "exec echo", "exec cd /", "exec f"}},
		{"a function body target stays when nothing cds", "f() { echo > out; }; f",
			[]string{"write out", "exec echo", "exec f"}},
	})
}

func TestAnalyzeDirChanged(t *testing.T) {
	runCases(t, Options{Home: "/home/u", DirChanged: true}, []analyzeCase{
		{"with DirChanged every relative target is a hole", "echo > out < in 2> ~/err",
			[]string{"write \"\\x00\"", "read \"\\x00\"", "write /home/u/err", "exec echo"}},
	})
	for src, want := range map[string]bool{
		"cd": true, "pushd x": true, "popd": true, "$x": true, "eval \"$x\"": true,
		"eval cd": false, "echo cd": false, "ls": false, "": false,
	} {
		segs, err := Analyze(src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := len(segs) > 0 && segs[0].MayChangeDir()
		if got != want {
			t.Errorf("MayChangeDir(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestAnalyzeEval(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"a static eval payload is analysed", "eval 'rm -rf /'",
			[]string{"exec eval \"rm -rf /\"", "exec rm -rf / via eval"}},
		{"eval joins its arguments with spaces", "eval rm '-rf' \"/x\"",
			[]string{"exec eval rm -rf /x", "exec rm -rf /x via eval"}},
		{"eval skips a double dash", "eval -- 'a; b'",
			[]string{"exec eval -- \"a; b\"", "exec a via eval", "exec b via eval"}},
		{"an eval payload sees quoted redirections", "eval 'npm test' \\< /dev/null",
			[]string{"exec eval \"npm test\" < /dev/null", "exec npm test via eval"}},
		{"an eval payload with a substitution", "eval 'echo $(id)'",
			[]string{"exec eval \"echo $(id)\"", "exec id via eval,$(…)", "exec echo \"\\x00\" via eval"}},
		{"eval inside eval is analysed", `eval "eval 'rm x'"`,
			[]string{"exec eval \"eval 'rm x'\"", "exec eval \"rm x\" via eval", "exec rm x via eval,eval"}},
		{"a dynamic eval payload is not analysed", `eval "rm $x"`, []string{"exec eval \"rm \\x00\""}},
		{"a glob eval payload is not analysed", `eval rm *`, []string{"exec eval rm \"\\x00\""}},
		{"eval inside a substitution", "echo $(eval 'id')",
			[]string{"exec eval id via $(…)", "exec id via $(…),eval", "exec echo \"\\x00\""}},
		{"a trap action is analysed", "trap 'rm -rf /tmp/x' EXIT",
			[]string{"exec trap \"rm -rf /tmp/x\" EXIT", "exec rm -rf /tmp/x via trap"}},
		{"a trap reset is not code", "trap - EXIT; trap -p", []string{"exec trap - EXIT", "exec trap -p"}},
		{"an alias value is analysed where it is used", "alias ls='rm -rf ~' ll\nls",
			[]string{"exec alias \"ls=rm -rf ~\" ll", "exec ls", "exec rm -rf /home/u via alias ls"}},
	})
}

func TestAnalyzeNestedShells(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"bash -c payload is analysed", "bash -c 'rm -rf /'",
			[]string{"exec bash -c \"rm -rf /\"", "exec rm -rf / via bash -c"}},
		{"sh -c payload is analysed", "sh -c 'a | b'",
			[]string{"exec sh -c \"a | b\"", "exec a via sh -c", "exec b via sh -c"}},
		{"zsh, dash, ksh and guardsh payloads are analysed", "zsh -c a; dash -c b; ksh -c c; guardsh -c d",
			[]string{"exec zsh -c a", "exec a via zsh -c", "exec dash -c b", "exec b via dash -c",
				"exec ksh -c c", "exec c via ksh -c", "exec guardsh -c d", "exec d via guardsh -c"}},
		{"an absolute shell path is recognised", "/bin/bash -c 'rm x'",
			[]string{"exec /bin/bash -c \"rm x\"", "exec rm x via bash -c"}},
		{"clustered -lc is recognised", "bash -lc 'rm x'",
			[]string{"exec bash -lc \"rm x\"", "exec rm x via bash -c"}},
		{"clustered -ec is recognised", "sh -ec 'rm x'", []string{"exec sh -ec \"rm x\"", "exec rm x via sh -c"}},
		{"flags after -c are skipped", "bash -c -l 'rm x' name arg",
			[]string{"exec bash -c -l \"rm x\" name arg", "exec rm x via bash -c"}},
		{"an option argument is skipped", "bash -o pipefail -c 'rm x'",
			[]string{"exec bash -o pipefail -c \"rm x\"", "exec rm x via bash -c"}},
		{"long options are skipped", "bash --norc --noprofile -c 'rm x'",
			[]string{"exec bash --norc --noprofile -c \"rm x\"", "exec rm x via bash -c"}},
		{"a dynamic payload is not analysed", `bash -c "$CMD"`, []string{"exec bash -c \"\\x00\""}},
		{"a script file is not analysed", "bash script.sh", []string{"exec bash script.sh"}},
		{"a heredoc on a shell's stdin is analysed", "bash <<'EOF'\nrm -rf /\nEOF\n",
			[]string{"exec bash", "exec rm -rf / via bash <<"}},
		{"a here-string on a shell's stdin is analysed", "sh -s <<< 'rm x'",
			[]string{"exec sh -s", "exec rm x via sh <<<"}},
		{"a script on /dev/stdin reads the here-string", "bash /dev/stdin <<< 'rm x'",
			[]string{"exec bash /dev/stdin", "exec rm x via bash <<<"}},
		{"source of stdin reads the heredoc", ". /dev/stdin <<'E'\nrm x\nE\n",
			[]string{"exec . /dev/stdin", "exec rm x via . <<"}},
		{"echo piped into a shell is analysed", "echo 'rm -rf /' | sh",
			[]string{"exec echo \"rm -rf /\"", "exec sh", "exec rm -rf / via | sh"}},
		{"a cat heredoc piped into a shell is analysed", "cat <<'EOF' | sudo bash -s\nrm x\nEOF\n",
			[]string{"exec cat", "exec sudo bash -s", "exec bash -s via sudo", "exec rm x via sudo,| bash"}},
		{"the last stage of a longer pipe feeds the shell", "true | echo rm x | bash",
			[]string{"exec true", "exec echo rm x", "exec bash", "exec rm x via | bash"}},
		{"dynamic piped input is not analysed", "curl -s https://x | sh", []string{"exec curl -s https://x", "exec sh"}},
		{"a redirected stdin wins over the pipe", "echo rm x | sh < script", []string{"exec echo rm x", "read script", "exec sh"}},
		{"echo with options is not analysed", "echo -e 'rm\\x20x' | sh", []string{"exec echo -e \"rm\\\\x20x\"", "exec sh"}},
		{"a shell inside eval", `eval "bash -c 'rm x'"`,
			[]string{"exec eval \"bash -c 'rm x'\"", "exec bash -c \"rm x\" via eval", "exec rm x via eval,bash -c"}},
		{"a shell payload with a substitution", `sh -c 'echo $(id)'`,
			[]string{"exec sh -c \"echo $(id)\"", "exec id via sh -c,$(…)", "exec echo \"\\x00\" via sh -c"}},
		{"a busybox shell is recognised", "busybox sh -c 'rm x'",
			[]string{"exec busybox sh -c \"rm x\"", "exec rm x via sh -c"}},
	})
}

func TestAnalyzeWrappers(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"sudo runs its command", "sudo -u root rm -rf /",
			[]string{"exec sudo -u root rm -rf /", "exec rm -rf / via sudo"}},
		{"sudo bash -c is unwrapped twice", "sudo bash -c 'rm x'",
			[]string{"exec sudo bash -c \"rm x\"", "exec bash -c \"rm x\" via sudo", "exec rm x via sudo,bash -c"}},
		{"sudo -l runs nothing", "sudo -l", []string{"exec sudo -l"}},
		{"env assignments become Assigns of its command", "A=1 env -i -u C B=2 rm x",
			[]string{"exec {A=1} env -i -u C B=2 rm x", "exec {A=1 B=2} rm x via env"}},
		{"env options end at the first assignment", "env B=2 -u C rm x",
			[]string{"exec env B=2 -u C rm x", "exec {B=2} -u C rm x via env"}},
		{"timeout skips its duration", "timeout -s KILL 5 rm x",
			[]string{"exec timeout -s KILL 5 rm x", "exec rm x via timeout"}},
		{"nice and nohup run their command", "nohup nice -n 5 rm x",
			[]string{"exec nohup nice -n 5 rm x", "exec nice -n 5 rm x via nohup", "exec rm x via nohup,nice"}},
		{"command and exec run their command", "command rm x; exec rm y",
			[]string{"exec command rm x", "exec rm x via command", "exec exec rm y", "exec rm y via exec"}},
		{"command -v runs nothing", "command -v rm", []string{"exec command -v rm"}},
		{"xargs gets a hole for its input", "xargs rm -f", []string{"exec xargs rm -f", "exec rm -f \"\\x00\" via xargs"}},
		{"xargs -I replaces its string with a hole", "xargs -I{} mv {} /tmp",
			[]string{"exec xargs -I{} mv {} /tmp", "exec mv \"\\x00\" /tmp via xargs"}},
		{"xargs sh -c payload is analysed", "xargs -0 sh -c 'rm \"$1\"' _",
			[]string{"exec xargs -0 sh -c \"rm \\\"$1\\\"\" _", "exec sh -c \"rm \\\"$1\\\"\" _ \"\\x00\" via xargs", "exec rm \"\\x00\" via xargs,sh -c"}},
		{"find -exec runs its command with a hole for the path", "find . -name '*.tmp' -exec rm {} \\;",
			[]string{"exec find . -name \"*.tmp\" -exec rm {} \";\"", "exec rm \"./\\x00\" via find -exec"}},
		// "+" ends an action only right after "{}" (attack run 78).
		{"a + inside a find action's command", "find . -exec rm + -rf {} \\;",
			[]string{"exec find . -exec rm + -rf {} \";\"", "exec rm + -rf \"./\\x00\" via find -exec"}},
		{"several find actions each run", "find . -execdir sh -c 'x' \\; -ok rm {} +",
			[]string{"exec find . -execdir sh -c x \";\" -ok rm {} +", "exec sh -c x via find -execdir", "exec x via find -execdir,sh -c", "exec rm \"./\\x00\" via find -ok"}},
		{"a dynamic wrapper option stops unwrapping", "sudo $opt rm x", []string{"exec sudo \"\\x00\" rm x"}},
		{"env -S is split and unwrapped", "env --split-string='rm x' y; env -S 'rm x'",
			[]string{"exec env \"--split-string=rm x\" y", "exec rm x y via env", "exec env -S \"rm x\"", "exec rm x via env"}},
		{"attached option values are skipped", "stdbuf -oL nice -n5 sudo -uroot --preserve-env=A rm x",
			[]string{"exec stdbuf -oL nice -n5 sudo -uroot --preserve-env=A rm x", "exec nice -n5 sudo -uroot --preserve-env=A rm x via stdbuf",
				"exec sudo -uroot --preserve-env=A rm x via stdbuf,nice", "exec rm x via stdbuf,nice,sudo"}},
	})
}

func TestAnalyzeWords(t *testing.T) {
	runCases(t, Options{Home: "/home/u"}, []analyzeCase{
		{"empty quotes remove to nothing inside a word", "r''m", []string{"exec rm"}},
		{"double quotes are removed", `"r"m`, []string{"exec rm"}},
		{"a backslash is removed", `\rm`, []string{"exec rm"}},
		{"ANSI-C quoting is static", `$'r\x6d' $'a\tb' $'\u00e9'`, []string{"exec rm \"a\\tb\" é"}},
		{"locale quoting is a hole", `$"x"`, []string{"exec \"\\x00\""}},
		{"adjacent quotes join", `'a'"b"c`, []string{"exec abc"}},
		{"an empty quoted argument is kept", `echo ""`, []string{`exec echo ""`}},
		{"a parameter is a hole", `echo "$x"y`, []string{"exec echo \"\\x00y\""}},
		{"a partial hole keeps the literal", "cat /tmp/$x", []string{"exec cat \"/tmp/\\x00\""}},
		{"special parameters are holes", `echo $@ "$*" $1 ${#x}`, []string{"exec echo \"\\x00\" \"\\x00\" \"\\x00\" \"\\x00\""}},
		{"brace expansion yields several words", "echo {rm,-rf,x}", []string{"exec echo rm -rf x"}},
		{"brace expansion of a command name", "{rm,-rf,/}", []string{"exec rm -rf /"}},
		{"brace expansion with a suffix", "echo {a,b}c", []string{"exec echo ac bc"}},
		{"sequence expansion", "echo a{1..3}", []string{"exec echo a1 a2 a3"}},
		{"quoted braces do not expand", `echo "{a,b}" '{c,d}'`, []string{"exec echo {a,b} {c,d}"}},
		{"a glob keeps its literal parts", "rm *.go", []string{"exec rm \"\\x00.go\""}},
		{"a question mark glob keeps its literal parts", "rm a?c", []string{"exec rm \"a\\x00c\""}},
		{"a glob under a directory keeps the directory", "cat ~/.ssh/*", []string{"exec cat \"/home/u/.ssh/\\x00\""}},
		{"a bracket glob is one hole", "rm [ab]c", []string{"exec rm \"\\x00c\""}},
		{"a quoted glob is literal", `rm '*.go' "a?" \*`, []string{"exec rm \"*.go\" \"a?\" \"*\""}},
		{"an extglob is a whole hole", "rm @(a|b)", []string{"exec rm \"\\x00\""}},
		{"a lone bracket is not a glob", "[ -f x ]", []string{"exec [ -f x ]"}},
		{"tilde is home", "ls ~ ~/x", []string{"exec ls /home/u /home/u/x"}},
		{"tilde after a brace expansion is home", "ls {a,~}", []string{"exec ls a /home/u"}},
		{"another user's home is a hole", "ls ~root/x ~+", []string{"exec ls \"\\x00/x\" \"\\x00\""}},
		{"a quoted tilde is literal", `ls "~" '~'/x`, []string{"exec ls ~ ~/x"}},
		{"tilde in an assignment-like argument expands", "make PREFIX=~/x", []string{"exec make PREFIX=/home/u/x"}},
		{"tilde after an option equals sign does not expand", "cmd --dir=~/x", []string{"exec cmd --dir=~/x"}},
		{"command substitution in a word is a hole", "echo a$(b)c", []string{"exec b via $(…)", "exec echo \"a\\x00c\""}},
	})
}

func TestAnalyzeTildeWithoutHome(t *testing.T) {
	runCases(t, Options{}, []analyzeCase{
		{"tilde without a home is a hole", "ls ~/x", []string{"exec ls \"\\x00/x\""}},
		{"tilde in an assignment without a home is a hole", "P=~/x", []string{"exec {\"P=\\x00/x\"}"}},
	})
}

func TestAnalyzeLinesAndColumns(t *testing.T) {
	src := "a\n" +
		"b $(\n" +
		"  c\n" +
		")\n" +
		"eval \\\n" +
		"  'd\n" +
		"e' > out\n" +
		"cat <<EOF\n" +
		"$(f)\n" +
		"EOF\n" +
		"bash -c 'g\n" +
		"h'\n"
	segs, err := Analyze(src, home)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range segs {
		got = append(got, fmt.Sprintf("%d:%d %s", s.Line, s.Col, render(s)))
	}
	want := []string{
		"1:1 exec a",
		"3:3 exec c via $(…)",
		"2:1 exec b \"\\x00\"",
		"7:4 write out",
		"5:1 exec eval \"d\\ne\"",
		"6:3 exec d via eval",
		"6:3 exec e via eval",
		"9:3 exec f via $(…)",
		"8:1 exec cat",
		"11:1 exec bash -c \"g\\nh\"",
		"11:9 exec g via bash -c",
		"11:9 exec h via bash -c",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines:\n got  %q\n want %q", got, want)
	}
}

func TestAnalyzeSources(t *testing.T) {
	segs, err := Analyze(`A="x y" echo {a,b}'c d' "$x" > ~/out`, home)
	if err != nil {
		t.Fatal(err)
	}
	want := []Segment{
		{Kind: Write, Args: []Word{{Value: "/home/u/out", Source: "~/out"}}, Line: 1, Col: 30},
		{Kind: Exec, Line: 1, Col: 1,
			Assigns: []Word{{Value: "A=x y", Source: `A="x y"`}},
			Args: []Word{
				{Value: "echo", Source: "echo"},
				{Value: "ac d", Source: "{a,b}'c d'"},
				{Value: "bc d", Source: "{a,b}'c d'"},
				{Value: Hole, Source: `"$x"`},
			}},
	}
	if !reflect.DeepEqual(segs, want) {
		t.Errorf("got  %#v\nwant %#v", segs, want)
	}
	if got := segs[1].String(); got != `'A=x y' echo 'ac d' 'bc d' "$x"` {
		t.Errorf("String() = %q", got)
	}
}

func TestAnalyzeFailsClosed(t *testing.T) {
	// eval joins its arguments, so each level peels one "eval" off:
	// 20 levels in linear size.
	deepEval := strings.Repeat("eval ", 20) + "rm x"
	// The quoted form doubles its backslashes per level; 6 levels of it.
	quotedEval := "rm x"
	for range 6 {
		quotedEval = "eval " + strconv.Quote(quotedEval)
	}
	cases := []struct {
		name string
		src  string
		opt  Options
		line int
		col  int
		want string
	}{
		{"a raw carriage return is refused", "A=x\recho ./payload.sh", home, 1, 4, "raw carriage return"},
		{"a carriage return inside quotes is refused", "echo 'a\r'", home, 1, 8, "raw carriage return"},
		{"a NUL byte is refused", "echo a\x00b", home, 1, 7, "NUL byte"},
		{"an unterminated quote is refused", `echo "unterminated`, home, 1, 6, "incomplete command"},
		{"an unfinished if is refused", "if true; then", home, 1, 10, "incomplete command"},
		{"a syntax error is refused", "echo )", home, 1, 6, "parse error"},
		{"an error on a later line is located", "a\nb\nfi", home, 3, 1, "parse error"},
		{"a 17 MiB text is refused", "echo " + strings.Repeat("a", 17<<20), home, 1, 1, "over the 16777216-byte limit"},
		{"a 2 MiB command is refused", "echo " + strings.Repeat("a", 2<<20), home, 1, 1, "one command is over 1048576 bytes"},
		{"a 2 MiB command after others is located", "echo a\necho b\n" + "echo " + strings.Repeat("a", 2<<20), home, 3, 1, "one command is over 1048576 bytes"},
		{"an eval depth bomb is refused", deepEval, home, 1, 6, "nested deeper than 8 levels"},
		{"a quoted eval depth bomb is refused", quotedEval, Options{MaxDepth: 4}, 1, 6, "nested deeper than 4 levels"},
		{"a lower MaxDepth is honoured", "eval \"eval 'eval x'\"", Options{MaxDepth: 1}, 1, 6, "nested deeper than 1 levels"},
		{"an eval payload that does not parse is refused", "eval 'echo )'", home, 1, 6, "eval payload: line 1 col 6: parse error"},
		{"a shell payload that does not parse is refused", "ls\nbash -c 'if'", home, 2, 9, "bash -c payload"},
		{"a carriage return made by ANSI-C quoting in eval is refused", `eval $'rm x\r'`, home, 1, 6, "raw carriage return"},
		{"deep bracket nesting is refused", strings.Repeat("(", 5000) + strings.Repeat(")", 5000), home, 1, 1001, "brackets nested deeper"},
		{"a long run of bangs is refused", "[[ " + strings.Repeat("! ", 1000) + "a ]]", home, 1, 516, "\"!\" in a row"},
		{"a brace bomb is refused", "echo {1..100}{1..100}{1..100}", home, 1, 6, "cannot expand word"},
		{"too many brace words are refused", strings.Repeat("echo {1..5000}\n", 4), home, 4, 6, "expansion too large"},
		{"too many words are refused", strings.Repeat("echo "+strings.Repeat("a ", 50000)+"\n", 6), home, 6, 24282, "expansion too large"},
		// What bash reads its script from (attack run 29: a read there
		// took the next command's first line, and bash ran a
		// here-document's body as code; `exec 255<F` would switch files).
		{"a read of the script's descriptor is refused", "read -r -u 255 x", home, 1, 1, "read -u with a descriptor bash may read its script from"},
		{"a glued -u is read", "read -ru254 x", home, 1, 1, "read -u with a descriptor"},
		{"mapfile -u too", "mapfile -t -u 250 lines", home, 1, 1, "mapfile -u with a descriptor"},
		{"a run-time -u is refused", `read -u "$fd" x`, home, 1, 1, "read -u with a descriptor"},
		{"a duplication of the script's descriptor is refused", "cat <&255", home, 1, 5, "duplication of a descriptor bash may read its script from"},
		{"a dynamic fd target is refused", "cmd >&$fd", home, 1, 5, "or of one only known at run time"},
		{"a dup onto stdin from a run-time fd is refused", "read -u 3 x 3>&$fd", home, 1, 14, "only known at run time"},
		{"replacing the script's descriptor is refused", "exec 255<other.sh", home, 1, 9, "redirection of descriptor 255"},
		{"a read in a shell reading its script from stdin is refused", "bash <<'EOS'\nread -r x\ncat <<X\nrm -rf /\nX\nEOS", home, 1, 6, "read in a shell that reads its script from standard input"},
		{"read -u 0 there too", "bash <<'EOS'\nread -u 0 x\nEOS", home, 1, 6, "read in a shell that reads its script from standard input"},
		{"a copy of its stdin too", "bash <<'EOS'\nexec 3<&0; read -u 3 x\nEOS", home, 1, 6, "read in a shell that reads its script from standard input"},
		{"a duplication of stdin too", "bash <<'EOS'\nread x <&0\nEOS", home, 1, 6, "read in a shell that reads its script from standard input"},
		{"a -u of +255 is refused", "read -r -u +255 x", home, 1, 1, "read -u with a descriptor"},
		{"a -u of ' 255' is refused", "read -r -u ' 255' x", home, 1, 1, "read -u with a descriptor"},
		{"a here-document onto the script's descriptor is refused", "exec 255<<<'cat x'", home, 1, 9, "redirection of descriptor 255"},
		{"comments off in an interactive shell are refused", "shopt -u interactive_comments", home, 1, 1, "interactive_comments"},
		{"set +o interactive-comments too", "set +o interactive-comments", home, 1, 1, "interactive-comments"},
		{"a read of descriptor 10 is refused (bash's saved copy of its script)", "{ read -u 10 x; } 255>/dev/null", home, 1, 3, "read -u with a descriptor"},
		{"a duplication of 10 too", "cat <&10", home, 1, 5, "duplication of a descriptor"},
		{"select in a shell reading its script from stdin is refused", "bash <<'OUT'\nselect x in a; do break; done\nOUT", home, 1, 6, "select in a shell that reads its script from standard input"},
		{"a nested shell's -O extglob is refused", "bash -O extglob -c 'cat ~/.ssh/@(id_rsa)'", home, 1, 1, "-O extglob would make bash run something other"},
		{"its +O sourcepath too", "bash +O sourcepath -c 'source x'", home, 1, 1, "+O sourcepath"},
		{"set -o posix is refused", "set -o posix", home, 1, 1, "-o posix would make bash run something other"},
		{"shopt -s -o posix is refused", "shopt -s -o posix", home, 1, 1, "shopt -o posix"},
		{"bash --posix is refused", "bash --posix -c 'ls'", home, 1, 1, "--posix"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			segs, err := Analyze(tc.src, tc.opt)
			var nu *NotUnderstood
			if !errors.As(err, &nu) {
				t.Fatalf("Analyze: err = %v (%T), segs = %d; want *NotUnderstood", err, err, len(segs))
			}
			if segs != nil {
				t.Errorf("segments returned with an error: %v", renderAll(segs))
			}
			if nu.Line != tc.line || nu.Col != tc.col || !strings.Contains(nu.Reason, tc.want) {
				t.Errorf("got %q (line %d col %d), want line %d col %d containing %q", nu.Error(), nu.Line, nu.Col, tc.line, tc.col, tc.want)
			}
			if !strings.HasPrefix(nu.Error(), fmt.Sprintf("line %d col %d: ", nu.Line, nu.Col)) {
				t.Errorf("Error() = %q", nu.Error())
			}
		})
	}
}

// TestNestedScriptDescriptors: in a script a nested bash reads from a
// file, any descriptor from 3 up may be the script's (a command opening
// 246 descriptors first put it on 9: attack run 30), so reading or
// replacing one is not understood there, while the same text run by
// guardsh's own bash (-c: bash keeps its own descriptors at 10 and up) is read.
func TestNestedScriptDescriptors(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"read9.sh": "read -r -u 9 x\necho hi\n",
		"dup9.sh":  "cat <&9\n",
		"swap9.sh": "exec 9<other.sh\n",
		"hdoc9.sh": "exec 9<<EOF\ncat x\nEOF\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var nu *NotUnderstood
		if _, err := Analyze("bash "+p, Options{Home: "/home/u", Dir: dir}); !errors.As(err, &nu) {
			t.Errorf("bash %s: err = %v, want not understood", name, err)
		}
		if _, err := Analyze(text, Options{Home: "/home/u", Dir: dir}); err != nil {
			t.Errorf("%s as -c text: %v", name, err)
		}
	}
}

// TestAnalyzeLongScript checks that a script over MaxTextSize is analysed
// command by command as one script: a function defined in the first MiB
// runs its body when called in the third, and positions count the lines of
// the whole text.
func TestAnalyzeLongScript(t *testing.T) {
	filler := benchdata.Script(5 << 19)
	src := "wipe() { rm -rf \"$HOME\"; }\n" + filler + "cat <<EOF > out\n$(shred /tmp/heredoc)\nEOF\n" + filler + "wipe\ncat ~/.ssh/id_rsa\n"
	if len(src) <= MaxTextSize*2 {
		t.Fatalf("text is only %d bytes", len(src))
	}
	segs, err := Analyze(src, Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(src, "\n")
	var rm, cat, shred *Segment
	for i := range segs {
		switch s := &segs[i]; {
		case s.Kind == Exec && len(s.Args) > 1 && s.Args[0].Value == "shred":
			shred = s
		case s.Kind == Exec && len(s.Args) > 0 && s.Args[0].Value == "rm":
			rm = s
		case s.Kind == Exec && len(s.Args) > 1 && s.Args[0].Value == "cat" && s.Args[1].Value == "/home/u/.ssh/id_rsa":
			cat = s
		}
	}
	if rm == nil || rm.Args[len(rm.Args)-1].Value != "/home/u" {
		t.Errorf("the function's rm -rf \"$HOME\" was not found: %+v", rm)
	}
	if cat == nil || cat.Line != lines {
		t.Errorf("cat ~/.ssh/id_rsa should be at line %d: %+v", lines, cat)
	}
	if shred == nil || shred.Args[1].Value != "/tmp/heredoc" {
		t.Errorf("the command substitution in the here-document was not found: %+v", shred)
	}
	if rm != nil && rm.Line != lines-1 && rm.Line != 1 {
		t.Errorf("rm is at line %d, want the call (%d) or the definition (1)", rm.Line, lines-1)
	}
}

func TestAnalyzeLargeTextsInBoundedTime(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	big := func(unit, tail string) string {
		return strings.Repeat(unit, (MaxTextSize-len(tail)-8)/len(unit)) + tail
	}
	cases := []struct{ name, src string }{
		{"a long pipeline", big("a|", "a")},
		{"many commands", big("echo a b c\n", "")},
		{"a long test chain", "[[ " + big("a&&", "a ]]")},
		{"a big heredoc", "cat <<'EOF' > f\n" + big("some text (with brackets) and $signs\n", "EOF\n")},
		{"a long arithmetic chain", "echo $((" + big("1+", "1))")},
		// Over MaxTextSize the text is split into commands and a chain
		// longer than that is one command: refused, never parsed whole.
		{"a chain of 4 MiB", "[[ " + strings.Repeat("a&&", 4*MaxTextSize/3) + "a ]]"},
		{"a pipeline of 4 MiB", strings.Repeat("a|", 2*MaxTextSize) + "a"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Analyze(tc.src, home)
			var nu *NotUnderstood
			if err != nil && !errors.As(err, &nu) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}
