package interp

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// padded returns tail after enough plain commands that the text is at
// least n bytes.
func padded(n int, tail string) string {
	line := "echo padding line > /dev/null\n"
	return strings.Repeat(line, (n-len(tail))/len(line)+1) + tail
}

// TestHereDocumentBodiesOfStreamedTexts checks that a large text, parsed
// one statement at a time, still has the here-document bodies of a
// statement followed by another on its line analysed: the parser yields
// "cat <<A;" before it reads the body.
func TestHereDocumentBodiesOfStreamedTexts(t *testing.T) {
	for _, tail := range []string{
		"cat <<A; true\n$(rm -rf /)\nA\n",
		"cat <<A & true\n$(rm -rf /)\nA\n",
		"cat <<A; echo \"x\ny\"; true\n$(rm -rf /)\nA\n",
		"cat <<A; cat <<B\n$(rm -rf /)\nA\n$(rm -rf /)\nB\n",
		"{ cat <<A; }; true\n$(rm -rf /)\nA\n",
		"cat <<A; \\\ntrue\n$(rm -rf /)\nA\n",
	} {
		for _, size := range []int{streamMin, MaxTextSize + 1} {
			src := padded(size, tail)
			segs, err := Analyze(src, Options{Home: "/home/u"})
			if err != nil {
				t.Fatalf("%d bytes, %q: %v", len(src), tail, err)
			}
			rm := 0
			for _, s := range segs {
				if len(s.Args) > 0 && s.Args[0].Value == "rm" {
					rm++
				}
			}
			if want := strings.Count(tail, "rm -rf"); rm != want {
				t.Errorf("%d bytes, %q: %d rm segments, want %d", len(src), tail, rm, want)
			}
		}
	}
}

// TestStreamedMatchesWhole checks that a text analysed as a stream gives
// what the whole parse gives: segments, or the same error (parse errors,
// reading errors and "((" read as bash reads it come from the whole
// parse).
func TestStreamedMatchesWhole(t *testing.T) {
	for _, tail := range []string{
		"cat <<A; echo \"x\ny\"\nbody $(id)\nA\necho after\n",
		"cat <<A\nA\ncat <<'B'; x\n$(y)\nB\n",
		"cat <<A; x\n",
		"f() { cd /tmp; }; f; echo > rel\n",
		"echo \"unterminated\n",
		"echo hi #\\\ntouch x\n",
		"echo \"${x:-'$(y)'}\"\n",
		"TAGS=\"$((echo HEAD && git tag) | xargs)\"\n",
		"((a) | b)\n",
		"eval 'eval \"eval x\"'\n",
		"echo ${x@P} | tee f\n",
		"x=1; a[$x]=2; echo ${a[1]} \\\n  --flag\n",
		"cat <<A; true\n",
		"for f in *; do cd \"$f\"; echo > out; done\n",
	} {
		for _, size := range []int{streamMin, 3 * streamMin} {
			src := padded(size, tail)
			compareWithGeneral(t, src, Options{Home: "/home/u"})
		}
	}
}

// TestSpansContains checks the merged, sorted spans of checkContinuations
// against a scan of the spans as recorded.
func TestSpansContains(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var ss spans
		for range r.IntN(20) {
			s := r.IntN(100)
			ss = append(ss, span{s, s + r.IntN(10)})
		}
		raw := append(spans(nil), ss...)
		sorted := ss.sorted()
		for off := -1; off < 112; off++ {
			want := false
			for _, s := range raw {
				want = want || (off >= s.start && off < s.end)
			}
			if got := sorted.contains(off); got != want {
				t.Fatalf("spans %v: contains(%d) = %v, want %v", raw, off, got, want)
			}
		}
	}
}

// TestInLoopsMatchesScan checks inLoops, which marks the segments of
// loops in linear time, against a scan of every loop for every segment.
func TestInLoopsMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		a := &analyzer{segs: make([]Segment, r.IntN(40))}
		for range r.IntN(8) {
			s := r.IntN(len(a.segs) + 2)
			a.loops = append(a.loops, [2]int{s, s + r.IntN(20)})
		}
		keep := func(l [2]int) bool { return (l[0]+l[1])%3 != 0 }
		for _, k := range []func([2]int) bool{nil, keep} {
			got := a.inLoops(k)
			for j := range a.segs {
				want := false
				for _, l := range a.loops {
					l[0], l[1] = min(l[0], len(a.segs)), min(l[1], len(a.segs))
					want = want || (j >= l[0] && j < l[1] && (k == nil || k(l)))
				}
				if got[j] != want {
					t.Fatalf("loops %v over %d segments: segment %d in a loop: %v, want %v", a.loops, len(a.segs), j, got[j], want)
				}
			}
		}
	}
}

// TestNestedLoopsWithCd checks the marks inLoops feeds: every segment of
// nested loops repeats, and a relative target in a loop that holds a cd
// is a Hole.
func TestNestedLoopsWithCd(t *testing.T) {
	src := "echo > a; for i in 1; do for j in 2; do echo > b; done; cd x; done; echo > /abs; while c; do echo > d; done"
	segs, err := Analyze(src, Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range segs {
		if s.Kind == Write {
			v := s.Args[0].Value
			if v == Hole {
				v = "Hole(" + s.Relative + ")"
			}
			got = append(got, v+map[bool]string{true: " repeats", false: ""}[s.Repeats])
		}
	}
	want := []string{"a", "Hole(b) repeats", "/abs", "Hole(d) repeats"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("writes %q, want %q", got, want)
	}
}

// TestDeepShapesRefused checks that nesting and chains whose parse and
// walk would grow faster than the text are refused with a clear error,
// and that long texts of ordinary shape are not.
func TestDeepShapesRefused(t *testing.T) {
	nest := func(open, mid, close string, n int) string {
		return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
	}
	refused := []struct{ src, reason string }{
		{nest("if true; then ", "x", "; fi", maxKeywords+1), "compound commands"},
		{nest("for i in a; do ", "x", "; done", maxKeywords+1), "compound commands"},
		{nest("while a; do ", "x", "; done", maxKeywords+1), "compound commands"},
		{nest("case a in a) ", "x", ";; esac", maxKeywords+1), "compound commands"},
		{strings.Repeat("a && ", maxChain+1) + "a", "operators"},
		{strings.Repeat("a |\n", maxChain+1) + "a", "operators"},
		{"[[ " + strings.Repeat("a || ", maxChain+1) + "a ]]", "operators"},
	}
	for _, tc := range refused {
		_, err := Analyze(tc.src, Options{})
		if err == nil || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%.40q…: %v, want refused for %s", tc.src, err, tc.reason)
		}
	}
	python := "python3 - <<'EOF'\n" + strings.Repeat("if x:\n    for y in z:\n        while w: pass\n", maxKeywords) + "EOF\n"
	accepted := []string{
		nest("if true; then ", "x", "; fi", maxKeywords),
		strings.Repeat("if a; then b; fi\nfor i in 1; do c; done\n", 2*maxKeywords),
		strings.Repeat("a && b || c | d\n", 2*maxChain),
		strings.Repeat("a &&\n", maxChain-1) + "a",
		python,
		"echo $((1<<2))\n" + python,
		"cat <<-\tE\n" + strings.Repeat("\tif\n", 2*maxKeywords) + "\tE\necho > /dev/null 2>&1 &\n" + strings.Repeat("x & ", 2*maxChain),
	}
	for _, src := range accepted {
		if _, err := Analyze(src, Options{}); err != nil {
			t.Errorf("%.40q…: %v", src, err)
		}
	}
}
