package rules

import (
	"bytes"
	"slices"
)

// The index makes deciding cost what the subject is long, not what the
// policy is long. Every pattern is filed in a byte trie under its literal
// prefix (glob.key): a subject can only match patterns whose key is a prefix
// of it, so deciding walks the subject down the trie once and tries only the
// patterns met on the way. Patterns starting with '*' sit at the root and are
// tried for every subject; real policies have few.
//
// A subject with a Hole stops the walk at the Hole: patterns filed deeper
// might still match once the Hole is known, so for the could-match question
// each node also knows the deny patterns filed in its subtree: the trie's
// deny entries are kept in depth-first order, where a subtree's are one
// run, and a node holds the bounds of its run. Building is linear in the
// total key length; a per-node copy of the subtree's list cost time and
// memory in the keys' depth times the denies, at every start.

// entry is one compiled pattern of a rule. A path rule may have two entries,
// one for the pattern as written and one with its directory's symlinks
// resolved; both point at the same rule.
type entry struct {
	g    *glob
	rule *Rule
}

type tnode struct {
	// The first child is kept in the node: most nodes of a pattern trie
	// have one. Further children are in more, which few nodes have: a
	// node is 56 bytes rather than 96, and a subject's walk down a big
	// policy's trie touches fewer cache lines.
	key0 byte
	kid0 *tnode
	more *tkids
	here []int32 // entries whose key ends at this node
	// lo, hi bound the deny entries at or below this node in trie.deny.
	lo, hi int32
}

// tkids are a node's children after the first.
type tkids struct {
	keys []byte   // child edge labels, parallel to kids
	kids []*tnode // children
}

func (n *tnode) child(c byte) *tnode {
	if n.kid0 != nil && n.key0 == c {
		return n.kid0
	}
	m := n.more
	if m == nil {
		return nil
	}
	if len(m.keys) > 16 {
		if i := bytes.IndexByte(m.keys, c); i >= 0 {
			return m.kids[i]
		}
		return nil
	}
	// Most nodes have one child or a few: a loop, not a call.
	for i, k := range m.keys {
		if k == c {
			return m.kids[i]
		}
	}
	return nil
}

// trie indexes the entries of one section. Entries are in file order, so a
// lower entry index is an earlier rule.
type trie struct {
	root    *tnode
	entries []entry
	// deny holds the indexes of the deny entries, node by node in
	// depth-first order (see tnode.lo); first is the earliest, -1 for none.
	deny  []int32
	first int
	// rootGrams and rootAlways index the root's entries (see indexRoot)
	// for subjects with no Hole; nil rootGrams: try all of root.here.
	rootGrams  map[string][]int32
	rootAlways []int32
	// rootPairs has bit a<<8|b set when a gram of rootGrams starts with
	// bytes a, b: most positions of a subject are ruled out without a
	// map lookup.
	rootPairs *[1 << 13]byte
	// files maps a directory to the first entry naming its files (see
	// indexFiles); nil for the shell rules.
	files map[string]int32
}

func newTrie(entries []entry) *trie {
	// Nodes are allocated in blocks: a policy's trie has a node per byte
	// of its keys' distinct prefixes, and one allocation each made up
	// most of the cost of loading a policy in a fresh process.
	var arena []tnode
	alloc := func() *tnode {
		if len(arena) == cap(arena) {
			arena = make([]tnode, 0, 256)
		}
		arena = append(arena, tnode{})
		return &arena[len(arena)-1]
	}
	var more []tkids
	t := &trie{root: alloc(), entries: entries}
	for i, e := range entries {
		n := t.root
		for k := 0; k < len(e.g.key); k++ {
			c := e.g.key[k]
			next := n.child(c)
			if next == nil {
				next = alloc()
				if n.kid0 == nil {
					n.key0, n.kid0 = c, next
				} else {
					if n.more == nil {
						// In blocks too, like the nodes.
						if len(more) == cap(more) {
							more = make([]tkids, 0, 64)
						}
						more = append(more, tkids{})
						n.more = &more[len(more)-1]
					}
					n.more.keys = append(n.more.keys, c)
					n.more.kids = append(n.more.kids, next)
				}
			}
			n = next
		}
		n.here = append(n.here, int32(i))
	}
	t.first = -1
	t.fillDeny(t.root)
	t.indexRoot()
	return t
}

// gramLen is the length of the literal prefix the root index files a
// pattern's required fragment under.
const gramLen = 4

// indexRoot files each pattern at the root (one starting with '*', which
// every subject would have to try) under the first gramLen bytes of a
// literal every match contains (see required); those without one that
// long are tried for every subject, as before. A subject then tries only
// the root patterns whose fragment starts at one of its positions.
func (t *trie) indexRoot() {
	for _, ei := range t.root.here {
		f := t.entries[ei].g.required()
		if len(f) < gramLen {
			t.rootAlways = append(t.rootAlways, ei)
			continue
		}
		if t.rootGrams == nil {
			t.rootGrams = map[string][]int32{}
		}
		k := f[:gramLen]
		t.rootGrams[k] = append(t.rootGrams[k], ei)
		if t.rootPairs == nil {
			t.rootPairs = new([1 << 13]byte)
		}
		pair := uint16(k[0])<<8 | uint16(k[1])
		t.rootPairs[pair>>3] |= 1 << (pair & 7)
	}
}

// rootCandidates returns the root entries s may match: those filed under a
// gram of s, and those always tried; ascending, no repeats.
func (t *trie) rootCandidates(s string) []int32 {
	if t.rootGrams == nil {
		return t.root.here
	}
	var out []int32
	for j := 0; j+gramLen <= len(s); j++ {
		pair := uint16(s[j])<<8 | uint16(s[j+1])
		if t.rootPairs[pair>>3]&(1<<(pair&7)) == 0 {
			continue
		}
		if xs := t.rootGrams[s[j:j+gramLen]]; len(xs) > 0 {
			if out == nil {
				out = slices.Clone(t.rootAlways)
			}
			out = append(out, xs...)
		}
	}
	if out == nil {
		return t.rootAlways // shared: callers only read it
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fillDeny appends the deny entries at or below n to t.deny and sets n's
// bounds. Recursion depth is the longest key, bounded by the pattern length.
func (t *trie) fillDeny(n *tnode) {
	n.lo = int32(len(t.deny))
	for _, i := range n.here {
		if t.entries[i].rule.Decision == Deny {
			t.deny = append(t.deny, i)
			if t.first < 0 || int(i) < t.first {
				t.first = int(i)
			}
		}
	}
	if n.kid0 != nil {
		t.fillDeny(n.kid0)
	}
	if n.more != nil {
		for _, k := range n.more.kids {
			t.fillDeny(k)
		}
	}
	n.hi = int32(len(t.deny))
}

// hits are the earliest entries (indexes into trie.entries, -1 for none)
// that decide a subject: a deny that matches for every value of the Holes, a
// deny that could match for some value, an ask and an allow that match for
// every value.
type hits struct {
	deny, could, ask, allow int
}

var noHits = hits{-1, -1, -1, -1}

// add records entry i, a rule with decision d, keeping the earliest per
// decision.
func (h *hits) add(d Decision, i int32) {
	switch d {
	case Deny:
		earliest(&h.deny, i)
	case Ask:
		earliest(&h.ask, i)
	default:
		earliest(&h.allow, i)
	}
}

func earliest(cur *int, i int32) {
	if *cur < 0 || int(i) < *cur {
		*cur = int(i)
	}
}

// matchString finds the hits for a Hole-free subject; could is left -1
// (for such a subject could-match and match are the same question).
func (t *trie) matchString(s string) hits {
	h := noHits
	if t == nil {
		return h
	}
	n := t.root
	for i := 0; ; i++ {
		here := n.here
		if i == 0 {
			here = t.rootCandidates(s)
		}
		for _, ei := range here {
			e := t.entries[ei]
			if !e.g.match(s) {
				continue
			}
			h.add(e.rule.Decision, ei)
		}
		if i == len(s) {
			break
		}
		if n = n.child(s[i]); n == nil {
			break
		}
	}
	return h
}

// matchUnits finds the hits for a subject with Holes. Definite matches are
// looked for first; could-match only when no deny matches definitely, and
// it stops at the first deny found (path nodes first, then the subtree where
// the walk stopped), which is not necessarily the earliest in the file.
func (t *trie) matchUnits(units []uint16, hm *holeMatcher) hits {
	h := noHits
	if t == nil {
		return h
	}
	// A root pattern that matches every string units stand for matches
	// the one with each Hole empty and each optional group left out, so
	// it is among that string's root candidates; the others are tried
	// only for could-match.
	cands := t.rootCandidates(minimalString(units))
	stop := t.walkUnits(units, func(n *tnode, root bool) bool {
		for _, ei := range n.here {
			e := t.entries[ei]
			if e.rule.Decision == Deny && h.deny >= 0 && int(ei) > h.deny {
				continue
			}
			if root {
				for len(cands) > 0 && cands[0] < ei {
					cands = cands[1:]
				}
				if len(cands) == 0 || cands[0] != ei {
					continue
				}
			}
			if hm.definite(e.g, units) {
				h.add(e.rule.Decision, ei)
			}
		}
		return true
	})
	if h.deny >= 0 {
		return h
	}
	// No deny matched definitely: each deny on the path may still match
	// for some value of the Holes, in the order of the walk.
	t.walkUnits(units, func(n *tnode, _ bool) bool {
		for _, ei := range n.here {
			if e := t.entries[ei]; e.rule.Decision == Deny && hm.could(e.g, units) {
				h.could = int(ei)
				return false
			}
		}
		return true
	})
	if h.could >= 0 {
		return h
	}
	if stop != nil {
		// Ascending, so the earliest deny that could match is reported
		// (sorted here, on the rare path, rather than at every start).
		below := slices.Clone(t.deny[stop.lo:stop.hi])
		slices.Sort(below)
		for _, ei := range below {
			if slices.Contains(stop.here, ei) {
				continue // on the path: already tried
			}
			if hm.could(t.entries[ei].g, units) {
				h.could = int(ei)
				return h
			}
		}
	}
	return h
}

// walkUnits walks units down the trie from the root, calling visit for
// each node on the way (root true for the root) until visit returns false,
// the units end, a node is missing, or a Hole or optional group stops the
// walk; it returns the node a Hole or optional group stopped the walk at,
// or nil.
func (t *trie) walkUnits(units []uint16, visit func(n *tnode, root bool) bool) (stop *tnode) {
	n := t.root
	for i := 0; ; i++ {
		if !visit(n, i == 0) {
			return nil
		}
		if i == len(units) {
			return nil
		}
		u := units[i]
		if u == uHole || u == uOpt || u == uGlob || u == uRep || u == uFound {
			return n
		}
		if n = n.child(byte(u)); n == nil {
			return nil
		}
	}
}

// minimalString returns the shortest string units stand for: each Hole
// empty, each optional group left out.
func minimalString(units []uint16) string {
	b := make([]byte, 0, len(units))
	for i := 0; i < len(units); i++ {
		switch u := units[i]; u {
		case uOpt:
			i += optLen - 1
		case uRep:
			i += repLen - 1
		case uHole, uGlob, uFound:
		default:
			b = append(b, byte(u))
		}
	}
	return string(b)
}

// firstDeny returns the earliest deny entry of the section, or -1.
func (t *trie) firstDeny() int {
	if t == nil {
		return -1
	}
	return t.first
}
