package guard

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// agentCommand is one line of testdata/agent-commands.jsonl: 948 real
// commands from Claude Code, Codex, Cursor, OpenHands, SWE-agent and Aider
// logs.
type agentCommand struct {
	Cmd   string `json:"cmd"`
	Agent string `json:"agent"`
}

func agentCommands(t *testing.T) []agentCommand {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "agent-commands.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []agentCommand
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c agentCommand
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

var (
	leadingCd = regexp.MustCompile(`^cd ("[^"]*"|'[^']*'|\S+) *(&&|;|\n)`)
	// machinePath is a path of the logging machines, where a word starts.
	machinePath = regexp.MustCompile(`(^|[\s"'=:(])(/home/user|/testbed|/workspace)\b`)
	// absPath is an absolute path inside root, as placeCommand writes it.
	absPath = regexp.MustCompile(`/[^\s"'|;&<>()]+`)
)

// placeCommand rewrites the machine paths of a logged command into root
// (the logs' /home/user, /testbed and /workspace), and returns the text and
// the directory the agent ran it in, made a git work tree: the directory a
// leading `cd ABS &&` names (agents cd into their project); else the
// deepest of roots (the directories such cds name anywhere in the log)
// that holds an absolute path the command names (Claude Code names its
// project's files by absolute path); else /testbed for SWE-agent and
// /workspace for OpenHands (where those agents keep the repository); else
// a project directory in the home directory.
func placeCommand(t *testing.T, root string, c agentCommand, roots []string) (text, dir string) {
	text = machinePath.ReplaceAllString(c.Cmd, "${1}"+root+"${2}")
	dir = root + "/home/user/project"
	switch c.Agent {
	case "swe-agent":
		dir = root + "/testbed"
	case "openhands":
		dir = root + "/workspace"
	}
	if d := leadingCdDir(text, root); d != "" {
		dir = d
	} else {
	paths:
		for _, p := range absPath.FindAllString(text, -1) {
			for _, r := range roots {
				if p == r || strings.HasPrefix(p, r+"/") {
					dir = r
					break paths
				}
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return text, dir
}

// leadingCdDir is the directory inside root a leading `cd DIR &&` names, or "".
func leadingCdDir(text, root string) string {
	if m := leadingCd.FindStringSubmatch(text); m != nil {
		if d := strings.Trim(m[1], `"'`); strings.HasPrefix(d, root+"/") {
			return filepath.Clean(d)
		}
	}
	return ""
}

// TestAgentCommandShares decides the real agent commands under the
// embedded default policy in modes ask, auto and plan, and in ask and auto
// with sandbox: workspace, and reports the
// share each runs without asking and the most common reasons a command
// still asks. Floors (issue: modes and classes): ask ≥ 50 %, auto ≥ 60 %;
// (issue: sandbox) auto with sandbox: workspace ≥ 85 %. A jailed segment is
// an unknown program, an interpreter or a workspace write.
// Nothing unsafe is allowed: every segment of an allowed command is
// read-only, a workspace write (auto), or allowed by a rule of the policy.
func TestAgentCommandShares(t *testing.T) {
	cmds := agentCommands(t)
	root := t.TempDir()
	home := root + "/home/user"
	type placed struct{ text, dir string }
	var roots []string
	for _, c := range cmds {
		if d := leadingCdDir(machinePath.ReplaceAllString(c.Cmd, "${1}"+root+"${2}"), root); d != "" && d != root+"/home/user" {
			roots = append(roots, d)
		}
	}
	// Deepest first, so that a path is placed in its nearest project.
	sort.Slice(roots, func(i, j int) bool { return len(roots[i]) > len(roots[j]) })
	all := make([]placed, len(cmds))
	for i, c := range cmds {
		all[i].text, all[i].dir = placeCommand(t, root, c, roots)
	}
	share := map[string]float64{}
	for _, run := range []struct {
		name    string
		mode    rules.Mode
		sandbox rules.SandboxMode
	}{{"ask", rules.AskMode, ""}, {"auto", rules.Auto, ""}, {"plan", rules.Plan, ""},
		{"ask+sandbox", rules.AskMode, rules.SandboxWorkspace}, {"auto+sandbox", rules.Auto, rules.SandboxWorkspace}} {
		mode := run.mode
		policy := rules.Default()
		policy.Sandbox.Mode = run.sandbox
		allowed, denied, jailed := 0, 0, 0
		why := map[string]int{}
		for _, c := range all {
			g := &Guard{Policy: policy, PolicyFile: rules.DefaultFile,
				Context:  rules.Context{Mode: mode, Cwd: c.dir, Home: home, Workspace: c.dir, TempDirs: []string{"/tmp"}},
				Analysis: interp.Options{Home: home, Dir: c.dir}}
			o := g.Evaluate(c.text)
			switch o.Decision {
			case rules.Allow:
				allowed++
				if o.Sandbox {
					jailed++
				}
				for _, s := range o.Segments {
					v := s.Verdict
					if s.Sandboxed {
						// (or git, read-only, in a repository a jail could
						// have written: see untrustedRepo)
						untrusted := v.Class == rules.ReadOnly && s.Segment.Args[0].Value == "git" &&
							strings.Contains(v.Reason, "lies where a jailed command writes")
						if !o.Sandbox || v.Rule != nil || v.Protected != "" ||
							!(v.Sensitivity == rules.UnknownProgram || v.Sensitivity == rules.Interpreter || v.Class == rules.Workspace || untrusted) {
							t.Errorf("%s jails %q: segment %s is %s/%s (%s)", run.name, c.text, s.Segment, v.Class, v.Sensitivity, v.Reason)
						}
						continue
					}
					if v.Class == rules.Sensitive && v.DecidedBy != rules.ByRule ||
						v.Class == rules.Workspace && mode != rules.Auto && v.DecidedBy != rules.ByRule {
						t.Errorf("%s allows %q: segment %s is %s/%s (%s)", mode, c.text, s.Segment, v.Class, v.Sensitivity, v.Reason)
					}
				}
				continue
			case rules.Deny:
				denied++
			}
			if o.Err != nil {
				why["not understood"]++
				continue
			}
			for _, s := range o.Segments {
				if s.Verdict.Decision == rules.Allow {
					continue
				}
				why[reasonKey(s)]++
				break
			}
		}
		share[run.name] = 100 * float64(allowed) / float64(len(all))
		t.Logf("mode %s: %d of %d run unasked (%.1f%%; %d of them jailed), %d refused (%.1f%%)", run.name, allowed, len(all), share[run.name], jailed, denied, 100*float64(denied)/float64(len(all)))
		if mode != rules.Plan {
			t.Logf("  most common reasons a command still asks: %s", top(why, 10))
		}
	}
	// The floors guard against decisions growing stricter unnoticed. Ask
	// was 50.0 % until xargs input split on blanks counted as any path
	// (five `find … | xargs grep -l` of the sample ask since: a name with
	// a space made a path find never printed).
	if share["ask"] < 49 {
		t.Errorf("mode ask runs %.1f%% unasked, below the 49%% floor", share["ask"])
	}
	if share["auto"] < 60 {
		t.Errorf("mode auto runs %.1f%% unasked, below the 60%% floor", share["auto"])
	}
	// Issue: sandbox. auto with sandbox: workspace runs at least 85 %
	// unasked.
	if share["auto+sandbox"] < 85 {
		t.Errorf("mode auto with sandbox: workspace runs %.1f%% unasked, below the 85%% target", share["auto+sandbox"])
	}
}

// reasonKey names why a segment was not allowed: its class (with the
// sensitivity) and its program and subcommand, or the rule.
func reasonKey(s Checked) string {
	v := s.Verdict
	prog := ""
	if a := s.Segment.Argv(); s.Segment.Kind == interp.Exec && len(a) > 0 {
		prog = filepath.Base(a[0])
		if len(a) > 1 && a[1] != "" && a[1][0] != '-' && len(a[1]) < 16 && !strings.ContainsAny(a[1], "/.\x00") {
			prog += " " + a[1]
		}
	} else {
		prog = string(s.Segment.Kind)
	}
	switch {
	case v.DecidedBy == rules.ByRule && v.Rule != nil:
		return fmt.Sprintf("%s: %s rule %q", prog, v.Rule.Decision, v.Rule.Pattern)
	case v.Class == rules.Sensitive:
		return fmt.Sprintf("%s: %s", prog, v.Sensitivity)
	}
	return fmt.Sprintf("%s: %s", prog, v.Class)
}

func top(counts map[string]int, n int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s (%d)", k, counts[k])
	}
	return strings.Join(parts, "; ")
}
