package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/guardsh/guardsh/internal/importer"
)

// Exit statuses of guardsh import: 0 when the file was read (entries not
// converted are reported, not failures), 2 for a file that cannot be read
// or is not of the tool's format, 64 (EX_USAGE) for a usage error; 1 when
// the rules cannot be written to stdout.
const (
	importBadInput = 2
	importUsage    = 64
)

const importUsageText = "usage: guardsh import claude|codex|gemini|goose|opencode FILE"

const importHelp = `Converts another coding agent's permission rules into guardsh rules.

  claude    Claude Code settings: ~/.claude/settings.json, .claude/settings.json,
            .claude/settings.local.json (permissions.allow/ask/deny)
  codex     Codex rules: ~/.codex/rules/*.rules (prefix_rule calls)
  gemini    Gemini CLI policy: ~/.gemini/policies/*.toml ([[rule]] tables),
            or settings.json (tools.allowed, tools.exclude)
  goose     goose tool permissions: ~/.config/goose/permission.yaml
  opencode  opencode config: opencode.json, opencode.jsonc (permission)

Prints a YAML fragment for ~/.config/guardsh/config.yaml on stdout, each rule
with a comment naming the entry it came from, and on stderr one line per entry
not converted: "guardsh: import: FILE: ENTRY: WHY". Decisions are kept (deny,
ask/prompt/ask_user, allow); nothing is widened: a rule allowing every command
is never imported (guardsh's mode bypass is its equivalent).

Exit status: 0 when FILE was read, 2 when it cannot be read or is not of the
tool's format, 64 for a usage error.`

// importMain converts the file of another tool's permission rules.
func importMain(args []string, stdout, stderr io.Writer) int {
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "guardsh import: %s\n%s\n", msg, importUsageText)
		return importUsage
	}
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case a == "--help" || a == "-h":
			fmt.Fprintln(stdout, importUsageText)
			fmt.Fprintln(stdout, importHelp)
			return 0
		case strings.HasPrefix(a, "-") && a != "-":
			return usage("unknown flag " + a)
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) != 2 {
		return usage(fmt.Sprintf("want a tool and a FILE, got %d operand(s)", len(operands)))
	}
	res, err := importer.ReadFile(operands[0], operands[1])
	if errors.Is(err, importer.ErrUnknownTool) {
		return usage(err.Error())
	}
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: import: %v\n", err)
		return importBadInput
	}
	if err := res.WriteYAML(stdout); err != nil {
		fmt.Fprintf(stderr, "guardsh: import: writing the rules: %v\n", err)
		return 1
	}
	_ = res.WriteReport(stderr)
	return 0
}
