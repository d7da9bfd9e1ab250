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
