package main

import (
	"strings"

	"github.com/guardsh/guardsh/interp"
)

// direct reports whether bash's options leave a one-shot exec unchanged, so
// that guardsh may start a single simple command itself (interp.Run.Direct):
// the options of quiet (nothing but running the command) without -a /
// allexport, which makes bash export the variables it sets at start-up.
func (inv *invocation) direct() bool {
	if !inv.quiet() {
		return false
	}
	for _, o := range inv.options {
		if o == "allexport" || len(o) >= 2 && (o[0] == '-' || o[0] == '+') && o[1] != '-' && strings.ContainsRune(o, 'a') {
			return false
		}
	}
	return true
}

// command runs text with args as $0 $1 …: itself when the text is one
// simple command bash would exec in its own place (see interp.Run.Direct),
// else through bash.
func (s *shellRun) command(runner interp.Run, text string, args []string) (int, error) {
	if s.inv.direct() {
		if status, ran, err := runner.Direct(text); ran {
			return status, err
		}
	}
	return runner.Command(text, args)
}
