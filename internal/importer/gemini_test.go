package importer

import (
	"testing"

	"github.com/guardsh/guardsh/rules"
)

func TestGemini(t *testing.T) {
	runConv(t, Gemini, []convCase{{
		name: "a policy file",
		file: "gemini/policy.toml",
		rules: []string{
			`shell allow "git status *" <- rule[0]`,
			`shell ask "git push *" <- rule[1].commandPrefix[0]`,
			`shell ask "git reset --hard *" <- rule[1].commandPrefix[1]`,
			`shell deny "rm -rf *" <- rule[2] (denyMessage: Deletion is permanent)`,
			`shell allow "make build*" <- rule[4]`,
			`shell deny "terraform apply *" <- rule[6] (imported for every case; Gemini CLI applied it only in the modes ["autoEdit", "yolo"])`,
		},
		skipped: []string{
			`rule[3]: {toolName = "run_shell_command", commandRegex = "npm run (test|lint)", decision = "allow", priority = 100}: is a regular expression (commandRegex), which guardsh cannot express; only a plain literal prefix converts`,
			`rule[5]: {toolName = "run_shell_command", commandPrefix = "docker", decision = "allow", priority = 100, modes = ["yolo"]}: applies only in the modes ["yolo"]; imported, it would allow in every case`,
			`rule[7]: {toolName = "run_shell_command", decision = "ask_user", priority = 10}: asks for every command that no other rule matches, but Gemini CLI lets the higher-priority rule[0], rule[3], rule[4], rule[5], rule[11] override it; in guardsh an ask rule "*" would outrank every allow rule; guardsh's mode approve is the equivalent (allow rules allow, everything else asks); not imported`,
			`rule[8]: {toolName = ["write_file", "replace"], decision = "ask_user", priority = 10}: is a rule for Gemini CLI's write_file, replace tool, not the shell; ` + whyWeb,
			`rule[9]: {mcpName = "untrusted-server", decision = "deny", priority = 500}: is a rule for MCP tools; ` + whyWeb,
			`rule[10]: {toolName = "run_shell_command", argsPattern = "\"command\":\"(curl|wget) ", decision = "deny", priority = 400}: matches its arguments with a regular expression (argsPattern), which guardsh cannot express`,
			`rule[11]: {toolName = "run_shell_command", commandPrefix = "echo $HOME", decision = "allow", priority = 100}: has a prefix that contains the expansion '$'` + whyShellSyntax,
		},
	}, {
		name: "a catch-all that no rule overrides converts; an allow never does",
		file: "p.toml",
		data: `
[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 900

[[rule]]
toolName = "*"
decision = "ask_user"
priority = 500

[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 5

[[rule]]
commandPrefix = "git status"
decision = "allow"
priority = 1
`,
		rules: []string{
			`shell deny "*" <- rule[0] (every command)`,
			`shell ask "*" <- rule[1] (every command)`,
			`shell allow "git status *" <- rule[3]`,
		},
		skipped: []string{
			`rule[2]: {toolName = "run_shell_command", decision = "allow", priority = 5}: ` + whyAllowAll,
		},
	}, {
		name: "a catch-all deny that a higher-priority rule loosens is imported all the same",
		file: "p.toml",
		data: `
[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 10

[[rule]]
commandPrefix = "git status"
decision = "allow"
priority = 100
`,
		rules: []string{
			`shell deny "*" <- rule[0] (every command; Gemini CLI lets the higher-priority rule[1] override it, but in guardsh a deny outranks every allow, and guardsh has no deny-by-default mode)`,
			`shell allow "git status *" <- rule[1]`,
		},
	}, {
		name: "literal regexes, prefixes with blanks, lists of tools",
		file: "p.toml",
		data: `
[[rule]]
commandRegex = 'git\.exe log'
decision = "allow"

[[rule]]
commandRegex = "git "
decision = "allow"

[[rule]]
commandRegex = "git "
decision = "deny"

[[rule]]
commandRegex = "^git"
decision = "deny"

[[rule]]
commandPrefix = "  npm   test  "
decision = "allow"

[[rule]]
toolName = ["run_shell_command", "write_file"]
commandPrefix = "git push"
decision = "ask_user"

[[rule]]
commandPrefix = "git"
commandRegex = "git"
decision = "deny"

[[rule]]
commandPrefix = "git"
argsPattern = "x"
decision = "deny"

[[rule]]
commandPrefix = ""
decision = "deny"

[[rule]]
commandPrefix = "git *"
decision = "deny"
`,
		rules: []string{
			`shell allow "git.exe log*" <- rule[0]`,
			`shell deny "git *" <- rule[2]`,
			`shell allow "npm test *" <- rule[4]`,
			`shell ask "git push *" <- rule[5]`,
		},
		skipped: []string{
			`rule[1]: {commandRegex = "git ", decision = "allow"}: needs white space after "git"; guardsh's "git *" would also allow the bare command`,
			`rule[3]: {commandRegex = "^git", decision = "deny"}: is a regular expression (commandRegex), which guardsh cannot express; only a plain literal prefix converts`,
			`rule[5]: {toolName = ["run_shell_command", "write_file"], commandPrefix = "git push", decision = "ask_user"}: also names write_file, not the shell; that part is not imported: ` + whyWeb,
			`rule[6]: {commandPrefix = "git", commandRegex = "git", decision = "deny"}: has both commandPrefix and commandRegex, which Gemini CLI does not allow`,
			`rule[7]: {commandPrefix = "git", argsPattern = "x", decision = "deny"}: has argsPattern besides a command condition`,
			`rule[8]: {commandPrefix = "", decision = "deny"}: has a prefix that is an empty command`,
			`rule[9]: {commandPrefix = "git *", decision = "deny"}: has a prefix that contains *, which is literal text there but a wildcard to guardsh`,
		},
	}, {
		name: "conditions: an allow is reported, a deny or ask imported stricter",
		file: "p.toml",
		data: `
[[rule]]
commandPrefix = "make"
decision = "allow"
interactive = true

[[rule]]
commandPrefix = "make deploy"
decision = "ask_user"
subagent = "codebase_investigator"

[[rule]]
commandPrefix = "git"
decision = "deny"
sandbox = true

[[rule]]
commandPrefix = "ls"
decision = "allow"
modes = []
allowRedirection = true
denyMessage = ""
`,
		rules: []string{
			`shell ask "make deploy *" <- rule[1] (imported for every case; Gemini CLI applied it only to the subagent "codebase_investigator")`,
			`shell deny "git *" <- rule[2] (imported for every case; Gemini CLI applied it only under the unknown condition sandbox)`,
			`shell allow "ls *" <- rule[3]`,
		},
		skipped: []string{
			`rule[0]: {commandPrefix = "make", decision = "allow", interactive = true}: applies only in interactive sessions; imported, it would allow in every case`,
		},
	}, {
		name: "rules that are not shell rules, and other tables",
		file: "p.toml",
		data: `
title = "mine"

[[rule]]
toolName = "read_file"
decision = "allow"

[[rule]]
decision = "deny"

[[rule]]
toolName = "run_shell_command"
decision = "maybe"

[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = "high"

[[rule]]
toolName = 5
decision = "deny"

[[safety_checker]]
toolName = "run_shell_command"
`,
		skipped: []string{
			`safety_checker: [{toolName = "run_shell_command"}]: is not a [[rule]] table; not imported`,
			`title: "mine": is not a [[rule]] table; not imported`,
			`rule[0]: {toolName = "read_file", decision = "allow"}: is a rule for Gemini CLI's read_file tool, not the shell; ` + whyWeb,
			`rule[1]: {decision = "deny"}: names no tool`,
			`rule[2]: {toolName = "run_shell_command", decision = "maybe"}: has no decision "allow", "deny" or "ask_user"`,
			`rule[3]: {toolName = "run_shell_command", decision = "deny", priority = "high"}: has a priority that is not a whole number`,
			`rule[4]: {toolName = 5, decision = "deny"}: has a toolName that is neither a string nor a list`,
		},
	}, {
		name: "rules as an inline array of tables",
		file: "p.toml",
		data: `rule = [{commandPrefix = "rm", decision = "deny"}, {commandPrefix = "ls", decision = "allow"}]`,
		rules: []string{
			`shell deny "rm *" <- rule[0]`,
			`shell allow "ls *" <- rule[1]`,
		},
	}, {
		name: "a settings file",
		file: "gemini/settings.json",
		rules: []string{
			`shell allow "git status *" <- tools.allowed[0]`,
			`shell allow "npm test *" <- tools.allowed[1]`,
			`shell deny "rm -rf *" <- tools.exclude[0]`,
			`shell deny "git push --force *" <- tools.exclude[1]`,
			`shell deny "sudo *" <- excludeTools[0]`,
		},
		skipped: []string{
			"tools.allowed[2]: read_file: names Gemini CLI's read_file tool, not the shell; " + whyWeb,
			"tools.exclude[2]: web_fetch: names Gemini CLI's web_fetch tool, not the shell; " + whyWeb,
			`tools.core[0]: run_shell_command(git): limits the shell to commands that start this way; guardsh has no allow-only list (a deny rule "*" would outrank every allow rule); not imported`,
			"tools.core[1]: run_shell_command: makes the shell tool available; nothing to import",
			"tools.core[2]: read_file: names Gemini CLI's read_file tool, not the shell; " + whyWeb,
			"coreTools[0]: ShellTool: makes the shell tool available; nothing to import",
		},
	}, {
		name: "settings: tool-wide entries and odd ones",
		file: "settings.json",
		data: `{"tools": {"allowed": ["run_shell_command", 7, "ShellTool(ls"], "exclude": ["ShellTool"]},
			"allowedTools": ["run_shell_command(echo \"hi\")"]}`,
		rules: []string{
			`shell deny "*" <- tools.exclude[0] (every command)`,
		},
		skipped: []string{
			"tools.allowed[0]: run_shell_command: " + whyAllowAll,
			"tools.allowed[1]: 7: is a number, not a tool name",
			"tools.allowed[2]: ShellTool(ls: is not a tool name or TOOL(ARGUMENTS)",
			`allowedTools[0]: run_shell_command(echo "hi"): has a prefix that contains the quoting '"'` + whyShellSyntax,
		},
	}})
}

func TestGeminiMalformed(t *testing.T) {
	for _, c := range []struct{ name, file, data, want string }{
		{"bad TOML", "p.toml", "[[rule]]\ndecision = \"deny\nx = 1\n", "p.toml:2: invalid TOML: "},
		{"rule is not tables", "p.toml", "rule = 5\n", "p.toml: rule: expected [[rule]] tables, got a number"},
		{"rule is an array of strings", "p.toml", "rule = [\"x\"]\n", "p.toml: rule: expected [[rule]] tables, got an array holding a string"},
		{"settings not an object", "settings.json", "[]", "settings.json:1: expected a JSON object (Gemini CLI settings), got a list"},
		{"settings tools not an object", "settings.json", "{\n\"tools\": []}", "settings.json:2: tools: expected an object, got a list"},
		{"settings list not a list", "settings.json", "{\"tools\": {\n\"exclude\": \"ShellTool\"}}", "settings.json:2: tools.exclude: expected a list of tool names, got a string"},
		{"settings with a syntax error", "settings.json", "{\"tools\": {\"exclude\": [}}", "settings.json:1: invalid JSON: unexpected '}'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := convErr(t, Gemini, c.data, c.file).Error()
			if len(got) < len(c.want) || got[:len(c.want)] != c.want {
				t.Errorf("got  %q\nwant %q…", got, c.want)
			}
		})
	}
}

func TestGeminiSniffsTheFormat(t *testing.T) {
	for _, c := range []struct{ file, data string }{
		{"policy", "[[rule]]\ncommandPrefix = \"rm\"\ndecision = \"deny\"\n"},
		{"settings", "  {\"tools\": {\"exclude\": [\"run_shell_command(rm)\"]}}"},
	} {
		res, err := Gemini([]byte(c.data), c.file)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got := ruleStrings(res.Rules); len(got) != 1 || res.Rules[0].Pattern != "rm *" || res.Rules[0].Decision != rules.Deny {
			t.Errorf("%s: got %q", c.file, got)
		}
	}
}
