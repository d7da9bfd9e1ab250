package importer

import (
	"testing"

	"github.com/guardsh/guardsh/rules"
)

const (
	whyShellSyntax = ", which guardsh would match differently: it matches a command's words after the shell has parsed, unquoted and expanded them"
	whyWeb         = "guardsh governs shell commands and file paths only"
)

func TestClaude(t *testing.T) {
	runConv(t, Claude, []convCase{{
		name: "a project's settings",
		file: "claude/.claude/settings.json",
		rules: []string{
			`shell allow "npm run test *" <- permissions.allow[0]`,
			`shell allow "npm run lint" <- permissions.allow[1]`,
			`shell allow "git diff *" <- permissions.allow[2]`,
			`shell allow "git log *" <- permissions.allow[3]`,
			`shell allow "ls" <- permissions.allow[4]`,
			`shell allow "ls*" <- permissions.allow[5]`,
			`read allow "~/.zshrc" <- permissions.allow[6]`,
			`write allow "src/*" <- permissions.allow[7]`,
			`write allow "*.ts" <- permissions.allow[9]`,
			`shell ask "git push *" <- permissions.ask[0]`,
			`shell ask "npm publish *" <- permissions.ask[1]`,
			`shell ask "docker run *" <- permissions.ask[2]`,
			`shell deny "rm -rf *" <- permissions.deny[0]`,
			`shell deny "git push --force *" <- permissions.deny[2]`,
			`read deny "~/.ssh/*" <- permissions.deny[4]`,
			`read deny "/etc/shadow" <- permissions.deny[5]`,
			`read deny "/etc/shadow/*" <- permissions.deny[5]`,
			`read deny ".env" <- permissions.deny[6]`,
			`read deny ".env/*" <- permissions.deny[6]`,
			`read deny "secrets/*" <- permissions.deny[7]`,
			`read deny ".env.*" <- permissions.deny[8]`,
			`read deny "*/.env.*" <- permissions.deny[8]`,
			`write deny "/etc/*" <- permissions.deny[9]`,
			`write deny "~/.bashrc" <- permissions.deny[10]`,
			`write deny "~/.bashrc/*" <- permissions.deny[10]`,
			`read deny "*.pe*" <- permissions.deny[11] (widened: ? and [...] became *)`,
		},
		skipped: []string{
			"permissions.allow[8]: Edit(/docs/*.md): gitignore's * stops at /, guardsh's does not, so as an allow rule it would allow more than the source",
			"permissions.allow[10]: WebFetch(domain:github.com): is a rule for Claude Code's web tool WebFetch; " + whyWeb,
			"permissions.allow[11]: mcp__github__get_issue: is a rule for an MCP tool; " + whyWeb,
			"permissions.allow[12]: Glob: is a rule for Claude Code's search tool Glob (Read rules cover what it reads); " + whyWeb,
			"permissions.allow[13]: Bash: allows every command; guardsh's mode bypass is the equivalent; not imported, since a guard never widens on import",
			"permissions.deny[1]: Bash(curl * | sh): contains the shell operator '|'" + whyShellSyntax,
			"permissions.deny[3]: Bash(FOO=1 make *): contains the variable assignment FOO=1" + whyShellSyntax,
			"permissions.deny[12]: WebSearch: is a rule for Claude Code's web tool WebSearch; " + whyWeb,
			`permissions.defaultMode: "acceptEdits": is the permission mode, not a rule; guardsh's mode is set by mode: in its config (default ask, bypass, plan...); not imported`,
			`permissions.additionalDirectories: ["../shared-lib"]: widens Claude Code's working directories; guardsh's workspace is where the command runs; not imported`,
		},
	}, {
		name: "a rule for every command asks or denies every command, and is never imported as an allow",
		file: "settings.json",
		data: `{"permissions": {"ask": ["Bash"], "deny": ["Bash(*)"], "allow": ["Bash(*)", "Bash(:*)", "Bash( * )", "Bash(**)"]}}`,
		rules: []string{
			`shell ask "*" <- permissions.ask[0] (every command)`,
			`shell deny "*" <- permissions.deny[0] (every command)`,
		},
		skipped: []string{
			"permissions.allow[0]: Bash(*): " + whyAllowAll,
			"permissions.allow[1]: Bash(:*): " + whyAllowAll,
			"permissions.allow[2]: Bash( * ): " + whyAllowAll,
			"permissions.allow[3]: Bash(**): " + whyAllowAll,
		},
	}, {
		name: "commands: prefixes, exact commands, wildcards, blanks collapsed",
		file: "settings.json",
		data: `{"permissions": {"allow": [
			"Bash(npm run test:*)", "Bash(npm run test *)", "Bash(git  status)", "Bash(\tgo test ./...\t)",
			"Bash(git * main)", "Bash(* --version)", "Bash(python3 -m pytest:*)"]}}`,
		rules: []string{
			`shell allow "npm run test *" <- permissions.allow[0]`,
			`shell allow "npm run test *" <- permissions.allow[1]`,
			`shell allow "git status" <- permissions.allow[2]`,
			`shell allow "go test ./..." <- permissions.allow[3]`,
			`shell allow "git * main" <- permissions.allow[4]`,
			`shell allow "* --version" <- permissions.allow[5]`,
			`shell allow "python3 -m pytest *" <- permissions.allow[6]`,
		},
	}, {
		name: "commands with shell syntax are reported",
		file: "settings.json",
		data: `{"permissions": {"deny": [
			"Bash(git commit -m \"wip\")", "Bash(echo $HOME)", "Bash(make && make install)", "Bash(echo \\*)",
			"Bash(ls a?b)", "Bash(cp {a,b} c)", "Bash(ls # x)", "Bash(a:*b:*)", "Bash(x\ny)", "Bash()"]}}`,
		skipped: []string{
			`permissions.deny[0]: Bash(git commit -m "wip"): contains the quoting '"'` + whyShellSyntax,
			`permissions.deny[1]: Bash(echo $HOME): contains the expansion '$'` + whyShellSyntax,
			`permissions.deny[2]: Bash(make && make install): contains the shell operator '&'` + whyShellSyntax,
			`permissions.deny[3]: Bash(echo \*): has an escaped \*, a literal * that guardsh cannot spell`,
			`permissions.deny[4]: Bash(ls a?b): contains the glob a?b` + whyShellSyntax,
			`permissions.deny[5]: Bash(cp {a,b} c): contains the brace expansion {a,b}` + whyShellSyntax,
			`permissions.deny[6]: Bash(ls # x): contains a comment` + whyShellSyntax,
			`permissions.deny[7]: Bash(a:*b:*): contains *, which is literal text there but a wildcard to guardsh`,
			"permissions.deny[8]: Bash(x\ny): spans lines, and guardsh decides each command of a line on its own",
			`permissions.deny[9]: Bash(): is an empty command`,
		},
	}, {
		name: "paths: anchors, ** and what a deny covers",
		file: "settings.json",
		data: `{"permissions": {"deny": [
			"Read(//var/log/**)", "Read(~)", "Read(~/.aws/credentials)", "Read(/config/secrets.yml)", "Read(build/)",
			"Edit(src/**/gen/*.go)", "Edit(**/node_modules/**)", "Read([ab].txt)", "Read(\\*.txt)", "Read(../other/**)"],
			"allow": ["Read(src/**/test/*)", "Edit(./lib/**)", "Read(**/*.md)", "Edit(/src/*.go)", "Read(a?.txt)", "Read(\\*.txt)", "Read(\\?.txt)"]}}`,
		rules: []string{
			`read deny "/var/log/*" <- permissions.deny[0]`,
			`read deny "~" <- permissions.deny[1]`,
			`read deny "~/*" <- permissions.deny[1]`,
			`read deny "~/.aws/credentials" <- permissions.deny[2]`,
			`read deny "~/.aws/credentials/*" <- permissions.deny[2]`,
			`read deny "config/secrets.yml" <- permissions.deny[3]`,
			`read deny "config/secrets.yml/*" <- permissions.deny[3]`,
			`read deny "build" <- permissions.deny[4]`,
			`read deny "*/build" <- permissions.deny[4]`,
			`read deny "build/*" <- permissions.deny[4]`,
			`read deny "*/build/*" <- permissions.deny[4]`,
			`write deny "src/*/gen/*.go" <- permissions.deny[5]`,
			`write deny "src/gen/*.go" <- permissions.deny[5]`,
			`write deny "src/*/gen/*.go/*" <- permissions.deny[5]`,
			`write deny "src/gen/*.go/*" <- permissions.deny[5]`,
			`write deny "*/node_modules/*" <- permissions.deny[6]`,
			`write deny "node_modules/*" <- permissions.deny[6]`,
			`read deny "*.txt" <- permissions.deny[7] (widened: ? and [...] became *)`,
			`read deny "*.txt/*" <- permissions.deny[7] (widened: ? and [...] became *)`,
			`read deny "*.txt" <- permissions.deny[8] (widened: ? and [...] became *)`,
			`read deny "*.txt/*" <- permissions.deny[8] (widened: ? and [...] became *)`,
			`read deny "../other/*" <- permissions.deny[9]`,
			`read allow "src/*/test/*" <- permissions.allow[0]`,
			`read allow "src/test/*" <- permissions.allow[0]`,
			`write allow "lib/*" <- permissions.allow[1]`,
			`read allow "*.md" <- permissions.allow[2]`,
			`read allow "?.txt" <- permissions.allow[6]`,
		},
		skipped: []string{
			"permissions.allow[3]: Edit(/src/*.go): " + whyStarSlash,
			"permissions.allow[4]: Read(a?.txt): has the wildcard ?, which guardsh cannot spell exactly",
			`permissions.allow[5]: Read(\*.txt): has a literal *, which guardsh cannot spell`,
		},
	}, {
		name: "path rules that cannot be converted",
		file: "settings.json",
		data: `{"permissions": {"deny": ["Read", "Edit(*)", "Write(**)", "Read(~bob/.ssh/**)", "Read(!keep.txt)", "Read()", "Edit(a/**/b/**/c/**/d/**/e)"],
			"allow": ["Read(a/**/b/**/c/**/d/**/e)"]}}`,
		skipped: []string{
			"permissions.deny[0]: Read: covers every use of Claude Code's Read tool, a tool-level setting; as a guardsh read rule it would cover every path any command touches; not imported",
			"permissions.deny[1]: Edit(*): covers every use of Claude Code's Edit tool, a tool-level setting; as a guardsh write rule it would cover every path any command touches; not imported",
			"permissions.deny[2]: Write(**): covers every use of Claude Code's Write tool, a tool-level setting; as a guardsh write rule it would cover every path any command touches; not imported",
			"permissions.deny[3]: Read(~bob/.ssh/**): names another user's home directory, which guardsh does not expand",
			"permissions.deny[4]: Read(!keep.txt): is a negated gitignore pattern, which guardsh has no equivalent for",
			"permissions.deny[5]: Read(): has an empty path",
			"permissions.deny[6]: Edit(a/**/b/**/c/**/d/**/e): has more than three ** before its end, too many patterns to spell out",
			"permissions.allow[0]: Read(a/**/b/**/c/**/d/**/e): has more than three ** before its end, too many patterns to spell out",
		},
	}, {
		name: "entries that are not rules",
		file: "settings.json",
		data: `{"permissions": {"allow": [42, "Bash(ls", "(ls)", "Task", "TodoWrite"], "deny": null, "ask": []}, "model": "opus"}`,
		skipped: []string{
			"permissions.allow[0]: 42: is a number, not a rule string",
			"permissions.allow[1]: Bash(ls: is not a rule: Tool or Tool(specifier) expected",
			"permissions.allow[2]: (ls): is not a rule: Tool or Tool(specifier) expected",
			"permissions.allow[3]: Task: is a rule for Claude Code's Task tool; " + whyWeb,
			"permissions.allow[4]: TodoWrite: is a rule for Claude Code's TodoWrite tool; " + whyWeb,
		},
	}, {
		name: "no permissions",
		file: "settings.json",
		data: `{"model": "opus", "env": {}}`,
		skipped: []string{
			"permissions: (absent): the file has no permissions object, so there is nothing to import; is it a Claude Code settings.json?",
		},
	}})
}

func TestClaudeMalformed(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"not an object", `["Bash"]`, "settings.json:1: expected a JSON object (Claude Code settings), got a list"},
		{"permissions not an object", "{\n\"permissions\": [\"Bash\"]}", "settings.json:2: permissions: expected an object, got a list"},
		{"a list that is a string", "{\"permissions\": {\n  \"allow\": \"Bash\"}}", "settings.json:2: permissions.allow: expected a list of rules, got a string"},
		{"cut short", "{\"permissions\": {\n  \"allow\": [\"Bash\",\n", "settings.json:3: invalid JSON: unexpected end of file"},
		{"a missing comma", "{\"permissions\": {\n  \"allow\": [\"Bash\"\n \"Read\"]}}", "settings.json:3: invalid JSON: expected ',' or ']', got '\"'"},
		{"empty", "  \n", "settings.json: invalid JSON: empty file; expected a JSON object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := convErr(t, Claude, c.data, "settings.json").Error(); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// The imported rules decide commands and paths as Claude Code's did.
func TestClaudeDecides(t *testing.T) {
	res, err := Convert("claude", []byte(`{"permissions": {
		"allow": ["Bash(npm run test:*)", "Bash(git diff *)", "Bash(ls)", "Edit(/src/**)"],
		"ask": ["Bash(git push:*)"],
		"deny": ["Bash(rm -rf:*)", "Read(~/.ssh/**)", "Read(./.env)", "Read(./secrets)"]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	d := newDecider(t, res)
	for _, c := range []struct {
		words []string
		want  rules.Decision
		rule  string
	}{
		{[]string{"npm", "run", "test"}, rules.Allow, "npm run test *"},
		{[]string{"npm", "run", "test", "--", "-u"}, rules.Allow, "npm run test *"},
		{[]string{"npm", "run", "testing"}, rules.Ask, ""},
		{[]string{"git", "diff"}, rules.Allow, "git diff *"},
		{[]string{"ls"}, rules.Allow, "ls"},
		{[]string{"ls", "-la"}, rules.Ask, ""},
		{[]string{"git", "push", "origin", "main"}, rules.Ask, "git push *"},
		{[]string{"rm", "-rf", "build"}, rules.Deny, "rm -rf *"},
		{[]string{"cat", "secrets/api.key"}, rules.Deny, "secrets/*"},
		{[]string{"cat", ".env"}, rules.Deny, ".env"},
	} {
		if got, rule := d.exec(c.words...); got != c.want || rule != c.rule {
			t.Errorf("%q: got %s by %q, want %s by %q", c.words, got, rule, c.want, c.rule)
		}
	}
	for _, c := range []struct {
		kind, path string
		want       rules.Decision
	}{
		{rules.KindRead, "~/.ssh/id_ed25519", rules.Deny},
		{rules.KindWrite, "src/main.go", rules.Allow},
		{rules.KindWrite, "src/a/b/c.go", rules.Allow},
		{rules.KindWrite, "docs/a.md", rules.Ask},
		{rules.KindRead, ".env", rules.Deny},
	} {
		if got, rule := d.path(c.kind, c.path); got != c.want {
			t.Errorf("%s %s: got %s by %q, want %s", c.kind, c.path, got, rule, c.want)
		}
	}
}
