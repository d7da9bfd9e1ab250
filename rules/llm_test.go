package rules

import (
	"strings"
	"testing"
	"time"
)

func TestParseLLM(t *testing.T) {
	p, err := Parse([]byte(`llm:
  base_url: http://127.0.0.1:11434/v1
  model: llama3.1
  api_key_env: KEY
  timeout: 3s
  structured: false
  history: 0
  smart: true
  cache: {ttl: 1h, max_entries: 50}
  adversary: {on_error: deny, on_block: ask, rules_file: /etc/adv.md}
  reviewer: {sensitive: [network, destructive], match: ["gh *"], on_error: allow}
  judge: {enabled: false}
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := p.LLM
	if !c.Set || c.Line != 2 || c.BaseURL != "http://127.0.0.1:11434/v1" || c.Model != "llama3.1" || c.APIKeyEnv != "KEY" ||
		c.Timeout != 3*time.Second || c.Structured || c.History != 0 || !c.Smart || c.CacheTTL != time.Hour || c.CacheMax != 50 ||
		c.Adversary.OnError != "deny" || c.Adversary.OnBlock != "ask" || c.Adversary.RulesFile != "/etc/adv.md" ||
		len(c.Reviewer.Sensitive) != 2 || c.Reviewer.Match[0] != "gh *" || c.Reviewer.OnError != "allow" || !c.Judge.Disabled {
		t.Errorf("%+v", c)
	}
	p, _ = Parse([]byte("llm: {base_url: https://api.openai.com/v1, model: m}\n"), "c.yaml")
	if !p.LLM.Structured || p.LLM.History != -1 || p.LLM.Reviewer.Sensitive != nil {
		t.Errorf("defaults: %+v", p.LLM)
	}
}

func TestParseLLMErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"llm: {model: m}\n", "c.yaml:1: llm: needs base_url and model"},
		{"llm: {base_url: 'file:///x', model: m}\n", "is not an http or https URL"},
		{"llm: {base_url: 'http://', model: m}\n", "is not an http or https URL"},
		{"llm: {base_url: 'https:///v1', model: m}\n", "is not an http or https URL"},
		{"llm: {base_url: 'http://:8080/v1', model: m}\n", "is not an http or https URL"},
		{"llm: {base_url: 'http://h x/v1', model: m}\n", "is not an http or https URL"},
		{"llm: {base_url: 'localhost:11434/v1', model: m}\n", "is not an http or https URL"},
		{"llm: {base_url: http://h, model: m, timeout: 10}\n", "llm.timeout: 10 has no unit"},
		{"llm: {base_url: http://h, model: m, timeout: -1s}\n", "not a positive duration"},
		{"llm: {base_url: http://h, model: m, history: -2}\n", "llm.history: expected a non-negative integer"},
		{"llm: {base_url: http://h, model: m, helper: guardsh-llm}\n", "llm.helper: must be an absolute path"},
		{"llm: {base_url: http://h, model: m, reviewer: {on_error: maybe}}\n", `llm.reviewer.on_error: "maybe" is not ask, deny or allow`},
		{"llm: {base_url: http://h, model: m, adversary: {on_block: allow}}\n", `llm.adversary.on_block: "allow" is not deny or ask`},
		{"llm: {base_url: http://h, model: m, reviewer: {sensitive: [protected-path]}}\n", "protected paths are never reviewed"},
		{"llm: {base_url: http://h, model: m, judge: {match: [x]}}\n", `llm.judge: unknown key "match"`},
		{"llm: {base_url: http://h, model: m, reviewer: {match: [' gh']}}\n", "leading or trailing white space"},
	} {
		_, err := Parse([]byte(c.yaml), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
}

func TestMergeLLMOnlyFromTrustedLayers(t *testing.T) {
	parse := func(s, file string) *Policy {
		p, err := Parse([]byte(s), file)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sys := parse("llm: {base_url: http://sys/v1, model: s}\n", "/etc/guardsh/config.yaml")
	user := parse("mode: auto\n", "user.yaml")
	proj := parse("llm: {base_url: http://evil/v1, model: e, reviewer: {on_error: allow}}\n", ".guardsh.yaml")
	out, warnings := Merge(Layers{System: sys, User: user, Project: proj})
	if out.LLM.BaseURL != "http://sys/v1" {
		t.Errorf("llm from %q", out.LLM.BaseURL)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Problem, "may not configure the llm") || warnings[0].Line != 1 {
		t.Errorf("warnings: %v", warnings)
	}
	out, _ = Merge(Layers{System: sys, User: parse("llm: {base_url: http://user/v1, model: u}\n", "user.yaml")})
	if out.LLM.BaseURL != "http://user/v1" {
		t.Errorf("user's llm not used: %q", out.LLM.BaseURL)
	}
}

func TestMatchCommand(t *testing.T) {
	for _, c := range []struct {
		pat   string
		words []string
		want  bool
	}{
		{"gh *", []string{"gh"}, true},
		{"gh *", []string{"gh", "pr", "view"}, true},
		{"gh pr view *", []string{"gh", "pr", "merge"}, false},
		{"curl", []string{"curl", "x"}, false},
	} {
		if got := MatchCommand(c.pat, c.words); got != c.want {
			t.Errorf("MatchCommand(%q, %q) = %v", c.pat, c.words, got)
		}
	}
}

// TestHTTPURL: the base URLs llm.base_url takes, and ones it refuses.
func TestHTTPURL(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:11434/v1", "https://api.openai.com/v1", "HTTPS://[::1]:8443/v1",
		"http://user:pw@proxy:8080/v1", "http://h", "http://h?x=1"} {
		if !httpURL(u) {
			t.Errorf("httpURL(%q) = false", u)
		}
	}
	for _, u := range []string{"", "http://", "http:///v1", "http://@/v1", "http://u@:80/", "ftp://h/", "http:/h", "h:80", "http://h/a b", "http://h/\x7f"} {
		if httpURL(u) {
			t.Errorf("httpURL(%q) = true", u)
		}
	}
}
