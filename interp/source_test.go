package interp

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAnalyzeSource(t *testing.T) {
	dir := t.TempDir()
	snap := writeFile(t, dir, "snap.sh", "export A=1\nf() { rm -rf /; }\nls -l\neval 'cat x'\n")
	nested := writeFile(t, dir, "outer.sh", "source "+snap+"\nf\n")
	broken := writeFile(t, dir, "broken.sh", "echo 'open\n")
	via := "source " + snap
	runCases(t, Options{Home: "/home/u"}, []analyzeCase{
		{"a sourced file's commands are segments; its functions are not run", "source " + snap + " && echo hi",
			[]string{"exec source " + snap, "exec {A=1} export via " + via, "exec ls -l via " + via,
				"exec eval \"cat x\" via " + via, "exec cat x via " + via + ",eval", "exec echo hi"}},
		{"a call of a sourced function analyses its body", ". " + snap + "; f; f",
			[]string{"exec . " + snap, "exec {A=1} export via " + via, "exec ls -l via " + via,
				"exec eval \"cat x\" via " + via, "exec cat x via " + via + ",eval", "exec f", "exec rm -rf / via f()", "exec f"}},
		{"a file sourced by a sourced file", "source " + nested,
			[]string{"exec source " + nested, "exec source " + snap + " via source " + nested,
				"exec {A=1} export via source " + nested + "," + via, "exec ls -l via source " + nested + "," + via,
				"exec eval \"cat x\" via source " + nested + "," + via, "exec cat x via source " + nested + "," + via + ",eval",
				"exec f via source " + nested, "exec rm -rf / via source " + nested + ",f()"}},
		{"a relative file is left to the rules", "source snap.sh", []string{"exec source snap.sh"}},
		{"a missing file is left to the rules", "source " + dir + "/none.sh", []string{"exec source " + dir + "/none.sh"}},
	})
	segs, err := Analyze("source "+snap+"; f", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range segs[1:] {
		if s.Sourced != snap && render(s) != "exec f" && !strings.HasSuffix(render(s), "via f()") {
			t.Errorf("%s: Sourced %q, want %q", render(s), s.Sourced, snap)
		}
	}
	for _, s := range segs {
		if (render(s) == "exec f" || s.Args[0].Value == "source") && s.Sourced != "" {
			t.Errorf("%s: Sourced %q, want none: the command text wrote it", render(s), s.Sourced)
		}
	}
	if _, err := Analyze("source "+broken, Options{}); err == nil || !strings.Contains(err.Error(), "source "+broken) {
		t.Errorf("a sourced file that does not parse: err %v, want one naming it", err)
	}
}

// mapCache is a SourceCache in memory that counts its calls.
type mapCache struct {
	mu         sync.Mutex
	m          map[string][]byte
	gets, puts int
}

func (c *mapCache) Get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gets++
	v, ok := c.m[k]
	return v, ok
}

func (c *mapCache) Put(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.puts++
	c.m[k] = v
}

func TestSourceCache(t *testing.T) {
	dir := t.TempDir()
	snap := writeFile(t, dir, "snap.sh", "g() { curl x; }\nalias ll='ls -l'\nmkdir -p /tmp/x\n")
	text := "source " + snap + " && g"
	want, err := Analyze(text, Options{Home: "/home/u"})
	if err != nil {
		t.Fatal(err)
	}
	for name, cache := range map[string]SourceCache{"map": &mapCache{m: map[string][]byte{}}, "dir": DirCache{Dir: filepath.Join(dir, "cache")}} {
		t.Run(name, func(t *testing.T) {
			for run := range 3 {
				got, err := Analyze(text, Options{Home: "/home/u", Sources: cache})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(renderAll(got), renderAll(want)) {
					t.Errorf("run %d with the cache:\n got  %q\n want %q", run, renderAll(got), renderAll(want))
				}
			}
			if mc, ok := cache.(*mapCache); ok && (mc.puts != 2 || mc.gets != 3) {
				t.Errorf("cache: %d puts, %d gets; want 2 (the analysis, the functions) and 3", mc.puts, mc.gets)
			}
		})
	}
	// A changed file is a new key: its new content is analysed.
	writeFile(t, dir, "snap.sh", "g() { curl x; }\nrm -rf /tmp/y\n")
	got, err := Analyze(text, Options{Home: "/home/u", Sources: DirCache{Dir: filepath.Join(dir, "cache")}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(renderAll(got), "\n"), "exec rm -rf /tmp/y") {
		t.Errorf("after the file changed: %q", renderAll(got))
	}
}

func TestDirCacheRefusesOddKeys(t *testing.T) {
	c := DirCache{Dir: t.TempDir()}
	c.Put("../escape", []byte("x"))
	if _, ok := c.Get("../escape"); ok {
		t.Error("a key that is not a hex digest was stored")
	}
	if entries, _ := os.ReadDir(filepath.Dir(c.Dir)); len(entries) != 1 {
		t.Errorf("files next to the cache dir: %d", len(entries))
	}
}

// TestSourceReadsNoDeviceOrKernelFile checks that source of a file that
// could block a reader (a FIFO, /proc, /sys, /dev, or a symlink to one) is
// left to the rules instead of read.
func TestSourceReadsNoDeviceOrKernelFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscallMkfifo(fifo); err != nil {
		t.Skip(err)
	}
	link := filepath.Join(dir, "kmsg")
	if err := os.Symlink("/proc/kmsg", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, link, "/proc/kmsg", "/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled", "/dev/zero"} {
		done := make(chan []Segment, 1)
		go func() {
			segs, _ := Analyze("source "+p, Options{})
			done <- segs
		}()
		select {
		case segs := <-done:
			if len(segs) != 1 {
				t.Errorf("source %s: %q, want only the source segment", p, renderAll(segs))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("source %s: analysis blocked", p)
		}
	}
}

func syscallMkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }

func TestAnalyzeScriptFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "s.sh", "echo hi\nrm -rf /x\n")
	writeFile(t, dir, "x.sh", "#!/usr/bin/env bash\ncurl https://example.com\n")
	writeFile(t, dir, "py.sh", "#!/usr/bin/python3\nprint(1)\n")
	for _, name := range []string{"x.sh", "py.sh"} {
		if err := os.Chmod(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct{ name, src string }{
		{"bash FILE reads the script", "bash s.sh a b"},
		{"sh FILE too, as POSIX sh", "sh ./s.sh"},
		{"a script run by its path through its #! line", "./x.sh"},
		{"another interpreter's script is not read", "./py.sh"},
		{"a script after a cd is not known", "cd sub && bash s.sh"},
		{"a script the command writes is not known", "echo 'rm -rf /' > n.sh; bash n.sh"},
		{"an absolute path is read", "bash " + filepath.Join(dir, "s.sh")},
		{"a script an earlier command writes is not read", "echo 'rm -rf /' > s.sh; bash s.sh"},
		{"nor one an earlier command names", "cp /tmp/evil s.sh && ./x.sh && bash s.sh"},
	}
	want := map[string][]string{
		"bash FILE reads the script":                     {"exec bash s.sh a b", "exec echo hi via bash s.sh", "exec rm -rf /x via bash s.sh"},
		"sh FILE too, as POSIX sh":                       {"exec sh ./s.sh", "exec echo hi via sh ./s.sh", "exec rm -rf /x via sh ./s.sh"},
		"a script run by its path through its #! line":   {"exec ./x.sh", "exec curl https://example.com via ./x.sh"},
		"another interpreter's script is not read":       {"exec ./py.sh"},
		"a script after a cd is not known":               {"exec cd sub", "exec bash s.sh !"},
		"a script the command writes is not known":       {"write n.sh", "exec echo \"rm -rf /\"", "exec bash n.sh !"},
		"a script an earlier command writes is not read": {"write s.sh", "exec echo \"rm -rf /\"", "exec bash s.sh !"},
		"nor one an earlier command names":               {"exec cp /tmp/evil s.sh", "exec ./x.sh", "exec curl https://example.com via ./x.sh", "exec bash s.sh !"},
		"an absolute path is read":                       {"exec bash " + filepath.Join(dir, "s.sh"), "exec echo hi via bash " + filepath.Join(dir, "s.sh"), "exec rm -rf /x via bash " + filepath.Join(dir, "s.sh")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			segs, err := Analyze(c.src, Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			if got := renderRuns(segs); !reflect.DeepEqual(got, want[c.name]) {
				t.Errorf("Analyze(%q):\n got  %q\n want %q", c.src, got, want[c.name])
			}
		})
	}
}

func TestDirCacheIsBounded(t *testing.T) {
	c := DirCache{Dir: t.TempDir()}
	old := time.Now().Add(-time.Hour)
	for i := range maxCacheEntries + 20 {
		key := sourceKey([]byte(strconv.Itoa(i)), "", false)
		c.Put(key, []byte("x"))
		_ = os.Chtimes(filepath.Join(c.Dir, key+".json"), old, old.Add(time.Duration(i)*time.Second))
	}
	newest := sourceKey([]byte("newest"), "", false)
	c.Put(newest, []byte("x"))
	entries, err := os.ReadDir(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > maxCacheEntries {
		t.Errorf("%d entries, want at most %d", len(entries), maxCacheEntries)
	}
	if _, ok := c.Get(newest); !ok {
		t.Error("the newest entry was pruned")
	}
	if _, ok := c.Get(sourceKey([]byte("0"), "", false)); ok {
		t.Error("the oldest entry was kept")
	}
}

// TestScriptAfterEarlierCd checks that a relative script is not read from
// the starting directory once an earlier command (of a script read in
// chunks) may have changed the directory.
func TestScriptAfterEarlierCd(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "s.sh", "echo fine\n")
	segs, err := Analyze("bash s.sh", Options{Dir: dir, DirChanged: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := renderRuns(segs); len(got) != 1 || got[0] != "exec bash s.sh !" {
		t.Errorf("after an earlier cd: %q, want the script unknown", got)
	}
}
