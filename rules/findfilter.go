package rules

import (
	"os"
	"path"
	"strings"

	"github.com/guardsh/guardsh/internal/findexpr"
)

// findFilter is what find's expression says of the entries its actions
// take (see findFilterOf).
type findFilter struct {
	// names are the globs of the -name and -iname tests: an entry's name
	// must match each for an action to take it.
	names []nameTest
	// whole: an -exec, -execdir, -ok or -okdir action, whose command is
	// given an entry and may change all it holds (rm -rf {}); -delete
	// removes the entry alone (a directory only once it is empty).
	whole bool
}

// nameTest is one -name (or, icase, -iname) glob.
type nameTest struct {
	glob  string
	icase bool
}

// findFilterOf reads find's words (the program's name first) for the names
// its actions are limited to: ok when the expression is only tests,
// options and actions joined by "and" (no -o, -or, ",", "!", -not or
// parentheses), so that every -name test narrows what every action takes
// (GNU find(1): EXPRESSION, OPERATORS), and it holds one at least. Not ok
// for a name only known at run time, one holding a bracket (fnmatch(3)
// reads [!…] where path.Match reads [^…]) or a pattern path.Match
// refuses, a word only known at run time among the tests (it may be an
// operator), links followed (-L, -H, -follow), or start paths findStarts
// cannot read.
func findFilterOf(words []string) (f findFilter, ok bool) {
	if _, ok := findStarts(words[1:]); !ok {
		return findFilter{}, false
	}
	for i := 1; i < len(words); i++ {
		switch w := words[i]; w {
		case "-o", "-or", ",", "!", "-not", "(", ")", "-follow":
			return findFilter{}, false
		case "-name", "-iname":
			if i+1 == len(words) {
				return findFilter{}, false
			}
			g := words[i+1]
			if strings.Contains(g, Hole) || strings.Contains(g, "[") {
				return findFilter{}, false
			}
			if _, err := path.Match(g, ""); err != nil {
				return findFilter{}, false
			}
			f.names = append(f.names, nameTest{glob: g, icase: w == "-iname"})
			i++
		case "-exec", "-execdir", "-ok", "-okdir":
			f.whole = true
			for i+1 < len(words) && words[i+1] != ";" && words[i+1] != "+" {
				i++
			}
			i++
		default:
			if strings.Contains(w, Hole) {
				return findFilter{}, false
			}
			i += findexpr.Values(w)
		}
	}
	return f, len(f.names) > 0
}

// takes reports whether an entry named name matches every name test.
func (f findFilter) takes(name string) bool {
	for _, t := range f.names {
		g, n := t.glob, name
		if t.icase {
			g, n = strings.ToLower(g), strings.ToLower(n)
		}
		if m, _ := path.Match(g, n); !m {
			return false
		}
	}
	return true
}

// maxFindWalked is how many entries findReaches looks through below the
// protected paths a find walks; past it, one counts as reached. A
// repository's .git (protected whole) holds a few thousand entries.
const maxFindWalked = 20000

// findReaches returns the protected pattern of a protected path dir holds
// (see protectedRoots) that find, walking dir (named start on its command
// line) with filter f, would act on: one whose name or the name of an
// entry below it f takes, or, when f.whole, one below a directory f takes
// on the way (start itself included); or of a pattern for any directory
// whose first name f takes (.git: one may lie at any depth). "" for none. A protected path that
// could not be read, or more than maxFindWalked entries, counts as reached.
func (x *pathIndex) findReaches(dir, start string, f findFilter, lk *Lookups) string {
	roots, pat := x.protectedRoots(dir, lk)
	if pat != "" {
		return pat
	}
	// A name a pattern for any directory holds (.git, .claude) may be
	// met anywhere below dir, where protectedRoots does not look: a find
	// that takes such a name reaches one (`find . -name '*' -delete`
	// beside a nested repository).
	for _, g := range x.protected {
		if rest, ok := strings.CutPrefix(g.pat, "*/"); ok {
			if first, _, _ := strings.Cut(rest, "/"); f.takes(first) {
				return g.pat
			}
		}
	}
	budget := maxFindWalked
	for _, r := range roots {
		if f.whole {
			way := []string{path.Base(path.Clean(start))}
			if rel, ok := strings.CutPrefix(r.path, strings.TrimSuffix(dir, "/")+"/"); ok {
				parts := strings.Split(rel, "/")
				way = append(way, parts[:len(parts)-1]...)
			}
			for _, n := range way {
				if f.takes(n) {
					return r.pat
				}
			}
		}
		if walkTakes(r.path, f, &budget) {
			return r.pat
		}
	}
	return ""
}

// walkTakes reports whether f takes p or an entry below it (links not
// followed, as find -P walks), within budget entries; a directory that
// cannot be read, or a budget spent, counts as taken.
func walkTakes(p string, f findFilter, budget *int) bool {
	if f.takes(path.Base(p)) {
		return true
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return !os.IsNotExist(err)
	}
	if !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return true
	}
	for _, e := range entries {
		if *budget--; *budget < 0 {
			return true
		}
		if e.IsDir() {
			if walkTakes(p+"/"+e.Name(), f, budget) {
				return true
			}
		} else if f.takes(e.Name()) {
			return true
		}
	}
	return false
}

// protectedRoot is a protected path that exists below a directory, and
// the pattern that protects it.
type protectedRoot struct{ path, pat string }

// protectedRoots returns the protected paths held below dir, an existing
// directory, as protectedHeld finds them, each that exists: a path an
// anchored pattern names below dir (the deepest directory before a glob
// in its last component: ~/.ssh for ~/.ssh/*, each name a glob in its
// last component matches), a .git in dir for the patterns of any
// repository (*/.git/*), and dir's entry named by a pattern that holds
// in any directory (*/.claude/settings.json). pat is set instead when
// what is protected cannot be told apart from the rest (dir inside a
// .git, a glob before the last component, a listing that fails).
func (x *pathIndex) protectedRoots(dir string, lk *Lookups) (roots []protectedRoot, pat string) {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	add := func(p, pat string) {
		if _, err := lk.lstat(p); err == nil {
			roots = append(roots, protectedRoot{p, pat})
		}
	}
	for _, g := range x.protected {
		if rest, ok := strings.CutPrefix(g.pat, "*/"); ok {
			if strings.Contains(prefix, "/.git/") || path.Base(dir) == ".git" {
				return nil, g.pat
			}
			first, after, _ := strings.Cut(rest, "/")
			if strings.ContainsAny(first, "*?[") {
				return nil, g.pat
			}
			if path.Base(dir) == first && after != "" {
				add(path.Join(dir, literalHead(after)), g.pat)
			}
			add(path.Join(dir, first, literalHead(after)), g.pat)
			continue
		}
		i := strings.IndexAny(g.pat, "*?[")
		lit := g.pat
		if i >= 0 {
			lit = g.pat[:i]
		}
		if !strings.HasPrefix(lit, prefix) {
			continue
		}
		if i < 0 {
			add(g.pat, g.pat)
			continue
		}
		d, last := path.Split(g.pat)
		if strings.ContainsAny(d, "*?[") {
			return nil, g.pat
		}
		names := lk.listed(strings.TrimSuffix(d, "/"))
		if names == nil {
			return nil, g.pat
		}
		for n := range names {
			if m, _ := path.Match(last, n); m {
				add(d+n, g.pat)
			}
		}
	}
	return roots, ""
}

// literalHead returns the components of a pattern's path before the first
// that holds a glob, "" for none (.git/* gives "", hooks/x gives hooks/x).
func literalHead(p string) string {
	var head []string
	for _, c := range strings.Split(p, "/") {
		if c == "" || strings.ContainsAny(c, "*?[") {
			break
		}
		head = append(head, c)
	}
	return strings.Join(head, "/")
}
