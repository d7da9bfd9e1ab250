package rules

import (
	"fmt"
	"strings"
)

// modeOrder lists the modes from strictest to loosest.
var modeOrder = [...]Mode{Chat, Plan, Approve, AskMode, Auto, Bypass}

// modeAliases are names other agent tools use for the same modes (the
// alias list of the design), accepted wherever a mode is read.
var modeAliases = map[string]Mode{
	"smart_approve":   AskMode,
	"default":         AskMode,
	"auto-approval":   Auto,
	"bypass-approval": Bypass,
	"allow-all":       Bypass,
}

// ParseMode returns the mode named s: one of chat, plan, approve, ask, auto,
// bypass, or an alias (smart_approve and default → ask, auto-approval →
// auto, bypass-approval and allow-all → bypass). Case and surrounding space
// are ignored. Any other string is an error that lists the valid names.
func ParseMode(s string) (Mode, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	for _, m := range modeOrder {
		if k == string(m) {
			return m, nil
		}
	}
	if m, ok := modeAliases[k]; ok {
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q (expected chat, plan, approve, ask, auto or bypass)", s)
}

// rank is m's position from strictest (0, chat) to loosest (5, bypass);
// aliases count as the mode they name, and an unknown mode ranks -1, below
// chat, so that it is never treated as looser than a known one.
func (m Mode) rank() int {
	n, err := ParseMode(string(m))
	if err != nil {
		return -1
	}
	for i, o := range modeOrder {
		if o == n {
			return i
		}
	}
	return -1
}

// Stricter reports whether m is at least as strict as o in every row of
// the mode table and stricter in one: it never allows what o asks or
// denies, never asks what o denies. Modes are not all comparable: plan runs
// read-only commands that approve asks about, and denies what approve asks
// about, so neither is stricter than the other. An unknown mode is
// stricter than every known one (fail closed). Layers, the environment
// and flags use it to let a lower-trust source only tighten the mode.
func (m Mode) Stricter(o Mode) bool {
	mr, or := m.rank(), o.rank()
	if mr < 0 || or < 0 {
		return mr < 0 && or >= 0
	}
	a, b := modeRows(modeOrder[mr]), modeRows(modeOrder[or])
	strict := false
	for i := range a {
		if a[i] < b[i] {
			return false
		}
		strict = strict || a[i] > b[i]
	}
	return strict
}

// modeRows is a mode's decision for each row of the design's table: a
// sensitive command an allow rule matches, a read-only command, a
// workspace write, a sensitive command, a command an ask rule matches, a
// protected write.
func modeRows(m Mode) [6]Decision {
	allowRule := Allow
	switch m {
	case Chat, Plan:
		allowRule = Deny // plan: an allow rule runs only read-only commands
	}
	askRule := Ask
	switch m {
	case Chat, Plan:
		askRule = Deny
	case Bypass:
		askRule = Allow
	}
	protected := Ask
	if m == Chat || m == Plan {
		protected = Deny
	}
	return [6]Decision{allowRule, classDecision(m, ReadOnly), classDecision(m, Workspace), classDecision(m, Sensitive), askRule, protected}
}

// classDecision is the mode table for a segment that no rule decided:
//
//	class \ mode   chat  plan   approve  ask    auto   bypass
//	read-only      deny  allow  ask      allow  allow  allow
//	workspace      deny  deny   ask      ask    allow  allow
//	sensitive      deny  deny   ask      ask    ask    allow
func classDecision(m Mode, c Class) Decision {
	switch m {
	case Chat:
		return Deny
	case Plan:
		if c == ReadOnly {
			return Allow
		}
		return Deny
	case Approve:
		return Ask
	case AskMode:
		if c == ReadOnly {
			return Allow
		}
		return Ask
	case Auto:
		if c == Sensitive {
			return Ask
		}
		return Allow
	case Bypass:
		return Allow
	}
	return Deny
}
