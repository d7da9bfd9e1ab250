package rules

import (
	"path"
	"strings"
)

// namesProtected returns the protected pattern of a name that word, a path
// whose run-time parts (Holes) all lie in its last component, names now in
// its directory, "" for none: the names the directory holds that the
// component matches, a Hole as any run of characters (a glob's `*`, `?` or
// `[…]`, a variable's value), each as a path subject (a link resolved),
// protected itself,
// or, when alters, holding a protected path (see protectedHeld; held is
// then true). A glob in
// a protected file's own name (`>> ~/.bashr*`, `rm -f .guardsh.yam?`,
// `truncate -s0 LOGDIR/audit.js*`) ran unasked in mode bypass (attack run
// 77). A glob matches as bash's would with Context.PlainGlobs (its `*`
// leaves .git and .bashrc alone), any name of the directory without
// (extglob's `*(.)bashrc`, nocaseglob's `.BASHR*`: attack run 78). Open
// (a variable's value, Subject.Open), the component must start with a
// literal part (`~/.bashr$X`): a value that is the whole name (`rm -f
// "$f"`) may be any, which the README's known limits say. A relative word is read from cwd ("" when unknown: no answer); a
// directory that does not exist, or is not read, names nothing.
func (x *pathIndex) namesProtected(word, pattern, cwd string, open, glob, alters bool, ctx Context) (pat string, held bool) {
	slash := strings.LastIndexByte(word, '/')
	h := strings.Index(word, Hole)
	if h < 0 || slash > h || open && h == slash+1 || !open && !glob && pattern == "" {
		// (Neither a glob nor a variable's value: a process
		// substitution's /dev/fd name, find's {}.)
		return "", false
	}
	last := word[slash+1:]
	match := globOfName(last)
	if pattern != "" && !strings.Contains(pattern[strings.LastIndexByte(pattern, '/')+1:], Hole) {
		// The glob as written: `.[testing]` matches one character after
		// the dot, not .git (bash reads [!…] as path.Match reads [^…]).
		match = strings.ReplaceAll(pattern[strings.LastIndexByte(pattern, '/')+1:], "[!", "[^")
	}
	dotted := strings.HasPrefix(last, ".") || open || !ctx.PlainGlobs
	if !ctx.PlainGlobs && !open {
		match = "*" // any name: how the glob matches is not known
	}
	dir := "."
	if slash >= 0 {
		dir = word[:slash]
		if dir == "" {
			dir = "/"
		}
	}
	if !strings.HasPrefix(dir, "/") {
		if cwd == "" {
			return "", false
		}
		dir = path.Join(cwd, dir)
	}
	d := newPathSubject(dir, ctx)
	if !d.static {
		return "", false
	}
	if open {
		// A variable's value names what it names when it runs, there or
		// not now: a protected name the directory could hold counts
		// (attack run 79: `>> ~/.gitcon$f` made ~/.gitconfig).
		for _, n := range x.protectedNames(d.cleaned, ctx.Lookups) {
			if m, err := path.Match(match, n); m || err != nil || strings.ContainsAny(n, "*?[") {
				if pat := x.protectedBy(newPathSubject(d.cleaned+"/"+n, ctx)); pat != "" {
					return pat, false
				}
				return "what lies in " + d.cleaned + ", which may hold protected names (" + n + ")", false
			}
		}
	}
	names := ctx.Lookups.listed(d.resolved)
	for n := range names {
		if m, err := path.Match(match, n); err == nil && !m || !dotted && strings.HasPrefix(n, ".") {
			continue
		}
		p := newPathSubject(d.cleaned+"/"+n, ctx)
		if pat := x.protectedBy(p); pat != "" {
			return pat, false
		}
		if alters {
			if pat := x.protectedHeld(p.resolved, ctx.Lookups); pat != "" {
				return pat, true
			}
		}
	}
	return "", false
}

// globPattern returns s.GlobPatterns[i], "" for none.
func globPattern(s Subject, i int) string {
	if i < len(s.GlobPatterns) {
		return s.GlobPatterns[i]
	}
	return ""
}

// afterRunTime returns what follows the last component of path word that
// holds a run-time part (a Hole), "" when that is the last component.
func afterRunTime(word string) string {
	h := strings.LastIndex(word, Hole)
	if h < 0 {
		return ""
	}
	slash := strings.IndexByte(word[h:], '/')
	if slash < 0 {
		return ""
	}
	return strings.TrimLeft(word[h+slash:], "/")
}
