package rules

import (
	"strings"
	"testing"
)

func parseAs(t *testing.T, src, file string) *Policy {
	t.Helper()
	p, err := Parse([]byte(src), file)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMergeProjectOnlyTightens(t *testing.T) {
	user := parseAs(t, "mode: ask\nrules:\n  shell:\n    allow: [\"make *\"]\n", "user.yaml")
	project := parseAs(t, `mode: bypass
lock_mode: true
shell: /bin/false
audit: {path: /tmp/x, required: false}
readonly: ["rm *"]
rules:
  shell:
    allow: ["rm -rf *"]
    ask: ["make release *"]
    deny: ["make deploy*"]
  write:
    allow: ["/etc/*"]
`, "proj/.guardsh.yaml")
	p, warnings := Merge(Layers{User: user, Project: project})
	ctx := Context{Cwd: "/w", Home: "/h", Workspace: "/w"}
	cases := []struct {
		cmd  []string
		want Decision
	}{
		{[]string{"rm", "-rf", "build"}, Ask},      // project allow ignored
		{[]string{"rm", "x"}, Ask},                 // project readonly ignored
		{[]string{"make", "test"}, Allow},          // user allow holds
		{[]string{"make", "release", "1"}, Ask},    // project ask added
		{[]string{"make", "deploy", "prod"}, Deny}, // project deny added
	}
	for _, c := range cases {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.cmd}, ctx); v.Decision != c.want {
			t.Errorf("%q: %v (%s), want %v", c.cmd, v.Decision, v.Reason, c.want)
		}
	}
	if v := p.Decide(Subject{Kind: KindWrite, Words: []string{"/etc/passwd"}}, ctx); v.Decision != Ask {
		t.Errorf("project write allow applied: %v", v.Decision)
	}
	if p.Mode != AskMode || p.Shell != "" || p.Audit.Path != "" || !p.Audit.Required || p.LockMode {
		t.Errorf("project settings leaked: mode %q shell %q audit %+v lock %v", p.Mode, p.Shell, p.Audit, p.LockMode)
	}
	want := []string{
		"proj/.guardsh.yaml:1: warning: a project file may not set the mode (bypass); ignored",
		"may not lock the mode",
		"may not choose the shell (/bin/false)",
		"may not change the audit settings",
		`proj/.guardsh.yaml:5: warning: a project file may not declare commands read-only ("rm *"); ignored`,
		`proj/.guardsh.yaml:8: warning: a project file may only add ask and deny rules; allow rule "rm -rf *" ignored`,
		`proj/.guardsh.yaml:12: warning: a project file may only add ask and deny rules; allow rule "/etc/*" ignored`,
	}
	if len(warnings) != len(want) {
		t.Fatalf("warnings = %q", warnings)
	}
	for i, w := range want {
		if !strings.Contains(warnings[i].String(), w) {
			t.Errorf("warning %d = %q, want it to contain %q", i, warnings[i], w)
		}
	}
	// The project's rules keep their own file and line.
	v := p.Decide(Subject{Kind: KindExec, Words: []string{"make", "deploy"}}, ctx)
	if v.Rule == nil || v.Rule.Source() != "proj/.guardsh.yaml:10" {
		t.Errorf("rule = %+v", v.Rule)
	}
}

func TestMergeModeAndLock(t *testing.T) {
	sys := func(src string) *Policy { return parseAs(t, src, "/etc/guardsh/config.yaml") }
	usr := func(src string) *Policy { return parseAs(t, src, "user.yaml") }
	cases := []struct {
		name      string
		l         Layers
		want      Mode
		lock      bool
		warnsWith string
	}{
		{"no layer sets a mode", Layers{User: usr("")}, "", false, ""},
		{"system default", Layers{System: sys("mode: plan"), User: usr("")}, Plan, false, ""},
		{"user overrides an unlocked system mode", Layers{System: sys("mode: plan"), User: usr("mode: auto")}, Auto, false, ""},
		{"a lock keeps a looser user mode out", Layers{System: sys("mode: ask\nlock_mode: true"), User: usr("mode: bypass")}, AskMode, true, "which /etc/guardsh/config.yaml:1 locks"},
		{"a lock lets the user tighten", Layers{System: sys("mode: ask\nlock_mode: true"), User: usr("mode: plan")}, Plan, true, ""},
		{"plan does not tighten a locked approve", Layers{System: sys("mode: approve\nlock_mode: true"), User: usr("mode: plan")}, Approve, true, "which /etc/guardsh/config.yaml:1 locks"},
		{"lock_mode in the user file does nothing", Layers{User: usr("mode: auto\nlock_mode: true")}, Auto, false, "lock_mode only has effect in the system config"},
	}
	for _, c := range cases {
		p, w := Merge(c.l)
		if p.Mode != c.want || p.LockMode != c.lock {
			t.Errorf("%s: mode %q lock %v, want %q %v", c.name, p.Mode, p.LockMode, c.want, c.lock)
		}
		var got string
		for _, f := range w {
			got += f.String() + "\n"
		}
		if (c.warnsWith == "") != (got == "") || !strings.Contains(got, c.warnsWith) {
			t.Errorf("%s: warnings %q, want one containing %q", c.name, got, c.warnsWith)
		}
	}
}

func TestMergeSettings(t *testing.T) {
	sys := parseAs(t, "shell: /bin/bash\naudit: {path: /var/log/g.jsonl, required: true}\nrules:\n  shell:\n    deny: [\"shutdown *\"]\n", "sys.yaml")
	usr := parseAs(t, "shell: /usr/local/bin/bash\naudit: {required: false}\nrules:\n  shell:\n    allow: [\"shutdown *\"]\n", "user.yaml")
	p, _ := Merge(Layers{System: sys, User: usr})
	if p.Shell != "/usr/local/bin/bash" || p.Audit.Path != "/var/log/g.jsonl" {
		t.Errorf("shell %q audit %+v", p.Shell, p.Audit)
	}
	if !p.Audit.Required {
		t.Error("audit.required: false in the user file overrode the system's true")
	}
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"shutdown", "now"}}, Context{}); v.Decision != Deny {
		t.Errorf("system deny lifted by a user allow: %v", v.Decision)
	}
	p, _ = Merge(Layers{User: usr})
	if p.Audit.Required {
		t.Error("audit.required: false alone did not relax")
	}
}

// TestMergeSystemAuditPathWins: the system config's audit.path is where
// the log goes, whatever the user's says (with a warning naming both):
// an administrator reads the record there.
func TestMergeSystemAuditPathWins(t *testing.T) {
	sys := parseAs(t, "audit: {path: /var/log/guardsh/a.jsonl}\n", "sys.yaml")
	usr := parseAs(t, "mode: ask\naudit:\n  path: /tmp/elsewhere.jsonl\n", "user.yaml")
	p, warnings := Merge(Layers{System: sys, User: usr})
	if p.Audit.Path != "/var/log/guardsh/a.jsonl" {
		t.Errorf("audit.path %q, want the system's", p.Audit.Path)
	}
	if len(warnings) != 1 || warnings[0].File != "user.yaml" || warnings[0].Line != 3 ||
		!strings.Contains(warnings[0].Problem, "/tmp/elsewhere.jsonl") || !strings.Contains(warnings[0].Problem, "/var/log/guardsh/a.jsonl") {
		t.Errorf("warnings %+v, want one at user.yaml:3 naming both paths", warnings)
	}
	// Without the system's, the user's places it, and nothing warns.
	if p, warnings := Merge(Layers{System: parseAs(t, "mode: ask\n", "sys.yaml"), User: usr}); p.Audit.Path != "/tmp/elsewhere.jsonl" || len(warnings) > 0 {
		t.Errorf("audit.path %q, warnings %+v: want the user's, none", p.Audit.Path, warnings)
	}
}

func TestTighten(t *testing.T) {
	cases := []struct {
		configured, want, got Mode
		ok                    bool
	}{
		{AskMode, Plan, Plan, true},
		{AskMode, Bypass, AskMode, false},
		{"", Auto, AskMode, false},
		{"", Approve, Approve, true},
		{Auto, Auto, Auto, true},
	}
	for _, c := range cases {
		if got, ok := Tighten(c.configured, c.want); got != c.got || ok != c.ok {
			t.Errorf("Tighten(%q, %q) = %q, %v", c.configured, c.want, got, ok)
		}
	}
}

func TestReadonlyPatterns(t *testing.T) {
	p := parseAs(t, `readonly:
  - "make -n *"
  - "terraform plan"
rules:
  shell:
    deny: ["make -n deploy*"]
`, "c.yaml")
	ctx := Context{Cwd: "/w", Home: "/h", Workspace: "/w"}
	cases := []struct {
		mode  Mode
		words []string
		want  Decision
	}{
		{AskMode, []string{"make", "-n", "all"}, Allow},
		{Plan, []string{"make", "-n", "all"}, Allow},
		{Plan, []string{"make", "all"}, Deny},
		{AskMode, []string{"terraform", "plan"}, Allow},
		{AskMode, []string{"terraform", "plan", "-out=x"}, Ask},
		{AskMode, []string{"make", "-n", "deploy"}, Deny}, // deny still wins
		{AskMode, []string{"make", "-n", Hole}, Ask},      // the Hole could be "deploy"
	}
	for _, c := range cases {
		v := p.Decide(Subject{Kind: KindExec, Words: c.words}, Context{Mode: c.mode, Cwd: ctx.Cwd, Home: ctx.Home, Workspace: ctx.Workspace})
		if v.Decision != c.want {
			t.Errorf("%s %q: %v (%s), want %v", c.mode, c.words, v.Decision, v.Reason, c.want)
		}
	}
	v := p.Decide(Subject{Kind: KindExec, Words: []string{"make", "-n", "all"}}, ctx)
	if v.Class != ReadOnly || !strings.Contains(v.Reason, `readonly pattern "make -n *" (c.yaml:2)`) {
		t.Errorf("class %q reason %q", v.Class, v.Reason)
	}
	// A dangerous assignment is not made read-only by a pattern.
	v = p.Decide(Subject{Kind: KindExec, Words: []string{"make", "-n", "all"}, Assigns: []string{"LD_PRELOAD=/tmp/x.so"}}, ctx)
	if v.Decision == Allow {
		t.Errorf("LD_PRELOAD make -n: %v", v.Decision)
	}
}

func TestRuleExamples(t *testing.T) {
	ok := `rules:
  shell:
    ask:
      - pattern: "git push *"
        match: ["git push", "git  push origin main", "git push 'origin' \"a b\""]
        not_match: ["git pushd", "git status"]
  write:
    deny:
      - pattern: "~/.ssh/*"
        match: ["~/.ssh/id_rsa", "~/.ssh/../.ssh/config"]
        not_match: ["~/.sshx/a"]
readonly:
  - {pattern: "make -n *", match: ["make -n all"]}
`
	p := parseAs(t, ok, "c.yaml")
	if n := len(p.Rules()); n != 3 {
		t.Fatalf("rules = %d", n)
	}
	bad := []struct{ src, want string }{
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm -rf *\"\n        match: [\"rm -r x\"]\n", `c.yaml:5: rules.shell.deny[0]: pattern "rm -rf *" does not match its example "rm -r x" (match:)`},
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm *\"\n        not_match: [\"rm x\"]\n", `c.yaml:5: rules.shell.deny[0]: pattern "rm *" matches "rm x", which it must not (not_match:)`},
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm *\"\n        match: [\"rm x; ls\"]\n", `is shell syntax`},
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm *\"\n        match: [\"rm \\\"$HOME\\\"\"]\n", `expanded by the shell`},
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm *\"\n        match: [\"rm 'x\"]\n", `unterminated single quote`},
		{"rules:\n  shell:\n    deny:\n      - match: [\"rm x\"]\n", `needs a pattern: key`},
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm *\"\n        matches: [\"rm x\"]\n", `unknown key "matches"`},
		{"rules:\n  read:\n    deny:\n      - pattern: \"~/.aws/*\"\n        match: [\"~/.aws\"]\n", `does not match its example "~/.aws"`},
		{"rules:\n  shell:\n    deny:\n      - pattern: \"rm *\"\n        match: [1]\n", `expected an example string, got a number`},
	}
	for _, b := range bad {
		_, err := Parse([]byte(b.src), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", b.src, err, b.want)
		}
	}
}

func TestMergeApproval(t *testing.T) {
	sys := parseAs(t, "approval: {headless: wait, wait: 30s}\n", "/etc/guardsh/config.yaml")
	loose := parseAs(t, "approval: {headless: allow, timeout: 1m}\n", "user.yaml")
	strict := parseAs(t, "approval: {headless: deny}\n", "user.yaml")
	project := parseAs(t, "approval: {headless: allow}\n", "proj/.guardsh.yaml")

	p, w := Merge(Layers{System: sys, User: loose})
	if p.Approval.Headless != "wait" || p.Approval.Timeout.String() != "1m0s" {
		t.Errorf("user looser than system: %+v", p.Approval)
	}
	if len(w) != 1 || !strings.Contains(w[0].Problem, "approval.headless: allow is looser than wait") || w[0].Line != 1 {
		t.Errorf("warnings: %+v", w)
	}
	if p, _ := Merge(Layers{System: sys, User: strict}); p.Approval.Headless != "deny" {
		t.Errorf("user stricter than system: %+v", p.Approval)
	}
	if p, _ := Merge(Layers{System: sys, User: Default()}); p.Approval.Headless != "wait" || p.Approval.Wait.String() != "30s" {
		t.Errorf("user without approval: %+v", p.Approval)
	}
	p, w = Merge(Layers{User: strict, Project: project})
	if p.Approval.Headless != "deny" || len(w) != 1 || !strings.Contains(w[0].Problem, "may not change how approvals are asked") {
		t.Errorf("project: %+v %+v", p.Approval, w)
	}
	if d := Default().Approval; d.Headless != "deny" || d.Timeout.String() != "5m0s" || d.Wait.String() != "2m0s" || d.Expires.String() != "1h0m0s" {
		t.Errorf("defaults: %+v", d)
	}
}
