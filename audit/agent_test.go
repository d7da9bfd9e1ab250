package audit_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/guardsh/guardsh/audit"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDetectFromEnvironment(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"Claude Code sets CLAUDECODE=1", map[string]string{"CLAUDECODE": "1"}, "claude-code"},
		{"CLAUDECODE other than 1 is not Claude Code", map[string]string{"CLAUDECODE": "0"}, ""},
		{"Codex sandbox", map[string]string{"CODEX_SANDBOX": "seatbelt"}, "codex"},
		{"Codex network-disabled sandbox", map[string]string{"CODEX_SANDBOX_NETWORK_DISABLED": "1"}, "codex"},
		{"Codex npm launcher", map[string]string{"CODEX_MANAGED_BY_NPM": "1"}, "codex"},
		{"Codex thread", map[string]string{"CODEX_THREAD_ID": "019a"}, "codex"},
		{"Gemini CLI", map[string]string{"GEMINI_CLI": "1"}, "gemini-cli"},
		{"goose shell", map[string]string{"GOOSE_TERMINAL": "1"}, "goose"},
		{"goose configuration alone is not goose", map[string]string{"GOOSE_PROVIDER": "openai"}, ""},
		{"Aider configuration", map[string]string{"AIDER_MODEL": "sonnet"}, "aider"},
		{"OpenHands runtime", map[string]string{"OH_INTERPRETER_PATH": "/openhands/bin/python"}, "openhands"},
		{"OpenHands marker", map[string]string{"OPENHANDS": "1"}, "openhands"},
		{"Cursor agent", map[string]string{"CURSOR_AGENT": "1"}, "cursor"},
		{"opencode", map[string]string{"OPENCODE": "1"}, "opencode"},
		{"GitHub Actions", map[string]string{"GITHUB_ACTIONS": "true", "CI": "true"}, "github-actions"},
		{"GITHUB_ACTIONS other than true", map[string]string{"GITHUB_ACTIONS": "false"}, ""},
		{"GitLab CI", map[string]string{"GITLAB_CI": "true", "CI": "true"}, "gitlab-ci"},
		{"Buildkite", map[string]string{"BUILDKITE": "true", "CI": "true"}, "buildkite"},
		{"Jenkins", map[string]string{"JENKINS_URL": "https://ci.example/"}, "jenkins"},
		{"generic CI=true", map[string]string{"CI": "true"}, "ci"},
		{"generic CI=1", map[string]string{"CI": "1"}, "ci"},
		{"CI=false is not CI", map[string]string{"CI": "false"}, ""},
		{"an agent inside CI is the agent", map[string]string{"CLAUDECODE": "1", "GITHUB_ACTIONS": "true", "CI": "true"}, "claude-code"},
		{"an agent's own marker beats aider configuration", map[string]string{"AIDER_MODEL": "x", "CURSOR_AGENT": "1"}, "cursor"},
		{"nothing", map[string]string{"HOME": "/home/u"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := audit.Detect(envOf(tt.env), 0); got != tt.want {
				t.Errorf("Detect(%v) = %q, want %q", tt.env, got, tt.want)
			}
		})
	}
	t.Run("a nil env is an empty environment", func(t *testing.T) {
		if got := audit.Detect(nil, -1); got != "" {
			t.Errorf("Detect(nil, -1) = %q", got)
		}
	})
}

// startNamed runs sleep under the executable name name (through a symlink,
// so /proc/PID/comm is name) and returns its process ID.
func startNamed(t *testing.T, name string) int {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(sleep, link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(link, "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd.Process.Pid
}

func TestDetectFromParentProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/comm"); err != nil {
		t.Skip("no /proc")
	}
	for name, want := range map[string]string{
		"codex":        "codex",
		"claude":       "claude-code",
		"cursor-agent": "cursor",
		"aider":        "aider",
		"sleepy":       "",
	} {
		t.Run(name, func(t *testing.T) {
			pid := startNamed(t, name)
			if got := audit.Detect(envOf(nil), pid); got != want {
				t.Errorf("Detect(parent named %s) = %q, want %q", name, got, want)
			}
			if got := audit.Detect(envOf(map[string]string{"CI": "true"}), pid); got != "ci" {
				t.Errorf("Detect(CI=true, parent named %s) = %q, want the environment to win", name, got)
			}
		})
	}
	t.Run("a process that does not exist", func(t *testing.T) {
		if got := audit.Detect(nil, 1<<30); got != "" {
			t.Errorf("Detect(no such process) = %q", got)
		}
	})
}

// TestDetectCI: a record made in a CI step names the run, job and step
// (a team lead could not tell which step a record came from); outside CI
// there is none.
func TestDetectCI(t *testing.T) {
	gh := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "9", "GITHUB_JOB": "test", "GITHUB_ACTION": "lint"}
	if c := audit.DetectCI(func(k string) string { return gh[k] }); c == nil || c.System != "github-actions" || c.Run != "9" || c.Job != "test" || c.Step != "lint" || c.Repository != "o/r" {
		t.Errorf("GitHub: %+v", c)
	}
	gl := map[string]string{"GITLAB_CI": "true", "CI_PIPELINE_ID": "7", "CI_JOB_NAME": "build", "CI_JOB_ID": "70", "CI_PROJECT_PATH": "g/p"}
	if c := audit.DetectCI(func(k string) string { return gl[k] }); c == nil || c.System != "gitlab" || c.Run != "7" || c.JobID != "70" {
		t.Errorf("GitLab: %+v", c)
	}
	if c := audit.DetectCI(func(string) string { return "" }); c != nil {
		t.Errorf("outside CI: %+v", c)
	}
}
