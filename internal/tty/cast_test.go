package tty

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readCast(t *testing.T, path string) (Header, []Event) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, rd, err := NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for {
		e, err := rd.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			return h, evs
		}
		evs = append(evs, e)
	}
}

// TestRecorderKeepsUTF8Whole: a character cut between two reads is
// written whole in the later event; bytes that are not UTF-8 become
// U+FFFD; input is left out unless asked for.
func TestRecorderKeepsUTF8Whole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.cast")
	r, err := Create(path, Header{Width: 80, Height: 24}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	r.Output([]byte("caf\xc3"))
	r.Output([]byte("\xa9 \xff!"))
	r.Input([]byte("password\r"))
	r.Resize(100, 30)
	r.Output([]byte("\xe2\x82")) // cut at the end: written as U+FFFD on Close
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	h, evs := readCast(t, path)
	if h.Version != 2 || h.Width != 80 || h.Height != 24 {
		t.Errorf("header %+v", h)
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.Code+":"+e.Data)
	}
	want := []string{"o:caf", "o:é \uFFFD!", "r:100x30", "o:\uFFFD\uFFFD"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
}

// TestRecorderCap: past its cap the recorder writes the truncation marker
// and nothing more; Play reports it.
func TestRecorderCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.cast")
	const max = 4096
	r, err := Create(path, Header{Width: 80, Height: 24}, max, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		r.Output([]byte("0123456789\r\n"))
	}
	if !r.Truncated() {
		t.Error("not truncated")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if info.Size() > max+80 {
		t.Errorf("file of %d bytes, cap %d", info.Size(), max)
	}
	_, evs := readCast(t, path)
	if last := evs[len(evs)-1]; last.Code != "m" || last.Data != TruncatedMarker {
		t.Errorf("last event %+v", last)
	}
	f, _ := os.Open(path)
	defer f.Close()
	var out bytes.Buffer
	res, err := Play(&out, f, PlayOptions{Speed: 1000})
	if err != nil || !res.Truncated || !strings.HasPrefix(out.String(), "0123456789\r\n") {
		t.Errorf("play: %v, %+v", err, res)
	}
}

// TestFailingRecorderKeepsCommand: a recorder whose file fails under it
// loses the recording, not the command or its output.
func TestFailingRecorderKeepsCommand(t *testing.T) {
	o := newOuter(t, 24, 80)
	rec, err := Create(filepath.Join(t.TempDir(), "r.cast"), Header{Width: 80, Height: 24}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	rec.f.Close() // every write to the file fails from here on
	status := run(t, o, rec, nil, `seq 50000; echo end-of-output`, nil)
	if status != 0 {
		t.Errorf("status %d", status)
	}
	o.waitFor(`50000\r\nend-of-output\r\n`)
	if rec.Err() == nil {
		t.Error("the recorder reports no error")
	}
	if err := rec.Close(); err == nil {
		t.Error("Close reports no error")
	}
}

func TestOpenRecording(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recordings")
	r, name, err := OpenRecording(dir, "01ABC", Header{Width: 1, Height: 1}, 0, false)
	if err != nil || name != "01ABC.cast" {
		t.Fatalf("%q %v", name, err)
	}
	r.Close()
	if info, _ := os.Stat(dir); info.Mode().Perm() != 0o700 {
		t.Errorf("dir mode %v", info.Mode().Perm())
	}
	// The same id again: never overwritten.
	if _, _, err := OpenRecording(dir, "01ABC", Header{Width: 1, Height: 1}, 0, false); err == nil {
		t.Error("an existing recording was opened again")
	}
	for _, id := range []string{"", "../x", "a/b", "x.cast", "a b"} {
		if _, _, err := OpenRecording(dir, id, Header{}, 0, false); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
	// A link where the directory belongs is refused.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenRecording(link, "01ABC", Header{}, 0, false); err == nil || !strings.Contains(err.Error(), "not a directory of this user") {
		t.Errorf("a link as the directory: %v", err)
	}
}
