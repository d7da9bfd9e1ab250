package interp

import (
	"strings"
	"testing"
)

// TestKeywordAndHistoryOptionsAreRefused checks that text turning on -k
// (keyword) or -H (histexpand), which make bash run something other than
// the analysed text, is not understood, and that harmless option changes
// still are.
func TestKeywordAndHistoryOptionsAreRefused(t *testing.T) {
	refused := []string{"shopt -os keyword", "shopt -s -o histexpand", "shopt -so history histexpand",
		"set -k", "set -eHu", "set -o keyword", "set -e -o histexpand", "bash -k -c 'ls'", "bash -o keyword -c ls",
		"sh -H -c ls", "ls && { set -k; }", "eval 'set -k'", "command set -k", "builtin set -k", "command -p set -o keyword"}
	for _, src := range refused {
		if _, err := Analyze(src, Options{}); err == nil || !strings.Contains(err.Error(), "other than what was analysed") {
			t.Errorf("Analyze(%q): err %v, want a refusal", src, err)
		}
	}
	fine := []string{"shopt -uo keyword", "shopt -s expand_aliases", "set +H", "set -- -k", "set x -k", "bash +H -c ls",
		"set -o pipefail", "shopt -o", "set -euo pipefail"}
	for _, src := range fine {
		if _, err := Analyze(src, Options{}); err != nil {
			t.Errorf("Analyze(%q): %v", src, err)
		}
	}
	segs, err := Analyze("set $opts", Options{})
	if err != nil || len(segs) != 1 || !segs[0].RunsCode {
		t.Errorf("set of a run-time option: %v %v, want a RunsCode segment", renderRuns(segs), err)
	}
}

func TestBuiltinsThatRunCode(t *testing.T) {
	runCases(t, Options{}, []analyzeCase{
		{"mapfile -C runs its callback", `mapfile -C "touch x" -c 1 a`,
			[]string{"exec mapfile -C \"touch x\" -c 1 a", "exec touch x via mapfile -C"}},
		{"a glued callback", `readarray -t -C"rm y" a`,
			[]string{"exec readarray -t \"-Crm y\" a", "exec rm y via readarray -C"}},
		{"mapfile without -C runs nothing", `mapfile -t -n 3 a`, []string{"exec mapfile -t -n 3 a"}},
	})
	for src, runs := range map[string]bool{
		"hash -p /usr/bin/touch ls": true, "hash -rp x y": true, "hash -r": false, "hash ls": false,
		"enable -f ./x.so y": true, "enable -n echo": false, "fc -s": true, "fc -s echo=rm": true, "fc": true, "fc -e vi 3": true, "fc -l": false, "fc -lnr 1 5": false, `readarray -C "$cb" a`: true, "hash $x": true,
	} {
		segs, err := Analyze(src, Options{})
		if err != nil || len(segs) != 1 || segs[0].RunsCode != runs {
			t.Errorf("Analyze(%q) = %q, %v; want RunsCode %v", src, renderRuns(segs), err, runs)
		}
	}
}

func TestPrintfVAssigns(t *testing.T) {
	runCases(t, Options{}, []analyzeCase{
		{"printf -v NAME is an assignment", `printf -v PS4 %s x`, []string{"exec {\"PS4=\\x00\"} printf -v PS4 %s x"}},
		{"glued", `printf -vx %s y`, []string{"exec {\"x=\\x00\"} printf -vx %s y"}},
		{"plain printf assigns nothing", `printf %s y`, []string{"exec printf %s y"}},
	})
}

// TestAliasOfReservedWordIsRefused: bash expands an alias named like a
// reserved word ({, if, …) where the analysis sees a compound command.
func TestAliasOfReservedWordIsRefused(t *testing.T) {
	for _, src := range []string{`alias {="echo hi"`, `alias if='eval'`, `alias x=y time='rm -rf ~;'`, `alias '[['=eval`} {
		if _, err := Analyze(src, Options{}); err == nil || !strings.Contains(err.Error(), "reserved word") {
			t.Errorf("Analyze(%q): err %v, want a refusal", src, err)
		}
	}
	if _, err := Analyze(`alias ll='ls -l' iff=true`, Options{}); err != nil {
		t.Errorf("ordinary aliases: %v", err)
	}
}

func TestFunctionNamedBuiltinIsRefused(t *testing.T) {
	for _, src := range []string{"builtin() { :; }", "function builtin { echo; }", "f() { builtin() { :; }; }", "enable -n builtin", `enable -n "$x"`} {
		if _, err := Analyze(src, Options{}); err == nil || !strings.Contains(err.Error(), "builtin") {
			t.Errorf("Analyze(%q): %v, want a refusal", src, err)
		}
	}
}

// $((NAME=…)) in a word assigns NAME: the segment carries the assignment,
// so that rules see BASH_CMDS or PATH assigned (attack-run find).
func TestArithmeticAssigns(t *testing.T) {
	runCases(t, Options{}, []analyzeCase{
		{"an array element", `: $((BASH_CMDS[ls]=1))`, []string{"exec {\"BASH_CMDS=\\x00\"} : \"\\x00\""}},
		{"op= and ++", `echo $((x+=2)) $((y++))`, []string{"exec {\"x=\\x00\" \"y=\\x00\"} echo \"\\x00\" \"\\x00\""}},
		{"reading assigns nothing", `echo $((x+2))`, []string{"exec echo \"\\x00\""}},
	})
}

func TestSourcepathOffIsRefused(t *testing.T) {
	if _, err := Analyze("shopt -u sourcepath", Options{}); err == nil || !strings.Contains(err.Error(), "sourcepath") {
		t.Errorf("shopt -u sourcepath: %v, want a refusal", err)
	}
	if _, err := Analyze("shopt -u nullglob; shopt -s sourcepath", Options{}); err != nil {
		t.Errorf("other options: %v", err)
	}
}
