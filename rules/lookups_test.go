package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLookupsHas checks that a directory listing only rules out names a
// directory does not hold, and that a plain word naming a symlink in the
// working directory is still resolved (a listing must not hide it).
func TestLookupsHas(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "present"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lk := NewLookups()
	if !lk.has(dir, "present") || lk.has(dir, "absent") {
		t.Errorf("has: present %v absent %v", lk.has(dir, "present"), lk.has(dir, "absent"))
	}
	if lk.has(filepath.Join(dir, "missing"), "x") || lk.has(filepath.Join(dir, "present"), "x") {
		t.Error("a missing directory, or a file, has entries")
	}
	var nilLk *Lookups
	if !nilLk.has(dir, "absent") {
		t.Error("a nil Lookups rules a name out")
	}

	ctx := testContext(t, AskMode)
	if err := os.MkdirAll(filepath.Join(ctx.Home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ctx.Home, ".ssh", "id_rsa"), filepath.Join(ctx.Workspace, "key")); err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "rules:\n  read:\n    deny: [\"~/.ssh/*\"]\n")
	ctx.Lookups = NewLookups()
	for range 2 { // the second time from what Lookups remembers
		if v := p.Decide(exec("cat", "key"), ctx); v.Decision != Deny {
			t.Errorf("cat key (a link to ~/.ssh/id_rsa): %v (%s)", v.Decision, v.Reason)
		}
	}
}
