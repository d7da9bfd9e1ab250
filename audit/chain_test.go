package audit_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
)

// writeLog appends n records to a new log in a temporary directory and
// returns its path.
func writeLog(t testing.TB, n int, opt audit.Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.OpenWith(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := l.Append(helperRecord(1, i, 120)); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func lines(t *testing.T, path string) [][]byte {
	t.Helper()
	data := readFile(t, path)
	ls := bytes.SplitAfter(data, []byte("\n"))
	return ls[:len(ls)-1] // after the last newline: nothing
}

func writeLines(t *testing.T, path string, ls [][]byte) {
	t.Helper()
	if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestChainLinksEachRecordToTheOneBefore(t *testing.T) {
	path := writeLog(t, 3, audit.Options{})
	recs := readRecords(t, path)
	if recs[0].Prev != audit.Genesis {
		t.Errorf("first prev = %s, want Genesis", recs[0].Prev)
	}
	for i := 1; i < len(recs); i++ {
		if recs[i].Prev != recs[i-1].Hash {
			t.Errorf("record %d: prev %s, want the hash before it %s", i+1, recs[i].Prev, recs[i-1].Hash)
		}
	}
	v, err := audit.Verify([]string{path}, nil)
	if err != nil || v.Records != 3 || v.Head != recs[2].Hash {
		t.Errorf("Verify = %+v, %v; want 3 records, head %s", v, err, recs[2].Hash)
	}
}

// Each way of tampering with a log must make Verify fail at the line
// where the chain breaks, and say which way it was broken.
func TestVerifyNamesTheFirstTamperedLine(t *testing.T) {
	tests := []struct {
		name    string
		tamper  func(ls [][]byte) [][]byte
		line    int
		problem string
	}{
		{"an edited command", func(ls [][]byte) [][]byte {
			ls[4] = bytes.Replace(ls[4], []byte("p01 s004"), []byte("p01 s444"), 1)
			return ls
		}, 5, "edited"},
		{"an edited decision", func(ls [][]byte) [][]byte {
			ls[4] = bytes.Replace(ls[4], []byte(`"decision":"allow"`), []byte(`"decision":"deny"`), 1)
			return ls
		}, 5, "edited"},
		{"a deleted line", func(ls [][]byte) [][]byte {
			return append(ls[:4:4], ls[5:]...)
		}, 5, "deleted"},
		{"the first line deleted", func(ls [][]byte) [][]byte { return ls[1:] }, 1, "deleted"},
		{"two lines swapped", func(ls [][]byte) [][]byte {
			ls[4], ls[5] = ls[5], ls[4]
			return ls
		}, 5, "reordered"},
		{"a line duplicated", func(ls [][]byte) [][]byte {
			return append(ls[:6:6], ls[5:]...)
		}, 7, "duplicated"},
		{"the last line cut short", func(ls [][]byte) [][]byte {
			ls[9] = ls[9][:len(ls[9])/2]
			return ls
		}, 10, "truncated"},
		{"a line without a hash appended", func(ls [][]byte) [][]byte {
			return append(ls, []byte(`{"v":2,"command":"rm -rf /"}`+"\n"))
		}, 11, "edited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, 10, audit.Options{})
			writeLines(t, path, tt.tamper(lines(t, path)))
			_, err := audit.Verify([]string{path}, nil)
			var b *audit.Broken
			if !errors.As(err, &b) {
				t.Fatalf("Verify = %v, want a *Broken", err)
			}
			if b.Line != tt.line || b.File != path || !strings.HasPrefix(b.Problem, tt.problem) {
				t.Errorf("Verify: %v; want %s:%d: %s…", err, path, tt.line, tt.problem)
			}
		})
	}
}

// Removing whole records from the end leaves a valid chain; the anchor,
// kept where the agent cannot write, catches it.
func TestAnchorCatchesLinesRemovedFromTheEnd(t *testing.T) {
	anchorPath := filepath.Join(t.TempDir(), "anchors", "guardsh.anchor")
	path := writeLog(t, 10, audit.Options{Anchor: audit.FileAnchor{Path: anchorPath}})
	anchors, err := audit.LoadAnchors(anchorPath)
	if err != nil || len(anchors) != 10 {
		t.Fatalf("anchors: %d, %v; want one per record", len(anchors), err)
	}
	if v, err := audit.Verify([]string{path}, anchors); err != nil || v.Anchors != 10 {
		t.Fatalf("untouched log: %+v, %v", v, err)
	}
	writeLines(t, path, lines(t, path)[:8])
	if _, err := audit.Verify([]string{path}, nil); err != nil {
		t.Fatalf("the cut chain is still a chain: %v", err)
	}
	_, err = audit.Verify([]string{path}, anchors)
	var b *audit.Broken
	// Named at the last line left, after which records are missing (not
	// at a line the file does not have).
	if !errors.As(err, &b) || b.Line != 8 || !strings.Contains(b.Problem, "truncated or rewritten after this line") {
		t.Errorf("Verify with anchors = %v, want line 8, truncated after it", err)
	}
}

// TestAnchorCatchesForgedRecords: a process that appends correctly chained
// records itself (it can: it writes as the same user) leaves them without
// anchors, and verify with the anchors says where they start. An attack
// run forged such a record and verify said ok.
func TestAnchorCatchesForgedRecords(t *testing.T) {
	dir := t.TempDir()
	anchorPath := filepath.Join(dir, "anchors", "guardsh.anchor")
	path := writeLog(t, 5, audit.Options{Anchor: audit.FileAnchor{Path: anchorPath}})
	// The forger appends through the log without anchoring, as a script
	// recomputing the chain would.
	l, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := audit.NewRecord(time.Now())
	rec.User, rec.Cwd, rec.Command, rec.Mode = "u", "/", "echo totally-innocent", "ask"
	rec.Decision, rec.DecidedBy = audit.Allow, "class"
	if err := l.Append(rec); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := audit.Verify([]string{path}, nil); err != nil {
		t.Fatalf("the forged record is chained: %v", err)
	}
	anchors, err := audit.LoadAnchors(anchorPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = audit.Verify([]string{path}, anchors)
	var b *audit.Broken
	if !errors.As(err, &b) || b.Line != 6 || !strings.Contains(b.Problem, "unanchored") {
		t.Errorf("Verify with anchors = %v, want line 6 unanchored", err)
	}
}

func TestReadAnchorsFromSyslogExport(t *testing.T) {
	msg := "<134>1 2026-11-29T21:00:00.000Z host guardsh 42 anchor - " + audit.AnchorMessage("/l/audit.jsonl", "01ID", strings.Repeat("a", 64))
	as, err := audit.ReadAnchors(strings.NewReader("unrelated line\n"+msg+"\n"), "syslog.txt")
	if err != nil || len(as) != 1 || as[0].Hash != strings.Repeat("a", 64) || as[0].Log != "/l/audit.jsonl" || as[0].Line != 2 {
		t.Errorf("ReadAnchors = %+v, %v", as, err)
	}
}

func TestParseAnchor(t *testing.T) {
	if a, err := audit.ParseAnchor("file:/var/log/guardsh.anchor", nil); err != nil || a.(audit.FileAnchor).Path != "/var/log/guardsh.anchor" {
		t.Errorf("file: = %v, %v", a, err)
	}
	for _, bad := range []string{"file:rel/path", "syslog", "s3://x"} {
		if _, err := audit.ParseAnchor(bad, nil); err == nil {
			t.Errorf("ParseAnchor(%q) accepted", bad)
		}
	}
}

func TestVerifiesAnUntouchedLogOf100000Records(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("100,000 records")
	}
	path := writeLog(t, 100_000, audit.Options{})
	start := time.Now()
	v, err := audit.Verify([]string{path}, nil)
	if err != nil || v.Records != 100_000 {
		t.Fatalf("Verify = %+v, %v", v, err)
	}
	t.Logf("verified %d records in %v", v.Records, time.Since(start))
}

// 64 processes append 500 records each at once: 32,000 lines that form
// one linear chain, none lost.
func TestConcurrentProcessesFormOneLinearChain(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("64 processes")
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	runAppenders(t, path, 64, 500, 200)
	checkAppenders(t, path, 64, 500, 200)
	schema := loadSchema(t)
	for i, line := range lines(t, path) {
		if i%997 == 0 { // a sample: every line has the shape Append gives
			if errs := schema.validate(bytes.TrimSuffix(line, []byte("\n"))); len(errs) > 0 {
				t.Errorf("line %d does not validate: %v", i+1, errs)
			}
		}
	}
	v, err := audit.Verify([]string{path}, nil)
	if err != nil || v.Records != 32_000 {
		t.Fatalf("Verify = %+v, %v; want 32000 records in one chain", v, err)
	}
}

// Rotation by size while many processes write keeps one chain across
// the files, and no record is lost.
func TestRotationKeepsTheChainAcrossFiles(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	runAppenders(t, path, 8, 100, 200, "AUDIT_HELPER_MAXBYTES=20000")
	old, err := audit.Rotated(path)
	if err != nil || len(old) < 10 {
		t.Fatalf("rotated files: %v, %v; want at least 10 of 20 kB", old, err)
	}
	for _, f := range append(old, path) {
		if fi, err := os.Stat(f); err != nil || fi.Size() > 20000 {
			t.Errorf("%s: %v, %v bytes; want at most 20000", f, err, fi.Size())
		}
	}
	checkAppenders(t, path, 8, 100, 200, old...)
	v, err := audit.Verify(append(old, path), nil)
	if err != nil || v.Records != 800 {
		t.Fatalf("Verify = %+v, %v", v, err)
	}
	// The log alone starts in the middle of the chain: Verify says a
	// rotated file is missing.
	if _, err := audit.Verify([]string{path}, nil); err == nil || !strings.Contains(err.Error(), "rotated file") {
		t.Errorf("Verify of the newest file alone = %v", err)
	}
}

// BenchmarkAppendChained reports records per second appended to a chained
// log with and without fsync, on this machine's temp file system.
func BenchmarkAppendChained(b *testing.B) {
	for _, sync := range []bool{false, true} {
		b.Run(fmt.Sprintf("fsync=%v", sync), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "audit.jsonl")
			l, err := audit.OpenWith(path, audit.Options{Sync: sync})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			r := helperRecord(1, 0, 200)
			b.ResetTimer()
			for range b.N {
				if err := l.Append(r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// TestRotatedOrder: rotations in one millisecond are numbered after the
// first's name and sort in the order they were made, before any later
// rotation's (their names were once taken from a later clock reading, and
// sorted as text, .10 came before .2: a concurrent test saw records out of
// order).
func TestRotatedOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	want := []string{path + ".20261130T000000.000Z", path + ".20261130T000000.000Z.1", path + ".20261130T000000.000Z.2",
		path + ".20261130T000000.000Z.10", path + ".20261130T000000.001Z"}
	for _, f := range []int{4, 0, 3, 1, 2} {
		if err := os.WriteFile(want[f], nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := audit.Rotated(path)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Rotated = %q, %v; want %q", got, err, want)
	}
}
