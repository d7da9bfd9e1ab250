package guard

import (
	"path"
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
// put; loops and functions reorder). Every segment is decided in each of
// them and the strictest verdict counts. Anything else that may change the
// directory (`cd "$d"`, `cd -`, eval of run-time text, a command whose name
// is only known at run time, CDPATH assigned, `shopt -s autocd` or
// `cdable_vars`) leaves relative paths unknown (rules.Context.CwdUnknown).
// guardsh removes CDPATH from the real shell's environment (see
// interp.ShellEnv), so a relative cd goes where it says.

// maxDirs bounds the directories tracked; more leave the directory unknown.
const maxDirs = 8

// dirs returns the directories segs may run in, starting from start, or
// known false. Segments of a file vouched for do not count (see decide).
func dirs(segs []interp.Segment, start, home string, vouched map[string]*rules.Rule) (out []string, known bool) {
	out = []string{start}
	for _, s := range segs {
		if s.Sourced != "" && vouched[s.Sourced] != nil {
			continue
		}
		for _, as := range s.Assigns {
			if strings.HasPrefix(as.Value, "CDPATH=") || strings.HasPrefix(as.Value, "CDPATH+=") {
				return nil, false
			}
		}
		if s.Kind == interp.Exec && len(s.Args) > 1 && s.Args[0].Value == "shopt" {
			for _, w := range s.Args[1:] {
				if w.Value == "autocd" || w.Value == "cdable_vars" || strings.Contains(w.Value, interp.Hole) {
					return nil, false
				}
			}
		}
		if !s.MayChangeDir() {
			continue
		}
		target, ok := cdTarget(s, home)
		if !ok {
			return nil, false
		}
		if target == "" {
			continue // popd: back to a directory already counted
		}
		for _, d := range out {
			next := target
			if !strings.HasPrefix(target, "/") {
				next = path.Join(d, target)
			}
			if !containsDir(out, next) {
				out = append(out, next)
			}
			if len(out) > maxDirs {
				return nil, false
			}
		}
	}
	return out, true
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
			if !strings.ContainsRune("LPe@n", c) {
				return "", false // pushd +N / -N rotate the stack
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
	if t == "" || t == "-" || strings.Contains(t, interp.Hole) {
		return "", false
	}
	return t, true
}

func containsDir(ds []string, d string) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}
