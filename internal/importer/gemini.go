package importer

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/guardsh/guardsh/rules"
)

// Gemini converts a Gemini CLI policy file (~/.gemini/policies/*.toml,
// .gemini/policies/*.toml) or settings file (settings.json): a file whose
// name ends in .json, or whose first character is '{', is taken as
// settings, any other as a policy.
//
// A policy holds [[rule]] tables (Gemini CLI's policy engine reference,
// https://geminicli.com/docs/reference/policy-engine/, "TOML rule schema").
// A rule for the shell tool (toolName = "run_shell_command", or a
// commandPrefix or commandRegex, which imply it) converts:
//
//   - commandPrefix, a string or a list, matches a command that starts with
//     the prefix followed by white space or its end (Gemini CLI appends that
//     word boundary, packages/core/src/policy/utils.ts buildArgsPatterns),
//     so "git" becomes "git *";
//   - commandRegex is reported, unless it is a plain literal: it is matched
//     from the command's start and not anchored at its end, so the literal
//     "git status" becomes "git status*";
//   - a rule with neither matches every command;
//   - decision "deny" stays deny, "ask_user" becomes ask, "allow" allow.
//
// modes, interactive, subagent and toolAnnotations make a rule apply only
// sometimes: such an allow is reported (imported, it would allow always),
// a deny or ask is imported, stricter than the source. argsPattern, mcpName
// and rules for other tools are reported.
//
// Settings lists tools.allowed (legacy allowedTools) and tools.exclude
// (legacy excludeTools) convert entries run_shell_command(PREFIX) and
// ShellTool(PREFIX), which match the command's start at a word boundary
// (docs/tools/shell.md, "Command Restrictions"), into allow and deny rules;
// tools.core (legacy coreTools) only limits which commands exist, which
// guardsh cannot express, and is reported.
//
// A file that is not TOML, or not JSON, is an *InputError with the line.
func Gemini(data []byte, file string) (*Result, error) {
	if isGeminiSettings(data, file) {
		return geminiSettings(data, file)
	}
	return geminiPolicy(data, file)
}

func isGeminiSettings(data []byte, file string) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".json", ".jsonc":
		return true
	case ".toml":
		return false
	}
	s := strings.TrimLeft(strings.TrimPrefix(string(data), "\uFEFF"), " \t\r\n")
	return strings.HasPrefix(s, "{")
}

// geminiRule is one [[rule]] as the converter reads it.
type geminiRule struct {
	where    string
	fields   map[string]any
	decision rules.Decision
	priority int64
	shell    bool     // applies to the shell tool
	others   []string // other tools it names
}

func geminiPolicy(data []byte, file string) (*Result, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			return nil, &InputError{File: file, Line: line, Problem: "invalid TOML: " + de.Error(), Err: err}
		}
		return nil, &InputError{File: file, Problem: "invalid TOML: " + err.Error(), Err: err}
	}
	b := newBuilder("gemini", file, "Gemini CLI policy", "allow", "ask_user", "deny")
	b.note("Gemini CLI's commandPrefix matches whole words (\"git\" matches `git status`, not `gitk`), so a prefix \"git push\" became \"git push *\", which matches `git push` alone and with arguments. Gemini CLI applies the matching rule of highest priority; guardsh applies deny > ask > allow, so where a higher-priority allow overrode a broader deny or ask, guardsh is stricter.")

	keys := make([]string, 0, len(doc))
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "rule" {
			b.skip(k, tomlText(doc[k]), "is not a [[rule]] table; not imported")
		}
	}
	var tables []map[string]any
	switch v := doc["rule"].(type) {
	case nil:
	case []map[string]any:
		tables = v
	case []any: // rule = [{...}, {...}], the same array of tables
		for _, e := range v {
			t, ok := e.(map[string]any)
			if !ok {
				return nil, &InputError{File: file, Problem: fmt.Sprintf("rule: expected [[rule]] tables, got an array holding %s", tomlType(e))}
			}
			tables = append(tables, t)
		}
	default:
		return nil, &InputError{File: file, Problem: fmt.Sprintf("rule: expected [[rule]] tables, got %s", tomlType(v))}
	}

	var shell []*geminiRule // the rules for the shell tool
	whys := make([]string, len(tables))
	all := make([]*geminiRule, len(tables))
	for i, t := range tables {
		all[i] = &geminiRule{where: fmt.Sprintf("rule[%d]", i), fields: t}
		if whys[i] = all[i].read(); whys[i] == "" {
			shell = append(shell, all[i])
		}
	}
	for i, r := range all {
		if whys[i] != "" {
			b.skip(r.where, geminiText(r.fields, nil), whys[i])
			continue
		}
		b.geminiRule(r, shell)
	}
	return b.res, nil
}

// read checks r's decision, priority and tools; it returns why r cannot be
// converted at all, or "".
func (r *geminiRule) read() string {
	t := r.fields
	switch t["decision"] {
	case "allow":
		r.decision = rules.Allow
	case "ask_user":
		r.decision = rules.Ask
	case "deny":
		r.decision = rules.Deny
	default:
		return "has no decision \"allow\", \"deny\" or \"ask_user\""
	}
	switch p := t["priority"].(type) {
	case nil:
	case int64:
		r.priority = p
	default:
		return "has a priority that is not a whole number"
	}
	if _, ok := t["mcpName"]; ok {
		return "is a rule for MCP tools; " + whyScope
	}
	var tools []string
	switch v := t["toolName"].(type) {
	case nil:
	case string:
		tools = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return "has a toolName list with a value that is not a string"
			}
			tools = append(tools, s)
		}
	default:
		return "has a toolName that is neither a string nor a list"
	}
	_, hasPrefix := t["commandPrefix"]
	_, hasRegex := t["commandRegex"]
	if len(tools) == 0 && (hasPrefix || hasRegex) {
		tools = []string{"run_shell_command"}
	}
	for _, name := range tools {
		switch name {
		case "run_shell_command", "*":
			r.shell = true
		default:
			r.others = append(r.others, name)
		}
	}
	if !r.shell {
		if len(tools) == 0 {
			return "names no tool"
		}
		return "is a rule for Gemini CLI's " + strings.Join(tools, ", ") + " tool, not the shell; " + whyScope
	}
	return ""
}

// geminiRule converts one shell rule; all are the file's shell rules, for
// telling whether a catch-all is overridden by higher-priority rules.
func (b *builder) geminiRule(r *geminiRule, all []*geminiRule) {
	t := r.fields
	text := geminiText(t, nil)
	if len(r.others) > 0 {
		b.skip(r.where, text, "also names "+strings.Join(r.others, ", ")+", not the shell; that part is not imported: "+whyScope)
	}
	conds, note := geminiConditions(t)
	if conds != "" && r.decision == rules.Allow {
		b.skip(r.where, text, "applies only "+conds+"; imported, it would allow in every case")
		return
	}
	if msg, ok := t["denyMessage"].(string); ok && msg != "" {
		note = joinNote(note, "denyMessage: "+msg)
	}
	prefix, hasPrefix := t["commandPrefix"]
	regex, hasRegex := t["commandRegex"]
	_, hasArgs := t["argsPattern"]
	switch {
	case hasPrefix && hasRegex:
		b.skip(r.where, text, "has both commandPrefix and commandRegex, which Gemini CLI does not allow")
	case hasArgs && (hasPrefix || hasRegex):
		b.skip(r.where, text, "has argsPattern besides a command condition")
	case hasArgs:
		b.skip(r.where, text, "matches its arguments with a regular expression (argsPattern), which guardsh cannot express")
	case hasPrefix:
		var prefixes []string
		switch v := prefix.(type) {
		case string:
			prefixes = []string{v}
		case []any:
			for _, e := range v {
				s, ok := e.(string)
				if !ok {
					b.skip(r.where, text, "has a commandPrefix list with a value that is not a string")
					return
				}
				prefixes = append(prefixes, s)
			}
		default:
			b.skip(r.where, text, "has a commandPrefix that is neither a string nor a list")
			return
		}
		for j, p := range prefixes {
			where := r.where
			if _, isList := prefix.([]any); isList {
				where = fmt.Sprintf("%s.commandPrefix[%d]", r.where, j)
			}
			one := geminiText(t, p)
			pat, why := shellPattern(p, false)
			if why != "" {
				b.skip(where, one, "has a prefix that "+why)
				continue
			}
			b.add("shell", r.decision, prefixPattern(pat), where, one, note)
		}
	case hasRegex:
		re, ok := regex.(string)
		if !ok {
			b.skip(r.where, text, "has a commandRegex that is not a string")
			return
		}
		lit, isLit := regexLiteral(re)
		if !isLit {
			b.skip(r.where, text, "is a regular expression (commandRegex), which guardsh cannot express; only a plain literal prefix converts")
			return
		}
		pat, why := shellPattern(lit, false)
		if why != "" {
			b.skip(r.where, text, "has a prefix that "+why)
			return
		}
		if strings.TrimRight(lit, " \t") != lit {
			// "git " needs a space after git: "git *" also matches `git`.
			if r.decision == rules.Allow {
				b.skip(r.where, text, "needs white space after \""+pat+"\"; guardsh's \""+pat+" *\" would also allow the bare command")
				return
			}
			b.add("shell", r.decision, prefixPattern(pat), r.where, text, note)
			return
		}
		b.add("shell", r.decision, pat+"*", r.where, text, note)
	default:
		b.shellCatchAll(r.decision, r.where, text, geminiOverriders(r, all))
	}
}

// geminiOverriders names the shell rules of higher priority and looser
// decision than catch-all r, which Gemini CLI lets override it.
func geminiOverriders(r *geminiRule, all []*geminiRule) string {
	var names []string
	for _, o := range all {
		if o != r && o.priority > r.priority && o.decision < r.decision {
			names = append(names, o.where)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "Gemini CLI lets the higher-priority " + strings.Join(names, ", ") + " override it"
}

// geminiConditions describes the conditions that make rule t apply only
// sometimes, and the note a stricter import carries.
func geminiConditions(t map[string]any) (conds, note string) {
	var cs []string
	if m, ok := t["modes"].([]any); ok && len(m) > 0 {
		cs = append(cs, "in the modes "+tomlText(m))
	}
	if v, ok := t["interactive"].(bool); ok {
		if v {
			cs = append(cs, "in interactive sessions")
		} else {
			cs = append(cs, "in non-interactive sessions")
		}
	}
	if v, ok := t["subagent"]; ok {
		cs = append(cs, "to the subagent "+tomlText(v))
	}
	if v, ok := t["toolAnnotations"]; ok {
		cs = append(cs, "to tools annotated "+tomlText(v))
	}
	known := map[string]bool{"toolName": true, "mcpName": true, "subagent": true, "toolAnnotations": true,
		"argsPattern": true, "commandPrefix": true, "commandRegex": true, "decision": true, "priority": true,
		"denyMessage": true, "modes": true, "interactive": true, "allowRedirection": true}
	var unknown []string
	for k := range t {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		cs = append(cs, "under the unknown condition "+k)
	}
	if len(cs) == 0 {
		return "", ""
	}
	conds = strings.Join(cs, " and ")
	return conds, "imported for every case; Gemini CLI applied it only " + conds
}

// joinNote joins two notes, either of which may be empty.
func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// regexLiteral returns the text re matches when re is a plain literal:
// letters, digits, white space and punctuation that is not special to
// regular expressions, or punctuation escaped with '\'.
func regexLiteral(re string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\':
			if i+1 == len(re) {
				return "", false
			}
			i++
			e := re[i]
			if isAlnum(e) || e == '"' || e == '\\' || e >= 0x80 {
				return "", false
			}
			b.WriteByte(e)
		case isAlnum(c) || c == ' ' || strings.IndexByte("_-,/:=@%~!#&;'<>`", c) >= 0 || c >= 0x80:
			b.WriteByte(c)
		default:
			return "", false
		}
	}
	return b.String(), b.Len() > 0
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// geminiText renders a rule compactly for origins; prefix, when not nil,
// stands for its commandPrefix.
func geminiText(t map[string]any, prefix any) string {
	var parts []string
	for _, k := range []string{"toolName", "mcpName", "subagent", "commandPrefix", "commandRegex", "argsPattern", "decision", "priority", "modes", "interactive"} {
		v, ok := t[k]
		if k == "commandPrefix" && prefix != nil {
			v, ok = prefix, true
		}
		if ok {
			parts = append(parts, k+" = "+tomlText(v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// tomlText renders a decoded TOML value.
func tomlText(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = tomlText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " = " + tomlText(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []map[string]any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = tomlText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64, float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return "a value"
}

// geminiSettings converts a Gemini CLI settings.json.
func geminiSettings(data []byte, file string) (*Result, error) {
	root, err := parseJSONC(data, file)
	if err != nil {
		return nil, err
	}
	if root.kind != 'o' {
		return nil, &InputError{File: file, Line: root.line, Problem: "expected a JSON object (Gemini CLI settings), got " + root.kindName()}
	}
	b := newBuilder("gemini", file, "Gemini CLI settings", "tools.allowed", "", "tools.exclude")
	b.note("Gemini CLI matches run_shell_command(PREFIX) against the command's start at a word boundary, so run_shell_command(git push) became \"git push *\", which matches `git push` alone and with arguments.")
	type list struct {
		where string
		n     *jnode
	}
	var lists []list
	if tools := root.get("tools"); tools != nil && tools.kind == 'o' {
		for _, k := range []string{"allowed", "exclude", "core"} {
			if n := tools.get(k); n != nil {
				lists = append(lists, list{"tools." + k, n})
			}
		}
	} else if tools != nil && tools.kind != 'z' {
		return nil, &InputError{File: file, Line: tools.line, Problem: "tools: expected an object, got " + tools.kindName()}
	}
	for _, k := range []string{"allowedTools", "excludeTools", "coreTools"} {
		if n := root.get(k); n != nil {
			lists = append(lists, list{k, n})
		}
	}
	for _, l := range lists {
		if l.n.kind == 'z' {
			continue
		}
		if l.n.kind != 'a' {
			return nil, &InputError{File: file, Line: l.n.line, Problem: fmt.Sprintf("%s: expected a list of tool names, got %s", l.where, l.n.kindName())}
		}
		for j, e := range l.n.vals {
			where := fmt.Sprintf("%s[%d]", l.where, j)
			if e.kind != 's' {
				b.skip(where, e.text(), "is "+e.kindName()+", not a tool name")
				continue
			}
			b.geminiSetting(l.where, where, e.str)
		}
	}
	return b.res, nil
}

// geminiSetting converts one entry of the list named list.
func (b *builder) geminiSetting(list, where, text string) {
	name, args, hasArgs := strings.Cut(text, "(")
	name = strings.TrimSpace(name)
	if hasArgs {
		if !strings.HasSuffix(args, ")") {
			b.skip(where, text, "is not a tool name or TOOL(ARGUMENTS)")
			return
		}
		args = args[:len(args)-1]
	}
	if name != "run_shell_command" && name != "ShellTool" {
		b.skip(where, text, "names Gemini CLI's "+name+" tool, not the shell; "+whyScope)
		return
	}
	if strings.HasSuffix(list, "core") || strings.HasSuffix(list, "coreTools") {
		if !hasArgs {
			b.skip(where, text, "makes the shell tool available; nothing to import")
			return
		}
		b.skip(where, text, "limits the shell to commands that start this way; guardsh has no allow-only list (a deny rule \"*\" would outrank every allow rule); not imported")
		return
	}
	d := rules.Allow
	if strings.Contains(strings.ToLower(list), "exclude") {
		d = rules.Deny
	}
	if !hasArgs {
		b.shellCatchAll(d, where, text, "")
		return
	}
	pat, why := shellPattern(args, false)
	if why != "" {
		b.skip(where, text, "has a prefix that "+why)
		return
	}
	b.add("shell", d, prefixPattern(pat), where, text, "")
}
