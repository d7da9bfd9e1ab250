package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestListingProvesMissing: a directory's listing proves a kept name
// missing only when no entry could be that name to a lookup on a
// case-insensitive file system (attack run 54 planted .MCP.json for a
// kept .mcp.json on one: the byte-for-byte listing let it stay) or on a
// Windows share (a trailing dot or space), and a directory holding a name
// that is not plain ASCII (Unicode folding, normalization) is not
// trusted at all: each name is looked up.
func TestListingProvesMissing(t *testing.T) {
	for _, tt := range []struct {
		name    string
		entries []string
		kept    string
		missing bool // the listing proves kept missing
		listed  bool // the listing is used at all
	}{
		{"absent", []string{"README.md", "src", "a", "b", "c"}, ".mcp.json", true, true},
		{"present", []string{".mcp.json", "a", "b", "c", "d"}, ".mcp.json", false, true},
		{"another case", []string{".MCP.json", "a", "b", "c", "d"}, ".mcp.json", false, true},
		{"upper case kept", []string{"head", "a", "b", "c", "d"}, "HEAD", false, true},
		{"trailing dot", []string{"HEAD.", "a", "b", "c", "d"}, "HEAD", false, true},
		{"trailing space", []string{"lefthook.yml ", "a", "b", "c", "d"}, "lefthook.yml", false, true},
		{"a name not plain ASCII", []string{"\u212aeep", "a", "b", "c", "d"}, ".mcp.json", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, e := range tt.entries {
				if err := os.WriteFile(filepath.Join(dir, e), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			id, ok := idOf(dir)
			if !ok {
				t.Fatal("no identity for", dir)
			}
			var paths []string
			for _, n := range []string{tt.kept, "x1", "x2", "x3", "x4"} { // more than listAbove
				paths = append(paths, filepath.Join(dir, n))
			}
			listed := keptIn(paths, map[string]dirID{dir: id})
			if _, used := listed[dir]; used != tt.listed {
				t.Errorf("listing used: %v, want %v", used, tt.listed)
			}
			if got := listedMissing(listed, paths[0]); got != tt.missing {
				t.Errorf("listedMissing(%s) = %v, want %v", tt.kept, got, tt.missing)
			}
		})
	}
}
