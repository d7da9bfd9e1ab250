package interp

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// loopBodySeeds are loop bodies in the shapes loopBody reads and in those
// it leaves to syntax.Walk: every node loopBodyNode refuses, in each place
// a word can be (arguments, assignments, redirections, here-documents,
// double quotes, && and || lists), next to the ones it accepts.
func loopBodySeeds() []string {
	bodies := []string{
		`cat "$f"`, `cat $f ${f} "${f}x" 'q' "a$f" pre$f`, `test -f "$f" && wc -l "$f" >> build/c.txt`,
		`f=x`, `x=1 cat $f`, `a=$f b="$f" cat`, `a[1]=x cat`, `a=(x y) cat`, `a[$((f=1))]=x cat`, `a=(${f:=1}) cat`, `a=([k]=$(f=1)) cat`, `f+=x`,
		`: ${f:=x}`, `: "${f=x}"`, `: ${f:-x}`, `: ${!f}`, `: ${#f} ${f%x} ${f/a/b} ${f:1:2} ${f[1]}`,
		`echo $((f=1))`, `((f++))`, `let f=1`, `declare f`, `local -n r=f`, `export f`, `g() { :; }`,
		`coproc f { :; }`, `for ((i=0;i<1;i++)); do :; done`, `for f in a; do :; done`, `for g in a; do :; done`,
		`read f`, `mapfile f`, `readarray f`, `getopts ab f`, `unset f`, `wait -p f`, `printf -v f x`, `printf %s x`,
		`eval x`, `source x`, `. x`, `builtin cd`, `command ls`, `exec ls`, `select f in a; do :; done`,
		`enable -n cd`, `hash -p /x ls`, `trap x EXIT`, `$f`, `"$cmd" x`, `"ls" x`, `l's' x`, `$(echo ls) x`,
		"`ls` x", `ll x`, `g x`, `cat <(ls) >(ls)`, `cat $(ls) "$(echo $f)"`, "cat <<E\n$f ${f:=x}\nE",
		"cat <<'E'\n$f\nE", `cat <<< "$f" 2>/dev/null >&2 <x`, `> $f`, `cat > "${f:=y}"`, `cat < ${!f}`,
		`a && b || c`, `a && { f=1; }`, `a || (f=1)`, `! cat x | grep y`, `if x; then f=1; fi`, `while read f; do :; done`,
		`case $f in a) f=1;; esac`, `[[ $f == x ]]`, `[[ -v f ]]`, `time cat x`, `cat @(a|b) x{a,b}`, `cat ~/$f ~u/x`,
		`cat $"x"`, `cat $'x'`, `echo "$((1+2))"`, `echo "$(f=1)"`, `x=$(( f = 2 )) cat`, `cat ${f@P}`, `cat "${f[@]}"`,
		`: ${x:-${f:=y}} ${x#$((f=1))}`, `: "${x:+${!f}}"`, `: ${x[$((f=1))]}`, `: ${x/${f=1}/b}`, `: ${x:${f:=1}:1}`,
		"cat x # f=1", "", ";", `cat x &`, `cat x; f=1`, `cat x; cat y; cat z`, "cat`echo`",
	}
	seeds := append([]string{}, bodies...)
	for _, b := range bodies {
		seeds = append(seeds, "for f in a b; do "+b+"; done", "a && "+b+" || c", "cat \""+strings.ReplaceAll(b, `"`, `\"`)+"\"")
	}
	seeds = append(seeds, analyzeSeeds...)
	return append(seeds, fastPathTexts...)
}

// compareLoopBody compares loopBodyKeeps with loopBodyWalk on each list
// of statements of src (the whole text and every loop's body), for a few
// names and with functions and aliases known or not. It returns how many
// comparisons loopBody decided on its own (without loopBodyWalk).
func compareLoopBody(t *testing.T, src string) (fast int) {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return 0
	}
	lists := [][]*syntax.Stmt{f.Stmts}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ForClause:
			lists = append(lists, n.Do)
		case *syntax.WhileClause:
			lists = append(lists, n.Do)
		case *syntax.Block:
			lists = append(lists, n.Stmts)
		}
		return true
	})
	analyzers := []*analyzer{{}, {funcs: map[string]funcDef{"g": {}}, aliases: map[string]string{"ll": "ls -l"}}}
	for _, a := range analyzers {
		for _, name := range []string{"f", "x", "cat", "g"} {
			for _, do := range lists {
				got, want := a.loopBodyKeeps(name, do), a.loopBodyWalk(name, do)
				if got != want {
					t.Fatalf("loopBodyKeeps(%q) = %v, loopBodyWalk %v, in %q (functions %v, aliases %v)", name, got, want, src, a.funcs, a.aliases)
				}
				read := true
				for _, st := range do {
					read = read && (loopBody{a: a, name: name}).stmt(st) != bodyUnread
				}
				if read {
					fast++
				}
			}
		}
	}
	return fast
}

// TestLoopBodyAsWalk checks loopBody's reading of a loop's body against
// syntax.Walk's on the seeds and on each seed with one byte changed, and
// that loopBody reads most of the seeds by itself (else the test would
// only compare loopBodyWalk with itself).
func TestLoopBodyAsWalk(t *testing.T) {
	fast, all := 0, 0
	for _, src := range loopBodySeeds() {
		fast += compareLoopBody(t, src)
		all++
	}
	if fast < all {
		t.Fatalf("loopBody read %d lists of statements of %d seeds without syntax.Walk: want at least one a seed", fast, all)
	}
	for _, src := range loopBodySeeds()[:120] {
		for _, c := range []byte(" \t\n;&|<>(){}[]`!$=:+-\"'#fx") {
			for _, at := range []int{0, len(src) / 3, len(src) / 2, len(src) - 1} {
				if at >= 0 && at < len(src) {
					compareLoopBody(t, src[:at]+string(c)+src[at+1:])
				}
			}
		}
	}
}

// FuzzLoopBody compares loopBodyKeeps with loopBodyWalk on any text.
func FuzzLoopBody(f *testing.F) {
	for _, s := range loopBodySeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compareLoopBody(t, src)
	})
}
