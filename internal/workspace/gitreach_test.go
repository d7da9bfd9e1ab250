package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConfigParameters: GIT_CONFIG_PARAMETERS is read as git writes it,
// quotes inside values included.
func TestConfigParameters(t *testing.T) {
	for in, want := range map[string]string{
		`'a.b'='c'`:                      "a.b=c",
		`'a.b'='c d' 'e.f'='/x'`:         "a.b=c d|e.f=/x",
		`'a.b=c'`:                        "a.b=c",
		`'a.b'`:                          "a.b",
		`'core.pager'='less '\''-R'\'''`: "core.pager=less '-R'",
		``:                               "",
	} {
		if got := strings.Join(ConfigParameters(in), "|"); got != want {
			t.Errorf("ConfigParameters(%s) = %q, want %q", in, got, want)
		}
	}
}

// lookupIn returns a lookup function (as os.LookupEnv) over env.
func lookupIn(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// TestGlobalReach: git itself reads the global, system and environment
// configuration, so the forms a plain reading misses are followed (a
// byte-order mark, a continued line, quotes inside a value, two sections
// on one line, an includeIf condition holding ']'), with every program a
// key git runs names and every hook directory; the variables choosing the
// files are heeded as git heeds them (GIT_CONFIG_NOSYSTEM=false reads the
// system file). Attack-run finds, each a file or program guardsh did not
// protect.
func TestGlobalReach(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := tree(t, map[string]string{
		"home/.gitconfig": "\xef\xbb\xbf[include]\n\tpath = ~/dots/bom\n" +
			"[user] [include] path = ~/dots/oneline\n" +
			"[include]\n\tpath = ~/dots/\\\ncontinued\n" +
			"[include]\n\tpath = ~/dots/\"quoted\"\n" +
			"[includeIf \"gitdir:~/x]y/\"] path = ~/dots/bracket\n" +
			"[core]\n\tfsmonitor = ~/dots/bin/fsmon\n\thooksPath = ~/dots/hooks\n\tpager = less -R\n" +
			"[alias]\n\tst = status\n\tx = \"!sh ~/dots/x.sh --flag\"\n" +
			"[credential \"https://example.com\"]\n\thelper = /opt/helper --store\n" +
			"[init]\n\ttemplateDir = /opt/templates\n" +
			"[safe]\n\tdirectory = /work/proj\n[maintenance]\n\trepo = /work/proj\n",
		"home/dots/bom":         "[diff \"img\"]\n\ttextconv = /opt/exif\n",
		"home/shared.gitconfig": "[include]\n\tpath = proj/.gitlocal\n",
		"sys.gitconfig":         "[include]\n\tpath = /abs/sys.inc\n",
		"home/proj/":            "",
	})
	home := filepath.Join(base, "home")
	d := func(p string) string { return filepath.Join(home, "dots", p) }
	env := map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "PATH": os.Getenv("PATH")}
	r := GlobalReach(home, lookupIn(env), "")
	for _, f := range []string{home + "/.gitconfig", d("bom"), d("oneline"), d("continued"), d("quoted"), d("bracket")} {
		if !slices.Contains(r.Files, f) {
			t.Errorf("Files lacks %s: %q", f, r.Files)
		}
	}
	for _, p := range []string{d("bin/fsmon"), d("x.sh"), "/opt/helper", "/opt/exif"} {
		if !slices.Contains(r.Programs, p) {
			t.Errorf("Programs lacks %s: %q", p, r.Programs)
		}
	}
	if want := []string{d("hooks"), "/opt/templates"}; !slices.Equal(r.Dirs, want) {
		t.Errorf("Dirs = %q, want %q", r.Dirs, want)
	}
	for _, p := range append(append(slices.Clone(r.Files), r.Programs...), r.Dirs...) {
		if strings.HasPrefix(p, "/work/proj") {
			t.Errorf("%s is protected: safe.directory and maintenance.repo name no program", p)
		}
	}

	// The environment's include, and what that file includes; the
	// system file when GIT_CONFIG_NOSYSTEM is false.
	env = map[string]string{"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "false",
		"GIT_CONFIG_SYSTEM": filepath.Join(base, "sys.gitconfig"), "PATH": os.Getenv("PATH"),
		"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "include.path", "GIT_CONFIG_VALUE_0": "~/shared.gitconfig",
		"GIT_CONFIG_KEY_1": "core.fsmonitor", "GIT_CONFIG_VALUE_1": "sh " + d("env-fsmon"),
		"GIT_CONFIG_PARAMETERS": "'core.sshCommand'='" + d("ssh") + " -v'"}
	r = GlobalReach(home, lookupIn(env), "")
	for _, f := range []string{home + "/shared.gitconfig", home + "/proj/.gitlocal", filepath.Join(base, "sys.gitconfig"), "/abs/sys.inc"} {
		if !slices.Contains(r.Files, f) {
			t.Errorf("with the environment's config: Files lacks %s: %q", f, r.Files)
		}
	}
	for _, p := range []string{d("env-fsmon"), d("ssh")} {
		if !slices.Contains(r.Programs, p) {
			t.Errorf("with the environment's config: Programs lacks %s: %q", p, r.Programs)
		}
	}
}

// TestGlobalReachCache: the cached answer is the one computed, and a
// change to any file read (or the appearance of one looked for) is seen
// at once.
func TestGlobalReachCache(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base := tree(t, map[string]string{
		"home/.gitconfig": "[include]\n\tpath = ~/inc\n",
		"home/inc":        "[core]\n\tpager = /opt/pager\n",
	})
	home := filepath.Join(base, "home")
	cache := filepath.Join(base, "state", "gitreach.json")
	env := lookupIn(map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "PATH": os.Getenv("PATH")})
	first := GlobalReach(home, env, cache)
	written := func() map[string]os.FileInfo {
		names, _ := filepath.Glob(filepath.Join(base, "state", "gitreach-*.json"))
		out := map[string]os.FileInfo{}
		for _, n := range names {
			fi, _ := os.Stat(n)
			out[n] = fi
		}
		return out
	}
	if len(written()) != 1 {
		t.Fatalf("cache files written: %v, want one", written())
	}
	if again := GlobalReach(home, env, cache); !slices.Equal(again.Programs, first.Programs) || !slices.Equal(again.Files, first.Files) {
		t.Errorf("cached %+v, computed %+v", again, first)
	}
	// The included file changes: its new program counts.
	if err := os.WriteFile(filepath.Join(home, "inc"), []byte("[core]\n\tfsmonitor = /opt/fsmon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := GlobalReach(home, env, cache); !slices.Contains(r.Programs, "/opt/fsmon") {
		t.Errorf("after a change to an included file: Programs %q", r.Programs)
	}
	// A config file looked for appears (~/.config/git/config).
	if err := os.MkdirAll(filepath.Join(home, ".config", "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "git", "config"), []byte("[core]\n\thooksPath = /opt/hooks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := GlobalReach(home, env, cache); !slices.Contains(r.Dirs, "/opt/hooks") {
		t.Errorf("after ~/.config/git/config appeared: Dirs %q", r.Dirs)
	}
	// The environment's configuration is part of the key.
	env2 := lookupIn(map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "PATH": os.Getenv("PATH"),
		"GIT_CONFIG_PARAMETERS": "'core.editor'='/opt/editor'"})
	if r := GlobalReach(home, env2, cache); !slices.Contains(r.Programs, "/opt/editor") {
		t.Errorf("with GIT_CONFIG_PARAMETERS: Programs %q", r.Programs)
	}
	// Each key keeps its own answer: two environments taking turns
	// write nothing more (they made every other command start git).
	GlobalReach(home, env, cache)
	before := written()
	if len(before) != 2 {
		t.Fatalf("cache files: %v, want one per key", before)
	}
	for range 3 {
		GlobalReach(home, env2, cache)
		GlobalReach(home, env, cache)
	}
	// What guardsh gives every real shell does not change the key: a
	// guardsh inside a command keeps its parent's cache.
	inner := lookupIn(map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "PATH": os.Getenv("PATH"),
		"GIT_CONFIG_PARAMETERS": "'safe.bareRepository'='explicit'"})
	GlobalReach(home, inner, cache)
	after := written()
	for n, fi := range before {
		if !os.SameFile(fi, after[n]) {
			t.Errorf("%s was written again (keys taking turns, or safe.bareRepository)", n)
		}
	}
	if len(after) != 2 {
		t.Errorf("cache files: %v", after)
	}
}

// TestReachCacheRoundTrip: the cache file's format keeps every field,
// paths with spaces, tabs, quotes and newlines included, and anything
// else (an older format, a cut line) is no cache.
func TestReachCacheRoundTrip(t *testing.T) {
	c := reachCache{
		Key:   reachKey{Home: "/home/u", Vars: []string{"", "/x y", "", "1"}, Env: []ConfigEntry{{"core.pager", "less '-R'\t\"x\""}}},
		Files: []fileID{{Path: "/home/u/.gitconfig", Exists: true, Dev: 65024, Ino: 7, Size: 100, Mtime: 1796047456563795039, Ctime: -1}, {Path: "/a\nb"}},
		Reach: GitReach{Files: []string{"/home/u/.gitconfig", "/a\nb"}, Programs: []string{"/x \"y\""}, Dirs: []string{"/h"}, RelDirs: []string{".githooks"}},
	}
	got, ok := decodeReachCache(encodeReachCache(c))
	if !ok || got.Key.Home != c.Key.Home || !slices.Equal(got.Key.Vars, c.Key.Vars) || !slices.Equal(got.Key.Env, c.Key.Env) ||
		!slices.Equal(got.Files, c.Files) || !slices.Equal(got.Reach.Files, c.Reach.Files) || !slices.Equal(got.Reach.Programs, c.Reach.Programs) ||
		!slices.Equal(got.Reach.Dirs, c.Reach.Dirs) || !slices.Equal(got.Reach.RelDirs, c.Reach.RelDirs) {
		t.Errorf("round trip: %+v (ok %v)\nwant %+v", got, ok, c)
	}
	data := encodeReachCache(c)
	var cuts [][]byte
	for n := 2; n < len(data); n++ { // (all but the last newline)
		cuts = append(cuts, data[:len(data)-n]) // every file cut short
	}
	for _, bad := range append(cuts, []byte(`{"key":{}}`), append([]byte(reachCacheHeader+"\nfile \"/x\" 1 2\n"), 0)) {
		if _, ok := decodeReachCache(bad); ok {
			t.Errorf("decoded %q", bad)
		}
	}
}
