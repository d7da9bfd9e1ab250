package rules

import (
	"fmt"
	"strconv"
)

// String returns "allow", "ask" or "deny" (the words of the config file and
// the audit record), or "Decision(N)" for a value out of range.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "Decision(" + strconv.Itoa(int(d)) + ")"
}

// MarshalText encodes d as its String; a value out of range is an error.
func (d Decision) MarshalText() ([]byte, error) {
	if d < Allow || d > Deny {
		return nil, fmt.Errorf("rules: invalid decision %d", int(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText decodes "allow", "ask" or "deny".
func (d *Decision) UnmarshalText(text []byte) error {
	switch string(text) {
	case "allow":
		*d = Allow
	case "ask":
		*d = Ask
	case "deny":
		*d = Deny
	default:
		return fmt.Errorf("rules: unknown decision %q (want allow, ask or deny)", text)
	}
	return nil
}

// Combine returns the decision for a whole command made of segments with
// the verdicts vs: the strictest of them (any deny ⇒ deny, else any ask ⇒
// ask, else allow). A command with no segments is Allow.
func Combine(vs []Verdict) Decision {
	d := Allow
	for _, v := range vs {
		d = max(d, v.Decision)
	}
	return d
}

// Source returns where the rule was written, "FILE:LINE" (for example
// "<embedded default>:31"), or just FILE when the line is unknown.
func (r Rule) Source() string {
	if r.Line <= 0 {
		return r.File
	}
	return r.File + ":" + strconv.Itoa(r.Line)
}

// String renders the rule as "SECTION DECISION PATTERN (SOURCE)", for
// example `shell deny "rm -rf /" (<embedded default>:31)`.
func (r Rule) String() string {
	return fmt.Sprintf("%s %s %q (%s)", r.Section, r.Decision, r.Pattern, r.Source())
}
