// Command guardsh-llm sends one of guardsh's LLM requests to an
// OpenAI-compatible endpoint and prints the answer. guardsh runs it only
// when a decision needs a model, so that guardsh itself links no HTTP or
// TLS code. It reads one adversary.Request as JSON on stdin and writes one
// adversary.Response as JSON on stdout (its error field set when no answer
// came); the exit status is 0 either way, 2 for a request it cannot read.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/guardsh/guardsh/adversary"
	"github.com/guardsh/guardsh/adversary/chat"
)

func main() {
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr))
}

func run(stdin io.Reader, stdout, stderr io.Writer) int {
	var req adversary.Request
	if err := json.NewDecoder(io.LimitReader(stdin, 4<<20)).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "guardsh-llm: reading the request on stdin: %v\n", err)
		return 2
	}
	resp, err := chat.Client{}.Call(context.Background(), req)
	if err != nil {
		resp.Error = err.Error()
	}
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		fmt.Fprintf(stderr, "guardsh-llm: %v\n", err)
		return 2
	}
	return 0
}
