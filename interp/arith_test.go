package interp

import (
	"strings"
	"testing"
)

// TestArithmeticOnRunTimeValues checks which texts evaluate, as
// arithmetic or as a variable's name, a value the analysis cannot vouch
// for (a RunsCode segment whose Arith names it), from the ways bash was
// seen to run x='a[$(cmd)]' here (attack runs 36 and 39), and which
// values it knows to be safe.
func TestArithmeticOnRunTimeValues(t *testing.T) {
	env := map[string]string{"N": "5", "EVIL": "a[$(id)]", "NAME": "N", "BAD": "EVIL"}
	opt := Options{Home: "/h", Env: func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}}
	for _, c := range []struct {
		src  string
		runs bool
	}{
		// Values only known at run time.
		{`x=$(cat f); : $((x))`, true},
		{`x=$(cat f); : $(($x))`, true},
		{`x=$(cat f); : ${a[x]}`, true},
		{`x=$(cat f); a=(1); : ${a[$x]}`, true},
		{`x=$(cat f); [[ $x -eq 1 ]]`, true},
		{`x=$(cat f); [[ x -lt 1 ]]`, true},
		{`x=$(cat f); [[ -v $x ]]`, true},
		{`x=$(cat f); declare -i y; y=$x`, true},
		{`declare -i y; y=$(cat f)`, true},
		{`x=$(cat f); test -v "$x"`, true},
		{`x=$(cat f); [ -v "$x" ]`, true},
		{`x=$(cat f); printf -v "$x" 1`, true},
		{`x=$(cat f); echo ${x:x}`, true},
		{`x=$(cat f); let x`, true},
		{`x=$(cat f); echo $[x]`, true},
		{`x=$(cat f); echo ${!x}`, true},
		{`x=$(cat f); declare "$x"=1`, true},
		{`y=$(cat f); declare -a x=$y`, true},
		{`y=$(cat f); local -A x="$y"`, true},
		{`x=$(cat f); for ((i = 0; i < x; i++)); do :; done`, true},
		{`x=$(cat f); case 1 in $((x))) ;; esac`, true},
		{`read -r x < f; echo $((x + 1))`, true},
		{`for x in $(cat f); do echo $((x)); done`, true},
		{`for x in *; do echo $((x)); done`, true},
		{`echo $(( $(cat f) + 1 ))`, true},
		{`x=$y; y=$(cat f); echo $((x))`, true},
		{`x=y; y=$(cat f); echo $((x))`, true},
		{`x='a[$(id)]'; : $((x))`, true},
		{`x=a; x+=b; : $((x))`, true},
		{`: ${x:=$(cat f)}; : $((x))`, true},
		{`eval "$v"; : $((x))`, true},
		{`echo $((EVIL))`, true},
		{`echo $((BAD))`, true},
		{`echo $(($1 + 1))`, true},
		{`echo $((${x/a/b}))`, true},
		{`x=$(cat f | head -1); echo $((x))`, true},
		{`x=$(wc -l f); echo $((x))`, true},
		{`f() { :; }; echo $(( $(nproc) + 1 ))`, true},
		// Attack run 42.
		{`for i in 1 2; do : $(( $(wc -l < f) )); eval "func""tion wc { cat; }"; done`, true},
		{`alias wc=cat; : $(( $(wc -l < f) ))`, true},
		{`hash -p /bin/cat wc; n=$(wc -l < f); : $((n))`, true},
		{`set -- "$(cat f)"; for y; do : $((y)); done`, true},
		{`set -- "$(cat f)"; select y; do : $((y)); break; done <<< 1`, true},
		{`x=$((cat f) | (cat)); : $((x))`, true},
		{`x=$((cat f);(:)); : $((x))`, true},
		{`x="$((cat f) | (cat))"; : $((x))`, true},
		{`declare -i n; read n < f`, true},
		{`declare -i n; mapfile -t n < f`, true},
		{`declare -i REPLY; read < f`, true},
		{`set -- -a "$(cat f)"; declare -i OPTARG; getopts a: o`, true},
		{`read 'y[1]' < f; : $((y[1]))`, true},
		{`read -ay < f; : $((y))`, true},
		{`read -ray < f; : $((y))`, true},
		{`a=(1); y=$(cat f); declare a=$y`, true},
		{`declare -a a; y=$(cat f); typeset a+=$y`, true},
		{`x=$(cat f); declare 'a[x]'=1`, true},
		{`x=$(cat f); read -r 'a[x]' <<< 1`, true},
		{`x=$(cat f); [[ -v a[x] ]]`, true},
		{`x=$(cat f); test -v 'a[x]'`, true},
		{`x=$(cat f); : ${!x[0]}`, true},
		{`mapfile -t x < f; : ${!x[0]}`, true},
		// Attack run 43: arithmetic that assigns.
		{`g=PATH=9; : $((g))`, true},
		{`g='y<<=1'; : $((g))`, true},
		{`g=y++; : $((g))`, true},
		{`[[ PATH=9 -eq 1 ]]`, true},
		{`test -v 'a[x=1]'`, true},
		{`[ -v 'a[EV=11]' ]`, true},
		// Values the text or bash makes safe.
		{`echo $((x + 1))`, false},
		{`echo $((N * 2)) $((NAME))`, false},
		{`i=0; echo $((i + 1))`, false},
		{`i=0; i=$((i + 1)); echo $((i))`, false},
		{`for i in 1 2 3; do echo $((i * 2)); done`, false},
		{`for i in {1..5}; do echo $((i * 2)); done`, false},
		{`for ((i = 0; i < 3; i++)); do echo $i; done`, false},
		{`echo ${#a[@]} $(($# + 1)) $(($? + $$))`, false},
		{`start=$SECONDS; echo $((SECONDS - start))`, false},
		{`x=5; y=x; echo $((y))`, false},
		{`echo $(( ${COUNT:-0} + 1 ))`, false},
		{`a=(1 2 3); echo ${a[1]} ${a[@]:1}`, false},
		{`n=$(wc -l < f); echo $((n + 1))`, false},
		{`n=$(git ls-files | wc -l); echo $((n + 1))`, false},
		{`echo $(( $(date +%s) - 5 ))`, false},
		{`x=$(cat f); echo "$x" ${#x}`, false},
		{`read -r x < f; echo "$x"`, false},
		{`n=3; [[ $n -gt 2 && $# -eq 0 && -f "$f" ]]`, false},
		{`x=5; y=x; : $((y >= 2)) $((y == 5)) $((y != 1)) $((y <= 9))`, false},
		{`declare -i n; n=5; m=$((n + 1))`, false},
		{`export PATH="$PATH:/x"; y=$(cat f); local v="$y"; declare -a a=(1 2); : ${!a[@]}`, false},
		{`for i in 1 2; do n=$((i + 1)); : $((n)); done; x=$(( (1 + 2) * 3 )); : $((x))`, false},
		{`declare -a arr=($(ls)); local -a f=("$@"); y=$(cat f); declare x=$y`, false},
	} {
		segs, err := Analyze(c.src, opt)
		if err != nil {
			t.Errorf("Analyze(%q): %v", c.src, err)
			continue
		}
		runs, arith := false, ""
		for _, s := range segs {
			if s.RunsCode && s.Arith != "" {
				runs, arith = true, s.Arith
			}
		}
		if runs != c.runs {
			t.Errorf("Analyze(%q): arithmetic on a run-time value %v (%q), want %v", c.src, runs, strings.ReplaceAll(arith, Hole, "…"), c.runs)
		}
	}
	// A quoted value declare -a parses as "(…)" is code.
	if _, err := Analyze(`declare -a x='($(id))'`, opt); err == nil || !strings.Contains(err.Error(), "array's elements") {
		t.Errorf("declare -a of a quoted (…) with a substitution: %v, want not understood", err)
	}
	// Where the values the text starts with are not known (a later line
	// of a script read from stdin, an interactive session), only what
	// bash keeps integers is safe: `false && x=1` would leave x's.
	opt.Env = nil
	for src, runs := range map[string]bool{`echo $((x + 1))`: true, `x=1; echo $((x + 1))`: true, `echo $(($# + RANDOM))`: false} {
		segs, err := Analyze(src, opt)
		got := false
		for _, s := range segs {
			got = got || s.RunsCode
		}
		if err != nil || got != runs {
			t.Errorf("without the environment, Analyze(%q): RunsCode %v, %v; want %v", src, got, err, runs)
		}
	}
}

// TestIntegerWord checks which words are read as one arithmetic
// expansion, an integer with no '/' or blank (attack run 42: a command
// substitution of two subshells starts with "$((" too).
func TestIntegerWord(t *testing.T) {
	for src, want := range map[string]bool{
		"$((i * 2))": true, `"$((n + 1))"`: true, "$(( (1 + 2) * 3 ))": true, "$[1+2]": true,
		"$((cat f) | (cat))": false, "$((cat f);(:))": false, "$((1))$((2))": false, "$(( $(cat f) ))": false,
		"$((1))/x": false, "$x": false, "$(( a[$(id)] ))": false, `$(( "1" ))`: false, "$[a[1]]": false,
	} {
		if got := IntegerWord(Word{Value: Hole, Source: src}); got != want {
			t.Errorf("IntegerWord(%q) = %v, want %v", src, got, want)
		}
	}
	if IntegerWord(Word{Value: Hole + "/x", Source: "$((1))/x"}) {
		t.Error("IntegerWord of a word with more than the expansion")
	}
}

// TestNamedDescriptorAssigns checks that a redirection's {NAME}, which
// assigns NAME the number of the descriptor bash opens, is a segment of
// that assignment (attack run 43: {IFS}, {PATH}, {HOME}, {CDPATH}), and
// that a value read as known is not after it.
func TestNamedDescriptorAssigns(t *testing.T) {
	opt := Options{Home: "/h", Env: func(string) (string, bool) { return "", false }}
	segs, err := Analyze(`f=a.json; : {IFS}>/dev/null; cat $f`, opt)
	if err != nil {
		t.Fatal(err)
	}
	assigned, certain := false, false
	for _, s := range segs {
		for _, w := range s.Assigns {
			assigned = assigned || w.Value == "IFS="+Hole
		}
		certain = certain || s.Certain
	}
	if !assigned || certain {
		t.Errorf("{IFS}>…: an assignment of IFS %v (want true), a value read as known %v (want false): %q", assigned, certain, renderRuns(segs))
	}
}
