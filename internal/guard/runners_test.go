package guard

import (
	"testing"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// TestRunnersShowWhatTheyRun: the programs that run a command given in
// their arguments — prlimit, chrt, npx (NAME ARGS, or -c CODE), npm exec —
// show it as a segment of its own, so a deny rule on it holds even in
// mode bypass (an attack run ran denied commands through each).
func TestRunnersShowWhatTheyRun(t *testing.T) {
	policy, err := rules.Parse([]byte("mode: bypass\nrules:\n  shell:\n    deny: [\"mytool nuke*\", \"touch /srv/DENIED*\"]\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cmd  string
		want rules.Decision
	}{
		{"prlimit --nofile=100 touch /srv/DENIED1", rules.Deny},
		{"prlimit -n100 --cpu=10 touch /srv/DENIED1", rules.Deny},
		{"chrt -o 0 touch /srv/DENIED2", rules.Deny},
		{"chrt --rr 5 touch /srv/DENIED2", rules.Deny},
		{"npx mytool nuke", rules.Deny},
		{"npx --yes -q mytool nuke all", rules.Deny},
		{"npx -p some-pkg mytool nuke", rules.Deny},
		{"npx -c 'mytool nuke'", rules.Deny},
		{"npx --call='touch /srv/DENIED3'", rules.Deny},
		{"npm exec -- mytool nuke", rules.Deny},
		{"npm x -y mytool nuke", rules.Deny},
		{"npx mytool status", rules.Allow},
		{"chrt -p 0 123", rules.Allow},
		{"prlimit --pid 123 --nofile=100", rules.Allow},
		{"npm run build", rules.Allow},
	} {
		g := &Guard{Policy: policy, PolicyFile: "c.yaml",
			Context:  rules.Context{Mode: rules.Bypass, Cwd: "/w", Home: "/home/u", Workspace: "/w", TempDirs: []string{"/tmp"}},
			Analysis: interp.Options{Home: "/home/u", Dir: "/w"}}
		if o := g.Evaluate(tt.cmd); o.Decision != tt.want {
			t.Errorf("%q: %s, want %s\n%s", tt.cmd, o.Decision, tt.want, describeOutcome(o))
		}
	}
}
