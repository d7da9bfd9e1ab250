package rules

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Severity says how bad a Finding is.
type Severity string

const (
	// SeverityError is a problem Parse rejects: guardsh refuses to run
	// anything under the file until it is fixed.
	SeverityError Severity = "error"
	// SeverityWarning is a rule that parses but does not do what it
	// seems to: it can never take effect, or it reaches further than its
	// author may think.
	SeverityWarning Severity = "warning"
)

// Finding is one problem Lint reports, located by file and line.
type Finding struct {
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line     int
	Severity Severity
	Problem  string
	// broad marks a finding of lintBroadAllows (see BroadAllowFinding).
	broad bool
}

// String returns "FILE:LINE: SEVERITY: PROBLEM", or "FILE: SEVERITY:
// PROBLEM" when Line is 0.
func (f Finding) String() string {
	at := f.File
	if f.Line > 0 {
		at += ":" + strconv.Itoa(f.Line)
	}
	return at + ": " + string(f.Severity) + ": " + f.Problem
}

// LintFile reads the config file at path and lints it (see Lint). A file
// that cannot be read is one error finding, with line 0.
func LintFile(path string) []Finding {
	data, err := readConfig(path)
	if err != nil {
		return []Finding{errorFinding(err, path)}
	}
	return Lint(data, path)
}

// Lint checks a config file's contents; file names it in the findings.
// It returns the findings in line order (nil for a clean file). Errors
// are what Parse rejects; warnings are rules that are valid but do not
// do what they seem to. Every warning is a certainty, never a guess: a
// check that cannot be sure says nothing. The checks:
//
// Errors. Everything Parse rejects, with Parse's message. After an error
// Lint drops the offending entry (the key and its value, or the list
// item) and reads on, so that one run reports the errors of several
// entries; a YAML syntax error, a second document or a top level that is
// not a mapping ends the reading. Warnings are given for the entries that
// parse.
//
// Shadowed by a deny rule. An allow or ask rule every command (or path) of
// which a deny rule of the same section also matches can never take
// effect: "rm -rf build" under deny "rm -rf *". The test is exact
// language inclusion between the two patterns, a bare shell pattern "P *"
// standing for itself and "P". An ask rule that names options of a program
// guardsh reads options of (rm, git push…) also matches other spellings
// (`rm -fr build`), so it counts as shadowed only when the deny rule reads
// the same options too: ask "rm -rf build" is shadowed by deny "rm -rf *"
// but not by deny "rm -r*". The message names the deny rule and its line.
//
// Shadowed by an ask rule. An allow rule every command (or path) of which
// an ask rule of the same section matches never allows anything, since ask
// rules come first: allow "git push origin main" under ask "git push *".
//
// For write and read rules, both checks compare the patterns as they are
// matched (cleaned, "~/…" and workspace-relative ones only with patterns
// of the same anchor, or under a deny "/*" that matches every path). Since
// guardsh also matches a rule's pattern with the symlinks in its literal
// directory resolved, an allow "~/.ssh/config" under deny "~/.ssh/*" could
// still take effect where "~/.ssh/config" is a symlink; the message says so
// whenever the two rules' literal directories differ.
//
// Duplicates. The same pattern twice in a section, whatever the decisions:
// allow "make *" at lines 3 and 9 (the later one is reported, naming the
// first); if the decisions differ, the message says which one never takes
// effect.
//
// Catch-alls. A pattern that matches every command ("*", "* *", "**"), or
// every path (write and read "/*"): a deny rule means nothing runs (or
// nothing is written or read), an ask rule that nothing runs unasked and
// no allow rule takes effect, an allow rule that the mode no longer
// decides.
//
// Relative paths. A write or read pattern that is neither absolute nor
// under "~/" is matched under the workspace (the root of the git work
// tree holding the working directory, else the working directory), which
// changes with where a command runs: write ".env" denies ./.env in every
// project, not one file.
//
// Paths not written as matched. Write and read patterns are cleaned before
// they are matched against canonical paths, so a pattern with a trailing
// "/", "//", "/./" or "/../" is matched as another string: write
// "~/.ssh/" matches the directory ~/.ssh only, not what is in it (write
// "~/.ssh/*"); "/tmp//x" is matched as "/tmp/x" and "/a/*/../b" as "/a/b".
//
// Assignments. A shell pattern starting NAME=… ("CI=1 make *") can only
// match a command whose name itself starts with "NAME=", since rules
// match a command without the assignments before it (`CI=1 make test` is
// matched as `make test`).
//
// Not checked, because they are not certain: two spaces in a shell
// pattern ("a  b") match a command with an empty word or a word holding a
// space (`a "" b`, `echo "x  y"`); and a rule that is only redundant (a
// deny under another deny) takes nothing away.
func Lint(data []byte, file string) []Finding {
	var out []Finding
	ps := &parser{file: file}
	root, err := ps.decode(data)
	if err != nil {
		return []Finding{errorFinding(err, file)}
	}
	if root == nil {
		return nil
	}
	// Parse, drop the entry of the error, parse again. Each round removes
	// at least one entry from the tree, so this ends; the bound is only a
	// guard.
	var rs []Rule
	var parsed *Policy
	for round := 0; round <= len(data); round++ {
		ps := &parser{file: file, p: &Policy{File: file, Audit: AuditConfig{Required: true}}}
		err := ps.walk(root)
		if err == nil {
			rs, parsed = ps.p.rules, ps.p
			break
		}
		f := errorFinding(err, file)
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
		if ps.at == nil || !removeEntry(root, ps.at) {
			break
		}
	}
	slices.SortStableFunc(rs, func(a, b Rule) int { return a.Line - b.Line })
	out = append(out, lintRules(rs)...)
	out = append(out, lintBroadAllows(rs)...)
	if parsed != nil && parsed.Sandbox.On() {
		out = append(out, lintJailedAllows(rs, parsed.Sandbox.Mode)...)
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Line - b.Line })
	return out
}

// lintBroadAllows warns of shell allow rules "P… *" that allow, whatever
// the "*" stands for, commands that destroy, write outside the workspace,
// change a protected path or raise privilege (see broadAllowHarms): allow
// "rm *" lets `rm -rf ~/Documents` run unasked, since allow rules come
// before the checks that would have made it ask. (A deny or ask rule
// still wins over it.)
func lintBroadAllows(rs []Rule) []Finding {
	var out []Finding
	for i := range rs {
		r := &rs[i]
		if r.Section != "shell" || r.Decision != Allow || !strings.HasSuffix(r.Pattern, " *") || !broadAllowHarms(r.Pattern) {
			continue
		}
		out = append(out, Finding{File: r.File, Line: r.Line, Severity: SeverityWarning, broad: true,
			Problem: fmt.Sprintf("allow rule %q allows %s whatever follows, outside the workspace too (%q): only deny and ask rules still stop it; allow the commands themselves instead (\"%s\")",
				r.Pattern, strings.TrimSuffix(r.Pattern, " *"), strings.TrimSuffix(r.Pattern, "*")+"-rf ~/Documents", strings.TrimSuffix(r.Pattern, "*")+"build/")})
	}
	return out
}

// BroadAllowFinding reports a finding of the broad allow rule check (see
// lintBroadAllows), which says nothing of a file whose allow rules are
// ignored (a project's .guardsh.yaml).
func BroadAllowFinding(f Finding) bool { return f.broad }

// lintJailedAllows warns, with the sandbox on, of shell allow rules for
// what the jail would take (an interpreter, a project's runner, a
// program guardsh does not know: "python3 *", "make *", "npm test"): an
// allow rule runs it outside the jail with the user's full rights,
// where without the rule it would run jailed, unasked.
func lintJailedAllows(rs []Rule, mode SandboxMode) []Finding {
	var out []Finding
	for i := range rs {
		r := &rs[i]
		if r.Section != "shell" || r.Decision != Allow {
			continue
		}
		words := strings.Fields(r.Pattern)
		if len(words) > 0 && strings.HasSuffix(words[0], "*") && !strings.Contains(strings.TrimSuffix(words[0], "*"), "*") && len(words[0]) > 1 {
			// "make*": make, and whatever else starts so.
			words[0] = strings.TrimSuffix(words[0], "*")
		}
		if len(words) == 0 || strings.Contains(words[0], "*") || words[0] == "source" || words[0] == "." {
			// (An allow rule on source vouches for a file the shell
			// itself reads: no jail could take it apart from the shell.)
			continue
		}
		for j := range words {
			if strings.Contains(words[j], "*") {
				words[j] = "x"
			}
		}
		class, _, _ := classifyExec(words, nil)
		if class != Sensitive {
			continue
		}
		if sens := sensitivityOf(words, nil, false); sens == Interpreter || sens == UnknownProgram {
			out = append(out, Finding{File: r.File, Line: r.Line, Severity: SeverityWarning,
				Problem: fmt.Sprintf("allow rule %q runs what it matches outside the jail, with your full rights: with sandbox: %s, the jail would run it unasked without the rule; keep the rule only for what needs more than the jail gives (the network, writes outside the workspace)", r.Pattern, mode)})
		}
	}
	return out
}

func errorFinding(err error, file string) Finding {
	var ce *ConfigError
	if errors.As(err, &ce) {
		return Finding{File: ce.File, Line: ce.Line, Severity: SeverityError, Problem: ce.Problem}
	}
	return Finding{File: file, Severity: SeverityError, Problem: err.Error()}
}

// removeEntry removes from the tree under root every mapping entry whose
// key or value is n, and every list item that is n (aliases followed),
// and reports whether it removed any.
func removeEntry(root, n *yaml.Node) bool {
	removed := false
	seen := map[*yaml.Node]bool{}
	var walk func(c *yaml.Node)
	walk = func(c *yaml.Node) {
		c = deref(c)
		if c == nil || seen[c] {
			return
		}
		seen[c] = true
		switch c.Kind {
		case yaml.MappingNode:
			kept := c.Content[:0:0]
			for i := 0; i+1 < len(c.Content); i += 2 {
				k, v := c.Content[i], c.Content[i+1]
				if deref(k) == n || deref(v) == n {
					removed = true
					continue
				}
				kept = append(kept, k, v)
				walk(v)
			}
			c.Content = kept
		case yaml.SequenceNode:
			kept := c.Content[:0:0]
			for _, item := range c.Content {
				if deref(item) == n {
					removed = true
					continue
				}
				kept = append(kept, item)
				walk(item)
			}
			c.Content = kept
		}
	}
	walk(root)
	return removed
}

// lintRule is a rule with what the checks compare.
type lintRule struct {
	*Rule
	// g is the pattern compiled as it is matched: for a shell rule the
	// pattern itself; for a path rule its cleaned form, which starts with
	// its anchor ("/", "~", "."); nil for a path rule whose cleaned form
	// climbs above its anchor (".."), which is compared with nothing.
	g *glob
	// For path rules: the anchor ('/', '~', '.'), the cleaned form as it
	// would be written, and its literal directory (where guardsh resolves
	// symlinks: the form up to the last "/" before its first '*', or all
	// of it without a '*'; "" when that is the root).
	anchor  byte
	written string
	litDir  string
	// opt is the rule read with its program's option table, for deny and
	// ask shell rules that name options (see optionRule); nil otherwise.
	opt *optionRule
	// all: the rule matches every command, or every path.
	all bool
}

func newLintRule(r *Rule) lintRule {
	lr := lintRule{Rule: r}
	if r.Section == "shell" {
		lr.g = compileGlob(r.Pattern, true)
		if r.Decision != Allow {
			if o, ok := newOptionRule(0, r.Pattern); ok {
				lr.opt = &o
			}
		}
		lr.all = globSubset(compileGlob("*", false), lr.g)
		return lr
	}
	pr := newPathRule(r)
	lr.anchor = pr.anchor
	c := filepath.Clean("/" + pr.rest)[1:] // the rest, cleaned
	if pr.anchor != '/' {
		c = "."
		if pr.rest != "" {
			c = filepath.Clean(pr.rest)
		}
	}
	switch {
	case pr.anchor == '/':
		lr.written = "/" + c
	case c == ".":
		lr.written = string(pr.anchor)
	case pr.anchor == '~':
		lr.written = "~/" + c
	default:
		lr.written = c
	}
	if c == ".." || strings.HasPrefix(c, "../") {
		return lr
	}
	form := lr.written
	if pr.anchor == '.' && c != "." {
		form = "./" + c
	}
	lr.g = compileGlob(form, false)
	lr.litDir = form
	if star := strings.IndexByte(form, '*'); star >= 0 {
		lr.litDir = ""
		if slash := strings.LastIndexByte(form[:star], '/'); slash > 0 {
			lr.litDir = form[:slash]
		}
	}
	if pr.anchor == '.' {
		lr.litDir = strings.TrimPrefix(lr.litDir, "./")
	}
	// "/*" matches every path, "/" included.
	lr.all = pr.anchor == '/' && globSubset(compileGlob("/*", false), lr.g)
	return lr
}

// shadowedBy reports whether every command or path lr matches, s matches
// too, and so s decides wherever lr would. caveat, for path rules, is a
// directory whose symlinks could make lr match a path s does not.
func (lr lintRule) shadowedBy(s lintRule) (ok bool, caveat string) {
	if s.all {
		// s matches every string (every path: then anchors do not matter).
		return true, ""
	}
	if lr.g == nil || s.g == nil || !strings.HasPrefix(lr.g.key, s.g.key) {
		// Every string lr matches starts with its key and can go on with
		// any byte after it: s's key must be a prefix of lr's.
		return false, ""
	}
	if lr.Section == "shell" {
		if !globSubset(lr.g, s.g) {
			return false, ""
		}
		if lr.opt != nil && !s.opt.covers(lr.opt) {
			// lr also matches other spellings of its options, which
			// s may not.
			return false, ""
		}
		return true, ""
	}
	// Each form starts with its anchor ("/", "~", "./" or "."), which no
	// form of another anchor can match: only same-anchor forms compare.
	if !globSubset(lr.g, s.g) {
		return false, ""
	}
	if lr.litDir == "" || lr.litDir == s.litDir {
		return true, ""
	}
	return true, lr.litDir
}

// covers reports whether deny or ask rule o, read with its program's
// option table, matches every command that k matches so read: same
// program, every option of o among k's (a value of k's within o's value
// pattern), and k's operand pattern within o's. A nil o covers nothing.
func (o *optionRule) covers(k *optionRule) bool {
	if o == nil || o.form.program != k.form.program {
		return false
	}
	for i, want := range o.form.opts {
		found := false
		for j, have := range k.form.opts {
			if have.letter != want.letter || (want.letter == longOnly && have.long != want.long) {
				continue
			}
			if !want.hasVal || (have.hasVal && globSubset(k.values[j], o.values[i])) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return globSubset(k.operands, o.operands)
}

// assignmentRE matches a shell pattern's start that is an assignment
// (NAME= or NAME+=).
var assignmentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+?=`) })

// notReadOnly says what the program a readonly pattern starts with does
// that is not reading (it writes, deletes, runs code, changes privileges
// or reaches the network, by guardsh's own tables), or "" when it is none
// of those or the pattern starts with "*".
func notReadOnly(pattern string) string {
	name, _, _ := strings.Cut(pattern, " ")
	if name == "" || strings.Contains(name, "*") {
		return ""
	}
	words := strings.Fields(strings.ReplaceAll(pattern, "*", ""))
	switch {
	case destructivePrograms()[name]:
		return "deletes or stops things"
	case privilegePrograms()[name]:
		return "changes privileges or the system"
	case codeRunners()[name], projectRunners()[name], packageRunners()[name]:
		return "runs code"
	case len(words) > 0 && networkUse(words):
		return "reaches the network"
	}
	if _, ok := workspaceWriters()[name]; ok {
		return "writes files"
	}
	return ""
}

// lintRules runs the warning checks on rules, in file order.
func lintRules(rs []Rule) []Finding {
	var out []Finding
	warn := func(r *Rule, format string, args ...any) {
		out = append(out, Finding{File: r.File, Line: r.Line, Severity: SeverityWarning, Problem: fmt.Sprintf(format, args...)})
	}
	for i := range rs {
		if r := &rs[i]; r.Section == "readonly" {
			if what := notReadOnly(r.Pattern); what != "" {
				warn(r, "readonly pattern %q declares a command read-only that %s: modes plan and ask will run it unasked (an allow rule lets it run in ask and auto, not in plan)", r.Pattern, what)
			}
		}
		if r := &rs[i]; (r.Section == "shell" || r.Section == "readonly") && (strings.Contains(r.Pattern, "  ") || strings.ContainsAny(r.Pattern, "\t\n\v\f\r")) {
			// A command's words are matched joined by single spaces (a
			// new user's pattern with two never matched, unsaid; attack
			// run 76's deny rule with a tab let git push run).
			warn(r, "%s rule %q holds two blanks in a row or a blank other than a space, which no command matches: its words are matched joined by single spaces", r.Decision, r.Pattern)
		}
	}
	for _, section := range []string{"shell", "write", "read"} {
		var lrs []lintRule
		for i := range rs {
			if rs[i].Section == section {
				lrs = append(lrs, newLintRule(&rs[i]))
			}
		}
		what := "command"
		if section != "shell" {
			what = "path"
		}
		first := map[string]*Rule{}
		for _, lr := range lrs {
			r := lr.Rule
			if lr.all {
				warn(r, "%s rule %q matches every %s: %s", r.Decision, r.Pattern, what, catchAll(section, r.Decision))
			}
			if f := first[r.Pattern]; f != nil {
				if f.Decision == r.Decision {
					warn(r, "duplicate %s rule %q (first at line %d)", r.Decision, r.Pattern, f.Line)
				} else {
					warn(r, "pattern %q is %s here and %s at line %d: the %s rule never takes effect",
						r.Pattern, aRule(r.Decision), aRule(f.Decision), f.Line, min(r.Decision, f.Decision))
				}
			} else {
				first[r.Pattern] = r
			}
			if r.Decision != Deny {
				lintShadow(lr, lrs, what, warn)
			}
			if section == "shell" {
				if m := assignmentRE().FindString(r.Pattern); m != "" {
					warn(r, "%s rule %q starts with an assignment: rules match a command without the assignments before it (`%s make` is matched as `make`), so this one only matches a program whose name starts with %q",
						r.Decision, r.Pattern, m+"1", m)
				}
				continue
			}
			if lr.written != r.Pattern && !(lr.anchor == '.' && lr.written == strings.TrimPrefix(r.Pattern, "./")) {
				if trimmed := strings.TrimRight(r.Pattern, "/"); trimmed != r.Pattern && trimmed == lr.written {
					warn(r, "%s rule %q matches only %q itself, not what is in it: paths are matched without a trailing \"/\" (write %q for what is in it)",
						r.Decision, r.Pattern, lr.written, lr.written+"/*")
				} else {
					warn(r, "%s rule %q is matched as %q: paths are matched cleaned (no \"//\", \"/./\" or \"/../\", no trailing \"/\")",
						r.Decision, r.Pattern, lr.written)
				}
			}
			if lr.anchor == '.' && r.Decision != Allow {
				// (A relative allow rule is only narrower than it may
				// look: the README's `build/*` is one, and lint flagged
				// it, a new user's find.)
				warn(r, "%s rule %q is relative: it is matched under the workspace (the root of the git work tree holding the working directory, else the working directory), which changes with where a command runs; start it with \"/\" or \"~/\" to name one place",
					r.Decision, r.Pattern)
			}
		}
	}
	return out
}

// lintShadow warns when allow or ask rule lr can never take effect: a
// deny rule (or, for an allow rule, an ask rule) of its section matches
// everything it matches. Rules with the very same pattern are left to the
// duplicate check.
func lintShadow(lr lintRule, lrs []lintRule, what string, warn func(*Rule, string, ...any)) {
	r := lr.Rule
	for _, d := range []Decision{Deny, Ask} {
		if d == Ask && r.Decision != Allow {
			break
		}
		for _, s := range lrs {
			if s.Decision != d || s.Pattern == r.Pattern {
				continue
			}
			ok, caveat := lr.shadowedBy(s)
			if !ok {
				continue
			}
			effect := "never takes effect"
			if d == Ask {
				effect = "never allows anything"
			}
			msg := fmt.Sprintf("%s rule %q %s: %s rule %q (line %d) matches every %s it matches", r.Decision, r.Pattern, effect, d, s.Pattern, s.Line, what)
			if d == Ask {
				msg += ", and ask rules come first"
			}
			if caveat != "" {
				msg += fmt.Sprintf(" (unless a symlink on the way to %q leads elsewhere)", caveat)
			}
			warn(r, "%s", msg)
			return
		}
	}
}

// catchAll says what a rule matching everything in section does.
func catchAll(section string, d Decision) string {
	if section == "shell" {
		switch d {
		case Deny:
			return "nothing runs, in any mode"
		case Ask:
			return "nothing runs without asking (mode bypass runs it all) and no allow rule takes effect"
		}
		return "outside modes chat and plan, nearly every command that no deny or ask rule matches runs without asking"
	}
	verb := "write"
	if section == "read" {
		verb = "read"
	}
	switch d {
	case Deny:
		return fmt.Sprintf("every %s is denied, and so is nearly every command that names a path in its arguments", verb)
	case Ask:
		return fmt.Sprintf("every %s asks, and so does nearly every command that names a path in its arguments; no allow rule of the section takes effect", verb)
	}
	return fmt.Sprintf("outside modes chat and plan, a %s of any path known before the command runs is allowed unless a deny or ask rule matches it (or, for a write, it is protected)", verb)
}

// aRule returns "an allow rule", "an ask rule" or "a deny rule".
func aRule(d Decision) string {
	if d == Deny {
		return "a deny rule"
	}
	return "an " + d.String() + " rule"
}
