package interp

import (
	"errors"
	"math/rand/v2"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// staticWords are words with no run-time part; bash's own expansion of them
// is the reference for quote removal, brace and tilde expansion.
var staticWords = []string{
	`r''m`, `"r"m`, `\rm`, `$'r\x6d'`, `'a'"b"c`,
	`{a,b}c`, `a{1..3}`, `a{1..10..3}`, `{a..e}`, `{01..3}`, `{3..1}`, `{z..w}`,
	`{a,b}{1,2}`, `a{b,{c,d}}e`, `{a,'b c'}`, `{a}`, `{,x}`, `x{,}`, `'{a,b}'`, `a\{b,c\}`,
	`"a b"`, `a\ b`, `'a\b'`, `"a\"b"`, `"a\\b"`, `"a\$b"`, "\"a\\`b\"", `"a\qb"`,
	`$'a\'b'`, `$'\101\x42'`, `$'\u00e9'`, `$'a\0b'`, `$'a\0b'c`, `$'\t'`, `$'\cA'`, `$'\c?\ca\c\\'`,
	`$'\E\?\q\u\x\x4g\8\c'`, `$'\U0001F600\777'`, `"$'x'"`,
	`\\`, `a\\b`, `''`, `""`, `\'`, `"'"`, `\*`, `'*'`, `"a?"`,
	`~`, `~/x`, `x~`, `"~"`, `~"/x"`, `{a,~}`, `{~,b}/x`, `a=~/x:~/y`, `--opt=~/x`, `a+=~/x`, `a=x:~:~/y`,
	"a\\\nb",
}

// TestStaticWordsMatchBash runs bash itself on each static word and
// compares its fields with what Analyze resolves.
func TestStaticWordsMatchBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	for _, word := range staticWords {
		t.Run(word, func(t *testing.T) {
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `printf '%s\0' `+word)
			cmd.Env = []string{"HOME=/home/u", "PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v", err)
			}
			want := []string{}
			if len(out) > 0 {
				want = strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			}
			segs, err := Analyze("printf '%s\\0' "+word, Options{Home: "/home/u"})
			if err != nil {
				t.Fatal(err)
			}
			got := segs[0].Argv()[2:]
			if len(got) == 0 && len(want) == 1 && want[0] == "" && !strings.ContainsAny(word, `'"`) {
				// printf with no arguments still prints its format once.
				want = nil
			}
			if len(got) == 0 && len(want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("word %s: got %q, bash gives %q", word, got, want)
			}
		})
	}
}

func TestDynamicWords(t *testing.T) {
	cases := []struct {
		name, word string
		want       []string
	}{
		{"a parameter is a hole", `$x`, []string{Hole}},
		{"a braced parameter is a hole", `${x}`, []string{Hole}},
		{"a quoted parameter is a hole", `"$x"`, []string{Hole}},
		{"a parameter inside a literal is a partial hole", `/tmp/$x`, []string{"/tmp/" + Hole}},
		{"a quoted parameter next to literals is a partial hole", `"a $x b"`, []string{"a " + Hole + " b"}},
		{"a command substitution is a hole", `$(id)`, []string{Hole}},
		{"backticks are a hole", "`id`", []string{Hole}},
		{"arithmetic is a hole", `$((1+2))`, []string{Hole}},
		{"process substitution is a hole", `<(ls)`, []string{Hole}},
		{"two holes stay two holes", `$a$b`, []string{Hole + Hole}},
		{"a parameter does not split the brace expansion", `{a,b}$x`, []string{"a" + Hole, "b" + Hole}},
		{"a glob with a parameter is a whole hole", `$x*`, []string{Hole}},
		{"a glob across a brace expansion keeps each word's prefix", `{a,b}*`, []string{"a" + Hole, "b" + Hole}},
		{"an escaped glob next to a hole is not a glob", `\*$x`, []string{"*" + Hole}},
		{"a quoted glob next to a hole is not a glob", `"*"$x`, []string{"*" + Hole}},
		{"a hole in single quotes is literal", `'$x'`, []string{"$x"}},
		{"ANSI-C quoting has no holes", `$'$x'`, []string{"$x"}},
		{"a tilde followed by a hole is literal", `~$x`, []string{"~" + Hole}},
		{"a unicode literal survives", `é$x`, []string{"é" + Hole}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			segs, err := Analyze("echo "+tc.word, Options{Home: "/home/u"})
			if err != nil {
				t.Fatal(err)
			}
			got := segs[len(segs)-1].Argv()[1:]
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s: got %q, want %q", tc.word, got, tc.want)
			}
		})
	}
}

func TestWordHelpers(t *testing.T) {
	t.Run("assignment prefixes are recognised", func(t *testing.T) {
		for s, want := range map[string]int{
			"a=1": 2, "_x+=1": 4, "a[1]=x": 5, "a[i+1]+=x": 8, "1a=x": -1, "--a=x": -1, "a": -1, "a[1": -1, "=x": -1,
		} {
			if got := assignPrefixLen(s); got != want {
				t.Errorf("assignPrefixLen(%q) = %d, want %d", s, got, want)
			}
		}
	})
	t.Run("fd targets are numbers or a dash", func(t *testing.T) {
		for s, want := range map[string]bool{"1": true, "12": true, "-": true, "3-": true, "f": false, "1f": false, "/dev/null": false} {
			if got := isFdTarget(s); got != want {
				t.Errorf("isFdTarget(%q) = %v", s, got)
			}
		}
	})
	t.Run("device targets are exempt", func(t *testing.T) {
		for _, c := range []struct {
			v     string
			write bool
			want  bool
		}{
			{"/dev/null", true, true}, {"/dev/null", false, true}, {"/dev/fd/3", true, false},
			{"/dev/fd/2", true, true}, {"/dev/fd/0", false, true}, {"/dev/fd/0", true, false}, {"/dev/stdin", true, false},
			{"/dev/fd/", true, false}, {"/dev/fd/x", true, false}, {"/dev/stdout", false, false},
			{"/dev/sda", true, false}, {"/dev/tty", true, true}, {"null", true, false},
		} {
			if got := devTarget(c.v, c.write); got != c.want {
				t.Errorf("devTarget(%q, %v) = %v", c.v, c.write, got)
			}
		}
	})
}

// TestAnsiCMatchesBash compares the decoding of $'…' with bash's on fixed
// escapes and on random bodies made of escape fragments (every escape bash
// 5.2 knows, near misses and their neighbours). A body whose value depends
// on the locale is refused, not compared.
func TestAnsiCMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	bodies := []string{
		`\x{74}ouch`, `\x{}a`, `\x{zz}`, `\x{0074}`, `\x{174}`, `\x{74`, `\x{7}4`, `\x{123456789}z`,
		`\x{41}}`, `\xg`, `\x`, `\x4`, `\x414`, `\u0041`, `\u00e9`, `\U0001F600`, `\u`, `\uZ`, `\U7f`,
		`\c`, `\cA`, `\ca`, `\c?`, `\c[`, `\c{`, `\c~`, "\\c`x", `\c@x`, `\c x`, `\c1`, `\c\\x`, `\c\a`, `\cé`,
		`\0101`, `\400`, `\777`, `\8`, `\9`, `\a\b\e\E\f\n\r\t\v`, `\\\'\"\?`, `\q\z\ `, `a\0b`, `\x00z`,
		"a\\\nb", `\é`,
	}
	frags := []string{`\x`, `\x{`, `}`, `{`, `\u`, `\U`, `\c`, `\\`, `\'`, `\"`, `\?`, `\0`, `\1`, `\7`, `\8`,
		`\a`, `\e`, `\E`, `\n`, `\q`, `\ `, `0`, `1`, `7`, `9`, `a`, `f`, `F`, `g`, `z`, `Z`, `@`, "`", `?`, ` `, `"`, `é`, `$`}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		for n := rng.IntN(6) + 1; n > 0; n-- {
			b.WriteString(frags[rng.IntN(len(frags))])
		}
		b.WriteString("Z") // no backslash right before the closing quote
		bodies = append(bodies, b.String())
	}
	var script strings.Builder
	for _, body := range bodies {
		script.WriteString("printf '%s\\0' $'" + body + "'\n")
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script.String())
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(got) != len(bodies) {
		t.Fatalf("bash printed %d values for %d bodies", len(got), len(bodies))
	}
	refused := 0
	for i, body := range bodies {
		segs, err := Analyze("printf '%s\\0' $'"+body+"'", Options{})
		if err != nil {
			var nu *NotUnderstood
			if !errors.As(err, &nu) || !strings.Contains(nu.Reason, "locale") {
				t.Errorf("$'%s': %v", body, err)
			}
			refused++
			continue
		}
		if v := segs[0].Args[2].Value; v != got[i] {
			t.Errorf("$'%s': got %q, bash gives %q", body, v, got[i])
		}
	}
	t.Logf("%d bodies, %d refused as locale-dependent", len(bodies), refused)
	// bash gives CESU-8 or longer-than-UTF-8 bytes for these in a UTF-8
	// locale and the escape itself in the C locale.
	for _, body := range []string{`\uD800`, `\udfff`, `\U110000`, `\U7FFFFFFF`, `\UFFFFFFFF`} {
		_, err := Analyze("echo $'"+body+"'", Options{})
		var nu *NotUnderstood
		if !errors.As(err, &nu) {
			t.Errorf("$'%s': err = %v, want *NotUnderstood", body, err)
		}
	}
}
