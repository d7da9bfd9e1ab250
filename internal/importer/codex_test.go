package importer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

const whyStarlark = "is Starlark that the importer does not evaluate: it reads only calls whose arguments are literals"

func TestCodex(t *testing.T) {
	runConv(t, Codex, []convCase{{
		name: "a rules file",
		file: "codex/default.rules",
		rules: []string{
			`shell deny "git reset --hard *" <- line 4 (justification: destructive operation; use ` + "`git stash`" + ` instead)`,
			`shell ask "git push *" <- line 12`,
			`shell ask "git fetch *" <- line 12`,
			`shell allow "ls *" <- line 19`,
			`shell allow "gh pr view *" <- line 21`,
			`shell allow "gh pr list *" <- line 21`,
			`shell ask "npm run build *" <- line 23 (justification: Production builds need approval)`,
			`shell deny "rm -rf / *" <- line 29`,
			`shell deny "rm -fr / *" <- line 29`,
			`shell ask "python3 -c *" <- line 45`,
			`shell deny "sudo *" <- line 45`,
		},
		skipped: []string{
			`line 31: prefix_rule(pattern=["echo", "hello world"], decision="allow"): has the word "hello world" with white space in it; guardsh joins words with single spaces, so it would also match them as separate words`,
			`line 36: prefix_rule(pattern=["make", "*"], decision="allow"): has the word "*" with a *, which is literal there but a wildcard to guardsh`,
			`line 38: prefix_rule(pattern=["curl"], decision="ask"): has a decision other than "allow", "prompt" or "forbidden"`,
			`line 40: host_executable(name = "git", paths = ["/usr/bin/git", "/opt/homebrew/bin/git"]): says where a program's binary lives; guardsh resolves programs itself; not imported`,
			`line 42: GIT = "git": ` + whyStarlark,
			`line 43: prefix_rule(pattern = [GIT, "clean"], decision = "forbidden"): ` + whyStarlark,
		},
	}, {
		name: "positional pattern, string forms and escapes",
		file: "x.rules",
		data: "prefix_rule([\"git\", \"status\"])\n" +
			"prefix_rule(pattern=['grep', r'\\d+'], decision='allow',)\n" +
			"prefix_rule(pattern=[\"\\x63at\", \"\\u00e9t\\u00e9\"], decision=\"prompt\")\n" +
			"prefix_rule(\n  pattern = [\n    \"docker\",  # the program\n    [\"rm\", \"rmi\"],\n  ],\n  decision = \"forbidden\",\n)\n",
		rules: []string{
			`shell allow "git status *" <- line 1`,
			`shell allow "grep \\d+ *" <- line 2`,
			`shell ask "cat été *" <- line 3`,
			`shell deny "docker rm *" <- line 4`,
			`shell deny "docker rmi *" <- line 4`,
		},
	}, {
		name: "alternatives that cannot be spelled are left out, the others kept",
		file: "x.rules",
		data: `prefix_rule(pattern=["git", ["push", "pu sh", ""]], decision="forbidden")` + "\n" +
			`prefix_rule(pattern=["a b"], decision="forbidden")`,
		rules: []string{
			`shell deny "git push *" <- line 1`,
		},
		skipped: []string{
			`line 1: prefix_rule(pattern=["git", ["push", "pu sh", ""]], decision="forbidden"): has the word "pu sh" with white space in it; guardsh joins words with single spaces, so it would also match them as separate words`,
			`line 1: prefix_rule(pattern=["git", ["push", "pu sh", ""]], decision="forbidden"): has an empty word, which guardsh cannot spell`,
			`line 2: prefix_rule(pattern=["a b"], decision="forbidden"): has the word "a b" with white space in it; guardsh joins words with single spaces, so it would also match them as separate words`,
		},
	}, {
		name: "calls and statements that are not read",
		file: "x.rules",
		data: "load(\"//x.star\", \"y\")\n" +
			"prefix_rule(pattern=[\"a\" + \"b\"])\n" +
			"prefix_rule(pattern=[])\n" +
			"prefix_rule(decision=\"allow\")\n" +
			"prefix_rule(pattern=\"git\")\n" +
			"prefix_rule(pattern=[\"git\"], decision=\"prompt\", severity=1)\n" +
			"prefix_rule(pattern=[\"git\"], decision=\"forbidden\", [\"x\"])\n" +
			"prefix_rule([\"git\"], [\"x\"])\n" +
			"prefix_rule(pattern=[\"git\", [1]])\n" +
			"prefix_rule(pattern=[\"git\", []])\n" +
			"prefix_rule(pattern=[b\"git\"])\n" +
			"def f():\n    pass\n",
		skipped: []string{
			`line 1: load("//x.star", "y"): calls load, which is not a Codex rule the importer knows; ` + whyWeb,
			`line 2: prefix_rule(pattern=["a" + "b"]): ` + whyStarlark,
			`line 3: prefix_rule(pattern=[]): has no pattern, or one that is not a non-empty list`,
			`line 4: prefix_rule(decision="allow"): has no pattern, or one that is not a non-empty list`,
			`line 5: prefix_rule(pattern="git"): has no pattern, or one that is not a non-empty list`,
			`line 6: prefix_rule(pattern=["git"], decision="prompt", severity=1): has the unknown argument severity`,
			`line 7: prefix_rule(pattern=["git"], decision="forbidden", ["x"]): ` + whyStarlark,
			`line 8: prefix_rule(["git"], ["x"]): has more than one positional argument`,
			`line 9: prefix_rule(pattern=["git", [1]]): has a pattern alternative that is not a string`,
			`line 10: prefix_rule(pattern=["git", []]): has a pattern element that is neither a string nor a non-empty list of strings`,
			`line 11: prefix_rule(pattern=[b"git"]): ` + whyStarlark,
			`line 12: def f():: ` + whyStarlark,
			`line 13: pass: ` + whyStarlark,
		},
	}, {
		name: "empty and comment-only files",
		file: "x.rules",
		data: "# nothing yet\n\n",
	}})
}

func TestCodexMalformed(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"an unterminated string", "prefix_rule(pattern=[\"git\n", "x.rules:1: invalid Starlark: unterminated string"},
		{"an unclosed call", "\n\nprefix_rule(pattern=[\"git\"]\n", "x.rules:3: invalid Starlark: \"(\" is never closed"},
		{"an unbalanced bracket", "prefix_rule(pattern=[\"git\")]\n", "x.rules:1: invalid Starlark: unbalanced \")\""},
		{"a bad escape", "x = \"\\q\"\n", "x.rules:1: invalid Starlark: invalid escape sequence \\q"},
		{"an unterminated triple-quoted string", "x = \"\"\"a\nb\n", "x.rules:1: invalid Starlark: unterminated string"},
		{"a stray character", "prefix_rule(pattern=[\"git\"]) ?\n", "x.rules:1: invalid Starlark: unexpected character \"?\""},
		{"not UTF-8", "x = \"\xff\"\n", "x.rules: not valid UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := convErr(t, Codex, c.data, "x.rules").Error(); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// Codex rules carry match and not_match examples; the converted rules must
// decide them the same way: each match example by that rule, with its
// decision, and no not_match example by it.
func TestCodexExamples(t *testing.T) {
	file := filepath.Join("testdata", "codex", "default.rules")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Codex(data, file)
	if err != nil {
		t.Fatal(err)
	}
	d := newDecider(t, res)
	toks, err := starlarkTokens(string(data), file)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, stmt := range splitStatements(toks) {
		call, ok := parseCall(stmt)
		if !ok || call.name != "prefix_rule" {
			continue
		}
		line := stmt[0].line
		var patterns []string
		var dec rules.Decision
		for _, r := range res.Rules {
			if r.Where == "line "+strconv.Itoa(line) {
				patterns = append(patterns, r.Pattern)
				dec = r.Decision
			}
		}
		for _, kw := range call.kw {
			if kw.name != "match" && kw.name != "not_match" {
				continue
			}
			for _, ex := range kw.val.list {
				words := exampleWords(ex)
				got, rule := d.exec(words...)
				byThis := contains(patterns, rule)
				switch {
				case kw.name == "match" && (!byThis || got != dec):
					t.Errorf("line %d: match example %q: got %s by %q, want %s by one of %q", line, words, got, rule, dec, patterns)
				case kw.name == "not_match" && byThis:
					t.Errorf("line %d: not_match example %q is decided by %q", line, words, rule)
				}
				checked++
			}
		}
	}
	if checked < 6 {
		t.Errorf("checked %d examples; the test data lost its examples", checked)
	}
}

// exampleWords returns a match example's argv: a list of words, or a string
// split at blanks (the examples here need no quoting).
func exampleWords(v sval) []string {
	if v.kind == 's' {
		return strings.Fields(v.str)
	}
	var out []string
	for _, e := range v.list {
		out = append(out, e.str)
	}
	return out
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
