package importer

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/guardsh/guardsh/rules"
)

// gooseShell is the name of goose's shell tool, the developer extension's
// shell (goose's "Managing Tool Permissions" guide,
// https://block.github.io/goose/docs/guides/managing-tools/tool-permissions).
const gooseShell = "developer__shell"

// Goose converts goose's permission.yaml (~/.config/goose/permission.yaml),
// which lists tools by permission level per category (goose's
// crates/goose/src/config/permission.rs, PermissionConfig):
//
//	user:
//	  always_allow: [developer__text_editor]
//	  ask_before: [developer__shell]
//	  never_allow: []
//	smart_approve: {...}
//
// The levels are per tool, not per command. The one tool guardsh governs is
// the shell, developer__shell: never_allow becomes a deny rule "*" and
// ask_before an ask rule "*" (every command), and always_allow, which allows
// every command, is not imported (guardsh's mode bypass is the equivalent).
// Other tools are reported. smart_approve is goose's own cache of the levels
// it derives from tool annotations, not a choice of the user's, and is
// reported. A file that is not YAML, or not of this shape, is an
// *InputError with the line.
func Goose(data []byte, file string) (*Result, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, yamlInputError(file, err)
	}
	b := newBuilder("goose", file, "goose permissions", "always_allow", "ask_before", "never_allow")
	b.note("goose's levels are per tool; the shell tool developer__shell covers every command, so its level became a rule \"*\".")
	if len(doc.Content) == 0 {
		return b.res, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return b.res, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &InputError{File: file, Line: root.Line, Problem: "expected a mapping of permission categories (user, smart_approve)"}
	}
	levels := map[string]rules.Decision{"always_allow": rules.Allow, "ask_before": rules.Ask, "never_allow": rules.Deny}
	for i := 0; i+1 < len(root.Content); i += 2 {
		cat, sec := root.Content[i].Value, root.Content[i+1]
		if sec.Kind == yaml.ScalarNode && sec.Tag == "!!null" {
			continue
		}
		if sec.Kind != yaml.MappingNode {
			return nil, &InputError{File: file, Line: sec.Line, Problem: cat + ": expected a mapping of always_allow, ask_before and never_allow"}
		}
		for j := 0; j+1 < len(sec.Content); j += 2 {
			level, list := sec.Content[j].Value, sec.Content[j+1]
			d, ok := levels[level]
			if !ok {
				b.skip(cat+"."+level, nodeText(list), "is not a goose permission level (always_allow, ask_before or never_allow)")
				continue
			}
			if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
				continue
			}
			if list.Kind != yaml.SequenceNode {
				return nil, &InputError{File: file, Line: list.Line, Problem: fmt.Sprintf("%s.%s: expected a list of tool names", cat, level)}
			}
			for k, e := range list.Content {
				where := fmt.Sprintf("%s.%s[%d]", cat, level, k)
				if e.Kind != yaml.ScalarNode {
					b.skip(where, nodeText(e), "is not a tool name")
					continue
				}
				switch {
				case cat != "user":
					b.skip(where, e.Value, "is in goose's "+cat+" category, levels goose derives itself rather than the user's choice; not imported")
				case e.Value == gooseShell:
					b.shellCatchAll(d, where, e.Value, "")
				default:
					b.skip(where, e.Value, gooseToolWhy(e.Value))
				}
			}
		}
	}
	return b.res, nil
}

func gooseToolWhy(tool string) string {
	ext, name, ok := strings.Cut(tool, "__")
	if !ok {
		return "is a tool-level permission for goose's " + tool + " tool; " + whyScope
	}
	return "is a tool-level permission for the " + name + " tool of goose's " + ext + " extension; " + whyScope
}

// nodeText renders a YAML node on one line.
func nodeText(n *yaml.Node) string {
	out, err := yaml.Marshal(n)
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// yamlInputError turns a yaml.v3 error into an *InputError with its line.
func yamlInputError(file string, err error) error {
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &InputError{File: file, Line: line, Problem: "invalid YAML: " + m[2], Err: err}
	}
	return &InputError{File: file, Problem: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: "), Err: err}
}
