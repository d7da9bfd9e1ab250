package importer

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/guardsh/guardsh/rules"
)

// Opencode converts an opencode config file (opencode.json, opencode.jsonc,
// ~/.config/opencode/opencode.json), per opencode's "Permissions" page
// (https://opencode.ai/docs/permissions):
//
//	"permission": {
//	  "bash": {"*": "ask", "git status *": "allow", "git push": "deny"},
//	  "edit": {"*": "ask", "docs/*.md": "allow"},
//	  "read": {"*.env": "deny"}
//	}
//
// Each value is "allow", "ask" or "deny"; a permission may be one value for
// every use ("bash": "ask"), and "permission" itself one value for every
// tool. In patterns '*' matches any run of characters and '?' exactly one;
// a bash pattern ending in " *" also matches the bare command, as in
// guardsh, so bash patterns convert as they are (a '?' becomes '*' in a
// deny or ask rule; in an allow rule it is reported). Patterns of edit and
// read become write and read rules (see opencodePath). The newer list form,
// "permissions": [{"action": "shell", "resource": "git *", "effect":
// "allow"}], converts the same way (actions shell or bash, edit, read).
//
// opencode applies the last matching rule; guardsh applies deny > ask >
// allow. A catch-all ask that later rules loosen in opencode is the default
// for what no other rule matches: it is reported, with guardsh's mode
// approve as its equivalent, rather than imported (a "*" would outrank the
// allow rules); such a deny is imported all the same, stricter than the
// source. A catch-all allow is never imported. A tool-level value for edit or read,
// other tools (webfetch, task, external_directory…) and the rules of one
// agent (agent.NAME.permission) that allow are reported; an agent's deny
// and ask rules are imported for every agent. Input that is not a JSON
// object, or a permission of the wrong type, is an *InputError.
func Opencode(data []byte, file string) (*Result, error) {
	root, err := parseJSONC(data, file)
	if err != nil {
		return nil, err
	}
	if root.kind != 'o' {
		return nil, &InputError{File: file, Line: root.line, Problem: "expected a JSON object (opencode config), got " + root.kindName()}
	}
	b := newBuilder("opencode", file, "opencode config", "allow", "ask", "deny")
	b.note("opencode applies the last matching rule; guardsh applies deny > ask > allow, so where a later allow overrode a broader deny or ask in opencode, guardsh is stricter. Relative edit and read patterns became workspace-relative patterns.")
	if p := root.get("permission"); p != nil {
		if err := b.opencodePermission(file, "permission", "", p); err != nil {
			return nil, err
		}
	}
	if p := root.get("permissions"); p != nil {
		if err := b.opencodeList(file, p); err != nil {
			return nil, err
		}
	}
	if agents := root.get("agent"); agents != nil && agents.kind == 'o' {
		for i, name := range agents.keys {
			if p := agents.vals[i].get("permission"); p != nil {
				where := "agent." + jsKey(name) + ".permission"
				if err := b.opencodePermission(file, where, name, p); err != nil {
					return nil, err
				}
			}
		}
	}
	if tools := root.get("tools"); tools != nil && tools.kind == 'o' {
		for i, k := range tools.keys {
			b.skip("tools."+jsKey(k), tools.vals[i].text(), "is a legacy on/off switch for a tool; write it as a permission (\"bash\": \"deny\") and import that; not imported")
		}
	}
	return b.res, nil
}

// jsKey renders an object key for a path: bare when it is a plain name,
// ["quoted"] otherwise.
func jsKey(k string) string {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c != '_' && c != '-' && !isAlnum(c) {
			return strconv.Quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

func opencodeDecision(n *jnode) (rules.Decision, bool) {
	if n.kind != 's' {
		return 0, false
	}
	switch n.str {
	case "allow":
		return rules.Allow, true
	case "ask":
		return rules.Ask, true
	case "deny":
		return rules.Deny, true
	}
	return 0, false
}

// opencodePermission converts a "permission" value at where; agent names
// the agent it belongs to, or is "".
func (b *builder) opencodePermission(file, where, agent string, p *jnode) error {
	a := &opencodeScope{b: b, agent: agent}
	switch p.kind {
	case 'z':
		return nil
	case 's':
		d, ok := opencodeDecision(p)
		if !ok {
			return &InputError{File: file, Line: p.line, Problem: where + ": expected \"allow\", \"ask\", \"deny\" or an object, got " + strconv.Quote(p.str)}
		}
		a.shellAll(d, where, p.str, "")
		return nil
	case 'o':
	default:
		return &InputError{File: file, Line: p.line, Problem: where + ": expected a string or an object, got " + p.kindName()}
	}
	// "*" is the default for every tool, bash included, unless "bash" is a
	// single value, which replaces it.
	bash := p.get("bash")
	for i, tool := range p.keys {
		v := p.vals[i]
		w := where + "." + jsKey(tool)
		if tool == "*" {
			w = where + `["*"]`
		}
		switch tool {
		case "bash":
			if err := a.bash(file, w, v); err != nil {
				return err
			}
		case "edit", "read":
			if err := a.paths(file, w, tool, v); err != nil {
				return err
			}
		case "*":
			d, ok := opencodeDecision(v)
			if !ok {
				return &InputError{File: file, Line: v.line, Problem: w + `: expected "allow", "ask" or "deny", got ` + v.text()}
			}
			if bash != nil && bash.kind == 's' {
				b.skip(w, v.str, "is the default for every tool; for bash the single value of \"bash\" replaces it, and other tools are not guardsh's; not imported")
				continue
			}
			overridden := ""
			if bash != nil && bash.kind == 'o' && loosens(bash, 0, d) {
				overridden = "the bash rules after it loosen it there"
			}
			a.shellAll(d, w, v.str, overridden)
		default:
			b.skip(w, v.text(), "is a permission for opencode's "+tool+" tool; "+whyScope)
		}
	}
	return nil
}

// loosens reports whether a rule of object rs from index i on has a
// decision looser than d.
func loosens(rs *jnode, i int, d rules.Decision) bool {
	for ; i < len(rs.vals); i++ {
		if e, ok := opencodeDecision(rs.vals[i]); ok && e < d {
			return true
		}
	}
	return false
}

// opencodeScope converts the rules of one permission object: the
// top-level one, or an agent's.
type opencodeScope struct {
	b     *builder
	agent string
}

// agentAllow reports an allow rule of an agent, which imported would
// allow for every agent.
func (a *opencodeScope) agentAllow(d rules.Decision, where, text string) bool {
	if a.agent == "" || d != rules.Allow {
		return false
	}
	a.b.skip(where, text, "allows only for the "+a.agent+" agent; imported, it would allow for every agent")
	return true
}

func (a *opencodeScope) note() string {
	if a.agent == "" {
		return ""
	}
	return "the " + a.agent + " agent's rule, imported for every agent"
}

// shellAll records a rule matching every command (see
// builder.shellCatchAll).
func (a *opencodeScope) shellAll(d rules.Decision, where, text, overridden string) {
	if a.agentAllow(d, where, text) {
		return
	}
	n := len(a.b.res.Rules)
	a.b.shellCatchAll(d, where, text, overridden)
	if note := a.note(); note != "" && len(a.b.res.Rules) > n {
		a.b.res.Rules[n].Note = joinNote(a.b.res.Rules[n].Note, note)
	}
}

// bash converts permission.bash.
func (a *opencodeScope) bash(file, where string, v *jnode) error {
	switch v.kind {
	case 'z':
		return nil
	case 's':
		d, ok := opencodeDecision(v)
		if !ok {
			return &InputError{File: file, Line: v.line, Problem: where + `: expected "allow", "ask", "deny" or an object, got ` + v.text()}
		}
		a.shellAll(d, where, v.str, "")
		return nil
	case 'o':
	default:
		return &InputError{File: file, Line: v.line, Problem: where + ": expected a string or an object, got " + v.kindName()}
	}
	for i, pat := range v.keys {
		w := where + "[" + strconv.Quote(pat) + "]"
		e := v.vals[i]
		d, ok := opencodeDecision(e)
		if !ok {
			a.b.skip(w, e.text(), "has a value other than \"allow\", \"ask\" or \"deny\"")
			continue
		}
		if later := lastIndex(v.keys, pat); later != i {
			a.b.skip(w, e.str, fmt.Sprintf("is a duplicate key; the later one (line %d) takes effect", v.vals[later].line))
			continue
		}
		overridden := ""
		if loosens(v, i+1, d) {
			overridden = "the rules after it loosen it"
		}
		a.shellRule(d, w, e.str, pat, overridden)
	}
	return nil
}

// shellRule converts one bash pattern.
func (a *opencodeScope) shellRule(d rules.Decision, where, text, pat, overridden string) {
	if a.agentAllow(d, where, text) {
		return
	}
	note := ""
	if strings.Contains(pat, "?") {
		if d == rules.Allow {
			a.b.skip(where, text, "has the wildcard ? (exactly one character), which guardsh cannot spell exactly")
			return
		}
		pat, note = collapseStars(strings.ReplaceAll(pat, "?", "*")), "widened: ? became *"
	}
	p, why := shellPattern(pat, true)
	if why != "" {
		a.b.skip(where, text, why)
		return
	}
	if matchesEverything(p) {
		a.shellAll(d, where, text, overridden)
		return
	}
	a.b.add("shell", d, p, where, text, joinNote(note, a.note()))
}

// paths converts permission.edit or permission.read.
func (a *opencodeScope) paths(file, where, tool string, v *jnode) error {
	section := "write"
	if tool == "read" {
		section = "read"
	}
	switch v.kind {
	case 'z':
		return nil
	case 's':
		a.b.skip(where, v.str, "is a tool-level setting for opencode's "+tool+" tool; as a guardsh "+section+" rule it would cover every path any command touches; not imported")
		return nil
	case 'o':
	default:
		return &InputError{File: file, Line: v.line, Problem: where + ": expected a string or an object, got " + v.kindName()}
	}
	for i, pat := range v.keys {
		w := where + "[" + strconv.Quote(pat) + "]"
		e := v.vals[i]
		d, ok := opencodeDecision(e)
		if !ok {
			a.b.skip(w, e.text(), "has a value other than \"allow\", \"ask\" or \"deny\"")
			continue
		}
		a.pathRule(section, w, e.str, pat, d)
	}
	return nil
}

// pathRule converts one path pattern of section "write" or "read".
func (a *opencodeScope) pathRule(section, where, text, pat string, d rules.Decision) {
	if a.agentAllow(d, where, text) {
		return
	}
	if strings.Trim(pat, "*") == "" {
		a.b.skip(where, text, "covers every path, a tool-level setting; as a guardsh "+section+" rule it would cover every path any command touches; not imported")
		return
	}
	pats, note, why := opencodePath(pat, d != rules.Allow)
	if why != "" {
		a.b.skip(where, text, why)
		return
	}
	for _, p := range pats {
		a.b.add(section, d, p, where, text, joinNote(note, a.note()))
	}
}

// collapseStars replaces each run of '*' in s with one.
func collapseStars(s string) string {
	for strings.Contains(s, "**") {
		s = strings.ReplaceAll(s, "**", "*")
	}
	return s
}

func lastIndex(keys []string, k string) int {
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i] == k {
			return i
		}
	}
	return -1
}

// opencodeList converts the list form, "permissions": [{"action",
// "resource", "effect"}].
func (b *builder) opencodeList(file string, p *jnode) error {
	if p.kind == 'z' {
		return nil
	}
	if p.kind != 'a' {
		return &InputError{File: file, Line: p.line, Problem: "permissions: expected a list of rules, got " + p.kindName()}
	}
	a := &opencodeScope{b: b}
	for i, r := range p.vals {
		where := fmt.Sprintf("permissions[%d]", i)
		if r.kind != 'o' {
			b.skip(where, r.text(), "is not a rule object")
			continue
		}
		action, resource, effect := r.get("action"), r.get("resource"), r.get("effect")
		if action == nil || action.kind != 's' || resource == nil || resource.kind != 's' || effect == nil {
			b.skip(where, r.text(), "lacks a string action, resource or effect")
			continue
		}
		d, ok := opencodeDecision(effect)
		if !ok {
			b.skip(where, r.text(), "has an effect other than \"allow\", \"ask\" or \"deny\"")
			continue
		}
		text := fmt.Sprintf("%s %s: %s", action.str, strconv.Quote(resource.str), effect.str)
		switch action.str {
		case "shell", "bash":
			overridden := ""
			if laterLooser(p, i, action.str, d) {
				overridden = "the rules after it loosen it"
			}
			a.shellRule(d, where, text, resource.str, overridden)
		case "edit", "read":
			section := "write"
			if action.str == "read" {
				section = "read"
			}
			a.pathRule(section, where, text, resource.str, d)
		default:
			b.skip(where, text, "is a permission for opencode's "+action.str+" action; "+whyScope)
		}
	}
	return nil
}

// laterLooser reports whether a rule of list p after index i, for the same
// action, has a decision looser than d.
func laterLooser(p *jnode, i int, action string, d rules.Decision) bool {
	for _, r := range p.vals[i+1:] {
		if act := r.get("action"); act == nil || act.kind != 's' || act.str != action {
			continue
		}
		if eff := r.get("effect"); eff != nil {
			if e, ok := opencodeDecision(eff); ok && e < d {
				return true
			}
		}
	}
	return false
}
