// Command guardsh is the shell an AI coding agent or a CI step is given
// instead of bash. It takes bash's command line, analyses the command into
// the simple commands that would run, decides each against the user's
// policy, refuses the whole command when any part is denied or needs an
// approval it cannot get, otherwise runs exactly that text in the real bash,
// and appends one JSONL audit record.
//
// Usage is bash's (guardsh -c 'CMD' [$0 [ARGS…]], guardsh FILE [ARGS…], a
// script on stdin), plus:
//
//	guardsh check [--config F] [--mode M] [--cwd D] [--ci] [--json] [--explain] [--] COMMAND
//	guardsh config show [--config F] [--cwd D]
//	guardsh config lint [FILE…]
//	guardsh import claude|codex|gemini|goose|opencode FILE
//	guardsh approvals | approve ID [--always] | deny ID [-m MSG]
//	guardsh llm test [--config F]
//	guardsh version
//	guardsh default-config    (prints the embedded default policy)
//	guardsh ci-config         (prints the CI policy preset)
//	guardsh audit verify|tail|stats|replay …
//	guardsh replay [--speed X] [--idle-limit S] ID   (plays a terminal session recording)
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardsh/guardsh/internal/ci"
	"github.com/guardsh/guardsh/internal/signals"
	"github.com/guardsh/guardsh/rules"
)

// Exit statuses. Refused follows bash's "found but cannot execute";
// usage follows bash's status for a bad option.
const (
	exitRefused = 126
	exitUsage   = 2
)

// helpText is `guardsh help`: guardsh's own commands (`guardsh --help`
// is bash's, as for any bash command line).
const helpText = `guardsh: the shell an AI agent or a CI step is given instead of bash.

Run commands as bash does (every command is decided before it runs):
  guardsh [--mode M] [bash options] -c 'COMMAND' [$0 [ARGS…]]
  guardsh [bash options] FILE [ARGS…]      a script; or a script on stdin
  guardsh-prefix 'COMMAND'                 a command prefix (Claude Code)

Commands:
  guardsh check [--config F] [--mode M] [--cwd D] [--ci] [--json] [--explain] COMMAND
                                           the decision, nothing runs
  guardsh config show [--config F] [--cwd D]   the effective policy
  guardsh config lint [FILE…]              mistakes in config files
  guardsh import claude|codex|gemini|goose|opencode FILE
                                           other agents' rules as guardsh rules
  guardsh approvals                        pending approvals
  guardsh approve ID [--always]            approve one (from your terminal)
  guardsh deny ID [-m MESSAGE]             deny one, with a word for the agent
  guardsh llm test [--config F]            check the llm: endpoint with a canned review
  guardsh default-config                   the embedded default policy
  guardsh ci-config                        the CI policy preset
  guardsh audit verify|tail|stats|replay   check, query and replay the audit log
                                           (guardsh audit help; replay decides
                                           logged commands again under a new policy)
  guardsh replay [--speed X] [--idle-limit S] ID
                                           play the terminal session recorded
                                           for audit record ID (record: true)
  guardsh version
  guardsh help

--mode M and GUARDSH_MODE may only make the configured mode stricter.
Config: $GUARDSH_CONFIG, else ~/.config/guardsh/config.yaml, plus
/etc/guardsh/config.yaml and the project's .guardsh.yaml (ask/deny only).
`

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	status := guardshMain(os.Args, os.Stdin, os.Stdout, os.Stderr)
	signals.Settle()
	os.Exit(status)
}

// guardshMain dispatches on argv[0] and the first argument and returns the
// exit status.
func guardshMain(argv []string, stdin *os.File, stdout, stderr io.Writer) int {
	base := "guardsh"
	if len(argv) > 0 {
		base = filepath.Base(argv[0])
	}
	// Under a shell's name the first operand is a script, as for bash.
	asShell := base == "bash" || base == "sh" || base == "guardsh-prefix" || strings.HasPrefix(base, "-")
	if !asShell && len(argv) > 1 {
		switch argv[1] {
		case "check":
			return checkMain(argv[2:], stdout, stderr)
		case "config":
			return configMain(argv[2:], stdout, stderr)
		case "import":
			return importMain(argv[2:], stdout, stderr)
		case "approvals", "approve", "deny":
			return approvalsMain(argv[1], argv[2:], stdout, stderr)
		case "audit":
			return auditMain(argv[2:], stdout, stderr)
		case "replay":
			return replayMain(argv[2:], stdout, stderr)
		case "ci-config":
			_, _ = stdout.Write(ci.Preset())
			return 0
		case "llm":
			return llmMain(argv[2:], stdout, stderr)
		case "version":
			fmt.Fprintf(stdout, "guardsh %s\n", version)
			return 0
		case "help":
			fmt.Fprint(stdout, helpText)
			return 0
		case "default-config":
			_, _ = stdout.Write(rules.DefaultConfig())
			return 0
		}
	}
	if base == "guardsh-prefix" {
		// A command prefix (Claude Code's CLAUDE_CODE_SHELL_PREFIX) is
		// called as `prefix 'COMMAND'`: the operand is a command string.
		argv = append([]string{argv[0], "-c"}, argv[1:]...)
	}
	inv, err := parseInvocation(argv)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: %v\n", err)
		return exitUsage
	}
	return runShell(inv, argv, stdin, stdout, stderr)
}
