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
//	guardsh check [--config F] [--mode M] [--cwd D] [--json] [--explain] [--] COMMAND
//	guardsh config show [--config F] [--cwd D]
//	guardsh config lint [FILE…]
//	guardsh import claude|codex|gemini|goose|opencode FILE
//	guardsh version
//	guardsh default-config    (prints the embedded default policy)
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardsh/guardsh/rules"
)

// Exit statuses. Refused follows bash's "found but cannot execute";
// usage follows bash's status for a bad option.
const (
	exitRefused = 126
	exitUsage   = 2
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	os.Exit(guardshMain(os.Args, os.Stdin, os.Stdout, os.Stderr))
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
		case "version":
			fmt.Fprintf(stdout, "guardsh %s\n", version)
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
