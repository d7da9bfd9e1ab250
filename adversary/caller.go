package adversary

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Request is one chat-completions call.
type Request struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	// APIKeyEnv names the environment variable holding the API key; empty
	// sends none (Ollama, llama.cpp).
	APIKeyEnv string    `json:"api_key_env,omitempty"`
	Messages  []Message `json:"messages"`
	// SchemaName and Schema ask for structured output (response_format
	// json_schema, strict); a nil Schema asks for plain text.
	SchemaName string          `json:"schema_name,omitempty"`
	Schema     json.RawMessage `json:"schema,omitempty"`
	// Timeout bounds the call, retries included (the caller's context
	// may end it sooner).
	Timeout time.Duration `json:"timeout_ns"`
}

// Response is what a Caller got: the content of the first choice.
type Response struct {
	Content string `json:"content"`
	// Attempts counts HTTP requests made (retries included).
	Attempts int `json:"attempts"`
	// Error is set when no answer came (guardsh-llm's wire form).
	Error string `json:"error,omitempty"`
}

// Caller sends a Request. An error means no usable answer arrived (time-out,
// refused connection, HTTP error after retries); the role's on_error then
// decides.
type Caller interface {
	Call(ctx context.Context, req Request) (Response, error)
}

// Helper is the Caller guardsh uses: it runs Path (guardsh-llm), writes the
// Request as JSON on its stdin and reads a Response as JSON from its
// stdout. The helper's environment holds only the API key variable the
// request names (the agent sets guardsh's environment: no proxy, CA file
// or Go setting of its choosing reaches the client). It is killed when
// ctx ends.
type Helper struct {
	Path string
}

// Call runs the helper once.
func (h Helper) Call(ctx context.Context, req Request) (Response, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return Response{}, err
	}
	cmd := exec.CommandContext(ctx, h.Path)
	cmd.Env = []string{}
	if req.APIKeyEnv != "" {
		if v, ok := os.LookupEnv(req.APIKeyEnv); ok {
			cmd.Env = append(cmd.Env, req.APIKeyEnv+"="+v)
		}
	}
	cmd.Stdin = bytes.NewReader(in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = 100 * time.Millisecond
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return Response{}, fmt.Errorf("llm helper %s: %w", h.Path, ctx.Err())
	}
	var resp Response
	if err := json.Unmarshal(out.Bytes(), &resp); err != nil {
		if runErr == nil {
			runErr = err
		}
		return Response{}, fmt.Errorf("llm helper %s: %v %s", h.Path, runErr, bytes.TrimSpace(errOut.Bytes()))
	}
	if resp.Error != "" {
		return resp, errors.New(resp.Error)
	}
	return resp, nil
}

// ReadHistory returns up to n of the last audit records in the JSONL file
// at path (their command and decision), oldest first, reading at most its
// last 256 KiB. A missing or unreadable log is no history.
func ReadHistory(path string, n int) []HistoryItem {
	if n <= 0 || path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	const window = 256 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > window {
		if _, err := f.Seek(fi.Size()-window, io.SeekStart); err != nil {
			return nil
		}
	}
	var all []HistoryItem
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), window)
	for sc.Scan() {
		var h HistoryItem
		if json.Unmarshal(sc.Bytes(), &h) == nil && h.Command != "" {
			all = append(all, h)
		}
	}
	if len(all) > n {
		all = all[len(all)-n:]
	}
	return all
}
