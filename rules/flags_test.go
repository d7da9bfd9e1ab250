package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptionSpellings checks that deny and ask rules naming options match
// every spelling of those options, and that allow rules do not.
func TestOptionSpellings(t *testing.T) {
	cases := []struct {
		rule    string // "deny: PATTERN" etc.
		command string // words split at spaces; "$" is a run-time part
		want    Decision
	}{
		{"deny: rm -rf *", "rm -fr /home/u/project", Deny},
		{"deny: rm -rf *", "rm -r -f x", Deny},
		{"deny: rm -rf *", "rm -Rf x", Deny},
		{"deny: rm -rf *", "rm --recursive --force x", Deny},
		{"deny: rm -rf *", "rm -rfv x", Deny},
		{"deny: rm -rf *", "rm x -rf", Deny},
		{"deny: rm -rf *", "/bin/rm -fr x", Deny},
		{"deny: rm -rf *", "rm -r x", Ask},
		{"deny: rm -rf *", "rm -- -rf", Ask},
		{"deny: rm -rf /", "rm -fr /", Deny},
		{"deny: rm -rf /", "rm -fr /home/u/build", Ask},
		{"deny: rm -rf /", "rm -fr $", Ask},
		{"deny: sort -o *", "sort -uo /home/u/.bashrc data.txt", Deny},
		{"deny: sort -o *", "sort --output=/x data.txt", Deny},
		{"deny: sort -o *", "sort -o/x data.txt", Deny},
		{"deny: sort -o *", "sort -u data.txt", Ask},
		{"deny: sort -o /etc/*", "sort -uo /etc/passwd x", Deny},
		{"deny: sort -o /etc/*", "sort -uo /tmp/x y", Ask},
		{"deny: sed -i *", "sed --in-place=.bak s/a/b/ f", Deny},
		{"deny: sed -i *", "sed -ni.bak s/a/b/ f", Deny},
		{"deny: git push --force *", "git push -f origin main", Deny},
		{"deny: git push --force *", "git -C repo push origin main --force", Deny},
		{"deny: git push -f *", "git push --force origin", Deny},
		{"deny: git push --force *", "git push origin", Ask},
		{"deny: git reset --hard *", "git -c x=y reset --hard HEAD~1", Deny},
		{"deny: git clean -fd *", "git clean -dfx", Deny},
		{"deny: chmod -R *", "chmod --recursive 777 /", Deny},
		{"ask: git branch -D *", "git branch -D topic", Ask},
		{"allow: rm -rf build", "rm -fr build", Ask},
		{"allow: git status *", "git -p status", Ask},
	}
	for _, c := range cases {
		t.Run(c.rule+" / "+c.command, func(t *testing.T) {
			decision, pattern, _ := strings.Cut(c.rule, ": ")
			p, err := Parse([]byte("mode: approve\nrules:\n  shell:\n    "+decision+": ['"+pattern+"']\n"), "t.yaml")
			if err != nil {
				t.Fatal(err)
			}
			words := strings.Split(strings.ReplaceAll(c.command, "$", Hole), " ")
			ctx := Context{Mode: Approve, Cwd: "/home/u/project", Home: "/home/u", Workspace: "/home/u/project"}
			v := p.Decide(Subject{Kind: KindExec, Words: words}, ctx)
			if v.Decision != c.want {
				t.Errorf("%s: %q is %v (%s), want %v", c.rule, c.command, v.Decision, v.Reason, c.want)
			}
		})
	}
}

// TestCleanedPaths checks that a ".." or "." spelling of an argument
// neither dodges a deny rule nor borrows an allow rule.
func TestCleanedPaths(t *testing.T) {
	p, err := Parse([]byte(`mode: approve
rules:
  shell:
    allow: ["node scripts/*", "cat *"]
    deny: ["node bin/run.mjs*", "cat /etc/shadow"]
`), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Mode: Approve, Cwd: "/home/u/project", Home: "/home/u", Workspace: "/home/u/project"}
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"node", "scripts/../bin/run.mjs", "--apply"}, Deny},
		{[]string{"node", "scripts/./build.mjs"}, Allow},
		{[]string{"node", "scripts/../lib/x.mjs"}, Ask},
		{[]string{"cat", "/etc//shadow"}, Deny},
		{[]string{"cat", "/etc/./shadow"}, Deny},
		{[]string{"cat", "/tmp/../etc/shadow"}, Deny},
		{[]string{"cat", "https://example.com/./x"}, Allow},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("%q is %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
		}
	}
}

// TestLinkedProgramMeetsDenyRules checks that a command named by a path to
// a symlink is also matched as the program it links to, for deny rules.
func TestLinkedProgramMeetsDenyRules(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/usr/bin/touch", filepath.Join(dir, "t")); err != nil {
		t.Fatal(err)
	}
	p, err := Parse([]byte("mode: bypass\nrules:\n  shell:\n    allow: [\"touch *\"]\n    deny: [\"touch /etc/*\"]\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ctx := Context{Mode: Bypass, Cwd: dir, Home: dir, Workspace: dir}
	for _, c := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"./t", "/etc/x"}, Deny},
		{[]string{dir + "/t", "/etc/x"}, Deny},
		{[]string{"./t", "x"}, Allow},
	} {
		if v := p.Decide(Subject{Kind: KindExec, Words: c.words}, ctx); v.Decision != c.want {
			t.Errorf("%q is %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
		}
	}
	ctx.CwdUnknown = true
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"./t", "/etc/x"}}, ctx); v.Decision == Deny {
		t.Errorf("with the working directory unknown, ./t was resolved")
	}
}
