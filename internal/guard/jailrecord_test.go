package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestJailRecordAdds: the record keeps every directory added, once (one
// beneath a recorded one is not added; recorded ones beneath an added one
// go), with links resolved too, and a missing record is empty.
func TestJailRecordAdds(t *testing.T) {
	dir := t.TempDir()
	file := JailRecordFile(filepath.Join(dir, "state", "jails"))
	if got, err := ReadJailRecord(file); err != nil || len(got) != 0 {
		t.Fatalf("missing record: %v, %v", got, err)
	}
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"/home/u/proj/sub", "/var/cache/x"},
		{"/home/u/proj/sub/deeper"}, // beneath a recorded one
		{"/home/u/proj"},            // holds a recorded one
		{link},
	}
	for _, s := range steps {
		if err := AddJailRecord(file, s); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadJailRecord(file)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/var/cache/x", "/home/u/proj", link, real}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("record = %v, want %v", got, want)
	}
	info, err := os.Stat(filepath.Dir(file))
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("the state directory: %v, %v", info, err)
	}
	if err := AddJailRecord("", []string{"/x"}); err == nil {
		t.Error("no record file: recorded nowhere without an error")
	}
}

// TestJailRecordBounded: however many directories are added, the record
// stays within maxRecorded entries and maxRecordBytes, and still names
// every one added (a shrunk record names more, never less).
func TestJailRecordBounded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "written")
	var added []string
	long := strings.Repeat("x", 5000)
	for i := range 150 {
		d := fmt.Sprintf("/home/u/w%d/p%d", i%7, i)
		if i%10 == 0 {
			d = fmt.Sprintf("/srv/%s%d", long, i) // long paths test the byte bound
		}
		added = append(added, d)
		if err := AddJailRecord(file, []string{d}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadJailRecord(file)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if len(got) > maxRecorded || len(data) > maxRecordBytes {
		t.Errorf("record of %d entries, %d bytes: over the bound", len(got), len(data))
	}
	for _, d := range added {
		if !JailWrites(d, got) {
			t.Errorf("%s is no longer named by the record %v", d, got)
		}
	}
	if JailWrites("/etc", got) || JailWrites("/home/v", got) {
		t.Errorf("shrinking went up to the root: %v", got)
	}
}

// TestJailRecordConcurrent: guardsh processes adding at once lose none of
// each other's directories (each adder opens the record and its lock on
// its own, as separate processes do).
func TestJailRecordConcurrent(t *testing.T) {
	file := filepath.Join(t.TempDir(), "written")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- AddJailRecord(file, []string{fmt.Sprintf("/w/%d", i)})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadJailRecord(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		if !JailWrites(fmt.Sprintf("/w/%d", i), got) {
			t.Errorf("/w/%d was lost: %v", i, got)
		}
	}
}

// TestJailRecordUnreadable: a record that cannot be read is an error
// naming the file (and line), never an empty record; adding to it fails
// and leaves it as it is, so it keeps failing closed.
func TestJailRecordUnreadable(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"relative": recordHeader + "/ok\nproj/x\n",
		"unclean":  "/a/../b\n",
		"large":    strings.Repeat("#", maxRecordBytes+1),
		"many":     strings.Repeat("/a\n", maxRecorded+1),
	} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadJailRecord(file); err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: error %v, want one naming %s", name, err, file)
		}
		if err := AddJailRecord(file, []string{"/w"}); err == nil {
			t.Errorf("%s: added to a record that cannot be read", name)
		}
		if data, _ := os.ReadFile(file); string(data) != content {
			t.Errorf("%s: the broken record was rewritten", name)
		}
	}
	if _, err := ReadJailRecord(filepath.Join(dir, "relative")); err == nil || !strings.Contains(err.Error(), ":3:") {
		t.Errorf("the error does not name the line: %v", err)
	}
	if _, err := ReadJailRecord(dir); err == nil {
		t.Error("a directory read as a record without an error")
	}
}
