package adversary

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelperEnvironment: guardsh-llm gets the API key variable and nothing
// else of guardsh's environment, which the agent sets (a proxy there would
// route reviews through the agent's own server).
func TestHelperEnvironment(t *testing.T) {
	script := filepath.Join(t.TempDir(), "helper")
	body := "#!/bin/sh\ncat >/dev/null\nprintf '{\"content\":\"%s\",\"attempts\":1}\\n' \"$(env | grep -v '^PWD=\\|^SHLVL=\\|^_=' | tr '\\n' ' ')\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GUARDSH_TEST_KEY", "sk-test")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	t.Setenv("SSL_CERT_FILE", "/tmp/agent-ca.pem")
	resp, err := Helper{Path: script}.Call(context.Background(), Request{APIKeyEnv: "GUARDSH_TEST_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(resp.Content); got != "GUARDSH_TEST_KEY=sk-test" {
		t.Errorf("helper environment: %q", got)
	}
}

// TestHelperKilledAtDeadline: a helper that hangs is killed when the
// review's time is up, and the call fails.
func TestHelperKilledAtDeadline(t *testing.T) {
	script := filepath.Join(t.TempDir(), "helper")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := (Helper{Path: script}).Call(ctx, Request{}); err == nil {
		t.Fatal("no error")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}
