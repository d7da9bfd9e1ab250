package interp

import (
	"slices"
	"strings"
	"testing"
)

// TestHeredocCatValue checks that "$(cat <<'EOF' … EOF)" inside double
// quotes takes the document's text, without its trailing newlines, as
// bash gives it, and stays a Hole wherever that is not certain.
func TestHeredocCatValue(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"git commit -m \"$(cat <<'EOF'\nfeat: x $HOME `y`\n\nbody\n\nEOF\n)\"", "feat: x $HOME `y`\n\nbody"},
		{"git commit -m \"$(cat <<\"EOF\"\na\\b\nEOF\n)\"", "a\\b"},
		{"git commit -m \"$(cat <<EOF\nplain text\nEOF\n)\"", "plain text"},
		{"git commit -m \"x: $(cat <<'EOF'\nm\nEOF\n) y\"", "x: m y"},
		// Not certain, or not this shape: a Hole.
		{"git commit -m \"$(cat <<EOF\nat $HOME\nEOF\n)\"", Hole},
		{"git commit -m \"$(cat <<EOF\na\\$b\nEOF\n)\"", Hole},
		{"git commit -m \"$(cat <<-EOF\n\tm\n\tEOF\n)\"", Hole},
		{"git commit -m \"$(cat -A <<'EOF'\nm\nEOF\n)\"", Hole},
		{"git commit -m \"$(cat <<'EOF' 2>/dev/null\nm\nEOF\n)\"", Hole},
		{"git commit -m \"$(tac <<'EOF'\nm\nEOF\n)\"", Hole},
		{"git commit -m \"$(cat <<'EOF'\nm\nEOF\necho x)\"", Hole},
		// Not understood at all (fail closed): "".
		{"git commit -m \"`cat <<'EOF'\nm\nEOF\n`\"", ""},
		{"cat() { :; }; git commit -m \"$(cat <<'EOF'\nm\nEOF\n)\"", Hole},
		{"eval 'function cat { :; }'; git commit -m \"$(cat <<'EOF'\nm\nEOF\n)\"", Hole},
		{"shopt -s expand_aliases; alias cat=tac\ngit commit -m \"$(cat <<'EOF'\nm\nEOF\n)\"", ""},
	} {
		segs, err := Analyze(c.text, Options{Home: "/h"})
		if err != nil || c.want == "" {
			if (err == nil) != (c.want != "") {
				t.Errorf("%q: error %v", c.text, err)
			}
			continue
		}
		var got []string
		for _, s := range segs {
			if len(s.Args) == 4 && s.Args[0].Value == "git" && s.Assumed == "" {
				got = append(got, s.Args[3].Value)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%q: -m value %q, want %q", c.text, got, c.want)
		}
	}
}

// TestCertains checks that a for loop over words with no expansion
// gives the commands of its body once more per value of its variable
// (Bounded, Certain), and not when the body could change the variable.
func TestCertains(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // the cat segments' second word, Assumed and Bounded
	}{
		{`for f in a ~/.ssh/id_*; do cat "$f"; done`,
			[]string{"\x00 [f]", "a f=a [f] certain", "/h/.ssh/id_\x00 f=/h/.ssh/id_… [f] certain"}},
		{`for f in *.go; do cat $f/x; done`,
			[]string{"\x00/x [f]", "\x00.go/x f=….go [f] certain"}},
		// The body may change it: no values.
		{`for f in a; do f=b; cat "$f"; done`, []string{"\x00 []", "b f=b []"}},
		{`for f in a; do read f; cat "$f"; done`, []string{"\x00 []"}},
		{`for f in a; do printf -v f %s b; cat "$f"; done`, []string{"\x00 []"}},
		{`for f in a; do (( f++ )); cat "$f"; done`, []string{"\x00 []"}},
		{`for f in a; do eval x; cat "$f"; done`, []string{"\x00 []"}},
		{`g() { :; }; for f in a; do cat "$f"; done`, []string{"\x00 []"}},
		// Items with an expansion or a brace: no values.
		{`for f in $x; do cat "$f"; done`, []string{"\x00 []"}},
		{`for f in {a,b}; do cat "$f"; done`, []string{"\x00 []"}},
		// After the loop the variable is not bounded.
		{`for f in a; do :; done; cat "$f"`, []string{"\x00 []"}},
	} {
		segs, err := Analyze(c.text, Options{Home: "/h"})
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got := catSegments(segs); !slices.Equal(got, c.want) {
			t.Errorf("%q:\n got  %q\n want %q", c.text, got, c.want)
		}
	}
}

// TestOpenWord checks which words may be any text at all.
func TestOpenWord(t *testing.T) {
	for _, c := range []struct {
		w       Word
		bounded []string
		want    bool
	}{
		{Word{Value: Hole, Source: `"$f"`}, nil, true},
		{Word{Value: Hole + "/x", Source: `$(pwd)/x`}, nil, true},
		{Word{Value: Hole, Source: "`pwd`"}, nil, true},
		{Word{Value: Hole, Source: xargsInput}, nil, true},
		{Word{Value: Hole, Source: "{} " + xargsInput}, nil, true},
		{Word{Value: Hole, Source: `"$f"`}, []string{"f"}, false},
		{Word{Value: Hole + "/x", Source: `${f}/x`}, []string{"f"}, false},
		{Word{Value: Hole, Source: `"$fg"`}, []string{"f"}, true},
		{Word{Value: Hole + Hole, Source: `"$f$g"`}, []string{"f"}, true},
		{Word{Value: Hole + ".go", Source: `*.go`}, nil, false},
		{Word{Value: Hole, Source: xargsPaths}, nil, false},
		{Word{Value: "/h" + Hole, Source: `$HOME$x`}, nil, true},
		{Word{Value: "./" + Hole, Source: `./"$x"`}, nil, true},
		{Word{Value: "src/" + Hole, Source: `src/$(echo ../../.ssh/id_rsa)`}, nil, true},
		{Word{Value: Hole + "/x", Source: `"$HOME/x"`}, nil, false},
		{Word{Value: Hole + "/x", Source: `"${HOME}/x"`}, nil, false},
		{Word{Value: Hole + "/x", Source: `"$HOMEDIR/x"`}, nil, true},
		{Word{Value: "src/" + Hole, Source: `src/"$f"`}, []string{"f"}, false},
		{Word{Value: Hole + "/" + Hole, Source: `$f/$g`}, []string{"f"}, true},
		{Word{Value: "a", Source: `a`}, nil, false},
	} {
		if got := OpenWord(c.w, c.bounded); got != c.want {
			t.Errorf("OpenWord(%q, %q) = %v, want %v", c.w, c.bounded, got, c.want)
		}
	}
}

// TestEnvValues checks that a variable of the environment bash starts
// with is read with its value (Options.Env) only where the text cannot
// have changed it.
func TestEnvValues(t *testing.T) {
	env := func(k string) (string, bool) {
		switch k {
		case "X":
			return "/h/.ssh/id_rsa", true
		case "PWD":
			return "/h/.ssh", true
		}
		return "", false
	}
	for _, c := range []struct {
		text    string
		session bool
		want    []string // the cat segments' second word, Assumed and Bounded
	}{
		{`cat "$X"`, false, []string{"\x00 [X]", "/h/.ssh/id_rsa X=/h/.ssh/id_rsa [X] certain"}},
		{`cat ${X}.pub`, false, []string{"\x00.pub [X]", "/h/.ssh/id_rsa.pub X=/h/.ssh/id_rsa [X] certain"}},
		{`cat "$X"`, true, []string{"\x00 []"}},
		{`cat "$Y"`, false, []string{"\x00 []"}},
		{`cat "$PWD"`, false, []string{"\x00 []"}},
		{`cat "${X:-a}"`, false, []string{"\x00 []", "/h/.ssh/id_rsa X=/h/.ssh/id_rsa [] certain"}},
		{`cat "${Y:-a}"`, false, []string{"\x00 []", "a Y unset []"}},
		// A top-level assignment of a plain value, before anything that
		// could change it (certainLiteral).
		{`X=a; cat "$X"`, false, []string{"\x00 [X]", "a X=a [X] certain"}},
		{`X=a; cat "$X"`, true, []string{"\x00 []", "a X=a []"}},
		{`false && X=a; cat "$X"`, false, []string{"\x00 []", "a X=a []"}},
		{`X=a; false && X=b; cat "$X"`, false, []string{"\x00 []", "b X=b []"}},
		{`X=a; (X=b); cat "$X"`, false, []string{"\x00 []", "b X=b []"}},
		{`set -e; X=a; cat "$X"`, false, []string{"\x00 []", "a X=a []"}},
		{`X=a; while :; do cat "$X"; done`, false, []string{"\x00 []", "a X=a []"}},
		{`X='a b'; cat "$X"`, false, []string{"\x00 []", "a b X=a b []"}},
		{`X=a; X=b :; cat "$X"`, false, []string{"\x00 []", "a X=a []"}},
		{`read X; cat "$X"`, false, []string{"\x00 []"}},
		{`declare -x Y; cat "$X"`, false, []string{"\x00 []"}},
		{`. ./env.sh; cat "$X"`, false, []string{"\x00 []"}},
		{`g() { :; }; cat "$X"`, false, []string{"\x00 []"}},
		{`while :; do cat "$X"; done`, false, []string{"\x00 []"}},
		{`f() { cat "$X"; }`, false, []string{"\x00 []"}},
	} {
		segs, err := Analyze(c.text, Options{Home: "/h", Env: env, Session: c.session})
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got := catSegments(segs); !slices.Equal(got, c.want) {
			t.Errorf("%q (session %v):\n got  %q\n want %q", c.text, c.session, got, c.want)
		}
	}
}

// TestMayDefine checks the text search for definitions that make the
// analysis forget what it knows of cat and of variables.
func TestMayDefine(t *testing.T) {
	for _, c := range []struct {
		src            string
		cat, fn, attrs bool
	}{
		{"cat() { :; }", true, true, false},
		// (split by quotes the name is not seen here; the definition
		// is, where the analysis meets it in eval's text)
		{"eval \"c\"\"at (  ) { :; }\"", false, true, false},
		{"function cat { :; }", true, true, false},
		{"function  g { :; }", false, true, false},
		{"g() { :; }; x=(); y=$( ); ( )", false, true, false},
		{"x=( ); y=$( )", false, false, false},
		{"concat() { :; }", false, true, false},
		{"my.cat() { :; }", false, true, false},
		{"declare -a -l f", false, false, true},
		{"builtin typeset -x \"-u\" f", false, false, true},
		{"export -p; local x=1; readonly y", false, false, false},
		{"echo functional; cat x", false, false, false},
	} {
		cat, fn, attrs := mayDefine(c.src)
		if cat != c.cat || fn != c.fn || attrs != c.attrs {
			t.Errorf("mayDefine(%q) = %v %v %v, want %v %v %v", c.src, cat, fn, attrs, c.cat, c.fn, c.attrs)
		}
	}
}

// catSegments renders the cat segments of segs for the tests above: the
// second word, what was assumed, the bounded names and whether the
// assumption is certain.
func catSegments(segs []Segment) []string {
	var got []string
	for _, s := range segs {
		if len(s.Args) == 2 && s.Args[0].Value == "cat" {
			g := s.Args[1].Value
			if s.Assumed != "" {
				g += " " + s.Assumed
			}
			g += " [" + strings.Join(s.Bounded, " ") + "]"
			if s.Certain {
				g += " certain"
			}
			got = append(got, g)
		}
	}
	return got
}
