package interp

import (
	"reflect"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
	"mvdan.cc/sh/v3/syntax"
)

// fastPathTexts are texts whose words, commands and arithmetic exercise
// the fast paths of the analysis (holedValue, the mayKeep and
// mayAssignArith checks) and their edges.
var fastPathTexts = []string{
	`test -f "$f" && wc -l "$f" >> "build/$x-counts.txt"`,
	`echo "a $(b) c" x"$y"'z' "${a[@]}" "$@" "$*" "${#x}" "${x:-y}" "${x/a/b}"`,
	`echo "$x\$y" "\"$x\"" \"$x\" ~/"$x" "$x"~ $x~ x"$y"* "$x"{a,b} $x{a,b} "${x@P}" $"t$x"`,
	`echo $x'' ''$x "" '' $'a'"$x" "$x"$'\t' "$(( 1 + x ))" $((y)) <(p)"$q" "$(a)$(b)" '$x'`,
	`x=~/"$y" y="$a":~ z="$(b)"/c w+="$v" a[$i]="$j"; declare q="$r" s=$t; [[ "$a" == "$b"* ]]`,
	`cat <<< "$x"; cat <<< $y; cat > "$out" < "$in"; echo "$(( i++ ))" $((j+=2)) "${a[k=1]}" ${b:n++:1}`,
	`echo $(( x = 1 )); echo $(let y=2) $(for ((i=0;i<1;i++)); do :; done) "$[z=3]" ${a[w--]}`,
	"echo $(l\\\net q=1) x=1 $(( a \\\n= 1 ))",
	`echo ${a[i++]}; echo $[x+=1]; echo ${s:n--:1}; a[i<<=1]=x; echo $(let q=1); echo -- a=b [c]`,
	`CMD=curl; $CMD "$URL"; P=~/.ssh; cat "$P/id_rsa" $P; echo "${V:-rm}" ${IFS} "$HOME"`,
	`for f in a b; do echo "$f"; done; case "$x" in "$y") echo "$z";; esac`,
	`eval "echo \"$x\""; bash -c "rm \"$f\""; sudo -u "$u" rm "$f"; xargs -I{} sh -c 'echo "$1"' _ {}`,
	`printf -v "$n" '%s' "$v"; echo "${x:-'$(y)'}"; echo "$(echo "$(id)")"`,
	`[ -f "$x" ]; [ a = b ]; echo [ "[" a[ [$x ]$y[ "[$z]" [$a"]" x=[ x=[a]; [[ a == [ ]]; cat <<< [`,
}

// fastPathInputs are the texts both ways of the analysis are compared on:
// the fuzz seeds, the shared corpus, fastPathTexts and the benchmarks'
// scripts.
func fastPathInputs(t testing.TB) []string {
	in := append([]string(nil), analyzeSeeds...)
	in = append(in, fastPathTexts...)
	for _, file := range []string{"agent-commands.jsonl", "bypass-commands.jsonl", "invocations.jsonl"} {
		in = append(in, corpus(t, file)...)
	}
	return append(in, benchLine, benchdata.CIScript(), benchdata.Snapshot(), benchdata.Script(64<<10),
		strings.Repeat("if [ -f x ]; then cp x \"y/$z\" && echo ok >> log; fi\n", 200))
}

// compareWithGeneral analyses src with and without the fast paths and
// fails if the segments or the error differ.
func compareWithGeneral(t *testing.T, src string, opt Options) {
	t.Helper()
	fast, ferr := Analyze(src, opt)
	opt.general = true
	general, gerr := Analyze(src, opt)
	if (ferr == nil) != (gerr == nil) || (ferr != nil && ferr.Error() != gerr.Error()) {
		t.Fatalf("%q: error %v with the fast paths, %v without", src, ferr, gerr)
	}
	if !reflect.DeepEqual(fast, general) {
		for i := range min(len(fast), len(general)) {
			if !reflect.DeepEqual(fast[i], general[i]) {
				t.Fatalf("%q: segment %d is\n%+v with the fast paths,\n%+v without", src, i, fast[i], general[i])
			}
		}
		t.Fatalf("%q: %d segments with the fast paths, %d without", src, len(fast), len(general))
	}
}

// TestFastPathsMatchGeneral checks that the fast paths change nothing the
// analysis returns, on every text the tests know and with and without
// HOME and a changed directory.
func TestFastPathsMatchGeneral(t *testing.T) {
	for _, src := range fastPathInputs(t) {
		compareWithGeneral(t, src, Options{Home: "/home/u"})
		compareWithGeneral(t, src, Options{DirChanged: true, MaxDepth: 3})
	}
}

// FuzzFastPaths compares the analysis with and without its fast paths on
// any text (go test -fuzz FuzzFastPaths ./interp).
func FuzzFastPaths(f *testing.F) {
	for _, s := range analyzeSeeds {
		f.Add(s)
	}
	for _, s := range fastPathTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compareWithGeneral(t, src, Options{Home: "/home/u", MaxDepth: 4})
	})
}

// TestHoledValueMatchesExpand checks holedValue word by word against the
// general path (prepParts and expand), for fields and literal resolution,
// and that it declines what only expand resolves.
func TestHoledValueMatchesExpand(t *testing.T) {
	words := []struct {
		src  string
		fast bool // holedValue resolves it
	}{
		{`"$f"`, true}, {`"a $(b) c"`, true}, {`x"$y"'z'`, true}, {`"${a[@]}"`, true}, {`"$@"`, true},
		{`$x$y`, true}, {`""$x`, true}, {`"$((1+2))"`, true}, {`<(a)b`, true}, {`"$x"/'$y'`, true},
		{`"${x:-$(y)}"`, true}, {`a=b"$c"`, true}, {`"a\$b"`, false}, {`\"$x`, false}, {`~/"$x"`, false},
		{`$x~`, false}, {`"$x"*`, false}, {`$x{a,b}`, false}, {`"${x@P}"`, false}, {`$"t$x"`, false},
		{`$'a'"$x"`, false}, {`"$x"?`, false}, {`[$x]`, false}, {`a=~"$x"`, false},
		{`[`, true}, {`[$x`, true}, {`"$x"[`, true}, {`'['$x`, true}, {`]$x[`, false}, {`[a]`, false},
		{`a[$x"]"`, false}, {`[$x']'`, false}, {`a[`, true},
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for _, w := range words {
		f, err := p.Parse(strings.NewReader("echo "+w.src), "")
		if err != nil {
			t.Fatalf("%s: %v", w.src, err)
		}
		word := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		v, ok := holedValue(word.Parts)
		if ok != w.fast {
			t.Errorf("%s: holedValue resolves it: %v, want %v", w.src, ok, w.fast)
		}
		if !ok {
			continue
		}
		var b budget
		r := newResolver("/home/u", &b, true)
		fields, err := r.fields(word, w.src, nil, false)
		if err != nil || len(fields) != 1 || fields[0].Value != v {
			t.Errorf("%s: holedValue %q, fields %+v (%v)", w.src, v, fields, err)
		}
		lit, err := r.literal(word, false)
		if err != nil || lit != v {
			t.Errorf("%s: holedValue %q, literal %q (%v)", w.src, v, lit, err)
		}
	}
}

// TestMayAssignArithFindsEveryAssignment checks the cheap text test of
// arithmAssigned on commands that do assign in arithmetic.
func TestMayAssignArithFindsEveryAssignment(t *testing.T) {
	for _, src := range []string{
		`echo $((x=1))`, `echo $[x+=1]`, `echo ${a[i++]}`, `echo ${s:n--:1}`, `a[i<<=1]=x`,
		`echo $(let y=2)`, `echo $( ((z++)) )`, `echo $(for ((i=0;i<1;i++)); do :; done)`,
		"echo $(l\\\net q=1)", `x=$((n*=2)) cmd`, `echo "$(( a |= 4 ))"`,
	} {
		a := &analyzer{opt: Options{general: true}}
		f, _, _, err := a.parse(src, false)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		c := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if names := a.arithmAssigned(c, &frame{src: src}); len(names) == 0 {
			t.Fatalf("%q: no assignment found by the walk", src)
		}
		if !mayAssignArith(src, c) {
			t.Errorf("%q: the text test skips an arithmetic assignment", src)
		}
	}
}

// TestMaySubscriptFindsEverySubscript checks the cheap text test of
// checkReading: every text whose tree holds an arithmetic subscript
// passes it, and the single quotes in them are still refused.
func TestMaySubscriptFindsEverySubscript(t *testing.T) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for _, src := range []string{
		"a=([ 1 ]=x)", "a=([1] =x)", "a=( [1]= x)", "declare a[1]", "a[ 1 ]=x", "local -a b[2]",
		"x=([k]=v)", "a=([1]\\\n=x)", "export a[1]=x", "declare -A m=(['k']=1)", "a[1]+=x", "typeset c[3]",
		"readonly d[4]", "echo $[1]", "a+=([2]=y)", "nameref e[5]", "echo $(declare f[6])",
	} {
		f, err := p.Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		subscript := false
		syntax.Walk(f, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Assign:
				subscript = subscript || n.Index != nil
			case *syntax.ArrayElem:
				subscript = subscript || n.Index != nil
			case *syntax.ArithmExp:
				subscript = true
			}
			return true
		})
		if !subscript {
			t.Fatalf("%q: no subscript in the tree", src)
		}
		if !maySubscript(src) {
			t.Errorf("%q: the text test skips a subscript", src)
		}
		quoted := strings.Replace(src, "[", "['$(x)'+", 1)
		if _, err := Analyze(quoted, Options{}); err == nil || !strings.Contains(err.Error(), "single quotes") {
			t.Errorf("%q: %v, want single quotes refused", quoted, err)
		}
	}
}
