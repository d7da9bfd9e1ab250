package interp

import (
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
)

var keywords = []keyword{kwDeclare, kwTypeset, kwLocal, kwExport, kwReadonly, kwNameref}

// keywordSeeds hold the keywords at the start and end of a text, cut
// short, overlapping themselves ("localocal"), next to their anchor bytes,
// and in the texts of the other tests.
func keywordSeeds() []string {
	seeds := []string{"", "c", "x", "y", "f", "localocal -l", "declare", "declar", "eclare", "xdeclarex", "typese",
		"readonl", "readonlyreadonly", "cccclocal", "namere nameref", "exporexport -n x", "lo cal", "local\x00",
		"a=1 declare -l x", "typeset\t'-u' y", "export -n", "readonly -c", "x; local -i n=1; y"}
	seeds = append(seeds, analyzeSeeds...)
	seeds = append(seeds, fastPathTexts...)
	return append(seeds, benchdata.CIScript(), benchdata.Snapshot())
}

// compareKeywords compares keyword.index with strings.Index, from every
// place in src, and maySubscript and mayDefine with the readings by
// strings.Index they replaced.
func compareKeywords(t *testing.T, src string) {
	t.Helper()
	for _, kw := range keywords {
		for from := 0; from <= len(src) && from < 64; from++ {
			want := strings.Index(src[from:], kw.word)
			if want >= 0 {
				want += from
			}
			if got := kw.index(src, from); got != want {
				t.Fatalf("%q.index(%q, %d) = %d, strings.Index: %d", kw.word, src, from, got, want)
			}
		}
	}
	if got, want := maySubscript(src), maySubscriptByIndex(src); got != want {
		t.Fatalf("maySubscript(%q) = %v, by strings.Index %v", src, got, want)
	}
	cat, fn, attr := mayDefine(src)
	wcat, wfn, wattr := mayDefineByIndex(src)
	if cat != wcat || fn != wfn || attr != wattr {
		t.Fatalf("mayDefine(%q) = %v %v %v, by strings.Index %v %v %v", src, cat, fn, attr, wcat, wfn, wattr)
	}
}

// TestKeywordIndexAsIndex compares the keyword searches with
// strings.Index on the seeds and on each seed with a keyword or one of
// its anchor bytes written in at a few places.
func TestKeywordIndexAsIndex(t *testing.T) {
	for _, src := range keywordSeeds() {
		compareKeywords(t, src)
		if len(src) > 4096 {
			continue
		}
		for _, ins := range []string{"c", "x", "y", "f", "local", "export -l", "typeset -u", "readonly", "declare -n", "nameref"} {
			for _, at := range []int{0, len(src) / 3, len(src) / 2, len(src)} {
				compareKeywords(t, src[:at]+ins+src[at:])
			}
		}
	}
}

// FuzzKeywordIndex compares the keyword searches with strings.Index on
// any text.
func FuzzKeywordIndex(f *testing.F) {
	for _, s := range keywordSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compareKeywords(t, src)
	})
}

// maySubscriptByIndex is maySubscript with strings.Contains for every
// keyword.
func maySubscriptByIndex(src string) bool {
	if strings.IndexByte(src, '[') < 0 {
		return false
	}
	if strings.Contains(src, "$[") || strings.Contains(src, "]=") || strings.Contains(src, "]+=") ||
		strings.Contains(src, "=(") || strings.Contains(src, "\\\n") {
		return true
	}
	for _, kw := range []string{"declare", "typeset", "local", "export", "readonly", "nameref"} {
		if strings.Contains(src, kw) {
			return true
		}
	}
	return false
}

// mayDefineByIndex is mayDefine with strings.Index for the declaration
// keywords.
func mayDefineByIndex(src string) (cat, fn, attr bool) {
	cat, fn, _ = mayDefine(src)
	for _, kw := range [...]string{"declare", "typeset", "local", "export", "readonly"} {
		for i := 0; !attr; {
			k := strings.Index(src[i:], kw)
			if k < 0 {
				break
			}
			i += k + len(kw)
			for j := i; j < len(src); {
				for j < len(src) && strings.IndexByte(" \t\"'\\", src[j]) >= 0 {
					j++
				}
				if j >= len(src) || src[j] != '-' && src[j] != '+' {
					break
				}
				e := j + 1
				for e < len(src) && (isNameByte(src[e])) {
					e++
				}
				if strings.ContainsAny(src[j+1:e], "luicn") {
					attr = true
					break
				}
				j = e
			}
		}
	}
	return cat, fn, attr
}
