package audit_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guardsh/guardsh/audit"
)

// The test binary doubles as the helper process that the concurrency and
// short-write tests start many times: with helperEnv set, TestMain runs the
// named helper instead of the tests.
const helperEnv = "GUARDSH_AUDIT_TEST_HELPER"

func TestMain(m *testing.M) {
	switch h := os.Getenv(helperEnv); h {
	case "":
		os.Exit(m.Run())
	case "append":
		os.Exit(helperAppend())
	case "short-write":
		os.Exit(helperShortWrite())
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", helperEnv, h)
		os.Exit(2)
	}
}

func envInt(name string) int {
	n, err := strconv.Atoi(os.Getenv(name))
	if err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	return n
}

// helperCommand is the command text of record seq of process proc: exactly
// size bytes, a header naming both, then one letter per process, so a line
// made of two writers' bytes shows.
func helperCommand(proc, seq, size int) string {
	head := fmt.Sprintf("p%02d s%03d ", proc, seq)
	return head + strings.Repeat(string(rune('a'+proc%26)), size-len(head))
}

func helperRecord(proc, seq, size int) *audit.Record {
	r := audit.NewRecord(time.Now())
	r.Session = fmt.Sprintf("%d/%d", proc, seq)
	r.PPID = os.Getppid()
	r.User = "helper"
	r.Cwd = "/"
	r.Argv = []string{"guardsh", "-c", "…"}
	r.Command = helperCommand(proc, seq, size)
	r.Mode = "ask"
	r.Segments = []audit.Segment{{Argv: []string{"echo"}, Kind: "exec", Class: "read-only", Decision: audit.Allow, Reason: "read-only"}}
	r.Decision = audit.Allow
	r.DecidedBy = "class"
	return r
}

// helperAppend opens the log, waits for the start signal (EOF on fd 3), then
// appends AUDIT_HELPER_COUNT records of AUDIT_HELPER_SIZE-byte commands.
func helperAppend() int {
	proc, count, size := envInt("AUDIT_HELPER_PROC"), envInt("AUDIT_HELPER_COUNT"), envInt("AUDIT_HELPER_SIZE")
	var opt audit.Options
	if m := os.Getenv("AUDIT_HELPER_MAXBYTES"); m != "" {
		opt.MaxBytes = int64(envInt("AUDIT_HELPER_MAXBYTES"))
	}
	l, err := audit.OpenWith(os.Getenv("AUDIT_HELPER_PATH"), opt)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := io.Copy(io.Discard, os.NewFile(3, "start")); err != nil {
		fmt.Fprintln(os.Stderr, "start signal:", err)
		return 1
	}
	for seq := range count {
		if err := l.Append(helperRecord(proc, seq, size)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if err := l.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// helperShortWrite lowers RLIMIT_FSIZE to AUDIT_HELPER_LIMIT bytes, so the
// kernel writes only part of a big line, appends a big record (which must
// fail) and then a small one (which must succeed). It prints the first
// error on stdout.
func helperShortWrite() int {
	limit, err := strconv.ParseUint(os.Getenv("AUDIT_HELPER_LIMIT"), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_FSIZE, &rl); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rl.Cur = limit
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &rl); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	l, err := audit.Open(os.Getenv("AUDIT_HELPER_PATH"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer l.Close()
	err = l.Append(helperRecord(1, 0, 64<<10))
	if err == nil {
		fmt.Fprintln(os.Stderr, "big append did not fail")
		return 1
	}
	fmt.Println(err)
	if err := l.Append(helperRecord(2, 0, 100)); err != nil {
		fmt.Fprintln(os.Stderr, "small append after the failed one:", err)
		return 1
	}
	return 0
}

// runAppenders starts procs helper processes that each append count records
// of size-byte commands to path, releases them together once all have
// opened the log, and waits for all.
func runAppenders(t *testing.T, path string, procs, count, size int, env ...string) {
	t.Helper()
	start, release, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	type child struct {
		cmd    *exec.Cmd
		stderr bytes.Buffer
	}
	children := make([]*child, procs)
	for i := range children {
		c := &child{cmd: exec.Command(os.Args[0])}
		c.cmd.Env = append(os.Environ(),
			helperEnv+"=append",
			"AUDIT_HELPER_PATH="+path,
			"AUDIT_HELPER_PROC="+strconv.Itoa(i),
			"AUDIT_HELPER_COUNT="+strconv.Itoa(count),
			"AUDIT_HELPER_SIZE="+strconv.Itoa(size))
		c.cmd.Env = append(c.cmd.Env, env...)
		c.cmd.ExtraFiles = []*os.File{start}
		c.cmd.Stderr = &c.stderr
		if err := c.cmd.Start(); err != nil {
			t.Fatalf("start helper %d: %v", i, err)
		}
		children[i] = c
	}
	start.Close()
	release.Close() // every helper now reads EOF on fd 3 and starts appending
	for i, c := range children {
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v: %s", i, err, c.stderr.String())
		}
	}
}

// checkAppenders reads path and checks it holds exactly the records the
// helpers wrote: one valid JSON record per line, ids distinct, each command
// intact, each process's records in the order it appended them.
func checkAppenders(t *testing.T, path string, procs, count, size int, older ...string) {
	t.Helper()
	var data []byte
	for _, p := range append(older, path) {
		d, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, d...)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("log does not end with a newline (%d bytes)", len(data))
	}
	lines := bytes.Split(data[:len(data)-1], []byte("\n"))
	if len(lines) != procs*count {
		t.Fatalf("log has %d lines, want %d", len(lines), procs*count)
	}
	ids := map[string]bool{}
	next := make([]int, procs) // next seq expected from each process
	for n, line := range lines {
		var r audit.Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("line %d is not a record: %v (starts %.80q)", n+1, err, line)
		}
		if ids[r.ID] {
			t.Errorf("line %d: duplicate id %s", n+1, r.ID)
		}
		ids[r.ID] = true
		var proc, seq int
		if _, err := fmt.Sscanf(r.Session, "%d/%d", &proc, &seq); err != nil || proc < 0 || proc >= procs {
			t.Fatalf("line %d: bad session %q", n+1, r.Session)
		}
		if seq != next[proc] {
			t.Errorf("line %d: process %d record %d, want %d", n+1, proc, seq, next[proc])
		}
		next[proc] = seq + 1
		if r.Command != helperCommand(proc, seq, size) {
			t.Errorf("line %d: command of process %d record %d is damaged", n+1, proc, seq)
		}
	}
	for proc, got := range next {
		if got != count {
			t.Errorf("process %d: %d records, want %d", proc, got, count)
		}
	}
}

func TestAppendFromConcurrentProcessesNeverInterleaves(t *testing.T) {
	tests := []struct {
		name               string
		procs, count, size int
	}{
		// 64 KiB is 16 times PIPE_BUF: the kernel promises no atomicity
		// for such writes, only the lock keeps them apart.
		{"64 processes append one 64 KiB record each", 64, 1, 64 << 10},
		{"16 processes append 50 records each", 16, 50, 8 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "state", "audit.jsonl")
			runAppenders(t, path, tt.procs, tt.count, tt.size)
			checkAppenders(t, path, tt.procs, tt.count, tt.size)
		})
	}
}

func TestAppendRemovesPartialLineAfterShortWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(helperRecord(0, 0, 100)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// With RLIMIT_FSIZE 4 KiB past the current end, write(2) of a 64 KiB
	// line writes 4 KiB and returns that count: a real short write.
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(),
		helperEnv+"=short-write",
		"AUDIT_HELPER_PATH="+path,
		"AUDIT_HELPER_LIMIT="+strconv.Itoa(len(before)+4096))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("helper: %v: %s", err, stderr.String())
	}
	msg := strings.TrimSpace(stdout.String())
	for _, want := range []string{path, "short write", "partial line removed"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}

	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before) {
		t.Fatalf("the earlier line changed")
	}
	sc := bufio.NewScanner(bytes.NewReader(after[len(before):]))
	sc.Buffer(nil, 1<<20)
	var sessions []string
	for sc.Scan() {
		var r audit.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line after the failed append is not a record: %v: %.80q", err, sc.Bytes())
		}
		sessions = append(sessions, r.Session)
	}
	if len(sessions) != 1 || sessions[0] != "2/0" {
		t.Errorf("records after the earlier line: %q, want only the small one [\"2/0\"]", sessions)
	}
}
