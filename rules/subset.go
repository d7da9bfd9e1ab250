package rules

// This file decides inclusion between pattern languages, for Lint: does
// every string one pattern matches also match another? A pattern has one
// metacharacter, '*', so it is a small nondeterministic automaton whose
// states are positions in the pattern; a bare shell pattern ("git *",
// which also matches "git") is the union of two such automata. Inclusion
// is decided exactly by a breadth-first search over pairs of states of the
// two automata's subset constructions: a reachable pair where a accepts
// and b does not is a string that a matches and b does not.
//
// Only bytes written literally in a or b can be told apart by either
// automaton; every other byte behaves alike, so the search reads the
// literal bytes and one stand-in for the rest: '*', which is never a
// literal.

// starNFA is the automaton of a union of star patterns. A state set has
// one byte (0 or 1) per position of each pattern, including the position
// after its end; it is a string so that it can be a map key.
type starNFA struct {
	alts []string
	offs []int // where each alternative's positions start in a state set
	n    int   // size of a state set
}

func newStarNFA(g *glob) *starNFA {
	a := &starNFA{alts: alternatives(g)}
	for _, p := range a.alts {
		a.offs = append(a.offs, a.n)
		a.n += len(p) + 1
	}
	return a
}

// closure adds to set the positions after each star it holds: a star may
// match the empty string.
func (a *starNFA) closure(set []byte) string {
	for k, p := range a.alts {
		for j := 0; j < len(p); j++ {
			if set[a.offs[k]+j] == 1 && p[j] == '*' {
				set[a.offs[k]+j+1] = 1
			}
		}
	}
	return string(set)
}

func (a *starNFA) start() string {
	set := make([]byte, a.n)
	for k := range a.alts {
		set[a.offs[k]] = 1
	}
	return a.closure(set)
}

// step returns the state set after reading c in set.
func (a *starNFA) step(set string, c byte) string {
	next := make([]byte, a.n)
	for k, p := range a.alts {
		for j := 0; j < len(p); j++ {
			if set[a.offs[k]+j] == 0 {
				continue
			}
			switch p[j] {
			case '*':
				next[a.offs[k]+j] = 1
			case c:
				next[a.offs[k]+j+1] = 1
			}
		}
	}
	return a.closure(next)
}

func (a *starNFA) accepts(set string) bool {
	for k, p := range a.alts {
		if set[a.offs[k]+len(p)] == 1 {
			return true
		}
	}
	return false
}

// globDiff returns a shortest string that a matches and b does not, and
// true; or "" and false when every string a matches, b matches too. A
// byte that neither pattern writes literally appears in the string as '*'.
func globDiff(a, b *glob) (string, bool) {
	na, nb := newStarNFA(a), newStarNFA(b)
	alphabet := literalBytes(na.alts, nb.alts)
	type pair struct{ a, b string }
	type item struct {
		pair
		text string
	}
	empty := string(make([]byte, na.n))
	first := pair{na.start(), nb.start()}
	seen := map[pair]bool{first: true}
	queue := []item{{first, ""}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if na.accepts(it.a) && !nb.accepts(it.b) {
			return it.text, true
		}
		for _, c := range alphabet {
			next := pair{na.step(it.a, c), nb.step(it.b, c)}
			if next.a == empty || seen[next] {
				continue // a matches nothing from here
			}
			seen[next] = true
			queue = append(queue, item{next, it.text + string(c)})
		}
	}
	return "", false
}

// globSubset reports whether every string a matches, b matches too.
func globSubset(a, b *glob) bool {
	_, found := globDiff(a, b)
	return !found
}

// alternatives returns the star patterns whose union is g's language: the
// pattern, and for a bare pattern also the pattern without its final " *".
func alternatives(g *glob) []string {
	if g.bare {
		return []string{g.pat, g.pat[:len(g.pat)-2]}
	}
	return []string{g.pat}
}

// literalBytes returns the bytes written literally in the patterns, in
// increasing order, followed by '*' standing for every other byte.
func literalBytes(pats ...[]string) []byte {
	var used [256]bool
	for _, ps := range pats {
		for _, p := range ps {
			for i := 0; i < len(p); i++ {
				used[p[i]] = true
			}
		}
	}
	var out []byte
	for c := 0; c < 256; c++ {
		if used[c] && c != '*' {
			out = append(out, byte(c))
		}
	}
	return append(out, '*')
}
