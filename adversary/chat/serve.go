package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/guardsh/guardsh/adversary"
)

// Serve is guardsh-llm: it reads one adversary.Request as JSON from stdin,
// sends it with a zero Client, and writes one adversary.Response as JSON to
// stdout, its Error set when no answer came. It returns the exit status: 0
// when a response was written, 2 when the request could not be read.
func Serve(stdin io.Reader, stdout, stderr io.Writer) int {
	var req adversary.Request
	if err := json.NewDecoder(io.LimitReader(stdin, 4<<20)).Decode(&req); err != nil {
		fmt.Fprintf(stderr, "guardsh-llm: reading the request on stdin: %v\n", err)
		return 2
	}
	resp, err := Client{}.Call(context.Background(), req)
	if err != nil {
		resp.Error = err.Error()
	}
	if err := json.NewEncoder(stdout).Encode(resp); err != nil {
		fmt.Fprintf(stderr, "guardsh-llm: %v\n", err)
		return 2
	}
	return 0
}
