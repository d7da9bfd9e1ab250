package sandbox

import (
	"errors"
	"io/fs"
	"testing"
	"time"
)

// TestSameTrustsTimeStampsOnlyWhenTheyCanTell: on a kernel whose change
// times tick coarsely, a file changed just before Keep and changed again,
// same size, by the jailed command keeps every time stamp; Restore then
// compares contents. Renamed into place, it has another inode.
func TestSameTrustsTimeStampsOnlyWhenTheyCanTell(t *testing.T) {
	taken := time.Now()
	kept := []byte("[core]\n\tbare = false\n")
	was := keptFile{exists: true, mode: 0o644, size: int64(len(kept)), mtime: 1, ino: 7, data: kept}
	edited := func() ([]byte, error) { return []byte("[core]\n\thooks=/x/yyy\n"), nil }
	unedited := func() ([]byte, error) { return kept, nil }
	unread := func() ([]byte, error) { t.Error("contents read for a file changed long before Keep"); return nil, nil }
	long, recent := taken.Add(-time.Hour).UnixNano(), taken.Add(-time.Millisecond).UnixNano()

	for _, c := range []struct {
		name     string
		ctime    int64
		now      func(keptFile) keptFile
		contents func() ([]byte, error)
		want     bool
	}{
		{"changed long before, untouched", long, nil, unread, true},
		{"changed long before, renamed over", long, func(k keptFile) keptFile { k.ino = 8; return k }, unread, false},
		{"changed in the tick before Keep, untouched", recent, nil, unedited, true},
		{"changed in the tick before Keep, edited in the same tick", recent, nil, edited, false},
		{"changed after Keep began, edited", taken.Add(time.Millisecond).UnixNano(), nil, edited, false},
		{"changed recently, unreadable", recent, nil, func() ([]byte, error) { return nil, fs.ErrPermission }, false},
	} {
		w := was
		w.ctime = c.ctime
		now := w
		now.data = nil
		if c.now != nil {
			now = c.now(now)
		}
		if got := same(w, now, taken, c.contents); got != c.want {
			t.Errorf("%s: same = %v, want %v", c.name, got, c.want)
		}
	}
	big := was
	big.ctime, big.data = recent, nil
	if same(big, big, taken, func() ([]byte, error) { return nil, errors.New("not read") }) {
		t.Error("a recently changed file whose contents were not kept counted as unchanged")
	}
}
