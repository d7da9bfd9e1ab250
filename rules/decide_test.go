package rules

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mustParse(t testing.TB, src string) *Policy {
	t.Helper()
	p, err := Parse([]byte(src), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func exec(words ...string) Subject { return Subject{Kind: KindExec, Words: words} }
func write(path string) Subject    { return Subject{Kind: KindWrite, Words: []string{path}} }
func read(path string) Subject     { return Subject{Kind: KindRead, Words: []string{path}} }

// testContext returns a Context whose home and workspace are real, fresh
// directories; since they lie under the temp directory, the context's temp
// dirs are set to a path that does not exist, so that writes there count as
// what they would be in a real home.
func testContext(t *testing.T, mode Mode) Context {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	ws := filepath.Join(home, "proj")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	return Context{Mode: mode, Cwd: ws, Home: home, Workspace: ws, TempDirs: []string{"/nonexistent-temp"}, PlainGlobs: true}
}

const modeTablePolicy = `
readonly: ["terraform plan *"]
rules:
  shell:
    allow: ["make *", "cat notes*"]
    ask: ["ask-me *"]
    deny: ["deny-me *"]
`

// TestModeTable checks every cell of the mode table of the design.
func TestModeTable(t *testing.T) {
	p := mustParse(t, modeTablePolicy)
	modes := []Mode{Chat, Plan, Approve, AskMode, Auto, Bypass}
	const (
		A = Allow
		Q = Ask
		D = Deny
	)
	rows := []struct {
		name    string
		subject func(ctx Context) Subject
		want    [6]Decision // chat plan approve ask auto bypass
	}{
		{"matches an allow rule (sensitive command)", func(Context) Subject { return exec("make", "all") },
			[6]Decision{D, D, A, A, A, A}},
		{"matches an allow rule (read-only command)", func(Context) Subject { return exec("cat", "notes.txt") },
			[6]Decision{D, A, A, A, A, A}},
		{"read-only", func(Context) Subject { return exec("ls", "-la") },
			[6]Decision{D, A, Q, A, A, A}},
		{"writes inside the workspace", func(c Context) Subject { return write(c.Workspace + "/out.txt") },
			[6]Decision{D, D, Q, Q, A, A}},
		{"sensitive", func(Context) Subject { return exec("npm", "publish") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive write outside the workspace", func(Context) Subject { return write("/var/lib/guardsh-test/x") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"matches an ask rule", func(Context) Subject { return exec("ask-me", "now") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"writes a protected path", func(c Context) Subject { return write(c.Home + "/.bashrc") },
			[6]Decision{D, D, Q, Q, Q, Q}},
		{"matches a deny rule", func(Context) Subject { return exec("deny-me", "now") },
			[6]Decision{D, D, D, D, D, D}},
		{"reads a file", func(c Context) Subject { return read(c.Workspace + "/in.txt") },
			[6]Decision{D, A, Q, A, A, A}},
		{"matches a readonly pattern", func(Context) Subject { return exec("terraform", "plan", "-no-color") },
			[6]Decision{D, A, Q, A, A, A}},
		{"workspace write by a program", func(Context) Subject { return exec("rm", "-rf", "build") },
			[6]Decision{D, D, Q, Q, A, A}},
		{"sensitive: network", func(Context) Subject { return exec("curl", "https://example.com") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive: interpreter", func(Context) Subject { return exec("python3", "x.py") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive: privilege", func(Context) Subject { return exec("chown", "root", "x") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive: destructive", func(Context) Subject { return exec("rm", "-rf", "/srv/data") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive: outside the workspace", func(Context) Subject { return exec("mkdir", "/srv/new") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive: unknown program", func(Context) Subject { return exec("frobnicate") },
			[6]Decision{D, D, Q, Q, Q, A}},
		{"sensitive: reads a secret", func(c Context) Subject { return exec("cat", c.Workspace+"/.env") },
			[6]Decision{D, D, Q, Q, Q, A}},
	}
	for _, row := range rows {
		for i, m := range modes {
			t.Run(row.name+"/"+string(m), func(t *testing.T) {
				ctx := testContext(t, m)
				v := p.Decide(row.subject(ctx), ctx)
				if v.Decision != row.want[i] {
					t.Errorf("got %v (%s), want %v", v.Decision, v.Reason, row.want[i])
				}
				if v.Reason == "" || v.DecidedBy == "" {
					t.Errorf("verdict lacks reason or decided-by: %+v", v)
				}
			})
		}
	}
}

func TestPrecedence(t *testing.T) {
	p := mustParse(t, `
rules:
  shell:
    allow: ["git *", "ls *", "x *", "tail ~/log/*"]
    ask: ["git push *", "x y *"]
    deny: ["git push --force *", "x y z", "cat ~/.secret"]
  write:
    allow: ["~/.bashrc", "~/notes/*"]
    deny: ["~/secret/*"]
`)
	ctx := testContext(t, AskMode)
	tests := []struct {
		name    string
		mode    Mode
		s       Subject
		want    Decision
		by      string
		pattern string
	}{
		{"deny beats ask and allow", AskMode, exec("git", "push", "--force", "origin"), Deny, ByRule, "git push --force *"},
		{"deny beats bypass", Bypass, exec("x", "y", "z"), Deny, ByRule, "x y z"},
		{"ask beats allow", AskMode, exec("git", "push", "origin"), Ask, ByRule, "git push *"},
		{"ask beats allow in auto", Auto, exec("x", "y", "q"), Ask, ByRule, "x y *"},
		{"allow beats class", AskMode, exec("git", "commit", "-m", "msg"), Allow, ByRule, "git *"},
		{"allow of a read-only command", Approve, exec("ls"), Allow, ByRule, "ls *"},
		{"class when no rule matches", AskMode, exec("rm", "x"), Ask, ByClass, ""},
		{"chat beats allow", Chat, exec("git", "status"), Deny, ByMode, ""},
		{"could-match deny beats allow", Bypass, exec("git", "push", Hole, "origin"), Ask, ByRule, "git push --force *"},
		{"protected write beats allow rule", Bypass, write(ctx.Home + "/.bashrc"), Ask, ByClass, ""},
		{"deny beats protected", Bypass, write(ctx.Home + "/secret/k"), Deny, ByRule, "~/secret/*"},
		{"path allow rule", AskMode, write(ctx.Home + "/notes/today.md"), Allow, ByRule, "~/notes/*"},
		{"dangerous assignment is not lifted by allow", AskMode,
			Subject{Kind: KindExec, Words: []string{"git", "diff"}, Assigns: []string{"GIT_EXTERNAL_DIFF=/tmp/evil"}}, Ask, ByClass, ""},
		{"allow pattern with ~ matches the expanded home", AskMode, exec("ls", ctx.Home+"/notes"), Allow, ByRule, "ls *"},
		{"deny pattern with ~ matches the expanded home", AskMode, exec("cat", ctx.Home+"/.secret"), Deny, ByRule, "cat ~/.secret"},
		{"allow pattern with ~ (tilde form)", Approve, exec("tail", ctx.Home+"/log/x.log"), Allow, ByRule, "tail ~/log/*"},
		{"~ form only for whole home components", AskMode, exec("cat", ctx.Home+"x/.secret"), Allow, ByClass, ""},
		{"harmless assignment keeps the allow", AskMode,
			Subject{Kind: KindExec, Words: []string{"git", "commit"}, Assigns: []string{"GIT_AUTHOR_NAME=me"}}, Allow, ByRule, "git *"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ctx
			c.Mode = tc.mode
			v := p.Decide(tc.s, c)
			if v.Decision != tc.want || v.DecidedBy != tc.by {
				t.Fatalf("got %v by %s (%s), want %v by %s", v.Decision, v.DecidedBy, v.Reason, tc.want, tc.by)
			}
			switch {
			case tc.pattern == "" && v.Rule != nil:
				t.Errorf("Rule = %v, want nil", v.Rule)
			case tc.pattern != "" && (v.Rule == nil || v.Rule.Pattern != tc.pattern):
				t.Errorf("Rule = %v, want pattern %q", v.Rule, tc.pattern)
			}
		})
	}
}

func TestReasons(t *testing.T) {
	p := mustParse(t, "rules:\n  shell:\n    deny:\n      - \"rm -rf *\"\n")
	ctx := testContext(t, AskMode)
	tests := []struct {
		s       Subject
		mode    Mode
		reason  string
		suggest string
	}{
		{exec("rm", "-rf", "build"), AskMode, `matches deny rule "rm -rf *" (test.yaml:4)`, ""},
		{exec("rm", Hole), AskMode, `could match deny rule "rm -rf *" (test.yaml:4) once its run-time parts are known`, ""},
		{exec("npm", "publish"), AskMode, "npm is in the read-only table only as npm -v or --version and no rule matches", "npm publish *"},
		{exec("rm", "-f", "/srv/x"), AskMode, "rm is not in the read-only table and no rule matches", "rm -f /srv/x"},
		{exec("npm", "test"), AskMode, "npm is in the read-only table only as npm -v or --version and no rule matches", "npm test *"},
		{exec("git", "push", "origin", "main"), AskMode, "git push is not in the read-only table and no rule matches", "git push *"},
		{exec("make"), AskMode, "make is not in the read-only table and no rule matches", "make *"},
		{exec("./build.sh", "--fast"), AskMode, "./build.sh is not in the read-only table and no rule matches", "./build.sh --fast"},
		// "python3 *" would allow any code: nothing is suggested for a
		// run-time script, the exact command for a known one, nothing for
		// a shell reading stdin (`curl … | sh` suggested "sh *").
		{exec("python3", Hole), AskMode, "python3 is not in the read-only table and no rule matches", ""},
		{exec("python3", "build.py"), AskMode, "python3 is not in the read-only table and no rule matches", "python3 build.py"},
		{exec("sh"), AskMode, "sh is not in the read-only table and no rule matches", ""},
		{exec(Hole, "x"), AskMode, `could match deny rule "rm -rf *" (test.yaml:4) once its run-time parts are known`, ""},
		{exec(Hole), AskMode, `could match deny rule "rm -rf *" (test.yaml:4) once its run-time parts are known`, ""},
		{exec("ls"), Chat, "mode chat runs nothing", ""},
		{exec("ls"), Approve, "ls is in the read-only table, but mode approve asks before anything no allow rule matches", "ls *"},
		{exec("npm", "publish"), Plan, "npm is in the read-only table only as npm -v or --version; mode plan runs only read-only commands", ""},
		{exec("npm", "publish"), Bypass, "npm is in the read-only table only as npm -v or --version; mode bypass runs it", ""},
		{write(ctx.Workspace + "/src/a.go"), AskMode, "writes " + ctx.Workspace + "/src/a.go inside the workspace and no rule matches", "src/*"},
		{write(ctx.Workspace + "/a.go"), AskMode, "writes " + ctx.Workspace + "/a.go inside the workspace and no rule matches", "a.go"},
		{write(ctx.Home + "/notes/a.md"), AskMode, "writes " + ctx.Home + "/notes/a.md outside the workspace and no rule matches", "~/notes/*"},
		{write("/var/lib/guardsh-test/x"), AskMode, "writes /var/lib/guardsh-test/x outside the workspace and no rule matches", "/var/lib/guardsh-test/*"},
		{write("/etc/hosts"), AskMode, "writes /etc/hosts outside the workspace and no rule matches", "/etc/hosts"},
		{write(ctx.Home + "/.ssh/config"), AskMode, "writes protected path " + ctx.Home + "/.ssh/config (protected: " + ctx.Home + "/.ssh/*), which needs a human's yes in every mode", ""},
		{write("/dev/null"), AskMode, "writes /dev/null, which writes no file", ""},
		{Subject{Kind: KindExec, Assigns: []string{"LD_PRELOAD=/x.so"}}, AskMode, "assigning LD_PRELOAD changes what later commands run and no rule matches", ""},
	}
	for _, tc := range tests {
		c := ctx
		c.Mode = tc.mode
		v := p.Decide(tc.s, c)
		if v.Reason != tc.reason || v.Suggest != tc.suggest {
			t.Errorf("%q in %s:\n got reason %q suggest %q\nwant reason %q suggest %q", tc.s.Words, tc.mode, v.Reason, v.Suggest, tc.reason, tc.suggest)
		}
	}
	if v := (&Policy{}).Decide(exec(Hole, "status"), ctx); v.Reason != "the command name is only known at run time and no rule matches" {
		t.Errorf("dynamic command name: %q", v.Reason)
	}
}

func TestSuggestionsWork(t *testing.T) {
	// An Ask's Suggest, added as an allow rule, lets the subject run.
	ctx := testContext(t, AskMode)
	subjects := []Subject{
		exec("npm", "test"), exec("npm", "run", "build:prod"), exec("go", "build", "./..."),
		exec("./x.sh", "a b"), exec("make"), exec("cargo", Hole),
		write(ctx.Workspace + "/out/x.txt"), write(ctx.Home + "/notes/a.md"), write("/var/lib/guardsh-test/y"),
	}
	for _, s := range subjects {
		v := Default().Decide(s, ctx)
		if v.Decision != Ask || v.Suggest == "" {
			t.Errorf("%q: %v, suggest %q", s.Words, v.Decision, v.Suggest)
			continue
		}
		section := "shell"
		if s.Kind == KindWrite {
			section = "write"
		}
		q, err := Parse([]byte("rules:\n  "+section+":\n    allow: ['"+v.Suggest+"']\n"), "s.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if w := q.Decide(s, ctx); w.Decision != Allow {
			t.Errorf("%q: suggestion %q does not allow it: %s", s.Words, v.Suggest, w.Reason)
		}
	}
}

// TestNoBroadSuggestions: the allow rule proposed for a command that asks
// never allows, whatever its "*" stands for, destroying, writing outside
// the workspace or raising privilege: a new user added the proposed
// "rm *" and "sed *", after which `rm -rf ~/Documents` ran unasked. Only
// the command itself is proposed then, if it has no run-time part.
func TestNoBroadSuggestions(t *testing.T) {
	ctx := testContext(t, Auto)
	for _, c := range []struct {
		s    Subject
		want string
	}{
		{exec("rm", "-rf", Hole), ""},
		{exec("rm", "-rf", "/srv/x"), "rm -rf /srv/x"},
		{exec("sed", "-i", "s/a/b/", Hole), ""},
		{exec("chmod", "755", Hole), ""},
		{exec("git", "clean", "-fdx"), "git clean -fdx"},
		{exec("git", "clean", Hole), ""},
		{exec("sudo", Hole), ""},
		{exec("npm", "test"), "npm test *"},
		{exec("make"), "make *"},
	} {
		v := Default().Decide(c.s, ctx)
		if v.Decision != Ask || v.Suggest != c.want {
			t.Errorf("%q: %s, suggest %q, want ask and %q", c.s.Words, v.Decision, v.Suggest, c.want)
		}
		if strings.HasSuffix(v.Suggest, " *") && broadAllowHarms(v.Suggest) {
			t.Errorf("%q: suggests %q, which harms", c.s.Words, v.Suggest)
		}
	}
}

// TestGitConfigKeysThatRunCodeAskInBypass: git config writing a key
// that makes git run a program, load a file or trust one is a protected
// write, asked in every mode whatever an allow rule says (a new user's
// find: the CI preset, mode bypass, ran `git config core.hooksPath DIR`);
// the keys a CI step sets before a commit (user.name, user.email) are
// not.
func TestGitConfigKeysThatRunCodeAskInBypass(t *testing.T) {
	ctx := testContext(t, "")
	for _, conf := range []string{"mode: bypass\n", "mode: auto\nrules:\n  shell:\n    allow:\n      - \"git config *\"\n      - \"git *\"\n"} {
		p := mustParse(t, conf)
		for _, words := range [][]string{
			{"git", "config", "core.hooksPath", "/tmp/h"},
			{"git", "config", "--global", "core.pager", "sh -c id"},
			{"git", "config", "--add", "alias.x", "!sh"},
			{"git", "-C", "sub", "config", "set", "include.path", "../x"},
			{"git", "config", "Core.FSMonitor", "touch x"},
			{"git", "config", "filter.a.clean", "sh x"},
			{"git", "config", "--unset", "core.hooksPath"},
			{"git", "config", "--edit"},
			{"git", "config", "--rename-section", "user", "core"},
			{"git", "config", "core.fsmonitor", "touch x", "--get"},
			{"git", "config", "alias.zz", "!sh", "-l"},
			{"git", "--config-env", "core.x=HOME", "config", "core.fsmonitor", "touch x"},
			{"git", "config", Hole, "v"},
		} {
			v := p.Decide(exec(words...), ctx)
			if v.Decision != Ask || !strings.Contains(v.Reason, "git config key") && !strings.Contains(v.Reason, "protected") {
				t.Errorf("%q: %q = %v (%s), want ask as a protected write", conf, words, v.Decision, v.Reason)
			}
		}
		for _, words := range [][]string{
			{"git", "config", "user.name", "CI Bot"},
			{"git", "config", "--global", "User.Email", "ci@example.com"},
			{"git", "config", "branch.main.remote", "origin"},
			{"git", "config", "core.hooksPath"}, // a read
			{"git", "config", "--file", "/tmp/x.ini", "core.hooksPath", "y"},
		} {
			if v := p.Decide(exec(words...), ctx); v.Decision != Allow {
				t.Errorf("%q: %q = %v (%s), want allow", conf, words, v.Decision, v.Reason)
			}
		}
	}
}

// TestGitConfigNamingKeysInAuto: in mode auto, git config of a naming,
// default or display key writes only the workspace's repository, and
// runs (a new user's `git config user.email` asked as a protected write);
// --global, --file and the other keys do not.
func TestGitConfigNamingKeysInAuto(t *testing.T) {
	ctx := testContext(t, Auto)
	if err := os.Mkdir(filepath.Join(ctx.Workspace, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "mode: auto\n")
	for words, want := range map[string]Decision{
		"git config user.email ci@example.com":   Allow,
		"git config --local User.Name bot":       Allow,
		"git config branch.main.remote origin":   Allow,
		"git config --global user.email a@b.c":   Ask,
		"git config -f x.ini user.email a@b.c":   Ask,
		"git config --file=x user.email a@b.c":   Ask,
		"git config core.hooksPath /tmp/h":       Ask,
		"git config user.email a@b.c --worktree": Ask,
	} {
		if v := p.Decide(exec(strings.Fields(words)...), ctx); v.Decision != want {
			t.Errorf("%s = %v (%s), want %v", words, v.Decision, v.Reason, want)
		}
	}
	// A .git file between the working directory and the workspace names
	// another repository, anywhere (attack run 63).
	sub := filepath.Join(ctx.Workspace, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx.Cwd = sub
	if v := p.Decide(exec("git", "config", "user.email", "a@b.c"), ctx); v.Decision != Ask {
		t.Errorf("git config user.email through a .git file = %v (%s), want ask", v.Decision, v.Reason)
	}
}

func TestProtectedPathsInBypass(t *testing.T) {
	p := mustParse(t, "mode: bypass\n")
	ctx := testContext(t, "")
	ctx.Protected = []string{"/opt/guardsh/bin/guardsh", "/var/log/guardsh/*"}
	protected := []string{
		ctx.Home + "/.ssh/authorized_keys", ctx.Home + "/.ssh", ctx.Home + "/.bashrc", ctx.Home + "/.bash_profile",
		ctx.Home + "/.profile", ctx.Home + "/.zshrc", ctx.Home + "/.zprofile", ctx.Home + "/.bash_login",
		ctx.Home + "/.bash_logout", ctx.Workspace + "/.git/hooks/pre-commit", ctx.Workspace + "/.git/config",
		"/srv/other/.git/hooks/post-checkout", ctx.Home + "/.config/guardsh/config.yaml", "/etc/guardsh/config.yaml",
		"/opt/guardsh/bin/guardsh", "/var/log/guardsh/audit.jsonl",
		ctx.Workspace + "/sub/../.git/config",                                                   // cleaned first
		ctx.Workspace + "/.git/objects/x", ctx.Workspace + "/.git/rebase-merge/git-rebase-todo", // all of .git
		// Agents' and editors' project files that start programs (attack
		// run 29 wrote the first two unasked).
		ctx.Workspace + "/.vscode/mcp.json", ctx.Workspace + "/.qwen/settings.json", ctx.Workspace + "/.zed/settings.json",
		ctx.Workspace + "/.roo/mcp.json", ctx.Workspace + "/.kiro/settings/mcp.json", ctx.Workspace + "/.amazonq/mcp.json",
		ctx.Workspace + "/.crush.json", ctx.Workspace + "/sub/crush.json", ctx.Workspace + "/.continue/mcpServers/x.yaml",
		ctx.Workspace + "/.devcontainer/devcontainer.json", ctx.Workspace + "/.devcontainer.json",
		ctx.Workspace + "/.pre-commit-config.yaml",
		// Hook managers' project files, and Gemini CLI's .env (attack
		// run 35: husky's .husky/pre-commit, which its hooks path runs).
		ctx.Workspace + "/.husky/pre-commit", ctx.Workspace + "/.husky/_/h", ctx.Workspace + "/lefthook.yml",
		ctx.Workspace + "/.lefthook.yml", ctx.Workspace + "/lefthook-local.yml", ctx.Workspace + "/.overcommit.yml",
		ctx.Workspace + "/.gemini/.env", ctx.Workspace + "/lefthook-local.yaml", ctx.Workspace + "/.lefthook.toml",
		ctx.Workspace + "/.config/lefthook.jsonc", ctx.Workspace + "/.lefthook/pre-commit/x.sh",
		ctx.Workspace + "/.lefthook-local/pre-push/y.sh",
	}
	for _, path := range protected {
		v := p.Decide(write(path), ctx)
		if v.Decision != Ask || v.Suggest != "" || !strings.Contains(v.Reason, "protected") {
			t.Errorf("bypass write %s = %v (%s)", path, v.Decision, v.Reason)
		}
	}
	for _, path := range []string{ctx.Workspace + "/.gitignore", ctx.Home + "/.bashrc.bak", ctx.Workspace + "/hooks/x", "/var/log/guardsh"} {
		if v := p.Decide(write(path), ctx); v.Decision != Allow {
			t.Errorf("bypass write %s = %v (%s), want allow", path, v.Decision, v.Reason)
		}
	}
	// A write whose whole path is only known at run time is not checked
	// against protected paths: it is sensitive (bypass runs it).
	if v := p.Decide(write(Hole), ctx); v.Decision != Allow || v.Class != Sensitive {
		t.Errorf("bypass write $f = %v %s (%s)", v.Decision, v.Class, v.Reason)
	}
	// Reads of protected paths are not protected.
	if v := p.Decide(read(ctx.Home+"/.bashrc"), ctx); v.Decision != Allow {
		t.Errorf("bypass read ~/.bashrc = %v", v.Decision)
	}
}

func TestSymlinksDoNotDodgeRules(t *testing.T) {
	p := mustParse(t, "rules:\n  write:\n    deny: [\"~/.ssh/*\", \"~/locked\"]\n    allow: [\"~/notes/*\"]\n  read:\n    deny: [\"~/.aws/credentials\"]\n")
	ctx := testContext(t, Bypass)
	home, ws := ctx.Home, ctx.Workspace
	mk := func(path string) {
		t.Helper()
		if err := os.MkdirAll(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	mk(home + "/.ssh")
	mk(home + "/.aws")
	mk(home + "/notes")
	mk(ws + "/sub")
	link(home+"/.ssh", ws+"/keys")               // directory link
	link(home+"/.ssh/authorized_keys", ws+"/ak") // dangling link to a file to be created
	link("../../.ssh", ws+"/sub/rel")            // relative link (resolved against its dir)
	link(home+"/.aws/credentials", ws+"/creds")  // link to a secret
	link(home+"/notes", ws+"/n")                 // link to an allowed directory
	link("/etc", home+"/notes/etc")              // allowed dir containing a link out
	link(home+"/locked", ws+"/lk")               // dangling link to an exact denied path
	link(ws+"/sub", ws+"/loop1")                 // harmless link for ../ tests
	if err := os.WriteFile(home+"/.aws/credentials", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		s    Subject
		want Decision
	}{
		{"through a directory link", write(ws + "/keys/authorized_keys"), Deny},
		{"relative path through a directory link", write("keys/authorized_keys"), Deny},
		{"dangling link to a denied file", write(ws + "/ak"), Deny},
		{"relative symlink target", write(ws + "/sub/rel/id_rsa"), Deny},
		{"dotdot after a link goes to the target's parent", write(ws + "/keys/../.ssh/config"), Deny},
		{"read through a link", read(ws + "/creds"), Deny},
		{"dangling link to an exact path", write(ws + "/lk"), Deny},
		{"allow through a link to the allowed dir", Subject{Kind: KindWrite, Words: []string{ws + "/n/today.md"}}, Allow},
		{"allowed dir holding a link out is not allowed", write(home + "/notes/etc/passwd"), Allow /* bypass */},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := p.Decide(tc.s, ctx)
			if v.Decision != tc.want {
				t.Errorf("got %v (%s), want %v", v.Decision, v.Reason, tc.want)
			}
		})
	}
	// In mode ask the link out of the allowed dir must not be allowed by
	// the allow rule "~/notes/*": it writes /etc/passwd.
	ask := ctx
	ask.Mode = AskMode
	if v := p.Decide(write(home+"/notes/etc/passwd"), ask); v.Decision != Ask || v.Rule != nil {
		t.Errorf("write via ~/notes/etc → /etc: %v (%s)", v.Decision, v.Reason)
	}
	if v := p.Decide(write(ws+"/n/today.md"), ask); v.Decision != Allow || v.Rule == nil || v.Rule.Pattern != "~/notes/*" {
		t.Errorf("write via link to ~/notes: %v (%s)", v.Decision, v.Reason)
	}
	// Protected paths are resolved too.
	link(home+"/.bashrc", ws+"/rc")
	if v := p.Decide(write(ws+"/rc"), ctx); v.Decision != Ask || !strings.Contains(v.Reason, "protected") {
		t.Errorf("write via link to ~/.bashrc in bypass: %v (%s)", v.Decision, v.Reason)
	}
}

func TestSymlinkedRuleDirectory(t *testing.T) {
	// ~/.ssh is itself a link (dotfiles setups): writing to its target by
	// the target's name is denied as well.
	p := mustParse(t, "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n")
	ctx := testContext(t, Bypass)
	real := filepath.Join(filepath.Dir(ctx.Home), "dotfiles", "ssh")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, ctx.Home+"/.ssh"); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{ctx.Home + "/.ssh/authorized_keys", real + "/authorized_keys"} {
		if v := p.Decide(write(path), ctx); v.Decision != Deny {
			t.Errorf("write %s = %v (%s)", path, v.Decision, v.Reason)
		}
	}
}

func TestPathPatternAnchors(t *testing.T) {
	p := mustParse(t, `
rules:
  write:
    deny: ["*.pem", "/etc/*", "~/.config/app/*", "build/*", "./dist/*", "~"]
`)
	ctx := testContext(t, Bypass)
	tests := []struct {
		path string
		want Decision
	}{
		{ctx.Workspace + "/key.pem", Deny},
		{ctx.Workspace + "/deep/er/key.pem", Deny},
		{ctx.Home + "/key.pem", Allow}, // relative patterns are workspace-relative
		{"/etc/hosts", Deny},
		{ctx.Home + "/.config/app/x", Deny},
		{ctx.Workspace + "/build/out", Deny},
		{ctx.Workspace + "/dist/out", Deny},
		{ctx.Workspace + "/src/build/out", Allow},
		{"build/x", Deny}, // relative subject, cwd is the workspace
		{ctx.Home, Deny},
	}
	for _, tc := range tests {
		if v := p.Decide(write(tc.path), ctx); v.Decision != tc.want {
			t.Errorf("write %s = %v (%s), want %v", tc.path, v.Decision, v.Reason, tc.want)
		}
	}
	// Without a workspace, relative patterns are relative to the cwd.
	c := ctx
	c.Workspace, c.Cwd = "", ctx.Home
	if v := p.Decide(write(ctx.Home+"/build/x"), c); v.Decision != Deny {
		t.Errorf("no workspace: %v (%s)", v.Decision, v.Reason)
	}
}

func TestDynamicPaths(t *testing.T) {
	p := mustParse(t, "rules:\n  write:\n    deny: [\"~/.ssh/*\"]\n    ask: [\"/srv/*\"]\n    allow: [\"/tmp/*\"]\n")
	ctx := testContext(t, Auto)
	tests := []struct {
		name  string
		path  string
		want  Decision
		class Class
		by    string
	}{
		{"whole hole could be anything", Hole, Ask, Sensitive, ByRule},
		{"hole under tmp could hold ../", "/tmp/" + Hole, Ask, Sensitive, ByRule},
		{"hole under a denied dir is denied", ctx.Home + "/.ssh/" + Hole, Deny, Sensitive, ByRule},
		{"relative hole", "out-" + Hole, Ask, Sensitive, ByRule},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := p.Decide(write(tc.path), ctx)
			if v.Decision != tc.want || v.Class != tc.class || v.DecidedBy != tc.by || v.Suggest != "" {
				t.Errorf("got %v %s by %s (%s) suggest %q", v.Decision, v.Class, v.DecidedBy, v.Reason, v.Suggest)
			}
		})
	}
	// Without any write deny rule a dynamic path is simply sensitive, and
	// no allow rule applies to it (its run-time part may hold "../").
	q := mustParse(t, "rules:\n  write:\n    allow: [\"/tmp/*\"]\n    ask: [\"/srv/*\"]\n")
	if v := q.Decide(write("/tmp/"+Hole), ctx); v.Decision != Ask || v.Rule != nil || v.Class != Sensitive {
		t.Errorf("dynamic /tmp write with allow rule: %v (%s)", v.Decision, v.Reason)
	}
	if v := q.Decide(write("/srv/"+Hole), Context{Mode: Bypass, Cwd: "/", Home: "/root"}); v.Decision != Allow {
		t.Errorf("dynamic /srv write matching ask rule in bypass: %v (%s)", v.Decision, v.Reason)
	}
	if v := q.Decide(write("/srv/"+Hole), ctx); v.Decision != Ask || v.Rule == nil || v.Rule.Pattern != "/srv/*" {
		t.Errorf("dynamic /srv write matching ask rule: %v (%s)", v.Decision, v.Reason)
	}
}

func TestReadOnlyTable(t *testing.T) {
	H := Hole
	tests := []struct {
		words []string
		want  Class
	}{
		{[]string{"ls", "-la", "/etc"}, ReadOnly},
		{[]string{"cat", "a", H}, ReadOnly}, // cat never writes whatever its arguments
		{[]string{"grep", "-rn", "TODO", "."}, ReadOnly},
		{[]string{"rg", "--pre", "sh", "x"}, Sensitive},
		{[]string{"rg", "--pre=sh", "x"}, Sensitive},
		{[]string{"rg", "--hostname-bin", "/tmp/x", "x"}, Sensitive},
		{[]string{"rg", "-n", "foo"}, ReadOnly},
		{[]string{"rg", "-n", H}, Sensitive}, // a run-time word could be --pre=…
		{[]string{"sort", "-u", "a"}, ReadOnly},
		{[]string{"sort", "-o", "out", "a"}, Sensitive},
		{[]string{"sort", "-uo", "out", "a"}, Sensitive},
		{[]string{"sort", "--output=out", "a"}, Sensitive},
		{[]string{"sort", "--out=out", "a"}, Sensitive}, // getopt_long abbreviation
		{[]string{"sort", "--compress-program", "sh"}, Sensitive},
		{[]string{"sort", "-t", "o", "-k2", "a"}, ReadOnly}, // "o" is -t's argument
		{[]string{"sort", "-to", "a"}, ReadOnly},
		{[]string{"uniq", "a"}, ReadOnly},
		{[]string{"uniq", "a", "b"}, Sensitive},
		{[]string{"uniq", "-f", "1", "a"}, ReadOnly},
		{[]string{"git", "status"}, ReadOnly},
		{[]string{"git", "-C", "sub", "log", "--oneline"}, Sensitive},
		{[]string{"git", "--git-dir=vendor/x.git", "status"}, Sensitive},
		{[]string{"git", "--no-pager", "log", "--oneline"}, ReadOnly},
		{[]string{"git", "--no-pager", "diff", "HEAD~1"}, ReadOnly},
		{[]string{"git", "diff", "--output=x"}, Sensitive},
		{[]string{"git", "log", "--out=x"}, Sensitive},
		{[]string{"git", "show", "--ext-diff"}, Sensitive},
		{[]string{"git", "-c", "core.pager=sh", "log"}, Sensitive},
		{[]string{"git", "--exec-path=/tmp", "status"}, Sensitive},
		{[]string{"git", "--config-env=core.pager=X", "log"}, Sensitive},
		{[]string{"git", "push"}, Sensitive},
		{[]string{"git", "log", H}, Sensitive},
		{[]string{"git"}, ReadOnly},
		{[]string{"find", ".", "-name", "x"}, ReadOnly},
		{[]string{"find", ".", "-name", "x", "-delete"}, Sensitive},
		{[]string{"find", ".", "-fprint", "out"}, Sensitive},
		{[]string{"sed", "-n", "1,3p", "README.md"}, ReadOnly},
		{[]string{"sed", "-i.bak", "s/a/b/", "f"}, Sensitive},
		{[]string{"sed", "--in-place", "s/a/b/", "f"}, Sensitive},
		{[]string{"git", "branch", "-a"}, ReadOnly},
		{[]string{"git", "branch", "new"}, Sensitive},
		{[]string{"git", "branch", "-D", "old"}, Sensitive},
		{[]string{"git", "tag"}, ReadOnly},
		{[]string{"git", "tag", "v1"}, Sensitive},
		{[]string{"git", "remote", "-v"}, ReadOnly},
		{[]string{"git", "remote", "add", "x", "y"}, Sensitive},
		{[]string{"hostname"}, ReadOnly},
		{[]string{"hostname", "evil"}, Sensitive},
		{[]string{"git", "grep", "-O", "x"}, Sensitive},
		{[]string{"echo", H, "-e", H}, ReadOnly},
		{[]string{"printf", "%s\n", H}, ReadOnly},
		{[]string{"printf", H}, Sensitive}, // could be -v VAR
		{[]string{"printf", "-v", "x", "%s", "a"}, Sensitive},
		{[]string{"cd", H}, ReadOnly},
		{[]string{"test", "-f", H}, ReadOnly},
		{[]string{"[", "-n", H, "]"}, ReadOnly},
		{[]string{"command", "-v", "git"}, ReadOnly},
		{[]string{"command", "rm", "x"}, Sensitive},
		{[]string{"type", H}, ReadOnly},
		{[]string{"jobs", "-l"}, ReadOnly},
		{[]string{"jobs", "-x", "rm", "-rf", "/"}, Sensitive},
		{[]string{"jobs", "-lx", "rm", "x"}, Sensitive},
		{[]string{"fg", "%1"}, ReadOnly},
		{[]string{"alias", "ll=ls -l"}, ReadOnly},
		{[]string{"unset", "-f", "greet"}, ReadOnly},
		{[]string{"unset", "PATH"}, Sensitive},
		{[]string{"logout"}, ReadOnly},
		{[]string{"declare", "-n", "r=PS4"}, Sensitive},
		{[]string{"local", "-rn", "r=HOME"}, Sensitive},
		{[]string{"declare", "-x", "A=1"}, ReadOnly},
		{[]string{"bg"}, ReadOnly},
		{[]string{"kill", "-0", "1234", "%1"}, ReadOnly},
		{[]string{"kill", "-0", "-s", "KILL", "12"}, Sensitive},
		{[]string{"kill", "-0", "-9", "12"}, Sensitive},
		{[]string{"kill", "-09", "12"}, Sensitive},
		{[]string{"kill", "-0", H}, Sensitive}, // a run-time word may be -9
		{[]string{"kill", "12"}, Sensitive},
		{[]string{"kill", "-l"}, Sensitive},
		{[]string{"date", "-Iseconds"}, ReadOnly},
		{[]string{"date", "-s", "now"}, Sensitive},
		{[]string{"date", "+%s"}, ReadOnly},
		{[]string{"file", "-C", "-m", "x"}, Sensitive},
		{[]string{"set", "-euo", "pipefail"}, ReadOnly},
		{[]string{"set", "-k"}, Sensitive},
		{[]string{"set", "-o", "keyword"}, Sensitive},
		{[]string{"set", "-H"}, Sensitive},
		{[]string{"set", "-o", "histexpand"}, Sensitive},
		{[]string{"set", "+H"}, ReadOnly},
		{[]string{"shopt", "-s", "expand_aliases"}, Sensitive},
		{[]string{"shopt", "-s", "autocd"}, Sensitive},
		{[]string{"shopt", "-u", "nullglob"}, ReadOnly},
		{[]string{"shopt", "-u", "extglob"}, ReadOnly},
		{[]string{"shopt", "-u", "-o", "extglob"}, Sensitive},
		{[]string{"shopt", "-s", "extglob"}, Sensitive}, // a later glob matches what analysis does not expect
		{[]string{"[[", "-f", "x", "]]"}, ReadOnly},
		// Arithmetic operands: the analysis marks RunsCode where a value
		// is not known (interp TestArithmeticOnRunTimeValues).
		{[]string{"[[", "x", "-eq", "0", "]]"}, ReadOnly},
		{[]string{"[[", "-f", H, "]]"}, ReadOnly},
		{[]string{"((", "n++", "))"}, ReadOnly},
		{[]string{"((", H, "))"}, ReadOnly},
		{[]string{"let", "n=n+1"}, ReadOnly},
		{[]string{"kill", "-0", H}, Sensitive}, // kill -0 -s KILL PID kills: bash reads -s after -0
		{[]string{"set", "--", H}, ReadOnly},
		{[]string{"set", "--", "keyword"}, ReadOnly},
		{[]string{"set", "-o", H}, Sensitive}, // could be keyword
		{[]string{"export", "FOO=1"}, ReadOnly},
		{[]string{"export", "FOO=" + H}, ReadOnly},
		{[]string{"export", "PATH=/tmp/evil:" + H}, Sensitive},
		{[]string{"export", "LD_PRELOAD"}, Sensitive},
		{[]string{"export", H}, Sensitive},
		{[]string{"declare", "-x", "A=1"}, ReadOnly},
		{[]string{"declare", "-n", "ref=PATH"}, Sensitive},
		{[]string{"local", "IFS=,"}, Sensitive},
		{[]string{"readonly", "GIT_CONFIG_GLOBAL=/tmp/x"}, Sensitive},
		{[]string{"typeset", "BASH_FUNC_ls%%=() { :; }"}, Sensitive},
		{[]string{"read", "-r", "line"}, ReadOnly},
		{[]string{"read", "-r", "PATH"}, Sensitive},
		{[]string{"read", "-a", "PROMPT_COMMAND"}, Sensitive},
		{[]string{"mapfile", "-C", "cb", "arr"}, Sensitive},
		{[]string{"/bin/ls"}, Sensitive}, // only bare names are in the table
		{[]string{"ls" + H}, Sensitive},
		{[]string{H}, Sensitive},
		{[]string{"tree", "-L", "2"}, ReadOnly},
		{[]string{"tree", "-o", "x"}, Sensitive},
		{[]string{"jq", ".a", H}, ReadOnly},
		{[]string{"jq", "-r", "--arg", "k", H, ".[$k]", "f.json"}, ReadOnly},
		// The program only known at run time may import a module (an
		// attack run read ~/.docker/config.json so); a file operand may be.
		{[]string{"jq", "-n", H}, Sensitive},
		{[]string{"jq", "--indent", "2", "-r", H}, Sensitive},
		{[]string{"jq", `import "../.docker/config" as $c; $c`}, Sensitive},
		// yq hands its program and jq's options to jq: the same checks.
		{[]string{"yq", "-n", `import "../.docker/config" as $c; $c`}, Sensitive},
		{[]string{"yq", "-L", "..", "-n", "$c"}, Sensitive},
		{[]string{"yq", "-f", "q.jq", "a.json"}, Sensitive},
		{[]string{"yq", "-yf", "q.jq", "a.json"}, Sensitive},
		{[]string{"yq", H, "a.yaml"}, Sensitive},
		{[]string{"yq", ".a", "a.yaml"}, ReadOnly},
	}
	for _, tc := range tests {
		c, why, _ := classifyExec(tc.words, nil)
		if c != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.words, c, why, tc.want)
		}
	}
}

func TestDangerousAssignments(t *testing.T) {
	for _, name := range []string{"LD_PRELOAD", "BASH_CMDS", "BASH_ALIASES", "LD_LIBRARY_PATH", "LD_AUDIT", "BASH_ENV", "ENV", "PROMPT_COMMAND",
		"PATH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "EDITOR", "VISUAL", "SHELLOPTS",
		"BASHOPTS", "IFS", "PS4", "GIT_CONFIG_COUNT", "DYLD_INSERT_LIBRARIES", "GIT_TRACE", "GIT_TRACE2_EVENT",
		"GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_INDEX_FILE", "GIT_WORK_TREE",
		// argcomplete writes to the file this names (yq: an attack run's
		// ~/.bashrc), driven by bash's completion variables.
		"_ARGCOMPLETE", "_ARGCOMPLETE_STDOUT_FILENAME", "COMP_LINE", "COMP_POINT"} {
		for _, s := range []Subject{
			{Kind: KindExec, Words: []string{"ls"}, Assigns: []string{name + "=x"}},
			{Kind: KindExec, Assigns: []string{name + "=x"}},
			{Kind: KindExec, Words: []string{"export", name + "+=x"}},
		} {
			c, why, bad := classifyExec(s.Words, s.Assigns)
			if c != Sensitive || !bad {
				t.Errorf("%s: %q %q = %s (%s)", name, s.Assigns, s.Words, c, why)
			}
		}
	}
	for _, s := range []Subject{
		{Kind: KindExec, Words: []string{"ls"}, Assigns: []string{"LANG=C"}},
		{Kind: KindExec, Words: []string{"git", "log"}, Assigns: []string{"GIT_AUTHOR_NAME=x"}},
		{Kind: KindExec, Assigns: []string{"x=" + Hole}},
		{Kind: KindExec, Assigns: []string{"arr[2]=y"}},
	} {
		if c, why, _ := classifyExec(s.Words, s.Assigns); c != ReadOnly {
			t.Errorf("%q %q = %s (%s)", s.Assigns, s.Words, c, why)
		}
	}
	if c, _, bad := classifyExec(nil, []string{Hole + "=1"}); c != Sensitive || !bad {
		t.Error("an assigned name only known at run time must be sensitive")
	}
}

func TestEffectiveMode(t *testing.T) {
	p := mustParse(t, "mode: plan\n")
	s := exec("rm", "x")
	if v := p.Decide(s, Context{Cwd: "/"}); v.Decision != Deny {
		t.Errorf("policy mode plan: %v", v.Decision)
	}
	if v := p.Decide(s, Context{Mode: "allow-all", Cwd: "/"}); v.Decision != Allow {
		t.Errorf("context mode alias allow-all: %v", v.Decision)
	}
	if v := (&Policy{}).Decide(s, Context{Cwd: "/"}); v.Decision != Ask {
		t.Errorf("zero policy: %v (%s)", v.Decision, v.Reason)
	}
	if v := p.Decide(s, Context{Mode: "yolo"}); v.Decision != Deny || v.DecidedBy != ByMode {
		t.Errorf("unknown mode: %v (%s)", v.Decision, v.Reason)
	}
	if v := p.Decide(Subject{Kind: "net"}, Context{}); v.Decision != Deny {
		t.Errorf("unknown kind: %v", v.Decision)
	}
	if v := p.Decide(Subject{Kind: KindWrite}, Context{}); v.Decision != Deny {
		t.Errorf("write without a path: %v", v.Decision)
	}
}

func TestConcurrentDecide(t *testing.T) {
	p := Default()
	done := make(chan bool)
	for i := 0; i < 8; i++ {
		go func(i int) {
			ctx := Context{Mode: AskMode, Cwd: "/", Home: "/home/u" + string(rune('0'+i%2)), Workspace: "/w"}
			for k := 0; k < 200; k++ {
				if v := p.Decide(write(ctx.Home+"/.ssh/x"), ctx); v.Decision != Deny {
					t.Errorf("concurrent: %v", v.Decision)
				}
			}
			done <- true
		}(i)
	}
	for i := 0; i < 8; i++ {
		<-done
	}
}

func TestCanonicalAgreesWithEvalSymlinks(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b/c", "x/y"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for target, name := range map[string]string{
		root + "/a/b": root + "/x/abs", "../a/b/c": root + "/x/rel", "y": root + "/x/sib", root + "/x/rel": root + "/chain",
	} {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{
		root + "/a/b/c", root + "/x/abs/c", root + "/x/rel", root + "/x/rel/..", root + "/x/abs/../b/./c",
		root + "/chain/..", root + "/x/sib/../abs", root + "//a///b/", "/", root + "/x/../a",
		root + "/x/sib/", root + "/chain/", root + "/chain//./..", root + "/x/abs/./",
	} {
		want, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := canonical(p); got != want {
			t.Errorf("canonical(%s) = %s, EvalSymlinks = %s", p, got, want)
		}
	}
	// Missing tails are cleaned; dangling and looping links end.
	if got := canonical(root + "/x/abs/new/../file"); got != root+"/a/b/file" {
		t.Errorf("missing tail: %s", got)
	}
	if got := canonical(root + "/chain/new//x/"); got != root+"/a/b/c/new/x" {
		t.Errorf("missing tail after links: %s", got)
	}
	if err := os.Symlink(root+"/loop", root+"/loop"); err != nil {
		t.Fatal(err)
	}
	if got := canonical(root + "/loop/x"); got != root+"/loop/x" {
		t.Errorf("loop: %s", got)
	}
}

func TestHardLinkedFileIsNotAWorkspaceWrite(t *testing.T) {
	p := mustParse(t, "mode: auto\n")
	ctx := testContext(t, "")
	outside := ctx.Home + "/outside.txt"
	if err := os.WriteFile(outside, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, ctx.Workspace+"/inside.txt"); err != nil {
		t.Skip("hard links not supported:", err)
	}
	if err := os.WriteFile(ctx.Workspace+"/plain.txt", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(write(ctx.Workspace+"/inside.txt"), ctx); v.Decision != Ask || v.Class != Sensitive {
		t.Errorf("write to a hard-linked file in auto: %v %s (%s)", v.Decision, v.Class, v.Reason)
	}
	if v := p.Decide(write(ctx.Workspace+"/plain.txt"), ctx); v.Decision != Allow || v.Class != Workspace {
		t.Errorf("write to a plain workspace file in auto: %v %s (%s)", v.Decision, v.Class, v.Reason)
	}
}

// An assignment that makes a command run code no rule sees asks even in
// bypass, as soon as the policy denies anything; with no deny rule bypass
// runs it.
func TestDangerousAssignmentInBypass(t *testing.T) {
	ctx := testContext(t, Bypass)
	s := Subject{Kind: KindExec, Words: []string{"bash", "-c", ":"}, Assigns: []string{"BASH_ENV=./e.sh"}}
	if v := mustParse(t, "rules: {shell: {deny: [\"curl *\"]}}\n").Decide(s, ctx); v.Decision != Ask {
		t.Errorf("with a deny rule: %v (%s), want ask", v.Decision, v.Reason)
	}
	if v := mustParse(t, "mode: bypass\n").Decide(s, ctx); v.Decision != Allow {
		t.Errorf("without deny rules: %v (%s), want allow", v.Decision, v.Reason)
	}
	plain := Subject{Kind: KindExec, Words: []string{"ls"}, Assigns: []string{"FOO=1"}}
	if v := mustParse(t, "rules: {shell: {deny: [\"curl *\"]}}\n").Decide(plain, ctx); v.Decision != Allow {
		t.Errorf("harmless assignment: %v (%s), want allow", v.Decision, v.Reason)
	}
}

// TestSuggestMatches: a suggested allow pattern for words without run-time
// parts matches the words (suggestExec checks this only for words with
// Holes; for the rest it holds by construction).
func TestSuggestMatches(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	parts := []string{"npm", "test", "run", "build:prod", "-x", "a b", " ", "", "*", "./x.sh", "git", "push", "X", "é", "--", "a*b", "python3", "sh", "-c"}
	for range 5000 {
		words := make([]string, 1+r.Intn(4))
		for i := range words {
			words[i] = parts[r.Intn(len(parts))]
			if r.Intn(4) == 0 {
				words[i] += parts[r.Intn(len(parts))]
			}
		}
		pat := suggestExec(words)
		if pat != "" && !compileGlob(pat, true).match(strings.Join(words, " ")) {
			t.Errorf("%q: suggestion %q does not match", words, pat)
		}
	}
}

// TestWorkspaceProtectedHookFiles: the hook managers' files are among the
// paths the jail keeps and puts back (an attack run's jailed command
// planted lefthook-local.yaml, which the human's next commit ran), as are
// a planted rebase's files.
func TestWorkspaceProtectedHookFiles(t *testing.T) {
	files, dirs := WorkspaceProtected()
	for _, f := range []string{"lefthook-local.yaml", ".lefthook.toml", ".config/lefthook.jsonc", "lefthook.yml", ".overcommit.yml", ".gemini/.env"} {
		if !slices.Contains(files, f) {
			t.Errorf("%s is not kept", f)
		}
	}
	for _, d := range []string{".husky", ".lefthook", ".lefthook-local", ".git/rebase-merge", ".git/rebase-apply", ".git/sequencer"} {
		if !slices.Contains(dirs, d) {
			t.Errorf("%s/ is not kept", d)
		}
	}
}
