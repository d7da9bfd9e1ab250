// Command guardsh-llm sends one of guardsh's LLM requests to an
// OpenAI-compatible endpoint and prints the answer. guardsh runs it only
// when a decision needs a model, so that guardsh itself links no HTTP or
// TLS code. Install it beside guardsh (install.sh does). It reads one
// adversary.Request as JSON on stdin and writes one adversary.Response as
// JSON on stdout (its error field set when no answer came); the exit
// status is 0 either way, 2 for a request it cannot read.
package main

import (
	"os"

	"github.com/guardsh/guardsh/adversary/chat"
)

func main() {
	os.Exit(chat.Serve(os.Stdin, os.Stdout, os.Stderr))
}
