package guard

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGlobNowAsGlob: the protected patterns' files are found as
// filepath.Glob finds them — hidden names, a directory matching too,
// character classes, a missing directory, a malformed pattern, a pattern
// in the directory part.
func TestGlobNowAsGlob(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"audit.jsonl", "audit.jsonl.1", "audit.jsonl.2.gz", ".audit.jsonl.x", "other"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "audit.jsonl.d"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"audit.jsonl.*", "*", ".*", "audit.jsonl.[0-9]*", "nothing.*", "[", "missing/*", "*/x", "audit.jsonl.d/*"} {
		p = filepath.Join(dir, p)
		want, _ := filepath.Glob(p)
		if got := globNow(p); !slices.Equal(got, want) {
			t.Errorf("globNow(%q) = %q, filepath.Glob: %q", p, got, want)
		}
	}
}
