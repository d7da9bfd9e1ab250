package chat

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/guardsh/guardsh/adversary"
)

// TestCallKeyAndRetry: the key named by APIKeyEnv goes in the
// Authorization header; a 503 is retried, a 401 is not.
func TestCallKeyAndRetry(t *testing.T) {
	var n atomic.Int32
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		switch n.Add(1) {
		case 1:
			http.Error(w, `{"error":{"message":"busy"}}`, http.StatusServiceUnavailable)
		case 2:
			_, _ = w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"ALLOW"}}]}`))
		default:
			http.Error(w, `{"error":{"message":"bad key"}}`, http.StatusUnauthorized)
		}
	}))
	defer srv.Close()
	c := Client{Backoff: 10 * time.Millisecond, Getenv: func(k string) string { return map[string]string{"K": "sk-1"}[k] }}
	req := adversary.Request{BaseURL: srv.URL + "/v1", Model: "m", APIKeyEnv: "K", Timeout: 2 * time.Second,
		Messages: []adversary.Message{{Role: "user", Content: "{}"}}}
	resp, err := c.Call(context.Background(), req)
	if err != nil || resp.Content != "ALLOW" || resp.Attempts != 2 || auth.Load() != "Bearer sk-1" {
		t.Fatalf("%+v %v auth %v", resp, err, auth.Load())
	}
	resp, err = c.Call(context.Background(), req)
	if err == nil || resp.Attempts != 1 {
		t.Errorf("401: %+v %v", resp, err)
	}
	req.APIKeyEnv = "UNSET"
	if _, err := c.Call(context.Background(), req); err == nil || !strings.Contains(err.Error(), "UNSET is empty or unset") {
		t.Errorf("missing key: %v", err)
	}
}
