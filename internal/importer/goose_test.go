package importer

import (
	"testing"
)

const whySmart = "is in goose's smart_approve category, levels goose derives itself rather than the user's choice; not imported"

func TestGoose(t *testing.T) {
	runConv(t, Goose, []convCase{{
		name:  "the shell asks",
		file:  "goose/permission.yaml",
		rules: []string{`shell ask "*" <- user.ask_before[0] (every command)`},
		skipped: []string{
			"user.always_allow[0]: developer__text_editor: is a tool-level permission for the text_editor tool of goose's developer extension; " + whyWeb,
			"user.always_allow[1]: developer__list_windows: is a tool-level permission for the list_windows tool of goose's developer extension; " + whyWeb,
			"user.never_allow[0]: computercontroller__automation_script: is a tool-level permission for the automation_script tool of goose's computercontroller extension; " + whyWeb,
			"smart_approve.ask_before[0]: developer__shell: " + whySmart,
			"smart_approve.ask_before[1]: developer__text_editor: " + whySmart,
		},
	}, {
		name:  "the shell is never allowed",
		file:  "goose/permission-locked.yaml",
		rules: []string{`shell deny "*" <- user.never_allow[0] (every command)`},
	}, {
		name: "the shell always allowed is not imported",
		file: "permission.yaml",
		data: "user:\n  always_allow: [developer__shell, memory]\n  ask_before:\n  never_allow: []\n",
		skipped: []string{
			"user.always_allow[0]: developer__shell: " + whyAllowAll,
			"user.always_allow[1]: memory: is a tool-level permission for goose's memory tool; " + whyWeb,
		},
	}, {
		name: "odd entries",
		file: "permission.yaml",
		data: "user:\n  sometimes: [developer__shell]\n  never_allow:\n  - {name: x}\nother: ~\n",
		skipped: []string{
			"user.sometimes: [developer__shell]: is not a goose permission level (always_allow, ask_before or never_allow)",
			"user.never_allow[0]: {name: x}: is not a tool name",
		},
	}, {
		name: "an empty file",
		file: "permission.yaml",
		data: "",
	}, {
		name: "a file of comments",
		file: "permission.yaml",
		data: "# nothing\n",
	}})
}

func TestGooseMalformed(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"bad YAML", "user:\n\talways_allow: []\n", "permission.yaml:2: invalid YAML: found character that cannot start any token"},
		{"not a mapping", "- user\n", "permission.yaml:1: expected a mapping of permission categories (user, smart_approve)"},
		{"a category that is a list", "user:\n  - developer__shell\n", "permission.yaml:2: user: expected a mapping of always_allow, ask_before and never_allow"},
		{"a level that is a string", "user:\n  never_allow: developer__shell\n", "permission.yaml:2: user.never_allow: expected a list of tool names"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := convErr(t, Goose, c.data, "permission.yaml").Error(); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
