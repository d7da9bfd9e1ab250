package interp

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
)

// lineStartsByByte collects the line starts of src byte by byte, as
// frame.pos did before it searched with strings.IndexByte.
func lineStartsByByte(src string) []int {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// posBySearch is frame.pos as it was before lineIndex kept its last line:
// each line found by binary search over starts (lineStartsByByte of src).
// TestPosAsBySearch compares the two.
func posBySearch(src string, starts, blanks []int, offset int) (line, col int) {
	offset = min(max(offset, 0), len(src))
	l := sort.Search(len(starts), func(i int) bool { return starts[i] > offset })
	if blanks != nil {
		return l, unshift(offset, blanks) - unshift(starts[l-1], blanks) + 1
	}
	return l, offset - starts[l-1] + 1
}

// TestPosAsBySearch asks frame.pos for places in texts of every shape
// (empty, no newline, newlines only, blank lines, ending with and without
// a newline, a script) in increasing, decreasing, repeated and random
// order, each offset from before the start to past the end, and compares
// each answer with posBySearch.
func TestPosAsBySearch(t *testing.T) {
	texts := []string{"", "a", "\n", "\n\n\n", "ab\ncd", "ab\ncd\n", "\nx\n\ny\n\n", "a\n\n\nb",
		strings.Repeat("x\n", 100), benchdata.CIScript()}
	r := rand.New(rand.NewPCG(3, 4))
	for _, src := range texts {
		starts := lineStartsByByte(src)
		var offsets []int
		for o := -2; o <= len(src)+2; o++ {
			offsets = append(offsets, o)
		}
		orders := [][]int{offsets, nil, nil, nil}
		for o := len(offsets) - 1; o >= 0; o-- {
			orders[1] = append(orders[1], offsets[o])
		}
		for _, o := range offsets {
			orders[2] = append(orders[2], o, o, o+1, o)
		}
		for range 3 * len(offsets) {
			orders[3] = append(orders[3], r.IntN(len(src)+5)-2)
		}
		for _, blanks := range [][]int{nil, {1, 3}} {
			for k, order := range orders {
				f := &frame{src: src, lines: &lineIndex{}, blanks: blanks}
				for _, o := range order {
					line, col := f.pos(o)
					wl, wc := posBySearch(src, starts, blanks, o)
					if line != wl || col != wc {
						t.Fatalf("%.40q order %d blanks %v: pos(%d) = %d:%d, by search %d:%d", src, k, blanks, o, line, col, wl, wc)
					}
				}
			}
		}
	}
}
