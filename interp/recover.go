package interp

import (
	"errors"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

const (
	// maxSplits bounds the "((" a text may have read as "( (" (see
	// splitParens): each one costs a parse of the whole text.
	maxSplits = 16
	// maxSplitTries bounds the "((" examined, nearest the error first, to
	// find the one to split.
	maxSplitTries = 8
)

// splitParens recovers a bash text the parser rejects because it reads a
// "$((" or "((" as arithmetic where bash reads a command substitution or a
// subshell holding a subshell. bash (parse.y, parse_arith_cmd, and the
// same test for "$((") reads the parenthesis pair opened by the second
// "(" and takes the whole as arithmetic only when a ")" follows that pair
// at once; otherwise "$((cmd) | x)" is "$( (cmd) | x)" and "((a) && b)" is
// "( (a) && b)". The parser always tries arithmetic, so
// TAGS="$((echo HEAD && git tag) | xargs)", which bash runs, does not parse.
//
// Given the parse error perr of src, splitParens inserts a blank between
// the two parentheses of the nearest "((" at or before the error whose
// pair bash would not read as arithmetic, parses again, and repeats (at
// most maxSplits times). It returns the parsed file, the text it parsed
// (src with the blanks) and the offsets of the blanks in that text, in
// ascending order; ok is false when no such reading parses. A reading is
// accepted only when, for every blank, the parser's tree agrees with
// bash's test: a command substitution, process substitution or subshell
// starts at the first "(" and a subshell at the second, whose ")" is the
// one bash's pair scan ends at, and no ")" follows it. Text where the pair
// scan cannot be sure of bash's reading (quotes holding parentheses,
// backquotes, comments, here-documents) is not recovered.
//
// The text bash runs is not changed: bash itself reads it this way.
func (a *analyzer) splitParens(p *syntax.Parser, src string, perr error) (f *syntax.File, text string, blanks []int, ok bool) {
	text = src
	err := perr
	for range maxSplits {
		off, known := parseErrOffset(err)
		if !known {
			return nil, "", nil, false
		}
		q := splitPoint(text, off)
		if q < 0 {
			return nil, "", nil, false
		}
		text = text[:q] + " " + text[q:]
		for i := range blanks {
			if blanks[i] >= q {
				blanks[i]++
			}
		}
		blanks = append(blanks, q)
		slices.Sort(blanks)
		a.budget.parsed += len(text)
		if a.budget.parsedOver() {
			return nil, "", nil, false
		}
		f, err = p.Parse(strings.NewReader(text), "")
		if err == nil {
			if !splitsHold(f, text, blanks) {
				return nil, "", nil, false
			}
			return f, text, blanks, true
		}
	}
	return nil, "", nil, false
}

func parseErrOffset(err error) (int, bool) {
	var pe syntax.ParseError
	if errors.As(err, &pe) && !pe.Incomplete {
		return int(pe.Pos.Offset()), true
	}
	return 0, false
}

// splitPoint returns where to insert a blank in text: between the two
// parentheses of the nearest "((" starting at or before offset (or just
// after it: the error may point at the "$" of "$((") whose inner
// pair bash reads as code (see splitParens); -1 when there is none among
// the maxSplitTries nearest.
func splitPoint(text string, offset int) int {
	i := min(offset+1, len(text)-2)
	for tries := 0; i >= 0 && tries < maxSplitTries; i-- {
		if text[i] != '(' || text[i+1] != '(' {
			continue
		}
		tries++
		if c, ok := pairEnd(text, i+1); ok && c+1 < len(text) && text[c+1] != ')' {
			return i + 1
		}
	}
	return -1
}

// pairEnd returns the offset of the ")" that closes the "(" at open, the
// way bash's pair scan finds it, or false when the text between holds what
// that simple scan may read differently from bash: a quoted parenthesis, a
// backquote, $'…', "#" or "<<".
func pairEnd(text string, open int) (int, bool) {
	depth := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i, true
			}
		case '`', '#':
			return 0, false
		case '<':
			if i+1 < len(text) && text[i+1] == '<' {
				return 0, false
			}
		case '\'':
			if i > 0 && text[i-1] == '$' {
				return 0, false
			}
			j := strings.IndexByte(text[i+1:], '\'')
			if j < 0 || strings.ContainsAny(text[i+1:i+1+j], "()") {
				return 0, false
			}
			i += 1 + j
		case '"':
			j := i + 1
			for ; j < len(text) && text[j] != '"'; j++ {
				switch text[j] {
				case '\\':
					j++
				case '(', ')', '`':
					return 0, false
				}
			}
			if j >= len(text) {
				return 0, false
			}
			i = j
		}
	}
	return 0, false
}

// splitsHold reports whether the parsed tree of text reads every blank
// the way bash does (see splitParens).
func splitsHold(f *syntax.File, text string, blanks []int) bool {
	subshells := map[int]int{} // "(" offset -> ")" offset
	opens := map[int]bool{}    // offsets of "$(", "<(", ">("
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Subshell:
			subshells[int(n.Lparen.Offset())] = int(n.Rparen.Offset())
		case *syntax.CmdSubst:
			if !n.Backquotes {
				opens[int(n.Left.Offset())] = true
			}
		case *syntax.ProcSubst:
			opens[int(n.OpPos.Offset())] = true
		}
		return true
	})
	for _, q := range blanks {
		if q < 1 || q+1 >= len(text) || text[q-1] != '(' || text[q+1] != '(' {
			return false
		}
		c, ok := pairEnd(text, q+1)
		if !ok || c+1 >= len(text) || text[c+1] == ')' {
			return false
		}
		if r, found := subshells[q+1]; !found || r != c {
			return false
		}
		if _, outer := subshells[q-1]; !outer && !(q >= 2 && opens[q-2] && strings.IndexByte("$<>", text[q-2]) >= 0) {
			return false
		}
	}
	return true
}

// unshift maps an offset in a text with blanks inserted (see splitParens)
// back to the text as written.
func unshift(offset int, blanks []int) int {
	n := 0
	for _, q := range blanks {
		if q < offset {
			n++
		}
	}
	return offset - n
}
