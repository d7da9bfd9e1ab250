package guard

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/rules"
)

// contain turns an Ask into a jailed Allow when the policy's sandbox is on
// and every segment that asks could be contained by the jail (see
// rules.Sandboxable); under sandbox: strict an allowed command runs jailed
// too. When the jail is needed but g.SandboxUnavailable says the kernel
// cannot provide it, o keeps asking and says why in o.SandboxNote. A deny,
// a command not understood, or any segment asking for another reason is
// left as it is: the sandbox widens nothing a rule forbids.
func (g *Guard) contain(o *Outcome) {
	sb := g.Policy.Sandbox
	if !sb.On() || o.Err != nil || o.Decision == rules.Deny {
		return
	}
	unavailable := g.unavailable()
	mode := g.mode()
	if o.Decision == rules.Allow {
		if sb.Mode == rules.SandboxStrict && mode != rules.Bypass {
			if unavailable != "" {
				o.SandboxNote = unavailable
				o.Decision, o.DecidedBy = rules.Ask, "sandbox"
				return
			}
			o.jailed(sb.Mode)
		}
		return
	}
	for _, c := range o.Segments {
		if c.Verdict.Decision != rules.Allow && !rules.Sandboxable(c.Verdict, mode) {
			return
		}
	}
	if unavailable != "" {
		o.SandboxNote = unavailable
		return
	}
	for i := range o.Segments {
		c := &o.Segments[i]
		if c.Verdict.Decision == rules.Ask {
			c.Sandboxed = true
			c.Verdict.Decision = rules.Allow
			c.Verdict.Reason += "; runs inside the sandbox (sandbox: " + string(sb.Mode) + ")"
			c.Verdict.Suggest = ""
		}
	}
	o.Decision, o.DecidedBy = rules.Allow, "sandbox"
	o.jailed(sb.Mode)
}

// jailed marks o to run inside the jail of sandbox mode m.
func (o *Outcome) jailed(m rules.SandboxMode) {
	o.Sandbox, o.Network = true, network(o.Segments)
	o.SandboxNote = string(m)
	if o.Network {
		o.SandboxNote += ", network"
	}
}

// network reports whether an allowed segment reaches the network (an
// allow rule let it), so that the jail must let TCP through.
func network(segs []Checked) bool {
	for _, c := range segs {
		if c.Verdict.Decision == rules.Allow && c.Verdict.Sensitivity == rules.Network {
			return true
		}
	}
	return false
}

// Jail returns the jail o runs in: writes beneath the workspace, the temp
// directories and the policy's sandbox.write paths; no reads of the
// policy's secrets (rules.Policy.HiddenPaths), of guardsh's own
// configuration directory, or of the context's protected paths (guardsh's
// config files, audit log and caches) except self, guardsh's binary,
// which a jailed command may run; TCP only when o.Network.
func (g *Guard) Jail(o Outcome, self string) sandbox.Spec {
	ctx := g.Context
	var spec sandbox.Spec
	if ctx.Workspace != "" {
		spec.Write = append(spec.Write, ctx.Workspace)
	}
	tmp := ctx.TempDirs
	if tmp == nil {
		tmp = []string{os.TempDir(), "/tmp"}
	}
	for _, t := range tmp {
		// As for the analysis: "/" or a directory holding home is no
		// temp directory.
		if t = filepath.Clean(t); t != "/" && (ctx.Home == "" || !strings.HasPrefix(ctx.Home+"/", t+"/")) {
			spec.Write = append(spec.Write, t)
		}
	}
	for _, w := range g.Policy.Sandbox.Write {
		if rest, ok := strings.CutPrefix(w, "~/"); ok {
			if ctx.Home == "" {
				continue
			}
			w = filepath.Join(ctx.Home, rest)
		}
		spec.Write = append(spec.Write, w)
	}
	spec.Hidden = g.Policy.HiddenPaths(ctx.Home, cmp.Or(ctx.Root, ctx.Workspace))
	if ctx.Home != "" {
		spec.Hidden = append(spec.Hidden, filepath.Join(ctx.Home, ".config", "guardsh"))
	}
	for _, p := range ctx.Protected {
		p = strings.TrimSuffix(p, "/*")
		if ctx.Workspace != "" && (p == ctx.Workspace || strings.HasPrefix(p, ctx.Workspace+"/")) {
			continue // kept and restored instead (see Keep): hiding it would carve the workspace
		}
		if filepath.IsAbs(p) && p != self && !strings.ContainsAny(p, "*?[") {
			spec.Hidden = append(spec.Hidden, p)
		}
	}
	spec.Network = o.Network
	return spec
}

// unavailable says why no command may run jailed here, "" when one may:
// the kernel's (SandboxUnavailable), or a read rule that names a place
// inside the workspace. Landlock cannot hide a place below a directory
// the jail may write without taking from the jail the right to make files
// in that directory, so such a workspace gets no jail: what would run in
// it asks (an attack run read a workspace-relative read-deny path from
// the jail).
func (g *Guard) unavailable() string {
	if g.SandboxUnavailable != "" {
		return g.SandboxUnavailable
	}
	ws := g.Context.Workspace
	if ws == "" {
		return ""
	}
	for _, h := range g.Policy.HiddenPaths(g.Context.Home, cmp.Or(g.Context.Root, ws)) {
		if h == ws || strings.HasPrefix(h, ws+"/") {
			return "unavailable (read rule names " + h + ", inside the workspace)"
		}
	}
	return ""
}

// Keep records the protected paths inside the workspace, and the places
// the policy's write deny and ask rules name there, before a jailed
// command runs (sandbox.Keep of KeepPaths), so that what the jail could
// write there is put back afterwards; nil without a workspace.
func (g *Guard) Keep() *sandbox.Kept {
	files, dirs, ok := g.KeepPaths()
	if !ok {
		return nil
	}
	return sandbox.Keep(files, dirs)
}

// KeepPaths returns what Keep records, as absolute paths: the files and
// the directories (whose entries are kept too) of rules.WorkspaceProtected
// in the workspace, the places the policy's write deny and ask rules name
// inside it (rules.Policy.WriteGuarded), and the protected paths guardsh
// found for this workspace; ok is false without a workspace.
func (g *Guard) KeepPaths() (files, dirs []string, ok bool) {
	ws := g.Context.Workspace
	if ws == "" {
		return nil, nil, false
	}
	files, dirs = rules.WorkspaceProtected()
	for i := range files {
		files[i] = filepath.Join(ws, files[i])
	}
	for i := range dirs {
		dirs[i] = filepath.Join(ws, dirs[i])
	}
	// The policy's write deny and ask rules inside the workspace: the jail
	// could write there unseen.
	base := ws
	if g.Context.Root != "" {
		base = g.Context.Root
	}
	wf, wd := g.Policy.WriteGuarded(g.Context.Home, base)
	inside := func(p string) bool { return strings.HasPrefix(p, ws+"/") }
	for _, f := range wf {
		if inside(f) {
			files = append(files, f)
		}
	}
	for _, d := range wd {
		if inside(d) {
			dirs = append(dirs, d)
		}
	}
	// The protected paths guardsh found for this workspace (a
	// core.hooksPath such as .husky): "DIR/*" keeps the directory.
	for _, p := range g.Context.Protected {
		if d, ok := strings.CutSuffix(p, "/*"); ok && inside(d) {
			dirs = append(dirs, d)
		} else if !strings.Contains(p, "*") && inside(p) {
			if info, err := os.Lstat(p); err != nil || !info.IsDir() {
				files = append(files, p)
			}
		}
	}
	return files, dirs, true
}
