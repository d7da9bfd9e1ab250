package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// LLMConfig is the `llm:` section: the OpenAI-compatible endpoint and the
// three roles that use it (package adversary). The zero value has no
// endpoint (Set false): no role calls a model.
//
//	llm:
//	  base_url: https://api.openai.com/v1   # any OpenAI-compatible endpoint
//	  model: gpt-4o-mini
//	  api_key_env: OPENAI_API_KEY           # the variable holding the key; none for Ollama
//	  timeout: 10s                          # per call, retries included
//	  structured: true                      # JSON-schema response format
//	  history: 5                            # audit records passed as context
//	  max_bytes: 4000                       # cap on each text passed to the model
//	  smart: false                          # read-only judge for unknown programs (ask mode)
//	  helper: /usr/local/bin/guardsh-llm    # default: guardsh-llm beside guardsh
//	  cache: {ttl: 24h, max_entries: 10000}
//	  adversary: {rules_file: ~/x.md, on_error: ask, on_block: deny}
//	  reviewer: {enabled: true, sensitive: [network], match: ["gh *"], on_error: ask}
//	  judge: {on_error: ask}
type LLMConfig struct {
	// Set says the file has an llm: section with an endpoint; Line is its
	// line (for warnings), File the file.
	Set        bool
	File       string
	Line       int
	BaseURL    string
	Model      string
	APIKeyEnv  string
	Timeout    time.Duration // 0: the default (10 s)
	Structured bool          // default true
	History    int           // -1: the default (5)
	MaxBytes   int           // 0: the default (4000)
	Smart      bool
	Helper     string
	CacheTTL   time.Duration // 0: the default (24 h)
	CacheMax   int           // 0: the default (10000)
	Adversary  LLMRole
	Reviewer   LLMRole
	Judge      LLMRole
}

// LLMRole is the settings of one role of the llm: section.
type LLMRole struct {
	// Disabled: `enabled: false`.
	Disabled bool
	// OnError is "ask" (default, ""), "deny" or "allow".
	OnError string
	// OnBlock (adversary) is "deny" (default, "") or "ask".
	OnBlock string
	// RulesFile (adversary) replaces $XDG_CONFIG_HOME/guardsh/adversary.md.
	RulesFile string
	// Sensitive (reviewer) are the sensitivities in scope; nil means
	// [network].
	Sensitive []Sensitivity
	// Match (reviewer) are command patterns also in scope.
	Match []string
}

// MatchCommand reports whether the shell pattern (the config's pattern
// language: '*' matches any run, a final " *" also matches the bare
// command) matches words joined by single spaces.
func MatchCommand(pattern string, words []string) bool {
	return compileGlob(pattern, true).match(strings.Join(words, " "))
}

// llm reads the llm: section at n into ps.p.LLM.
func (ps *parser) llm(n *yaml.Node) error {
	f, err := ps.mapping(n, "llm", "base_url", "model", "api_key_env", "timeout", "structured", "history",
		"max_bytes", "smart", "helper", "cache", "adversary", "reviewer", "judge")
	if err != nil {
		return err
	}
	c := &ps.p.LLM
	*c = LLMConfig{Set: true, File: ps.file, Line: n.Line, Structured: true, History: -1}
	strs := map[string]*string{"base_url": &c.BaseURL, "model": &c.Model, "api_key_env": &c.APIKeyEnv, "helper": &c.Helper}
	for k, dst := range strs {
		if v := f[k]; v != nil {
			if *dst, err = ps.str(v, "llm."+k); err != nil {
				return err
			}
		}
	}
	if c.BaseURL == "" || c.Model == "" {
		return ps.errorf(n, "llm: needs base_url and model (for example base_url: http://127.0.0.1:11434/v1, model: llama3.1)")
	}
	if !httpURL(c.BaseURL) {
		return ps.errorf(f["base_url"], "llm.base_url: %q is not an http or https URL", c.BaseURL)
	}
	if c.Helper != "" && !strings.HasPrefix(c.Helper, "/") {
		return ps.errorf(f["helper"], "llm.helper: must be an absolute path, got %q", c.Helper)
	}
	for k, dst := range map[string]*time.Duration{"timeout": &c.Timeout} {
		if v := f[k]; v != nil {
			if *dst, err = ps.duration(v, "llm."+k); err != nil {
				return err
			}
		}
	}
	for k, dst := range map[string]*int{"history": &c.History, "max_bytes": &c.MaxBytes} {
		if v := f[k]; v != nil {
			if *dst, err = ps.count(v, "llm."+k); err != nil {
				return err
			}
		}
	}
	for k, dst := range map[string]*bool{"structured": &c.Structured, "smart": &c.Smart} {
		if v := f[k]; v != nil {
			if *dst, err = ps.boolean(v, "llm."+k); err != nil {
				return err
			}
		}
	}
	if v := f["cache"]; v != nil {
		cf, err := ps.mapping(v, "llm.cache", "ttl", "max_entries")
		if err != nil {
			return err
		}
		if t := cf["ttl"]; t != nil {
			if c.CacheTTL, err = ps.duration(t, "llm.cache.ttl"); err != nil {
				return err
			}
		}
		if m := cf["max_entries"]; m != nil {
			if c.CacheMax, err = ps.count(m, "llm.cache.max_entries"); err != nil {
				return err
			}
		}
	}
	for k, role := range map[string]*LLMRole{"adversary": &c.Adversary, "reviewer": &c.Reviewer, "judge": &c.Judge} {
		if v := f[k]; v != nil {
			if err := ps.llmRole(v, k, role); err != nil {
				return err
			}
		}
	}
	return nil
}

// llmRole reads llm.NAME into r.
func (ps *parser) llmRole(n *yaml.Node, name string, r *LLMRole) error {
	keys := map[string][]string{"adversary": {"enabled", "rules_file", "on_error", "on_block"},
		"reviewer": {"enabled", "sensitive", "match", "on_error"}, "judge": {"enabled", "on_error"}}[name]
	where := "llm." + name
	f, err := ps.mapping(n, where, keys...)
	if err != nil {
		return err
	}
	if v := f["enabled"]; v != nil {
		on, err := ps.boolean(v, where+".enabled")
		if err != nil {
			return err
		}
		r.Disabled = !on
	}
	for k, dst := range map[string]*string{"on_error": &r.OnError, "on_block": &r.OnBlock, "rules_file": &r.RulesFile} {
		v := f[k]
		if v == nil {
			continue
		}
		if *dst, err = ps.str(v, where+"."+k); err != nil {
			return err
		}
		switch {
		case k == "on_error" && *dst != "ask" && *dst != "deny" && *dst != "allow":
			return ps.errorf(v, "%s.on_error: %q is not ask, deny or allow", where, *dst)
		case k == "on_block" && *dst != "deny" && *dst != "ask":
			return ps.errorf(v, "%s.on_block: %q is not deny or ask", where, *dst)
		}
	}
	if v := f["sensitive"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			return ps.errorf(v, "%s.sensitive: expected a list of sensitivities, got %s", where, kindName(v))
		}
		r.Sensitive = []Sensitivity{}
		for _, item := range v.Content {
			s, err := ps.str(deref(item), where+".sensitive")
			if err != nil {
				return err
			}
			switch Sensitivity(s) {
			case Network, OutsideWorkspace, Interpreter, Privilege, Destructive, UnknownProgram:
			default:
				return ps.errorf(item, "%s.sensitive: %q is not network, outside-workspace, interpreter, privilege, destructive or unknown-program (protected paths are never reviewed)", where, s)
			}
			r.Sensitive = append(r.Sensitive, Sensitivity(s))
		}
	}
	if v := f["match"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			return ps.errorf(v, "%s.match: expected a list of patterns, got %s", where, kindName(v))
		}
		for _, item := range v.Content {
			s, err := ps.str(deref(item), where+".match")
			if err != nil {
				return err
			}
			if problem := checkPattern("shell", s); problem != "" {
				return ps.errorf(item, "%s.match: %s", where, problem)
			}
			r.Match = append(r.Match, s)
		}
	}
	return nil
}

// duration reads a positive Go duration ("10s", "1h30m").
func (ps *parser) duration(n *yaml.Node, where string) (time.Duration, error) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		return 0, ps.errorf(n, "%s: %s has no unit; write it as %ss (or ms, m, h)", where, n.Value, n.Value)
	}
	s, err := ps.str(n, where)
	if err != nil {
		return 0, err
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, ps.errorf(n, "%s: %q is not a positive duration (for example 10s, 24h)", where, s)
	}
	return d, nil
}

// count reads a non-negative integer.
func (ps *parser) count(n *yaml.Node, where string) (int, error) {
	i, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || err != nil || i < 0 {
		return 0, ps.errorf(n, "%s: expected a non-negative integer, got %s", where, fmt.Sprintf("%q", n.Value))
	}
	return i, nil
}

// httpURL reports whether s is an http or https URL with a host: a
// scheme of either (any case), "://", then a host (with optional user
// and port) before any path, query or fragment, with no space or control
// character anywhere. guardsh-llm, which calls it, parses it whole. (Not
// net/url, which would link net/netip into guardsh: see loopbackURL.)
func httpURL(s string) bool {
	scheme, rest, ok := strings.Cut(s, "://")
	if s := strings.ToLower(scheme); !ok || s != "http" && s != "https" {
		return false
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	host := authority[strings.LastIndexByte(authority, '@')+1:]
	if host == "" || host[0] == ':' {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f })
}
