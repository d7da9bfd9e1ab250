// Package chat sends guardsh's LLM requests to an OpenAI-compatible
// chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server,
// LiteLLM) with github.com/sashabaranov/go-openai. It is linked into
// guardsh-llm, never into guardsh itself (see package adversary).
package chat

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/guardsh/guardsh/adversary"
)

// Client is an adversary.Caller. The zero value uses a clone of
// http.DefaultTransport that ignores HTTP_PROXY and HTTPS_PROXY, and
// os.Getenv.
type Client struct {
	// HTTPClient, when set, replaces the default (which has no timeout of
	// its own: the request's Timeout bounds every call).
	HTTPClient *http.Client
	// Getenv reads the API key variable (os.Getenv when nil).
	Getenv func(string) string
	// Backoff is the first pause before a retry, doubled each time
	// (0: 200 ms).
	Backoff time.Duration
}

// maxTokens caps the answer: a verdict and one sentence.
const maxTokens = 300

// Call sends req and returns the first choice's content. Settings are
// deterministic (temperature as near 0 as the wire allows, top_p 1, seed 0).
// A 429 or 5xx answer is retried with exponential backoff while req.Timeout
// (and ctx) leave time; other errors are returned at once.
func (c Client) Call(ctx context.Context, req adversary.Request) (adversary.Response, error) {
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	key := ""
	if req.APIKeyEnv != "" {
		if key = getenv(req.APIKeyEnv); key == "" {
			return adversary.Response{}, fmt.Errorf("the API key variable %s is empty or unset", req.APIKeyEnv)
		}
	}
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = req.BaseURL
	hc := c.HTTPClient
	if hc == nil {
		// No proxy from the environment: the agent sets guardsh's
		// environment, and must not route reviews through its own server.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil
		hc = &http.Client{Transport: t}
	}
	cfg.HTTPClient = hc
	client := openai.NewClientWithConfig(cfg)
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	seed := 0
	creq := openai.ChatCompletionRequest{
		Model: req.Model,
		// go-openai omits a zero temperature (the server's default, often
		// 1, would apply): the smallest positive float32 is greedy.
		Temperature: math.SmallestNonzeroFloat32,
		TopP:        1,
		Seed:        &seed,
		MaxTokens:   maxTokens,
	}
	for _, m := range req.Messages {
		creq.Messages = append(creq.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	if req.Schema != nil {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name: req.SchemaName, Schema: rawSchema(req.Schema), Strict: true,
			},
		}
	}
	backoff := c.Backoff
	if backoff <= 0 {
		backoff = 200 * time.Millisecond
	}
	var resp adversary.Response
	for {
		resp.Attempts++
		out, err := client.CreateChatCompletion(ctx, creq)
		if err == nil {
			if len(out.Choices) == 0 {
				return resp, errors.New("the answer has no choices")
			}
			resp.Content = out.Choices[0].Message.Content
			return resp, nil
		}
		if ctx.Err() != nil {
			return resp, fmt.Errorf("no answer within %s: %w", req.Timeout, ctx.Err())
		}
		if !retryable(err) {
			return resp, err
		}
		if d, ok := ctx.Deadline(); ok && time.Until(d) < backoff {
			return resp, fmt.Errorf("%w (no time left to retry)", err)
		}
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return resp, fmt.Errorf("%w (then out of time)", err)
		}
		backoff *= 2
	}
}

// retryable: HTTP 429 (rate limit) and 5xx.
func retryable(err error) bool {
	code := 0
	var ae *openai.APIError
	var re *openai.RequestError
	switch {
	case errors.As(err, &ae):
		code = ae.HTTPStatusCode
	case errors.As(err, &re):
		code = re.HTTPStatusCode
	}
	return code == http.StatusTooManyRequests || code >= 500
}

// rawSchema is a JSON schema already encoded.
type rawSchema []byte

func (r rawSchema) MarshalJSON() ([]byte, error) { return r, nil }
