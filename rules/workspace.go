package rules

import (
	"fmt"
	"strings"
)

// workspaceWriters are the programs whose only effect is on the files they
// are given (creating, changing or removing them): coreutils touch, mkdir,
// rmdir, rm, cp, mv, ln, chmod, truncate and tee, and sed (whose -i edits
// its files; a script that runs commands or names other files is code in
// an argument, see execargs.go). When every operand of one of them lies
// strictly inside the workspace (or a temp directory), statically and with
// symlinks resolved, the segment's class is Workspace: mode auto runs it,
// as it runs a redirection into the workspace.
var workspaceWriters = map[string]bool{
	"touch": true, "mkdir": true, "rmdir": true, "rm": true, "cp": true, "mv": true, "ln": true,
	"chmod": true, "truncate": true, "tee": true, "sed": true,
}

// writesOnlyWorkspace reports whether words, a call of a workspace writer,
// names only paths strictly inside the workspace or a temp directory (an
// option's "=value" counts as a path too), and why.
func (p *Policy) writesOnlyWorkspace(words []string, ctx Context) (bool, string) {
	name := words[0]
	if !workspaceWriters[name] || len(words) < 2 {
		return false, ""
	}
	x := p.pathIndexFor(ctx)
	operands := 0
	for _, w := range words[1:] {
		if strings.Contains(w, Hole) {
			return false, ""
		}
		v := w
		if strings.HasPrefix(w, "-") {
			_, val, ok := strings.Cut(w, "=")
			if !ok {
				continue
			}
			v = val
		}
		if ctx.CwdUnknown && !strings.HasPrefix(v, "/") {
			return false, ""
		}
		ps := newPathSubject(v, ctx)
		if !ps.static || ps.links > 1 || x.protectedBy(ps) != "" {
			return false, ""
		}
		inside := false
		for _, d := range append(append([]string(nil), x.wsDirs...), x.tmpDirs...) {
			if ps.resolved != d && withinAny(ps.resolved, []string{d}) {
				inside = true
				break
			}
		}
		if !inside {
			return false, ""
		}
		operands++
	}
	if operands == 0 {
		return false, ""
	}
	return true, fmt.Sprintf("%s changes only files inside the workspace", name)
}
