package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// TestProgramPathSpellings: a deny or ask rule that names its program by
// a path meets that program under every spelling bash runs it by —
// relative, with "." or "..", a doubled slash, through a link — even in
// mode bypass, and a bare name or a relative path in a run-time directory
// that may be that program could match it (asks).
func TestProgramPathSpellings(t *testing.T) {
	root := t.TempDir()
	tools := filepath.Join(root, "opt", "tools")
	ws := filepath.Join(root, "ws")
	home := filepath.Join(root, "home")
	for _, d := range []string{tools, filepath.Join(ws, "bin"), filepath.Join(home, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(tools, "deploy"), filepath.Join(home, "bin", "sync")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(tools, "deploy"), filepath.Join(ws, "bin", "dep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, "bin", "sync"), filepath.Join(ws, "bin", "s")); err != nil {
		t.Fatal(err)
	}
	p, err := Parse([]byte(`mode: bypass
rules:
  shell:
    deny: ["`+tools+`/deploy nuke*", "~/bin/sync --delete*", "`+root+`/opt/*/wipe *"]
    ask: ["`+tools+`/deploy prod*"]
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cwd   string
		words []string
		want  Decision
		rule  bool
	}{
		{ws, []string{tools + "/deploy", "nuke"}, Deny, true},
		{tools, []string{"./deploy", "nuke"}, Deny, true},
		{root, []string{"opt/tools/deploy", "nuke", "now"}, Deny, true},
		{ws, []string{tools + "/../tools/deploy", "nuke"}, Deny, true},
		{ws, []string{root + "//opt/tools/./deploy", "nuke"}, Deny, true},
		{ws, []string{"bin/dep", "nuke"}, Deny, true},                // a link to it
		{ws, []string{ws + "/bin/dep", "prod"}, Allow, false},        // the ask rule matches (bypass runs asks)
		{ws, []string{"bin/s", "--delete", "x"}, Deny, true},         // a link to ~/bin/sync
		{ws, []string{home + "/bin/sync", "--delete"}, Deny, true},   // as "~/bin/sync"
		{ws, []string{"deploy", "nuke"}, Ask, true},                  // PATH may lead there
		{"", []string{"./deploy", "nuke"}, Ask, true},                // a run-time directory
		{ws, []string{"wipe", "all"}, Ask, true},                     // a wildcard in the rule's path
		{ws, []string{root + "/opt/x/../y/wipe", "all"}, Deny, true}, // cleaned
		{ws, []string{"deploy", "status"}, Allow, false},             // no rule's arguments match
		{ws, []string{"bin/dep", "status"}, Allow, false},
		{ws, []string{"other", "nuke"}, Allow, false},
	} {
		ctx := Context{Mode: Bypass, Cwd: tt.cwd, CwdUnknown: tt.cwd == "", Home: home, Workspace: ws, Lookups: NewLookups()}
		if ctx.Cwd == "" {
			ctx.Cwd = ws
		}
		v := p.Decide(Subject{Kind: KindExec, Words: tt.words}, ctx)
		if v.Decision != tt.want || (v.Rule != nil) != tt.rule {
			t.Errorf("%q in %s: %s by %s (%s), want %s", tt.words, tt.cwd, v.Decision, v.DecidedBy, v.Reason, tt.want)
		}
	}
	// In mode auto the ask rule asks for the link and the bare name.
	for _, words := range [][]string{{"bin/dep", "prod"}, {"deploy", "prod", "now"}} {
		v := p.Decide(Subject{Kind: KindExec, Words: words}, Context{Mode: Auto, Cwd: ws, Home: home, Workspace: ws, Lookups: NewLookups()})
		if v.Decision != Ask || v.Rule == nil || v.Rule.Decision != Ask {
			t.Errorf("%q in mode auto: %s (%s), want ask by the ask rule", words, v.Decision, v.Reason)
		}
	}
}

// TestFdPrograms: a program named by an open file descriptor's path runs
// whatever file is open there, so every deny rule whose arguments match
// could match it (in every mode).
func TestFdPrograms(t *testing.T) {
	p, err := Parse([]byte("mode: bypass\nrules:\n  shell:\n    deny: [\"touch /srv/DENIED*\", \"/opt/tools/deploy nuke*\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cwd   string
		words []string
		want  Decision
	}{
		{"/w", []string{"/dev/fd/3", "/srv/DENIED-fd"}, Ask},
		{"/w", []string{"/proc/self/fd/3", "nuke"}, Ask},
		{"/w", []string{"/proc/1234/fd/9", "nuke"}, Ask},
		{"/w", []string{"/proc/thread-self/fd/3", "nuke"}, Ask},
		{"/w", []string{"/dev/stdin", "nuke"}, Ask},
		{"/dev/fd", []string{"./3", "nuke"}, Ask},
		{"/dev", []string{"fd/../fd/3", "nuke"}, Ask},
		{"/w", []string{"/dev/null", "nuke"}, Allow},
		{"/w", []string{"/proc/self/exe", "nuke"}, Allow},
		{"/w", []string{"./fd/3", "nuke"}, Allow},
	} {
		v := p.Decide(Subject{Kind: KindExec, Words: tt.words}, Context{Mode: Bypass, Cwd: tt.cwd, Workspace: "/w", Lookups: NewLookups()})
		if v.Decision != tt.want {
			t.Errorf("%q in %s: %s (%s), want %s", tt.words, tt.cwd, v.Decision, v.Reason, tt.want)
		}
	}
}
