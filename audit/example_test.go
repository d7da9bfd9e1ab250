package audit_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardsh/guardsh/audit"
)

// A guardsh invocation opens the log before it runs anything, then appends
// one record with the decision and the outcome.
func Example() {
	dir, err := os.MkdirTemp("", "guardsh-audit-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state", "guardsh", "audit.jsonl")

	log, err := audit.Open(path) // before the command runs: no log, no command
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2025, 7, 1, 12, 0, 0, 123456789, time.UTC)
	r := audit.NewRecord(start)
	r.PPID = 4242
	r.Agent = "claude-code"
	r.User = "dev"
	r.Cwd = "/home/dev/project"
	r.Argv = []string{"bash", "-c", "git status && ls"}
	r.Command = "git status && ls"
	r.Mode = "ask"
	rule := "git status *"
	r.Segments = []audit.Segment{
		{Argv: []string{"git", "status"}, Kind: "exec", Class: "read-only", Decision: audit.Allow,
			Rule: &rule, Source: "/home/dev/.config/guardsh/config.yaml:3", Reason: "matches allow rule"},
		{Argv: []string{"ls"}, Kind: "exec", Class: "read-only", Decision: audit.Allow, Reason: "read-only command"},
	}
	r.Decision = audit.Allow
	r.DecidedBy = "rule"
	exit := 0
	r.Exit = &exit
	r.DurationMS = 3.25
	if err := log.Append(r); err != nil {
		fmt.Println(err)
		return
	}
	if err := log.Close(); err != nil {
		fmt.Println(err)
		return
	}

	data, _ := os.ReadFile(path)
	fmt.Println("lines:", bytes.Count(data, []byte("\n")))
	fmt.Println("id:", len(r.ID), "characters, time part", r.ID[:10])
	shown := strings.Replace(string(data), r.ID, "<id>", 1)
	fmt.Print(shown[:strings.Index(shown, `,"prev"`)] + "…\n")
	// The record closes the hash chain's first link: prev is Genesis and
	// hash the SHA-256 of the line without it.
	fmt.Println(r.Prev == audit.Genesis, len(r.Hash))
	// Output:
	// lines: 1
	// id: 26 characters, time part 01JZ2XQDKV
	// {"v":2,"ts":"2025-07-01T12:00:00.123Z","id":"<id>","ppid":4242,"agent":"claude-code","user":"dev","cwd":"/home/dev/project","argv":["bash","-c","git status && ls"],"command":"git status && ls","mode":"ask","segments":[{"argv":["git","status"],"kind":"exec","class":"read-only","decision":"allow","rule":"git status *","source":"/home/dev/.config/guardsh/config.yaml:3","reason":"matches allow rule"},{"argv":["ls"],"kind":"exec","class":"read-only","decision":"allow","rule":null,"reason":"read-only command"}],"decision":"allow","decided_by":"rule","exit":0,"duration_ms":3.25…
	// true 64
}

func ExampleDetect() {
	env := map[string]string{"CLAUDECODE": "1", "CI": "true"}
	fmt.Println(audit.Detect(func(k string) string { return env[k] }, 0))
	fmt.Println(audit.Detect(func(k string) string { return map[string]string{"GITHUB_ACTIONS": "true"}[k] }, 0))
	// Output:
	// claude-code
	// github-actions
}

func ExampleNewID() {
	t := time.UnixMilli(1469918176385)
	a, b := audit.NewID(t), audit.NewID(t.Add(time.Millisecond))
	fmt.Println(len(a), a[:10], a < b)
	// Output: 26 01ARYZ6S41 true
}

// Verify checks the hash chain of a log and names the first broken line.
func ExampleVerify() {
	dir, _ := os.MkdirTemp("", "guardsh-verify-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "audit.jsonl")
	log, _ := audit.Open(path)
	for _, cmd := range []string{"git status", "go test ./...", "git push"} {
		r := audit.NewRecord(time.Now())
		r.User, r.Cwd, r.Command, r.Mode = "dev", "/src", cmd, "ask"
		r.Decision, r.DecidedBy = audit.Allow, "class"
		log.Append(r)
	}
	log.Close()
	v, err := audit.Verify([]string{path}, nil)
	fmt.Println(v.Records, err)

	// Someone removes the second record.
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(path, []byte(lines[0]+lines[2]), 0o600)
	_, err = audit.Verify([]string{path}, nil)
	fmt.Println(strings.Replace(err.Error(), path, "audit.jsonl", 1)[:41])
	// Output:
	// 3 <nil>
	// audit.jsonl:2: deleted: the record before
}

// A secret is redacted inside the shell word that holds it: the commands
// around it stay in the record, and a quoted header is one word.
func ExampleRedactor_Command() {
	red, err := audit.NewRedactor(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(red.Command(`echo Cookie: a; touch hidden.txt`, nil))
	fmt.Println(red.Command(`curl -H 'Cookie: sid=a; csrf=b' https://example.com && make`, nil))
	// Output:
	// echo Cookie: [REDACTED]; touch hidden.txt
	// curl -H 'Cookie: [REDACTED]; csrf=[REDACTED]' https://example.com && make
}
