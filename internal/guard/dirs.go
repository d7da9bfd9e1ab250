package guard

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// Working directories a cd leads to.
//
// Relative paths are resolved against the working directory, which a cd in
// the same command changes. When every cd, pushd and popd of the text has
// a static target (`cd sub`, `cd /srv/app`, `cd`, `cd ~/x`), the
// directories the commands may run in are known: the starting one and
// each target, reached from any directory before it (a failed cd stays
// put). A segment is decided in each directory a cd before it may lead
// to — the segments run in the order the analysis gives them, so `cd sub
// && touch f && cd ..` writes sub/f, not ../f — or, when some segment
// may run again or out of order (a loop, a function or trap body), in
// every one of them; the strictest verdict counts. Anything else that may change the
// directory (`cd "$d"`, `cd -`, eval of run-time text, a command whose name
// is only known at run time, CDPATH assigned, `shopt -s autocd` or
// `cdable_vars`) leaves relative paths unknown (rules.Context.CwdUnknown).
// guardsh removes CDPATH from the real shell's environment (see
// interp.ShellEnv), so a relative cd goes where it says.

// maxDirs bounds the directories tracked; more leave the directory unknown.
const maxDirs = 8

// dirs returns the directories segs may run in, starting from start, or
// known false; and for each segment, how many of them (a prefix of out)
// it may run in: those a cd before it may lead to, or all of them when a
// segment may run again (interp.Segment.Repeats: loops, function and trap
// bodies run in any order with the rest). In a file an allow rule vouches
// for (see decide), only the static cds count.
//
// With noLinks false (a segment can make a link: rules.MakesNoLinks), a cd
// whose target holds ".." after a name leaves the directory unknown: that
// name may be a link by then, and `cd -P` (or `set -o physical`) goes to
// its target's parent (attack run 34: `rmdir x/p && ln -s . x/p && cd -P
// x/p/..`). And a cd into a name after a segment that can make links
// (firstLinker, the index of the first; -1 when an earlier command may
// have: Guard.LinksMade) leaves it unknown too: that segment may have
// made the name a link to anywhere, and the cd's landing, where every
// relative path after it starts, is then there (attack run 41: `git
// checkout evil -- lnk; cd lnk && cat ../.ssh/id_rsa` with lnk a link
// to a directory below home in branch evil).
//
// from is the index of the first segment in a directory only known at run
// time (len(segs) for none): the one where a cd the analysis cannot
// follow, or anything else that makes the directory unknown, stands, when
// no segment may run again or out of order — those before it run before
// it where they were decided (`make build && cd "$d" && …`: make is
// decided in the start directory) — else 0.
//
// With cdpath (interp.Options.CDPATHMaySet), a cd to a relative target
// whose first component is not "." or ".." leaves the directory unknown:
// CDPATH may send it anywhere (attack run 58: `guardsh -lc 'cd .ssh &&
// cat id_rsa'` with CDPATH=.:~ in ~/.bash_profile read the key).
func dirs(segs []interp.Segment, start, home string, vouched map[string]*rules.Rule, noLinks bool, firstLinker int, cdpath bool) (out []string, each [][]string, from int) {
	out = []string{start}
	upto := make([]int, len(segs))
	repeats := slices.ContainsFunc(segs, func(s interp.Segment) bool { return s.Repeats })
	from = len(segs)
	unknownAt := func(i int) int {
		if repeats {
			return 0
		}
		return i
	}
	// lands[k] are the directories the cd of segment k may leave the
	// shell in: where it leads, or for popd any directory counted before.
	// A segment after `cd DIR &&` (Segment.AfterCd) runs where that cd
	// led or where any cd after it leaves the shell (reach) — not where
	// a failed first cd would have stayed; a later cd back to a directory
	// counted before counts too (attack run 40: `cd sub && { cd ..; rm
	// -rf .git; }`).
	lands := map[int][]string{}
	reach := func(k, i int) []string {
		set := slices.Clone(lands[k])
		for j := k + 1; j < i; j++ {
			for _, d := range lands[j] {
				if !slices.Contains(set, d) {
					set = append(set, d)
				}
			}
		}
		return set
	}
	ordered := true
walk:
	for i, s := range segs {
		upto[i] = len(out)
		if s.Repeats {
			ordered = false
		}
		trusted := s.Sourced != "" && vouched[s.Sourced] != nil
		if !trusted && mentionsDirState(s) || enablesDirOption(s) {
			from = unknownAt(i)
			break
		}
		if !trusted && movesDir(s, out, home) {
			// The shell's directory (or one above it) moved: it is the
			// same directory, somewhere else, and a ".." from it
			// climbs from there (attack run 58: `cd t && mv ../t ../a/
			// && cat ../../../.ssh/id_rsa` read the key).
			from = unknownAt(i + 1)
			break
		}
		if !s.MayChangeDir() {
			continue
		}
		target, ok := cdTarget(s, home)
		if trusted && (!ok || s.Repeats) {
			// A file an allow rule vouches for is trusted not to move
			// the directory where the analysis cannot follow (snapshots
			// eval run-time text); its static cds are followed.
			continue
		}
		if !ok || (s.Repeats && !strings.HasPrefix(target, "/")) {
			// A relative cd that may run again goes further each time.
			from = unknownAt(i)
			break
		}
		if cdpath && !trusted && viaCDPATH(target) {
			from = unknownAt(i + 1)
			break
		}
		if target == "" {
			// popd: back to a directory already counted, any of them.
			lands[i] = slices.Clone(out)
			continue
		}
		if !noLinks && rules.ClimbsAfterName(target) || firstLinker < i && namesDir(target) {
			// (The cd's own target is where the shell stands then.)
			from = unknownAt(i + 1)
			break
		}
		starts := out
		if k := s.AfterCd - 1; k >= 0 && k < i && lands[k] != nil {
			starts = reach(k, i)
		}
		var landed []string
		for _, d := range slices.Clone(starts) {
			for _, next := range cdLands(d, target) {
				if perProcessDir(next) {
					// /proc/self/root/…, /proc/PID/cwd, /dev/fd/N: a
					// directory as the shell's process sees it, which
					// relative paths would be decided as written
					// (attack run 50: `cd /proc/self/root/home/u/.ssh
					// && cat id_rsa`).
					from = unknownAt(i + 1)
					out = out[:upto[i]]
					break walk
				}
				if !slices.Contains(landed, next) {
					landed = append(landed, next)
				}
				if !slices.Contains(out, next) {
					out = append(out, next)
				}
			}
			if len(out) > maxDirs {
				from = unknownAt(i)
				out = out[:upto[i]]
				break walk
			}
		}
		// (A failed cd leaves the shell where it was, in starts: the
		// segments after it count that too, in reach or in out.)
		lands[i] = landed
	}
	if from == 0 {
		return nil, nil, 0
	}
	each = make([][]string, len(segs))
	for i, s := range segs[:from] {
		switch k := s.AfterCd - 1; {
		case !ordered:
			each[i] = out
		case k >= 0 && k < i && lands[k] != nil:
			each[i] = reach(k, i)
		default:
			each[i] = out[:upto[i]]
		}
	}
	return out, each, from
}

// gitCDirs returns where a git segment's -C options lead from each of
// dirs (each -C taken from the last, as git does), or nil when it has
// none; dynamic when one is only known at run time.
func gitCDirs(seg interp.Segment, dirs []string) (out []string, dynamic bool) {
	if seg.Kind != interp.Exec || len(seg.Args) < 2 || path.Base(seg.Args[0].Value) != "git" {
		return nil, false
	}
	var cs []string
	args := seg.Args[1:]
	for i := 0; i < len(args) && strings.HasPrefix(args[i].Value, "-"); i++ {
		v := args[i].Value
		switch {
		case v == "-C":
			if i+1 >= len(args) {
				return nil, true
			}
			cs = append(cs, args[i+1].Value)
			i++
		case strings.HasPrefix(v, "-C"):
			cs = append(cs, v[2:])
		case v == "-c" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--exec-path" || v == "--config-env":
			i++
		}
	}
	if len(cs) == 0 {
		return nil, false
	}
	for _, c := range cs {
		if c == "" || strings.Contains(c, interp.Hole) {
			return nil, true
		}
	}
	out = make([]string, len(dirs))
	for k, d := range dirs {
		for _, c := range cs {
			d = absIn(d, c)
		}
		out[k] = d
	}
	return out, false
}

// gitElsewhere reports a git segment with a global option that moves
// where git resolves relative paths: -C DIR, --git-dir, --work-tree (in
// any spelling, glued with = too).
func gitElsewhere(seg interp.Segment) bool {
	if seg.Kind != interp.Exec || len(seg.Args) < 2 || path.Base(seg.Args[0].Value) != "git" {
		return false
	}
	for _, a := range seg.Args[1:] {
		v := a.Value
		if !strings.HasPrefix(v, "-") {
			return false
		}
		name, _, _ := strings.Cut(v, "=")
		if strings.HasPrefix(v, "-C") || name == "--git-dir" || name == "--work-tree" {
			return true
		}
	}
	return false
}

// viaCDPATH reports a cd target bash looks up in CDPATH: relative, its
// first component not "." nor "..".
func viaCDPATH(target string) bool {
	if target == "" || strings.HasPrefix(target, "/") {
		return false
	}
	first, _, _ := strings.Cut(target, "/")
	return first != "." && first != ".."
}

// movesDir reports a segment that renames files (mv, git mv, rename,
// mmv) and may move one of dirs — the directories the shell may be in —
// or a directory above one: an operand only known at run time, or a
// source (not the destination) that names such a directory from any of
// dirs, as written or with its links resolved. rename and mmv take
// patterns: any call may; so may git mv run from elsewhere (-C,
// --work-tree). With -t DIR in any spelling (targetOption), every operand
// is taken for a source.
func movesDir(s interp.Segment, dirs []string, home string) bool {
	if len(s.Args) == 0 {
		return false
	}
	args := s.Args[1:]
	switch path.Base(s.Args[0].Value) {
	case "mv":
	case "rename", "mmv", "prename", "file-rename":
		return true
	case "git":
		if gitElsewhere(s) {
			return true
		}
		words := make([]string, len(s.Args))
		for k, a := range s.Args {
			words[k] = a.Value
		}
		i := rules.GitSubcommandAt(words)
		if i >= len(words) || words[i] != "mv" {
			return false
		}
		args = s.Args[i+1:]
	default:
		return false
	}
	// The sources: every operand but the last (the destination, which
	// stays where it is), or all of them after -t DIR.
	var sources []string
	target := false
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case strings.Contains(v, interp.Hole):
			return true
		case v == "--":
			for _, a := range args[i+1:] {
				sources = append(sources, a.Value)
			}
			i = len(args)
		case targetOption(v):
			// Then every operand may be a source, the option's value
			// (the destination) too: at worst a destination taken for
			// a source.
			target = true
		case strings.HasPrefix(v, "-"):
		default:
			sources = append(sources, v)
		}
	}
	if !target && len(sources) > 0 {
		sources = sources[:len(sources)-1]
	}
	for _, v := range sources {
		if strings.Contains(v, interp.Hole) {
			return true
		}
		if v == "~" || strings.HasPrefix(v, "~/") {
			v = home + v[1:]
		}
		for _, d := range dirs {
			p := v
			if !filepath.IsAbs(p) {
				p = filepath.Join(d, p)
			}
			p = filepath.Clean(p)
			real, err := filepath.EvalSymlinks(p)
			for _, e := range dirs {
				if within(e, p) || err == nil && (within(e, real) || within(realOr(e), real)) {
					return true
				}
			}
		}
	}
	return false
}

// targetOption reports mv's -t DIR in any spelling: a short option group
// holding t (-t, -vt, -tDIR), or --target-directory abbreviated as
// getopt takes it (--t, --target, --target=DIR; attack run 60: `mv -vt
// ../a ../t` and `mv --target ../a ../t` moved the shell's directory
// unseen).
func targetOption(v string) bool {
	if len(v) >= 2 && v[0] == '-' && v[1] != '-' {
		return strings.IndexByte(v[1:], 't') >= 0
	}
	name, _, _ := strings.Cut(v, "=")
	return len(name) >= 3 && strings.HasPrefix("--target-directory", name)
}

// within reports whether dir is p or below it.
func within(dir, p string) bool {
	return dir == p || p == "/" || strings.HasPrefix(dir, p+"/")
}

// realOr returns d with its links resolved, or d.
func realOr(d string) string {
	if r, err := filepath.EvalSymlinks(d); err == nil {
		return r
	}
	return d
}

// perProcessDir reports a directory under /proc or /dev (/proc/self/root,
// /proc/PID/cwd, /dev/fd/N …): what it is depends on the process that
// looks, and a path below it does not read as the file it names.
func perProcessDir(p string) bool {
	return p == "/proc" || strings.HasPrefix(p, "/proc/") || p == "/dev" || strings.HasPrefix(p, "/dev/")
}

// namesDir reports whether the cd target p has a component that is a
// name (not "", "." or ".."), one a link may stand for.
func namesDir(p string) bool {
	for c := range strings.SplitSeq(p, "/") {
		if c != "" && c != "." && c != ".." {
			return true
		}
	}
	return false
}

// cdTarget returns the static directory a cd, pushd or popd segment goes
// to ("" for popd, which returns to one already counted), or false.
func cdTarget(s interp.Segment, home string) (string, bool) {
	args := s.Args[1:]
	switch s.Args[0].Value {
	case "cd", "pushd":
	case "popd":
		return "", true
	default:
		return "", false
	}
	for len(args) > 0 && strings.HasPrefix(args[0].Value, "-") && args[0].Value != "-" {
		if args[0].Value == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0].Value[1:] {
			if !strings.ContainsRune("LPe@", c) {
				// pushd +N / -N rotate the stack; pushd -n only
				// adds to it, the shell stays where it was.
				return "", false
			}
		}
		args = args[1:]
	}
	switch {
	case len(args) == 0 && s.Args[0].Value == "cd":
		if home == "" {
			return "", false
		}
		return home, true
	case len(args) != 1:
		return "", false
	}
	t := args[0].Value
	if t == "" || t == "-" || strings.Contains(t, interp.Hole) ||
		s.Args[0].Value == "pushd" && strings.HasPrefix(t, "+") {
		return "", false
	}
	return t, true
}

// mentionsDirState reports a segment that may change how cd resolves or
// where popd goes: a word (as written or as resolved) naming CDPATH or
// DIRSTACK, an assignment to a name only known at run time, or a builtin
// that assigns a variable named by a run-time word (printf -v NAME, the
// name part of declare/export/local/readonly/typeset NAME=VALUE, any word
// of read, mapfile, readarray, getopts and unset).
func mentionsDirState(s interp.Segment) bool {
	for _, ws := range [][]interp.Word{s.Assigns, s.Args} {
		for _, w := range ws {
			for _, v := range []string{w.Value, w.Source} {
				// Both names hold a 'C': one scan rules most words out.
				if strings.IndexByte(v, 'C') >= 0 && (strings.Contains(v, "CDPATH") || strings.Contains(v, "DIRSTACK")) {
					return true
				}
			}
		}
	}
	for _, as := range s.Assigns {
		if strings.HasPrefix(as.Value, interp.Hole) {
			return true
		}
	}
	if len(s.Args) > 1 {
		args := s.Args[1:]
		switch s.Args[0].Value {
		case "printf":
			// Only printf -v NAME assigns; the format and its arguments
			// are printed. A run-time first word may be -v itself.
			first := args[0].Value
			return strings.Contains(first, interp.Hole) ||
				first == "-v" && len(args) > 1 && strings.Contains(args[1].Value, interp.Hole)
		case "declare", "typeset", "local", "export", "readonly":
			// NAME=VALUE: only the name part names a variable; a value
			// known only at run time assigns a known name, unless -n
			// makes NAME a reference to the variable the value names.
			nameref := false
			for _, w := range args {
				if strings.HasPrefix(w.Value, "-") && strings.Contains(w.Value, "n") || strings.HasPrefix(w.Value, interp.Hole) {
					nameref = true
				}
			}
			// The analysis gives declare's NAME=VALUE words as the
			// segment's assignments.
			for _, w := range append(append([]interp.Word(nil), args...), s.Assigns...) {
				name, _, _ := strings.Cut(w.Value, "=")
				if strings.Contains(name, interp.Hole) || nameref && strings.Contains(w.Value, interp.Hole) {
					return true
				}
			}
		case "read", "mapfile", "readarray", "getopts", "unset":
			for _, w := range args {
				if strings.Contains(w.Value, interp.Hole) {
					return true
				}
			}
		}
	}
	return false
}

// cdLands returns where cd target leads from directory d: the logical
// place (bash's default, ".." taken lexically) and, when target has a ".."
// after a component that is a symlink, the physical one too (cd -P, set -o
// physical).
func cdLands(d, target string) []string {
	logical := target
	if !strings.HasPrefix(target, "/") {
		logical = path.Join(d, target)
	}
	out := []string{logical}
	if !strings.Contains(target, "..") {
		return out
	}
	cur := d
	if strings.HasPrefix(target, "/") {
		cur = "/"
	}
	for _, c := range strings.Split(target, "/") {
		switch c {
		case "", ".":
		case "..":
			if real, err := filepath.EvalSymlinks(cur); err == nil {
				cur = real
			}
			cur = path.Dir(cur)
		default:
			cur = path.Join(cur, c)
		}
	}
	if cur != logical {
		out = append(out, cur)
	}
	return out
}

// enablesDirOption reports a shopt that may turn on autocd (a directory
// name run as a command cds there) or cdable_vars (cd NAME goes to $NAME):
// -s with either, or with a name only known at run time. Turning them off
// (-u, as agents' shell snapshots do) is harmless.
func enablesDirOption(s interp.Segment) bool {
	if s.Kind != interp.Exec || len(s.Args) < 2 || s.Args[0].Value != "shopt" {
		return false
	}
	on, risky := false, false
	for _, w := range s.Args[1:] {
		v := w.Value
		switch {
		case strings.Contains(v, interp.Hole):
			return true
		case strings.HasPrefix(v, "-"):
			on = on || strings.ContainsRune(v, 's')
		case v == "autocd" || v == "cdable_vars":
			risky = true
		}
	}
	return on && risky
}

// affectsDirs reports whether a segment of a vouched file can change the
// directories dirs finds (a static cd, a shopt that turns on autocd or
// cdable_vars): a file holding one is never recorded clear, so that
// skipping its commands cannot change the verdict of the others.
func affectsDirs(s interp.Segment, home string) bool {
	if enablesDirOption(s) {
		return true
	}
	if !s.MayChangeDir() {
		return false
	}
	_, ok := cdTarget(s, home)
	return ok && !s.Repeats
}
