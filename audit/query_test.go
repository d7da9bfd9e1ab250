package audit_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/benchdata"
)

// Follow sees records appended after it started, across a rotation.
func TestFollowSeesNewRecordsAcrossRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.OpenWith(path, audit.Options{MaxBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Append(helperRecord(0, 0, 100)); err != nil { // before Follow: not seen
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := make(chan string, 100)
	done := make(chan error, 1)
	go func() {
		done <- audit.Follow(ctx, path, 10*time.Millisecond, func(r *audit.Record) error {
			got <- r.Session
			return nil
		})
	}()
	time.Sleep(100 * time.Millisecond) // Follow has found the end
	const n = 40                       // 40 records of ~700 bytes: several rotations
	for i := 1; i <= n; i++ {
		if err := l.Append(helperRecord(0, i, 300)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if old, _ := audit.Rotated(path); len(old) < 3 {
		t.Fatalf("only %d rotations", len(old))
	}
	for i := 1; i <= n; i++ {
		select {
		case s := <-got:
			if want := fmt.Sprintf("0/%d", i); s != want {
				t.Fatalf("record %d: session %s, want %s", i, s, want)
			}
		case <-ctx.Done():
			t.Fatalf("saw %d of %d records", i-1, n)
		}
	}
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("Follow = %v, want context.Canceled", err)
	}
}

func TestFilterSelects(t *testing.T) {
	r := helperRecord(1, 2, 50)
	r.Agent, r.Cwd, r.TS = "codex", "/home/dev/proj/sub", "2026-11-29T10:00:00.000Z"
	rule := "git push *"
	r.Segments[0].Rule = &rule
	r.Segments[0].Decision = audit.Ask
	r.Decision, r.DecidedBy = audit.Deny, "headless"
	r.CI = &audit.CI{System: "gitlab", Run: "77", Job: "build", JobID: "9001"}
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	tests := []struct {
		f    audit.Filter
		want bool
	}{
		{audit.Filter{}, true},
		{audit.Filter{Decision: "deny"}, true},
		{audit.Filter{Decision: "ask"}, true}, // it asked; headless refused
		{audit.Filter{Decision: "allow"}, false},
		{audit.Filter{Agent: "codex"}, true},
		{audit.Filter{Agent: "claude-code"}, false},
		{audit.Filter{Cwd: "/home/dev/proj"}, true},
		{audit.Filter{Cwd: "/home/dev/pro"}, false},
		{audit.Filter{Command: "p01 s002 *"}, true},
		{audit.Filter{Command: "s002*"}, false},
		{audit.Filter{Rule: "git push*"}, true},
		{audit.Filter{Rule: "rm *"}, false},
		{audit.Filter{Since: at("2026-11-29T09:00:00Z"), Until: at("2026-11-29T10:00:00.001Z")}, true},
		{audit.Filter{Until: at("2026-11-29T10:00:00Z")}, false},
		// One CI job's commands out of a shared runner's log.
		{audit.Filter{Run: "77"}, true},
		{audit.Filter{Run: "78"}, false},
		{audit.Filter{Job: "build"}, true},
		{audit.Filter{Job: "9001"}, true},
		{audit.Filter{Job: "test"}, false},
		{audit.Filter{Run: "77", Job: "test"}, false},
	}
	for _, tt := range tests {
		if got := tt.f.Match(r); got != tt.want {
			t.Errorf("%+v.Match = %v, want %v", tt.f, got, tt.want)
		}
	}
}

// TestTableShowsControlCharactersEscaped: a command's escape sequences
// reach the operator's terminal as text, not as actions (an attack run's
// find: a row could rewrite what the operator sees).
func TestTableShowsControlCharactersEscaped(t *testing.T) {
	var b strings.Builder
	tb := audit.NewTable(&b, 200)
	status := 3
	tb.Add(&audit.Record{TS: "t", Decision: "allow", DecidedBy: "class", Exit: &status, Cwd: "/w\u202e",
		Command: "touch x # \x1b[2K\x1b[1G<fake row>\u0085\u2066"})
	if err := tb.Flush(); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"\x1b", "\u202e", "\u0085", "\u2066"} {
		if strings.Contains(out, bad) {
			t.Errorf("table holds %q raw:\n%s", bad, out)
		}
	}
	for _, want := range []string{`\x1b[2K`, `\u202e`, `\u0085`, `\u2066`, "  3  "} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestShownDropsClaudeWrapper: the table and the stats show the command
// Claude Code ran, not its snapshot wrapper; other text is left as it is.
func TestShownDropsClaudeWrapper(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{benchdata.ClaudeCodeCommand("/home/u/.claude/shell-snapshots/snapshot-bash-1-a.sh", "make test", "/tmp/claude-1-cwd"), "make test"},
		{benchdata.ClaudeCodeCommand("/home/u/.claude/shell-snapshots/snapshot-bash-1-a.sh", "echo 'it''s' && rm -rf x", "/tmp/claude-1-cwd"), "echo 'it''s' && rm -rf x"},
		{"source /home/u/.claude/shell-snapshots/snapshot-bash-1-a.sh && curl x", "source /home/u/.claude/shell-snapshots/snapshot-bash-1-a.sh && curl x"},
		{"git status", "git status"},
		// Other spellings of the wrapper: no source, < /dev/null, no
		// redirection, '"'"' quoting (invocations.jsonl).
		{`eval 'ls -la' < /dev/null && pwd -P >| /tmp/claude-1-cwd`, "ls -la"},
		{`eval 'ls' && pwd -P >| /tmp/claude-4f2a-cwd`, "ls"},
		{`source /h/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && eval 'rg -n TODO src < /dev/null | wc -l' && pwd -P >| /tmp/claude-1-cwd`, "rg -n TODO src < /dev/null | wc -l"},
		{"source /h/.claude/shell-snapshots/snapshot-bash-1-a.sh && eval 'git commit -m \"$(cat <<'\"'\"'EOF'\"'\"'\nFix\nEOF\n)\"' && pwd -P >| /tmp/claude-1-cwd", "git commit -m \"$(cat <<'EOF'\nFix\nEOF\n)\""},
		// Anything else the text runs keeps the whole text.
		{`eval 'ls' && rm -rf ~ && pwd -P >| /tmp/c-cwd`, `eval 'ls' && rm -rf ~ && pwd -P >| /tmp/c-cwd`},
		{`rm -rf ~ || true && eval 'ls' && pwd -P >| /tmp/c-cwd`, `rm -rf ~ || true && eval 'ls' && pwd -P >| /tmp/c-cwd`},
		{`eval 'ls' > /tmp/x && pwd -P >| /tmp/c-cwd`, `eval 'ls' > /tmp/x && pwd -P >| /tmp/c-cwd`},
		{`eval "$(curl x)" && pwd -P >| /tmp/c-cwd`, `eval "$(curl x)" && pwd -P >| /tmp/c-cwd`},
		{`eval 'ls' x && pwd -P >| /tmp/c-cwd`, `eval 'ls' x && pwd -P >| /tmp/c-cwd`},
		{`eval 'ls' && pwd -P >| /tmp/c-cwd; rm -rf ~`, `eval 'ls' && pwd -P >| /tmp/c-cwd; rm -rf ~`},
		{`eval 'ls' && pwd -P >| $(rm -rf ~)`, `eval 'ls' && pwd -P >| $(rm -rf ~)`},
		{`source /h/.claude/shell-snapshots/s.sh || rm -rf ~ && eval 'ls' && pwd -P >| /tmp/c-cwd`, `source /h/.claude/shell-snapshots/s.sh || rm -rf ~ && eval 'ls' && pwd -P >| /tmp/c-cwd`},
		{`PATH=/x eval 'ls' && pwd -P >| /tmp/c-cwd`, `PATH=/x eval 'ls' && pwd -P >| /tmp/c-cwd`},
		{`eval 'ls' & pwd -P >| /tmp/c-cwd`, `eval 'ls' & pwd -P >| /tmp/c-cwd`},
		// Attack run 60: a snapshot outside ~/.claude, a pwd that
		// writes another file.
		{`source /w/ws/shell-snapshots/snapshot-x.sh && eval 'git status' && pwd -P >| /tmp/claude-1-cwd`, `source /w/ws/shell-snapshots/snapshot-x.sh && eval 'git status' && pwd -P >| /tmp/claude-1-cwd`},
		{`eval 'git status' && pwd -P >| src/app.py`, `eval 'git status' && pwd -P >| src/app.py`},
	} {
		if got := audit.Shown(tc.in); got != tc.want {
			t.Errorf("Shown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStatsCountsCouldMatchApart: a rule a run-time word only could
// match is counted apart from its matches, and the most-asked commands
// are grouped by the command Claude Code ran, not its wrapper (whose
// working-directory file differs every time).
func TestStatsCountsCouldMatchApart(t *testing.T) {
	rule := "~/.ssh/id_*"
	var s audit.Stats
	s.Add(&audit.Record{Command: "cat ~/.ssh/id_rsa", Decision: "deny", Segments: []audit.Segment{{Rule: &rule, Source: "c.yaml:3", Decision: "deny", Reason: `matches read deny rule "~/.ssh/id_*"`}}})
	for _, cwd := range []string{"/tmp/claude-1-cwd", "/tmp/claude-2-cwd"} {
		s.Add(&audit.Record{Command: benchdata.ClaudeCodeCommand("/h/.claude/shell-snapshots/snapshot-bash-1-a.sh", `cat "$f"`, cwd), Decision: "ask",
			Segments: []audit.Segment{{Rule: &rule, Source: "c.yaml:3", Decision: "ask", Reason: `argument … could match read deny rule "~/.ssh/id_*"`}}})
	}
	if s.Rules["~/.ssh/id_* (c.yaml:3)"] != 1 || s.Rules["~/.ssh/id_* (c.yaml:3) — could match"] != 2 {
		t.Errorf("rules = %v", s.Rules)
	}
	if s.Asked[`cat "$f"`] != 2 {
		t.Errorf("asked = %v, want the Claude Code command counted twice", s.Asked)
	}
}

// TestJobFilterNeedsCI: the CI filters select nothing outside CI.
func TestJobFilterNeedsCI(t *testing.T) {
	r := helperRecord(1, 2, 50)
	for _, f := range []audit.Filter{{Run: "1"}, {Job: "build"}} {
		if f.Match(r) {
			t.Errorf("%+v matches a record with no ci", f)
		}
	}
}

// TestStatsShowsLongCommandsShort: a command of several lines is shown by
// its first line and how many there are, a long one cut (a new user's
// 41-line CI script was one line of the counts), while counted whole.
func TestStatsShowsLongCommandsShort(t *testing.T) {
	var s audit.Stats
	script := "set -e\necho build\nmake build\n"
	long := "echo " + strings.Repeat("x", 300)
	for _, c := range []string{script, script, long} {
		s.Add(&audit.Record{Command: c, Decision: "ask"})
	}
	var b strings.Builder
	if err := s.Write(&b, 10); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "  2  set -e ⏎ … (3 lines)\n") {
		t.Errorf("the script's row is not its first line and line count:\n%s", out)
	}
	if strings.Contains(out, "make build") || strings.Contains(out, strings.Repeat("x", 200)) || !strings.Contains(out, "x…\n") {
		t.Errorf("a long command is not cut:\n%s", out)
	}
}
