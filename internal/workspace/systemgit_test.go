package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGitNotFromPath: the git guardsh runs itself to read a config's
// includes is the system's, never one first on PATH (attack run 84: a
// jailed command wrote .venv/bin/git, which an activated virtual
// environment puts first on PATH, and the next guardsh ran it unjailed).
func TestGitNotFromPath(t *testing.T) {
	if _, err := SystemGit(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	bin := filepath.Join(dir, ".venv", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	cfg := filepath.Join(dir, "config")
	data := []byte("[include]\n\tpath = other\n")
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	got := includePaths(cfg, data)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the git first on PATH ran")
	}
	if len(got) != 1 || got[0] != "other" {
		t.Errorf("includePaths = %q, want [other]", got)
	}
}
