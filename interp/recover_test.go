package interp

import (
	"errors"
	"strings"
	"testing"
)

// Every text in TestAnalyzeDoubleParenIsCode runs under bash 5.2 as the
// segments show (checked with bash -c); for instance
// bash -c 'echo "$((echo a && echo b) | tr a-z A-Z)"' prints A and B.
func TestAnalyzeDoubleParenIsCode(t *testing.T) {
	runCases(t, home, []analyzeCase{
		{"a CI step's $(( that is a command substitution", `TAGS="$((echo HEAD && git tag) | xargs)"`,
			[]string{"exec echo HEAD via $(…)", "exec git tag via $(…)", "exec xargs via $(…)", "exec {\"TAGS=\\x00\"}"}},
		{"a blank before the last ) makes $(( code", "x=$((rm -rf /) )",
			[]string{"exec rm -rf / via $(…)", "exec {\"x=\\x00\"}"}},
		{"a pipe between two subshells makes $(( code", "x=$((echo)|(id))",
			[]string{"exec echo via $(…)", "exec id via $(…)", "exec {\"x=\\x00\"}"}},
		{"a name alone in $(( ) ) is a command", "echo $((a) )",
			[]string{"exec a via $(…)", "exec echo \"\\x00\""}},
		{"arithmetic inside stays arithmetic", "x=$((echo $((1+2)) foo) | cat)",
			[]string{"exec echo \"\\x00\" foo via $(…)", "exec cat via $(…)", "exec {\"x=\\x00\"}"}},
		{"a $(( inside another is split too", "echo $((echo $((echo in) | cat)) | cat)",
			[]string{"exec echo in via $(…),$(…)", "exec cat via $(…),$(…)", "exec echo \"\\x00\" via $(…)", "exec cat via $(…)", "exec echo \"\\x00\""}},
		{"arithmetic before the error is left alone", "echo $((1+2)) $((rm x) | cat)",
			[]string{"exec rm x via $(…)", "exec cat via $(…)", "exec echo \"\\x00\" \"\\x00\""}},
		{"a (( command that is two subshells", "((rm -rf /) | cat)",
			[]string{"exec rm -rf /", "exec cat"}},
		{"in backquotes", "echo `echo $((rm x) | cat)`",
			[]string{"exec rm x via `…`,$(…)", "exec cat via `…`,$(…)", "exec echo \"\\x00\" via `…`", "exec echo \"\\x00\""}},
		{"in an unquoted here-document", "cat <<EOF\n$((rm x) | cat)\nEOF\n",
			[]string{"exec rm x via $(…)", "exec cat via $(…)", "exec cat"}},
		{"in a process substitution", "cat <((rm x) | cat)",
			[]string{"exec rm x via <(…)", "exec cat via <(…)", "exec cat \"\\x00\""}},
		{"in a bash -c payload", `bash -c 'x=$((rm y) | cat)'`,
			[]string{"exec bash -c \"x=$((rm y) | cat)\"", "exec rm y via bash -c,$(…)", "exec cat via bash -c,$(…)", "exec {\"x=\\x00\"} via bash -c"}},
		{"in an eval payload", `eval 'x=$((rm y) | cat)'`,
			[]string{"exec eval \"x=$((rm y) | cat)\"", "exec rm y via eval,$(…)", "exec cat via eval,$(…)", "exec {\"x=\\x00\"} via eval"}},
	})
}

func TestAnalyzeDoubleParenKeepsTheText(t *testing.T) {
	src := "true\nTAGS=\"$((echo HEAD && git tag) | xargs)\"; echo $((a) ) $TAGS"
	segs, err := Analyze(src, home)
	if err != nil {
		t.Fatal(err)
	}
	last := segs[len(segs)-1]
	if got := last.String(); got != "echo $((a) ) $TAGS" {
		t.Errorf("last segment shows %q, want the words as written", got)
	}
	for _, s := range segs {
		for _, w := range append(s.Assigns, s.Args...) {
			if strings.Contains(w.Source, "$( (") {
				t.Errorf("word source %q shows the analysis's blank", w.Source)
			}
		}
	}
	// Positions after a split point into the text as written.
	segs, err = Analyze("x=$((echo a) | cat); rm y", home)
	if err != nil || len(segs) != 4 || segs[3].Line != 1 || segs[3].Col != 22 {
		t.Errorf("rm y: %v, %+v; want line 1 col 21", err, segs)
	}
	_, err = Analyze("x=$((echo a) | cat); echo {1..100}{1..100}{1..100}", home)
	var nu *NotUnderstood
	if !errors.As(err, &nu) || nu.Line != 1 || nu.Col != 27 {
		t.Errorf("err = %v, want line 1 col 27", err)
	}
}

// Text where bash reads $(( or (( as arithmetic, or where the analysis
// cannot be sure how bash reads it, stays not understood.
func TestAnalyzeDoubleParenFailsClosed(t *testing.T) {
	many := strings.Repeat("$((a) )", maxSplits+1)
	cases := []struct{ name, src string }{
		// bash: "echo a; echo b: syntax error: invalid arithmetic operator"
		{"a )) right after the pair is arithmetic", "x=$((echo a; echo b))"},
		// bash expands $(…) in single quotes inside arithmetic: this runs id.
		{"single quotes inside arithmetic are not quotes", `x=$((echo '$(id)'))`},
		{"a quoted parenthesis leaves the reading unsure", `x=$((echo ")") | cat)`},
		{"a backquote leaves the reading unsure", "x=$((echo `id`) | cat)"},
		{"a comment leaves the reading unsure", "x=$((echo a #)\n) | cat)"},
		{"a here-document leaves the reading unsure", "x=$((cat <<E\n)\nE\n) | cat)"},
		{"split text that still does not parse", "x=$((1)+(2))"},
		{"a posix shell reads $(( as arithmetic", `sh -c 'x=$((echo a) | cat)'`},
		{"more splits than the bound", many},
		{"an unclosed substitution", "x=$((echo a) | cat"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			segs, err := Analyze(tc.src, home)
			var nu *NotUnderstood
			if !errors.As(err, &nu) {
				t.Fatalf("Analyze(%q) = %v, %v; want *NotUnderstood", tc.src, renderAll(segs), err)
			}
		})
	}
	if _, err := Analyze(strings.Repeat("$((a) )", maxSplits), home); err != nil {
		t.Errorf("%d splits: %v", maxSplits, err)
	}
}
