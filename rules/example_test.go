package rules_test

import (
	"fmt"

	"github.com/guardsh/guardsh/rules"
)

// A policy is parsed from YAML and decides one segment at a time; the
// command's decision is the strictest of its segments'.
func Example() {
	policy, err := rules.Parse([]byte(`
mode: ask
rules:
  shell:
    allow: ["npm test *"]
    ask:   ["git push *"]
    deny:  ["rm -rf *"]
`), "config.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := rules.Context{Cwd: "/home/me/app", Home: "/home/me", Workspace: "/home/me/app"}
	for _, words := range [][]string{
		{"git", "status"},
		{"npm", "test", "--", "--watch"},
		{"git", "push", "origin", "main"},
		{"make", "build"},
		{"rm", "-rf", "dist"},
		{"rm", rules.Hole}, // rm $target: the target is only known at run time
	} {
		v := policy.Decide(rules.Subject{Kind: rules.KindExec, Words: words}, ctx)
		fmt.Printf("%-5s %s\n", v.Decision, v.Reason)
		if v.Suggest != "" {
			fmt.Printf("      allow with %q\n", v.Suggest)
		}
	}
	// Output:
	// allow git status is in the read-only table
	// allow matches allow rule "npm test *" (config.yaml:5)
	// ask   matches ask rule "git push *" (config.yaml:6)
	// ask   make is not in the read-only table and no rule matches
	//       allow with "make build *"
	// deny  matches deny rule "rm -rf *" (config.yaml:7)
	// ask   could match deny rule "rm -rf *" (config.yaml:7) once its run-time parts are known
}

// Config mistakes are reported with file, line and problem.
func ExampleParse_error() {
	_, err := rules.Parse([]byte("mode: ask\nrules:\n  shell:\n    deny: [\"\"]\n"), "config.yaml")
	fmt.Println(err)
	// Output:
	// config.yaml:4: rules.shell.deny[0]: empty pattern
}

// Combine gives the decision for a whole command.
func ExampleCombine() {
	policy := rules.Default()
	ctx := rules.Context{Cwd: "/home/me/app", Home: "/home/me", Workspace: "/home/me/app"}
	segments := []rules.Subject{
		{Kind: rules.KindExec, Words: []string{"ls", "-la"}},
		{Kind: rules.KindExec, Words: []string{"rm", "-rf", "/"}},
	}
	var vs []rules.Verdict
	for _, s := range segments {
		vs = append(vs, policy.Decide(s, ctx))
	}
	fmt.Println(rules.Combine(vs), "by", vs[1].Rule.Section, vs[1].Rule.Decision, vs[1].Rule.Pattern)
	// Output:
	// deny by shell deny rm * / *
}

// Lint reports what Parse rejects and rules that can never take effect,
// each with file and line.
func ExampleLint() {
	src := `mode: ask
rules:
  shell:
    deny: ["rm -rf *"]
    allow: ["rm -rf build", "make *", 1]
`
	for _, f := range rules.Lint([]byte(src), "config.yaml") {
		fmt.Println(f)
	}
	// Output:
	// config.yaml:5: error: rules.shell.allow[2]: expected a pattern string, got a number; quote it
	// config.yaml:5: warning: allow rule "rm -rf build" never takes effect: deny rule "rm -rf *" (line 4) matches every command it matches
}
