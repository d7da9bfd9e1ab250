package rules

import "testing"

// TestMergeProjects: every project file (an enclosing directory's, a
// nested work tree's) is taken as the project layer is: its deny and ask
// rules added, its allow rules ignored with a warning naming it.
func TestMergeProjects(t *testing.T) {
	user := parseAs(t, "mode: auto\nrules:\n  shell:\n    allow: [\"make *\"]\n", "user.yaml")
	outer := parseAs(t, "rules:\n  shell:\n    deny: [\"make deploy*\"]\n", "proj/.guardsh.yaml")
	inner := parseAs(t, "rules:\n  shell:\n    ask: [\"make release*\"]\n    allow: [\"rm *\"]\n", "proj/sub/.guardsh.yaml")
	p, warnings := Merge(Layers{User: user, Projects: []*Policy{outer, inner}})
	ctx := Context{Cwd: "/w", Home: "/h", Workspace: "/w"}
	for _, c := range []struct {
		cmd  []string
		want Decision
	}{
		{[]string{"make", "deploy"}, Deny},
		{[]string{"make", "release"}, Ask},
		{[]string{"make", "test"}, Allow},
		{[]string{"rm", "x"}, Allow}, // a workspace write in auto, not by the project's allow
	} {
		if v := p.Decide(exec(c.cmd...), ctx); v.Decision != c.want || (v.Rule != nil && v.Rule.Pattern == "rm *") {
			t.Errorf("%q: %s (%s), want %s", c.cmd, v.Decision, v.Reason, c.want)
		}
	}
	if len(warnings) != 1 || warnings[0].File != "proj/sub/.guardsh.yaml" {
		t.Errorf("warnings = %+v, want the inner file's allow rule", warnings)
	}
}

// TestMergeSandboxProjectOff: a project file turning off the sandbox the
// user's config turns on is recorded, so that what the jail would have
// contained asks (see SandboxConfig.OffBy); one turning off a sandbox
// that was off anyway is not.
func TestMergeSandboxProjectOff(t *testing.T) {
	off := parseAs(t, "sandbox: off\n", "proj/.guardsh.yaml")
	for _, c := range []struct {
		user         string
		offBy        string
		wanted, mode SandboxMode
	}{
		{"sandbox: workspace\n", "proj/.guardsh.yaml:1", SandboxWorkspace, SandboxOff},
		{"sandbox: strict\n", "proj/.guardsh.yaml:1", SandboxStrict, SandboxOff},
		{"sandbox: off\n", "", "", SandboxOff},
		{"mode: ask\n", "", "", SandboxOff},
	} {
		user := parseAs(t, c.user, "user.yaml")
		p, _ := Merge(Layers{User: user, Projects: []*Policy{off}})
		if sb := p.Sandbox; sb.OffBy != c.offBy || sb.Wanted != c.wanted || sb.On() {
			t.Errorf("user %q: sandbox %+v, want off by %q from %q", c.user, sb, c.offBy, c.wanted)
		}
	}
}
