package rules

import (
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// SandboxMode is what runs inside a Landlock jail instead of asking.
type SandboxMode string

const (
	// SandboxOff (the default): nothing runs jailed; what asks, asks.
	SandboxOff SandboxMode = "off"
	// SandboxWorkspace: in modes ask and auto, a command that would ask
	// only because a segment is an unknown program, an interpreter or a
	// workspace write runs inside the jail instead (see Sandboxable).
	SandboxWorkspace SandboxMode = "workspace"
	// SandboxStrict: as SandboxWorkspace, and every other command that
	// runs runs inside the jail too.
	SandboxStrict SandboxMode = "strict"
)

// SandboxConfig is the `sandbox:` setting: a mode alone
// (`sandbox: workspace`) or a mapping
// (`sandbox: {mode: workspace, write: [~/.cache/go-build]}`).
type SandboxConfig struct {
	// Mode is SandboxOff, SandboxWorkspace or SandboxStrict; empty when
	// the file does not set one (off).
	Mode SandboxMode
	// Write are extra directories the jail may write beneath, as written
	// in the file: absolute or "~/…" (expand with ExpandHome).
	Write []string
	// Source is where Mode was set, "FILE:LINE"; empty when unset.
	Source string
	// OffBy is set when a project file turned off the sandbox the
	// system or user config turns on: where it did, "FILE:LINE"; Wanted
	// is the mode it turned off. What a jail would have contained asks
	// then: what would ask, as it does without a sandbox, and what the
	// jail would have taken because an earlier jailed command may have
	// planted it (a repository's config, a program on PATH), and under
	// strict every command: a project file may only tighten.
	OffBy  string
	Wanted SandboxMode
}

// On reports whether commands may run jailed.
func (c SandboxConfig) On() bool {
	return c.Mode == SandboxWorkspace || c.Mode == SandboxStrict
}

// sandbox parses the `sandbox:` node. Errors name the line: an unknown
// mode, a key other than mode and write, a write path that is neither
// absolute nor "~/…".
func (ps *parser) sandbox(n *yaml.Node) error {
	n = deref(n)
	mode := n
	if n.Kind == yaml.MappingNode {
		f, err := ps.mapping(n, "sandbox", "mode", "write")
		if err != nil {
			return err
		}
		mode = f["mode"]
		if w := f["write"]; w != nil {
			w = deref(w)
			if w.Kind != yaml.SequenceNode {
				return ps.errorf(w, "sandbox.write: must be a list of paths, got %s", kindName(w))
			}
			for _, item := range w.Content {
				s, err := ps.str(item, "sandbox.write")
				if err != nil {
					return err
				}
				if !(filepath.IsAbs(s) || strings.HasPrefix(s, "~/")) || strings.ContainsAny(s, "*\x00") {
					return ps.errorf(item, "sandbox.write: %q must be an absolute path or start with ~/ (no patterns)", s)
				}
				ps.p.Sandbox.Write = append(ps.p.Sandbox.Write, s)
			}
		}
		if mode == nil {
			return ps.errorf(n, "sandbox: the mapping needs mode: off, workspace or strict")
		}
	}
	s, err := ps.str(mode, "sandbox")
	if err != nil {
		return err
	}
	switch m := SandboxMode(s); m {
	case SandboxOff, SandboxWorkspace, SandboxStrict:
		ps.p.Sandbox.Mode = m
	default:
		return ps.errorf(mode, "sandbox: unknown mode %q (off, workspace or strict)", s)
	}
	ps.p.Sandbox.Source = ps.file + ":" + itoa(mode.Line)
	return nil
}

// mergeSandbox gives the effective sandbox setting of the layers: the
// user's, else the system's; a project file may only turn it off (which
// asks more), anything else it says is ignored with a warning.
func mergeSandbox(l Layers, warnAt func(file string, line int, format string, args ...any)) SandboxConfig {
	var out SandboxConfig
	for _, p := range []*Policy{l.System, l.User} {
		if p != nil && p.Sandbox.Mode != "" {
			out.Mode, out.Source = p.Sandbox.Mode, p.Sandbox.Source
		}
		if p != nil {
			out.Write = append(out.Write, p.Sandbox.Write...)
		}
	}
	for _, p := range l.projects() {
		if p.Sandbox.Mode == "" && len(p.Sandbox.Write) == 0 {
			continue
		}
		if p.Sandbox.Mode == SandboxOff && len(p.Sandbox.Write) == 0 {
			if out.On() {
				out.OffBy, out.Wanted = p.Sandbox.Source, out.Mode
			}
			out.Mode, out.Source = SandboxOff, p.Sandbox.Source
		} else {
			warnAt(p.File, sourceLine(p.Sandbox.Source), "a project file may only turn the sandbox off; sandbox setting ignored")
		}
	}
	return out
}

// Sandboxable reports whether v asks only because of what its segment is
// (an unknown program, an interpreter, or in mode ask a workspace write),
// which a jail can contain: not a rule (deny, could-match-deny, ask), not
// a protected path or secret, not the network, privilege, destruction or
// a write outside the workspace, and not code whose content a deny rule
// could forbid. Only modes ask and auto jail; approve asks a human for
// everything by choice.
func Sandboxable(v Verdict, mode Mode) bool {
	if v.Decision != Ask || v.DecidedBy != ByClass || v.Rule != nil || v.Protected != "" {
		return false
	}
	if mode != AskMode && mode != Auto && mode != "" {
		return false
	}
	switch v.Class {
	case Sensitive:
		return v.Sensitivity == UnknownProgram || v.Sensitivity == Interpreter
	case Workspace:
		// In auto a workspace write that asks does so because code it
		// runs could be anything a deny rule forbids.
		return mode != Auto
	}
	return false
}

// HiddenPaths returns the absolute paths a jail must not read: the
// literal directory or file of every built-in secret pattern and of the
// policy's read deny and ask rules (`~/.ssh/id_*` hides ~/.ssh; a pattern
// that starts with a wildcard, such as `/*/.env`, names no place and is
// left to the analysis): "~/" patterns under home, relative ones under
// base (the workspace's top; "" leaves them out).
func (p *Policy) HiddenPaths(home, base string) []string {
	var out []string
	p.hidden(home, base, func(path, _ string) { out = append(out, path) })
	return out
}

// HiddenPathSource returns where the rule that hides path h (one of
// HiddenPaths(home, base)) is written, "FILE:LINE", or "built in" for a
// built-in secret; "" when none does.
func (p *Policy) HiddenPathSource(home, base, h string) string {
	src := ""
	p.hidden(home, base, func(path, from string) {
		if path == h && src == "" {
			src = from
		}
	})
	return src
}

// hidden calls f with each path HiddenPaths returns and the source of
// the rule that gives it.
func (p *Policy) hidden(home, base string, f func(path, source string)) {
	add := func(pat, source string) {
		if rest, ok := strings.CutPrefix(pat, "~/"); ok {
			if home == "" {
				return
			}
			pat = filepath.Join(home, rest)
		} else if !filepath.IsAbs(pat) && base != "" && !strings.HasPrefix(pat, "*") {
			// A relative pattern names a place in the workspace, as
			// for the analysis (an attack run read wsecret/key.txt in
			// the jail, which `cat` outside it could not).
			pat = filepath.Join(base, pat)
		}
		if !filepath.IsAbs(pat) {
			return
		}
		if i := strings.IndexAny(pat, "*?["); i >= 0 {
			pat = filepath.Dir(pat[:i+1])
		}
		pat = filepath.Clean(pat)
		if pat == "/" || pat == home {
			return
		}
		f(pat, source)
	}
	for _, r := range builtinSecrets {
		add(r.Pattern, "built in")
	}
	for _, r := range p.rules {
		if r.Section == "read" && r.Decision != Allow {
			add(r.Pattern, r.Source())
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// sourceLine is the line of a "FILE:LINE" source, 0 when none.
func sourceLine(src string) int {
	i := strings.LastIndexByte(src, ':')
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range src[i+1:] {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// WorkspaceProtected returns the protected paths a workspace may hold,
// relative to its root: files (.git/config, agent and editor settings,
// the project's .guardsh.yaml) and directories whose every entry is
// protected (.git/hooks, .codex). They come from the built-in protected
// patterns of the form "*/NAME" (see builtinProtected); all of .git is
// protected, but only the parts git runs code from are listed.
func WorkspaceProtected() (files, dirs []string) {
	// HEAD at the top: with .git made invalid, git takes a workspace
	// holding HEAD, objects and refs for a bare repository and runs its
	// config (an attack run's core.fsmonitor in a plain git status).
	files = []string{".git/config", ".git/config.worktree", ".git/commondir", ".git/info/attributes", ".guardsh.yaml", "HEAD"}
	// A rebase or cherry-pick in progress: its todo's exec lines run
	// when a human continues it (an attack run planted one).
	dirs = []string{".git/hooks", ".git/rebase-merge", ".git/rebase-apply", ".git/sequencer"}
	for _, p := range builtinProtected {
		rest, ok := strings.CutPrefix(p, "*/")
		switch {
		case !ok || strings.HasPrefix(rest, ".git/"):
		case strings.HasSuffix(rest, "/*") && !strings.Contains(strings.TrimSuffix(rest, "/*"), "*"):
			dirs = append(dirs, strings.TrimSuffix(rest, "/*"))
		case !strings.Contains(rest, "*"):
			files = append(files, rest)
		}
	}
	return files, dirs
}

// WriteGuarded returns the literal paths of the policy's write deny and ask
// rules, expanded against home and base (the workspace root, for relative
// patterns): a file for an exact pattern, the directory before the first
// wildcard otherwise ("secrets/*" guards base/secrets). A jail that may
// write the workspace could write them unseen, so guardsh keeps and puts
// back those inside it (see WorkspaceProtected). Patterns that start with a
// wildcard name no place and are left out.
func (p *Policy) WriteGuarded(home, base string) (files, dirs []string) {
	for i := range p.rules {
		r := &p.rules[i]
		if r.Section != "write" || r.Decision == Allow {
			continue
		}
		pat := newPathRule(r).expand(home, base)
		if pat == "" || strings.HasPrefix(pat, "*") {
			continue
		}
		if i := strings.IndexAny(pat, "*?["); i >= 0 {
			dirs = append(dirs, filepath.Dir(pat[:i+1]))
			continue
		}
		files = append(files, pat)
	}
	return files, dirs
}

// HomeProtected returns the built-in protected paths that no workspace
// holds by name (see builtinProtected): the files (shell start-up files,
// ~/.gitconfig, ~/.config/git/config, ~/.claude.json …) and the
// directories whose every entry is protected (~/.ssh, ~/.claude,
// /etc/guardsh …), absolute and clean, "~/" expanded against home (those
// under home are left out when home is ""). A jail writes none of them
// by name, but one may be a symbolic link to a place a jail writes (a
// dotfiles repository), which guardsh then keeps and puts back.
func HomeProtected(home string) (files, dirs []string) {
	isDir := map[string]bool{}
	var order []string
	for _, p := range builtinProtected {
		if strings.HasPrefix(p, "*") {
			continue
		}
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if home == "" {
				continue
			}
			p = filepath.Join(home, rest)
		}
		d, dir := strings.CutSuffix(p, "/*")
		d = filepath.Clean(d)
		if _, seen := isDir[d]; !seen {
			order = append(order, d)
		}
		isDir[d] = isDir[d] || dir
	}
	for _, p := range order {
		if isDir[p] {
			dirs = append(dirs, p)
		} else {
			files = append(files, p)
		}
	}
	return files, dirs
}
