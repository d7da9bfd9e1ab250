package interp

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzAnalyze checks that any text either yields segments or a
// *NotUnderstood, never panics, and takes bounded time; and that the
// segments are well formed.
func FuzzAnalyze(f *testing.F) {
	for _, s := range analyzeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		segs, err := Analyze(src, Options{Home: "/home/u", MaxDepth: 4})
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("Analyze took %v on %d bytes", d, len(src))
		}
		if err != nil {
			var nu *NotUnderstood
			if !errors.As(err, &nu) {
				t.Fatalf("error %v is %T, not *NotUnderstood", err, err)
			}
			if segs != nil {
				t.Fatalf("segments returned with an error")
			}
			if nu.Line < 1 || nu.Col < 1 || nu.Reason == "" {
				t.Fatalf("bad position or reason: %+v", nu)
			}
			if strings.Contains(nu.Reason, "internal error") {
				t.Fatalf("internal error: %v", nu)
			}
			return
		}
		lines := strings.Count(src, "\n") + 1
		for _, s := range segs {
			switch s.Kind {
			case Exec:
			case Write, Read:
				if len(s.Args) != 1 {
					t.Fatalf("%s segment with %d args", s.Kind, len(s.Args))
				}
			default:
				t.Fatalf("unknown kind %q", s.Kind)
			}
			if s.Line < 1 || s.Line > lines || s.Col < 1 {
				t.Fatalf("line %d col %d outside 1..%d: %v", s.Line, s.Col, lines, s)
			}
			if s.Kind == Exec && len(s.Args) == 0 && len(s.Assigns) == 0 {
				t.Fatalf("empty exec segment")
			}
			_ = s.String()
		}
	})
}

// analyzeSeeds are the seed texts of the fuzz tests: one or more of every
// construct the analysis handles, and texts it must refuse.
var analyzeSeeds = []string{
	"", "git status", "a && b || c | d & e; f",
	"echo $(rm -rf /) `id` <(a) >(b) $((1+$(c))) ${x:-$(y)}",
	"cat <<EOF\n$(whoami)\nEOF\n", "cat <<'EOF'\n$(x)\nEOF\n", "bash <<< 'rm x'",
	"eval 'eval \"rm x\"'", "bash -lc 'a; b' && sh -c -l 'x'", "sudo -u r env A=1 xargs -I{} sh -c 'rm {}'",
	"find . -exec rm {} \\; -ok sh -c 'x' +", "trap 'rm f' EXIT",
	"A=1 B=$x export C=~/x:~ D", "declare -a a=(1 $(b) [2]=c)", "a[$(x)]=1 b+=(y)",
	"[[ -f $(a) && ! ( b == c* ) ]]", "(( i = $(a) + 1 ))", "let 'a[$(id)]=1'",
	"for ((i=0;i<3;i++)); do echo > f$i; cd ..; done", "f() { cd /; }; echo > x",
	"r''m \"r\"m \\rm $'r\\x6d' $\"x\" {a,b}c a{1..3} *.go @(a|b) ~root {a,~}",
	"echo > out 2>&1 >&2 &>all >&file <in <>rw 3>&- >>app >|clob <&0",
	"echo \"unterminated", "if true; then", "a\rb", "a\x00b", "echo {1..100}{1..100}{1..100}",
	"case $x in a) b;; *) c;; esac", "coproc x; time y; ! z", "select a in b; do c; done",
	"cmd $'\\cA\\x41\\u00e9\\0z'", "exec 3<>/dev/tcp/h/1", "> f", "x=$(", "echo ${", "`",
	"echo hi #\\\ntouch x", "echo \"$\\\n(x)\" ls \\\n -l", "echo \"${x:-'$(y)'}\" $(( 'z' ))",
	"cat <<E\nhi\n\\\nE\ny\nE\n", "$'\\x{74}\\c\\\\\\uD800'", "sh -c '((x))'; dash <<E\n((y))\nE\n",
	"echo > /proc/self/cwd/x < /dev/fd/3 2</etc/p 1>&5", "for PS4 in a; do :; done; select x; do :; done",
	"echo ${x@P} $\"y\" ${z:-<(w)}; eval \"$v\"; trap \"$t\" EXIT; . \"$f\"",
	"TAGS=\"$((echo HEAD && git tag) | xargs)\"; ((a) | b); $((x)|(y)) $((1)+(2)) `$((c) )`",
	"env -S'-i A=1 sh -c \\'x\\'' -C / y; su - r -c 'a;b'; runuser -u u -- x; flock f -c 'z'",
	"sudo -s 'a;b' && sudo -i; ssh -o ProxyCommand='nc %h' h -t 'c'; docker run --entrypoint sh i -c d",
	"git -c alias.a=b -c alias.b='!c \"$1\"' a x; tar --to-c='y' -I z; tmux new -d 'q' \\; send 'r' Enter",
	"parallel 'e {} {.}' ::: a; watch -n1 'p|q'; kubectl exec p -- s; strace -o '|t' -E A=1 u",
}
