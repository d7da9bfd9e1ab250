package audit_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/guardsh/guardsh/audit"
)

// fullRecord returns a record with every field set.
func fullRecord(t time.Time, command string) *audit.Record {
	exit := 3
	rule := "git push *"
	r := audit.NewRecord(t)
	r.Session = "sess-1"
	r.PPID = 4242
	r.Agent = "claude-code"
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "o/r", "GITHUB_WORKFLOW": "CI",
		"GITHUB_RUN_ID": "123", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_JOB": "build", "GITHUB_ACTION": "__run_2"}
	r.CI = audit.DetectCI(func(k string) string { return env[k] })
	r.User = "dev"
	r.Cwd = "/home/dev/project"
	r.Argv = []string{"bash", "-c", command}
	r.Command = command
	r.Mode = "ask"
	r.Segments = []audit.Segment{
		{Argv: []string{"git", "push", "origin"}, Kind: "exec", Class: "sensitive", Decision: audit.Ask, Rule: &rule, Source: "/home/dev/.config/guardsh/config.yaml:7", Reason: "matches ask rule", Via: []string{"bash -c"}},
		{Argv: []string{"/tmp/out"}, Kind: "write", Class: "sensitive", Decision: audit.Ask, Reason: "writes outside the workspace"},
	}
	r.Decision = audit.Ask
	r.DecidedBy = "human"
	r.Human = &audit.Human{Answer: "prefix", LatencyMS: 2300.5, Rules: []string{"git push *"}}
	r.Exit = &exit
	r.DurationMS = 12.5
	r.Error = ""
	return r
}

// minimalRecord returns a valid record with every optional field unset and
// every slice nil.
func minimalRecord(t time.Time) *audit.Record {
	r := audit.NewRecord(t)
	r.Decision = audit.Deny
	r.DecidedBy = "headless"
	r.Error = "not understood: unexpected EOF"
	return r
}

func readRecords(t *testing.T, path string) []*audit.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*audit.Record
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			break
		}
		if line[len(line)-1] != '\n' {
			t.Fatalf("line %d has no newline: %q", i+1, line)
		}
		var r audit.Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		out = append(out, &r)
	}
	return out
}

func openTemp(t *testing.T) (*audit.Log, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, path
}

func TestAppendRoundTrip(t *testing.T) {
	l, path := openTemp(t)
	t0 := time.Date(2025, 7, 1, 12, 0, 0, 0, time.UTC)
	want := []*audit.Record{
		fullRecord(t0, `git push origin > /tmp/out`),
		fullRecord(t0.Add(time.Second), "printf '%s\\n' \"a\tb\" <x && echo ünïcode \x00hole"),
		fullRecord(t0.Add(2*time.Second), strings.Repeat("x", 100<<10)),
	}
	for _, r := range want {
		if err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	got := readRecords(t, path)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back differs:\n got %+v\nwant %+v", got, want)
	}
}

func TestAppendWritesTheDocumentedShape(t *testing.T) {
	l, path := openTemp(t)
	r := minimalRecord(time.Date(2025, 7, 1, 12, 0, 0, 987654321, time.UTC))
	r.Command = "a && b > c <d"
	if err := l.Append(r); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := string(data)
	for _, want := range []string{
		`{"v":2,"ts":"2025-07-01T12:00:00.987Z","id":"` + r.ID + `",`,
		`"argv":[]`,                 // nil slice written as an empty list
		`"segments":[]`,             // likewise
		`"exit":null`,               // nothing ran
		`"command":"a && b > c <d"`, // no \u0026 / \u003e escapes
		`"ppid":0`, `"user":""`,     // always present
		`"duration_ms":0`, `"error":"`, // error present when set
	} {
		if !strings.Contains(line, want) {
			t.Errorf("line does not contain %s:\n%s", want, line)
		}
	}
	for _, absent := range []string{`"session"`, `"agent"`} {
		if strings.Contains(line, absent) {
			t.Errorf("line contains %s although it is unknown:\n%s", absent, line)
		}
	}
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Errorf("want exactly one line ending in a newline, got %q", line)
	}
}

func TestAppendRejectsInvalidRecords(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name   string
		change func(r *audit.Record)
		want   string
	}{
		{"a record without the schema version", func(r *audit.Record) { r.V = 0 }, "v 0"},
		{"a record without a timestamp", func(r *audit.Record) { r.TS = "" }, "no ts"},
		{"a record without an id", func(r *audit.Record) { r.ID = "" }, "no id"},
		{"a decision other than allow ask deny", func(r *audit.Record) { r.Decision = "maybe" }, `decision "maybe"`},
		{"a segment decision other than allow ask deny", func(r *audit.Record) { r.Segments[1].Decision = "" }, `segment 1 has decision ""`},
		{"a segment kind other than exec write read", func(r *audit.Record) { r.Segments[0].Kind = "run" }, `segment 0 has kind "run"`},
		{"a negative duration", func(r *audit.Record) { r.DurationMS = -1 }, "duration_ms -1"},
		{"a NaN duration", func(r *audit.Record) { r.DurationMS = math.NaN() }, "duration_ms NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, path := openTemp(t)
			r := fullRecord(now, "true")
			tt.change(r)
			err := l.Append(r)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("Append error %v, want one naming %s and saying %q", err, path, tt.want)
			}
			if fi, _ := os.Stat(path); fi.Size() != 0 {
				t.Errorf("log has %d bytes, want none", fi.Size())
			}
		})
	}
	t.Run("a nil record", func(t *testing.T) {
		l, _ := openTemp(t)
		if err := l.Append(nil); err == nil {
			t.Error("Append(nil) succeeded")
		}
	})
}

func TestOpenCreatesPrivateDirectoriesAndFile(t *testing.T) {
	base := t.TempDir()
	path := filepath.Join(base, "state", "guardsh", "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Path() != path {
		t.Errorf("Path() = %q, want %q", l.Path(), path)
	}
	for p, want := range map[string]fs.FileMode{
		filepath.Join(base, "state"):            fs.ModeDir | 0o700,
		filepath.Join(base, "state", "guardsh"): fs.ModeDir | 0o700,
		path:                                    0o600,
	} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", p, fi.Mode(), want)
		}
	}
}

func TestOpenAppendsToAnExistingLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const earlier = `{"earlier":"line"}` + "\n"
	if err := os.WriteFile(path, []byte(earlier), 0o640); err != nil {
		t.Fatal(err)
	}
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Append(minimalRecord(time.Now())); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), earlier) || strings.Count(string(data), "\n") != 2 {
		t.Errorf("log is %q, want the earlier line and one more", data)
	}
	if fi, _ := os.Stat(path); fi.Mode() != 0o640 {
		t.Errorf("existing log's mode changed to %v", fi.Mode())
	}
}

func TestOpenFailsClearly(t *testing.T) {
	type failure struct {
		path string
		is   error  // errors.Is(err, is)
		what string // the step named in the message
	}
	check := func(t *testing.T, f failure) {
		t.Helper()
		l, err := audit.Open(f.path)
		if err == nil {
			l.Close()
			t.Fatalf("Open(%q) succeeded", f.path)
		}
		msg := err.Error()
		if !strings.Contains(msg, f.path) || !strings.Contains(msg, f.what) || !errors.Is(err, f.is) {
			t.Errorf("Open(%q) error %q, want one naming the path, saying %q, wrapping %v", f.path, msg, f.what, f.is)
		}
	}

	t.Run("a path under a regular file", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		check(t, failure{filepath.Join(file, "audit.jsonl"), syscall.ENOTDIR, "create directory"})
		check(t, failure{filepath.Join(file, "sub", "audit.jsonl"), syscall.ENOTDIR, "create directory"})
	})
	t.Run("a path under /etc/passwd fails even for root", func(t *testing.T) {
		if _, err := os.Stat("/etc/passwd"); err != nil {
			t.Skip("no /etc/passwd")
		}
		check(t, failure{"/etc/passwd/x", syscall.ENOTDIR, "create directory"})
	})
	t.Run("a path that is a directory", func(t *testing.T) {
		check(t, failure{t.TempDir(), syscall.EISDIR, "open for appending"})
	})
	t.Run("an empty path", func(t *testing.T) {
		if _, err := audit.Open(""); err == nil || !strings.Contains(err.Error(), "empty path") {
			t.Errorf("Open(\"\") error %v, want one saying empty path", err)
		}
	})
	t.Run("a directory without write permission", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root ignores permission bits")
		}
		dir := filepath.Join(t.TempDir(), "ro")
		if err := os.Mkdir(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		check(t, failure{filepath.Join(dir, "audit.jsonl"), fs.ErrPermission, "open for appending"})
		check(t, failure{filepath.Join(dir, "sub", "audit.jsonl"), fs.ErrPermission, "create directory"})
	})
	t.Run("a read-only log file", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root ignores permission bits")
		}
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		if err := os.WriteFile(path, nil, 0o400); err != nil {
			t.Fatal(err)
		}
		check(t, failure{path, fs.ErrPermission, "open for appending"})
	})
}

func TestAppendReportsAFullDisk(t *testing.T) {
	const path = "/dev/full" // every write(2) fails with ENOSPC
	if _, err := os.Stat(path); err != nil {
		t.Skip("no /dev/full")
	}
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	err = l.Append(fullRecord(time.Now(), "true"))
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Append error %v, want ENOSPC naming %s", err, path)
	}
	if strings.Contains(err.Error(), "partial") {
		t.Errorf("error %q speaks of a partial line, but nothing was written", err)
	}
}

func TestAppendAndCloseAfterClose(t *testing.T) {
	l, _ := openTemp(t)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(minimalRecord(time.Now())); err == nil || !strings.Contains(err.Error(), "after Close") {
		t.Errorf("Append after Close: %v, want an error", err)
	}
	if err := l.Close(); err == nil {
		t.Error("second Close succeeded")
	}
}

func TestAppendFromGoroutinesAndSeveralLogsInOneProcess(t *testing.T) {
	// Goroutines sharing one Log are kept apart by its mutex; Logs opened
	// separately on one file are separate open file descriptions, kept
	// apart by flock as processes are.
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const logs, goroutines, each, size = 4, 8, 25, 20 << 10
	var wg sync.WaitGroup
	for i := range logs {
		l, err := audit.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		for j := range goroutines {
			proc := i*goroutines + j
			wg.Go(func() {
				for seq := range each {
					if err := l.Append(helperRecord(proc, seq, size)); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	checkAppenders(t, path, logs*goroutines, each, size)
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name                    string
		guardshAudit, xdg, home string
		want                    string
		wantErr                 string
	}{
		{"GUARDSH_AUDIT wins", "/var/log/guardsh/a.jsonl", "/x", "/home/u", "/var/log/guardsh/a.jsonl", ""},
		{"a relative GUARDSH_AUDIT is an error", "audit.jsonl", "/x", "/home/u", "", "not an absolute path"},
		{"XDG_STATE_HOME before HOME", "", "/x/state", "/home/u", "/x/state/guardsh/audit.jsonl", ""},
		{"HOME when XDG_STATE_HOME is unset", "", "", "/home/u", "/home/u/.local/state/guardsh/audit.jsonl", ""},
		{"a relative XDG_STATE_HOME is ignored", "", "state", "/home/u", "/home/u/.local/state/guardsh/audit.jsonl", ""},
		{"neither HOME nor XDG_STATE_HOME is an error", "", "", "", "", "set GUARDSH_AUDIT, XDG_STATE_HOME or HOME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GUARDSH_AUDIT", tt.guardshAudit)
			t.Setenv("XDG_STATE_HOME", tt.xdg)
			t.Setenv("HOME", tt.home)
			got, err := audit.DefaultPath()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("DefaultPath() = %q, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("DefaultPath() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func BenchmarkAppend(b *testing.B) {
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	l, err := audit.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	r := fullRecord(time.Now(), "git status --short && go test ./...")
	for b.Loop() {
		if err := l.Append(r); err != nil {
			b.Fatal(err)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestAppendWaitsForTheLockOtherWritersHold(t *testing.T) {
	// Another writer (a second open of the file, as another process or a
	// log rotation would have) holds the flock: Append must wait for it,
	// so the other writer's line comes first and whole.
	l, path := openTemp(t)
	other, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := unix.Flock(int(other.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- l.Append(minimalRecord(time.Now())) }()
	select {
	case err := <-done:
		t.Fatalf("Append returned (%v) while another writer held the lock", err)
	case <-time.After(200 * time.Millisecond):
	}
	const first = `{"other":"writer"}` + "\n"
	if _, err := other.WriteString(first); err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(other.Fd()), unix.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	data := string(readFile(t, path))
	if !strings.HasPrefix(data, first) || strings.Count(data, "\n") != 2 {
		t.Errorf("log is %q, want the other writer's line, then the record", data)
	}
}

// smallFileSystem mounts a tmpfs of size bytes on a new directory, for as
// long as the test runs; it skips the test where mounting is not allowed
// (not root, no CAP_SYS_ADMIN).
func smallFileSystem(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fill writes a file in dir until the file system is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// TestReserveKeepsRoomForTheRecord: room reserved before a command runs
// is the record's after the command filled the file system (an attack run
// filled a small one from a jailed command: the record was lost and
// `audit verify` still said ok); with the file system full, no room can
// be reserved, which refuses the next command. Without a reservation the
// same record is not written (the file system really is full).
func TestReserveKeepsRoomForTheRecord(t *testing.T) {
	dir := smallFileSystem(t, 4<<20)
	log, err := audit.Open(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if err := log.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	fill(t, dir)
	if err := log.Append(fullRecord(time.Now(), "head -c 9G /dev/zero > fill")); err != nil {
		t.Fatalf("Append after the fill: %v", err)
	}
	if err := log.Reserve(1 << 20); err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "audit.jsonl") {
		t.Fatalf("Reserve on a full file system: %v, want ENOSPC naming the log", err)
	}
	if err := log.Append(fullRecord(time.Now(), strings.Repeat("x", 1<<20))); err == nil {
		t.Fatal("a 1 MiB record was written on a full file system: the test proves nothing")
	}
	// The reservation's file is gone: nothing is left beside the log.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "reserve") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if v, err := audit.Verify([]string{filepath.Join(dir, "audit.jsonl")}, nil); err != nil || v.Records != 1 {
		t.Errorf("Verify: %+v, %v; want the one record", v, err)
	}
}

// TestReserveForALargeRecord: the room held grows to fit a record larger
// than a command's text suggests (an attack run's 130-byte brace
// expansion made a 1.7 MB record, which did not fit the 1 MiB held).
func TestReserveForALargeRecord(t *testing.T) {
	dir := smallFileSystem(t, 16<<20)
	log, err := audit.Open(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	if err := log.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	r := fullRecord(time.Now(), "echo {a,b}{a,b}…")
	for i := range 20000 {
		r.Segments = append(r.Segments, audit.Segment{Argv: []string{"echo", strings.Repeat("w", 80), strconv.Itoa(i)}, Kind: "exec", Class: "read-only", Decision: audit.Allow, Reason: "echo is in the read-only table"})
	}
	if err := log.ReserveFor(r); err != nil {
		t.Fatal(err)
	}
	fill(t, dir)
	if err := log.Append(r); err != nil {
		t.Fatalf("Append of a large record after the fill: %v", err)
	}
}

// TestReservePooled: the room held for a record is a file kept beside the
// log for the next guardsh rather than made and removed for each command
// (the removal cost a command 0.1–0.3 ms); each Log holds its own at a
// time, a link planted in the pool's place is not followed, a large one
// is not kept, and Release gives the room back only to a put-back the file
// system is short of room for.
func TestReservePooled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	pooled := func(i int) string { return filepath.Join(dir, ".audit.jsonl.reserve."+strconv.Itoa(i)) }
	inode := func(p string) uint64 {
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return st.Ino
	}
	outside := filepath.Join(t.TempDir(), "x")
	if err := os.Symlink(outside, pooled(0)); err != nil {
		t.Fatal(err)
	}
	a, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Fatal("the reservation followed a link planted in the pool")
	}
	first := inode(pooled(1))
	b, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	if inode(pooled(2)) == first {
		t.Fatal("two logs hold one reservation")
	}
	// Plenty of room: a put-back needs none of the reservation's.
	a.Lend(fullRecord(time.Now(), "true"), 1<<20)
	if info, err := os.Stat(pooled(1)); err != nil || info.Size() != 1<<20 {
		t.Errorf("lent with plenty of room: %v %v, want 1 MiB still held", info, err)
	}
	if err := a.Append(fullRecord(time.Now(), "true")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	b.Close()
	c, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	if inode(pooled(1)) != first {
		t.Error("the next log made a new reservation rather than take the one kept")
	}
	if info, err := os.Stat(pooled(1)); err != nil || info.Size() != 1<<20 {
		t.Errorf("the reservation kept: %v %v, want 1 MiB", info, err)
	}
	// More room wanted than the file system has: what the record does
	// not need is lent.
	c.Lend(fullRecord(time.Now(), "true"), 1<<62)
	if info, err := os.Stat(pooled(1)); err != nil || info.Size() >= 1<<20 || info.Size() < 64<<10 {
		t.Errorf("lent to a put-back short of room: %v %v, want the record's room kept", info, err)
	}
	// A large reservation is not kept for the next.
	if err := c.Reserve(8 << 20); err != nil {
		t.Fatal(err)
	}
	c.Close()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if info, _ := e.Info(); strings.Contains(e.Name(), "reserve") && info.Size() > 4<<20 {
			t.Errorf("kept: %s of %d bytes", e.Name(), info.Size())
		}
	}
	// A hard link planted as a pooled file is not used (nor written):
	// one of the log made guardsh wait forever for the log's lock.
	for _, e := range ents {
		if strings.Contains(e.Name(), "reserve") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
	if err := os.Link(path, pooled(0)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	d, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	if err := d.Append(fullRecord(time.Now(), "true")); err != nil {
		t.Fatal(err)
	}
	d.Close()
	after, _ := os.ReadFile(path)
	if len(after) <= len(before) || bytes.Contains(after, []byte{0}) {
		t.Errorf("the log through a planted hard link: %d → %d bytes, NULs %v", len(before), len(after), bytes.Contains(after, []byte{0}))
	}
}

// TestLendKeepsTheRecordsRoom: on a full file system, a put-back is lent
// the room held beyond what the record needs, never the record's own: a
// jailed command that deleted 400 kept hooks and filled the disk had its
// put-back take all of it, and its record was lost (attack run 56).
func TestLendKeepsTheRecordsRoom(t *testing.T) {
	dir := smallFileSystem(t, 8<<20)
	log, err := audit.Open(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	r := fullRecord(time.Now(), "python3 fill.py # "+strings.Repeat("A", 6000))
	if err := log.Reserve(1 << 20); err != nil {
		t.Fatal(err)
	}
	fill(t, dir)
	log.Lend(r, 16<<20)
	// The put-back writes all it can.
	f, err := os.Create(filepath.Join(dir, "put-back"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	f.Close()
	if st, err := os.Stat(filepath.Join(dir, "put-back")); err != nil || st.Size() < 512<<10 {
		t.Fatalf("the put-back was lent %v bytes (%v), want most of the 1 MiB", st, err)
	}
	if err := log.Append(r); err != nil {
		t.Fatalf("Append after the put-back took the room lent: %v", err)
	}
}

// TestRemovedLogIsSaid: a log removed while guardsh had it open (not
// renamed away, as rotation does) makes the next Append say so, once:
// the record begins a new log, and the records before it are gone
// (attack run 74 removed the log and its anchor, and verify found the new
// one whole). A log renamed away is said nothing.
func TestRemovedLogIsSaid(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(path string) error
		said   bool
	}{
		{"removed", os.Remove, true},
		{"renamed away", func(p string) error { return os.Rename(p, p+".1") }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l, err := audit.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if err := l.Append(helperRecord(0, 0, 10)); err != nil {
				t.Fatal(err)
			}
			if err := c.change(path); err != nil {
				t.Fatal(err)
			}
			err = l.Append(helperRecord(0, 1, 10))
			if said := err != nil && strings.Contains(err.Error(), "was removed while guardsh had it open"); said != c.said {
				t.Errorf("Append after the log was %s: %v", c.name, err)
			}
			if data, rerr := os.ReadFile(path); rerr != nil || strings.Count(string(data), "\n") != 1 {
				t.Errorf("the record was not written to a new log: %v %q", rerr, data)
			}
			if err := l.Append(helperRecord(0, 2, 10)); err != nil {
				t.Errorf("said again: %v", err)
			}
		})
	}
}
