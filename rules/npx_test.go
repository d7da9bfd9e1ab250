package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLocalPackageBin: npx's name is taken for the project's installed
// program only where npm exec runs it without a registry — a plain name
// found as a file in node_modules/.bin of the working directory or a
// directory above it up to the workspace root — and the verdict then says
// interpreter, not network; anything npx might fetch stays network.
func TestLocalPackageBin(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	sub := filepath.Join(ws, "packages", "a")
	bin := filepath.Join(ws, "node_modules", ".bin")
	above := filepath.Join(root, "node_modules", ".bin")
	for _, d := range []string{sub, bin, above, filepath.Join(sub, "node_modules", ".bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(bin, "tsc"), filepath.Join(above, "vitest"), filepath.Join(root, "target")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"eslint": "../nowhere/eslint", "biome": bin, "tsx": filepath.Join(root, "target")} {
		if err := os.Symlink(target, filepath.Join(sub, "node_modules", ".bin", name)); err != nil {
			t.Fatal(err)
		}
	}
	tsc := filepath.Join(bin, "tsc")
	for _, tt := range []struct {
		words []string
		cwd   string
		want  string
	}{
		{[]string{"npx", "tsc", "--noEmit"}, ws, tsc},
		{[]string{"npx", "tsc", "--noEmit"}, sub, tsc}, // found walking up
		{[]string{"/usr/bin/npx", "-y", "tsc"}, sub, tsc},
		{[]string{"npx", "--no-install", "--quiet", "tsc"}, ws, tsc},
		{[]string{"npx", "tsx", "x.ts"}, sub, filepath.Join(sub, "node_modules", ".bin", "tsx")}, // a link to a file
		{[]string{"npx", "eslint", "."}, sub, ""},                                                // a dangling link
		{[]string{"npx", "biome"}, sub, ""},                                                      // a link to a directory
		{[]string{"npx", "vitest"}, sub, ""},                                                     // only above the workspace
		{[]string{"npx", "tsc@5"}, ws, ""},                                                       // a version: fetched
		{[]string{"npx", "@scope/tool"}, ws, ""},                                                 // a scoped package
		{[]string{"npx", "-p", "typescript", "tsc"}, ws, ""},
		{[]string{"npx", "--package=typescript", "tsc"}, ws, ""},
		{[]string{"npx", "-c", "tsc"}, ws, ""},
		{[]string{"npx", "./node_modules/.bin/tsc"}, ws, ""},
		{[]string{"npx", "tsc"}, root, ""}, // outside the workspace
		{[]string{"npx", "tsc"}, "", ""},   // a run-time directory
		{[]string{"npx"}, ws, ""},
		{[]string{"bunx", "tsc"}, ws, ""},
		{[]string{"tsc"}, ws, ""},
	} {
		if got := localPackageBin(tt.words, tt.cwd, ws, NewLookups()); got != tt.want {
			t.Errorf("localPackageBin(%q) in %s = %q, want %q", tt.words, tt.cwd, got, tt.want)
		}
	}

	p := Default()
	for _, tt := range []struct {
		cmd  []string
		cwd  string
		want Sensitivity
	}{
		{[]string{"npx", "tsc", "--noEmit"}, sub, Interpreter},
		{[]string{"npx", "tsc@5", "--noEmit"}, sub, Network},
		{[]string{"npx", "tsc", "--noEmit"}, root, Network},
		{[]string{"npx", "playwright", "test"}, ws, Network},
	} {
		ctx := Context{Mode: Auto, Cwd: tt.cwd, Home: filepath.Join(root, "home"), Workspace: ws, Lookups: NewLookups()}
		v := p.Decide(Subject{Kind: KindExec, Words: tt.cmd}, ctx)
		if v.Decision != Ask || v.Sensitivity != tt.want {
			t.Errorf("%q in %s: %s %s (%s), want ask %s", tt.cmd, tt.cwd, v.Decision, v.Sensitivity, v.Reason, tt.want)
		}
		// The verdict depends on the directory: never decided once for all.
		if pr := p.Prepare(Subject{Kind: KindExec, Words: tt.cmd}, ctx); pr.SameIn() {
			t.Errorf("%q: SameIn, but npx finds its program from the working directory", tt.cmd)
		}
	}
}
