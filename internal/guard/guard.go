// Package guard joins analysis and policy: it turns one command text into
// segments (package interp), decides each (package rules), combines the
// verdicts, and words the refusal a caller prints.
package guard

import (
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/workspace"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// Guard decides command texts under one policy and context.
type Guard struct {
	Policy *rules.Policy
	// Verdicts, when not nil, remembers between runs which files read by
	// source were found clear (see knownClear); nil decides them every
	// time.
	Verdicts interp.SourceCache
	// PolicyFile names where Policy came from, for guidance in messages
	// ("<embedded default>" when no file exists).
	PolicyFile string
	Context    rules.Context
	Analysis   interp.Options
	// SandboxUnavailable, when not empty, says why no jail can be set up
	// here ("unavailable (ABI 3)", see sandbox.Unavailable): what would
	// run jailed asks instead.
	SandboxUnavailable string
	// LinksMade says a command decided before this one, in the same
	// script, can make a symbolic link and may not have run yet (a script
	// read from standard input is decided command by command as it
	// arrives, ahead of bash: attack run 34's `ln -s . up`, then `cat
	// up/../.ssh/id_rsa` on the next line): no command decided after it
	// has rules.Context.NoNewLinks or LinksOnlyHere. MakesLinks sets it.
	LinksMade bool
	// GlobsChanged says a command decided before this one, in the same
	// script, may change how globs match (see rules.Context.PlainGlobs).
	// MakesLinks sets it.
	GlobsChanged bool
	// loads is workspaceLoads's answer once made, for the environment
	// loadsEnv and the places loadsAt.
	loads             *string
	loadsEnv, loadsAt []string
	loadsWhen         time.Time
	// links is protectedLinks's answer once made, at linksWhen, for the
	// workspace and home linksFor (see fresh).
	links     *linkedProtected
	linksFor  [2]string
	linksWhen time.Time
	// JailRecord is the file recording where jails of this user wrote
	// (see JailRecordFile, RecordJail); "" records nothing and reads an
	// empty record.
	JailRecord string
	// GlobalGit is what the user's and the system's git config make git
	// read or run in every repository (workspace.GlobalReach): protected
	// paths that the sandbox keeps and puts back when they lie in the
	// workspace, and that keep commands from running jailed when they
	// lie where a jail writes outside it.
	GlobalGit workspace.GitReach
	// Prompts: commands run in guardsh's interactive session, which
	// analyses each prompt string and PROMPT_COMMAND before using it, so
	// assigning them allowed code is an ordinary assignment (prompts.go).
	Prompts bool
	// longWay, for tests: Decide explains the verdict in every directory
	// a cd may lead to, as it did before Prepared.Brief, rather than only
	// the one that wins (TestDecideShortcuts compares the two).
	longWay bool
}

// Checked is one segment with its verdict.
type Checked struct {
	Segment interp.Segment
	Verdict rules.Verdict
	// Sandboxed: the segment would have asked and runs inside the jail
	// instead (Verdict.Decision is then Allow).
	Sandboxed bool
	// Jailable: the segment asks, the jail would have taken it, and
	// another segment kept the command out of the jail; JailWrite: the
	// segment writes outside the jail's directories and the jail would
	// take it with these added to sandbox.write ("~/…" or absolute). Set
	// for a refusal's guidance only (see explainUnjailed).
	Jailable  bool
	JailWrite []string
	// OutsideJail: the segment is allowed, but writes what no jail may
	// (a CI runner's file command), so a command holding it runs
	// unjailed; named in a refusal as what kept the command out of the
	// jail (see jailLines).
	OutsideJail string
}

// Outcome is the decision for one command text.
type Outcome struct {
	// Decision is the strictest segment verdict; Ask when the text was not
	// understood (guardsh never allows what it did not understand).
	Decision rules.Decision
	// DecidedBy is what settled Decision: "rule", "mode" or "class" (from
	// the strictest segment), or "analysis" when the text was not understood.
	DecidedBy string
	Segments  []Checked
	// Err is set when the text could not be analysed (*interp.NotUnderstood).
	Err error
	// Sandbox: the command runs inside the Landlock jail (DecidedBy is
	// "sandbox" when that is what lets it run); Network: the jail lets it
	// connect and bind TCP sockets, because an allow rule let a segment
	// reach the network.
	Sandbox, Network bool
	// SandboxNote is the audit record's sandbox field: the sandbox mode
	// ("workspace" or "strict", with ", network" when Network) when the
	// command runs jailed; "unavailable (ABI n)" when it would have run
	// jailed but asks because the kernel cannot jail it; else empty.
	SandboxNote string
}

// Evaluate analyses text and decides every segment: Analyze, then Decide.
// It never returns Allow for text it could not analyse.
func (g *Guard) Evaluate(text string) Outcome {
	segs, err := g.Analyze(text)
	if err != nil {
		return Outcome{Decision: rules.Ask, DecidedBy: "analysis", Err: err}
	}
	return g.Decide(segs)
}

// Analyze returns the segments of text under g.Analysis (with files read
// by source that g.Verdicts found clear vouched for), or the
// *interp.NotUnderstood error saying why text cannot be analysed.
func (g *Guard) Analyze(text string) ([]interp.Segment, error) {
	opt := g.Analysis
	if g.Verdicts != nil {
		opt.Vouch = g.knownClear
	}
	opt.Secret = g.secret
	return interp.Analyze(text, opt)
}

// secret implements interp.Options.Secret: a read rule (ask or deny) of
// the policy matches path, or it is a protected path — the agent may not
// read it unasked, so the analysis does not show it its lines (a refused
// `. ~/.npmrc` printed the token).
func (g *Guard) secret(path string) bool {
	v := g.Policy.Decide(rules.Subject{Kind: rules.KindRead, Words: []string{path}}, g.Context)
	if v.Decision == rules.Allow {
		return false
	}
	return v.Rule != nil && v.Rule.Section == "read" || v.Sensitivity == rules.ProtectedPath
}

// MakesLinks records, for the commands decided after it, whether o, a
// decided command, has a segment that can make a link (LinksMade) or
// change how globs match (GlobsChanged).
func (g *Guard) MakesLinks(o Outcome) {
	for _, c := range o.Segments {
		if linkMaker(c.Segment) {
			g.LinksMade = true
			break
		}
	}
	if globsMay(o.Segments, nil) {
		g.GlobsChanged = true
	}
}

// globShopts are the shopt options that change what a glob matches
// (bash(1) Pathname Expansion).
var globShopts = []string{"dotglob", "extglob", "nocaseglob", "globstar", "nullglob"}

// globsMay reports whether a segment of segs (or checked) may change how
// a glob matches (rules.Context.PlainGlobs): shopt -s of a globShopts
// option or of a word only known at run time (`shopt -u extglob`, which
// Claude Code's every command holds, changes nothing there), a word or
// assignment naming GLOBIGNORE or BASHOPTS, or code only known at run time (eval of a
// variable); or bash's environment holds BASHOPTS with one of those
// options, or GLOBIGNORE.
func globsMay(checked []Checked, segs []interp.Segment) bool {
	if opts := os.Getenv("BASHOPTS"); slices.ContainsFunc(globShopts, func(o string) bool { return strings.Contains(opts, o) }) {
		return true
	}
	if _, ok := os.LookupEnv("GLOBIGNORE"); ok {
		return true
	}
	may := func(seg interp.Segment) bool {
		if seg.RunsCode {
			return true
		}
		for _, ws := range [][]interp.Word{seg.Args, seg.Assigns} {
			for _, w := range ws {
				if strings.Contains(w.Value, "GLOBIGNORE") || strings.Contains(w.Value, "BASHOPTS") {
					// (BASHOPTS given to a bash: `env BASHOPTS=dotglob
					// bash -c …`, attack run 79.)
					return true
				}
			}
		}
		if len(seg.Args) == 0 || seg.Args[0].Value != "shopt" {
			return false
		}
		sets, unsets, named, skipdots := false, false, false, false
		for _, w := range seg.Args[1:] {
			v := w.Value
			switch {
			case strings.Contains(v, interp.Hole):
				return true
			case strings.HasPrefix(v, "-") && strings.Contains(v, "s"):
				sets = true
			case strings.HasPrefix(v, "-") && strings.Contains(v, "u"):
				unsets = true
			case slices.Contains(globShopts, v):
				named = true
			case v == "globskipdots":
				skipdots = true
			}
		}
		// (shopt -u globskipdots lets `.?` and `.[.]` match "..":
		// attack run 80.)
		return sets && named || unsets && skipdots
	}
	for _, c := range checked {
		if may(c.Segment) {
			return true
		}
	}
	return slices.ContainsFunc(segs, may)
}

// linkMaker reports whether seg can make a symbolic link: an exec segment
// whose words rules.MakesNoLinks does not know to make none (a
// redirection makes a regular file).
func linkMaker(seg interp.Segment) bool {
	// A wrapper, eval or shell whose command was followed (Nested) is
	// decided by the segments of what it runs.
	if seg.Kind != interp.Exec || len(seg.Args) == 0 || seg.Nested {
		return false
	}
	switch seg.Args[0].Value {
	case "sed", "cp", "git":
	default:
		// The list's, or none that MakesNoLinks reads the words of: no
		// words to copy (a decision of 20 segments made 5 allocations
		// more).
		return !rules.MakesNoLinks([]string{seg.Args[0].Value}, true)
	}
	words := make([]string, len(seg.Args))
	for i, w := range seg.Args {
		words[i] = w.Value
	}
	return !rules.MakesNoLinks(words, len(seg.Assigns) > 0)
}

// Decide decides every segment of segs, the segments Analyze returned
// for one command text, and combines the verdicts. The segments are
// decided at one moment: they share one rules.Lookups (each file system
// lookup is made once per call), and each is decided in every directory a
// cd among them may lead to.
func (g *Guard) Decide(segs []interp.Segment) Outcome {
	out := Outcome{Decision: rules.Allow, DecidedBy: "class", Segments: make([]Checked, 0, len(segs))}
	ctx := g.Context
	// The command is decided at one moment: its segments share lookups.
	ctx.Lookups = rules.NewLookups()
	ctx.PlainGlobs = !g.GlobsChanged && !globsMay(nil, segs)
	// vouched maps a file read by source to the allow rule that lets the
	// source segment run: the user's rule vouches for the file's content,
	// deny and ask rules and protected paths aside (a cd in it included).
	vouched := g.vouched(segs, ctx)
	// The directories a cd may lead to (see dirs.go): each segment is
	// decided in every one.
	// Links a part of the command can make (see rules.Context.NoNewLinks,
	// LinksOnlyHere): linkMakers is the one segment that can, once, -1
	// for none, -2 for more (or one that repeats, or an earlier command
	// of a script that may not have run yet: LinksMade).
	// firstLinker is the first segment that can, len(segs) for none, -1
	// when an earlier command may have (see dirs).
	linkMakers, firstLinker := -1, len(segs)
	if g.LinksMade {
		linkMakers, firstLinker = -2, -1
	}
	for i, seg := range segs {
		if linkMaker(seg) {
			if (seg.Sourced == "" || vouched[seg.Sourced] == nil) && !rules.RunsProject(path.Base(seg.Args[0].Value)) {
				// (A file an allow rule vouches for is trusted with
				// its cds: see dirs. A program that runs a project's
				// code — make, npm, python3 — is asked about or jailed,
				// and then so is the command, or trusted by a rule or
				// mode bypass: `make build && cd web && npm run build`
				// is decided in web, as run.)
				firstLinker = min(firstLinker, i)
			}
			if linkMakers != -1 || seg.Repeats {
				linkMakers = -2
				break
			}
			linkMakers = i
		}
	}
	ctx.NoNewLinks = linkMakers == -1
	cwds, each, from := dirs(segs, ctx.Cwd, ctx.Home, vouched, ctx.NoNewLinks, firstLinker, g.Analysis.CDPATHMaySet)
	mode := g.mode()
	if g.Analysis.DirChanged || from == 0 {
		ctx.CwdUnknown, cwds, each = true, []string{ctx.Cwd}, nil
	}
	// The words of every segment, in one allocation (see subjectIn).
	n := 0
	for _, seg := range segs {
		n += len(seg.Args) + len(seg.Assigns)
	}
	words := make([]string, 0, n)
	for i, seg := range segs {
		// The directories a cd before it may lead to (see dirs).
		segDirs := cwds
		sctx := ctx
		switch {
		case i >= from:
			// After what makes the directory only known at run time.
			sctx.CwdUnknown, segDirs = true, []string{ctx.Cwd}
		case each != nil:
			segDirs = each[i]
		}
		if seg.Elsewhere {
			// A wrapper runs it in a directory of its choosing (env
			// -C, find -execdir): its relative paths lead where no one
			// knows, a redirection's as a name in a directory only known
			// at run time.
			sctx.CwdUnknown, segDirs = true, []string{ctx.Cwd}
			if seg.Kind != interp.Exec && len(seg.Args) == 1 && !strings.HasPrefix(seg.Args[0].Value, "/") && !strings.HasPrefix(seg.Args[0].Value, interp.Hole) {
				seg.Args = []interp.Word{{Value: interp.Hole + "/" + seg.Args[0].Value, Source: seg.Args[0].Source}}
			}
		}
		if dirs, dynamic := gitCDirs(seg, segDirs); dynamic {
			// git -C DIR: git resolves a path option (-f FILE,
			// --output=FILE) from there, not from the shell's directory
			// (attack run 62: `git -C .git config -f config
			// core.fsmonitor CMD` wrote .git/config in mode bypass); a
			// DIR only known at run time leaves it unknown.
			sctx.CwdUnknown = true
		} else if dirs != nil {
			segDirs, sctx.CwdForGit = dirs, true
		}
		if seg.Relative != "" && !sctx.CwdUnknown {
			// Each directory a cd may lead to is known: decide the
			// relative path in each (not as a path only known at run
			// time).
			seg.Args = []interp.Word{{Value: seg.Relative, Source: seg.Args[0].Source}}
		} else if seg.Relative != "" && !strings.Contains(seg.Relative, interp.Hole) {
			// The name in a directory only known at run time: what it
			// names there (`> .bashrc` after `cd "$(dirname "$PWD")"`)
			// may be protected in some directory (attack run 62).
			seg.Args = []interp.Word{{Value: interp.Hole + "/" + seg.Relative, Source: seg.Args[0].Source}}
		}
		// What the rules see of the segment does not change with the
		// directory: it is made once, and so is the part of its verdict
		// no directory changes (see rules.Prepared).
		var subject rules.Subject
		var as interp.Segment
		as, subject, words = g.subjectIn(seg, words)
		sctx.LinksOnlyHere = linkMakers == i
		pr := g.Policy.Prepare(subject, sctx)
		v, counts := g.settle(as, pr.In(segDirs[0]), vouched)
		if segDirs[0] != ctx.Cwd {
			v.Reason += " (in " + segDirs[0] + ", where a cd leads)"
		}
		// A stricter verdict in another directory replaces v, and so does
		// whether it counts (an assumed reading that no directory but
		// that one denies: an attack run's cd ~; for f in .ssh/id_rsa).
		for _, d := range segDirs[1:] {
			if g.longWay {
				if w, wc := g.settle(as, pr.In(d), vouched); stricter(w, v, mode) && wc {
					w.Reason += " (in " + d + ", where a cd leads)"
					v, counts = w, wc
				}
				continue
			}
			if v.Decision == rules.Deny || pr.SameIn() {
				break // no directory's verdict is stricter
			}
			// Only a stricter decision replaces v: it is found without
			// its explanation (rules.Prepared.Brief), which is made for
			// the one that wins.
			if w, wc := g.settle(as, pr.Brief(d), vouched); stricter(w, v, mode) && wc {
				w, wc = g.settle(as, pr.In(d), vouched)
				w.Reason += " (in " + d + ", where a cd leads)"
				v, counts = w, wc
			}
		}
		if seg.Read != "" && (v.Decision != rules.Allow || v.DecidedBy != rules.ByRule) {
			delete(vouched, seg.Read)
		}
		if !counts {
			continue
		}
		if len(out.Segments) == 0 || v.Decision > out.Decision {
			out.Decision, out.DecidedBy = v.Decision, v.DecidedBy
		}
		// Set in place: a Checked is a few hundred bytes, not copied twice.
		out.Segments = out.Segments[:len(out.Segments)+1]
		c := &out.Segments[len(out.Segments)-1]
		c.Segment, c.Verdict = seg, v
	}
	if len(out.Segments) == 0 {
		out.DecidedBy = "class"
	}
	if g.Verdicts != nil {
		g.recordClear(segs, ctx, vouched)
	}
	g.contain(&out, cwds, ctx.CwdUnknown || from < len(segs))
	return out
}

// decide gives seg's verdict in ctx; counts is false for a reading under
// assumed values that no rule denies (see interp.Segment.Assumed), which
// only ever tightens, except a loop variable's value (Certain), whose
// ask counts too.
func (g *Guard) decide(seg interp.Segment, ctx rules.Context, vouched map[string]*rules.Rule) (v rules.Verdict, counts bool) {
	as, subject := g.subject(seg)
	return g.settle(as, g.Policy.Decide(subject, ctx), vouched)
}

// subject returns seg as it is decided (in guardsh's interactive session
// without the prompt assignments PromptAllowed allows) and what the rules
// match of it.
func (g *Guard) subject(seg interp.Segment) (interp.Segment, rules.Subject) {
	seg, s, _ := g.subjectIn(seg, nil)
	return seg, s
}

// subjectIn is subject with the words cut from buf (see the function
// subjectIn).
func (g *Guard) subjectIn(seg interp.Segment, buf []string) (interp.Segment, rules.Subject, []string) {
	if g.Prompts && seg.Kind == interp.Exec {
		seg = g.withoutPromptAssigns(seg)
	}
	s, buf := subjectIn(seg, buf)
	if s.Kind == rules.KindRead && s.Glob&1 != 0 && len(s.Words) == 1 {
		// `< "$f"` of a glob loop's value (see interp emitTarget): what
		// `cat GLOB` reads, each name and the links beside them.
		s = rules.Subject{Kind: rules.KindExec, Words: []string{"cat", s.Words[0]}, Glob: 2}
	}
	return seg, s, buf
}

// settle returns seg's verdict (see decide) from v, the rules' verdict of
// its subject; seg is as subject returned it.
func (g *Guard) settle(seg interp.Segment, v rules.Verdict, vouched map[string]*rules.Rule) (rules.Verdict, bool) {
	if seg.Assumed != "" {
		if v.Decision == rules.Allow || v.Decision == rules.Ask && !seg.Certain {
			return v, false
		}
		v.Reason += " (assuming " + seg.Assumed + ")"
	}
	switch {
	case seg.RunsCode && v.Decision == rules.Allow && (g.Policy.Denies() || g.mode() != rules.Bypass) &&
		!(seg.Script != "" && v.Rule != nil && strings.Contains(v.Rule.Pattern, seg.Script)):
		// Code only known at run time could be anything a deny rule
		// forbids: it asks, in every mode (a run-time word a deny
		// pattern could match is never allowed); without deny rules
		// too, but in bypass (which trusts the agent with what no deny
		// rule names), since it could read a built-in secret or write a
		// protected path (attack run 36: `echo ${x@P}` in a config of
		// just mode auto printed the key).
		why := "runs code only known at run time (eval, sh -c, trap, source or ${x@P} of a run-time value)"
		if seg.Arith != "" {
			why = "evaluates as arithmetic or as a variable's name a value only known at run time (" + arithNames(seg.Arith) +
				"): bash runs the $(…) of a subscript in it, as in x='a[$(cmd)]'; : $((x))"
		}
		v = rules.Verdict{Decision: rules.Ask, Class: rules.Sensitive, DecidedBy: rules.ByClass, Reason: why}
	case seg.RunsCode && v.Decision == rules.Allow && v.DecidedBy != rules.ByRule && v.Class == rules.ReadOnly:
		// Mode bypass with no deny rule runs it, but the record says
		// what it is: not read-only (attack run 77: `: ${x@P}` of a
		// `$(cmd)` value ran cmd, recorded as read-only).
		why := "runs code only known at run time (eval, sh -c, trap, source or ${x@P} of a run-time value)"
		if seg.Arith != "" {
			why = "evaluates as arithmetic or as a variable's name a value only known at run time (" + arithNames(seg.Arith) + ")"
		}
		v = rules.Verdict{Decision: rules.Allow, Class: rules.Sensitive, DecidedBy: rules.ByMode, Reason: why + "; mode bypass runs it"}
	case transparent(seg) && v.DecidedBy != rules.ByRule && v.Protected == "" &&
		(v.Decision == rules.Ask || v.Decision == rules.Deny && g.mode() == rules.Plan):
		// The wrapper itself reads and writes nothing: what it runs is
		// decided as its own segments.
		v = rules.Verdict{Decision: rules.Allow, Class: rules.ReadOnly, DecidedBy: rules.ByClass,
			Reason: "runs only the code analysed as the segments after it"}
	}
	if seg.ReadsScript && v.Decision == rules.Allow {
		// What it reads of its shell's script could make the shell run
		// anything: it asks in every mode (a wrapper's own verdict
		// included), and a jail can contain it.
		v = rules.Verdict{Decision: rules.Ask, Class: rules.Sensitive, Sensitivity: rules.Interpreter, DecidedBy: rules.ByClass,
			Reason: "may read the rest of its shell's script, which that shell reads from standard input: the shell would then run as code what the analysis read as data"}
	}
	if seg.Sourced != "" && v.Decision == rules.Ask && v.Protected == "" && (v.Rule == nil || v.Rule.Decision != rules.Ask) {
		// What only asks because of its class, the mode, or a deny rule
		// it could match at run time is vouched for; an ask rule or a
		// protected path still asks.
		if r := vouched[seg.Sourced]; r != nil {
			v = rules.Verdict{Decision: rules.Allow, Class: v.Class, Rule: r, DecidedBy: rules.ByRule,
				Reason: fmt.Sprintf("comes from %s, sourced under allow rule %q (%s); only deny and ask rules and protected paths decide inside it", seg.Sourced, r.Pattern, r.Source())}
		}
	}
	return v, true
}

// mode is the mode decisions are made in: the context's, else the
// policy's.
// stricter reports whether w, a segment's verdict in another directory a
// cd may lead to, replaces v, its verdict so far: a stricter decision, or
// the same ask for a reason the sandbox does not take where v's it does
// (an ask rule, the network, a protected path: `cd bin && ./deploy`
// where only bin/deploy is a link to a program an ask rule names). The
// sandbox runs a command whose asks it all takes, so a verdict it would
// take must not hide one it would not.
func stricter(w, v rules.Verdict, mode rules.Mode) bool {
	return w.Decision > v.Decision ||
		w.Decision == rules.Ask && v.Decision == rules.Ask && rules.Sandboxable(v, mode) && !rules.Sandboxable(w, mode)
}

func (g *Guard) mode() rules.Mode {
	if g.Context.Mode != "" {
		return g.Context.Mode
	}
	return g.Policy.Mode
}

// vouched decides the source segments of segs that read a file and
// returns the files whose source segment an allow rule lets run (a file
// sourced from a vouched file counts when a rule or that file vouches for
// it), or nil.
func (g *Guard) vouched(segs []interp.Segment, ctx rules.Context) map[string]*rules.Rule {
	var out map[string]*rules.Rule
	for _, seg := range segs {
		if seg.Read == "" || seg.Assumed != "" {
			continue
		}
		v := g.Policy.Decide(Subject(seg), ctx)
		r := v.Rule
		if v.Decision != rules.Allow || v.DecidedBy != rules.ByRule || r == nil {
			if seg.Sourced == "" || out[seg.Sourced] == nil || v.Decision == rules.Deny || v.DecidedBy == rules.ByRule || v.Protected != "" {
				continue
			}
			r = out[seg.Sourced]
		}
		if out == nil {
			out = map[string]*rules.Rule{}
		}
		out[seg.Read] = r
	}
	return out
}

// plainWrappers run the command after their options with a time limit,
// priority, CPU set, buffering, session or environment of its own, and do
// nothing else (nohup, which may write nohup.out, and GNU time -o, which
// writes a file, are not among them). xargs adds arguments only known at
// run time, which the wrapped segment carries as Holes.
var plainWrappers = map[string]bool{
	"timeout": true, "nice": true, "stdbuf": true, "setsid": true, "ionice": true, "taskset": true,
	"env": true, "xargs": true,
}

// transparent reports a segment that runs nothing but code analysed as the
// segments after it: an eval of static text, exec/command/builtin of a
// command analysed on its own, or a shell from a system
// directory given a static -c string and no operands after it, with no
// prefix assignments (which could be LD_PRELOAD) and no rc file option
// (which would source a file).
// Its own class then does not make the command ask; rules that match it
// still apply, and the segments of its code are decided on their own.
func transparent(seg interp.Segment) bool {
	if seg.Function || seg.Aliased {
		// A function from a sourced file or an earlier line of the
		// session: its body is analysed; an alias: its expansion is.
		return len(seg.Assigns) == 0
	}
	if !seg.Nested || len(seg.Assigns) > 0 || len(seg.Args) == 0 {
		return false
	}
	name := seg.Args[0].Value
	switch name {
	case "eval", "exec", "command", "builtin":
		// bash builtins: they run the next segment and nothing else.
		return true
	}
	if strings.Contains(name, "/") {
		dir, base := path.Split(name)
		if dir != "/bin/" && dir != "/usr/bin/" && dir != "/usr/local/bin/" {
			return false
		}
		name = base
	}
	if plainWrappers[name] {
		// A wrapper that only sets limits, priority or environment for
		// the command it runs (which is decided on its own).
		for _, w := range seg.Args[1:] {
			if name == "env" && (w.Value == "-C" || strings.HasPrefix(w.Value, "--c") ||
				(strings.HasPrefix(w.Value, "-") && !strings.HasPrefix(w.Value, "--") && strings.ContainsRune(w.Value, 'C'))) {
				return false // env -C DIR (--chdir, --ch…) moves the command's relative paths
			}
		}
		return true
	}
	switch name {
	case "bash", "sh", "dash", "guardsh":
	case "zsh":
		// zsh code is analysed as bash so that deny rules see into it,
		// and agents on macOS run everything through `zsh -lc`. It is
		// transparent only without the zsh constructs that run code
		// where bash runs none: glob qualifiers (*(e:…:), *(+f)),
		// parameter flags (${(e)x}, ${(%)x}) and =(…).
		if zshRunsCode(seg) {
			return false
		}
	default:
		// ksh and mksh code is analysed as bash, an approximation:
		// never transparent.
		return false
	}
	// Options, then the -c string, and nothing after it: operands would
	// become $0 $1 … of the analysed code, whose paths (a protected file as
	// $0) are only known there at run time.
	args := seg.Args[1:]
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--rcfile" || v == "--init-file":
			return false
		case len(v) > 1 && (v[0] == '-' || v[0] == '+') && v[1] != '-' && strings.ContainsAny(v, "oO"):
			i++ // -o OPT, +O OPT, -eo OPT: the option's argument
			continue
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			continue
		}
		return i == len(args)-1
	}
	return false
}

// arithNames renders interp.Segment.Arith for a reason: its variables,
// "…" for text only known at run time, literals left out.
func arithNames(refs string) string {
	var names []string
	for r := range strings.SplitSeq(refs, " ") {
		switch {
		case strings.HasPrefix(r, "="):
			continue
		case r == interp.Hole:
			r = "…"
		case strings.HasPrefix(r, "!"):
			r = "the output of a command the text may redefine"
		default:
			r = "$" + r
		}
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	if len(names) == 0 {
		return "arithmetic that assigns a variable, or names one holding such a value"
	}
	return strings.Join(names, ", ")
}

// zshRunsCode reports that a zsh command may run code bash would not: an
// option before the -c string other than -c, -l, -e, -f, -x (-o
// globsubst), or, in the string, a "(" attached to a word (a glob
// qualifier: zshexpn(1) "Glob Qualifiers", also after +, @ or !), "${("
// (parameter flags: e and % evaluate), "=(" (process substitution into a
// file), "$~" (GLOB_SUBST: a value globbed, qualifiers and all), setopt or
// emulate — conservatively, wherever they appear.
func zshRunsCode(seg interp.Segment) bool {
	args := seg.Args[1:]
	for i, w := range args {
		v := w.Value
		if i < len(args)-1 {
			// Options before the -c string: only -c, -l, -e, -f and
			// -x (no -o: setopt globsubst and the like).
			if !strings.HasPrefix(v, "-") || strings.Trim(v[1:], "clefx") != "" {
				return true
			}
			continue
		}
		for _, s := range []string{"${(", "=(", "$~", "${~", "setopt", "emulate", "GLOB_SUBST", "globsubst"} {
			if strings.Contains(v, s) {
				return true
			}
		}
		for i := 1; i < len(v); i++ {
			if v[i] == '(' && !strings.ContainsRune("$( \t\n;|&<>", rune(v[i-1])) {
				return true // a "(" attached to a word: a glob qualifier, +(…), @(…)
			}
		}
	}
	return false
}

// Subject converts a segment into what the policy matches.
func Subject(seg interp.Segment) rules.Subject {
	s, _ := subjectIn(seg, nil)
	return s
}

// subjectIn is Subject with the words and the assignments' values cut
// from the free capacity of buf (one allocation for all the segments of a
// command, not one each); it returns buf with them appended. Each slice
// is capped at its length, so that appending to it copies.
func subjectIn(seg interp.Segment, buf []string) (rules.Subject, []string) {
	if cap(buf)-len(buf) < len(seg.Args)+len(seg.Assigns) {
		buf = make([]string, 0, len(seg.Args)+len(seg.Assigns))
	}
	start := len(buf)
	var open, bound, glob, found, listed uint64
	var patterns []string
	for i, w := range seg.Args {
		buf = append(buf, w.Value)
		if i < 64 && interp.FoundWord(w) {
			found |= 1 << i
		}
		if i < 64 && interp.ListedWord(w) {
			listed |= 1 << i
		}
		if i < 64 && interp.OpenWord(w, seg.Bounded) {
			open |= 1 << i
		} else if i < 64 && seg.Assumed == "" && len(seg.Bounded) > 0 && interp.OpenWord(w, nil) {
			bound |= 1 << i // open but for a bounded loop variable
		} else if i < 64 && (interp.GlobWord(w) || interp.IntegerWord(w)) {
			glob |= 1 << i // (an integer: digits, no '/' or ' ')
			if interp.GlobWord(w) {
				if patterns == nil {
					patterns = make([]string, len(seg.Args))
				}
				patterns[i] = w.Source // a plain glob: as written
			}
		} else if i < 64 && strings.Contains(w.Value, interp.Hole) && strings.ContainsAny(w.Source, "*?[") && !strings.ContainsAny(w.Source, "$`") {
			// Another glob (an extglob's *(.)bashrc): its names may be
			// any of its directory's (see rules.Policy's namesProtected).
			if patterns == nil {
				patterns = make([]string, len(seg.Args))
			}
			patterns[i] = "*"
		}
	}
	mid := len(buf)
	for _, w := range seg.Assigns {
		buf = append(buf, w.Value)
	}
	return rules.Subject{Kind: string(seg.Kind), Words: buf[start:mid:mid], Assigns: buf[mid:len(buf):len(buf)], Open: open, Bounded: bound, Glob: glob, GlobPatterns: patterns, Found: found, Listed: listed}, buf
}

// Refusal returns the lines to print on stderr when o is not run: one per
// denied segment, or when nothing is denied one per segment that needs
// approval with the rule that would allow it. Lines start with "guardsh: ".
// approval says why an Ask cannot be answered (for example "no approval
// channel").
func (o Outcome) Refusal(policyFile, approval string) []string {
	if policyFile == rules.DefaultFile {
		// Not a file anyone can edit (a new user's find).
		policyFile = "your config file (there is none yet: create ~/.config/guardsh/config.yaml; `guardsh config show` says where it is read from)"
	}
	lines := o.refusal(policyFile, approval)
	for i, l := range lines {
		// A run-time part shown as "…", not as the NUL byte the
		// analysis marks it with (an attack run's find: tools took
		// stderr for binary).
		lines[i] = strings.ReplaceAll(l, interp.Hole, "…")
	}
	return lines
}

func (o Outcome) refusal(policyFile, approval string) []string {
	var lines []string
	if o.Err != nil {
		var nu *interp.NotUnderstood
		what := o.Err.Error()
		if errors.As(o.Err, &nu) {
			what = nu.Error()
		}
		lines = append(lines, "guardsh: not understood: "+what)
		lines = append(lines, "guardsh: refused: text guardsh cannot analyse runs only with a human's yes; nothing ran")
		return lines
	}
	if strings.HasPrefix(o.SandboxNote, "unavailable") {
		why := "Landlock with ABI 4 or later is needed to jail this command, so it asks"
		if !strings.Contains(o.SandboxNote, "ABI") {
			why = "no command runs jailed here, so it asks"
		}
		lines = append(lines, "guardsh: sandbox "+o.SandboxNote+": "+why)
	}
	if o.Decision == rules.Deny {
		for _, c := range o.Segments {
			if c.Verdict.Decision != rules.Deny {
				continue
			}
			if r := c.Verdict.Rule; r != nil {
				more := ""
				if c.Segment.Sourced != "" {
					more += ", run by source " + c.Segment.Sourced
				}
				if c.Segment.Assumed != "" {
					more += ", assuming " + c.Segment.Assumed
				}
				lines = append(lines, fmt.Sprintf("guardsh: denied: %s (rule %q in %s:%d%s)", c.Segment, r.Pattern, r.File, r.Line, more))
			} else {
				lines = append(lines, fmt.Sprintf("guardsh: denied: %s (%s)", c.Segment, c.Verdict.Reason))
			}
		}
		return append(lines, "guardsh: nothing ran")
	}
	// Why a command the jail would take was not jailed (the allow rule a
	// jailable segment would otherwise be offered runs it unjailed).
	jail := o.jailLines()
	for _, c := range o.Segments {
		if c.Verdict.Decision != rules.Ask {
			continue
		}
		why := c.Verdict.Reason
		if c.Verdict.Class == rules.Sensitive && c.Verdict.Sensitivity != "" {
			// What makes it sensitive, which the reason may not say
			// (`curl is not in the read-only table`: network).
			why += "; sensitive: " + string(c.Verdict.Sensitivity)
		}
		lines = append(lines, fmt.Sprintf("guardsh: needs approval: %s (%s)", c.Segment, why))
		if len(c.JailWrite) > 0 {
			lines = append(lines, writableHint(c.JailWrite, policyFile))
		} else if s := c.Verdict.Suggest; s != "" && !c.Jailable && !(jail != nil && outsideWrite(c.Verdict)) && !strings.HasPrefix(approval, "denied") {
			// (Not after a human's no: an agent told how to allow what
			// was just refused it is invited to.)
			section := "shell"
			if c.Segment.Kind != interp.Exec {
				section = string(c.Segment.Kind)
			}
			lines = append(lines, fmt.Sprintf("guardsh:   to allow it, add %q to rules.%s.allow in %s", s, section, policyFile))
		}
	}
	lines = append(lines, jail...)
	return append(lines, fmt.Sprintf("guardsh: refused (%s): nothing ran", approval))
}

// Record fills the decision fields of an audit record from o.
func (o Outcome) Record(r *audit.Record) {
	r.Decision = o.Decision.String()
	r.DecidedBy = o.DecidedBy
	r.Sandbox = o.SandboxNote
	if o.Err != nil {
		r.Error = "not understood: " + o.Err.Error()
	}
	r.Segments = make([]audit.Segment, len(o.Segments))
	for i, c := range o.Segments {
		argv, written := displayWords(c.Segment)
		s := audit.Segment{
			Argv:        argv,
			Written:     written,
			Kind:        string(c.Segment.Kind),
			Class:       string(c.Verdict.Class),
			Sensitivity: string(c.Verdict.Sensitivity),
			Decision:    c.Verdict.Decision.String(),
			Reason:      c.Verdict.Reason,
			Via:         c.Segment.Via,
			Sandbox:     c.Sandboxed,
		}
		if rule := c.Verdict.Rule; rule != nil {
			p := rule.Pattern
			s.Rule = &p
			s.Source = rule.Source()
		}
		r.Segments[i] = s
	}
}

// DisplayArgv is a segment's words as people read them: prefix assignments,
// then argv (see interp.Segment.Words), each dynamic word as written.
func DisplayArgv(seg interp.Segment) []string {
	argv, _ := displayWords(seg)
	return argv
}

// displayWords is DisplayArgv, with which of its words are written as in
// the command (interp.Word.Display): those with run-time parts.
func displayWords(seg interp.Segment) (argv []string, written []bool) {
	words := seg.Words()
	argv, written = make([]string, len(words)), make([]bool, len(words))
	for i, w := range words {
		argv[i], written[i] = w.Display(), w.Dynamic()
	}
	return argv, written
}
