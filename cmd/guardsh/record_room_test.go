package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/guardsh/guardsh/audit"
)

// TestRecordGrowthFitsTheRoomKept: what a put-back adds to a record after
// the room for it was lent (audit.Log.Lend keeps twice the record and 64
// KiB) stays within 64 KiB once encoded, whatever paths the command made:
// 20 paths of 4,096 control characters (6 bytes each in JSON) made a
// 421 KB record and it was lost on a full disk (attack run 57).
func TestRecordGrowthFitsTheRoomKept(t *testing.T) {
	rec := &audit.Record{V: 2, ID: "01J0000000000000000000000", Command: "python3 fill.py", Decision: "allow", Sandbox: "workspace"}
	before, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("\x01", 4096)
	var paths []string
	for range listedPaths {
		paths = append(paths, "/ws/.husky/"+long)
	}
	rec.Sandbox += "; restored " + strings.Join(paths, ", ") + "; tampered " + strings.Join(paths, ", ")
	rec.Error = "sandbox unavailable (" + strings.Join(paths, ", ") + ")"
	exit := 126
	s := &shellRun{}
	s.finish(rec, &exit)
	after, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if grew := len(after) - len(before); grew > 64<<10 {
		t.Errorf("the record grew by %d bytes, more than the 64 KiB kept", grew)
	}
	if !strings.Contains(rec.Sandbox, "bytes more)") || !utf8.ValidString(rec.Sandbox) {
		t.Errorf("sandbox note not cut, or cut inside a character: %.80q…", rec.Sandbox)
	}
	if capNote("é"+strings.Repeat("é", maxNote)) == "" || !utf8.ValidString(capNote(strings.Repeat("é", maxNote))) {
		t.Error("capNote cut a character")
	}
}
