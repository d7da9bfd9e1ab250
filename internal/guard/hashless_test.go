package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHashless: a password file leaves the jail's hidden paths for its
// kept ones only when no line holds a hash (every account locked or
// without a password) and it is a plain, readable file of at most 1 MiB
// outside the writable directories; any doubt keeps it hidden.
func TestHashless(t *testing.T) {
	dir := t.TempDir()
	etc, ws := filepath.Join(dir, "etc"), filepath.Join(dir, "ws")
	for _, d := range []string{etc, ws} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, data string) string {
		if err := os.WriteFile(path, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
		return path
	}
	locked := "root:*:20000:0:99999:7:::\ndaemon:!:20000::::::\nsys:!*:1::::::\nnopw::1::::::\n"
	cases := []struct {
		name, path string
		kept       bool
	}{
		{"locked and passwordless accounts", write(filepath.Join(etc, "shadow"), locked), true},
		{"gshadow form", write(filepath.Join(etc, "gshadow"), "root:*::\nadm:!::syslog\n"), true},
		{"no final newline", write(filepath.Join(etc, "shadow-"), "root:*:1::::::"), true},
		{"a sha512 hash", write(filepath.Join(etc, "hash"), locked+"dev:$6$salt$abc:20000:0:99999:7:::\n"), false},
		{"a locked account keeping its hash", write(filepath.Join(etc, "lockedhash"), "dev:!$y$j9T$abc:1::::::\n"), false},
		{"a DES hash", write(filepath.Join(etc, "des"), "dev:ab01234567890:1::::::\n"), false},
		{"a line with no second field", write(filepath.Join(etc, "odd"), "root\n"), false},
		{"too big", write(filepath.Join(etc, "big"), strings.Repeat("x:*:1::::::\n", 100000)), false},
		{"beneath a writable directory", write(filepath.Join(ws, "shadow"), locked), false},
		{"missing", filepath.Join(etc, "missing"), false},
	}
	link := filepath.Join(etc, "link")
	if err := os.Symlink(filepath.Join(etc, "shadow"), link); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		name, path string
		kept       bool
	}{"a link to a hashless file", link, false})
	other := filepath.Join(dir, "other")
	write(other, locked)
	var hidden, passwords []string
	for _, c := range cases {
		hidden, passwords = append(hidden, c.path), append(passwords, c.path)
	}
	hidden = append(hidden, other) // not a password file
	stay, kept := hashless(hidden, []string{ws}, passwords)
	for _, c := range cases {
		if got := slices.Contains(kept, c.path); got != c.kept || slices.Contains(stay, c.path) == c.kept {
			t.Errorf("%s: kept %v, hidden %v; want kept %v", c.name, got, slices.Contains(stay, c.path), c.kept)
		}
	}
	if !slices.Contains(stay, other) {
		t.Errorf("a hashless file that is no password file left the hidden paths")
	}
}
