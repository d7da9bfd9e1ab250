package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// chatServerCmd is the script command
//
//	chatserver IN OUT ANSWER...
//
// It starts a real HTTP server on loopback speaking chat-completions,
// which answers its n-th request with the n-th ANSWER (the last one
// repeating; "status:N" answers with HTTP status N), and writes the file
// IN to OUT with $CHAT_URL replaced by the server's base URL (…/v1).
// `chatrequests N` then checks how many requests it received.
func chatServerCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: chatserver IN OUT ANSWER...")
	}
	answers := args[2:]
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		_, _ = io.Copy(io.Discard, r.Body)
		a := answers[min(i, len(answers)-1)]
		if code, ok := strings.CutPrefix(a, "status:"); ok {
			var status int
			fmt.Sscan(code, &status)
			w.WriteHeader(status)
			_, _ = io.WriteString(w, `{"error":{"message":"no","type":"server_error"}}`)
			return
		}
		out, _ := json.Marshal(map[string]any{"id": "c", "object": "chat.completion", "model": "test-model",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": a}}}})
		_, _ = w.Write(out)
	}))
	ts.Defer(srv.Close)
	ts.Value("chat").(*chatState).requests = &n
	in := ts.ReadFile(args[0])
	out := ts.MkAbs(args[1])
	ts.Check(os.WriteFile(out, []byte(strings.ReplaceAll(in, "$CHAT_URL", srv.URL+"/v1")), 0o644))
}

// chatState is the script's last chat server (set up in TestScripts).
type chatState struct{ requests *atomic.Int32 }

func chatRequestsCmd(ts *testscript.TestScript, neg bool, args []string) {
	n := ts.Value("chat").(*chatState).requests
	if n == nil || len(args) != 1 {
		ts.Fatalf("usage: chatrequests N (after chatserver)")
	}
	if got := fmt.Sprint(n.Load()); (got == args[0]) == neg {
		ts.Fatalf("chat server got %s requests, want %s%s", got, map[bool]string{true: "not ", false: ""}[neg], args[0])
	}
}

// TestGuardshBinaryLinksNoHTTP: guardsh itself links neither net/http,
// crypto/tls nor go-openai (guardsh-llm does), so that a command rules
// decide pays nothing at start-up for the LLM layer; nor net, whose
// syslog transport is plain sockets (audit.DialSyslog).
func TestGuardshBinaryLinksNoHTTP(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "net/http" || pkg == "crypto/tls" || strings.Contains(pkg, "go-openai") || strings.HasSuffix(pkg, "/adversary/chat") ||
			// net and net/url link net/netip, whose package
			// initialisation starts a goroutine: 60 µs of every start.
			pkg == "net" || pkg == "net/url" || pkg == "net/netip" {
			t.Errorf("guardsh links %s", pkg)
		}
	}
}
