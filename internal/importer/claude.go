package importer

import (
	"fmt"
	"strings"

	"github.com/guardsh/guardsh/rules"
)

// Claude converts a Claude Code settings file (~/.claude/settings.json,
// .claude/settings.json, .claude/settings.local.json, managed settings):
// the rule lists permissions.allow, permissions.ask and permissions.deny.
// The rule syntax is Claude Code's "Configure permissions" page
// (https://code.claude.com/docs/en/permissions, "Permission rule syntax"):
// a rule is Tool or Tool(specifier).
//
//   - Bash(cmd) matches the command cmd exactly; Bash(cmd:*) (the legacy
//     prefix form) matches cmd alone or followed by a space and anything,
//     so it becomes "cmd *"; in Bash(git diff *) a '*' matches any run of
//     characters and a trailing " *" also matches the bare command, as in
//     guardsh, so it is kept. Bash and Bash(*) match every command.
//   - Read(path) becomes a read rule; Edit, Write, MultiEdit and
//     NotebookEdit (the tools that edit files) become write rules. Paths
//     follow gitignore with Claude Code's anchors (see claudePath).
//   - Every other tool (WebFetch(domain:…), WebSearch, mcp__…, Glob, Grep,
//     Task…) is reported: guardsh governs shell commands and file paths.
//
// Keys of permissions other than the three lists (defaultMode,
// additionalDirectories…) are reported too. Input that is not a JSON object,
// or a list that is not a list, is an *InputError.
func Claude(data []byte, file string) (*Result, error) {
	root, err := parseJSONC(data, file)
	if err != nil {
		return nil, err
	}
	if root.kind != 'o' {
		return nil, &InputError{File: file, Line: root.line, Problem: "expected a JSON object (Claude Code settings), got " + root.kindName()}
	}
	b := newBuilder("claude", file, "Claude Code settings", "allow", "ask", "deny")
	b.note("A prefix rule Bash(git push:*) became \"git push *\", which matches `git push` alone and with arguments; Bash(...) patterns with * keep their meaning.")
	b.note("Claude Code's Read(...) became read rules and Edit, Write, MultiEdit and NotebookEdit(...) write rules. Their relative paths, \"/path\" (from the settings file's project) and \"path\" or \"./path\" (from the current directory), became workspace-relative patterns, which guardsh reads against the workspace; \"//path\" is absolute. gitignore's ** became *, and a deny or ask rule also covers what is inside a directory it names.")
	perms := root.get("permissions")
	if perms == nil || perms.kind == 'z' {
		// Not an error (a settings file may set only env or hooks), but
		// say so: the file may be another tool's.
		b.skip("permissions", "(absent)", "the file has no permissions object, so there is nothing to import; is it a Claude Code settings.json?")
		return b.res, nil
	}
	if perms.kind != 'o' {
		return nil, &InputError{File: file, Line: perms.line, Problem: "permissions: expected an object, got " + perms.kindName()}
	}
	lists := map[string]rules.Decision{"deny": rules.Deny, "ask": rules.Ask, "allow": rules.Allow}
	for i, key := range perms.keys {
		v := perms.vals[i]
		d, isList := lists[key]
		if !isList {
			b.skip("permissions."+key, v.text(), claudeSettingWhy(key))
			continue
		}
		if v.kind == 'z' {
			continue
		}
		if v.kind != 'a' {
			return nil, &InputError{File: file, Line: v.line, Problem: fmt.Sprintf("permissions.%s: expected a list of rules, got %s", key, v.kindName())}
		}
		for j, e := range v.vals {
			where := fmt.Sprintf("permissions.%s[%d]", key, j)
			if e.kind != 's' {
				b.skip(where, e.text(), "is "+e.kindName()+", not a rule string")
				continue
			}
			b.claudeRule(d, where, e.str)
		}
	}
	return b.res, nil
}

func claudeSettingWhy(key string) string {
	switch key {
	case "defaultMode":
		return "is the permission mode, not a rule; guardsh's mode is set by mode: in its config (default ask, bypass, plan...); not imported"
	case "additionalDirectories":
		return "widens Claude Code's working directories; guardsh's workspace is where the command runs; not imported"
	}
	return "is not a rule list; " + whyScope
}

// claudeRule converts one rule string of decision d.
func (b *builder) claudeRule(d rules.Decision, where, text string) {
	tool, spec, hasSpec := strings.Cut(text, "(")
	tool = strings.TrimSpace(tool)
	if hasSpec {
		if !strings.HasSuffix(spec, ")") {
			b.skip(where, text, "is not a rule: Tool or Tool(specifier) expected")
			return
		}
		spec = spec[:len(spec)-1]
	}
	all := !hasSpec || strings.TrimSpace(spec) == "*"
	switch tool {
	case "Bash":
		if all {
			b.shellCatchAll(d, where, text, "")
			return
		}
		b.claudeBash(d, where, text, spec)
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit":
		section := "write"
		if tool == "Read" {
			section = "read"
		}
		if all || strings.TrimSpace(spec) == "**" {
			b.skip(where, text, fmt.Sprintf("covers every use of Claude Code's %s tool, a tool-level setting; as a guardsh %s rule it would cover every path any command touches; not imported", tool, section))
			return
		}
		pats, note, why := claudePath(spec, d != rules.Allow)
		if why != "" {
			b.skip(where, text, why)
			return
		}
		for _, p := range pats {
			b.add(section, d, p, where, text, note)
		}
	case "":
		b.skip(where, text, "is not a rule: Tool or Tool(specifier) expected")
	default:
		b.skip(where, text, claudeToolWhy(tool))
	}
}

// claudeBash converts a Bash(spec) rule that is not a catch-all.
func (b *builder) claudeBash(d rules.Decision, where, text, spec string) {
	if strings.Contains(spec, `\*`) {
		b.skip(where, text, "has an escaped \\*, a literal * that guardsh cannot spell")
		return
	}
	if prefix, ok := strings.CutSuffix(spec, ":*"); ok {
		p, why := shellPattern(prefix, false)
		if why != "" {
			if strings.TrimSpace(prefix) == "" {
				b.shellCatchAll(d, where, text, "")
				return
			}
			b.skip(where, text, why)
			return
		}
		b.add("shell", d, prefixPattern(p), where, text, "")
		return
	}
	p, why := shellPattern(spec, true)
	if why != "" {
		b.skip(where, text, why)
		return
	}
	if matchesEverything(p) {
		b.shellCatchAll(d, where, text, "")
		return
	}
	b.add("shell", d, p, where, text, "")
}

func claudeToolWhy(tool string) string {
	switch {
	case strings.HasPrefix(tool, "mcp__"):
		return "is a rule for an MCP tool; " + whyScope
	case tool == "WebFetch" || tool == "WebSearch":
		return "is a rule for Claude Code's web tool " + tool + "; " + whyScope
	case tool == "Glob" || tool == "Grep" || tool == "LS":
		return "is a rule for Claude Code's search tool " + tool + " (Read rules cover what it reads); " + whyScope
	}
	return "is a rule for Claude Code's " + tool + " tool; " + whyScope
}
