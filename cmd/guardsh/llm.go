package main

import (
	"context"
	"fmt"
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
// no adversary.md exists: then nothing is built and nothing is asked), and
// the paths the layer believes, which only a human may write: adversary.md
// and the verdict cache, appended to protected.
func llmLayer(p *rules.Policy, home, logPath string, protected []string) (*adversary.Layer, []string) {
	rulesPath := p.LLM.Adversary.RulesFile
	if rulesPath == "" {
		if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
			rulesPath = filepath.Join(x, "guardsh", "adversary.md")
		} else if home != "" {
			rulesPath = filepath.Join(home, ".config", "guardsh", "adversary.md")
		}
	} else {
		rulesPath = expandHome(rulesPath)
	}
	cacheDir := ""
	if dir := sourceCacheDir(home); dir != "" {
		cacheDir = filepath.Join(filepath.Dir(dir), "llm")
	}
	if home != "" {
		home = canonical(home)
	}
	if rulesPath != "" {
		protected = append(protected, canonical(rulesPath))
	}
	if cacheDir != "" {
		protected = append(protected, canonical(cacheDir), canonical(cacheDir)+"/*")
	}
	if !p.LLM.Set {
		if _, err := os.Stat(rulesPath); rulesPath == "" || err != nil {
			return nil, protected
		}
	}
	helper := llmHelper
	if helper == "" {
		self, _ := os.Executable()
		helper = adversary.HelperPath(p.LLM, self)
	}
	return adversary.New(p.LLM, rulesPath, cacheDir, logPath, adversary.Helper{Path: helper}), protected
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
