package rules

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Subject kinds, the values of Subject.Kind.
const (
	KindExec  = "exec"
	KindWrite = "write"
	KindRead  = "read"
)

// Values of Verdict.DecidedBy.
const (
	ByRule  = "rule"
	ByMode  = "mode"
	ByClass = "class"
)

// holderVerb says what a walk that changes all a directory holds does to
// it, by program (see alteringWalk), for a protected path's reason: find,
// tar, zip, 7z and rsync "change or remove". (A switch, not a map: a
// package's map is built at every process start.)
func holderVerb(program string) string {
	switch program {
	case "rm":
		return "removes"
	case "mv":
		return "moves"
	case "chmod":
		return "changes the modes of"
	case "chown":
		return "changes the owner of"
	case "chgrp":
		return "changes the group of"
	case "setfacl":
		return "changes the ACLs of"
	case "chattr":
		return "changes the attributes of"
	case "gzip", "zstd":
		return "compresses"
	case "gunzip":
		return "decompresses"
	}
	return "changes or removes"
}

// Decide returns the verdict for one segment. The mode is ctx.Mode, else
// the policy's Mode, else ask; an unknown mode denies (fail closed).
//
// The order, first that applies wins:
//
//  1. a deny rule that matches whatever the run-time parts (Holes) of the
//     subject turn out to be: Deny. A deny rule that could match for some
//     value of them: Ask, never Allow (Suggest is empty). For a write or
//     read path with a Hole every deny rule of its section could match,
//     since the run-time part may hold "../".
//     For an exec subject, then: a write or read deny rule matching one
//     of its arguments (`cat ~/.ssh/id_rsa` under "~/.ssh/*"): Deny; one
//     that could match below a directory the program walks (`grep -r x ~`
//     under "~/.ssh/id_*"): Ask. Arguments with a Hole are not matched
//     against write and read rules, a known limit (a could-match there
//     would make every `echo $HOME` ask); see args.go for which words
//     count as paths and how.
//
//  2. mode chat: Deny.
//
//  3. a write to a protected path (Context.Protected, ~/.ssh, shell
//     start-up files, .git/hooks and .git/config, guardsh's config): Ask,
//     in every mode including bypass (plan: Deny).
//
//  4. an ask rule, or, for an exec subject, a write or read ask rule
//     matching one of its arguments: Ask (bypass: Allow; plan: Deny).
//
//  5. an allow rule: Allow (plan: only for a read-only subject). Allow
//     rules do not apply to an exec subject with a dangerous assignment
//     (LD_PRELOAD=…, PATH=…) nor to a path with a Hole; to an exec
//     subject that runs code given in an argument (python3 -c, sed s///e,
//     git -c core.pager=…, see runsArgument) only an allow rule whose
//     literal start spells out that argument applies ("python3 -c *",
//     not "python3 *"), and the subject is sensitive.
//
//  6. the class of the subject under the mode, as this table says:
//
// The mode table (rows: class; columns: mode):
//
//	class \ mode   chat  plan   approve  ask    auto   bypass
//	read-only      deny  allow  ask      allow  allow  allow
//	workspace      deny  deny   ask      ask    allow  allow
//	sensitive      deny  deny   ask      ask    ask    allow
//
// Exec subjects are matched as Words joined by single spaces, and also with
// each word under Context.Home written as "~/…" (the shell expanded the
// "~" the user typed), and, for deny and ask rules, with a command named
// by a path, /bin/rm, written as its base name, rm; write and read subjects as a canonical absolute path (see the
// path rules in paths.go). Exec subjects are read-only when the built-in
// read-only table says so (see readOnlyPrograms), else sensitive; a
// dangerous assignment makes any of them sensitive. Writes are workspace
// inside Context.Workspace or a temp directory (unless the file has other
// hard links), else sensitive; writes to /dev/null and the like are
// read-only; reads are read-only.
//
// Deciding is pure apart from the file system lookups (one lstat per path
// component, or one openat2 probe for a path's components not yet looked
// up, see Lookups.probe) that resolve symlinks in write and read paths and
// in the arguments of exec subjects (when write or read rules deny or ask); an
// exec segment costs a few microseconds against a thousand rules (see
// BenchmarkDecide).
func (p *Policy) Decide(s Subject, ctx Context) Verdict {
	mode, err := p.effectiveMode(ctx)
	if err != nil {
		return Verdict{Decision: Deny, Class: Sensitive, DecidedBy: ByMode, Reason: err.Error() + "; nothing runs"}
	}
	switch s.Kind {
	case KindExec:
		return p.decideExec(s, ctx, mode)
	case KindWrite, KindRead:
		return p.decidePath(s, ctx, mode)
	}
	return Verdict{Decision: Deny, Class: Sensitive, DecidedBy: ByClass,
		Reason: fmt.Sprintf("unknown kind of segment %q", s.Kind)}
}

// Prepared is a subject made ready to be decided in several working
// directories (a command whose cd may lead to more than one): what of
// its verdict no directory changes is worked out once, by Prepare, and
// In adds the rest. Its zero value is not ready; make it with Prepare.
type Prepared struct {
	p    *Policy
	s    Subject
	ctx  Context
	mode Mode
	err  error
	exec bool
	e    execPart
	same bool // see SameIn
}

// Prepare readies s for In under ctx, whose Cwd it ignores: for an exec
// subject it classifies the words and matches them and their forms
// against the shell rules (see Decide); a write or read subject is
// decided whole by In.
func (p *Policy) Prepare(s Subject, ctx Context) (pr Prepared) {
	// Filled in place: a Prepared is several hundred bytes, not copied.
	pr.p, pr.s, pr.ctx = p, s, ctx
	pr.mode, pr.err = p.effectiveMode(ctx)
	if pr.err == nil && s.Kind == KindExec {
		pr.exec = true
		p.prepareExecInto(&pr.e, s, ctx.Home)
		// With no workspace the path rules are relative to the working
		// directory.
		pr.same = ctx.Workspace != "" && pr.e.cwdFree(s)
	} else if pr.err == nil && len(s.Words) == 1 {
		// A write or read of an absolute path: newPathSubject looks at
		// the working directory only for a relative path or one below
		// /proc or /dev/fd (the working directory's link).
		w := s.Words[0]
		pr.same = ctx.Workspace != "" && strings.HasPrefix(w, "/") && !strings.Contains(w, "proc/") && !strings.Contains(w, "fd/")
	}
	return pr
}

// SameIn reports that In gives the same verdict in every working
// directory: an exec subject whose command is not named by a relative
// path, that is not checked as a workspace write (a read-only command, a
// program that is no workspace writer, or one with assignments), and
// whose arguments matchArgs matches are all absolute (see
// argPlan.cwdFree), or that a shell rule denies; a write or read of an
// absolute path outside /proc and /dev/fd. Never without a workspace
// (Context.Workspace), to which path rules are relative. A caller
// deciding it in several directories needs it decided in one.
// TestSameIn and TestPreparedIn check that In's verdicts agree wherever
// SameIn says so.
func (pr *Prepared) SameIn() bool { return pr.same }

// In returns the verdict of the prepared subject in working directory
// cwd: always what Decide returns for it under the Context given to
// Prepare with Cwd set to cwd (TestPreparedIn compares the two). A
// Prepared is used by one goroutine at a time.
func (pr *Prepared) In(cwd string) Verdict {
	ctx := pr.ctx
	ctx.Cwd = cwd
	if !pr.exec {
		return pr.p.Decide(pr.s, ctx)
	}
	return pr.p.decideExecIn(&pr.e, pr.s, ctx, pr.mode, false)
}

// Brief returns In(cwd) without its Reason and Suggest (both empty), with
// Rule the policy's own rule rather than a copy (the caller must not
// change it): the verdict's Decision, Class, Sensitivity, Rule (by value),
// DecidedBy and Protected are always In's (TestPreparedIn compares them).
// It is for the directories a command's cd may lead to besides the first,
// whose verdict only counts when its decision is stricter: its
// explanation is then made by In.
func (pr *Prepared) Brief(cwd string) Verdict {
	if !pr.exec {
		return pr.In(cwd)
	}
	ctx := pr.ctx
	ctx.Cwd = cwd
	return pr.p.decideExecIn(&pr.e, pr.s, ctx, pr.mode, true)
}

func (p *Policy) effectiveMode(ctx Context) (Mode, error) {
	m := ctx.Mode
	if m == "" {
		m = p.Mode
	}
	if m == "" {
		return AskMode, nil
	}
	for _, k := range modeOrder {
		if m == k {
			return m, nil // what ParseMode returns for a mode's own name
		}
	}
	return ParseMode(string(m))
}

// Rules returns every rule of the policy, in file order.
func (p *Policy) Rules() []Rule {
	out := make([]Rule, len(p.rules))
	copy(out, p.rules)
	return out
}

// judgement gathers what a verdict is assembled from.
type judgement struct {
	t        *trie
	h        hits
	class    Class
	why      string // clause saying why the class
	couldWhy string // how a could-match deny comes about
	noAllow  bool   // allow rules do not apply
	// runsAny: an assignment makes the command run code no rule sees
	// (LD_PRELOAD, BASH_ENV, PS4, BASH_CMDS…), which could be anything a
	// deny rule forbids: it asks even in modes that run sensitive commands.
	runsAny   bool
	protected string // the protected pattern written to, if any
	// sensitivity is why class is Sensitive.
	sensitivity Sensitivity
	// path is a write or read subject's path, cleaned.
	path   string
	target string // the protected path, for messages
	// holder is the program that changes a directory argument holding the
	// protected path with all it holds (rm -r, mv, chmod -R), or "".
	holder string
	// suggest says how to propose an allow rule when the verdict is Ask
	// (see suggestion); suggestWords, suggestKey and suggestPath are its
	// inputs.
	suggest      suggestion
	suggestWords []string
	suggestKey   string
	suggestPath  string
	suggestIn    *pathIndex
	// ignoredAllow is 1 + the index of an allow rule that matched but was
	// not written for the code the subject runs (see runsArgument), or 0.
	ignoredAllow int
	// Write and read rules matched by an exec subject's arguments.
	argDeny, argCould, argAsk *argHit
	// brief: the verdict is made without its Reason and Suggest, and its
	// Rule is the policy's own (see Prepared.Brief).
	brief bool
	// hint, when not empty, says how the command could be written to
	// be decided otherwise (it then gets no suggested allow rule).
	hint string
}

func (p *Policy) decideExec(s Subject, ctx Context, mode Mode) Verdict {
	var e execPart
	p.prepareExecInto(&e, s, ctx.Home)
	return p.decideExecIn(&e, s, ctx, mode, false)
}

// execPart is what the verdict of an exec subject is made of that does
// not depend on the working directory: its class, the shell rules its
// words and their forms match (all but the link-target form, see
// execForms), and what an argument that runs code asks of an allow rule.
type execPart struct {
	// class and why are the class before an argument that runs code
	// makes it sensitive (matchArgs protects the arguments of what is
	// not read-only by it).
	class     Class
	why       string
	badAssign bool
	h         hits
	// runsAt, runsKey and runsWhat are runsArgument's answer.
	runsAt       int
	runsKey      string
	runsWhat     string
	ignoredAllow int
	// argWords are the words whose write and read rules matchArgs
	// matches: the words, then the assignments' values, if any.
	argWords []string
	args     argPlan // matchArgs's plan for argWords
	// sens[k] is sensitivityOf the subject with writesOutside k == 1,
	// once sensMade[k] (see sensitivity).
	sens     [2]Sensitivity
	sensMade [2]bool
	// suggested is the suggestion for the subject's words, made once
	// (see judgement.suggestion), when made is true.
	suggested string
	made      bool
}

// prepareExecInto computes into e, which must be the zero execPart, the
// part of an exec subject's verdict that no working directory changes
// (see execPart); home is Context.Home.
func (p *Policy) prepareExecInto(e *execPart, s Subject, home string) {
	class, why, badAssign := classifyExec(s.Words, s.Assigns)
	if class != ReadOnly && !badAssign {
		if r := p.declaredReadOnly(s.Words, home); r != nil {
			class, why = ReadOnly, fmt.Sprintf("%s is read-only by readonly pattern %q (%s)", shown(strings.Join(s.Words, " ")), r.Pattern, r.Source())
		}
	}
	e.class, e.why, e.badAssign = class, why, badAssign
	globs := globWords(s)
	if s.Found != 0 && len(globs) == 0 && !slices.Contains(s.Words, Hole) {
		// find's paths: below its start path, each one argument.
		e.h = p.shell.matchUnits(execUnitsFound(s.Words, s.Found), &holeMatcher{})
	} else {
		e.h = p.matchExecGlobs(s.Words, globs)
	}
	if literalTilde(s.Words) {
		// A word starting with a quoted "~" is not the home directory
		// ("~/x" names ./~/x): a pattern's "~/" must not allow it.
		e.h.allow = -1
	}
	forms := execForms(s.Words, home, globs)
	for i := range forms {
		forms[i].globs = globs
		p.mergeForm(&e.h, forms[i])
	}
	if cleaned := cleanForm(s.Words); cleaned != nil {
		// scripts/../bin/x is bin/x: deny and ask rules match either
		// spelling, an allow rule must match both.
		h := p.matchExecGlobs(cleaned, globs)
		e.h.deny = minHit(e.h.deny, h.deny)
		e.h.could = minHit(e.h.could, h.could)
		e.h.ask = minHit(e.h.ask, h.ask)
		if h.allow < 0 {
			e.h.allow = -1
		}
		if p.optionable {
			p.matchOptions(cleaned, &e.h)
		}
	}
	if plain := gitPlainForm(s.Words); plain != nil {
		// `git --no-pager clean -fdx` is `git clean -fdx` to a deny or
		// ask rule (a new user's `git clean *` missed it); an allow rule
		// is matched as written.
		h := p.matchExecGlobs(plain, globs)
		e.h.deny = minHit(e.h.deny, h.deny)
		e.h.could = minHit(e.h.could, h.could)
		e.h.ask = minHit(e.h.ask, h.ask)
	}
	if p.optionable {
		p.matchOptions(s.Words, &e.h)
		for _, f := range forms {
			if f.definite {
				p.matchOptions(f.words, &e.h)
			}
		}
	}
	if s.Bounded != 0 && s.Open == 0 && onlyBoundedHoles(s) {
		// Each run-time part is a bounded loop variable's, whose every
		// value the segments assuming it decide for certain (deny and
		// ask count there): here a deny rule that only could match says
		// nothing more (a new user's for d in build dist; do rm -rf
		// "$d"; done asked for "rm * / *").
		e.h.could = -1
	}
	e.argWords = s.Words
	if len(s.Assigns) > 0 && len(s.Words) > 0 {
		// A value given in the environment may name a file the
		// program reads or writes (MAGIC=~/.ssh/id_rsa file x).
		e.argWords = append(append(make([]string, 0, len(s.Words)+len(s.Assigns)), s.Words...), s.Assigns...)
	}
	e.args = planArgs(e.argWords, s.Open, s.Bounded)
	e.args.glob, e.args.patterns, e.args.found, e.args.listed = s.Glob, s.GlobPatterns, s.Found, s.Listed
	e.runsAt, e.runsKey, e.runsWhat = runsArgument(s.Words)
	if e.runsAt >= 0 && e.h.allow >= 0 {
		// Only an allow rule that spells out what runs it is written
		// for it.
		if k := p.allowNaming(s.Words, e.runsKey, home); k >= 0 {
			e.h.allow = k
		} else {
			e.ignoredAllow = e.h.allow + 1
			e.h.allow = -1
		}
	}
}

// cwdFree reports that decideExecIn of e, prepared for s, does not depend
// on Context.Cwd (see Prepared.SameIn), the path rules aside.
func (e *execPart) cwdFree(s Subject) bool {
	if len(s.Words) == 0 {
		return false
	}
	if w := s.Words[0]; strings.Contains(w, "/") && !strings.HasPrefix(w, "/") {
		return false // the link-target form of a relative command path
	}
	if path.Base(s.Words[0]) == "npx" {
		return false // what it runs depends on the directory (localPackageBin)
	}
	if (e.class == Sensitive || e.runsAt >= 0) && !e.badAssign && len(s.Assigns) == 0 && checksWrites(s.Words) {
		return false // checked as a workspace write
	}
	return e.h.deny >= 0 || e.args.cwdFree()
}

// onlyBoundedHoles reports whether every word of s with a run-time part
// is a bounded one (Subject.Bounded), and so are its assignments' values
// (none may hold one).
func onlyBoundedHoles(s Subject) bool {
	for i, w := range s.Words {
		if strings.Contains(w, Hole) && (i >= 64 || s.Bounded&(1<<i) == 0) {
			return false
		}
	}
	return !slices.ContainsFunc(s.Assigns, func(a string) bool { return strings.Contains(a, Hole) })
}

// sensitivity returns sensitivityOf(s.Words, s.Assigns, writesOutside),
// a function of the words alone, made once for each value of
// writesOutside; s is the subject e was prepared for.
func (e *execPart) sensitivity(s Subject, writesOutside bool) Sensitivity {
	k := 0
	if writesOutside {
		k = 1
	}
	if !e.sensMade[k] {
		words := s.Words
		if s.Bounded != 0 {
			// A word that holds a bounded loop variable stands for the
			// values the segments assuming them decide: here it is a
			// plain argument (`for f in a.py b.py; do python3 $f`
			// is no `python3 -m pip`; a value that is runs as one).
			words = slices.Clone(words)
			for i := range words {
				if i < 64 && s.Bounded&(1<<i) != 0 {
					words[i] = "x"
				}
			}
		}
		e.sens[k], e.sensMade[k] = sensitivityOf(words, s.Assigns, writesOutside), true
	}
	return e.sens[k]
}

// mergeForm adds the shell rules form f matches to h: deny, could and ask
// always, allow only where f.allow; a form that is not definite only
// could match (the merges are minima: their order does not matter).
func (p *Policy) mergeForm(h *hits, f form) {
	fh := p.matchExecGlobs(f.words, f.globs)
	if !f.definite {
		// An over-approximation: whatever matches it only could match.
		h.could = minHit(h.could, minHit(fh.deny, fh.could))
		return
	}
	h.deny = minHit(h.deny, fh.deny)
	h.could = minHit(h.could, fh.could)
	h.ask = minHit(h.ask, fh.ask)
	if f.allow {
		h.allow = minHit(h.allow, fh.allow)
	}
}

// decideExecIn completes e, the part of s's verdict no working directory
// changes, in ctx: the link-target form of a command named by a path, the
// workspace writes and the arguments' write and read rules. With brief,
// the verdict is made without its explanation (see Prepared.Brief).
func (p *Policy) decideExecIn(e *execPart, s Subject, ctx Context, mode Mode, brief bool) Verdict {
	j := judgement{t: p.shell, class: e.class, why: e.why, noAllow: e.badAssign, runsAny: e.badAssign && p.denies,
		couldWhy: "once its run-time parts are known", h: e.h, ignoredAllow: e.ignoredAllow, brief: brief}
	cwd := ""
	if !ctx.CwdUnknown {
		cwd = ctx.Cwd
	}
	if t := linkTargetForm(s.Words, cwd, ctx.Lookups); t != nil {
		// Its forms allow nothing: only deny, could and ask change.
		var buf [3]form
		forms := linkForms(buf[:0], t, ctx.Home)
		for _, f := range forms {
			p.mergeForm(&j.h, f)
		}
		if p.optionable {
			for _, f := range forms {
				if f.definite {
					p.matchOptions(f.words, &j.h)
				}
			}
		}
	}
	if len(s.Words) > 0 && fdProgram(s.Words[0], cwd) {
		// Whatever file is open there: any deny rule could match.
		p.mergeForm(&j.h, form{words: append([]string{Hole}, s.Words[1:]...)})
		j.couldWhy = "since the program is an open file descriptor's file"
	}
	if len(p.pathPrograms) > 0 && p.programPathForms(&j.h, s.Words, cwd, ctx.Home, ctx.Lookups) && j.h.could >= 0 && e.h.could != j.h.could {
		j.couldWhy = "if it is that program (found on PATH, or in a directory only known at run time)"
	}
	if e.runsAt >= 0 {
		// Code or a file given in an argument: sensitive.
		j.class, j.why = Sensitive, e.runsWhat
	}
	writesOutside, linksOut, linkWhy := false, false, ""
	if j.class == Sensitive && !e.badAssign && len(s.Assigns) == 0 {
		// A workspace write: its class is Workspace (mode auto runs it).
		// In modes chat and bypass the class decides nothing, but the
		// audit record and guardsh check report it.
		if ok, why := p.writesOnlyWorkspace(s.Words, ctx, globWords(s), s.Bounded, s.Found); ok {
			if e.runsAt < 0 {
				j.class, j.why = Workspace, why
			}
		} else if why == LinksOutWhy || why == LinkToDirWhy {
			linksOut, linkWhy = true, why
		} else if why != "" {
			// Inside the workspace, but for how it is written.
			j.hint = why
		} else if len(s.Words) > 0 {
			_, writesOutside = workspaceWriters()[s.Words[0]]
		}
	}
	if j.class == Sensitive {
		j.sensitivity = e.sensitivity(s, writesOutside)
		if linksOut && j.sensitivity == OutsideWorkspace {
			// A new name, inside the workspace, for links out of it
			// (or a tree too big to look through): what the rest of the
			// command does through it is contained by a jail.
			j.sensitivity = UnknownProgram
			if linkWhy == LinkToDirWhy {
				j.why += "; it makes a symbolic link to a directory (or to nothing yet), and a \"..\" after the link's name leads to that directory's parent, which commands decided before the link was made do not see (it runs jailed with the sandbox)"
			} else {
				j.why += "; it copies, moves or links a directory holding a link out of the workspace, a new name the rest of the command could read or write through"
			}
		}
		if j.sensitivity == Network && e.runsAt < 0 {
			if bin := localPackageBin(s.Words, cwd, ctx.Workspace, ctx.Lookups); bin != "" {
				j.sensitivity = Interpreter
				j.why = "npx runs the installed " + bin + " (the project's own code, no registry)"
			}
		}
	}
	if j.h.deny < 0 {
		var prot *argHit
		j.argDeny, j.argCould, j.argAsk, prot = p.matchArgs(&e.args, ctx, e.class != ReadOnly)
		if prot != nil {
			j.protected, j.target, j.holder = prot.via, "argument "+prot.arg, prot.walker
		} else if e.class != ReadOnly && len(s.Words) >= 2 {
			// What cp, mv or ln put in a directory: `cp x/.bashrc ~/`.
			if target, pat := p.landsOnProtected(s.Words, ctx, globWords(s)); pat != "" {
				j.protected, j.target = pat, target
			} else if gitTemplate(s.Words, s.Assigns) {
				// A template directory's hooks land in the new
				// repository's .git/hooks (attack run 81).
				j.protected, j.target = "*/.git/hooks", "the hooks git init's --template copies"
			}
		}
	}
	if j.protected == "" && j.h.deny < 0 {
		// GIT_WORK_TREE, GIT_DIR and GIT_COMMON_DIR set for what follows
		// (export, declare -x, set -a, a prefix): where git writes the
		// work tree's files, or whose config it runs (attack run 65:
		// `export GIT_WORK_TREE=..; git checkout HEAD -- :/.bashrc`
		// replaced ~/.bashrc under the CI preset).
		names := s.Assigns
		if len(s.Words) > 1 && slices.Contains([]string{"export", "declare", "typeset", "local", "readonly"}, s.Words[0]) {
			names = append(slices.Clip(names), s.Words[1:]...)
		}
		nameref := len(s.Words) > 1 && slices.ContainsFunc(s.Words[1:], func(w string) bool {
			return strings.HasPrefix(w, "-") && strings.ContainsRune(w, 'n')
		})
		for _, w := range names {
			n := assignedName(w)
			if nameref {
				// declare -n r=GIT_WORK_TREE: r names it (attack run 66).
				_, n, _ = strings.Cut(w, "=")
			}
			if gitPlaceVars[n] || gitPlaceVars[assignedName(w)] {
				j.protected, j.target = "where git writes and what config it reads (GIT_WORK_TREE, GIT_DIR, GIT_COMMON_DIR)", n
				break
			}
		}
	}
	if j.protected == "" && j.h.deny < 0 && len(s.Words) > 1 && path.Base(s.Words[0]) == "git" {
		// The repository's and the user's git config: a key that makes
		// git run a program (core.hooksPath, core.fsmonitor) is a hook
		// written another way (a new user's find: mode bypass, the CI
		// preset's, ran `git config core.hooksPath DIR`).
		if dir := GitWorkTreeElsewhere(s.Words, s.Assigns, ctx); dir != "" {
			j.protected, j.target = "any file of a git work tree outside the workspace, protected ones included", "the work tree at "+dir
		} else if key := GitConfigRunsCode(s.Words); key != "" {
			j.protected, j.target = "git config keys that can make git run a program, load a file or trust one: any but "+gitHarmlessShown, "git config key "+key
		}
	}
	j.suggest, j.suggestWords = suggestCommand, s.Words
	if e.runsAt >= 0 {
		j.suggest, j.suggestKey = suggestCode, e.runsKey
	}
	return j.verdictWith(mode, e)
}

// allowNaming returns the first allow rule that matches words (as
// written, or in their "~" form) and whose literal start spells out key
// (see runsArgument), or -1.
func (p *Policy) allowNaming(words []string, key, home string) int {
	subjects := [][]string{words}
	if t := tildeForm(words, home); t != nil {
		subjects = append(subjects, t)
	}
	for i, e := range p.shell.entries {
		if e.rule.Decision != Allow || !strings.HasPrefix(e.g.key, key) {
			continue
		}
		for _, w := range subjects {
			if units, dynamic := execUnits(w); dynamic {
				if (&holeMatcher{}).definite(e.g, units) {
					return i
				}
			} else if e.g.match(strings.Join(w, " ")) {
				return i
			}
		}
	}
	return -1
}

// form is another rendering of an exec subject's words that rules are
// matched against besides the words themselves.
type form struct {
	words []string
	// allow: allow rules may match it. definite: it stands for exactly the
	// same strings as the words (else it stands for more, and a match only
	// counts as a could-match of a deny rule).
	allow, definite bool
	// globs are the subject's plain glob words (see globWords): a word of
	// the form equal to one is matched as a glob's expansion.
	globs []string
}

// execForms returns the other forms of words:
//
//   - the "~" form: each word that is home or lies below it written with
//     "~" instead, as the user typed it before the shell expanded it
//     (`rm -rf ~` reaches guardsh as `rm -rf /home/me`; "rm * ~ *" must
//     match). A word with a run-time part whose known prefix could still
//     become home ("/ho…", "/home/me…") is replaced by a Hole in a
//     could-only form.
//   - the base-name form, for deny and ask rules only: a command named by
//     a path, /bin/rm, as its base name, rm (a run-time part of the name
//     may hold a "/": the base is then a Hole followed by the known tail).
//     An allow rule for `ls *` must not allow `./ls`.
//
// The link-target form, for deny and ask rules only (a command named by a
// path that is a symlink, `./t` → /usr/bin/touch, as the base name of what
// it links to, see linkTargetForm), and its "~" forms are made apart, by
// linkForms, since a relative command path leads elsewhere in each working
// directory.
func execForms(words []string, home string, globs []string) []form {
	var forms []form
	forms = tildeForms(forms, words, true, home, globs)
	if b := baseNameForm(words); b != nil {
		forms = append(forms, form{words: b, definite: true})
		forms = tildeForms(forms, b, false, home, globs)
	}
	return forms
}

// linkForms appends to forms t, the link-target form of a subject's
// words, and its "~" forms; none of them is matched by allow rules.
func linkForms(forms []form, t []string, home string) []form {
	forms = append(forms, form{words: t, definite: true})
	return tildeForms(forms, t, false, home, nil)
}

// tildeForms appends to forms the "~" form of words and the could-only
// form of that (or of words when there is no "~" form); allow says
// whether allow rules may match the "~" form.
func tildeForms(forms []form, words []string, allow bool, home string, globs []string) []form {
	cur := words
	if t := tildeForm(cur, home); t != nil {
		forms = append(forms, form{words: t, allow: allow, definite: true})
		cur = t
	}
	if c := tildeCouldForm(cur, home, globs); c != nil {
		forms = append(forms, form{words: c})
	}
	return forms
}

// cleanForm returns words with each argument that has a "." or ".."
// component or a doubled slash cleaned lexically (path.Clean: "a/../b" is
// "b", "./x" is "x", "a//b" is "a/b"), or nil when that changes nothing.
// The command name is left alone: "./ls" is not "ls".
func cleanForm(words []string) []string {
	var out []string
	for i := 1; i < len(words); i++ {
		w := words[i]
		if !strings.Contains(w, "/") || strings.Contains(w, Hole) || strings.Contains(w, "://") {
			continue
		}
		if !strings.Contains(w, "/.") && !strings.Contains(w, "//") && !strings.HasPrefix(w, "./") {
			continue
		}
		c := path.Clean(w)
		if c == w {
			continue
		}
		if out == nil {
			out = append([]string(nil), words...)
		}
		out[i] = c
	}
	return out
}

// gitPlainForm returns a git command's words without git's own options
// before the subcommand (see GitSubcommandAt), or nil when it has none or
// is no git command.
func gitPlainForm(words []string) []string {
	if len(words) < 3 || path.Base(words[0]) != "git" || !strings.HasPrefix(words[1], "-") {
		return nil
	}
	i := GitSubcommandAt(words)
	if i <= 1 || i >= len(words) {
		return nil
	}
	// As "git", which a rule names (`/usr/bin/git -P clean` meets `git
	// clean *`, attack run 83).
	return append([]string{"git"}, words[i:]...)
}

// linkTargetForm returns words with words[0], a path (absolute, or
// relative to cwd when cwd is not "") to a symlink, replaced by the base
// name of the file it resolves to, or nil when it is no such path or that
// changes nothing.
func linkTargetForm(words []string, cwd string, lk *Lookups) []string {
	if len(words) == 0 || !strings.Contains(words[0], "/") || strings.Contains(words[0], Hole) {
		return nil
	}
	p := words[0]
	if !strings.HasPrefix(p, "/") {
		if cwd == "" {
			return nil
		}
		p = cwd + "/" + p
	}
	if fi, err := lk.lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	target, _ := resolve(lk, p)
	b := target[strings.LastIndexByte(target, '/')+1:]
	if b == "" || b == words[0][strings.LastIndexByte(words[0], '/')+1:] {
		return nil
	}
	return append([]string{b}, words[1:]...)
}

// baseNameForm returns words with words[0] replaced by its base name, or
// nil when that changes nothing.
func baseNameForm(words []string) []string {
	if len(words) == 0 || words[0] == Hole {
		return nil
	}
	w := words[0]
	var base string
	if k := strings.LastIndex(w, Hole); k >= 0 {
		tail := w[k+1:]
		if i := strings.LastIndexByte(tail, '/'); i >= 0 {
			base = tail[i+1:]
		} else {
			base = Hole + tail
		}
	} else if strings.Contains(w, "/") {
		base = w[strings.LastIndexByte(w, '/')+1:]
	}
	if base == "" || base == w {
		return nil
	}
	return append([]string{base}, words[1:]...)
}

// literalTilde reports a word that starts with "~" as written: the
// analysis expands an unquoted leading "~" to the home directory, so such
// a word was quoted and names a relative path.
func literalTilde(words []string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, "~") {
			return true
		}
	}
	return false
}

// tildeForm returns words with each word that is home, or starts with
// home + "/", rewritten to start with "~" instead; nil when no word is.
func tildeForm(words []string, home string) []string {
	if home == "" || home == "/" {
		return nil
	}
	var out []string
	for i, w := range words {
		var t string
		switch {
		case w == home:
			t = "~"
		case len(w) > len(home) && w[len(home)] == '/' && strings.HasPrefix(w, home):
			t = "~" + w[len(home):]
		default:
			continue
		}
		if out == nil {
			out = append([]string(nil), words...)
		}
		out[i] = t
	}
	return out
}

// tildeCouldForm returns words with each word that has a run-time part
// and could still turn out to be home or below it replaced by a Hole; nil
// when there is none. A plain glob word (one of globs) can only when the
// rest of home after its literal start holds no '/' (a glob's part never
// stands for one): `*.log` is no path below /home/u, `/ho*` may be.
func tildeCouldForm(words []string, home string, globs []string) []string {
	if home == "" || home == "/" {
		return nil
	}
	var out []string
	for i, w := range words {
		h := strings.Index(w, Hole)
		if h < 0 || w == Hole || !strings.HasPrefix(home+"/", w[:h]) {
			continue
		}
		if slices.Contains(globs, w) && strings.Contains(home[min(h, len(home)):], "/") {
			continue
		}
		if out == nil {
			out = append([]string(nil), words...)
		}
		out[i] = "~" + Hole
	}
	return out
}

// matchExec finds the shell rules deciding argv.
func (p *Policy) matchExec(words []string) hits {
	return matchWords(p.shell, words, nil)
}

// matchExecGlobs is matchExec for words whose plain glob words are globs
// (see globWords).
func (p *Policy) matchExecGlobs(words, globs []string) hits {
	return matchWords(p.shell, words, globs)
}

// globWords returns the values of s's plain glob words (Subject.Glob).
func globWords(s Subject) []string {
	if s.Glob == 0 {
		return nil
	}
	var out []string
	for i, w := range s.Words {
		if i < 64 && s.Glob&(1<<i) != 0 && !OpenWord(s.Open, i) {
			out = append(out, w)
		}
	}
	return out
}

// matchWords finds the patterns of t matching argv; a word equal to one
// of globs is matched as a plain glob's expansion (execUnitsGlobs).
func matchWords(t *trie, words, globs []string) hits {
	for _, w := range words {
		if strings.Contains(w, Hole) {
			if len(globs) > 0 {
				h := t.matchUnits(execUnitsGlobs(words, globs), &holeMatcher{})
				if h.deny < 0 {
					// Under nullglob a glob that matches nothing is
					// no word at all: what the rest then is could be
					// denied.
					rest := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return slices.Contains(globs, w) })
					if v := matchWords(t, rest, nil); v.deny >= 0 || v.could >= 0 {
						h.could = minHit(h.could, minHit(v.deny, v.could))
					}
				}
				return h
			}
			units, _ := execUnits(words)
			return t.matchUnits(units, &holeMatcher{})
		}
	}
	// Joined in a buffer on the stack: the string made of it does not
	// outlive the match, so a short one is not allocated either.
	var buf [128]byte
	b := buf[:0]
	for i, w := range words {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, w...)
	}
	return t.matchString(string(b))
}

// declaredReadOnly returns the readonly pattern (see Parse) that argv
// matches for every value of its run-time parts, as written or in its "~"
// form, or nil.
func (p *Policy) declaredReadOnly(words []string, home string) *Rule {
	if p.readonly == nil || literalTilde(words) {
		return nil
	}
	h := matchWords(p.readonly, words, nil)
	if h.allow < 0 {
		if t := tildeForm(words, home); t != nil {
			h = matchWords(p.readonly, t, nil)
		}
	}
	if h.allow < 0 {
		return nil
	}
	return p.readonly.entries[h.allow].rule
}

func (p *Policy) decidePath(s Subject, ctx Context, mode Mode) Verdict {
	write := s.Kind == KindWrite
	if len(s.Words) != 1 {
		return Verdict{Decision: Deny, Class: Sensitive, DecidedBy: ByClass,
			Reason: fmt.Sprintf("a %s segment names exactly one path, this one has %d", s.Kind, len(s.Words))}
	}
	x := p.pathIndexFor(ctx)
	sec := 0
	verb := "writes"
	if !write {
		sec, verb = 1, "reads"
	}
	j := judgement{t: x.sections[sec], couldWhy: "since the path is only known at run time", path: s.Words[0]}
	if strings.HasPrefix(s.Words[0], "/dev/tcp/") || strings.HasPrefix(s.Words[0], "/dev/udp/") {
		// bash(1) REDIRECTION: bash itself opens a TCP or UDP connection
		// for these names, whether or not the file exists.
		j.class, j.sensitivity, j.noAllow = Sensitive, Network, true
		j.why = fmt.Sprintf("%s %s, a network connection bash opens", verb, shown(s.Words[0]))
		j.h = hits{deny: -1, could: -1, ask: -1, allow: -1}
		if !strings.Contains(s.Words[0], Hole) {
			j.h = j.t.matchString(s.Words[0])
			j.h.allow = -1
		}
		return j.verdict(mode)
	}
	min := probeMin
	if s.Kind == KindWrite {
		min = probeMinNew
	}
	ps := newPathSubjectProbing(s.Words[0], ctx, min)
	if rest, ok := dotDotAfterName(s.Words[0]); ok && !ctx.NoNewLinks && ps.static {
		// A ".." after a name an earlier command could make a link
		// (see dotDotAfterName): a file in a directory only known at
		// run time — unless a deny rule matches it as it reads now.
		if h := j.t.matchString(ps.cleaned); h.deny < 0 && (ps.resolved == ps.cleaned || j.t.matchString(ps.resolved).deny < 0) {
			ps = pathSubject{units: append([]uint16{uHole, '/'}, appendUnits(nil, rest)...), shown: ps.shown}
		}
	}
	if !ps.static && s.Bounded&1 != 0 && !strings.HasPrefix(s.Words[0], "/dev/") {
		// Its run-time part is a bounded loop variable's: the segments
		// with each of its values, which follow, decide the path.
		j.h = hits{deny: -1, could: -1, ask: -1, allow: -1}
		j.class, j.noAllow = ReadOnly, true
		j.why = fmt.Sprintf("%s %s, a loop variable's values, each decided after it", verb, ps.shown)
		return j.verdict(mode)
	}
	if !ps.static {
		j.h = j.t.matchUnits(ps.units, &holeMatcher{})
		if j.h.deny < 0 {
			j.h.could = j.t.firstDeny()
		}
		if j.h.deny < 0 && j.h.could < 0 && j.h.ask < 0 && !strings.HasPrefix(s.Words[0], "/proc/") && !strings.HasPrefix(s.Words[0], "/dev/") {
			// No deny rule: an ask rule (a built-in secret) could match
			// as well (`cd "$HOME" && cat < .netrc` in auto read it). A
			// descriptor's path is what another redirection or the
			// caller opened, decided there.
			hm := &holeMatcher{}
			for i := range j.t.entries {
				if e := &j.t.entries[i]; e.rule.Decision == Ask && lastMayMatch(e.g.pat, s.Words[0]) && hm.could(e.g, ps.units) {
					j.h.ask = i
					break
				}
			}
		}
		j.noAllow = true
		j.class, j.sensitivity = Sensitive, OutsideWorkspace
		if !write {
			j.class = ReadOnly
		}
		j.why = fmt.Sprintf("%s %s, a path only known at run time", verb, ps.shown)
		if write {
			// The literal part before the run-time part already names
			// a protected path or a place in a protected directory
			// (`> ~/.bashrc$X`, `> .git/hooks/pre-commit$X`; an attack
			// run's find): so does the whole, whatever is added.
			var lit []byte
			for _, u := range ps.units {
				if u == uHole || u == uOpt {
					break
				}
				lit = append(lit, byte(u))
			}
			// The word as written counts too: a path that does not
			// resolve (/proc/PID/fd/N names a pipe) keeps no literal
			// part above.
			if rel, ok := strings.CutPrefix(s.Words[0], Hole+"/"); ok && j.protected == "" && !strings.Contains(rel, Hole) {
				// A name in a directory only known at run time (`cd
				// "$(dirname "$PWD")" && echo x >> .bashrc`): protected
				// if some directory's name is (attack run 62).
				if pat := x.protectedTail(rel); pat != "" {
					j.protected, j.target = pat, ps.shown
				}
			}
			if tail := afterRunTime(s.Words[0]); j.protected == "" && tail != "" && (s.Glob&1 != 0 || globPattern(s, 0) != "") {
				// A protected path's tail after a run-time component,
				// wherever that leads (`.[.]` can be ".."; attack run 80).
				if pat := x.protectedTail(tail); pat != "" {
					j.protected, j.target = pat, ps.shown
				}
			}
			if cwd := ctx.Cwd; j.protected == "" && !(ctx.CwdUnknown && !strings.HasPrefix(s.Words[0], "/")) {
				// A name it matches now (`>> ~/.bashr*`: attack run 77).
				if pat, _ := x.namesProtected(s.Words[0], globPattern(s, 0), cwd, OpenWord(s.Open, 0), s.Glob&1 != 0, false, ctx); pat != "" {
					j.protected, j.target = pat, ps.shown
				}
			}
			raw, _, _ := strings.Cut(s.Words[0], Hole)
			for _, l := range []string{string(lit), raw} {
				if !strings.HasPrefix(l, "/") || j.protected != "" {
					continue
				}
				l = filepath.Clean(l)
				if pat := x.protectedBy(pathSubject{cleaned: l, resolved: l}); pat != "" {
					j.protected, j.target = pat, ps.shown
				}
			}
		}
		return j.verdict(mode)
	}
	hc, hr := j.t.matchString(ps.cleaned), j.t.matchString(ps.resolved)
	j.h = hits{deny: minHit(hc.deny, hr.deny), could: -1, ask: minHit(hc.ask, hr.ask), allow: hr.allow}
	target := ps.resolved
	if ps.cleaned != ps.resolved {
		target = ps.cleaned + " (which resolves to " + ps.resolved + ")"
	}
	switch {
	case !write:
		j.class, j.why = ReadOnly, "reads "+target
	case containsStr(devSinks, ps.cleaned):
		j.class, j.why = ReadOnly, "writes "+ps.cleaned+", which writes no file"
	case ps.links > 1:
		// Another name of the file may lie anywhere, protected or not.
		j.class, j.why, j.sensitivity = Sensitive, fmt.Sprintf("writes %s, a file with %d hard links", target, ps.links), OutsideWorkspace
	case withinAny(ps.resolved, x.wsDirs):
		j.class, j.why = Workspace, "writes "+target+" inside the workspace"
	case withinAny(ps.resolved, x.tmpDirs):
		j.class, j.why = Workspace, "writes "+target+" in the temp directory"
	default:
		j.class, j.why, j.sensitivity = Sensitive, "writes "+target+" outside the workspace", OutsideWorkspace
	}
	if write && j.class != ReadOnly {
		j.protected = x.protectedBy(ps)
		j.target = target
	}
	j.suggest, j.suggestPath, j.suggestIn = suggestFile, ps.resolved, x
	return j.verdict(mode)
}

// ruleClause returns prefix, r's pattern quoted as %q quotes it, r's
// source in parentheses, then suffix: fmt.Sprintf("%s%q (%s)%s", prefix,
// r.Pattern, r.Source(), suffix) made with one allocation, not five
// (TestRuleClause compares the two).
func ruleClause(prefix string, r *Rule, suffix string) string {
	var buf [192]byte
	b := append(buf[:0], prefix...)
	b = strconv.AppendQuote(b, r.Pattern)
	b = append(b, " ("...)
	b = append(b, r.File...)
	if r.Line > 0 {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(r.Line), 10)
	}
	b = append(b, ')')
	b = append(b, suffix...)
	return string(b)
}

// gitPlaceVars are the variables that say where git writes the work tree
// and which config it reads.
var gitPlaceVars = map[string]bool{"GIT_WORK_TREE": true, "GIT_DIR": true, "GIT_COMMON_DIR": true}

func minHit(a, b int) int {
	if a < 0 || (b >= 0 && b < a) {
		return b
	}
	return a
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// rule returns a copy of the rule of entry i, for a verdict (the
// policy's own in a brief verdict, which the caller only reads).
func (j *judgement) rule(i int) *Rule {
	if j.brief {
		return j.t.entries[i].rule
	}
	r := *j.t.entries[i].rule
	return &r
}

// argRule is rule for the rule an argument matched.
func (j *judgement) argRule(a *argHit) *Rule {
	if j.brief {
		return a.rule
	}
	r := *a.rule
	return &r
}

// readsSecret reports that the ask rule deciding is a built-in secret.
func (j *judgement) readsSecret() bool {
	if j.argAsk != nil {
		return j.argAsk.rule.File == SecretsFile
	}
	return j.h.ask >= 0 && j.t.entries[j.h.ask].rule.File == SecretsFile
}

func (j *judgement) verdict(mode Mode) Verdict { return j.verdictWith(mode, nil) }

// verdictWith is verdict, keeping an exec subject's suggestion, which
// depends on its words alone, in memo (nil for none) for its verdicts in
// other directories. (Kept in j, memo would be taken to escape with the
// strings a verdict takes from j.)
func (j *judgement) verdictWith(mode Mode, memo *execPart) Verdict {
	secret := j.readsSecret()
	if secret && j.h.allow >= 0 && !j.noAllow {
		// The built-in secrets come after the user's rules: an allow
		// rule that matches the command (or the path) and names the
		// secret file (".env", "id_rsa": not "cat *") lets it be read.
		name := path.Base(j.path)
		if j.argAsk != nil {
			name = path.Base(j.argAsk.arg)
		}
		if r := j.t.entries[j.h.allow].rule; name != "" && !strings.Contains(name, "*") && strings.Contains(r.Pattern, name) {
			if j.argAsk != nil {
				j.argAsk = nil
			} else {
				j.h.ask = -1
			}
		}
	}
	if j.protected != "" || secret {
		j.class, j.sensitivity = Sensitive, ProtectedPath
	}
	v := Verdict{Class: j.class}
	if j.class == Sensitive {
		v.Sensitivity = j.sensitivity
		if v.Sensitivity == "" {
			v.Sensitivity = UnknownProgram
		}
	}
	if j.h.deny >= 0 {
		r := j.rule(j.h.deny)
		v.Decision, v.Rule, v.DecidedBy = Deny, r, ByRule
		if !j.brief {
			v.Reason = ruleClause("matches deny rule ", r, "")
		}
		return v
	}
	if a := j.argDeny; a != nil {
		v.Decision, v.Rule, v.DecidedBy = Deny, j.argRule(a), ByRule
		if !j.brief {
			v.Reason = a.clause()
		}
		return v
	}
	if j.h.could >= 0 {
		r := j.rule(j.h.could)
		v.Decision, v.Rule, v.DecidedBy = Ask, r, ByRule
		if !j.brief {
			v.Reason = ruleClause("could match deny rule ", r, " "+j.couldWhy)
		}
		return v
	}
	if a := j.argCould; a != nil {
		v.Decision, v.Rule, v.DecidedBy = Ask, j.argRule(a), ByRule
		if !j.brief {
			v.Reason = a.clause()
		}
		return v
	}
	if mode == Chat {
		v.Decision, v.DecidedBy = Deny, ByMode
		if !j.brief {
			v.Reason = "mode chat runs nothing"
		}
		return v
	}
	if j.protected != "" {
		v.DecidedBy, v.Protected = ByClass, j.protected
		if mode == Plan {
			v.Decision = Deny
			if !j.brief {
				v.Reason = fmt.Sprintf("writes protected path %s; mode plan writes nothing", j.target)
			}
			return v
		}
		v.Decision = Ask
		if j.brief {
			return v
		}
		if arg, ok := strings.CutPrefix(j.target, "argument "); ok {
			if j.holder != "" {
				verb := holderVerb(j.holder)
				v.Reason = fmt.Sprintf("argument %s is a directory %s %s with all it holds, a protected path among it (protected: %s), which needs a human's yes in every mode", arg, j.holder, verb, j.protected)
				return v
			}
			v.Reason = fmt.Sprintf("argument %s is a protected path (protected: %s) and the program may write it, which needs a human's yes in every mode", arg, j.protected)
			return v
		}
		v.Reason = fmt.Sprintf("writes protected path %s (protected: %s), which needs a human's yes in every mode", j.target, j.protected)
		return v
	}
	if j.h.ask >= 0 || j.argAsk != nil {
		var r *Rule
		var what string
		if j.h.ask >= 0 {
			r = j.rule(j.h.ask)
			if !j.brief {
				what = ruleClause("matches ask rule ", r, "")
			}
		} else {
			r = j.argRule(j.argAsk)
			if !j.brief {
				what = j.argAsk.clause()
			}
		}
		switch mode {
		case Bypass:
			v.Decision, v.DecidedBy = Allow, ByMode
			if !j.brief {
				v.Reason = what + "; mode bypass runs it"
			}
		case Plan:
			v.Decision, v.DecidedBy = Deny, ByMode
			if !j.brief {
				v.Reason = what + "; mode plan runs only read-only commands"
			}
		default:
			v.Decision, v.Rule, v.DecidedBy, v.Reason = Ask, r, ByRule, what
		}
		return v
	}
	ignored := ""
	if j.ignoredAllow > 0 && j.h.allow < 0 && !j.brief {
		r := j.t.entries[j.ignoredAllow-1].rule
		ignored = fmt.Sprintf(" (allow rule %q does not name what it runs, so it does not lift this)", r.Pattern)
	}
	if j.h.allow >= 0 {
		switch {
		case j.noAllow:
			if !j.brief {
				ignored = fmt.Sprintf(" (allow rule %q does not lift this)", j.t.entries[j.h.allow].rule.Pattern)
			}
		case mode == Plan && j.class != ReadOnly:
			if !j.brief {
				ignored = fmt.Sprintf(" (allow rule %q applies in mode plan only to read-only commands)", j.t.entries[j.h.allow].rule.Pattern)
			}
		default:
			r := j.rule(j.h.allow)
			v.Decision, v.Rule, v.DecidedBy = Allow, r, ByRule
			if !j.brief {
				v.Reason = ruleClause("matches allow rule ", r, "")
			}
			return v
		}
	}
	v.Decision, v.DecidedBy = classDecision(mode, j.class), ByClass
	if v.Decision == Allow && j.runsAny {
		v.Decision = Ask
		if !j.brief {
			v.Reason = j.why + "; code it makes run could be anything a deny rule forbids, so it asks in every mode"
		}
		return v
	}
	if j.brief {
		return v
	}
	switch {
	case v.Decision == Allow && j.class == ReadOnly:
		v.Reason = j.why
	case v.Decision == Allow:
		v.Reason = j.why + "; mode " + string(mode) + " runs it"
	case v.Decision == Deny:
		v.Reason = j.why + "; mode " + string(mode) + " runs only read-only commands"
	case mode == Approve:
		v.Reason = fmt.Sprintf("%s, but mode approve asks before anything no allow rule matches", j.why)
	default:
		v.Reason = j.why + " and no rule matches"
	}
	v.Reason += ignored
	if j.hint != "" {
		v.Reason += "; " + j.hint
	}
	if v.Decision == Ask && !j.noAllow && j.suggest != suggestNone && j.hint == "" {
		v.Suggest = j.suggestion(memo)
		if v.Sensitivity == Destructive && j.suggest == suggestCommand && strings.HasSuffix(v.Suggest, " *") {
			// `git reset *` for `git reset --hard HEAD` would allow
			// every reset (a new user's find): only the command itself.
			v.Suggest = ""
			if exact := strings.Join(j.suggestWords, " "); !strings.ContainsAny(exact, Hole+"*") {
				v.Suggest = exact
			}
		}
	}
	return v
}

// suggestion is the kind of allow pattern a judgement proposes.
type suggestion uint8

const (
	suggestNone    suggestion = iota
	suggestCommand            // suggestExec(suggestWords)
	suggestCode               // suggestNaming(suggestWords, suggestKey)
	suggestFile               // suggestPath(suggestPath, …) in suggestIn
)

// suggestion returns the allow pattern j proposes (see suggest), or "";
// an exec subject's is made once and kept in memo when memo is not nil.
func (j *judgement) suggestion(memo *execPart) string {
	if e := memo; e != nil && (j.suggest == suggestCommand || j.suggest == suggestCode) {
		if !e.made {
			e.suggested, e.made = j.suggest1(), true
		}
		return e.suggested
	}
	return j.suggest1()
}

// suggest1 makes the suggestion (see suggestion).
func (j *judgement) suggest1() string {
	switch j.suggest {
	case suggestCommand:
		return suggestExec(j.suggestWords)
	case suggestCode:
		return suggestNaming(j.suggestWords, j.suggestKey)
	case suggestFile:
		return suggestPath(j.suggestPath, j.suggestIn.homeDirs, j.suggestIn.wsDirs)
	}
	return ""
}

// suggestExec proposes an allow pattern for argv: "W0 *" for a single word
// (`make` → "make *"); "W0 W1 *" when W1 looks like a subcommand (`npm test`
// → "npm test *", `git push origin main` → "git push *"); the exact command
// when it has no Hole (`./build.sh --fast`); else "W0 *". It returns ""
// when no pattern could be suggested safely (a Hole or '*' in the name)
// and checks that the suggestion matches argv for every run-time value.
func suggestExec(words []string) string {
	if len(words) == 0 || words[0] == "" || strings.ContainsAny(words[0], Hole+"* ") {
		return ""
	}
	if codeRunners()[words[0][strings.LastIndexByte(words[0], '/')+1:]] {
		// "sh *" or "python3 *" would allow any code, and `… | sh`
		// reads its code from stdin, which no pattern names: only an
		// exact command with its script is suggested.
		if len(words) < 2 || strings.HasPrefix(words[1], "-") {
			return ""
		}
		exact := strings.Join(words, " ")
		if strings.ContainsAny(exact, Hole+"*") {
			return ""
		}
		return exact
	}
	var pat string
	exact := strings.Join(words, " ")
	exactOK := !strings.ContainsAny(exact, Hole+"*") && strings.TrimSpace(exact) == exact
	switch {
	case len(words) == 1:
		pat = words[0] + " *"
	case isSubcommand(words[1]):
		pat = words[0] + " " + words[1] + " *"
	case exactOK:
		pat = exact
	default:
		pat = words[0] + " *"
	}
	if strings.HasSuffix(pat, " *") && broadAllowHarms(pat) {
		// "rm *" or "sed *" would allow `rm -rf ~/Documents` and
		// `sed -i … /etc/passwd`: only the command itself, if it can be
		// spelled as a pattern.
		if !exactOK || len(words) == 1 {
			return ""
		}
		return exact
	}
	if !hasHole(words) {
		// Without a Hole each form above matches the words: "W0 *" and
		// "W0 W1 *" (W0 holds no '*' or space, W1 is a plain word) match
		// "W0 …", and the exact command, holding no '*', matches itself
		// (TestSuggestMatches).
		return pat
	}
	units, _ := execUnits(words)
	if !(&holeMatcher{}).definite(compileGlob(pat, true), units) {
		return ""
	}
	return pat
}

// broadAllowHarms reports whether pat, an allow pattern "P… *", would
// allow commands that destroy, write outside the workspace, change a
// protected path or raise privilege whatever the "*" stands for: those
// whose sensitivity (see sensitivityOf) for "P… x" is such ("rm *",
// "sed *", "chmod *", "git clean *", "sudo *"). An allow rule so broad
// undoes the very checks that made the command ask.
func broadAllowHarms(pat string) bool {
	words := append(strings.Fields(strings.TrimSuffix(pat, "*")), "x")
	if strings.ContainsAny(strings.Join(words[:len(words)-1], " "), "*?[") {
		return false
	}
	switch sensitivityOf(words, nil, false) {
	case Destructive, OutsideWorkspace, ProtectedPath, Privilege:
		return true
	}
	return false
}

// suggestNaming proposes "KEY *" for a subject that runs code given in
// an argument, KEY being what an allow rule must spell out (see
// runsArgument), when that pattern matches words for every run-time value.
func suggestNaming(words []string, key string) string {
	if strings.ContainsAny(key, Hole+"*\n") {
		return ""
	}
	pat := key + " *"
	g := compileGlob(pat, true)
	if units, dynamic := execUnits(words); dynamic {
		if !(&holeMatcher{}).definite(g, units) {
			return ""
		}
	} else if !g.match(strings.Join(words, " ")) {
		return ""
	}
	return pat
}

// isSubcommand reports whether w looks like a subcommand name: a lower-case
// letter followed by lower-case letters, digits, '-', '_' or ':'.
func isSubcommand(w string) bool {
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

// suggestPath proposes a path allow pattern for the resolved path p: the
// file's directory + "/*", written relative to the workspace or as "~/…"
// when it lies there; the exact path when the directory is the workspace,
// the home directory, "/" or a top-level directory such as /etc.
func suggestPath(p string, home, ws []string) string {
	if strings.ContainsRune(p, '*') {
		return ""
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	for _, w := range ws {
		if within(p, w) && p != w {
			if dir == w {
				return base
			}
			return strings.TrimPrefix(dir, w+"/") + "/*"
		}
	}
	for _, h := range home {
		if within(p, h) && p != h {
			if dir == h {
				return "~/" + base
			}
			return "~/" + strings.TrimPrefix(dir, h+"/") + "/*"
		}
	}
	if strings.Count(dir, "/") < 2 {
		return p
	}
	return dir + "/*"
}

// gitTemplate reports git init or clone given a template directory
// (--template=DIR, -c init.templateDir=DIR or GIT_TEMPLATE_DIR among
// assigns: git-init(1) TEMPLATE DIRECTORY), whose hooks it copies into the
// repository it makes (attack run 83 planted a post-commit hook through
// the last two).
func gitTemplate(words, assigns []string) bool {
	if len(words) < 2 || path.Base(words[0]) != "git" {
		return false
	}
	i := GitSubcommandAt(words)
	if i >= len(words) || words[i] != "init" && words[i] != "clone" {
		return false
	}
	for _, a := range assigns {
		if strings.HasPrefix(a, "GIT_TEMPLATE_DIR=") {
			return true
		}
	}
	for k := 1; k+1 < i; k++ {
		if words[k] == "-c" && strings.HasPrefix(strings.ToLower(words[k+1]), "init.templatedir") {
			return true
		}
	}
	for _, w := range words[i+1:] {
		if w == "--" {
			return false
		}
		if name, _, _ := strings.Cut(w, "="); len(name) >= 4 && strings.HasPrefix("--template", name) {
			return true
		}
	}
	return false
}
