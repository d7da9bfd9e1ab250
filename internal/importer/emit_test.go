package importer

import (
	"bytes"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/guardsh/guardsh/rules"
)

// Every string comes back from YAML as it went in.
func TestYAMLQuoteRoundTrips(t *testing.T) {
	for _, s := range []string{
		"git status *", `say "hi"`, `a\b`, "yes", "no", "~", "null", "1", "0x10", "- x", ": x", "#x", "x # y",
		"*", "&a", "!tag", "%x", "@x", "`x`", "{a: b}", "[a]", "'", "tab\there", "new\nline", "cr\rx", "nul\x00x",
		"bell\a", "del\x7f", "nbsp\u00a0x", "ls\u2028x", "bom\ufeffx", "é", "日本", "😀", "\u0085", "\U000e0001",
		"trailing ", " leading",
	} {
		var got string
		if err := yaml.Unmarshal([]byte("v: "+yamlQuote(s)+"\n"), &struct{ V *string }{&got}); err != nil {
			t.Errorf("%q: %s does not parse: %v", s, yamlQuote(s), err)
			continue
		}
		if got != s {
			t.Errorf("%q: quoted %s, read back %q", s, yamlQuote(s), got)
		}
	}
}

func FuzzYAMLQuote(f *testing.F) {
	for _, s := range []string{"git *", `"\`, "\n\x00\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.ContainsRune(s, '\uFFFD') && !validUTF8(s) {
			return
		}
		var got string
		if err := yaml.Unmarshal([]byte("v: "+yamlQuote(s)+"\n"), &struct{ V *string }{&got}); err != nil {
			t.Fatalf("%q: %s does not parse: %v", s, yamlQuote(s), err)
		}
		if validUTF8(s) && got != s {
			t.Fatalf("%q: read back %q", s, got)
		}
	})
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// Origins, notes and reasons hold source text; none can end the comment
// early or break the YAML.
func TestWriteYAMLHostileText(t *testing.T) {
	res := &Result{Tool: "claude", File: "we\nird\x00.json", Source: "Claude Code settings"}
	res.Rules = []Rule{
		{Section: "shell", Decision: rules.Deny, Pattern: "rm \"x\" \\ *", Where: "permissions.deny[0]", Text: "Bash(rm\n# x: y)", Note: "a\u2028b"},
		{Section: "read", Decision: rules.Ask, Pattern: "~/.ssh/*", Where: "x\ry", Text: "t"},
	}
	res.Skipped = []Skipped{{Where: "w", Text: "line\nbreak", Why: "why\n- not: a rule"}}
	var out bytes.Buffer
	if err := res.WriteYAML(&out); err != nil {
		t.Fatal(err)
	}
	p, err := rules.Parse(out.Bytes(), "imported.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got := p.Rules()
	if len(got) != 2 || got[0].Pattern != "rm \"x\" \\ *" || got[1].Pattern != "~/.ssh/*" {
		t.Errorf("got %v\n%s", got, out.String())
	}
	var report bytes.Buffer
	if err := res.WriteReport(&report); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(report.String(), "\n"); lines != 1 {
		t.Errorf("the report of one entry has %d lines:\n%s", lines, report.String())
	}
}

func TestWriteYAMLEmpty(t *testing.T) {
	res := &Result{Tool: "goose", File: "permission.yaml"}
	var out bytes.Buffer
	if err := res.WriteYAML(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\nrules: {}\n") {
		t.Errorf("no empty rules mapping:\n%s", out.String())
	}
	if _, err := rules.Parse(out.Bytes(), "imported.yaml"); err != nil {
		t.Fatal(err)
	}
}

// A pattern several entries gave is written once, naming them all.
func TestWriteYAMLMergesDuplicates(t *testing.T) {
	res, err := Claude([]byte(`{"permissions": {"allow": ["Bash(git log:*)", "Bash(git log *)"]}}`), "settings.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := res.WriteYAML(&out); err != nil {
		t.Fatal(err)
	}
	want := `      - "git log *"  # settings.json permissions.allow[0]: Bash(git log:*); settings.json permissions.allow[1]: Bash(git log *)` + "\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("got:\n%s\nwant a line:\n%s", out.String(), want)
	}
}

func TestWriteReport(t *testing.T) {
	res, err := Claude([]byte(`{"permissions": {"allow": ["WebFetch(domain:example.com)", "Bash"]}}`), "/p/.claude/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := res.WriteReport(&out); err != nil {
		t.Fatal(err)
	}
	want := "guardsh: import: /p/.claude/settings.json: permissions.allow[0]: WebFetch(domain:example.com): is a rule for Claude Code's web tool WebFetch; guardsh governs shell commands and file paths only\n" +
		"guardsh: import: /p/.claude/settings.json: permissions.allow[1]: Bash: " + whyAllowAll + "\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestCommentSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain text: ok # yes": "plain text: ok # yes",
		"two\nlines":           `"two\nlines"`,
		"tab\tstop":            `"tab\tstop"`,
		"sep\u2028x":           `"sep\u2028x"`,
	} {
		if got := commentSafe(in); got != want {
			t.Errorf("commentSafe(%q) = %s, want %s", in, got, want)
		}
	}
}
