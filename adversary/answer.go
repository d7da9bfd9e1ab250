// Package adversary is guardsh's LLM layer: an adversary that may only
// block, a reviewer that may only approve, and a read-only judge, each
// asking an OpenAI-compatible model about one segment; with their prompts,
// the strict parser of the model's answers, the failure policy, a verdict
// cache on disk and a circuit breaker.
//
// The package itself holds no HTTP client: a Caller sends the chat
// request. guardsh's Caller is Helper, which runs the guardsh-llm program
// (package adversary/chat, github.com/sashabaranov/go-openai), so that the
// guardsh binary links no HTTP or TLS code and a command that rules alone
// decide pays nothing for the LLM layer.
package adversary

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Role is what a model is asked to do.
type Role string

const (
	// RoleAdversary reviews a segment that would run (or ask) and may only
	// block it.
	RoleAdversary Role = "adversary"
	// RoleReviewer reviews a segment that would ask (auto mode) and may
	// only approve it, when its answer is SAFE and confident.
	RoleReviewer Role = "reviewer"
	// RoleJudge says whether a segment of an unknown program only reads
	// (ask mode with llm.smart).
	RoleJudge Role = "judge"
)

// Verdicts of an Answer, as the model writes them.
const (
	Allow       = "ALLOW"
	Block       = "BLOCK"
	Safe        = "SAFE"
	Unsafe      = "UNSAFE"
	ReadOnly    = "READ_ONLY"
	NotReadOnly = "NOT_READ_ONLY"
)

// verdictsOf returns the two verdicts role's schema admits, the yes
// first (false for an unknown role).
func verdictsOf(role Role) ([2]string, bool) {
	switch role {
	case RoleAdversary:
		return [2]string{Allow, Block}, true
	case RoleReviewer:
		return [2]string{Safe, Unsafe}, true
	case RoleJudge:
		return [2]string{ReadOnly, NotReadOnly}, true
	}
	return [2]string{}, false
}

// Answer is a model's parsed answer: one of its role's two verdicts,
// whether the model is confident, and one sentence of reason.
type Answer struct {
	Verdict   string `json:"verdict"`
	Confident bool   `json:"confident"`
	Reason    string `json:"reason"`
}

// ErrUnparseable wraps every answer Parse rejects.
var ErrUnparseable = errors.New("unparseable answer")

// Schema returns the JSON schema (draft 2020-12 subset accepted by
// OpenAI's strict structured output) of role's answer: an object with
// exactly verdict (one of the role's two words), confident (boolean) and
// reason (string).
func Schema(role Role) json.RawMessage {
	v, _ := verdictsOf(role)
	s, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"verdict":   map[string]any{"type": "string", "enum": []string{v[0], v[1]}},
			"confident": map[string]any{"type": "boolean"},
			"reason":    map[string]any{"type": "string"},
		},
		"required":             []string{"verdict", "confident", "reason"},
		"additionalProperties": false,
	})
	return s
}

var fence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?s)^```(?:json)?\\s*(.*?)\\s*```$") })

// Parse reads a model's answer for role. A JSON object (optionally in one
// ``` fence) must have exactly the schema's fields, all present, with a
// verdict of the role; nothing may follow it. A plain-text answer (servers
// without structured output) is accepted for the adversary only, when it
// names exactly one of ALLOW and BLOCK as a word ("BLOCK: reads ~/.ssh");
// one naming both, or neither, is rejected. Every rejection wraps
// ErrUnparseable: the caller applies the role's on_error.
func Parse(role Role, content string) (Answer, error) {
	s := strings.TrimSpace(content)
	if m := fence().FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	v, ok := verdictsOf(role)
	if !ok {
		return Answer{}, fmt.Errorf("%w: unknown role %q", ErrUnparseable, role)
	}
	if !strings.HasPrefix(s, "{") {
		return parseText(role, v, s)
	}
	if err := exactKeys(s); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrUnparseable, err)
	}
	var raw struct {
		Verdict   *string `json:"verdict"`
		Confident *bool   `json:"confident"`
		Reason    *string `json:"reason"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrUnparseable, err)
	}
	if dec.More() || !bytes.Equal(bytes.TrimSpace([]byte(s[dec.InputOffset():])), nil) {
		return Answer{}, fmt.Errorf("%w: text after the JSON object", ErrUnparseable)
	}
	if raw.Verdict == nil || raw.Confident == nil || raw.Reason == nil {
		return Answer{}, fmt.Errorf("%w: verdict, confident and reason are all required", ErrUnparseable)
	}
	if *raw.Verdict != v[0] && *raw.Verdict != v[1] {
		return Answer{}, fmt.Errorf("%w: verdict %q is not %s or %s", ErrUnparseable, *raw.Verdict, v[0], v[1])
	}
	return Answer{Verdict: *raw.Verdict, Confident: *raw.Confident, Reason: *raw.Reason}, nil
}

// exactKeys checks the members of the JSON object s: each is verdict,
// confident or reason, spelled so (encoding/json would also take
// "Verdict"), and none twice (encoding/json would keep the last:
// {"verdict":"BLOCK","verdict":"ALLOW"} is an answer that says both).
func exactKeys(s string) error {
	dec := json.NewDecoder(strings.NewReader(s))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := t.(string)
		switch {
		case k != "verdict" && k != "confident" && k != "reason":
			return fmt.Errorf("unexpected member %q", k)
		case seen[k]:
			return fmt.Errorf("member %q twice", k)
		}
		seen[k] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
	}
	return nil
}

var word = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_]+`) })

// parseText reads a plain-text adversary answer: exactly one of ALLOW and
// BLOCK appears as a word (in capitals, as the prompt asks).
func parseText(role Role, v [2]string, s string) (Answer, error) {
	if role != RoleAdversary {
		return Answer{}, fmt.Errorf("%w: not a JSON object", ErrUnparseable)
	}
	var seen [2]bool
	for _, w := range word().FindAllString(s, -1) {
		seen[0] = seen[0] || w == v[0]
		seen[1] = seen[1] || w == v[1]
	}
	switch {
	case seen[0] && seen[1]:
		return Answer{}, fmt.Errorf("%w: the answer says both %s and %s", ErrUnparseable, v[0], v[1])
	case seen[0]:
		return Answer{Verdict: v[0], Confident: true, Reason: reasonOf(s, v[0])}, nil
	case seen[1]:
		return Answer{Verdict: v[1], Confident: true, Reason: reasonOf(s, v[1])}, nil
	}
	return Answer{}, fmt.Errorf("%w: neither %s nor %s", ErrUnparseable, v[0], v[1])
}

// reasonOf is a text answer without its verdict word, on one line, at
// most 300 bytes.
func reasonOf(s, verdict string) string {
	s = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(strings.Replace(s, verdict, "", 1)), ":-–. "))
	s = strings.Join(strings.Fields(s), " ")
	return clip(s, 300)
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
