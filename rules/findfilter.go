package rules

import (
	"os"
	"path"
	"slices"
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
// options and actions joined by "and" (no -o, -or, "," or parentheses; a
// "!" or -not before a test other than a name), so that every -name test
// narrows what every action takes
// (GNU find(1): EXPRESSION, OPERATORS), and it holds one at least. Not ok
// for a name only known at run time, one holding a bracket (fnmatch(3)
// reads [!…] where path.Match reads [^…]) or a pattern path.Match
// refuses, a word only known at run time among the tests (it may be an
// operator), links followed (-L, -H, -follow), or start paths findStarts
// cannot read. Only the names tested before the first action that
// changes what it takes (-delete, -exec …) count: find evaluates its
// expression left to right.
func findFilterOf(words []string) (f findFilter, ok bool) {
	if _, ok := findStarts(words[1:]); !ok {
		return findFilter{}, false
	}
	// acting: an action that changes what it takes came before; a test
	// after it does not narrow what it took (find evaluates left to
	// right: attack run 78's `find . -delete -name zzz` removed all).
	acting := false
	for i := 1; i < len(words); i++ {
		switch w := words[i]; w {
		case "!", "-not":
			// A negated test narrows what the actions take as any test
			// does, but a negated name is no name they are limited to
			// (`find . ! -path './vendor/*' -name '*.go'`).
			if i+1 < len(words) && (words[i+1] == "-name" || words[i+1] == "-iname") {
				i += 2
				continue
			}
			if i+1 < len(words) && (words[i+1] == "!" || words[i+1] == "-not" || words[i+1] == "(") {
				return findFilter{}, false
			}
		case "-o", "-or", ",", "(", ")", "-follow":
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
			if !acting {
				f.names = append(f.names, nameTest{glob: g, icase: w == "-iname"})
			}
			i++
		case "-exec", "-execdir", "-ok", "-okdir":
			f.whole = true
			acting = true
			i = findexpr.ExecEnd(words, i+1)
		case "-delete":
			acting = true
		default:
			i += findexpr.Values(w)
		}
	}
	// A word only known at run time, or a glob, anywhere (a test's value
	// included) may be several words, or none under nullglob, and the
	// expression another than it reads (attack run 80: `-path src/zz*
	// -name -o -name pre-commit`).
	if slices.ContainsFunc(words[1:], func(w string) bool { return strings.Contains(w, Hole) }) {
		return findFilter{}, false
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

// maxFindWalked is how many entries findReaches looks through below a
// start path before it takes a protected path as reached: a repository of
// a few thousand files and its .git fit; a home directory, or a
// node_modules tree, does not.
const maxFindWalked = 20000

// findReaches returns the protected pattern of a path below dir (named
// start on find's command line) that find, walking it with filter f,
// would act on: one whose name f takes, or, when f.whole (the action's
// command is given the entry and may change all it holds), one below a
// directory f takes, start itself included. The walk is find's own: every
// entry below dir, links not followed (GNU find -P), so a nested
// repository's .git is met where it lies (attack run 78: `find . -name
// post-checkout -delete` removed sub/.git/hooks/post-checkout); a link f
// takes counts with where it leads too (the action's command may follow
// it). "" for none. A directory that cannot be read, or more than
// maxFindWalked entries, counts as reached.
func (x *pathIndex) findReaches(dir, start string, f findFilter, lk *Lookups) string {
	budget := maxFindWalked
	protected := func(p string) string {
		return x.protectedBy(pathSubject{cleaned: p, resolved: p})
	}
	var walk func(p string, under bool) string
	walk = func(p string, under bool) string {
		entries, err := os.ReadDir(p)
		if err != nil {
			if os.IsNotExist(err) {
				return ""
			}
			return "what lies below " + p + ", which could not be read"
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return "what lies below " + dir + " (more entries than guardsh looks through)"
			}
			q := p + "/" + e.Name()
			if p == "/" {
				q = "/" + e.Name()
			}
			took := under || f.takes(e.Name())
			if took {
				if pat := protected(q); pat != "" {
					return pat
				}
				if f.whole && e.Type()&os.ModeSymlink != 0 {
					if r, err := lk.evalSymlinks(q); err == nil {
						if pat := protected(r); pat != "" {
							return pat
						}
					}
				}
			}
			if e.IsDir() {
				if pat := walk(q, f.whole && took); pat != "" {
					return pat
				}
			}
		}
		return ""
	}
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "/"
	}
	took := f.takes(path.Base(path.Clean(start)))
	if took {
		if pat := protected(dir); pat != "" {
			return pat
		}
	}
	return walk(dir, f.whole && took)
}
