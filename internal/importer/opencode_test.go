package importer

import (
	"testing"

	"github.com/guardsh/guardsh/rules"
)

const whyAskDefault = "asks for every command that no other rule matches, but the rules after it loosen it; in guardsh an ask rule \"*\" would outrank every allow rule; guardsh's mode approve is the equivalent (allow rules allow, everything else asks); not imported"

func TestOpencode(t *testing.T) {
	runConv(t, Opencode, []convCase{{
		name: "a config with bash, edit and read rules and an agent's",
		file: "opencode/opencode.jsonc",
		rules: []string{
			`shell allow "git status*" <- permission.bash["git status*"]`,
			`shell allow "git diff *" <- permission.bash["git diff *"]`,
			`shell allow "git log *" <- permission.bash["git log *"]`,
			`shell ask "git push" <- permission.bash["git push"]`,
			`shell deny "git push --force*" <- permission.bash["git push --force*"]`,
			`shell deny "rm -rf *" <- permission.bash["rm -rf *"]`,
			`shell deny "terraform destroy*" <- permission.bash["terraform destroy?*"] (widened: ? became *)`,
			`write allow "docs/*.md" <- permission.edit["docs/*.md"]`,
			`write deny "~/.ssh/*" <- permission.edit["~/.ssh/*"]`,
			`write deny "~/.aws/*" <- permission.edit["$HOME/.aws/*"]`,
			`read deny "*.env" <- permission.read["*.env"]`,
			`shell deny "git commit *" <- agent.plan.permission.bash["git commit *"] (the plan agent's rule, imported for every agent)`,
		},
		skipped: []string{
			`permission.bash["*"]: ask: ` + whyAskDefault,
			`permission.bash["npm run ?est"]: allow: has the wildcard ? (exactly one character), which guardsh cannot spell exactly`,
			`permission.bash["ls | head"]: allow: contains the shell operator '|'` + whyShellSyntax,
			`permission.edit["*"]: ask: covers every path, a tool-level setting; as a guardsh write rule it would cover every path any command touches; not imported`,
			`permission.webfetch: "ask": is a permission for opencode's webfetch tool; ` + whyWeb,
			`permission.external_directory: {"~/projects/*": "allow"}: is a permission for opencode's external_directory tool; ` + whyWeb,
			`agent.plan.permission.bash["make *"]: allow: allows only for the plan agent; imported, it would allow for every agent`,
		},
	}, {
		name: "the list form",
		file: "opencode/opencode-v2.jsonc",
		rules: []string{
			`shell allow "git status *" <- permissions[1]`,
			`shell deny "git push *" <- permissions[2]`,
			`read deny "*.env" <- permissions[3]`,
		},
		skipped: []string{
			`permissions[0]: shell "*": ask: ` + whyAskDefault,
			`permissions[4]: webfetch "*": allow: is a permission for opencode's webfetch action; ` + whyWeb,
		},
	}, {
		name: "one value for every tool",
		file: "opencode.json",
		data: `{"permission": "ask"}`,
		rules: []string{
			`shell ask "*" <- permission (every command)`,
		},
	}, {
		name: "one value for every tool that allows",
		file: "opencode.json",
		data: `{"permission": "allow"}`,
		skipped: []string{
			"permission: allow: " + whyAllowAll,
		},
	}, {
		name: "one value for bash",
		file: "opencode.json",
		data: `{"permission": {"bash": "deny", "edit": "allow"}}`,
		rules: []string{
			`shell deny "*" <- permission.bash (every command)`,
		},
		skipped: []string{
			"permission.edit: allow: is a tool-level setting for opencode's edit tool; as a guardsh write rule it would cover every path any command touches; not imported",
		},
	}, {
		name: "the default for every tool, loosened for bash",
		file: "opencode.json",
		data: `{"permission": {"*": "ask", "bash": {"git status *": "allow"}}}`,
		rules: []string{
			`shell allow "git status *" <- permission.bash["git status *"]`,
		},
		skipped: []string{
			`permission["*"]: ask: asks for every command that no other rule matches, but the bash rules after it loosen it there; in guardsh an ask rule "*" would outrank every allow rule; guardsh's mode approve is the equivalent (allow rules allow, everything else asks); not imported`,
		},
	}, {
		name: "a default deny is kept, stricter",
		file: "opencode.json",
		data: `{"permission": {"*": "deny", "bash": {"rm *": "deny", "*": "deny", "ls *": "allow"}}}`,
		rules: []string{
			`shell deny "*" <- permission["*"] (every command; the bash rules after it loosen it there, but in guardsh a deny outranks every allow, and guardsh has no deny-by-default mode)`,
			`shell deny "rm *" <- permission.bash["rm *"]`,
			`shell deny "*" <- permission.bash["*"] (every command; the rules after it loosen it, but in guardsh a deny outranks every allow, and guardsh has no deny-by-default mode)`,
			`shell allow "ls *" <- permission.bash["ls *"]`,
		},
	}, {
		name: "a default that nothing loosens converts",
		file: "opencode.json",
		data: `{"permission": {"bash": {"git status *": "allow", "*": "ask"}}}`,
		rules: []string{
			`shell allow "git status *" <- permission.bash["git status *"]`,
			`shell ask "*" <- permission.bash["*"] (every command)`,
		},
	}, {
		name: "the default for every tool beside a single bash value",
		file: "opencode.json",
		data: `{"permission": {"*": "ask", "bash": "allow"}}`,
		skipped: []string{
			`permission["*"]: ask: is the default for every tool; for bash the single value of "bash" replaces it, and other tools are not guardsh's; not imported`,
			"permission.bash: allow: " + whyAllowAll,
		},
	}, {
		name: "odd entries",
		file: "opencode.json",
		data: `{"permission": {"bash": {"git *": "maybe", "ls": "allow", "ls": "deny", "git  log   *": "allow", "*  *": "allow"},
			"edit": {"src/?.go": "allow", "src/?.go ": "deny", "~bob/x": "deny", "x": 1}},
			"tools": {"bash": false}}`,
		rules: []string{
			`shell deny "ls" <- permission.bash["ls"]`,
			`shell allow "git log *" <- permission.bash["git  log   *"]`,
			`write deny "src/*.go " <- permission.edit["src/?.go "] (widened: ? became *)`,
		},
		skipped: []string{
			`permission.bash["git *"]: "maybe": has a value other than "allow", "ask" or "deny"`,
			`permission.bash["ls"]: allow: is a duplicate key; the later one (line 1) takes effect`,
			`permission.bash["*  *"]: allow: ` + whyAllowAll,
			`permission.edit["src/?.go"]: allow: has the wildcard ?, which guardsh cannot spell exactly`,
			`permission.edit["~bob/x"]: deny: names another user's home directory, which guardsh does not expand`,
			`permission.edit["x"]: 1: has a value other than "allow", "ask" or "deny"`,
			`tools.bash: false: is a legacy on/off switch for a tool; write it as a permission ("bash": "deny") and import that; not imported`,
		},
	}, {
		name: "no permissions",
		file: "opencode.json",
		data: `{"$schema": "https://opencode.ai/config.json", "model": "anthropic/claude-sonnet-4-5"}`,
	}})
}

func TestOpencodeMalformed(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"not an object", `"allow"`, "opencode.json:1: expected a JSON object (opencode config), got a string"},
		{"permission a number", "{\n\"permission\": 5}", "opencode.json:2: permission: expected a string or an object, got a number"},
		{"permission an unknown word", `{"permission": "yes"}`, `opencode.json:1: permission: expected "allow", "ask", "deny" or an object, got "yes"`},
		{"bash a list", "{\"permission\": {\n\"bash\": [\"ls\"]}}", "opencode.json:2: permission.bash: expected a string or an object, got a list"},
		{"bash an unknown word", `{"permission": {"bash": "sometimes"}}`, `opencode.json:1: permission.bash: expected "allow", "ask", "deny" or an object, got "sometimes"`},
		{"the default not a word", `{"permission": {"*": {}}}`, `opencode.json:1: permission["*"]: expected "allow", "ask" or "deny", got {}`},
		{"permissions not a list", `{"permissions": {}}`, "opencode.json:1: permissions: expected a list of rules, got an object"},
		{"an unterminated comment", "{\"permission\": \"ask\" /* x\n}", "opencode.json:1: invalid JSON: unterminated /* comment"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := convErr(t, Opencode, c.data, "opencode.json").Error(); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// The imported rules decide as opencode did where guardsh's precedence
// agrees, and stricter where it does not.
func TestOpencodeDecides(t *testing.T) {
	res, err := Opencode([]byte(`{"permission": {"bash": {"*": "ask", "git status*": "allow", "git push": "ask", "git push --force*": "deny"}}}`), "opencode.json")
	if err != nil {
		t.Fatal(err)
	}
	d := newDecider(t, res)
	for _, c := range []struct {
		words []string
		want  rules.Decision
	}{
		{[]string{"git", "status"}, rules.Allow},
		{[]string{"git", "status", "--short"}, rules.Allow},
		{[]string{"git", "push"}, rules.Ask},
		{[]string{"git", "push", "--force", "origin"}, rules.Deny},
		{[]string{"make"}, rules.Ask}, // mode approve stands in for "*": "ask"
	} {
		if got, rule := d.exec(c.words...); got != c.want {
			t.Errorf("%q: got %s by %q, want %s", c.words, got, rule, c.want)
		}
	}
}
