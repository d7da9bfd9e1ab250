package guard

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/rules"
)

// TestDecideShortcuts checks that Decide's shortcuts leave every outcome
// as the long way makes it: the agent corpus's commands, each also after a
// cd into a directory where its relative words name other files (a
// secret, a protected directory, a workspace write outside the
// workspace), under several policies and modes. The outcome is compared
// whole: decisions, rules, reasons and suggestions of every segment.
func TestDecideShortcuts(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	for _, d := range []string{"src", "dist/tmp", ".git/hooks", "secrets", "sub"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{".ssh", ".aws", "notes"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/README.md", "proj/package.json", "proj/secrets/README.md", "proj/secrets/.env",
		".ssh/id_rsa", ".ssh/README.md", ".aws/credentials", "notes/README.md", "proj/sub/key.pem"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	policies := map[string]string{
		"default": "",
		"strict": `
rules:
  shell:
    deny: ["rm -rf /*", "* --danger *", "curl *"]
    ask: ["git push *", "sed -i *"]
    allow: ["ls *", "npm test *", "git status *", "cat README.md", "python3 -c print*"]
  write:
    deny: ["~/.ssh/*", "secrets/*"]
    ask: ["~/notes/*"]
  read:
    deny: ["~/.aws/*", "secrets/*"]
    ask: ["*.pem", "~/notes/*"]
`,
	}
	cds := []string{"", "cd secrets; ", "cd ~/.ssh; ", "cd " + home + "/notes; ", "cd sub && ", "cd /; ", "cd .git/hooks; ", `cd "$d"; `}
	var texts []string
	for _, c := range agentCommands(t) {
		texts = append(texts, c.Cmd)
	}
	texts = append(texts, "cat README.md", "rm -rf ./dist/tmp", "cat .env", "cp x id_rsa", "touch pre-commit",
		"cat key.pem", "grep -r key", "ls -la", "sed -i s/a/b/ README.md", "git status --short", "make -j4 build")
	explained := 0
	for name, text := range policies {
		p := rules.Default()
		if text != "" {
			var err error
			if p, err = rules.Parse([]byte(text), name+".yaml"); err != nil {
				t.Fatal(err)
			}
		}
		for _, mode := range []rules.Mode{rules.AskMode, rules.Plan, rules.Bypass} {
			short := &Guard{Policy: p, PolicyFile: name + ".yaml",
				Context: rules.Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws}}
			short.Analysis.Home = home
			long := *short
			long.longWay = true
			for _, cd := range cds {
				for _, text := range texts {
					segs, err := short.Analyze(cd + text)
					if err != nil {
						continue
					}
					got, want := short.Decide(segs), long.Decide(segs)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s, mode %s, %q:\nshortcut  %s\nlong way  %s", name, mode, cd+text, describeOutcome(got), describeOutcome(want))
					}
					for _, c := range want.Segments {
						if strings.HasSuffix(c.Verdict.Reason, ", where a cd leads)") {
							explained++
						}
					}
				}
			}
		}
	}
	// The comparison proves little unless another directory's verdict
	// won often.
	if explained < 100 {
		t.Errorf("only %d verdicts from another directory", explained)
	}
	t.Logf("%d verdicts from another directory", explained)
}
