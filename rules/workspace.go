package rules

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/guardsh/guardsh/internal/findexpr"
	"github.com/guardsh/guardsh/internal/fsview"
)

// workspaceWriters are the programs whose only effect is on the files they
// are given (creating, changing or removing them): coreutils touch, mkdir,
// rmdir, rm, cp, mv, ln, chmod, truncate and tee, and sed (whose -i edits
// its files; a script that runs commands or names other files is code in
// an argument, see execargs.go). When every operand of one of them lies
// strictly inside the workspace (or a temp directory), statically and with
// symlinks resolved, the segment's class is Workspace: mode auto runs it,
// as it runs a redirection into the workspace.
var workspaceWriters = sync.OnceValue(func() map[string]writerOptions {
	return map[string]writerOptions{
		"touch":    {flags: "acfhm", withArg: "rtd"},
		"mkdir":    {flags: "pv", withArg: "m"},
		"rmdir":    {flags: "pv"},
		"rm":       {flags: "dfiIrRv"},
		"cp":       {flags: "abdfHilLnPprRsTuvx", withArg: "StZ"},
		"mv":       {flags: "bfinTuvZ", withArg: "St"},
		"ln":       {flags: "bdFfiLnPrsTv", withArg: "St"},
		"chmod":    {flags: "cfvR"},
		"truncate": {flags: "co", withArg: "rs"},
		"tee":      {flags: "aip"},
		"sed":      {flags: "nisuEzr", withArg: "el"},
	}
})

// backupSuffix reports a backup suffix that makes no protected name of a
// file's when added to it (sed -i.bak, cp -b -S .orig): another could
// (`.json` after `.mcp`, `t/hooks/pre-commit` after `.gi`).
// killsOwnJobs reports a kill whose every operand is a job of the shell
// that runs it (%N, %%, %+, %-, bash(1) JOB CONTROL), after at most a
// signal option: it signals only what the same command started (a new
// user's `server & …; kill %1` asked as destructive).
func killsOwnJobs(words []string) bool {
	if len(words) < 2 || words[0] != "kill" {
		return false
	}
	args := words[1:]
	if strings.HasPrefix(args[0], "-") && args[0] != "-" && !strings.Contains(args[0], Hole) {
		switch a := args[0]; {
		case a == "-s" || a == "-n":
			if len(args) < 2 {
				return false
			}
			args = args[2:]
		case a == "-l" || a == "-L":
			return false
		default:
			args = args[1:] // -9, -TERM, -SIGKILL
		}
	}
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		if len(a) < 2 || a[0] != '%' || strings.Contains(a, Hole) || strings.ContainsAny(a[1:], "%?/ ") && a != "%%" {
			return false
		}
		if rest := a[1:]; rest != "%" && rest != "+" && rest != "-" && strings.Trim(rest, "0123456789") != "" {
			return false
		}
	}
	return true
}

// mktempTarget returns the path mktemp(1) (GNU coreutils 9) makes for
// args, its X's as they are, and whether it makes a directory (-d): the
// template (tmp.XXXXXXXXXX when none) in the -p/--tmpdir directory, or
// with -t or --tmpdir and no directory in the temp directory ($TMPDIR,
// else /tmp), else the template as a path from the working directory. ok
// is false for an option it does not know, a second template, a
// template holding "/" with a directory given, or -t with -p (TMPDIR,
// when set, wins over -p then).
func mktempTarget(args []string, ctx Context) (target string, dir, ok bool) {
	template, in, inTemp := "", "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+2 < len(args) {
				return "", false, false
			}
			if i+1 < len(args) {
				template = args[i+1]
			}
			i = len(args)
		case a == "-d" || a == "--directory":
			dir = true
		case a == "-q" || a == "--quiet" || a == "-u" || a == "--dry-run" || strings.HasPrefix(a, "--suffix="):
		case a == "-t":
			inTemp = true
		case a == "-p":
			if i+1 >= len(args) {
				return "", false, false
			}
			in = args[i+1]
			i++
		case a == "--tmpdir":
			inTemp = true
		case strings.HasPrefix(a, "--tmpdir="):
			in = strings.TrimPrefix(a, "--tmpdir=")
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			in = a[2:]
		case strings.HasPrefix(a, "-") && a != "-":
			return "", false, false
		case template != "":
			return "", false, false
		default:
			template = a
		}
	}
	if inTemp && in != "" {
		return "", false, false // -t with -p: TMPDIR, when set, wins
	}
	if template == "" {
		template, inTemp = "tmp.XXXXXXXXXX", true
	}
	if in == "" && inTemp {
		in = ctx.Lookups.tempDir()
		if len(ctx.TempDirs) > 0 {
			in = ctx.TempDirs[0]
		}
	}
	if in != "" {
		if strings.Contains(template, "/") {
			// mktemp resolves DIR/TEMPLATE as written, a ".." after a
			// link in DIR included, which joining would clean away
			// (attack run 70: -p sub/lnk ../x.XXXX landed outside).
			return "", false, false
		}
		template = strings.TrimSuffix(in, "/") + "/" + template
	}
	return template, dir, true
}

// findStarts returns the start paths of GNU find's arguments (find(1):
// after the options -P, -D DEBUG and -ON, up to the first word that
// starts an expression), "." when there is none; ok is false when find
// follows links (-H, -L, -follow: -delete then removes files where a link
// leads, which rm -rf of the same paths never does), takes its start
// paths from a file (-files0-from) or after "--" or -f, has a start path
// "-", "," or ")" (file names to find there, which end the start paths
// for a reader that takes them for the expression), or an action writes
// a file it names (-fprint, -fprint0, -fprintf, -fls). (Not for bfs,
// which takes paths anywhere among its arguments.)
func findStarts(args []string) (starts []string, ok bool) {
	i := 0
	for i < len(args) {
		switch a := args[i]; {
		case a == "-H" || a == "-L":
			return nil, false
		case a == "-P" || strings.HasPrefix(a, "-O"):
			i++
			continue
		case a == "-D":
			i += 2
			continue
		}
		break
	}
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-" || a == "," || a == ")" {
			// A file name to GNU find among the start paths, and where
			// guardsh read the expression to begin (attack run 71:
			// `find - OUTSIDE -delete` was read as find . -delete).
			return nil, false
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, a)
	}
	for k := i; k < len(args); k++ {
		switch a := args[k]; a {
		case "-fprint", "-fprint0", "-fprintf", "-fls", "-follow", "-files0-from",
			// "--" ends find's options, and a start path follows it
			// (attack run 70: `find -- ../.. -delete` was read as
			// find . -delete); BSD find's -f names one too.
			"--", "-f":
			return nil, false
		case "-exec", "-execdir", "-ok", "-okdir":
			// The command's own words (`-exec rm -f {} +`: a new CI
			// user's find was refused for rm's -f).
			k = findexpr.ExecEnd(args, k+1)
		}
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	return starts, true
}

func backupSuffix(s string) bool {
	switch s {
	case ".bak", ".orig", ".old", ".backup", ".save", "~":
		return true
	}
	return false
}

// execsOnlyRemove reports whether find's words hold -exec, -execdir, -ok
// or -okdir actions and each runs rm, rmdir or unlink given only options
// and "{}" (`-exec rm -rf {} +`): as -delete, it removes what the find
// takes (and, recursive, what that holds), which writesOnlyWorkspace
// decides as it does -delete.
func execsOnlyRemove(words []string) bool {
	seen := false
	for i := 1; i < len(words); i++ {
		switch words[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		j := findexpr.ExecEnd(words, i+1)
		cmd := words[i+1 : j]
		if len(cmd) < 2 {
			return false
		}
		switch cmd[0] {
		case "rm", "rmdir", "unlink", "/bin/rm", "/usr/bin/rm":
		default:
			return false
		}
		for _, w := range cmd[1:] {
			if w != "{}" && (!strings.HasPrefix(w, "-") || w == "-" || w == "--" || strings.Contains(w, Hole)) {
				return false
			}
		}
		if !slices.Contains(cmd[1:], "{}") {
			return false
		}
		seen = true
		i = j
	}
	return seen
}

// writerOptions are a workspace writer's short options: flags, and those
// whose value is the next word (a value glued to its letter, -t/dir, is
// not read, so such a word is never taken as staying inside).
type writerOptions struct{ flags, withArg string }

// checksWrites reports that writesOnlyWorkspace looks at the paths of
// words (git, or a workspace writer given arguments); for any other
// command it answers false, wherever it is run.
func checksWrites(words []string) bool {
	if words[0] == "git" || words[0] == "mktemp" || destructiveFind(words[0], words) || killsOwnJobs(words) ||
		(words[0] == "find" || words[0] == "gfind") && execsOnlyRemove(words) {
		return true
	}
	_, ok := workspaceWriters()[words[0]]
	return ok && len(words) >= 2
}

// writesOnlyWorkspace reports whether words, a call of a workspace writer,
// names only paths strictly inside the workspace or a temp directory (an
// option's "=value" counts as a path too), and why.
//
// A plain glob word (one of globs, Subject.Glob) counts when rm, rmdir or
// unlink removes what it names, or cp or mv takes it as a source (not
// the last operand): its run-time parts only in its last component (the
// names of one static directory inside the workspace, which remove and
// rename take as they are, links included), and no protected path that
// its pattern could name in that directory (see globReachesProtected; a
// source cp only reads is not checked so), no link among cp's or mv's
// sources, and no name that starts with "-" (an option) unless after
// "--": `rm -rf build/*`, `rm -f ./*.log`, `rm -f -- *.log`, `cp ./*.js
// dist/`.
func (p *Policy) writesOnlyWorkspace(words []string, ctx Context, globs []string, bounded, found uint64) (bool, string) {
	if bounded != 0 {
		// A word that holds a bounded loop variable: the segments
		// assuming each of its values decide it (Subject.Bounded); here
		// it is a plain name in the working directory.
		words = slices.Clone(words)
		for i := range words {
			if i < 64 && bounded&(1<<i) != 0 {
				words[i] = "x"
			}
		}
	}
	if !checksWrites(words) {
		return false, "" // what Prepared.SameIn counts on
	}
	name := words[0]
	if (destructiveFind(name, words) || (name == "find" || name == "gfind") && execsOnlyRemove(words)) && name != "bfs" {
		// find -delete removes what it finds below its start paths: as
		// rm -rf of them, inside the workspace and holding no protected
		// path (find . -delete would take .git with it). Actions that
		// write a file it names (-fprint …) are no workspace write.
		starts, ok := findStarts(words[1:])
		if !ok || slices.ContainsFunc(starts, func(w string) bool {
			// A glob start path may be no word at all under nullglob:
			// find then walks the working directory (attack run 80).
			return strings.HasPrefix(w, Hole) || !ctx.PlainGlobs && strings.Contains(w, Hole)
		}) {
			// A start path that begins with a glob or a run-time part
			// may be an option of find's once expanded (attack run 72:
			// `find * -delete` beside files named -files0-from and list
			// deleted what list named; -L followed links): find has no
			// "--" before it as the rm -rf it is decided as does.
			return false, ""
		}
		if f, ok := findFilterOf(words); ok && !slices.ContainsFunc(starts, func(w string) bool { return strings.Contains(w, Hole) }) {
			// Only entries of some names are removed, below the start
			// paths (and those, if named so): `find . -name '*.pyc'
			// -delete` at the workspace's top, which holds .git. A temp
			// directory's top is no start: others' files are there.
			x := p.pathIndexFor(ctx)
			for _, st := range starts {
				ps := newPathSubject(st, ctx)
				if ctx.CwdUnknown && !strings.HasPrefix(st, "/") || !ps.static || x.protectedBy(ps) != "" ||
					!x.insideWorkspace(ps.resolved, f.takes(path.Base(path.Clean(st))) || !slices.Contains(x.wsDirs, ps.resolved)) ||
					x.findReaches(ps.resolved, st, f, ctx.Lookups) != "" {
					return false, ""
				}
			}
			return true, "find removes only files inside the workspace"
		}
		if ok, _ := p.writesOnlyWorkspace(append([]string{"rm", "-rf", "--"}, starts...), ctx, globs, 0, 0); !ok {
			return false, ""
		}
		return true, "find removes only files inside the workspace"
	}
	if killsOwnJobs(words) {
		return true, "kill signals only jobs this command started (%N)"
	}
	if name == "mktemp" {
		// mktemp makes one new file or directory from a template: as
		// touch (mkdir) of where it lands.
		target, dir, ok := mktempTarget(words[1:], ctx)
		if !ok {
			return false, ""
		}
		maker := "touch"
		if dir {
			maker = "mkdir"
		}
		if ok, why := p.writesOnlyWorkspace([]string{maker, "--", target}, ctx, globs, 0, 0); ok {
			return true, strings.Replace(why, maker, "mktemp", 1)
		}
		return false, ""
	}
	if name == "git" {
		ok, why := p.gitWritesOnlyWorkspace(words, ctx)
		if ok && words[1] == "mv" && (p.landsProtected("git mv", words[2:], ctx, nil) || p.pathIndexFor(ctx).movesLinksOut(gitMvOpts(words[2:]), ctx, nil)) {
			return false, ""
		}
		return ok, why
	}
	opts, ok := workspaceWriters()[name]
	if !ok || len(words) < 2 {
		return false, ""
	}
	x := p.pathIndexFor(ctx)
	if (name == "cp" || name == "mv" || name == "ln") && p.landsProtected(name, words[1:], ctx, globs) {
		return false, ""
	}
	operands, temp := 0, false // temp: an operand lies in a temp directory
	optionGlob := ""           // a glob that could expand to an option (see below)
	// rm given a glob that could expand to an option: every glob of it is
	// looked at as if -r were given, since that option applies to all.
	rmOption := false
	if name == "rm" {
		for i, w := range words[1:] {
			if strings.HasPrefix(w, Hole) && slices.Contains(globs, w) && !slices.Contains(words[1:i+1], "--") {
				rmOption = true
			}
		}
	}
	// cp, mv and ln as coreutils reads them (an option not known, or
	// abbreviated ambiguously: not known what they do).
	var fo fileOpts
	if name == "cp" || name == "mv" || name == "ln" {
		var ok bool
		if fo, ok = parseFileOpts(words); !ok {
			return false, ""
		}
		if fo.backup && !backupSuffix(fo.suffix) {
			// A backup named DEST with a suffix added: another suffix
			// could make a protected name of a file's (attack run 50:
			// `cp -b -S .json x .mcp`), and none given takes
			// SIMPLE_BACKUP_SUFFIX from the environment. A suffix with
			// no '/' that makes none of an operand's is one too (`ln -S
			// -s f g`).
			if fo.suffix == "" || strings.Contains(fo.suffix, "/") {
				return false, ""
			}
			// What is backed up: an operand itself, or a source's name
			// in the directory it lands in.
			names := slices.Clone(fo.operands)
			dirs := []string{fo.targetDir}
			if !fo.hasTargetDir && len(fo.operands) > 0 {
				dirs = []string{fo.operands[len(fo.operands)-1]}
			}
			for _, d := range dirs {
				for _, op := range fo.operands {
					names = append(names, path.Join(d, path.Base(op)))
				}
			}
			for _, n := range names {
				b := newPathSubject(n+fo.suffix, ctx)
				if !b.static || x.protectedBy(b) != "" {
					return false, ""
				}
			}
		}
	}
	// ln -s TARGET… LINK: a target is what the link will hold, relative
	// to the link's directory (`ln -sf ../README.md docs/README.md` asked
	// as a write outside the workspace); linkTargetsStayInside checks it.
	targets := map[int]bool{}
	if name == "ln" && fo.symbolic {
		for k, i := range fo.at {
			if fo.hasTargetDir || len(fo.at) > 1 && k < len(fo.at)-1 {
				targets[i] = true
			}
		}
	}
	// destAt is the index in words of cp's or mv's destination
	// directory (see destinationTakes), 0 for none.
	destAt := 0
	if name == "cp" || name == "mv" {
		switch {
		case fo.hasTargetDir:
			destAt = fo.targetAt
		case !fo.noTargetDir && len(fo.at) >= 2:
			destAt = fo.at[len(fo.at)-1]
		}
	}
	afterDashes := false // past "--": every word is an operand, a path
	for i, w := range words[1:] {
		if w == "--" && !afterDashes {
			afterDashes = true
			continue
		}
		if targets[i+1] && !strings.Contains(w, Hole) {
			operands++
			continue
		}
		if i+1 < 64 && found&(1<<(i+1)) != 0 && (name == "rm" || name == "rmdir" || name == "unlink" ||
			name == "sed" && !slices.ContainsFunc(words, func(w string) bool { return sedLong(w, "follow-symlinks") })) {
			// What find gives `-exec rm -rf {} +`: its start path or
			// below, through no link (Subject.Found), which rm removes
			// as it is (a link itself, not where it leads), and sed -i
			// replaces as it is (without --follow-symlinks, or "--",
			// which takes every abbreviation: a new user's find src -name
			// '*.py' -exec sed -i … {} + asked as a write outside). The find
			// segment answers for the protected paths it reaches; here
			// the start path must lie in the workspace or a temp
			// directory, strictly unless it is "." (which rm refuses),
			// and be no protected path itself.
			start := strings.TrimSuffix(w[:len(w)-len(Hole)], "/")
			if start == "" {
				start = "/"
			}
			ps := newPathSubject(start, ctx)
			dotted := start == "." || strings.HasSuffix(start, "/.")
			if ctx.CwdUnknown && !strings.HasPrefix(start, "/") || !ps.static || x.protectedBy(ps) != "" ||
				!x.insideWorkspace(ps.resolved, !dotted || !slices.Contains(x.wsDirs, ps.resolved)) {
				return false, ""
			}
			if !slices.Contains(x.wsDirs, ps.resolved) && !inAny(x.wsDirs, ps.resolved) {
				temp = true
			}
			operands++
			continue
		}
		if strings.Contains(w, Hole) {
			dir, pattern, ok := globDir(w, globs)
			// What the glob's names are to the program: files it
			// removes or renames as they are (rm, rmdir, unlink; cp's
			// and mv's sources), or files it changes through a link
			// (sed -i's files past its script, chmod's and touch's
			// operands), whose names must then hold no link.
			takes := name == "rm" || name == "rmdir" || name == "unlink" ||
				(name == "cp" || name == "mv") && i < len(words)-2 ||
				name == "sed" && sedFileOperand(words, i+1) ||
				name == "chmod" && chmodFileOperand(words, i+1) || name == "touch"
			if !ok || !takes || ctx.CwdUnknown && !strings.HasPrefix(dir, "/") {
				return false, ""
			}
			through := name == "sed" || name == "chmod" || name == "touch"
			ps := newPathSubject(dir, ctx)
			recursive := name == "mv" || (name == "rm" || name == "chmod") && recursiveRm(words) || rmOption
			if strings.HasPrefix(w, Hole) && !slices.Contains(words[1:i+1], "--") {
				// A name the glob expands to that starts with "-" is an
				// option (`touch ./-r; rm -f ?r .gi?` is rm -f -r .git):
				// only a word that cannot start so, or one after "--".
				// For rm, whose only option that could harm is -r, a
				// glob in a directory holding no name that starts with
				// "-" is looked at as if recursive: an option made by
				// the same command's earlier writes can then only remove
				// what was looked at, or what that command made (`rm -f
				// *.log` asked in every mode). cp, mv, sed, chmod and
				// touch take options that aim elsewhere (-t DIR, sed's
				// -e CODE). The rest is looked at still, to say so if it
				// is all that keeps the command from being a workspace
				// write.
				if name != "rm" || !ps.static || namesStartWithDash(ps.resolved) {
					optionGlob = w
				}
			}
			// The workspace's own top, or a directory strictly inside it
			// or a temp directory (not a whole temp directory: others'
			// files are there).
			atTop := slices.Contains(x.wsDirs, ps.resolved)
			if !ps.static || ps.links > 1 || x.protectedBy(ps) != "" || x.globReachesProtected(ps.resolved, pattern, recursive, name == "cp" || name == "mv" || through, name == "cp", ctx.Lookups) ||
				!atTop && !x.insideWorkspace(ps.resolved, true) {
				return false, ""
			}
			if !atTop && !inAny(x.wsDirs, ps.resolved) {
				temp = true
			}
			operands++
			continue
		}
		v := w
		if afterDashes {
			// An operand, whatever it starts with (attack run 32:
			// `rm -rf -- --x/../.git` after `mkdir ./--x` was skipped as
			// a long option).
		} else if strings.HasPrefix(w, "--") {
			opt, val, ok := strings.Cut(w, "=")
			if !ok {
				continue
			}
			if name == "sed" && len(opt) > 3 && strings.HasPrefix("--in-place", opt) {
				// --in-place=SUFFIX names a backup FILE+SUFFIX (attack
				// run 50: --in-place=t/hooks/pre-commit renamed .gi to
				// .git/hooks/pre-commit): a backup suffix only.
				if !backupSuffix(val) {
					return false, ""
				}
				continue
			}
			v = val
		} else if name == "chmod" && chmodDashMode(w) {
			// chmod's MODE given with a leading "-" (`chmod -x f`: GNU
			// chmod(1) takes a symbolic mode there), not an option: it
			// is no operand (a new user's `chmod -x f.sh` asked).
			continue
		} else if strings.HasPrefix(w, "-") && len(w) > 1 {
		cluster:
			for j := 1; j < len(w); j++ {
				c := w[j]
				switch {
				case name == "sed" && c == 'i':
					// -iSUFFIX: a backup named FILE with SUFFIX added
					// (a new user's `sed -i.bak …` asked as a write
					// outside). Only a backup suffix: another could make
					// a protected name of a file's (`sed -i.yaml …
					// .pre-commit-config`), or, with '/', put it anywhere.
					if w[j+1:] != "" && !backupSuffix(w[j+1:]) {
						return false, ""
					}
					break cluster
				case strings.IndexByte(opts.flags, c) >= 0:
				case strings.IndexByte(opts.withArg, c) >= 0 && j == len(w)-1:
					// its value is the next word, an operand here
				default:
					return false, "" // a glued value, or an option not known
				}
			}
			continue
		}
		if name == "tee" && slices.Contains(devSinks, v) {
			continue // `tee /dev/stderr`: the stream, no file
		}
		if ctx.CwdUnknown && !strings.HasPrefix(v, "/") {
			return false, ""
		}
		ps := newPathSubject(v, ctx)
		if i+1 == destAt {
			if ok, inTemp := x.destinationTakes(ps, fo, destAt, ctx); ok {
				temp = temp || inTemp
				operands++
				continue
			}
		}
		if !ps.static || ps.links > 1 || x.protectedBy(ps) != "" || x.protectedBelow(ps.resolved, ctx.Lookups) {
			return false, ""
		}
		if _, ok := dotDotAfterName(v); ok && !ctx.NoNewLinks && !targets[i+1] {
			return false, "" // see dotDotAfterName
		}
		if name == "ln" {
			if ok, why := linkTargetsStayInside(fo, ctx, x); !ok {
				return false, why
			}
		}
		if !x.insideWorkspace(ps.resolved, true) {
			return false, ""
		}
		if !inAny(x.wsDirs, ps.resolved) {
			temp = true
		}
		operands++
	}
	if operands == 0 {
		return false, ""
	}
	if (name == "cp" && (fo.recursive || fo.archive || fo.noDeref) || name == "mv" || name == "ln" && !fo.symbolic) && x.movesLinksOut(fo, ctx, globs) {
		return false, LinksOutWhy
	}
	if optionGlob != "" {
		shown := strings.ReplaceAll(optionGlob, Hole, "*")
		return false, fmt.Sprintf("the glob %s could expand to a name starting with \"-\", which %s would take for an option: write ./%s, or put -- before the files, and it is a workspace write", shown, name, shown)
	}
	if temp {
		return true, name + " changes only files inside the workspace and the temp directories"
	}
	return true, name + " changes only files inside the workspace"
}

// destinationTakes reports whether dest, the directory cp or mv (fo, at
// index destAt of the words) puts its sources in, takes them as a
// workspace write when it is the workspace's top or a temp directory's
// (intoTop): `cp x /tmp/` and `mv x ./` asked, as if the directory
// itself were written, and the workspace's top holds .git. Each source
// lands as dest joined with its base name, which must be a path known
// now, strictly inside the workspace or the temp directory, neither
// protected nor holding a protected path (cp -r merges into a directory
// there). A source with a run-time part, or whose base name is "." or
// ".." (`cp -r src/. ./` copies what src holds, names not known), leaves
// the destination to the checks of the other operands. temp says dest
// lies outside the workspace.
func (x *pathIndex) destinationTakes(dest pathSubject, fo fileOpts, destAt int, ctx Context) (ok, temp bool) {
	if !x.intoTop(dest, ctx.Lookups) {
		return false, false
	}
	sources := 0
	for k, src := range fo.operands {
		if fo.at[k] == destAt {
			continue
		}
		base := path.Base(src)
		if strings.Contains(src, Hole) || base == "." || base == ".." || base == "/" {
			return false, false
		}
		land := newPathSubject(dest.cleaned+"/"+base, ctx)
		if !land.static || land.links > 1 || x.protectedBy(land) != "" || x.protectedBelow(land.resolved, ctx.Lookups) || !x.insideWorkspace(land.resolved, true) {
			return false, false
		}
		sources++
	}
	return sources > 0, !slices.Contains(x.wsDirs, dest.resolved)
}

// intoTop reports whether d, the destination of cp, mv or ln, is the
// top of the workspace or of a temp directory, an existing directory that
// is not protected: what lands there lands in it as its base name, and
// d itself is neither renamed nor replaced (removing one asks in mode
// auto: it is no workspace write).
func (x *pathIndex) intoTop(d pathSubject, lk *Lookups) bool {
	if !d.static || !slices.Contains(x.wsDirs, d.resolved) && !slices.Contains(x.tmpDirs, d.resolved) || x.protectedBy(d) != "" {
		return false
	}
	fi, err := os.Stat(d.resolved)
	return err == nil && fi.IsDir()
}

// inAny reports whether p is strictly beneath one of dirs.
func inAny(dirs []string, p string) bool {
	for _, d := range dirs {
		if within(p, d) && p != d {
			return true
		}
	}
	return false
}

// landsProtected reports whether cp, mv, ln or git mv with args (after the
// program or subcommand) would put a file where a protected path is: the
// destination (the last operand, or the value of -t/--target-directory)
// joined with each source's base name — `cp tasks.json .vscode` writes
// .vscode/tasks.json, also when a command before it creates .vscode — or a
// destination that names a protected directory, into which a directory
// tree lands (`mv y .claude`).
func (p *Policy) landsProtected(program string, args []string, ctx Context, globs []string) bool {
	x := p.pathIndexFor(ctx)
	pl := destinationOf(program, args)
	ops, dest := pl.ops, pl.dest
	if dest == "" {
		return false
	}
	d := newPathSubject(dest, ctx)
	if !d.static {
		return true
	}
	if (x.protectedUnder(d.resolved) || x.protectedUnder(d.cleaned)) && (pl.noTarget || !x.intoTop(d, ctx.Lookups)) {
		// What a source is renamed to (DEST missing now, or made missing
		// by a command before): a directory tree landing as a protected
		// directory (`mv y .claude`). A top of the workspace or a temp
		// directory stays where it is: a source lands in it.
		return true
	}
	for _, src := range ops {
		if strings.Contains(src, Hole) {
			// A plain glob source lands as names of its pattern.
			_, pattern, ok := globDir(src, globs)
			if !ok {
				return true
			}
			for _, landing := range []string{d.cleaned, d.resolved} {
				if x.globReachesProtected(landing, pattern, false, false, false, ctx.Lookups) {
					return true
				}
			}
			continue
		}
		for _, landing := range []string{d.cleaned, d.resolved} {
			at := landedAt(landing, d.resolved, src)
			if pl.parents {
				at = path.Join(landing, src) // cp --parents: the whole path
			}
			l := newPathSubject(at, ctx)
			if !l.static || x.protectedBy(l) != "" || x.protectedUnder(l.cleaned) || x.protectedUnder(l.resolved) {
				return true
			}
		}
	}
	return false
}

// globOfName returns base, a file name whose Holes stand for run-time
// parts, as a path.Match pattern: each Hole "*", the rest matched as
// written. A Hole's run-time part may hold a "/": the caller asks about
// each component.
func globOfName(base string) string {
	var b strings.Builder
	for i := 0; i < len(base); i++ {
		switch c := base[i]; {
		case c == Hole[0]:
			b.WriteByte('*')
		case c == '*' || c == '?' || c == '[' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// landedAt returns where a source src of cp, mv or ln lands in the
// directory dest (as written, cleaned; resolved its resolved form):
// dest joined with src's base name, dest itself for a base name "."
// (`cp -r src/. dest` merges what src holds into it), and dest's parent,
// from where dest resolves, for "..".
func landedAt(dest, resolved, src string) string {
	switch base := path.Base(src); base {
	case ".":
		return dest
	case "..":
		return path.Dir(resolved)
	default:
		return dest + "/" + base
	}
}

// placement is how cp, mv, ln or install place their sources (see
// destinationOf).
type placement struct {
	ops  []string // the sources
	dest string   // the destination, "" for none
	// noTarget: -T, --no-target-directory (dest is the name made, never
	// a directory to land in); parents: cp --parents (a source lands as
	// dest joined with its whole path, not its base name).
	noTarget, parents bool
	// backup: -b, --backup, -S, --suffix (a file replaced is renamed to
	// its name with suffix added); suffix is -S's or --suffix's value, ""
	// when none was given (SIMPLE_BACKUP_SUFFIX's, or "~").
	backup bool
	suffix string
}

// placeOptions are the short options of each program that take a value
// (coreutils 9.4: cp, mv and ln -S and -t; install also -m, -o, -g).
var placeOptions = map[string]string{"cp": "St", "mv": "St", "ln": "St", "install": "Stmog", "git mv": ""}

// destinationOf reads the arguments of program (cp, mv, ln, install, or
// "git mv"; args after its name) as coreutils does: the sources, and the
// destination, -t DIR (--target-directory=DIR, -tDIR, or -t in a cluster
// such as -ft DIR: attack run 78) or else the last operand of two or more,
// with -T, --parents and the backup options. A word of a cluster that
// takes a value takes the rest of the cluster, or the next word.
func destinationOf(program string, args []string) placement {
	var pl placement
	withArg := placeOptions[program]
	for i := 0; i < len(args); i++ {
		a := args[i]
		opt, val, hasVal := strings.Cut(a, "=")
		switch {
		case a == "--":
			pl.ops = append(pl.ops, args[i+1:]...) // operands, whatever they start with
			i = len(args)
		case len(opt) >= 5 && strings.HasPrefix("--no-target-directory", opt):
			pl.noTarget = true
		case len(opt) >= 3 && strings.HasPrefix("--target-directory", opt):
			if hasVal {
				pl.dest = val // --target-directory=D, or an abbreviation: --t=D
			} else if i+1 < len(args) {
				i++
				pl.dest = args[i]
			}
		case len(opt) >= 4 && strings.HasPrefix("--parents", opt) && program == "cp":
			pl.parents = true
		case len(opt) >= 4 && strings.HasPrefix("--backup", opt):
			pl.backup = true
		case len(opt) >= 4 && strings.HasPrefix("--suffix", opt):
			pl.backup = true
			if hasVal {
				pl.suffix = val
			} else if i+1 < len(args) {
				i++
				pl.suffix = args[i]
			}
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && a != "-":
			for k := 1; k < len(a); k++ {
				c := a[k]
				switch c {
				case 'T':
					pl.noTarget = true
				case 'b':
					pl.backup = true
				}
				if strings.IndexByte(withArg, c) < 0 {
					continue
				}
				v := a[k+1:]
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				switch c {
				case 't':
					pl.dest = v
				case 'S':
					pl.backup, pl.suffix = true, v
				}
				break
			}
		default:
			pl.ops = append(pl.ops, a)
		}
	}
	if pl.dest == "" {
		if len(pl.ops) < 2 {
			pl.ops = nil
			return pl
		}
		pl.dest, pl.ops = pl.ops[len(pl.ops)-1], pl.ops[:len(pl.ops)-1]
	}
	return pl
}

// landsOnProtected returns where cp, mv, ln or install (words) would put
// a source on a protected path, and the protected pattern ("" for
// neither): a source's landing place in the destination directory
// (`cp x/.bashrc ~/` replaced ~/.bashrc unasked in mode bypass), or the
// destination itself when the source is renamed to it (missing now, or
// -T) and a protected path could lie below it (`mv y .claude`). Unlike
// landsProtected, which keeps a command from the workspace class, it
// only answers for what is known now: a destination only known at run
// time is left to the argument checks. A glob source lands as the names
// it matches now (any unless Context.PlainGlobs, see namesProtected),
// as the rest of the analysis reads a glob. A source only known at run
// time lands as any name its last component could be, a protected one
// if the destination could hold one by that name (see protectedNames).
func (p *Policy) landsOnProtected(words []string, ctx Context, globs []string) (target, pat string) {
	program, args := path.Base(words[0]), words[1:]
	switch {
	case program == "cp" || program == "mv" || program == "ln" || program == "install":
	case program == "git" && len(words) > 2 && words[1] == "mv":
		// git mv lands as mv does (attack run 79: `git mv -f
		// tpl/.guardsh.yaml .` replaced the project's config).
		program, args = "git mv", words[2:]
	default:
		return "", ""
	}
	pl := destinationOf(program, args)
	ops, dest := pl.ops, pl.dest
	if dest == "" || len(ops) == 0 || strings.Contains(dest, Hole) || ctx.CwdUnknown && !strings.HasPrefix(dest, "/") {
		return "", ""
	}
	x := p.pathIndexFor(ctx)
	d := newPathSubject(dest, ctx)
	if !d.static {
		return "", ""
	}
	below := func(dir string) bool { return x.protectedUnder(dir) }
	// backedUp checks the backup a replaced file l gets (-b, -S SUFFIX):
	// l with the suffix added, any suffix when none is given here (bash's
	// SIMPLE_BACKUP_SUFFIX may hold one: attack run 78's `cp -b -S rc x
	// ~/.bash` renamed ~/.bash to ~/.bashrc).
	backedUp := func(l pathSubject) (string, string) {
		if !pl.backup {
			return "", ""
		}
		if pl.suffix != "" {
			b := newPathSubject(l.cleaned+pl.suffix, ctx)
			if pat := x.protectedBy(b); pat != "" {
				return tildeShown(b.cleaned, ctx.Home), pat
			}
			return "", ""
		}
		for _, n := range x.protectedNames(path.Dir(l.cleaned), ctx.Lookups) {
			if strings.ContainsAny(n, "*?[") || len(n) > len(path.Base(l.cleaned)) && strings.HasPrefix(n, path.Base(l.cleaned)) {
				return tildeShown(l.cleaned, ctx.Home) + "…", "a backup of " + tildeShown(l.cleaned, ctx.Home) + " named with a suffix (" + n + ")"
			}
		}
		return "", ""
	}
	if fi, err := os.Stat(d.resolved); pl.noTarget || err != nil || !fi.IsDir() {
		if below(d.cleaned) || below(d.resolved) {
			return d.shown, "what lies below " + tildeShown(d.cleaned, ctx.Home) + ", which may hold protected paths"
		}
		return backedUp(d)
	}
	// lands checks a source named src landing in dest: as itself, a
	// protected path; as a tree (a directory, or what is not there now),
	// one that may hold a protected path.
	lands := func(src string) (string, string) {
		for _, landing := range []string{d.cleaned, d.resolved} {
			at := landedAt(landing, d.resolved, src)
			if pl.parents {
				at = path.Join(landing, src) // cp --parents: the whole path (attack run 78)
			}
			l := newPathSubject(at, ctx)
			if !l.static {
				continue
			}
			if pat := x.protectedBy(l); pat != "" {
				return tildeShown(l.cleaned, ctx.Home), pat
			}
			if t, pat := backedUp(l); pat != "" {
				return t, pat
			}
			if fi, err := os.Stat(newPathSubject(src, ctx).resolved); (err != nil || fi.IsDir()) && (below(l.cleaned) || below(l.resolved)) {
				return tildeShown(l.cleaned, ctx.Home), "what lies below " + tildeShown(l.cleaned, ctx.Home) + ", which may hold protected paths"
			}
		}
		return "", ""
	}
	for _, src := range ops {
		if !strings.Contains(src, Hole) {
			if t, pat := lands(src); pat != "" {
				return t, pat
			}
			continue
		}
		if dir, pattern, ok := globDir(src, globs); ok {
			names := ctx.Lookups.listed(newPathSubject(dir, ctx).resolved)
			if names == nil {
				return tildeShown(d.cleaned, ctx.Home) + "/" + strings.ReplaceAll(path.Base(src), Hole, "…"), "what " + strings.ReplaceAll(src, Hole, "*") + " names, which could not be listed"
			}
			for n := range names {
				if m, _ := path.Match(pattern, n); !ctx.PlainGlobs || m && (!strings.HasPrefix(n, ".") || strings.HasPrefix(pattern, ".")) {
					if t, pat := lands(dir + "/" + n); pat != "" {
						return t, pat
					}
				}
			}
			continue
		}
		// A run-time value: the name it lands as is its part after its
		// last "/", which may lie within the value (`cp "x$F" ./` with
		// F=/../.bashrc).
		base := path.Base(src)
		if i := strings.LastIndex(base, Hole); i >= 0 {
			base = Hole + base[i+len(Hole):]
		}
		glob := globOfName(base)
		for _, landing := range []string{d.cleaned, d.resolved} {
			for _, n := range x.protectedNames(landing, ctx.Lookups) {
				if m, err := path.Match(glob, n); m || err != nil || strings.ContainsAny(n, "*?[") {
					return tildeShown(landing, ctx.Home) + "/" + strings.ReplaceAll(base, Hole, "…"), "what lies in " + tildeShown(landing, ctx.Home) + ", which may hold protected names (" + n + ")"
				}
			}
		}
	}
	return "", ""
}

// protectedNames returns the names, in dir, of the protected paths or of
// the directories that hold them, for the patterns anchored at a path
// that dir is a literal part of (~/.bashrc in ~: ".bashrc";
// ~/.config/guardsh/config.yaml in ~: ".config"), and for those that
// hold in any directory (*/.claude/settings.json) the second component
// when dir is named as the first (in .claude: "settings.json"). A
// pattern whose part there is a glob gives it as is (the caller takes it
// as matching any name). The first component of a pattern for any
// directory is among them when dir holds an entry of that name (the
// workspace's .git: a tree landing there merges into it), not otherwise
// (.git, .claude: a name any directory could be given by a run-time
// source; what such a name holds runs only where a project is opened
// there).
func (x *pathIndex) protectedNames(dir string, lk *Lookups) []string {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	var names []string
	for _, g := range x.protected {
		if rest, ok := strings.CutPrefix(g.pat, "*/"); ok {
			first, after, _ := strings.Cut(rest, "/")
			if second, _, _ := strings.Cut(after, "/"); first == path.Base(dir) && second != "" {
				names = append(names, second)
			}
			if _, err := lk.lstat(prefix + first); err == nil && !strings.ContainsAny(first, "*?[") {
				names = append(names, first)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(g.pat, prefix); ok {
			name, _, _ := strings.Cut(rest, "/")
			names = append(names, name)
		} else if i := strings.IndexAny(g.pat, "*?["); i >= 0 && i < len(prefix) && strings.HasPrefix(prefix, g.pat[:i]) {
			names = append(names, "*") // a glob before dir's end: it could be dir
		}
	}
	return names
}

// protectedUnder reports whether a protected path could lie below dir: an
// anchored protected pattern that could match something below it
// (~/.ssh/* below ~/.ssh), or a pattern for any directory ("*/.claude/
// settings.json") whose first component is dir's own name (.claude).
func (x *pathIndex) protectedUnder(dir string) bool {
	below := append(appendUnits(nil, strings.TrimSuffix(dir, "/")+"/"), uHole)
	var hm holeMatcher
	for _, g := range x.protected {
		if rest, ok := strings.CutPrefix(g.pat, "*/"); ok {
			first, _, _ := strings.Cut(rest, "/")
			if first == path.Base(dir) {
				return true
			}
			continue
		}
		if hm.could(g, below) {
			return true
		}
	}
	return false
}

// protectedBelow reports whether a protected path lies below dir, an
// existing directory (renaming or removing dir changes it: `rm -rf .git`,
// `mv .git g`): a protected path under it (~/.ssh when dir holds the home
// directory), or, for the patterns that hold in any directory
// (*/.git/config), a .git directory in dir, or dir being one.
func (x *pathIndex) protectedBelow(dir string, lk *Lookups) bool {
	return x.protectedHeld(dir, lk) != ""
}

// protectedHeld is protectedBelow, returning the protected pattern that
// holds below dir ("" for none).
func (x *pathIndex) protectedHeld(dir string, lk *Lookups) string {
	fi, err := lk.lstat(dir)
	if err != nil || !fi.IsDir() {
		return ""
	}
	prefix := strings.TrimSuffix(dir, "/") + "/"
	for _, g := range x.protected {
		lit := g.pat
		if i := strings.IndexByte(lit, '*'); i >= 0 {
			lit = lit[:i]
		}
		if lit != "" && strings.HasPrefix(lit, prefix) {
			// Held only when there: what does not exist is neither
			// removed nor moved (a new CI user's `rm -rf ~/.cache` asked
			// for guardsh's LLM cache, never made). For a pattern, the
			// directory of its literal part.
			there := lit
			if lit != g.pat {
				there = path.Dir(lit + "x")
			}
			if _, err := lk.lstat(strings.TrimSuffix(there, "/")); err != nil && os.IsNotExist(err) {
				continue
			}
			return g.pat
		}
		if lit == "" && strings.Contains(g.pat, "/.git/") {
			if path.Base(dir) == ".git" || strings.Contains(prefix, "/.git/") {
				return g.pat
			}
			if _, err := lk.lstat(prefix + ".git"); err == nil {
				return g.pat
			}
		}
		// A pattern for any directory ("*/.claude/settings.json",
		// "*/.mcp.json"): dir is the directory it names, or holds it
		// (an attack run removed .claude and moved .vscode whole).
		if rest, ok := strings.CutPrefix(g.pat, "*/"); ok && lit == "" {
			first, _, _ := strings.Cut(rest, "/")
			if first == "" || strings.Contains(first, "*") {
				continue
			}
			if path.Base(dir) == first && strings.Contains(rest, "/") {
				return g.pat
			}
			if _, err := lk.lstat(prefix + first); err == nil {
				return g.pat
			}
		}
	}
	return ""
}

// linkTargetsStayInside checks ln's targets as the kernel will resolve
// them: a relative target of a symbolic link from the directory the link
// is made in, not from the working directory. Past ok, why is
// LinksOutWhy for a link to a directory holding links out, LinkToDirWhy
// for a link to a directory or to nothing yet, or "".
func linkTargetsStayInside(fo fileOpts, ctx Context, x *pathIndex) (ok bool, why string) {
	if !fo.symbolic {
		return true, "" // hard links: the operands were checked
	}
	ops := fo.operands
	switch {
	case fo.hasTargetDir:
		// ln -s -t DIR TARGET…: DIR/basename(TARGET) for each (an
		// attack run's `ln -s -t ws/d ../../.ssh` was read as a link
		// named TARGET to DIR).
		ops = append(slices.Clone(ops), fo.targetDir)
	case len(ops) == 1:
		ops = append(ops, ".") // ln -s TARGET: ./basename(TARGET)
	case len(ops) == 0:
		return false, ""
	}
	dest := ops[len(ops)-1]
	destAbs := dest
	if !strings.HasPrefix(dest, "/") {
		destAbs = ctx.Cwd + "/" + dest
	}
	// Where the link's relative target is read from: its directory; and,
	// since DEST may be a directory now that an earlier command removes
	// (`rm -r d/e && ln -s ../.. d/e`: attack run 33), DEST itself too;
	// and with -r (--relative) the working directory, whence ln reads it.
	// The directory as the kernel reaches it: a ".." in DEST after a link
	// is not lexical (a/l/../k with a/l -> c is c/../k).
	destAbs = strings.TrimRight(destAbs, "/")
	own, _, ok := ownName(destAbs, ctx)
	if !ok {
		return false, ""
	}
	linkDirs := []string{path.Dir(own)}
	if ps := newPathSubject(destAbs, ctx); !ps.static {
		return false, ""
	} else if fi, err := ctx.Lookups.lstat(ps.resolved); fo.hasTargetDir || len(ops) > 2 || err == nil && fi.IsDir() && !fo.noTargetDir {
		// ln -s TARGET DIR makes DIR/basename(TARGET); with -t, or
		// several targets, DEST is such a directory.
		linkDirs = append(linkDirs, ps.resolved)
		if fo.hasTargetDir || len(ops) > 2 {
			linkDirs = linkDirs[1:]
		}
	}
	if fo.relative {
		linkDirs = append(linkDirs, ctx.Cwd)
	}
	// Another part of the command could have made the directory the
	// link is made in a link itself (`rmdir d/e && mv x/L d/e && ln -s
	// ../../f d/e/k`), whence a ".." leads elsewhere: a relative target
	// that climbs is read only when none can, or the link is made in the
	// working directory (a directory no name in the command stands for).
	linkDirNamed := fo.hasTargetDir && namesADirectory(fo.targetDir+"/x") || !fo.hasTargetDir && namesADirectory(dest)
	budget := derefBudget
	dirLink := false
	for _, t := range ops[:len(ops)-1] {
		if !ctx.LinksOnlyHere && linkDirNamed && !strings.HasPrefix(t, "/") && slices.Contains(strings.Split(t, "/"), "..") {
			return false, ""
		}
		for _, linkDir := range linkDirs {
			abs := t
			if !strings.HasPrefix(t, "/") {
				abs = linkDir + "/" + t
			}
			ps := newPathSubject(abs, ctx)
			if !ps.static || !x.insideWorkspace(ps.resolved, false) || x.protectedBy(ps) != "" {
				return false, ""
			}
			// A link to a directory is a new name for the links below
			// it, as a copy of it is (see movesLinksOut; attack run 31:
			// `ln -s d e && cat e/k` where a jail had made d/k ->
			// ~/.ssh/id_rsa).
			fi, err := os.Stat(ps.resolved)
			if err == nil && fi.IsDir() && x.linksLeave(ps.resolved, nil, false, ctx, &budget) {
				return false, LinksOutWhy
			}
			// A link to a directory makes ".." through it lead to that
			// directory's parent, not back where it reads: a command
			// beside this one, or a background job it left, decided on
			// the name before the link was made, goes elsewhere (see
			// Context.NoNewLinks). So does a link to nothing yet, which
			// a directory made later gives a target.
			if err != nil || fi.IsDir() {
				dirLink = true
			}
		}
	}
	if dirLink {
		return false, LinkToDirWhy
	}
	return true, ""
}

// insideWorkspace reports whether the resolved path p lies in the workspace
// or a temp directory; with strictly, not one of those directories itself.
func (x *pathIndex) insideWorkspace(p string, strictly bool) bool {
	for _, dirs := range [][]string{x.wsDirs, x.tmpDirs} {
		for _, d := range dirs {
			if within(p, d) && !(strictly && p == d) {
				return true
			}
		}
	}
	return false
}

// gitWorkspaceSubcommands are the git subcommands that change only the
// repository they run in (its work tree, index, refs and objects) and
// contact no other host (git(1); push, fetch, pull, clone, submodule and
// remote reach the network and are not here). Each maps to its options
// that would make it do more: run a program (rebase --exec, git-rebase(1)),
// or throw away work that no commit holds (reset --hard, switch --discard-
// changes, checkout -f, stash drop/clear, clean: a human decides those).
var gitWorkspaceSubcommands = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"add":         {"--interactive", "-i", "--patch", "-p", "--edit", "-e", "--output"},
		"commit":      {"--interactive", "--patch", "-p"},
		"stash":       {"drop", "clear"},
		"switch":      {"--discard-changes", "-f", "--force"},
		"checkout":    {"-f", "--force"},
		"restore":     {},
		"rm":          {},
		"mv":          {},
		"merge":       {},
		"rebase":      {"--exec", "-x", "--interactive", "-i"},
		"cherry-pick": {},
		"revert":      {},
		"tag":         {},
		"branch":      {},
		"reset":       {"--hard", "--merge", "--keep"},
	}
})

// gitValueOptions are options of the subcommands above whose value is the
// next word (a message, a file read, a name): that word is no option.
var gitValueOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-m": true, "--message": true, "-F": true, "--file": true, "-C": true, "--reuse-message": true,
		"-c": true, "--reedit-message": true, "--author": true, "--date": true, "-t": true,
		"--template": true, "-b": true, "-B": true, "--onto": true, "--trailer": true,
	}
})

// gitWritesOnlyWorkspace reports whether words, a git command, changes
// only the repository of the workspace: no option before the subcommand
// (-C, -c, --git-dir and --work-tree choose another repository or run
// programs), a subcommand of gitWorkspaceSubcommands without its excluded
// options, a known working directory inside the workspace, and the
// workspace being the top of a git work tree (ws/.git exists), so that
// git finds that repository and no other. Hooks run (githooks(5)), but
// .git/hooks and .git/config are protected paths, so only the user puts
// them there.
func (p *Policy) gitWritesOnlyWorkspace(words []string, ctx Context) (bool, string) {
	if len(words) < 2 || ctx.CwdUnknown || ctx.Workspace == "" || !within(ctx.Cwd, ctx.Workspace) {
		return false, ""
	}
	if words[1] == "config" {
		return gitConfigWritesOnlyWorkspace(words, ctx)
	}
	excluded, ok := gitWorkspaceSubcommands()[words[1]]
	if !ok {
		return false, ""
	}
	if _, err := ctx.Lookups.lstat(ctx.Workspace + "/.git"); err != nil {
		return false, ""
	}
	for i, w := range words[2:] {
		if gitValueOptions()[words[1+i]] {
			continue // the value of -m, -F…: not an option
		}
		if opt, _, _ := strings.Cut(w, "="); len(opt) > 3 && (strings.HasPrefix("--output", opt) || strings.HasPrefix(opt, "--output")) {
			return false, "" // --output=FILE (stash list takes log's options) writes anywhere
		}
		if strings.Contains(w, Hole) && couldBeOption(w) {
			return false, ""
		}
		opt, _, _ := strings.Cut(w, "=")
		for _, e := range excluded {
			if opt == e || (strings.HasPrefix(e, "--") && len(opt) > 3 && strings.HasPrefix(e, opt)) {
				return false, ""
			}
			if len(e) == 2 && e[0] == '-' && e[1] != '-' && len(w) > 2 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w[1:], e[1]) >= 0 {
				return false, "" // a short option inside a cluster (-fb)
			}
		}
	}
	if words[1] == "restore" && stagedOnly(words[2:]) {
		// `git restore --staged PATHS` changes the index, no work-tree
		// file (a new user's `git restore --staged .` asked).
		return true, "git restore --staged changes only the workspace's repository"
	}
	// GIT_ICASE_PATHSPECS (inherited from guardsh's environment) makes
	// every pathspec match names in any case: LEFTHOOK.YML names
	// lefthook.yml (attack run 37).
	icase := os.Getenv("GIT_ICASE_PATHSPECS") != "" && os.Getenv("GIT_ICASE_PATHSPECS") != "0"
	switch words[1] {
	case "rm", "mv", "checkout", "restore":
		// Their pathspecs remove or replace work-tree files: one git
		// matches as a glob (".guardsh.yam?", "*.json", ":(glob)…"), or a
		// directory holding a protected path (.claude), could name a
		// protected path (an attack run's `git rm -r .claude
		// ".guardsh.*"`), as a literal one does (see matchArgs).
		x := p.pathIndexFor(ctx)
		for i, w := range words[2:] {
			if strings.HasPrefix(w, "-") || gitValueOptions()[words[1+i]] {
				continue
			}
			if strings.ContainsAny(w, "*?[") || strings.HasPrefix(w, ":") || strings.Contains(w, Hole) || icase {
				return false, ""
			}
			if ps := newPathSubject(w, ctx); !ps.static || x.protectedBelow(ps.resolved, ctx.Lookups) {
				return false, ""
			}
		}
	}
	return true, fmt.Sprintf("git %s changes only the workspace's repository", words[1])
}

// gitConfigWritesOnlyWorkspace reports `git config` writing only keys of
// gitConfigHarmless (user.email: what a CI step or an agent sets before a
// commit) to the repository's own config: no --global, --system,
// --file/-f, --blob or --worktree, the workspace the top of its work
// tree. Other keys are protected writes (GitConfigRunsCode); a read is
// decided as the program it is.
func gitConfigWritesOnlyWorkspace(words []string, ctx Context) (bool, string) {
	if !gitWritesConfig(words) || GitConfigRunsCode(words) != "" {
		return false, ""
	}
	for _, w := range words[2:] {
		if strings.Contains(w, Hole) {
			return false, ""
		}
		if !strings.HasPrefix(w, "-") {
			continue
		}
		name, _, _ := strings.Cut(w, "=")
		for _, o := range []string{"--global", "--system", "--file", "--blob", "--worktree"} {
			if len(name) > 3 && strings.HasPrefix(o, name) {
				return false, ""
			}
		}
		if len(w) > 1 && w[1] != '-' && strings.ContainsAny(w[1:], "f") {
			return false, "" // -f FILE, alone or in a group
		}
	}
	// The repository git finds is the workspace's own: its .git a
	// directory, and none between the working directory and it (a .git
	// file names a repository anywhere: attack run 63 wrote another
	// repository's config through one).
	if info, err := ctx.Lookups.lstat(ctx.Workspace + "/.git"); err != nil || !info.IsDir() {
		return false, ""
	}
	for d := ctx.Cwd; d != ctx.Workspace && within(d, ctx.Workspace); d = path.Dir(d) {
		if _, err := ctx.Lookups.lstat(d + "/.git"); err == nil {
			return false, ""
		}
	}
	return true, "git config of a naming, default or display key (" + gitHarmlessShown + ") changes only the workspace's repository"
}

// stagedOnly reports whether git restore's arguments (args) restore the
// index alone: --staged or -S, and no --worktree or -W (git-restore(1):
// "Specifying --staged will only restore the index"). A cluster holding
// W, or an option it does not know, counts as the work tree too.
func stagedOnly(args []string) bool {
	staged := false
	for _, a := range args {
		switch {
		case a == "--":
			return staged
		case a == "--staged" || a == "-S":
			staged = true
		case a == "--worktree" || a == "-W" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'W'):
			return false
		case strings.HasPrefix(a, "--") && !slices.Contains([]string{"--quiet", "--progress", "--no-progress", "--ignore-unmerged"}, a) && !strings.HasPrefix(a, "--source="):
			return false
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--"):
			for _, c := range a[1:] {
				if c == 'S' {
					staged = true
				} else if c != 'q' {
					return false
				}
			}
		}
	}
	return staged
}

// globDir splits w, one of globs (a plain glob word), into the directory
// its names lie in ("." for none) and the pattern of its last component
// (its Holes as "*"); ok is false when w is no such word or has a
// run-time part before its last '/'.
func globDir(w string, globs []string) (dir, pattern string, ok bool) {
	if !slices.Contains(globs, w) {
		return "", "", false
	}
	h := strings.Index(w, Hole)
	slash := strings.LastIndexByte(w, '/')
	if slash > h {
		return "", "", false
	}
	dir, last := ".", w
	if slash >= 0 {
		dir, last = w[:slash], w[slash+1:]
		if dir == "" {
			dir = "/"
		}
	}
	return dir, strings.ReplaceAll(last, Hole, "*"), true
}

// globReachesProtected reports whether a glob's names in directory dir
// (resolved), whose last component is pattern (its Holes as "*"), could
// be a protected path, or, removed or moved recursively, hold one, as
// protectedBelow tells for a directory named outright. The names are those
// dir holds now that pattern matches (path.Match; a name starting with
// "." counts too, as under dotglob): what the glob will name when it runs
// but for what is made meanwhile (a protected path made by the same
// command asks for itself). dir inside a .git, or a listing that fails,
// counts as reaching one; and, for source (a glob cp or mv takes as its
// source), a symbolic link among the names. cpSource: the names are only
// read (cp's sources), so only the links count.
func (x *pathIndex) globReachesProtected(dir, pattern string, recursive, source, cpSource bool, lk *Lookups) bool {
	prefix := strings.TrimSuffix(dir, "/") + "/"
	if path.Base(dir) == ".git" || strings.Contains(prefix, "/.git/") {
		return true
	}
	entries, err := fsview.ReadDir(dir)
	if err != nil {
		// No directory: the glob names nothing, and stays the pattern.
		return !os.IsNotExist(err)
	}
	for _, e := range entries {
		if m, err := path.Match(pattern, e.Name()); !m && err == nil {
			continue
		}
		p := prefix + e.Name()
		if source && e.Type()&fs.ModeSymlink != 0 {
			// A source of cp or mv that is a link, copied or moved
			// under another name, leads later words of the command
			// where the analysis does not look (`mv evi? lnk && rm -rf
			// lnk/*`), as a link the command made would.
			return true
		}
		if cpSource {
			continue // only read
		}
		for _, g := range x.protected {
			if g.match(p) {
				return true
			}
		}
		if recursive && (e.Name() == ".git" || x.protectedBelow(p, lk)) {
			return true
		}
	}
	return false
}

// recursiveRm reports whether rm's words ask it to remove directories
// with what they hold (-r, -R, --recursive, in any cluster, before "--").
// sedFileOperand reports whether words[k], in a call of sed, is one of
// the files sed edits: past the script, which is the first operand unless
// an -e (--expression) gives it, and no option's value. Options it does
// not know of (-f, a value glued to its letter) make it answer false.
func sedFileOperand(words []string, k int) bool {
	script, operands := false, true
	for j := 1; j < k; j++ {
		w := words[j]
		switch {
		case !operands || w == "-" || !strings.HasPrefix(w, "-"):
			script = true // the script, or a file after it
		case w == "--":
			operands = false
		case strings.HasPrefix(w, "--"):
			opt, _, glued := strings.Cut(w, "=")
			switch {
			case len(opt) >= 3 && strings.HasPrefix("--expression", opt):
				script = true
				if !glued {
					j++ // its value, the script
				}
			case len(opt) >= 3 && (strings.HasPrefix("--file", opt) || strings.HasPrefix("--line-length", opt)) && !glued:
				return false
			}
		default:
			last := w[len(w)-1]
			if strings.ContainsRune(w[1:len(w)-1], 'e') || strings.ContainsRune(w[1:len(w)-1], 'l') || strings.ContainsRune(w, 'f') {
				return false // a glued value
			}
			switch last {
			case 'e':
				script = true
				j++
			case 'l':
				j++
			}
		}
	}
	// (words[k] itself, when a skipped value, is never reached: j is
	// then past k.)
	return script && k < len(words) && !skippedTo(words, k)
}

// namesStartWithDash reports whether directory dir holds a name starting
// with "-" (or cannot be listed).
func namesStartWithDash(dir string) bool {
	ents, err := fsview.ReadDir(dir)
	if err != nil {
		return true
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "-") {
			return true
		}
	}
	return false
}

// LinksOutWhy is what writesOnlyWorkspace answers, with false, for a copy,
// move or link of a directory that holds a link out of the workspace (or
// one it could not look through): a write a jail can contain, since what
// the new name leads to is then read and written jailed (see
// movesLinksOut).
const LinksOutWhy = "\x00links out"

// LinkToDirWhy is what writesOnlyWorkspace answers, with false, for ln -s
// of a directory (or of a target that does not exist yet): a new name
// through which ".." leads to the directory's parent, not back where it
// reads, for commands decided before it was made; a jail contains it.
const LinkToDirWhy = "\x00link to a directory"

// movesLinksOut reports whether cp -r, mv or a hard ln (fo) takes as
// a source a directory that holds a symbolic link, or a symbolic link
// itself, that will lead out of the workspace, to a protected path or to
// a secret from where the copy or the moved link will stand (or one that
// does not resolve): the copy or the moved tree is a new name for what
// the link leads to, which the commands after it in the same text read
// and write through, decided on a path that does not exist yet (attack
// run 30: a jailed command planted src/z.py -> ~/.ssh/id_rsa, then `cp
// -r src h && cat h/z.py` printed the key and `… && echo x >> h/rc`
// wrote ~/.bashrc, unjailed; attack run 33: `mv a/b b` took a/b/up ->
// ../.. one level up, to the workspace's parent). A glob source counts by
// the directories it names now. Past derefBudget entries, or where a
// directory cannot be listed, it reports true.
func (x *pathIndex) movesLinksOut(fo fileOpts, ctx Context, globs []string) bool {
	ops := fo.operands
	dest, intoDir := fo.targetDir, fo.hasTargetDir // intoDir: each source lands at dest/its name
	switch {
	case intoDir:
	case len(ops) > 1:
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
		intoDir = len(ops) > 1
	case len(ops) == 1 && !fo.noTargetDir:
		dest, intoDir = ".", true // ln TARGET: a link of that name here
	}
	// roots gives the paths a source named base will stand at: nil where
	// that is not known (no destination, one with a run-time part, ending
	// in . or ..); the destination itself unless it is a directory now.
	roots := func(base string) []string {
		if dest == "" || strings.Contains(dest, Hole) || base == "." || base == ".." || !ctx.LinksOnlyHere {
			// (Another part of the command could have made the
			// destination, or a directory on its way, a link.)
			return nil
		}
		cands := []string{dest + "/" + base}
		if !intoDir {
			cands = append(cands, dest)
		}
		var out []string
		for _, c := range cands {
			abs, last, ok := ownName(c, ctx)
			if !ok || last == "." || last == ".." || last == "" {
				return nil
			}
			out = append(out, abs)
		}
		return out
	}
	budget := derefBudget
	for _, op := range ops {
		var dirs, bases []string
		if strings.Contains(op, Hole) {
			dir, pattern, ok := globDir(op, globs)
			if !ok {
				return true
			}
			ps := newPathSubject(dir, ctx)
			ents, err := fsview.ReadDir(ps.resolved)
			if err != nil {
				return true
			}
			for _, e := range ents {
				if ok, _ := path.Match(pattern, e.Name()); ok && (e.IsDir() || e.Type()&fs.ModeSymlink != 0) {
					dirs = append(dirs, filepath.Join(ps.resolved, e.Name()))
					bases = append(bases, e.Name())
				}
			}
		} else {
			// The operand as it names itself: its directory resolved,
			// its last name as written (a link stays a link).
			abs, last, ok := ownName(op, ctx)
			if !ok || last == "." || last == ".." || last == "" {
				ps := newPathSubject(op, ctx)
				if !ps.static {
					return true
				}
				abs = ps.resolved
			}
			dirs = append(dirs, abs)
			bases = append(bases, last)
		}
		for i, d := range dirs {
			at := roots(bases[i])
			// The operand itself a link (cp -P, -d, -a, mv, ln): copied,
			// moved or hard-linked as a link. Where it will stand not
			// known, any relative text could lead anywhere.
			if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				if text, err := os.Readlink(d); err != nil || at == nil && !strings.HasPrefix(text, "/") || x.linkLeaves(d, at, true, ctx) {
					return true
				}
				continue
			}
			ps := newPathSubject(d, ctx)
			if fi, err := os.Lstat(ps.resolved); err == nil && fi.IsDir() && x.linksLeave(ps.resolved, at, true, ctx, &budget) {
				return true
			}
		}
	}
	return false
}

// ownName returns the path p (absolute, or relative to ctx.Cwd) as the
// name it makes or stands for itself: its directory resolved as the kernel
// reaches it (a ".." after a link there is not lexical), then its last
// name as written, which may be a link or not exist yet; and that last
// name. ok is false where the directory's resolution is not known.
func ownName(p string, ctx Context) (abs, last string, ok bool) {
	if !strings.HasPrefix(p, "/") {
		p = ctx.Cwd + "/" + p
	}
	p = strings.TrimRight(p, "/")
	k := strings.LastIndexByte(p, '/')
	last = p[k+1:]
	dir := newPathSubject(p[:k+1], ctx)
	if !dir.static {
		return "", last, false
	}
	return strings.TrimRight(dir.resolved, "/") + "/" + last, last, true
}

// namesADirectory reports whether the path p, as written, names a
// directory on the way to its last component: one not "", "." or ".."
// (`d/k`, `/w/k`; not `k`, `./k`, `../k`).
func namesADirectory(p string) bool {
	parts := strings.Split(strings.TrimRight(p, "/"), "/")
	for _, c := range parts[:len(parts)-1] {
		if c != "" && c != "." && c != ".." {
			return true
		}
	}
	return false
}

// gitMvOpts reads git mv's arguments (args, after "mv"): its options
// (-f, -k, -n, -v, --dry-run, --verbose, --force, --sparse: git-mv(1))
// take no value, so the operands are the other words, and all after "--".
func gitMvOpts(args []string) fileOpts {
	var o fileOpts
	for i, a := range args {
		if a == "--" {
			o.operands = append(o.operands, args[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			o.operands = append(o.operands, a)
		}
	}
	return o
}

// linksLeave walks the tree below dir (not following links), taking one
// from *budget per entry, and reports a symbolic link that leads where a
// workspace write may not (see linkLeaves) from where it will stand: the
// same place below each of roots as below dir, or, unless moved, where it
// is; or a directory it cannot list, or the budget spent.
func (x *pathIndex) linksLeave(dir string, roots []string, moved bool, ctx Context, budget *int) bool {
	stack := []string{dir}
	for len(stack) > 0 {
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := fsview.ReadDir(d)
		if err != nil {
			return true
		}
		for _, e := range ents {
			if *budget--; *budget < 0 {
				return true
			}
			p := filepath.Join(d, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				var at []string
				for _, r := range roots {
					at = append(at, r+strings.TrimPrefix(p, dir))
				}
				if x.linkLeaves(p, at, moved, ctx) {
					return true
				}
			case e.IsDir():
				stack = append(stack, p)
			}
		}
	}
	return false
}

// linkLeaves reports whether the symbolic link p could lead where a
// workspace write may not: its target lies outside the workspace and the
// temp directories, is a protected path or a secret a read rule names
// (src/l -> ../.env: read through a new name, no rule would see it), or
// does not resolve. Unless moved, the link stays at p. Moved (copied,
// renamed or hard-linked as a link), the same text is read from each of
// at, the paths it will stand at (a path below a directory that exists
// now, then directories the copy makes); with at empty, where it will
// stand is not known and a relative text that climbs ("..") could lead
// anywhere. A relative text with ".." after a name is not read.
func (x *pathIndex) linkLeaves(p string, at []string, moved bool, ctx Context) bool {
	text, err := os.Readlink(p)
	if err != nil {
		return true
	}
	leaves := func(ps pathSubject) bool {
		if !ps.static || !x.insideWorkspace(ps.resolved, false) || x.protectedBy(ps) != "" {
			return true
		}
		h := x.sections[1].matchString(ps.resolved)
		return h.deny >= 0 || h.ask >= 0
	}
	if !moved {
		target, err := filepath.EvalSymlinks(p)
		return err != nil || leaves(pathSubject{resolved: target, cleaned: target, static: true})
	}
	if !strings.HasPrefix(text, "/") {
		climbs, named := false, false
		for _, c := range strings.Split(text, "/") {
			switch {
			case c == "..":
				if named {
					return true
				}
				climbs = true
			case c != "" && c != ".":
				named = true
			}
		}
		if climbs && len(at) == 0 {
			return true
		}
	}
	if len(at) == 0 {
		at = []string{p}
	}
	for _, a := range at {
		t := text
		if !strings.HasPrefix(text, "/") {
			t = path.Clean(path.Dir(a) + "/" + text)
		}
		if leaves(newPathSubject(t, ctx)) {
			return true
		}
	}
	return false
}

// chmodFileOperand reports whether words[k], in a call of chmod, comes
// after its mode: an earlier word that is no option and holds no
// run-time part (a glob there could expand to a mode such as u+s).
// chmodDashMode reports a word that GNU chmod reads as a symbolic mode
// though it starts with "-" (-x, -w, -rwx, -X, -st: a minus and mode
// letters, none of them one of chmod's options c, f, v or R).
func chmodDashMode(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	for _, c := range w[1:] {
		if !strings.ContainsRune("rwxXst", c) {
			return false
		}
	}
	return true
}

func chmodFileOperand(words []string, k int) bool {
	for _, w := range words[1:k] {
		if (!strings.HasPrefix(w, "-") || chmodDashMode(w)) && !strings.Contains(w, Hole) {
			return true
		}
	}
	return false
}

// skippedTo reports whether words[k] is the value of the option before it
// (-e, -l, --expression, --line-length given apart from their value).
func skippedTo(words []string, k int) bool {
	if k < 2 {
		return false
	}
	prev := words[k-1]
	if !strings.HasPrefix(prev, "-") || prev == "-" || prev == "--" {
		return false
	}
	if strings.HasPrefix(prev, "--") {
		opt, _, glued := strings.Cut(prev, "=")
		return !glued && len(opt) >= 3 && (strings.HasPrefix("--expression", opt) || strings.HasPrefix("--line-length", opt) || strings.HasPrefix("--file", opt))
	}
	last := prev[len(prev)-1]
	return last == 'e' || last == 'l' || last == 'f'
}

func recursiveRm(words []string) bool {
	for _, w := range words[1:] {
		switch {
		case w == "--":
			return false
		case w == "--recursive":
			return true
		case strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w, "rR"):
			return true
		}
	}
	return false
}
