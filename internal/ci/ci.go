// Package ci is guardsh in a CI job step: when CI mode is on, how the
// runner's file commands ($GITHUB_OUTPUT, $GITHUB_ENV, …) are decided, and
// what a refused command leaves in the job's log and summary on GitHub
// Actions.
//
// CI mode only ever tightens: it turns every ask into a refusal (headless
// deny: no dialog, nobody to answer), and lifts nothing but the ask a write
// to one of the runner's own file-command files would get for lying
// outside the workspace. What a step writes to $GITHUB_ENV or $GITHUB_PATH
// sets later steps' environment, so it is decided as the export it amounts
// to.
package ci

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// Enabled reports CI mode: the --ci flag, or the CI variable every major
// CI system sets ("true", "1" or "yes", any case).
func Enabled(getenv func(string) string, flag bool) bool {
	switch strings.ToLower(getenv("CI")) {
	case "true", "1", "yes":
		return true
	}
	return flag
}

// GitHub reports a GitHub Actions runner (GITHUB_ACTIONS=true).
func GitHub(getenv func(string) string) bool { return getenv("GITHUB_ACTIONS") == "true" }

// The runner's file-command variables. Output, summary and state only
// pass data to the workflow; env and path change later steps.
var fileCommandVars = map[string]string{
	"GITHUB_OUTPUT":       "set_output",
	"GITHUB_STEP_SUMMARY": "step_summary",
	"GITHUB_STATE":        "save_state",
	"GITHUB_ENV":          "set_env",
	"GITHUB_PATH":         "add_path",
}

var fileNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F-]{8,}$`) })

// FileCommands maps each runner file-command variable to its file, for the
// variables whose value has the runner's shape:
// /…/_runner_file_commands/set_output_<uuid> (and step_summary_, set_env_,
// add_path_, save_state_). A value of another shape is not a file command
// (an agent setting GITHUB_OUTPUT=~/.bashrc gains nothing).
type FileCommands map[string]string

// FindFileCommands reads the file-command variables from getenv.
func FindFileCommands(getenv func(string) string) FileCommands {
	fc := FileCommands{}
	for name, prefix := range fileCommandVars {
		p := getenv(name)
		if p == "" || !filepath.IsAbs(p) || filepath.Clean(p) != p {
			continue
		}
		rest, ok := strings.CutPrefix(filepath.Base(p), prefix+"_")
		if ok && filepath.Base(filepath.Dir(p)) == "_runner_file_commands" && fileNameRE().MatchString(rest) {
			fc[name] = p
		}
	}
	return fc
}

// target returns the file-command variable a redirection target, as
// written, names: $NAME, ${NAME}, "$NAME" or "${NAME}".
func (fc FileCommands) target(source string) string {
	s := strings.TrimSuffix(strings.TrimPrefix(source, `"`), `"`)
	if len(s) != len(source)-2 && s != source {
		return "" // one quote only
	}
	s, ok := strings.CutPrefix(s, "$")
	if !ok {
		return ""
	}
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		s = s[1 : len(s)-1]
	}
	if _, ok := fc[s]; ok {
		return s
	}
	return ""
}

// Judge is how the export a $GITHUB_ENV or $GITHUB_PATH line amounts to
// is decided: the guard's Evaluate.
type Judge func(text string) guard.Outcome

// Decide re-decides, in o (the outcome of text), the writes to file-command
// files: a write to $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY or $GITHUB_STATE
// is decided on the file's real path, and an ask it gets only for being
// outside the workspace becomes allow; a write to $GITHUB_ENV or
// $GITHUB_PATH is, in addition, allowed only when its lines are static
// text guardsh can read (echo, printf without %, cat of a here-document)
// and each line, as `export NAME=VALUE` (or `export PATH=DIR:$PATH`), is
// allowed by judge; otherwise it keeps its verdict, with the reason. A
// deny stays a deny, and a rule or protected path that asks still asks.
// o.Decision and o.DecidedBy are recomputed.
func (fc FileCommands) Decide(text string, o *guard.Outcome, p *rules.Policy, ctx rules.Context, judge Judge) {
	if len(fc) == 0 || o.Err != nil {
		return
	}
	var file *syntax.File
	changed := false
	for i := range o.Segments {
		c := &o.Segments[i]
		seg := c.Segment
		name := ""
		if seg.Kind == interp.Write && len(seg.Args) == 1 && c.Verdict.Decision != rules.Deny && len(seg.Via) == 0 {
			name = fc.target(seg.Args[0].Source)
		}
		if name == "" {
			if v, ok := fc.mentionsEnvFile(c); ok {
				c.Verdict, changed = v, true
			}
			continue
		}
		real := seg
		real.Args = []interp.Word{{Value: fc[name], Source: seg.Args[0].Source}}
		v := p.Decide(guard.Subject(real), ctx)
		if v.Decision == rules.Deny || v.DecidedBy == rules.ByRule && v.Decision == rules.Ask || v.Protected != "" {
			c.Verdict, changed = v, true
			continue
		}
		allow := rules.Verdict{Decision: rules.Allow, Class: rules.Workspace, DecidedBy: rules.ByClass,
			Reason: "writes the runner's file command $" + name + " (CI)"}
		if name == "GITHUB_ENV" || name == "GITHUB_PATH" {
			if file == nil {
				file, _ = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
			}
			if w := judgeEnv(file, seg, name, judge); w.Decision != rules.Allow {
				c.Verdict, changed = w, true
				continue
			} else {
				allow.Reason = w.Reason
			}
		}
		c.Verdict, changed = allow, true
		// The runner's file lies outside what a jail writes: a command
		// that also runs something the jail would take runs none of it
		// jailed, which its refusal says (a new user's `make build;
		// echo built=1 >> "$GITHUB_OUTPUT"` asked with no reason given).
		c.OutsideJail = "the runner's file command $" + name
	}
	if !changed {
		return
	}
	o.Decision, o.DecidedBy = rules.Allow, "class"
	for i, c := range o.Segments {
		if i == 0 || c.Verdict.Decision > o.Decision {
			o.Decision, o.DecidedBy = c.Verdict.Decision, c.Verdict.DecidedBy
		}
	}
}

// mentionsEnvFile returns an ask for a segment, other than the plain
// write Decide judges, that names $GITHUB_ENV or $GITHUB_PATH and is not
// read-only: it may write the file by another way (`>> $GITHUB_ENV""`,
// `${GITHUB_ENV%%}`, `tee -a "$GITHUB_PATH"`, `bash -c '… >>
// $GITHUB_ENV'`, `python3 -c …os.environ["GITHUB_ENV"]…`; an attack run's
// finds), and what it writes would set later steps' environment unjudged.
// ok is false when the segment is left as it was.
func (fc FileCommands) mentionsEnvFile(c *guard.Checked) (rules.Verdict, bool) {
	if c.Verdict.Decision != rules.Allow || c.Verdict.Class == rules.ReadOnly && c.Segment.Kind == interp.Exec {
		return rules.Verdict{}, false
	}
	if _, ok := fc["GITHUB_ENV"]; !ok {
		if _, ok := fc["GITHUB_PATH"]; !ok {
			return rules.Verdict{}, false
		}
	}
	words := append(append([]interp.Word(nil), c.Segment.Assigns...), c.Segment.Args...)
	for _, w := range words {
		for _, name := range []string{"GITHUB_ENV", "GITHUB_PATH"} {
			if _, ok := fc[name]; ok && (strings.Contains(w.Source, name) || strings.Contains(w.Value, fc[name])) {
				v := c.Verdict
				v.Decision, v.DecidedBy = rules.Ask, rules.ByClass
				v.Reason = "names $" + name + ", which sets later steps' environment, other than as the plain target of a redirection (>> $" + name + ") whose lines guardsh can judge (CI)"
				return v, true
			}
		}
	}
	if c.Segment.Kind == interp.Write && len(c.Segment.Args) == 1 {
		// A target only known at run time that could be the file:
		// ${!v}, $(printenv …), a glob of its path (an attack run's
		// finds). `> "$OUT/log"` cannot: its literal end is not the
		// file's.
		t := c.Segment.Args[0].Value
		for _, name := range []string{"GITHUB_ENV", "GITHUB_PATH"} {
			if f, ok := fc[name]; ok && strings.Contains(t, interp.Hole) && holedCouldBe(t, f) {
				v := c.Verdict
				v.Decision, v.DecidedBy = rules.Ask, rules.ByClass
				v.Reason = "writes " + strings.ReplaceAll(t, interp.Hole, "…") + ", a path only known at run time that could be $" + name + ", which sets later steps' environment (CI)"
				return v, true
			}
		}
	}
	return rules.Verdict{}, false
}

// holedCouldBe reports whether word, whose run-time parts (interp.Hole)
// may be any text, could be path: its literal parts appear in path in
// order, the first at the start and the last at the end.
func holedCouldBe(word, path string) bool {
	parts := strings.Split(word, interp.Hole)
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return len(parts) == 1 && rest == "" || len(parts) > 1 && strings.HasSuffix(rest, last)
}

// judgeEnv decides the lines the statement redirecting at seg writes to
// $GITHUB_ENV or $GITHUB_PATH.
func judgeEnv(file *syntax.File, seg interp.Segment, name string, judge Judge) rules.Verdict {
	ask := func(why string) rules.Verdict {
		return rules.Verdict{Decision: rules.Ask, Class: rules.Sensitive, Sensitivity: "interpreter", DecidedBy: rules.ByClass,
			Reason: "writes $" + name + ", which sets later steps' environment: " + why}
	}
	if file == nil {
		return ask("the text was not parsed")
	}
	var stmt *syntax.Stmt
	var redir *syntax.Redirect
	syntax.Walk(file, func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Stmt); ok {
			for _, r := range s.Redirs {
				if int(r.OpPos.Line()) == seg.Line && int(r.OpPos.Col()) == seg.Col {
					stmt, redir = s, r
				}
			}
		}
		return stmt == nil
	})
	if stmt == nil {
		return ask("guardsh could not find the command that writes it")
	}
	lines, why := contentLines(stmt, redir)
	if why == "" {
		why = writersOverridden(file)
	}
	if why != "" {
		return ask(why)
	}
	for _, line := range lines {
		var export string
		if name == "GITHUB_PATH" {
			export = "export PATH=" + shellQuote(line) + `:"$PATH"`
		} else {
			n, v, ok := strings.Cut(line, "=")
			if !ok || !validName(n) {
				return ask(fmt.Sprintf("the line %q is not NAME=VALUE", line))
			}
			if what := laterStepsName(n, v); what != "" {
				// Set for this step's own commands, these are contained
				// (its build tool asks or runs jailed); set for the steps
				// after it, they run or fetch what this step chose there,
				// unguarded (attack run 84).
				return ask(fmt.Sprintf("%s names %s, which the steps after this one would use unguarded; neither the mode nor a rule lets one step set it for them: set it in the workflow's env:", n, what))
			}
			export = "export " + n + "=" + shellQuote(v)
		}
		o := judge(export)
		lax := o.Decision == rules.Allow && laxAllow(o)
		if lax {
			// Only the mode let it through (bypass): the next steps are
			// not this step's to change.
			o.Decision = rules.Ask
		}
		if o.Decision != rules.Allow {
			why := "as `" + export + "`"
			if len(o.Segments) > 0 {
				r := o.Segments[len(o.Segments)-1].Verdict.Reason
				if lax {
					r, _, _ = strings.Cut(r, "; mode bypass")
					if name == "GITHUB_PATH" {
						r += "; neither the mode nor a rule lets one step change the steps after it: run the program by its full path, or give the job a PATH that holds the directory in the workflow's env: (written out whole: env: cannot append to the runner's)"
					} else {
						r += "; neither the mode nor a rule lets one step set it for the steps after it: set it in the workflow's env:, or pass the value on as a step output ($GITHUB_OUTPUT, read as ${{ steps.ID.outputs.NAME }})"
					}
				}
				why += ": " + r
			}
			v := ask(why)
			v.Decision = o.Decision
			return v
		}
	}
	return rules.Verdict{Decision: rules.Allow, Class: rules.Workspace, DecidedBy: rules.ByClass,
		Reason: fmt.Sprintf("writes $%s (CI); its %d line(s), as exports, are allowed", name, len(lines))}
}

// writersOverridden says why, in file, echo, printf or cat may not be
// the builtin or program whose output contentLines reads, or more may be
// written while the redirection is open; "" when nothing can: a function
// definition (attack run 84: `echo() { printf 'BASH_ENV=…'; }` wrote its
// own line), an alias, a trap (a DEBUG trap's output lands inside the
// redirection), enable, hash, a PATH assignment (cat found elsewhere),
// BASH_XTRACEFD (set -x's trace written to the file), or code that may
// define any of them unseen (eval, source, ., a shell option's change).
func writersOverridden(file *syntax.File) string {
	why := ""
	syntax.Walk(file, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.FuncDecl:
			why = "the text defines a function, which could be named echo, printf or cat and write other lines"
		case *syntax.Assign:
			if n.Name != nil && (n.Name.Value == "PATH" || n.Name.Value == "BASH_XTRACEFD") {
				why = "the text assigns " + n.Name.Value + ", which changes what writes the lines"
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				break
			}
			name, ok := static(n.Args[0])
			if !ok {
				why = "a command whose name is only known at run time could define echo, printf or cat"
				break
			}
			switch name {
			case "alias", "trap", "enable", "hash", "eval", "source", ".", "shopt", "declare", "typeset", "export", "readonly", "local", "builtin", "command":
				if name == "export" || name == "declare" || name == "typeset" || name == "readonly" || name == "local" {
					// Only their -f (a function) and a PATH or
					// BASH_XTRACEFD operand matter; assignments are
					// Assign nodes.
					for _, w := range n.Args[1:] {
						v, ok := static(w)
						if !ok || strings.HasPrefix(v, "-") && strings.ContainsAny(v, "fF") ||
							strings.HasPrefix(v, "PATH") || strings.HasPrefix(v, "BASH_XTRACEFD") {
							why = "`" + name + "` may define a function or change PATH or BASH_XTRACEFD"
						}
					}
					break
				}
				if name == "builtin" || name == "command" {
					break
				}
				why = "`" + name + "` may change what echo, printf or cat run, or write lines of its own"
			}
		}
		return why == ""
	})
	return why
}

// contentLines returns the lines stmt writes, when they are static text
// guardsh can read; else why not.
func contentLines(stmt *syntax.Stmt, redir *syntax.Redirect) ([]string, string) {
	if len(stmt.Redirs) != 1 && !(len(stmt.Redirs) == 2 && isHeredoc(stmt.Redirs[0]) != isHeredoc(stmt.Redirs[1])) {
		return nil, "more than one redirection"
	}
	if redir.Op != syntax.AppOut && redir.Op != syntax.RdrOut {
		return nil, "not written with > or >>"
	}
	if b, ok := stmt.Cmd.(*syntax.Block); ok {
		// `{ echo A=1; echo B=2; } >> "$GITHUB_ENV"`: a group of such
		// commands, each on its own, separated by ; or newlines only (a
		// new user's find: the grouped form was refused).
		var lines []string
		for _, s := range b.Stmts {
			_, isCall := s.Cmd.(*syntax.CallExpr)
			if !isCall || s.Negated || s.Background || s.Coprocess || s.Disown || len(s.Redirs) > 0 && !(len(s.Redirs) == 1 && isHeredoc(s.Redirs[0])) {
				return nil, "written by a compound command other than a group of echo, printf and cat <<EOF"
			}
			l, why := callLines(s)
			if why != "" {
				return nil, why
			}
			lines = append(lines, l...)
		}
		return lines, ""
	}
	return callLines(stmt)
}

// callLines returns the lines stmt, a simple command (echo, printf, cat
// of a here-document), writes when they are static text; else why not.
func callLines(stmt *syntax.Stmt) ([]string, string) {
	call, ok := stmt.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 || len(call.Assigns) > 0 {
		return nil, "written by a compound command"
	}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		s, ok := static(w)
		if !ok {
			return nil, "its text is only known at run time (a value could hold a newline and set any variable)"
		}
		words = append(words, s)
	}
	var text string
	switch words[0] {
	case "echo":
		args := words[1:]
		if len(args) > 0 && strings.HasPrefix(args[0], "-") {
			return nil, "echo with an option"
		}
		text = strings.Join(args, " ")
		if strings.Contains(text, `\`) {
			return nil, "a backslash"
		}
	case "printf":
		if len(words) != 2 || strings.ContainsAny(words[1], "%") || strings.Contains(strings.ReplaceAll(words[1], `\n`, ""), `\`) {
			return nil, "printf with arguments, % or escapes other than \\n"
		}
		text = strings.ReplaceAll(words[1], `\n`, "\n")
	case "cat":
		var hd *syntax.Redirect
		for _, r := range stmt.Redirs {
			if isHeredoc(r) {
				hd = r
			}
		}
		if len(words) != 1 || hd == nil {
			return nil, "cat of something other than a here-document"
		}
		s, ok := static(hd.Hdoc)
		if hd.Hdoc != nil && !ok {
			return nil, "a here-document with run-time parts"
		}
		text = s
	default:
		return nil, words[0] + " writes it"
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, ""
}

// laxAllow reports an allowed export that only the mode allowed: a
// sensitive segment no allow rule names.
func laxAllow(o guard.Outcome) bool {
	for _, c := range o.Segments {
		if c.Verdict.Class == rules.Sensitive && c.Verdict.DecidedBy != rules.ByRule {
			return true
		}
	}
	return false
}

func isHeredoc(r *syntax.Redirect) bool { return r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc }

// static returns the value of w when no part of it is only known at run
// time.
func static(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	var walk func(parts []syntax.WordPart) bool
	walk = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				if p.Dollar {
					return false
				}
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				if p.Dollar || !walk(p.Parts) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !walk(w.Parts) {
		return "", false
	}
	return b.String(), true
}

// laterStepNames are variables, beyond those the rules take as changing
// what a command runs (rules: dangerousNames), that choose for a later
// step a program, a toolchain, a plug-in, a config that names programs,
// where packages come from or which certificates are trusted; each maps
// to what it names. Sources: the tools' documentation of their
// environment (gcc(1) and make's implicit variables, cmake(1), ccache(1),
// cargo's and rustup's, the go command's `go help environment`, Gradle's,
// Maven's, Yarn's, pip's and uv's configuration by environment, the AWS,
// Docker and Kubernetes clients', OpenSSL's and Node's certificate
// variables, the GitHub runner's ACTIONS_* and RUNNER_*). laterStepPrefixes
// are whole families (a tool that reads any of its settings from
// NAME_PREFIX + setting).
var laterStepNames = map[string]string{
	"CC": "a compiler", "CXX": "a compiler", "CPP": "a preprocessor", "FC": "a compiler", "F77": "a compiler",
	"LD": "a linker", "AR": "an archiver", "AS": "an assembler", "NM": "a tool", "RANLIB": "a tool",
	"STRIP": "a tool", "OBJCOPY": "a tool", "OBJDUMP": "a tool",
	"CFLAGS": "compiler flags (-fplugin loads code)", "CXXFLAGS": "compiler flags (-fplugin loads code)",
	"CPPFLAGS": "compiler flags", "LDFLAGS": "linker flags", "FFLAGS": "compiler flags",
	"RUSTFLAGS": "compiler flags (-C linker= runs a program)", "RUSTDOCFLAGS": "compiler flags", "RUSTC": "a compiler",
	"RUSTDOC": "a program", "RUSTUP_TOOLCHAIN": "a toolchain", "RUSTUP_HOME": "toolchains", "RUSTUP_DIST_SERVER": "where toolchains come from",
	"GOROOT": "a toolchain", "GOTOOLDIR": "a toolchain", "GOPROXY": "where modules come from",
	"GOSUMDB": "whose checksums are trusted", "GOINSECURE": "modules fetched insecurely", "GOPATH": "the module cache and installed programs",
	"JAVA_HOME": "a Java runtime", "GRADLE_USER_HOME": "Gradle's init scripts", "GRADLE_HOME": "a Gradle installation",
	"MAVEN_HOME": "a Maven installation", "M2_HOME": "a Maven installation", "MAVEN_CONFIG": "Maven's settings", "ANT_HOME": "an Ant installation",
	"ANT_OPTS": "JVM options", "SBT_HOME": "an sbt installation", "DOTNET_ROOT": "a .NET runtime", "DOTNET_HOST_PATH": "a .NET host",
	"PNPM_HOME": "pnpm's programs", "VIRTUAL_ENV": "a Python environment", "CONDARC": "conda's config", "PIPX_HOME": "pipx's programs",
	"NODE_EXTRA_CA_CERTS": "trusted certificates", "SSL_CERT_FILE": "trusted certificates", "SSL_CERT_DIR": "trusted certificates",
	"REQUESTS_CA_BUNDLE": "trusted certificates", "CURL_CA_BUNDLE": "trusted certificates", "AWS_CA_BUNDLE": "trusted certificates",
	"R_PROFILE_USER": "R's start-up code", "R_PROFILE": "R's start-up code", "R_ENVIRON_USER": "R's start-up settings", "R_LIBS_USER": "R's packages",
	"IRBRC": "Ruby's start-up code", "GEMRC": "RubyGems' config", "PHPRC": "PHP's config (auto_prepend_file)", "PHP_INI_SCAN_DIR": "PHP's config",
	"COMPOSER_HOME": "Composer's config and plug-ins", "HGRCPATH": "Mercurial's config (hooks)",
	"DOCKER_CONFIG": "Docker's config (credential helpers)", "DOCKER_HOST": "which Docker daemon runs containers",
	"KUBECONFIG": "a cluster config (exec plug-ins)", "AWS_CONFIG_FILE": "an AWS config (credential_process)",
	"AWS_SHARED_CREDENTIALS_FILE": "AWS credentials", "CLOUDSDK_CONFIG": "gcloud's config", "AZURE_CONFIG_DIR": "Azure's config",
	"TF_CLI_CONFIG_FILE": "Terraform's config (provider sources)", "TF_PLUGIN_CACHE_DIR": "Terraform's providers",
	"PKG_CONFIG_PATH": "pkg-config files (compiler flags)", "PKG_CONFIG_LIBDIR": "pkg-config files (compiler flags)", "ACLOCAL_PATH": "autoconf macros",
	"XDG_DATA_HOME": "data and plug-ins", "XDG_DATA_DIRS": "data and plug-ins", "XDG_CONFIG_DIRS": "config files",
	"AGENT_TOOLSDIRECTORY": "the runner's tool cache", "VIMINIT": "Vim's start-up commands", "EXINIT": "ex's start-up commands",
	"MYVIMRC": "Vim's start-up file", "INPUTRC": "readline's config", "EMACSLOADPATH": "Emacs's code",
}

var laterStepPrefixes = map[string]string{
	"CARGO_": "cargo settings (a target's runner or linker)", "CMAKE_": "CMake settings (compiler launchers, toolchain files)",
	"CCACHE_": "ccache settings (a compiler prefix)", "DISTCC_": "distcc settings", "YARN_": "Yarn settings (yarnPath runs a file)",
	"COREPACK_": "Corepack settings (where package managers come from)", "PIP_": "pip settings (the package index)",
	"UV_": "uv settings (the package index)", "POETRY_": "Poetry settings", "PIPENV_": "Pipenv settings", "CONDA_": "conda settings",
	"BUNDLE_": "Bundler settings", "NUGET_": "NuGet settings (package sources)", "HELM_": "Helm settings (plug-ins)",
	"ACTIONS_": "the runner's own settings", "RUNNER_": "the runner's own settings", "CGO_": "cgo's compiler and flags",
	"GRADLE_": "Gradle settings", "DOTNET_": ".NET settings", "R_LIBS": "R's packages",
}

// byName are the laterStepNames that name one program, which a bare
// name (no slash, space or flag: CC=clang) leaves to be looked up on
// PATH, as any command's program is.
var byName = map[string]bool{"CC": true, "CXX": true, "CPP": true, "FC": true, "F77": true, "LD": true, "AR": true,
	"AS": true, "NM": true, "RANLIB": true, "STRIP": true, "OBJCOPY": true, "OBJDUMP": true, "RUSTC": true, "RUSTDOC": true}

// laterStepsName returns what name names for the steps after this one
// when it is one of laterStepNames or laterStepPrefixes (and value not
// a bare program name where byName allows one), else "".
func laterStepsName(name, value string) string {
	if byName[name] && value != "" && value[0] != '-' && strings.Trim(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == "" {
		return ""
	}
	if what, ok := laterStepNames[name]; ok {
		return what
	}
	for p, what := range laterStepPrefixes {
		if strings.HasPrefix(name, p) {
			return what
		}
	}
	return ""
}

func validName(n string) bool {
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return false
	}
	for _, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
