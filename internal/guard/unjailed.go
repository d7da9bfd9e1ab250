package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// This file is about the jail and writes outside the workspace: a write
// beneath a directory the jail may write (sandbox.write) is one the jail
// can take; and when a command the jail would take asks all the same
// because of one segment, the refusal says why it was not jailed and what
// would let it run jailed, rather than suggesting an allow rule that
// would run it unjailed with the user's full rights.

// outsideWrite reports a verdict that asks only because its segment
// writes outside the workspace: its class decided, no rule, no protected
// path.
func outsideWrite(v rules.Verdict) bool {
	return v.Decision == rules.Ask && v.DecidedBy == rules.ByClass && v.Rule == nil && v.Protected == "" &&
		v.Sensitivity == rules.OutsideWorkspace
}

// jailTakes reports whether c, a segment that asks because it writes
// outside the workspace (see outsideWrite), is one the jail takes when
// the jail also writes beneath extra: decided again with every directory
// the jail may write (Writable, and extra) counting as the workspace does
// (as the temp directories count), in every directory in cwds, it is
// allowed by its class or would run jailed (rules.Sandboxable). A jailed
// command may write there anyway, whatever it is; rules, protected paths
// and files with several links still decide as before.
func (g *Guard) jailTakes(c Checked, extra, cwds []string, cwdUnknown bool, mode rules.Mode) bool {
	ctx := g.Context
	ctx.TempDirs = append(g.jailWrites(), extra...)
	ctx.Lookups = rules.NewLookups()
	ctx.CwdUnknown = cwdUnknown
	as, subject := g.subject(c.Segment)
	pr := g.Policy.Prepare(subject, ctx)
	for _, d := range cwds {
		v, _ := g.settle(as, pr.In(d), nil)
		if !(v.Decision == rules.Allow && v.Rule == nil || rules.Sandboxable(v, mode)) {
			return false
		}
	}
	return len(cwds) > 0
}

// explainUnjailed marks, in o (which asks and is not jailed), the segments
// the jail would have taken (Checked.Jailable) when another segment keeps
// the command out of the jail, and for such a segment that writes
// outside the jail's directories the directories that, added to
// sandbox.write, would let the jail take it (Checked.JailWrite), when
// adding them is no wide grant (see suggestWritable). Nothing is marked
// when no segment is one the jail would take.
func (g *Guard) explainUnjailed(o *Outcome, cwds []string, cwdUnknown bool, mode rules.Mode) {
	takes := func(c Checked) bool {
		return rules.Sandboxable(c.Verdict, mode) ||
			outsideWrite(c.Verdict) && len(g.Policy.Sandbox.Write) > 0 && g.jailTakes(c, nil, cwds, cwdUnknown, mode)
	}
	some := false
	for i := range o.Segments {
		c := &o.Segments[i]
		if c.Verdict.Decision == rules.Ask && takes(*c) {
			c.Jailable, some = true, true
		}
	}
	if !some {
		return
	}
	for i := range o.Segments {
		c := &o.Segments[i]
		if c.Jailable || !outsideWrite(c.Verdict) {
			continue
		}
		dirs := g.writeDirs(*c, cwds)
		if len(dirs) == 0 || !g.jailTakes(*c, dirs, cwds, cwdUnknown, mode) {
			continue
		}
		// The fewest directories that still do.
		for j := 0; j < len(dirs) && len(dirs) > 1; {
			fewer := slices.Delete(slices.Clone(dirs), j, j+1)
			if g.jailTakes(*c, fewer, cwds, cwdUnknown, mode) {
				dirs = fewer
			} else {
				j++
			}
		}
		for j, d := range dirs {
			if rest, ok := strings.CutPrefix(d, g.Context.Home+"/"); ok && g.Context.Home != "" {
				dirs[j] = "~/" + rest // as sandbox.write takes it
			}
		}
		c.JailWrite = dirs
	}
}

// writeDirs returns the directories c, a segment writing outside the
// workspace, may write in that the jail may not and that suggestWritable
// allows: a redirection's target's directory; for a command, each static
// argument's (the argument itself when it is a directory). Relative
// paths are taken in cwds[0].
func (g *Guard) writeDirs(c Checked, cwds []string) []string {
	seg := c.Segment
	words := seg.Args
	if seg.Kind == interp.Exec {
		if len(words) < 2 {
			return nil
		}
		words = words[1:]
	}
	writable := g.jailWrites()
	var out []string
	for _, w := range words {
		p := w.Value
		if w.Dynamic() || p == "" || strings.HasPrefix(p, "-") {
			continue
		}
		if rest, ok := strings.CutPrefix(p, "~/"); ok && g.Context.Home != "" {
			p = filepath.Join(g.Context.Home, rest)
		}
		if seg.Kind == interp.Exec && !strings.Contains(p, "/") {
			continue // a word, not a path (an option's value, a name)
		}
		if len(cwds) > 0 {
			p = absIn(cwds[0], p)
		}
		if !filepath.IsAbs(p) || JailWrites(p, writable) {
			continue
		}
		dir := filepath.Dir(p)
		if info, err := os.Stat(p); err == nil && info.IsDir() && seg.Kind == interp.Exec {
			dir = p
		}
		dir = resolveLoose(dir)
		if suggestWritable(dir, g.Context.Home) && !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

// systemDirs are where guardsh never suggests the jail should write.
var systemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/dev", "/proc", "/sys",
	"/run", "/root", "/var/lib", "/var/log", "/var/spool", "/var/mail"}

// suggestWritable reports whether dir may be suggested for sandbox.write:
// not "/", a directory at the top ("/etc", "/var"), one of systemDirs or
// beneath one, the home directory or a directory above it — each a grant
// to every jailed command far wider than the write it is for.
func suggestWritable(dir, home string) bool {
	dir = filepath.Clean(dir)
	if dir == "/" || strings.Count(dir, "/") < 2 {
		return false
	}
	if home != "" && (dir == home || strings.HasPrefix(home+"/", dir+"/")) {
		return false
	}
	for _, s := range systemDirs {
		if dir == s || strings.HasPrefix(dir, s+"/") {
			return false
		}
	}
	return true
}

// jailLines returns the refusal's lines about the jail when a segment of
// o could have run jailed (see explainUnjailed): why the command was not
// jailed — the first segment that kept it out, and what the jail does not
// take of it — and which segments would have run jailed. Empty otherwise.
func (o Outcome) jailLines() []string {
	var jailable []string
	var blocker *Checked
	for i, c := range o.Segments {
		if c.Jailable {
			jailable = append(jailable, c.Segment.String())
		} else if (c.Verdict.Decision == rules.Ask || c.OutsideJail != "") && blocker == nil {
			blocker = &o.Segments[i]
		}
	}
	if len(jailable) == 0 || blocker == nil {
		return nil
	}
	v := blocker.Verdict
	why := "asks"
	switch {
	case blocker.OutsideJail != "":
		why = "writes " + blocker.OutsideJail + ", which no jail may write; write it in a step of its own"
	case v.Protected != "":
		why = "writes a protected path (" + v.Protected + "), which only a human's yes lets anything write"
	case v.Rule != nil:
		why = fmt.Sprintf("asks under rule %q (%s), which the jail does not lift", v.Rule.Pattern, v.Rule.Source())
	case v.Sensitivity == rules.OutsideWorkspace && len(blocker.JailWrite) > 0:
		why = "writes outside the directories the jail may write (the workspace, the temp directories, sandbox.write)"
	case v.Sensitivity == rules.OutsideWorkspace:
		why = "writes outside the directories the jail may write (the workspace, the temp directories, sandbox.write); write inside them instead"
	case v.Sensitivity != "":
		why = "is sensitive (" + string(v.Sensitivity) + "), which the jail does not take"
	case v.Class != "":
		why = "asks (class " + string(v.Class) + "), which the jail does not take in this mode"
	}
	what := jailable[0]
	if len(jailable) > 1 {
		what += fmt.Sprintf(" and %d more", len(jailable)-1)
	}
	return []string{
		"guardsh: sandbox: not jailed: " + blocker.Segment.String() + " " + why,
		"guardsh:   without it " + what + " would run jailed; an allow rule would run it outside the jail, with your full rights",
	}
}

// writableHint is the hint for a segment the jail would take with dirs
// added to sandbox.write (Checked.JailWrite).
func writableHint(dirs []string, policyFile string) string {
	return fmt.Sprintf("guardsh:   to run it jailed, add %s to sandbox.write in %s", strings.Join(dirs, ", "), policyFile)
}
