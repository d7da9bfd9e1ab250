package rules

import (
	"strings"
	"testing"
)

func TestSandboxConfig(t *testing.T) {
	for _, tt := range []struct{ yaml, mode, write, err string }{
		{"sandbox: workspace\n", "workspace", "", ""},
		{"sandbox: strict\n", "strict", "", ""},
		{"sandbox: off\n", "off", "", ""},
		{"sandbox: {mode: workspace, write: [~/.cache, /opt/x]}\n", "workspace", "~/.cache /opt/x", ""},
		{"sandbox: jail\n", "", "", `c.yaml:1: sandbox: unknown mode "jail" (off, workspace or strict)`},
		{"sandbox: {write: [/x]}\n", "", "", "c.yaml:1: sandbox: the mapping needs mode: off, workspace or strict"},
		{"sandbox: {mode: workspace, write: [rel/dir]}\n", "", "", `c.yaml:1: sandbox.write: "rel/dir" must be an absolute path or start with ~/ (no patterns)`},
		{"sandbox: {mode: workspace, write: [\"/x/*\"]}\n", "", "", `c.yaml:1: sandbox.write: "/x/*" must be an absolute path or start with ~/ (no patterns)`},
		{"sandbox: {mode: workspace, network: true}\n", "", "", `c.yaml:1: sandbox: unknown key "network" (expected mode or write)`},
	} {
		p, err := Parse([]byte(tt.yaml), "c.yaml")
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error %v, want %s", tt.yaml, err, tt.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tt.yaml, err)
		case string(p.Sandbox.Mode) != tt.mode || strings.Join(p.Sandbox.Write, " ") != tt.write:
			t.Errorf("%q: %+v", tt.yaml, p.Sandbox)
		}
	}
}

// TestSandboxLayers: a project file may turn the sandbox off, never on.
func TestSandboxLayers(t *testing.T) {
	parse := func(s, file string) *Policy {
		p, err := Parse([]byte(s), file)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	user := parse("sandbox: workspace\n", "user.yaml")
	out, warns := Merge(Layers{User: user, Project: parse("sandbox: off\n", ".guardsh.yaml")})
	if out.Sandbox.On() || len(warns) != 0 {
		t.Errorf("project off: %+v %v", out.Sandbox, warns)
	}
	out, warns = Merge(Layers{User: parse("mode: auto\n", "user.yaml"), Project: parse("sandbox: strict\n", ".guardsh.yaml")})
	if out.Sandbox.On() || len(warns) != 1 || !strings.Contains(warns[0].Problem, "may only turn the sandbox off") || warns[0].Line != 1 {
		t.Errorf("project on: %+v %v", out.Sandbox, warns)
	}
	out, _ = Merge(Layers{System: parse("sandbox: {mode: strict, write: [/opt/a]}\n", "sys.yaml"), User: parse("sandbox: {mode: workspace, write: [/opt/b]}\n", "user.yaml")})
	if out.Sandbox.Mode != SandboxWorkspace || strings.Join(out.Sandbox.Write, " ") != "/opt/a /opt/b" {
		t.Errorf("system and user: %+v", out.Sandbox)
	}
}
