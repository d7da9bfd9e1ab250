package rules

import (
	"slices"
	"strings"
)

// This file is the pattern language: compilation, the plain matcher for
// subjects without Holes, and the two questions asked of subjects with Holes
// ("does the pattern match whatever the run-time parts turn out to be?" and
// "could it match for some value of them?").
//
// A pattern is a string in which '*' matches any run of bytes (including '/'
// and spaces, and the empty run) and every other byte is literal; the whole
// subject must match; comparison is byte-wise, so case-sensitive. A shell
// pattern ending in " *" also matches its bare prefix: "git *" matches "git".

// glob is one compiled pattern.
type glob struct {
	pat       string   // the pattern with runs of '*' collapsed to one
	parts     []string // pat split at '*': literal runs
	bare      bool     // pat ends in " *" and also matches pat[:len(pat)-2]
	bareParts []string // parts of pat[:len(pat)-2] when bare
	// empty[j] reports whether pat[j:] matches the empty string, counting
	// the bare form: all stars, or stars followed by the final " *".
	empty []bool
	// key is the literal prefix every match starts with: pat up to its
	// first '*', minus the space when that star is the final " *" of a bare
	// pattern. The index files the pattern under it.
	key string
}

// compileGlob compiles pattern; withBare enables the " *" rule (shell
// patterns only). It never fails: every string is a pattern.
func compileGlob(pattern string, withBare bool) *glob {
	pat := pattern
	if strings.Contains(pattern, "**") {
		var b strings.Builder
		for i := 0; i < len(pattern); i++ {
			if pattern[i] == '*' && i > 0 && pattern[i-1] == '*' {
				continue
			}
			b.WriteByte(pattern[i])
		}
		pat = b.String()
	}
	g := &glob{pat: pat, parts: strings.Split(pat, "*")}
	if withBare && strings.HasSuffix(pat, " *") {
		g.bare = true
		g.bareParts = strings.Split(pat[:len(pat)-2], "*")
	}
	m := len(pat)
	g.empty = make([]bool, m+1)
	g.empty[m] = true
	for j := m - 1; j >= 0; j-- {
		g.empty[j] = (pat[j] == '*' && g.empty[j+1]) || (g.bare && j == m-2)
	}
	g.key = pat
	if i := strings.IndexByte(pat, '*'); i >= 0 {
		g.key = pat[:i]
		if g.bare && i == m-1 {
			g.key = pat[:m-2]
		}
	}
	return g
}

// required returns the longest literal every string g matches contains:
// the longest of its literal runs, with the final run's trailing space
// left off for a bare pattern (whose bare form lacks it). "" when g has no
// literal.
func (g *glob) required() string {
	best := ""
	last := -1
	for i, p := range g.parts {
		if p != "" {
			last = i
		}
	}
	for i, p := range g.parts {
		if g.bare && i == last {
			p = strings.TrimSuffix(p, " ")
		}
		if len(p) > len(best) {
			best = p
		}
	}
	return best
}

// match reports whether the Hole-free string s matches g.
func (g *glob) match(s string) bool {
	return matchParts(g.parts, s) || (g.bare && matchParts(g.bareParts, s))
}

// matchParts matches s against literal runs separated by stars. Leftmost
// placement of each middle run is optimal, so no backtracking is needed.
func matchParts(parts []string, s string) bool {
	if len(parts) == 1 {
		return s == parts[0]
	}
	first, last := parts[0], parts[len(parts)-1]
	if !strings.HasPrefix(s, first) {
		return false
	}
	s = s[len(first):]
	if !strings.HasSuffix(s, last) {
		return false
	}
	s = s[:len(s)-len(last)]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return true
}

// Subjects with Holes are matched as a sequence of units: a byte (0-255),
// uHole (any string of bytes, possibly empty), or uOpt, which starts an
// optional group made of the next two units (a whole-word Hole that may
// expand to no word at all, taking its separating space with it).
const (
	uHole uint16 = 256
	uOpt  uint16 = 257
	// uGlob is a plain glob's run-time part (Subject.Glob): any string
	// of bytes but '/' and ' ', possibly empty. (A name may hold a space;
	// but the spaces of a pattern part its arguments, and a glob's
	// expansion gives whole arguments of the word's shape: uRep.)
	uGlob uint16 = 258
	// uRep ends a glob word, which may stand for several words of its
	// shape: the next unit is the index of the word's first unit, to
	// which the match may return after a space.
	uRep uint16 = 259
	// uFound is the run-time part of a path find gives an -exec command
	// (Subject.Found): any string of bytes but the space between two
	// words, possibly empty. find puts each path in one argument of its
	// own, so what lies below its start path never parts arguments (a
	// new user's find . -name __pycache__ -exec rm -rf {} + could match
	// "rm * / *" only by a " / " inside one name).
	uFound uint16 = 260
	// optLen is the length of an optional group: uOpt and its two units;
	// repLen that of a repetition mark, uRep and its index.
	optLen = 3
	repLen = 2
)

// execUnitsGlobs is execUnits, but each word equal to one of globs (the
// values of a subject's plain glob words, Subject.Glob) is rendered as
// what its expansion can be (see uGlob, uRep): its Holes stand for no
// '/', and it may repeat. A subject too long for the index of uRep is
// rendered as execUnits renders it.
func execUnitsGlobs(words, globs []string) []uint16 {
	units, _ := execUnits(words)
	if len(globs) == 0 || len(units) > 60000 {
		return units
	}
	out := make([]uint16, 0, len(units)+8)
	first := true
	for _, w := range words {
		if w == Hole && !slices.Contains(globs, w) {
			// As execUnits renders a whole-word Hole.
			return units
		}
		if !first {
			out = append(out, ' ')
		}
		first = false
		start := len(out)
		if !strings.Contains(w, Hole) || !slices.Contains(globs, w) {
			out = appendUnits(out, w)
			continue
		}
		for i := 0; i < len(w); i++ {
			if strings.HasPrefix(w[i:], Hole) {
				out = append(out, uGlob)
				i += len(Hole) - 1
			} else {
				out = append(out, uint16(w[i]))
			}
		}
		out = append(out, uRep, uint16(start))
	}
	return out
}

// execUnitsFound is execUnits for argv without a whole-word Hole, the
// Holes of the words found marks (bit i for words[i], Subject.Found)
// rendered as uFound.
func execUnitsFound(words []string, found uint64) []uint16 {
	n := 0
	for _, w := range words {
		n += len(w) + 1
	}
	out := make([]uint16, 0, n)
	for i, w := range words {
		if i > 0 {
			out = append(out, ' ')
		}
		start := len(out)
		out = appendUnits(out, w)
		if i < 64 && found&(1<<i) != 0 {
			for k := start; k < len(out); k++ {
				if out[k] == uHole {
					out[k] = uFound
				}
			}
		}
	}
	return out
}

// execUnits renders argv as units, words joined by single spaces. A word
// that is exactly Hole may expand to zero or several words, so it becomes an
// optional group holding the Hole and one separating space. hasHole reports
// whether any Hole occurs.
func execUnits(words []string) (units []uint16, hasHole bool) {
	// One allocation: each word's bytes and at most three units around it.
	n := 0
	for _, w := range words {
		n += len(w) + 3
	}
	units = make([]uint16, 0, n)
	first := true // no separator is due before the next word
	for i, w := range words {
		if w == Hole {
			hasHole = true
			switch {
			case first && i == len(words)-1:
				units = append(units, uHole)
			case first:
				units = append(units, uOpt, uHole, ' ')
			default:
				units = append(units, uOpt, ' ', uHole)
			}
			continue
		}
		if !first {
			units = append(units, ' ')
		}
		first = false
		units = appendUnits(units, w)
		if strings.Contains(w, Hole) {
			hasHole = true
		}
	}
	return units, hasHole
}

// hasHole reports whether any of words holds a Hole: execUnits's
// hasHole, without making the units.
func hasHole(words []string) bool {
	for _, w := range words {
		if strings.Contains(w, Hole) {
			return true
		}
	}
	return false
}

// appendUnits appends the bytes of s, each Hole as uHole.
func appendUnits(units []uint16, s string) []uint16 {
	for i := 0; i < len(s); i++ {
		if s[i] == Hole[0] {
			units = append(units, uHole)
		} else {
			units = append(units, uint16(s[i]))
		}
	}
	return units
}

// holeMatcher decides a glob against units by dynamic programming over
// (pattern position j, unit position p), memoised. It is reused across
// patterns to save allocations; it is not safe for concurrent use.
type holeMatcher struct {
	memo  []uint8 // 0 unknown, 1 false, 2 true; index j*(n+1)+p
	pat   string
	empty []bool
	units []uint16
	m, n  int
}

func (h *holeMatcher) reset(g *glob, units []uint16) {
	h.pat, h.empty, h.units = g.pat, g.empty, units
	h.m, h.n = len(g.pat), len(units)
	size := (h.m + 1) * (h.n + 1)
	if cap(h.memo) < size {
		h.memo = make([]uint8, size)
	} else {
		h.memo = h.memo[:size]
		clear(h.memo)
	}
}

// could reports whether g matches at least one string that units can stand
// for: the intersection of the two languages is not empty. It is exact.
func (h *holeMatcher) could(g *glob, units []uint16) bool {
	if slices.Contains(units, uRep) {
		return h.couldRepeating(g, units)
	}
	h.reset(g, units)
	return h.couldAt(0, 0)
}

// couldRepeating is could for units with repetition marks (uRep), whose
// returns make the states a graph with cycles: a search over the states
// (pattern position j, unit position p) from (0, 0), each visited once,
// for an accepting one (the units done, the rest of the pattern able to
// match nothing). It is exact, as couldAt is.
func (h *holeMatcher) couldRepeating(g *glob, units []uint16) bool {
	h.reset(g, units) // memo: 0 not seen, 1 seen
	m, n := h.m, h.n
	var stack []int
	push := func(j, p int) {
		if k := j*(n+1) + p; h.memo[k] == 0 {
			h.memo[k] = 1
			stack = append(stack, k)
		}
	}
	push(0, 0)
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		j, p := k/(n+1), k%(n+1)
		if p == n {
			if j == m || g.empty[j] {
				return true
			}
			continue
		}
		switch u := units[p]; u {
		case uOpt:
			push(j, p+optLen)
			push(j, p+1)
		case uHole:
			push(j, p+1)
			if j < m {
				push(j+1, p)
			}
		case uGlob:
			// As a Hole, but it never stands for a '/', nor for the
			// space between two words: what it stands for is part of
			// one name.
			push(j, p+1)
			if j < m && g.pat[j] != '/' && g.pat[j] != ' ' {
				push(j+1, p)
			}
		case uFound:
			push(j, p+1)
			if j < m && g.pat[j] != ' ' {
				push(j+1, p)
			}
		case uRep:
			// No more words of the shape; or a space, and the word
			// again.
			push(j, p+repLen)
			if j < m {
				switch g.pat[j] {
				case ' ':
					push(j+1, int(units[p+1]))
				case '*':
					push(j, int(units[p+1]))
					push(j+1, p)
				}
			}
		default:
			switch {
			case j == m:
			case g.pat[j] == '*':
				push(j+1, p)
				push(j, p+1)
			case g.pat[j] == byte(u):
				push(j+1, p+1)
			}
		}
	}
	return false
}

// definite reports whether g matches every string units can stand for. It is
// sound but not complete: each Hole must be consumed inside one '*' run of
// the pattern, and each optional group must match both ways (absent and
// present).
func (h *holeMatcher) definite(g *glob, units []uint16) bool {
	h.reset(g, units)
	return h.defAt(0, 0)
}

func (h *holeMatcher) couldAt(j, p int) bool {
	if p == h.n {
		if j == h.m || h.empty[j] {
			return true
		}
		// Only Holes remain nowhere: the subject is exhausted.
		return false
	}
	k := j*(h.n+1) + p
	if v := h.memo[k]; v != 0 {
		return v == 2
	}
	var r bool
	switch u := h.units[p]; u {
	case uOpt:
		r = h.couldAt(j, p+optLen) || h.couldAt(j, p+1)
	case uHole:
		// The Hole ends here, or it takes the next pattern byte (a literal,
		// or a star's share) and goes on.
		r = h.couldAt(j, p+1) || (j < h.m && h.couldAt(j+1, p))
	case uGlob:
		r = h.couldAt(j, p+1) || (j < h.m && h.pat[j] != '/' && h.pat[j] != ' ' && h.couldAt(j+1, p))
	case uFound:
		r = h.couldAt(j, p+1) || (j < h.m && h.pat[j] != ' ' && h.couldAt(j+1, p))
	default:
		switch {
		case j == h.m:
			r = false
		case h.pat[j] == '*':
			r = h.couldAt(j+1, p) || h.couldAt(j, p+1)
		default:
			r = h.pat[j] == byte(u) && h.couldAt(j+1, p+1)
		}
	}
	h.memo[k] = b2u(r)
	return r
}

func (h *holeMatcher) defAt(j, p int) bool {
	if p == h.n {
		return j == h.m || h.empty[j]
	}
	k := j*(h.n+1) + p
	if v := h.memo[k]; v != 0 {
		return v == 2
	}
	var r bool
	switch u := h.units[p]; u {
	case uOpt:
		r = h.defAt(j, p+optLen) && h.defAt(j, p+1)
	case uHole, uGlob, uFound:
		// A Hole must lie inside a star run, whatever its length (a
		// glob's Hole is taken as any Hole: definite stays as sound as
		// without globs).
		r = j < h.m && h.pat[j] == '*' && (h.defAt(j, p+1) || h.defAt(j+1, p))
	case uRep:
		// The words a glob repeats lie inside a Hole's star run already
		// (as for a Hole, which may hold spaces).
		r = h.defAt(j, p+repLen)
	default:
		switch {
		case j == h.m:
			r = false
		case h.pat[j] == '*':
			r = h.defAt(j+1, p) || h.defAt(j, p+1)
		default:
			r = h.pat[j] == byte(u) && h.defAt(j+1, p+1)
		}
	}
	h.memo[k] = b2u(r)
	return r
}

func b2u(b bool) uint8 {
	if b {
		return 2
	}
	return 1
}
