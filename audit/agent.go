package audit

import (
	"os"
	"strconv"
	"strings"
)

// envMarker is one environment variable that an agent or CI system sets for
// the commands it runs.
type envMarker struct {
	agent string
	name  string
	value string // "" matches any non-empty value
}

// envMarkers are checked in order; the first that matches names the agent.
// Coding agents come before CI systems, so an agent running inside a CI job
// is reported as the agent. Sources:
//
//   - CLAUDECODE=1: set by Claude Code (since 0.2.47) in the shell its Bash
//     tool runs (anthropics/claude-code#531).
//   - CODEX_SANDBOX (e.g. "seatbelt" on macOS), CODEX_SANDBOX_NETWORK_DISABLED
//     (=1 in the shell tool's sandbox, openai/codex AGENTS.md),
//     CODEX_THREAD_ID, CODEX_CI: set by Codex for tool commands;
//     CODEX_MANAGED_BY_NPM / CODEX_MANAGED_BY_BUN: set by its npm/bun
//     launcher (codex-cli/bin/codex.js) and inherited.
//   - GEMINI_CLI=1: set by Gemini CLI for its shell tool.
//   - GOOSE_TERMINAL=1: set by goose's developer shell. goose's config
//     variables (GOOSE_PROVIDER, GOOSE_MODEL) are not used: people export
//     them in their shell profile, where every shell inherits them.
//   - OPENHANDS, OH_INTERPRETER_PATH: the OpenHands runtime image exports
//     OH_INTERPRETER_PATH (its docs, runtime_extra_deps).
//   - CURSOR_AGENT: set by Cursor's agent for the terminals it drives.
//   - OPENCODE: set by opencode for its bash tool.
//   - AIDER_MODEL: a weak sign. Aider exports no marker of its own; this is
//     its configuration variable, which a user may also export in a profile,
//     so it is checked after every agent's own marker. Aider is better found
//     from the parent process (see Detect).
//   - GITHUB_ACTIONS=true, GITLAB_CI, BUILDKITE, JENKINS_URL: set by those
//     CI systems in every job (their documented default variables).
//   - CI=true (or 1): the convention most CI systems follow.
var envMarkers = []envMarker{
	{"claude-code", "CLAUDECODE", "1"},
	{"codex", "CODEX_SANDBOX", ""},
	{"codex", "CODEX_SANDBOX_NETWORK_DISABLED", ""},
	{"codex", "CODEX_THREAD_ID", ""},
	{"codex", "CODEX_CI", ""},
	{"codex", "CODEX_MANAGED_BY_NPM", ""},
	{"codex", "CODEX_MANAGED_BY_BUN", ""},
	{"gemini-cli", "GEMINI_CLI", "1"},
	{"goose", "GOOSE_TERMINAL", ""},
	{"openhands", "OPENHANDS", ""},
	{"openhands", "OH_INTERPRETER_PATH", ""},
	{"cursor", "CURSOR_AGENT", ""},
	{"opencode", "OPENCODE", ""},
	{"aider", "AIDER_MODEL", ""},
	{"github-actions", "GITHUB_ACTIONS", "true"},
	{"gitlab-ci", "GITLAB_CI", ""},
	{"buildkite", "BUILDKITE", ""},
	{"jenkins", "JENKINS_URL", ""},
	{"ci", "CI", "true"},
	{"ci", "CI", "1"},
}

// parentAgents maps a parent's process name (/proc/PID/comm: the executable's
// base name, or the title the process set, at most 15 bytes) to the agent.
// Node-based agents set their title ("claude"); ones that do not show as
// "node" and are only found from the environment.
var parentAgents = map[string]string{
	"claude":       "claude-code",
	"codex":        "codex",
	"gemini":       "gemini-cli",
	"goose":        "goose",
	"aider":        "aider",
	"openhands":    "openhands",
	"cursor-agent": "cursor",
	"opencode":     "opencode",
}

// Detect names the agent or CI system that invoked guardsh, for
// Record.Agent: "claude-code", "codex", "gemini-cli", "goose", "openhands",
// "cursor", "opencode", "aider", "github-actions", "gitlab-ci", "buildkite",
// "jenkins" or "ci"; "" when nothing identifies one.
//
// env looks up an environment variable ("" when unset; nil means an empty
// environment). The markers each caller sets are checked first, in the order
// above (see envMarkers for each one's source); "ci" is CI=true or CI=1.
// When none is set and ppid > 0, the parent's name is read from
// /proc/PPID/comm (Linux only; elsewhere, or when unreadable, this step finds
// nothing) and looked up among known agent executables: claude, codex,
// gemini, goose, aider, openhands, cursor-agent, opencode.
//
// The result is a label for people reading the log, not an identity: any
// process can set these variables.
func Detect(env func(string) string, ppid int) string {
	if env != nil {
		for _, m := range envMarkers {
			v := env(m.name)
			if v == "" {
				continue
			}
			if m.value == "" || strings.EqualFold(v, m.value) {
				return m.agent
			}
		}
	}
	if ppid <= 0 {
		return ""
	}
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(ppid) + "/comm")
	if err != nil {
		return ""
	}
	return parentAgents[strings.TrimSuffix(string(comm), "\n")]
}
