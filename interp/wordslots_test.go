package interp

import (
	"math/rand/v2"
	"testing"
)

// TestWordSlotsDoNotOverlap carves slices of many sizes (blocks of every
// length, sizes past a block's end and past the largest block) and checks
// each is empty with room for exactly what was asked, and that filling
// every slice, then appending past its room, leaves the others as they
// were.
func TestWordSlotsDoNotOverlap(t *testing.T) {
	var a analyzer
	r := rand.New(rand.NewPCG(1, 2))
	var slices [][]Word
	for i := range 3000 {
		n := r.IntN(20)
		switch i % 50 {
		case 0:
			n = 64 + r.IntN(3)
		case 1:
			n = 0
		}
		s := a.wordSlots(n)
		if s == nil || len(s) != 0 || cap(s) != n {
			t.Fatalf("wordSlots(%d): len %d cap %d nil %v", n, len(s), cap(s), s == nil)
		}
		for j := range n {
			s = append(s, Word{Value: string(rune('a' + i%26)), Source: string(rune('A' + j%26))})
		}
		slices = append(slices, s)
	}
	for i := range slices {
		grown := append(slices[i], Word{Value: "past"})
		grown[0].Value = "changed" // the copy append made, not the block
	}
	for i, s := range slices {
		for j, w := range s {
			if w.Value != string(rune('a'+i%26)) || w.Source != string(rune('A'+j%26)) {
				t.Fatalf("slice %d word %d is %+v: another slice wrote over it", i, j, w)
			}
		}
	}
}
