package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/guardsh/guardsh/adversary"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/rules"
)

// llmHelper, when set, replaces the guardsh-llm found beside guardsh (the
// tests set it; the guardsh binary never does).
var llmHelper string

// llmLayer returns the LLM layer for p (nil when p has no llm: section and
// no adversary.md exists: then nothing is built and nothing is asked).
// The paths the layer believes, adversary.md and the verdict cache, are
// protected paths (see runGuarded).
func llmLayer(p *rules.Policy, home, logPath string) *adversary.Layer {
	rulesPath, cacheDir := llmPaths(p, home)
	if !p.LLM.Set {
		if _, err := os.Stat(rulesPath); rulesPath == "" || err != nil {
			return nil
		}
	}
	helper := llmHelper
	if helper == "" {
		self, _ := os.Executable()
		helper = adversary.HelperPath(p.LLM, self)
	}
	return adversary.New(p.LLM, rulesPath, cacheDir, logPath, adversary.Helper{Path: helper})
}

// llmPaths returns the adversary's rules file and the LLM answers' cache
// directory of policy p ("" when there is no home to put them under).
func llmPaths(p *rules.Policy, home string) (rulesPath, cacheDir string) {
	rulesPath = p.LLM.Adversary.RulesFile
	if rulesPath == "" {
		if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
			rulesPath = filepath.Join(x, "guardsh", "adversary.md")
		} else if home != "" {
			rulesPath = filepath.Join(home, ".config", "guardsh", "adversary.md")
		}
	} else {
		rulesPath = expandHome(rulesPath)
	}
	if dir := sourceCacheDir(home); dir != "" {
		cacheDir = filepath.Join(filepath.Dir(dir), "llm")
	}
	return rulesPath, cacheDir
}

// llmProtected returns the protected paths of llmPaths' answer: what a
// command writing them would change the LLM step's verdicts with.
func llmProtected(rulesPath, cacheDir string) []string {
	var out []string
	if rulesPath != "" {
		out = append(out, canonical(rulesPath))
	}
	if cacheDir != "" {
		out = append(out, canonical(cacheDir), canonical(cacheDir)+"/*")
	}
	return out
}

// review runs the LLM step of s on o (see guard.Guard.Review).
func (s *shellRun) review(text string, o guard.Outcome) (guard.Outcome, []guard.LLMCall) {
	if s.llm == nil {
		return o, nil
	}
	o, calls := s.guard.Review(context.Background(), text, o, s.llm)
	for _, c := range calls {
		if c.Warning != "" {
			fmt.Fprintf(s.stderr, "guardsh: warning: %s\n", c.Warning)
		}
	}
	return o, calls
}

const llmUsage = "usage: guardsh llm test [--config F]"

// llmMain is `guardsh llm test`: it sends a canned review to the
// configured endpoint through guardsh-llm and prints the latency, the raw
// answer and how it was parsed. Exit status 0 when the answer parsed, 1
// when it did not or no answer came, 64 for a config error, 2 for usage.
func llmMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "test" {
		fmt.Fprintln(stderr, llmUsage)
		return exitUsage
	}
	explicit := ""
	switch rest := args[1:]; {
	case len(rest) == 2 && rest[0] == "--config":
		explicit = rest[1]
	case len(rest) != 0:
		fmt.Fprintln(stderr, llmUsage)
		return exitUsage
	}
	cwd, _ := os.Getwd()
	cfg, _, _, err := loadFor(cwd, explicit, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: config: %v\n", err)
		return configUsage
	}
	home, _ := os.UserHomeDir()
	l := llmLayer(cfg.policy, home, "")
	if l == nil || !cfg.policy.LLM.Set {
		fmt.Fprintf(stderr, "guardsh: llm test: %s has no llm: section (base_url and model)\n", cfg.name)
		return configUsage
	}
	c := l.Config
	fmt.Fprintf(stdout, "endpoint: %s\nmodel: %s\n", c.BaseURL, c.Model)
	if c.APIKeyEnv != "" {
		state := "set"
		if os.Getenv(c.APIKeyEnv) == "" {
			state = "EMPTY"
		}
		fmt.Fprintf(stdout, "api key: $%s (%s)\n", c.APIKeyEnv, state)
	}
	fmt.Fprintf(stdout, "helper: %s\nstructured output: %v\n", l.Caller.(adversary.Helper).Path, c.Structured)
	res := l.Probe(context.Background())
	fmt.Fprintf(stdout, "latency: %d ms (%d attempts)\nraw answer: %q\n", res.Latency.Milliseconds(), res.Attempts, res.Raw)
	if res.Err != nil {
		if errors.Is(res.Err, adversary.ErrUnparseable) {
			fmt.Fprintf(stdout, "parsed: no: %v\n", res.Err)
			fmt.Fprintln(stdout, "result: every role would apply its on_error to this answer (try structured: false for a server without JSON-schema output)")
		} else {
			fmt.Fprintf(stdout, "request failed: %v\n", res.Err)
			fmt.Fprintf(stdout, "result: no answer; check that a server is running at %s and that the model and key are right; every role would apply its on_error\n", c.BaseURL)
		}
		return 1
	}
	fmt.Fprintf(stdout, "parsed: verdict %s, confident %v, reason %q\nresult: ok\n", res.Answer.Verdict, res.Answer.Confident, res.Answer.Reason)
	return 0
}

// llmSummary is `config show`'s llm line: the model, where it is set and
// which roles are on; "" when no role can run.
func llmSummary(p *rules.Policy) string {
	home, _ := os.UserHomeDir()
	l := llmLayer(p, home, "")
	if l == nil {
		return ""
	}
	c := l.Config
	s := "no endpoint (llm: base_url and model); every review fails: on_error"
	if c.Set {
		s = fmt.Sprintf("%s at %s (%s:%d)", c.Model, c.BaseURL, c.File, c.Line)
	}
	adv := "off"
	if rf, err := l.Rules(); err != nil {
		adv = err.Error()
	} else if rf != nil {
		adv = rf.Path
	}
	on := func(b bool) string { return map[bool]string{true: "on", false: "off"}[b] }
	return fmt.Sprintf("%s; adversary: %s; reviewer (auto): %s; judge (ask, smart): %s", s, adv,
		on(c.Set && !c.Reviewer.Disabled), on(c.Set && c.Smart && !c.Judge.Disabled))
}
