package importer_test

import (
	"fmt"
	"os"

	"github.com/guardsh/guardsh/internal/importer"
)

// A Claude Code settings file converts into guardsh rules; what cannot be
// converted is reported.
func Example() {
	res, err := importer.Convert("claude", []byte(`{"permissions": {
		"allow": ["Bash(npm run test:*)", "Bash", "WebFetch(domain:example.com)"],
		"ask": ["Bash(git push *)"],
		"deny": ["Read(~/.ssh/**)"]
	}}`), ".claude/settings.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rules {
		fmt.Printf("%-5s %-5s %-16q from %s\n", r.Section, r.Decision, r.Pattern, r.Text)
	}
	for _, s := range res.Skipped {
		fmt.Printf("not imported: %s\n", s.Text)
	}
	// Output:
	// shell allow "npm run test *" from Bash(npm run test:*)
	// shell ask   "git push *"     from Bash(git push *)
	// read  deny  "~/.ssh/*"       from Read(~/.ssh/**)
	// not imported: Bash
	// not imported: WebFetch(domain:example.com)
}

// WriteYAML writes a fragment for ~/.config/guardsh/config.yaml.
func ExampleResult_WriteYAML() {
	res, err := importer.Convert("codex", []byte(`prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")`), "default.rules")
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := res.WriteYAML(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # guardsh rules imported from Codex rules default.rules
	// # by `guardsh import codex`. Paste them into ~/.config/guardsh/config.yaml,
	// # adding each list's items to the list of the same name there.
	// #
	// # Decisions: forbidden -> deny, prompt -> ask, allow -> allow. guardsh decides
	// # deny > ask > allow, whatever the order or priority of the rules, and matches
	// # a command as its words after quote removal, joined by single spaces.
	// #
	// # A prefix_rule pattern ["git", "push"] became "git push *", which matches
	// # `git push` alone and with arguments; each combination of alternatives became
	// # a rule of its own.
	// rules:
	//   shell:
	//     ask:
	//       - "git push *"  # default.rules line 1: prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")
	//       - "git fetch *"  # default.rules line 1: prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")
}
