package prompt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/rules"
)

func testSpool(t *testing.T) (*Spool, *time.Time) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := &Spool{Dir: filepath.Join(t.TempDir(), "approvals")}
	s.Now = func() time.Time { return now }
	return s, &now
}

var req = Request{Command: "touch a", Cwd: "/w", Session: "s1"}

func TestApprovalIsSingleUse(t *testing.T) {
	s, _ := testSpool(t)
	a, err := s.Add(req, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Decide(a.ID, Approved, false, ""); err != nil {
		t.Fatal(err)
	}
	// Eight processes race for one approval: exactly one gets it.
	var mu sync.Mutex
	got := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, ok, err := s.Take(req); err == nil && ok {
				mu.Lock()
				got++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if got != 1 {
		t.Fatalf("approval used %d times, want once", got)
	}
	if _, ok, _ := s.Take(req); ok {
		t.Fatal("approval used twice")
	}
}

func TestApprovalIsBound(t *testing.T) {
	s, _ := testSpool(t)
	a, _ := s.Add(req, time.Hour)
	if _, err := s.Decide(a.ID, Approved, false, ""); err != nil {
		t.Fatal(err)
	}
	for name, other := range map[string]Request{
		"another command":   {Command: "touch b", Cwd: "/w", Session: "s1"},
		"another directory": {Command: "touch a", Cwd: "/x", Session: "s1"},
		"another session":   {Command: "touch a", Cwd: "/w", Session: "s2"},
		// The same text, analysed otherwise: a link made to point at
		// ~/.bashrc after the human approved (an attack run's find).
		"another analysis": {Command: "touch a", Cwd: "/w", Session: "s1",
			Items: []Item{{Text: "> link", Kind: "write", Class: "sensitive", Reason: "writes protected path /h/.bashrc"}}},
	} {
		if _, ok, _ := s.Take(other); ok {
			t.Errorf("%s used the approval", name)
		}
	}
}

// TestNothingRemembersCodeFromStdin: a shell or interpreter reading its
// code from standard input offers no rule to remember (an attack run had
// "sh" remembered for `cat list | sh`), and one running code proposes only
// its exact command.
func TestNothingRemembersCodeFromStdin(t *testing.T) {
	for _, argv := range [][]string{{"sh"}, {"bash", "-s"}, {"python3", "-"}, {"/usr/bin/bash", "-x"}, {"node"}} {
		if !readsCodeFromStdin(argv) {
			t.Errorf("%q reads code from stdin", argv)
		}
	}
	for _, argv := range [][]string{{"bash", "build.sh"}, {"python3", "-c", "print(1)"}, {"ls"}, {"node", "app.js"}} {
		if readsCodeFromStdin(argv) {
			t.Errorf("%q does not read code from stdin", argv)
		}
	}
	for argv, want := range map[string]string{"rm -f build/x": "rm -f build/x", "git -C . push": "git -C . push", "git push origin": "git push *", "ls": "ls *"} {
		if got := ProposePrefix(strings.Fields(argv)); got != want {
			t.Errorf("ProposePrefix(%q) = %q, want %q", argv, got, want)
		}
	}
}

func TestApprovalExpires(t *testing.T) {
	s, now := testSpool(t)
	a, _ := s.Add(req, time.Minute)
	*now = now.Add(2 * time.Minute)
	if _, err := s.Decide(a.ID, Approved, false, ""); err == nil || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("approving an expired request: %v", err)
	}
	// Given, then expired before use: it does not count.
	b, _ := s.Add(req, time.Minute)
	if _, err := s.Decide(b.ID, Approved, false, ""); err != nil {
		t.Fatal(err)
	}
	*now = now.Add(2 * time.Minute)
	if _, ok, _ := s.Take(req); ok {
		t.Fatal("an expired approval was used")
	}
	if l, _ := s.List(); len(l) != 0 {
		t.Fatalf("expired approvals listed: %v", l)
	}
}

func TestWaitSeesTheDecision(t *testing.T) {
	s := &Spool{Dir: filepath.Join(t.TempDir(), "approvals")}
	a, err := s.Add(req, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		_, _ = s.Decide(a.ID, Denied, false, "not now")
	}()
	got, err := s.Wait(context.Background(), a.ID, 100*time.Millisecond)
	if err != nil || got.Status != Denied || got.Message != "not now" {
		t.Fatalf("Wait = %+v, %v", got, err)
	}
	if _, err := s.Get(a.ID); err == nil {
		t.Fatal("the decision was not used up")
	}
}

func TestSpoolMustBePrivate(t *testing.T) {
	s, _ := testSpool(t)
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(req, time.Hour); err == nil || !strings.Contains(err.Error(), "mode 0700") {
		t.Fatalf("a shared spool was used: %v", err)
	}
}

func TestCheckPrefix(t *testing.T) {
	argv := []string{"git", "push", "origin", "main"}
	for pat, ok := range map[string]bool{
		"git push origin main":         true,
		"git push *":                   true,
		"git *":                        true,
		"*":                            false,
		"git p*":                       false,
		"git pull *":                   false,
		"git push origin main extra *": false,
		"sudo git push *":              false,
	} {
		if err := CheckPrefix(pat, argv); (err == nil) != ok {
			t.Errorf("CheckPrefix(%q) = %v, want ok=%v", pat, err, ok)
		}
	}
}

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"ls\x1b[2J":      `ls\x1b[2J`,
		"echo a\rrm -rf": `echo a\rrm -rf`,
		"a\u202eb":       `a\u202eb`,
		"a\u200bb":       `a\u200bb`,
		`a\b`:            `a\\b`,
		"héllo wörld":    "héllo wörld",
	} {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRememberKeepsComments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	orig := "# top\nmode: ask # inline\nrules:\n  shell:\n    # trusted\n    allow: [\"make *\"]\n"
	if err := os.WriteFile(path, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	added, err := Remember(path, []string{"git push *", "make *"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{"# top", "# inline", "# trusted", `"git push *"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("lost %q:\n%s", want, data)
		}
	}
	if strings.Count(string(data), `"make *"`) != 1 {
		t.Errorf("duplicate rule:\n%s", data)
	}
	lines := strings.Split(string(data), "\n")
	if l := added[0].Line; l < 1 || !strings.Contains(lines[l-1], "git push *") {
		t.Errorf("line %d of\n%s\nis not the rule", l, data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	// A file that is not a config is left alone.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("rules: [1, 2]\n"), 0o600)
	if _, err := Remember(bad, []string{"x *"}, nil); err == nil {
		t.Fatal("edited a malformed config")
	}
	if data, _ := os.ReadFile(bad); string(data) != "rules: [1, 2]\n" {
		t.Fatalf("malformed config changed: %q", data)
	}
}

// TestRememberKeepsTheRest: the starter config gets the rule as one line
// after the list's last item and every other byte as it was, so the lines
// that rules, messages and audit records name stay where they were (a new
// user's `approve --always` dropped two blank lines and the comments'
// alignment by re-encoding the file).
func TestRememberKeepsTheRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	orig := rules.DefaultConfig()
	if err := os.WriteFile(path, orig, 0o600); err != nil {
		t.Fatal(err)
	}
	added, err := Remember(path, []string{`git clean -n "x"`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	l := added[0].Line
	if l < 2 || !strings.Contains(lines[l-1], `- "git clean -n \"x\""`) {
		t.Fatalf("line %d of the result is %q", l, lines[l-1])
	}
	if without := strings.Join(append(lines[:l-1:l-1], lines[l:]...), ""); without != string(orig) {
		t.Errorf("more than the rule's line changed")
	}
	if indent := len(lines[l-1]) - len(strings.TrimLeft(lines[l-1], " ")); indent != len(lines[l-2])-len(strings.TrimLeft(lines[l-2], " ")) {
		t.Errorf("the rule is not indented as the item before it:\n%s%s", lines[l-2], lines[l-1])
	}
}

func TestRememberConcurrently(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(path, []byte("# keep me\nmode: ask\n"), 0o600)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Remember(path, []string{fmt.Sprintf("tool%d *", i)}, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	data, _ := os.ReadFile(path)
	for i := range 8 {
		if !strings.Contains(string(data), fmt.Sprintf(`"tool%d *"`, i)) {
			t.Errorf("rule %d lost:\n%s", i, data)
		}
	}
	if !strings.Contains(string(data), "# keep me") {
		t.Errorf("comment lost:\n%s", data)
	}
}

func TestShowEscapes(t *testing.T) {
	var b strings.Builder
	show(&b, Request{Command: "ls\x1b[2J\nrm -rf ~", Cwd: "/w", Items: []Item{{Text: "rm -rf ~", Class: "sensitive", Reason: "deletes", Rule: `"rm *" (c.yaml:3)`}}})
	out := b.String()
	for _, want := range []string{`command: ls\x1b[2J\nrm -rf ~`, "cwd:     /w", "• rm -rf ~  [sensitive]", `asked by rule "rm *" (c.yaml:3)`} {
		if !strings.Contains(out, want) {
			t.Errorf("dialog lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("raw escape in the dialog: %q", out)
	}
}

// TestGivenApprovalLatency: an answer given from another terminal is
// recorded with the time from the request (the approval made pending) to
// the answer, not 0 — whether the agent retries later (headless: deny) or
// guardsh waited for it (headless: wait).
func TestGivenApprovalLatency(t *testing.T) {
	for _, tc := range []struct {
		status string
		answer string
	}{{Approved, "approve"}, {Denied, "deny"}} {
		t.Run(tc.answer, func(t *testing.T) {
			s, now := testSpool(t)
			a, err := s.Add(req, time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			*now = now.Add(2345 * time.Millisecond) // the human answers
			if _, err := s.Decide(a.ID, tc.status, false, ""); err != nil {
				t.Fatal(err)
			}
			*now = now.Add(time.Minute) // the agent retries later
			p := &Prompter{Spool: *s}
			ans := p.Resolve(guard.Outcome{Decision: rules.Ask}, req)
			if ans.Human == nil || ans.DecidedBy != "human" {
				t.Fatalf("Resolve = %+v, want the human's answer", ans)
			}
			if ans.Human.Answer != tc.answer || ans.Human.Approval != a.ID || ans.Human.LatencyMS != 2345 {
				t.Errorf("human = %+v, want answer %s, approval %s, latency_ms 2345", *ans.Human, tc.answer, a.ID)
			}
		})
	}
	t.Run("wait", func(t *testing.T) {
		s, now := testSpool(t)
		a, err := s.Add(req, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		*now = now.Add(1500 * time.Millisecond)
		if _, err := s.Decide(a.ID, Approved, false, ""); err != nil {
			t.Fatal(err)
		}
		got, err := s.Wait(context.Background(), a.ID, time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if ans := given(got, got.latency(0)); ans.Human.LatencyMS != 1500 {
			t.Errorf("latency_ms = %v, want 1500", ans.Human.LatencyMS)
		}
	})
}
