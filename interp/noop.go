package interp

import (
	"strings"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// NoOpStatus reports whether text is exactly one of bash's no-op builtins
// `true`, `:` or `false` — one unquoted word, with no arguments,
// assignments, redirections, negation, background or other operators
// (comments and blank lines aside) — and returns the exit status bash gives
// it: 0, 0 or 1. Such a command has no effect but its status, so a caller
// may answer it without starting bash, provided bash's options could not
// change that (no -n, -x, -v, login profile or interactive start-up; see
// cmd/guardsh). Any other text, including text that does not parse, gives
// ok false.
//
// The answer for the last text asked about is kept: guardsh asks about
// its command at each step of serving it (a parser costs 5 KB).
func NoOpStatus(text string) (status int, ok bool) {
	if m := lastNoOp.Load(); m != nil && m.text == text {
		return m.status, m.ok
	}
	status, ok = noOpStatus(text)
	lastNoOp.Store(&noOpAnswer{text, status, ok})
	return status, ok
}

// noOpAnswer is NoOpStatus's answer for text.
type noOpAnswer struct {
	text   string
	status int
	ok     bool
}

// lastNoOp is the last answer of NoOpStatus.
var lastNoOp atomic.Pointer[noOpAnswer]

// noOpStatus is NoOpStatus without the kept answer.
func noOpStatus(text string) (status int, ok bool) {
	if len(text) > 256 || strings.ContainsAny(text, "\\'\"$`") ||
		!strings.Contains(text, "true") && !strings.Contains(text, ":") && !strings.Contains(text, "false") {
		return 0, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil || len(f.Stmts) != 1 {
		return 0, false
	}
	s := f.Stmts[0]
	if s.Negated || s.Background || s.Coprocess || s.Disown || len(s.Redirs) > 0 {
		return 0, false
	}
	call, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Assigns) > 0 || len(call.Args) != 1 {
		return 0, false
	}
	switch call.Args[0].Lit() {
	case "true", ":":
		return 0, true
	case "false":
		return 1, true
	}
	return 0, false
}
