package ci_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/ci"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// runnerEnv makes a runner-like environment under dir: a workspace (a git
// work tree), HOME, and the file-command files with the runner's names.
func runnerEnv(t testing.TB, dir string) (ws, home string, env map[string]string) {
	ws = filepath.Join(dir, "work", "repo", "repo")
	home = filepath.Join(dir, "home", "runner")
	fc := filepath.Join(dir, "work", "_temp", "_runner_file_commands")
	for _, d := range []string{filepath.Join(ws, ".git"), home, fc} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env = map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": ws}
	for name, prefix := range map[string]string{"GITHUB_OUTPUT": "set_output", "GITHUB_ENV": "set_env", "GITHUB_PATH": "add_path",
		"GITHUB_STEP_SUMMARY": "step_summary", "GITHUB_STATE": "save_state"} {
		p := filepath.Join(fc, prefix+"_6f1b0a4e-3c0d-4b7a-9f6e-2a2b1c0d9e8f")
		os.WriteFile(p, nil, 0o644)
		env[name] = p
	}
	return ws, home, env
}

// ciGuard is a guard as guardsh builds it on a runner in CI mode.
type ciGuard struct {
	g  *guard.Guard
	fc ci.FileCommands
}

func newCIGuard(t testing.TB, p *rules.Policy) ciGuard {
	ws, home, env := runnerEnv(t, t.TempDir())
	g := &guard.Guard{Policy: p, PolicyFile: p.File,
		Context:  rules.Context{Cwd: ws, Home: home, Workspace: ws, Root: ws},
		Analysis: interp.Options{Home: home, Dir: ws, Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}}
	return ciGuard{g: g, fc: ci.FindFileCommands(func(k string) string { return env[k] })}
}

func (c ciGuard) evaluate(text string) guard.Outcome {
	o := c.g.Evaluate(text)
	c.fc.Decide(text, &o, c.g.Policy, c.g.Context, c.g.Evaluate)
	return o
}

type corpusEntry struct{ Repo, Path, Run string }

func loadCorpus(t testing.TB) []corpusEntry {
	f, err := os.Open(filepath.Join("testdata", "workflow-runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e corpusEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// The CI preset runs ordinary build and test steps of real workflows
// unasked: at least 95 % of the run: scripts collected from public
// repositories. What still asks is listed with why.
func TestPresetRunsRealWorkflowStepsUnasked(t *testing.T) {
	p, err := ci.PresetPolicy()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("preset", func(t *testing.T) { measureCorpus(t, p, 95) })
	t.Run("preset with deny rules", func(t *testing.T) {
		h, err := rules.Load(filepath.Join("testdata", "hardened.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		measureCorpus(t, h, 0)
	})
}

// measureCorpus logs the share of the corpus p runs unasked in CI mode and
// what asks, and fails below want %.
func measureCorpus(t *testing.T, p *rules.Policy, want float64) {
	c := newCIGuard(t, p)
	corpus := loadCorpus(t)
	if len(corpus) < 200 {
		t.Fatalf("corpus has %d scripts, want at least 200", len(corpus))
	}
	var asked []string
	why := map[string]int{}
	for _, e := range corpus {
		o := c.evaluate(e.Run)
		if o.Decision == rules.Allow {
			continue
		}
		var reasons []string
		if o.Err != nil {
			reasons = append(reasons, "not understood: "+o.Err.Error())
		}
		for _, s := range o.Segments {
			if s.Verdict.Decision != rules.Allow {
				r := fmt.Sprintf("%s %q: %s", s.Verdict.Decision, strings.Join(guard.DisplayArgv(s.Segment), " "), s.Verdict.Reason)
				reasons = append(reasons, r)
				why[string(s.Verdict.Class)+" "+string(s.Verdict.Sensitivity)]++
			}
		}
		asked = append(asked, fmt.Sprintf("%s %s: %.60q\n    %s", e.Repo, e.Path, e.Run, strings.Join(reasons, "\n    ")))
	}
	share := 100 * float64(len(corpus)-len(asked)) / float64(len(corpus))
	t.Logf("CI preset: %d of %d real workflow run: scripts (%.1f %%) run unasked; %d ask:", len(corpus)-len(asked), len(corpus), share, len(asked))
	for _, a := range asked {
		t.Log(a)
	}
	var keys []string
	for k := range why {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("segments asking, by class: %s: %d", k, why[k])
	}
	if share < want {
		t.Errorf("%.1f %% run unasked, want at least %v %%", share, want)
	}
}
