package rules

import (
	"cmp"
	"fmt"
)

// Layers are the config files of one user, by trust, highest first (see
// Merge). A nil layer is absent.
type Layers struct {
	// System is /etc/guardsh/config.yaml: the administrator's defaults,
	// and the only layer whose lock_mode is obeyed.
	System *Policy
	// User is $XDG_CONFIG_HOME/guardsh/config.yaml (or the embedded
	// default when the user has none).
	User *Policy
	// Project is .guardsh.yaml at the workspace root. A cloned repository
	// is untrusted: only its ask and deny rules count.
	Project *Policy
}

// Merge returns the effective policy of the layers and the warnings to
// show for what a layer set but may not (each a Finding with file and,
// where one applies, line):
//
//   - rules: the union of every layer's rules, in layer order; since any
//     matching deny wins, then ask, then allow, a layer adds protection
//     but cannot take any away. The project's allow rules and readonly
//     patterns are ignored with a warning (they would loosen).
//   - mode: the user's, else the system's, else unset (ask). A system
//     config with lock_mode: true makes its mode the loosest possible:
//     a looser user mode is ignored with a warning. lock_mode outside the
//     system config, and a project's mode, are ignored with a warning.
//   - shell: the user's, else the system's; audit.path: the system's,
//     else the user's (an administrator reads the log where the system
//     config puts it; a user's other path is ignored with a warning). A
//     project's are ignored with a warning (a repository must not choose
//     the program that runs commands or where their record goes).
//   - approval: the user's, else the system's, else DefaultApproval; but
//     approval.headless may not be looser (deny < wait < allow) than the
//     system's, which then holds, with a warning. A project's approval is
//     ignored with a warning (headless: allow would loosen).
//   - llm: the user's, else the system's; a project's is ignored with a
//     warning.
//   - sandbox: the user's, else the system's (extra write paths of
//     both); a project may only turn it off.
//   - pty, record, record_input, record_max_bytes: see TerminalConfig.
//   - audit.required: true unless a layer sets it false and no layer sets
//     it true (the default is true).
//
// The result's File is the user's file (else the system's, else the
// project's); each rule keeps its own File and Line.
func Merge(l Layers) (*Policy, []Finding) {
	var warnings []Finding
	warnAt := func(file string, line int, format string, args ...any) {
		warnings = append(warnings, Finding{File: file, Line: line, Severity: SeverityWarning, Problem: fmt.Sprintf(format, args...)})
	}
	warn := func(p *Policy, format string, args ...any) { warnAt(p.File, 0, format, args...) }
	if l.System == nil && l.Project == nil && l.User != nil && !l.User.LockMode {
		return l.User, nil // one layer: it is the effective policy
	}
	out := &Policy{Audit: AuditConfig{Required: true}, Approval: DefaultApproval}
	setFalse, setTrue := false, false
	for _, p := range []*Policy{l.User, l.System} { // the system's win
		if p == nil {
			continue
		}
		a := p.Audit
		out.Audit.Anchor = cmp.Or(a.Anchor, out.Audit.Anchor)
		out.Audit.Syslog = cmp.Or(a.Syslog, out.Audit.Syslog)
		out.Audit.MaxBytes = cmp.Or(a.MaxBytes, out.Audit.MaxBytes)
		out.Audit.Path = cmp.Or(a.Path, out.Audit.Path)
		out.Audit.Fsync = out.Audit.Fsync || a.Fsync
		out.Audit.Redact = append(out.Audit.Redact, a.Redact...)
	}
	for _, p := range []*Policy{l.System, l.User} {
		if p == nil {
			continue
		}
		out.File = p.File
		if p.Shell != "" {
			out.Shell = p.Shell
		}
		if p.Approval.Line > 0 {
			out.Approval = p.Approval
		}
		if p.LLM.Set {
			out.LLM = p.LLM
		}
		if p.Audit.RequiredSet {
			setFalse = setFalse || !p.Audit.Required
			setTrue = setTrue || p.Audit.Required
		}
		out.rules = append(out.rules, p.rules...)
	}
	if s, u := l.System, l.User; s != nil && u != nil && s.Approval.Line > 0 && u.Approval.Line > 0 &&
		headlessRank[u.Approval.Headless] > headlessRank[s.Approval.Headless] {
		warnAt(u.File, u.Approval.Line, "approval.headless: %s is looser than %s in %s; ignored", u.Approval.Headless, s.Approval.Headless, s.File)
		out.Approval.Headless = s.Approval.Headless
	}
	if s, u := l.System, l.User; s != nil && u != nil && s.Audit.Path != "" && u.Audit.Path != "" && u.Audit.Path != s.Audit.Path {
		warnAt(u.File, u.auditLine, "audit.path %s: the system config %s puts the log at %s; ignored", u.Audit.Path, s.File, s.Audit.Path)
	}
	if setFalse && !setTrue {
		out.Audit.Required = false
	}
	if l.User != nil && l.User.LockMode {
		warn(l.User, "lock_mode only has effect in the system config (/etc/guardsh/config.yaml); ignored")
	}
	switch s, u := l.System, l.User; {
	case u != nil && u.Mode != "" && s != nil && s.LockMode && s.Mode != "" && !(u.Mode == s.Mode || u.Mode.Stricter(s.Mode)):
		warnAt(u.File, u.modeLine, "mode %s is looser than mode %s, which %s locks; ignored", u.Mode, s.Mode, s.ModeSource)
		out.Mode, out.ModeSource, out.LockMode = s.Mode, s.ModeSource, true
	case u != nil && u.Mode != "":
		out.Mode, out.ModeSource = u.Mode, u.ModeSource
		out.LockMode = s != nil && s.LockMode && s.Mode != ""
	case s != nil:
		out.Mode, out.ModeSource, out.LockMode = s.Mode, s.ModeSource, s.LockMode && s.Mode != ""
	}
	if p := l.Project; p != nil {
		if out.File == "" {
			out.File = p.File
		}
		if p.Mode != "" {
			warnAt(p.File, p.modeLine, "a project file may not set the mode (%s); ignored", p.Mode)
		}
		if p.LockMode {
			warn(p, "a project file may not lock the mode; ignored")
		}
		if p.Shell != "" {
			warnAt(p.File, p.shellLine, "a project file may not choose the shell (%s); ignored", p.Shell)
		}
		if p.Approval.Line > 0 {
			warnAt(p.File, p.Approval.Line, "a project file may not change how approvals are asked (approval:); ignored")
		}
		if a := p.Audit; a.Path != "" || a.RequiredSet || a.Anchor != "" || a.MaxBytes != 0 || a.Fsync || a.Syslog != "" || len(a.Redact) > 0 {
			warnAt(p.File, p.auditLine, "a project file may not change the audit settings; ignored")
		}
		if p.LLM.Set {
			warnAt(p.File, p.LLM.Line, "a project file may not configure the llm (where commands are sent, and who may approve them); ignored")
		}
		for _, r := range p.rules {
			switch {
			case r.Section == "readonly":
				warnAt(r.File, r.Line, "a project file may not declare commands read-only (%q); ignored", r.Pattern)
			case r.Decision == Allow:
				warnAt(r.File, r.Line, "a project file may only add ask and deny rules; allow rule %q ignored", r.Pattern)
			default:
				out.rules = append(out.rules, r)
			}
		}
	}
	out.Sandbox = mergeSandbox(l, warnAt)
	out.Terminal = mergeTerminal(l, warnAt)
	out.build()
	return out, warnings
}

// Tighten returns the mode to use when a lower-trust source (the
// environment, a flag) asks for mode want under the configured mode:
// want when it is at least as strict, else the configured mode and false.
func Tighten(configured, want Mode) (Mode, bool) {
	if configured == "" {
		configured = AskMode
	}
	if want == configured || want.Stricter(configured) {
		return want, true
	}
	return configured, false
}

// headlessRank orders approval.headless values from strictest.
var headlessRank = map[string]int{"deny": 0, "wait": 1, "allow": 2}
