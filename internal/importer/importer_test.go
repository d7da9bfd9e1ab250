package importer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// convCase is one conversion: an input (a testdata file, or inline data
// under the name file) and the exact rules and reports it gives.
type convCase struct {
	name string
	file string // a path under testdata/ (it has a '/'), or the name of data
	data string // the input, when file names it
	// rules: "SECTION DECISION "PATTERN" <- WHERE", plus " (NOTE)".
	rules []string
	// skipped: "WHERE: TEXT: WHY".
	skipped []string
}

// runConv runs the cases through convert and checks the rules, the
// reports, and that the YAML written parses with rules.Parse into the same
// rules.
func runConv(t *testing.T, convert func([]byte, string) (*Result, error), cases []convCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, file := []byte(c.data), c.file
			if strings.Contains(c.file, "/") {
				file = filepath.Join("testdata", c.file)
				var err error
				if data, err = os.ReadFile(file); err != nil {
					t.Fatal(err)
				}
			}
			res, err := convert(data, file)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			compare(t, "rules", ruleStrings(res.Rules), c.rules)
			compare(t, "skipped", skipStrings(res.Skipped), c.skipped)
			checkYAML(t, res)
		})
	}
}

func ruleStrings(rs []Rule) []string {
	var out []string
	for _, r := range rs {
		s := fmt.Sprintf("%s %s %q <- %s", r.Section, r.Decision, r.Pattern, r.Where)
		if r.Note != "" {
			s += " (" + r.Note + ")"
		}
		out = append(out, s)
	}
	return out
}

func skipStrings(ss []Skipped) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Where+": "+s.Text+": "+s.Why)
	}
	return out
}

func compare(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	var b strings.Builder
	for _, g := range got {
		fmt.Fprintf(&b, "\t\t\t%q,\n", g)
	}
	n := max(len(got), len(want))
	for i := 0; i < n; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s[%d]:\n got  %s\n want %s", what, i, g, w)
			break
		}
	}
	t.Errorf("%s: got %d, want %d; all got:\n%s", what, len(got), len(want), b.String())
}

// checkYAML writes res and parses it back with guardsh's own parser: it
// must parse, and hold each converted rule once, in the emitter's order.
func checkYAML(t *testing.T, res *Result) {
	t.Helper()
	var out bytes.Buffer
	if err := res.WriteYAML(&out); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse(out.Bytes(), "imported.yaml")
	if err != nil {
		t.Fatalf("the output does not parse: %v\n%s", err, out.String())
	}
	want := map[string]bool{}
	for _, r := range res.Rules {
		want[fmt.Sprintf("%s %s %q", r.Section, r.Decision, r.Pattern)] = true
	}
	got := map[string]bool{}
	for _, r := range p.Rules() {
		k := fmt.Sprintf("%s %s %q", r.Section, r.Decision, r.Pattern)
		if got[k] {
			t.Errorf("rule %s written twice", k)
		}
		got[k] = true
		if !want[k] {
			t.Errorf("the output has the rule %s, which was not converted", k)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("the output lacks the converted rule %s\n%s", k, out.String())
		}
	}
}

// convErr converts data and returns the *InputError it must fail with.
func convErr(t *testing.T, convert func([]byte, string) (*Result, error), data, file string) *InputError {
	t.Helper()
	res, err := convert([]byte(data), file)
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, %v; want an *InputError", res, err)
	}
	return ie
}

// decider decides commands and paths against imported rules, in mode
// approve: a deny rule denies, an ask rule asks, an allow rule allows and
// anything else asks, so each answer shows the rule that gave it.
type decider struct {
	p   *rules.Policy
	ctx rules.Context
}

func newDecider(t *testing.T, res *Result) *decider {
	t.Helper()
	var out bytes.Buffer
	if err := res.WriteYAML(&out); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse(out.Bytes(), "imported.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	home, ws := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
	for _, d := range []string{home, ws} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return &decider{p: p, ctx: rules.Context{Mode: rules.Approve, Cwd: ws, Home: home, Workspace: ws}}
}

// exec returns the decision for argv and the pattern that made it ("" when
// no rule did).
func (d *decider) exec(words ...string) (rules.Decision, string) {
	v := d.p.Decide(rules.Subject{Kind: rules.KindExec, Words: words}, d.ctx)
	if v.Rule == nil {
		return v.Decision, ""
	}
	return v.Decision, v.Rule.Pattern
}

// path returns the decision for reading or writing path, relative to the
// workspace unless it starts with "/" or "~/".
func (d *decider) path(kind, path string) (rules.Decision, string) {
	switch {
	case strings.HasPrefix(path, "~/"):
		path = filepath.Join(d.ctx.Home, path[2:])
	case !filepath.IsAbs(path):
		path = filepath.Join(d.ctx.Workspace, path)
	}
	v := d.p.Decide(rules.Subject{Kind: kind, Words: []string{path}}, d.ctx)
	if v.Rule == nil {
		return v.Decision, ""
	}
	return v.Decision, v.Rule.Pattern
}

func TestConvertUnknownTool(t *testing.T) {
	_, err := Convert("cursor", []byte("{}"), "x.json")
	if !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("got %v, want ErrUnknownTool", err)
	}
	if !strings.Contains(err.Error(), "claude, codex, gemini, goose or opencode") {
		t.Errorf("the error does not list the tools: %v", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile("claude", filepath.Join(t.TempDir(), "nope.json"))
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v, want an *InputError wrapping ErrNotExist", err)
	}
	if !strings.Contains(ie.Error(), "nope.json: cannot read file") {
		t.Errorf("got %q", ie.Error())
	}
}

func TestInputErrorText(t *testing.T) {
	for _, c := range []struct {
		e    InputError
		want string
	}{
		{InputError{File: "a.json", Line: 3, Problem: "bad"}, "a.json:3: bad"},
		{InputError{File: "a.json", Problem: "bad"}, "a.json: bad"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// Whatever the input, a converter returns a Result whose YAML parses, or an
// *InputError; it never panics.
func FuzzConvert(f *testing.F) {
	for _, seed := range []struct{ tool, file string }{
		{"claude", "claude/.claude/settings.json"},
		{"codex", "codex/default.rules"},
		{"gemini", "gemini/policy.toml"},
		{"gemini", "gemini/settings.json"},
		{"goose", "goose/permission.yaml"},
		{"opencode", "opencode/opencode.jsonc"},
		{"opencode", "opencode/opencode-v2.jsonc"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", seed.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed.tool, filepath.Base(seed.file), string(data))
	}
	f.Fuzz(func(t *testing.T, tool, file, data string) {
		if !known(tool) {
			return
		}
		res, err := Convert(tool, []byte(data), file)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *InputError", err)
			}
			return
		}
		var out bytes.Buffer
		if err := res.WriteYAML(&out); err != nil {
			t.Fatal(err)
		}
		if _, err := rules.Parse(out.Bytes(), "imported.yaml"); err != nil {
			t.Fatalf("the output does not parse: %v\n%s", err, out.String())
		}
	})
}
