package guard

import (
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// bypassCase is one case of testdata/bypass.yaml: a real report of a
// command-permission bypass or false positive in a peer tool, restated with
// neutral names (see the file's header for how a case reads).
type bypassCase struct {
	ID       string `yaml:"id"`
	Source   string `yaml:"source"`
	Category string `yaml:"category"`
	Policy   struct {
		Allow []string `yaml:"allow"`
		Ask   []string `yaml:"ask"`
		Deny  []string `yaml:"deny"`
	} `yaml:"policy"`
	Mode    string `yaml:"mode"`
	Command string `yaml:"command"`
	Expect  string `yaml:"expect"`
	Why     string `yaml:"why"`
}

// TestBypassCorpus decides every case of the corpus under its own policy
// and mode, with HOME=/home/user and the working directory
// /home/user/project as the header says. The header's rule: a
// false-positive case must get exactly its expected verdict; every other
// case must never be looser than expected (allow < ask < deny). It logs
// how many cases match exactly.
func TestBypassCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/bypass.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []bypassCase
	if err := yaml.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) != 79 {
		t.Fatalf("corpus has %d cases, want 79", len(cases))
	}
	exact := 0
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			var want rules.Decision
			if err := want.UnmarshalText([]byte(c.Expect)); err != nil {
				t.Fatal(err)
			}
			g := corpusGuard(t, c)
			o := g.Evaluate(c.Command)
			if o.Decision == want {
				exact++
				return
			}
			detail := describeOutcome(o)
			switch {
			case c.Category == "false-positive":
				t.Errorf("false positive: %q is %v, want exactly %v (%s)\n%s", c.Command, o.Decision, want, c.Why, detail)
			case o.Decision < want:
				t.Errorf("bypass: %q is %v, want at least %v (%s)\n%s", c.Command, o.Decision, want, c.Why, detail)
			default:
				t.Logf("stricter than expected: %q is %v, expect %v\n%s", c.Command, o.Decision, want, detail)
			}
		})
	}
	t.Logf("%d of %d cases match their expected verdict exactly", exact, len(cases))
}

// corpusGuard builds the guard for one case: its shell rules as a config
// file, its mode, and the corpus's home and working directory.
func corpusGuard(t *testing.T, c bypassCase) *Guard {
	t.Helper()
	var b strings.Builder
	b.WriteString("mode: " + c.Mode + "\nrules:\n  shell:\n")
	for _, sec := range []struct {
		name string
		pats []string
	}{{"allow", c.Policy.Allow}, {"ask", c.Policy.Ask}, {"deny", c.Policy.Deny}} {
		b.WriteString("    " + sec.name + ":\n")
		for _, p := range sec.pats {
			q, _ := yaml.Marshal(p)
			b.WriteString("      - " + strings.TrimSpace(string(q)) + "\n")
		}
	}
	p, err := rules.Parse([]byte(b.String()), c.ID+".yaml")
	if err != nil {
		t.Fatalf("policy: %v\n%s", err, b.String())
	}
	mode, err := rules.ParseMode(c.Mode)
	if err != nil {
		t.Fatal(err)
	}
	return &Guard{Policy: p, PolicyFile: c.ID + ".yaml", Analysis: interp.Options{Home: "/home/user"},
		Context: rules.Context{Mode: mode, Cwd: "/home/user/project", Home: "/home/user", Workspace: "/home/user/project"}}
}

func describeOutcome(o Outcome) string {
	var b strings.Builder
	if o.Err != nil {
		b.WriteString("  error: " + o.Err.Error() + "\n")
	}
	for _, c := range o.Segments {
		b.WriteString("  " + c.Segment.String() + " → " + c.Verdict.Decision.String() + " (" + c.Verdict.Reason + ")\n")
	}
	return b.String()
}
