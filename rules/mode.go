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

// Stricter reports whether m lets less run unasked than o. The order,
// strictest first, is chat, plan, approve, ask, auto, bypass; an unknown
// mode is stricter than every known one (fail closed). Layers use it to let
// a lower-trust layer only tighten the mode.
func (m Mode) Stricter(o Mode) bool {
	return m.rank() < o.rank()
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
