package sandbox_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/guardsh/guardsh/internal/sandbox"
	"golang.org/x/sys/unix"
)

// TestKeepRestore: what changed among kept paths is put back — a changed
// file, a removed file, a new file, a new entry of a kept directory — and
// reported; what did not change is left alone.
func TestKeepRestore(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	gone := filepath.Join(dir, "settings.json")
	absent := filepath.Join(dir, "tasks.json")
	same := filepath.Join(dir, "same")
	hooks := filepath.Join(dir, "hooks")
	must(t, os.MkdirAll(hooks, 0o755))
	must(t, os.WriteFile(cfg, []byte("[core]\n"), 0o644))
	must(t, os.WriteFile(gone, []byte("{}"), 0o600))
	must(t, os.WriteFile(same, []byte("x"), 0o644))
	must(t, os.WriteFile(filepath.Join(hooks, "pre-push"), []byte("#!/bin/sh\n"), 0o755))
	k := sandbox.Keep(dir, []string{cfg, gone, absent, same}, []string{hooks, filepath.Join(dir, "missing-dir")})

	must(t, os.WriteFile(cfg, []byte("[core]\n\tfsmonitor = evil\n"), 0o644))
	must(t, os.Remove(gone))
	must(t, os.WriteFile(absent, []byte("{}"), 0o644))
	must(t, os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("evil"), 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "pre-push"), []byte("evil too"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "missing-dir"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "missing-dir", "x"), nil, 0o644))

	got, tampered := k.Restore()
	if len(tampered) > 0 {
		t.Errorf("tampered = %q", tampered)
	}
	want := []string{cfg, filepath.Join(hooks, "pre-commit"), filepath.Join(hooks, "pre-push"), filepath.Join(dir, "missing-dir", "x"), gone, absent}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Restore = %q\nwant %q", got, want)
	}
	for p, content := range map[string]string{cfg: "[core]\n", gone: "{}", filepath.Join(hooks, "pre-push"): "#!/bin/sh\n", same: "x"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != content {
			t.Errorf("%s = %q, %v; want %q", p, b, err, content)
		}
	}
	if info, err := os.Stat(gone); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("%s not restored with its mode: %v %v", gone, info, err)
	}
	for _, p := range []string{absent, filepath.Join(hooks, "pre-commit"), filepath.Join(dir, "missing-dir", "x")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if again, _ := k.Restore(); len(again) != 0 {
		t.Errorf("second Restore = %q", again)
	}
}

// TestRestoreRewrittenAsItWas: a protected file written anew with what it
// held — git rewrites .git/config through a lock file and a rename on
// `git branch -d` — is no change (a new user's find: the branch was
// deleted and the command still exited 126, "put back: .git/config").
// Rewritten with another mode, or with a second name (a hard link the jail
// made to a workspace file a later unjailed write could change), it is.
func TestRestoreRewrittenAsItWas(t *testing.T) {
	dir := t.TempDir()
	cfg, moded, linked := filepath.Join(dir, "config"), filepath.Join(dir, "moded"), filepath.Join(dir, "linked")
	content := []byte("[core]\n\tbare = false\n")
	for _, p := range []string{cfg, moded, linked} {
		must(t, os.WriteFile(p, content, 0o644))
	}
	k := sandbox.Keep(dir, []string{cfg, moded, linked}, nil)
	rewrite := func(p string, mode os.FileMode) {
		t.Helper()
		must(t, os.WriteFile(p+".lock", content, mode))
		must(t, os.Chmod(p+".lock", mode))
		must(t, os.Rename(p+".lock", p))
	}
	rewrite(cfg, 0o644)
	rewrite(moded, 0o600)
	rewrite(linked, 0o644)
	must(t, os.Link(linked, filepath.Join(dir, "other-name")))
	got, tampered := k.Restore()
	if want := []string{linked, moded}; !slices.Equal(got, want) || len(tampered) > 0 {
		t.Errorf("Restore = %q, %q; want %q", got, tampered, want)
	}
	// The rewritten file is what the next Restore compares: no change.
	if again, _ := k.Restore(); len(again) != 0 {
		t.Errorf("second Restore = %q", again)
	}
	// A change of its contents after that is one.
	must(t, os.WriteFile(cfg, []byte("[core]\n\tfsmonitor = evil\n"), 0o644))
	if got, _ := k.Restore(); !slices.Equal(got, []string{cfg}) {
		t.Errorf("Restore after an edit = %q", got)
	}
}

// TestRestoreFollowsNoReplacedDirectory: a jailed command that replaces a
// directory holding protected paths (.git, .git/hooks) with a symbolic link
// elsewhere gets nothing deleted or written there by Restore, which runs
// outside the jail; the replaced directory is reported. An attack run
// found Restore deleting and writing files through such a link.
func TestRestoreFollowsNoReplacedDirectory(t *testing.T) {
	for _, replace := range []string{"hooks", "git"} {
		t.Run(replace, func(t *testing.T) {
			ws := t.TempDir()
			victim := t.TempDir()
			git := filepath.Join(ws, ".git")
			hooks := filepath.Join(git, "hooks")
			cfg := filepath.Join(git, "config")
			must(t, os.MkdirAll(hooks, 0o755))
			must(t, os.WriteFile(cfg, []byte("[core]\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(hooks, "pre-push"), []byte("#!/bin/sh\n"), 0o755))
			// The victim directory mirrors the names Restore knows.
			must(t, os.WriteFile(filepath.Join(victim, "secret"), []byte("keep me"), 0o600))
			must(t, os.WriteFile(filepath.Join(victim, "config"), []byte("victim's"), 0o600))
			must(t, os.WriteFile(filepath.Join(victim, "pre-push"), []byte("victim's"), 0o600))
			k := sandbox.Keep(ws, []string{cfg}, []string{hooks})

			// What the jailed command does.
			if replace == "hooks" {
				must(t, os.Rename(hooks, filepath.Join(git, "hooks-old")))
				must(t, os.Symlink(victim, hooks))
			} else {
				must(t, os.Rename(git, filepath.Join(ws, "gitreal")))
				must(t, os.Symlink(victim, git))
			}
			changed, tampered := k.Restore()
			want := hooks
			if replace == "git" {
				want = git
			}
			if !slices.Contains(tampered, want) {
				t.Errorf("tampered = %q, want %s among them (changed %q)", tampered, want, changed)
			}
			for name, content := range map[string]string{"secret": "keep me", "config": "victim's", "pre-push": "victim's"} {
				if b, err := os.ReadFile(filepath.Join(victim, name)); err != nil || string(b) != content {
					t.Errorf("Restore changed %s beyond the link: %q, %v", name, b, err)
				}
			}
		})
	}
}

// TestKeepRestoreNested: a kept directory's subdirectories are kept too —
// a changed file one level down is put back, a new file there removed —
// and a subdirectory whose only change is a new entry is not reported as
// not restored (an attack run changed guarded/sub/deep.txt unseen).
func TestKeepRestoreNested(t *testing.T) {
	dir := t.TempDir()
	guarded := filepath.Join(dir, "guarded")
	deep := filepath.Join(guarded, "sub", "deep.txt")
	must(t, os.MkdirAll(filepath.Dir(deep), 0o755))
	must(t, os.WriteFile(deep, []byte("orig"), 0o644))
	k := sandbox.Keep(dir, nil, []string{guarded})

	must(t, os.WriteFile(deep, []byte("tampered"), 0o644))
	must(t, os.WriteFile(filepath.Join(guarded, "sub", "new.txt"), []byte("x"), 0o644))
	changed, tampered := k.Restore()
	if b, _ := os.ReadFile(deep); string(b) != "orig" {
		t.Errorf("deep.txt = %q, want it put back", b)
	}
	if _, err := os.Lstat(filepath.Join(guarded, "sub", "new.txt")); err == nil {
		t.Error("new.txt is still there")
	}
	for _, c := range changed {
		if strings.Contains(c, "not restored") {
			t.Errorf("reported %q", c)
		}
	}
	if len(tampered) > 0 || len(changed) != 2 {
		t.Errorf("changed %q, tampered %q", changed, tampered)
	}
}

// TestRestoreWritesThroughNoPlantedLink: a link planted where a fixed
// temporary name would be is not written through (an attack run had the
// put-back overwrite a file outside the workspace so), and a same-size
// edit with its modification time put back is still seen and undone.
func TestRestoreWritesThroughNoPlantedLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	must(t, os.WriteFile(victim, []byte("victim's"), 0o600))
	cfg := filepath.Join(dir, "config")
	must(t, os.WriteFile(cfg, []byte("[core]\n\tbare = false\n"), 0o644))
	k := sandbox.Keep(dir, []string{cfg}, nil)

	info, _ := os.Stat(cfg)
	must(t, os.Symlink(victim, cfg+".guardsh-restore"))
	// Same size, and the old modification time put back.
	must(t, os.WriteFile(cfg, []byte("[core]\n\thooks=/x/yyy\n"), 0o644))
	must(t, os.Chtimes(cfg, info.ModTime(), info.ModTime()))

	changed, _ := k.Restore()
	if len(changed) != 1 || changed[0] != cfg {
		t.Errorf("changed = %q, want the config", changed)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "[core]\n\tbare = false\n" {
		t.Errorf("config = %q, want it put back", b)
	}
	if fi, err := os.Lstat(cfg); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("config is not a regular file: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "victim's" {
		t.Errorf("the put-back wrote through the planted link: %q", b)
	}
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o600 {
		t.Errorf("the victim's mode changed: %v", fi.Mode())
	}
}

// TestQuarantine: a replaced directory is moved aside as it is (a link
// stays a link, what it led to is untouched), never onto an existing
// name, and nothing outside the workspace is moved.
func TestQuarantine(t *testing.T) {
	root := t.TempDir()
	ws, out := filepath.Join(root, "ws"), filepath.Join(root, "out")
	for _, d := range []string{filepath.Join(ws, ".git"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "pre-commit"), []byte("evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(ws, ".git", "hooks")
	if err := os.Symlink(out, hooks); err != nil {
		t.Fatal(err)
	}
	to, err := sandbox.Quarantine(hooks, ws)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(to, hooks+".guardsh-tampered-") {
		t.Errorf("moved to %s", to)
	}
	if _, err := os.Lstat(hooks); !os.IsNotExist(err) {
		t.Errorf(".git/hooks is still there: %v", err)
	}
	if fi, err := os.Lstat(to); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was not moved as a link: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(out, "pre-commit")); err != nil {
		t.Errorf("what the link led to changed: %v", err)
	}
	// The same name again: a new one, the first move stays.
	if err := os.Symlink(out, hooks); err != nil {
		t.Fatal(err)
	}
	to2, err := sandbox.Quarantine(hooks, ws)
	if err != nil || to2 == to {
		t.Errorf("second move: %s, %v", to2, err)
	}
	if _, err := sandbox.Quarantine(out, ws); err == nil {
		t.Error("moved a directory outside the workspace")
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the directory outside the workspace is gone: %v", err)
	}
}

// TestRestoreRacedStaysInside: a process that keeps swapping .git/hooks
// for a link to a directory outside the workspace while Restore runs (an
// attack run's survivor did, and Restore deleted and wrote files beyond
// the link between its check and its change) gets nothing outside the
// workspace changed, however the race falls.
func TestRestoreRacedStaysInside(t *testing.T) {
	ws, victim := t.TempDir(), t.TempDir()
	hooks := filepath.Join(ws, ".git", "hooks")
	must(t, os.MkdirAll(hooks, 0o755))
	must(t, os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(victim, "victim-file"), []byte("keep me"), 0o600))
	aside, link := filepath.Join(ws, ".git", "hooks-real"), filepath.Join(ws, ".git", "hooks-link")
	must(t, os.Symlink(victim, link))
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			// hooks ⇄ link, then back, as fast as it goes.
			if os.Rename(hooks, aside) == nil {
				os.Rename(link, hooks)
				os.Rename(hooks, link)
				os.Rename(aside, hooks)
			}
		}
	}()
	// The jailed command writes only inside the workspace: a Root of it.
	jail, err := os.OpenRoot(ws)
	must(t, err)
	defer jail.Close()
	for range 300 {
		k := sandbox.Keep(ws, nil, []string{hooks})
		// What the command does: a new hook, a changed one.
		jail.WriteFile(".git/hooks/victim-file", []byte("x"), 0o644)
		jail.WriteFile(".git/hooks/pre-commit", []byte("#!/bin/sh\nevil\n"), 0o755)
		k.Restore()
	}
	close(stop)
	<-done
	ents, _ := os.ReadDir(victim)
	if b, err := os.ReadFile(filepath.Join(victim, "victim-file")); err != nil || string(b) != "keep me" || len(ents) != 1 {
		names := []string{}
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("Restore changed the directory outside the workspace: %q, %v, entries %q", b, err, names)
	}
}

// TestRestoreDirectoryModes: directories on the way to kept paths get
// their modes back, first, so that what they hold can be put back (a
// jailed command's chmod 555 of .git and .git/hooks kept its planted
// hook and config from the put-back, as a user other than root).
func TestRestoreDirectoryModes(t *testing.T) {
	ws := t.TempDir()
	git := filepath.Join(ws, ".git")
	hooks := filepath.Join(git, "hooks")
	cfg := filepath.Join(git, "config")
	must(t, os.MkdirAll(hooks, 0o755))
	must(t, os.WriteFile(cfg, []byte("[core]\n"), 0o644))
	k := sandbox.Keep(ws, []string{cfg}, []string{hooks})

	must(t, os.WriteFile(cfg, []byte("[core]\n\tfsmonitor = evil\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("evil"), 0o755))
	must(t, os.Chmod(hooks, 0o555))
	must(t, os.Chmod(git, 0o555))
	t.Cleanup(func() { os.Chmod(git, 0o755); os.Chmod(hooks, 0o755) })

	changed, tampered := k.Restore()
	if len(tampered) > 0 {
		t.Errorf("tampered = %q", tampered)
	}
	for _, d := range []string{git, hooks} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755 back (%v)", d, fi.Mode().Perm(), err)
		}
	}
	if b, _ := os.ReadFile(cfg); string(b) != "[core]\n" {
		t.Errorf("config = %q, not put back", b)
	}
	if _, err := os.Lstat(filepath.Join(hooks, "post-checkout")); err == nil {
		t.Error("the planted hook is still there")
	}
	if s := strings.Join(changed, "\n"); !strings.Contains(s, git+" (mode)") || !strings.Contains(s, hooks+" (mode)") {
		t.Errorf("changed = %q: the modes are not reported", changed)
	}
}

// TestRestoreKeepsALinkedHooksDirectory: a .git/hooks that was already a
// link when the record was taken (to hooks kept with the project) is not
// "replaced" when it is still that link: nothing is moved aside when the
// command changed nothing (every jailed command did so, an attack run's
// find), and a hook planted through it is removed. When what it links to
// lies outside the workspace, where the put-back does not reach, a hook
// planted there makes the link tampered (moved aside by guardsh), and so
// does a link swapped for another.
func TestRestoreKeepsALinkedHooksDirectory(t *testing.T) {
	for _, c := range []struct {
		name string
		// absolute: the link names its target by an absolute path,
		// which the put-back (through an os.Root of the workspace) does
		// not follow; outside: the target lies outside the workspace.
		absolute, outside bool
		change            func(t *testing.T, hooks, target string)
		changed, tamper   bool
	}{
		{name: "unchanged", change: func(*testing.T, string, string) {}},
		{name: "unchanged, absolute", absolute: true, change: func(*testing.T, string, string) {}},
		{name: "hook planted through the link", changed: true,
			change: func(t *testing.T, hooks, _ string) {
				must(t, os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("evil"), 0o755))
			}},
		{name: "hook planted through an absolute link", absolute: true, changed: true, tamper: true,
			change: func(t *testing.T, hooks, _ string) {
				must(t, os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("evil"), 0o755))
			}},
		{name: "hook planted outside the workspace", absolute: true, outside: true, changed: true, tamper: true,
			change: func(t *testing.T, _, target string) {
				must(t, os.WriteFile(filepath.Join(target, "pre-commit"), []byte("evil"), 0o755))
			}},
		{name: "link swapped", tamper: true,
			change: func(t *testing.T, hooks, target string) {
				must(t, os.Remove(hooks))
				must(t, os.Symlink(filepath.Join(target, "..", filepath.Base(target)), hooks))
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			ws := filepath.Join(root, "ws")
			target := filepath.Join(ws, ".githooks")
			if c.outside {
				target = filepath.Join(root, "shared-hooks")
			}
			must(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
			must(t, os.MkdirAll(target, 0o755))
			must(t, os.WriteFile(filepath.Join(target, "pre-push"), []byte("#!/bin/sh\n"), 0o755))
			hooks := filepath.Join(ws, ".git", "hooks")
			link := "../.githooks"
			if c.absolute {
				link = target
			}
			must(t, os.Symlink(link, hooks))
			// Older than the time stamps' grain (see coarseTime), as a
			// project's hooks are.
			time.Sleep(60 * time.Millisecond)
			k := sandbox.Keep(ws, nil, []string{hooks})
			c.change(t, hooks, target)
			got, tampered := k.Restore()
			if (len(got) > 0) != c.changed {
				t.Errorf("changed = %q", got)
			}
			if want := c.tamper; (len(tampered) > 0) != want || want && tampered[0] != hooks {
				t.Errorf("tampered = %q, want %v", tampered, want)
			}
			if c.changed && !c.tamper {
				if _, err := os.Lstat(filepath.Join(target, "pre-commit")); err == nil {
					t.Error("the planted hook is still there")
				}
			}
		})
	}
}

// TestRestoreNeverBlocks: a FIFO made where a kept directory was (reached
// through a link Keep saw unchanged: .git/hooks linking to ../githooks,
// githooks replaced) held guardsh before the put-back and the record,
// forever, and the next jailed command's Keep too (an attack run's find).
func TestRestoreNeverBlocks(t *testing.T) {
	ws := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	must(t, os.Mkdir(filepath.Join(ws, "githooks"), 0o755))
	hooks := filepath.Join(ws, ".git", "hooks")
	must(t, os.Symlink("../githooks", hooks))
	k := sandbox.Keep(ws, nil, []string{hooks})
	must(t, os.Remove(filepath.Join(ws, "githooks")))
	must(t, syscall.Mkfifo(filepath.Join(ws, "githooks"), 0o644))
	done := make(chan struct{})
	go func() {
		k.Restore()
		sandbox.Keep(ws, nil, []string{hooks})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Restore or Keep is blocked on a FIFO")
	}
}

// TestRestoreFollowsNoSwappedWorkspace: a workspace swapped for a link to
// another repository after the record (by a jailed command of a workspace
// around it) is not put back through the link — the other repository's
// .git/config was overwritten with the record and its .git moved aside
// (an attack run's finds) — but reported as replaced; moving aside
// follows no link either.
func TestRestoreFollowsNoSwappedWorkspace(t *testing.T) {
	root := t.TempDir()
	ws, other := filepath.Join(root, "ws"), filepath.Join(root, "other")
	for _, d := range []string{ws, other} {
		must(t, os.MkdirAll(filepath.Join(d, ".git"), 0o755))
		must(t, os.WriteFile(filepath.Join(d, ".git", "config"), []byte("["+filepath.Base(d)+"]\n"), 0o644))
	}
	cfg := filepath.Join(ws, ".git", "config")
	k := sandbox.Keep(ws, []string{cfg}, []string{filepath.Join(ws, ".git", "hooks")})
	must(t, os.WriteFile(cfg, []byte("[core]\n\tfsmonitor = evil\n"), 0o644))
	must(t, os.Rename(ws, ws+".real"))
	must(t, os.Symlink(other, ws))
	_, tampered := k.Restore()
	if !slices.Equal(tampered, []string{ws}) {
		t.Errorf("tampered = %q, want the workspace", tampered)
	}
	if b, _ := os.ReadFile(filepath.Join(other, ".git", "config")); string(b) != "[other]\n" {
		t.Errorf("the other repository's config is %q", b)
	}
	if _, err := sandbox.Quarantine(filepath.Join(ws, ".git"), ws); err == nil {
		t.Error("Quarantine moved a .git through a link")
	}
	if _, err := os.Stat(filepath.Join(other, ".git")); err != nil {
		t.Errorf("the other repository's .git: %v", err)
	}
}

// TestRestoreMovesAsideWhatWasTooBigToKeep: a protected file too big to
// have been kept (a .git/config of 1,500 branches) that the command
// changed was reported "not restored" and kept its planted core.fsmonitor
// (an attack run's find): it is moved aside, so that it no longer applies.
func TestRestoreMovesAsideWhatWasTooBigToKeep(t *testing.T) {
	ws := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	cfg := filepath.Join(ws, ".git", "config")
	big := strings.Repeat("[branch \"b\"]\n\tremote = origin\n", 5000)
	must(t, os.WriteFile(cfg, []byte(big), 0o644))
	time.Sleep(60 * time.Millisecond) // older than the time stamps' grain
	k := sandbox.Keep(ws, []string{cfg}, nil)
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString("[core]\n\tfsmonitor = evil\n")
	must(t, err)
	must(t, f.Close())
	changed, _ := k.Restore()
	if len(changed) != 1 || !strings.Contains(changed[0], "moved aside") {
		t.Errorf("changed = %q", changed)
	}
	if _, err := os.Lstat(cfg); err == nil {
		t.Error("the changed config is still in place")
	}
	moved, _ := filepath.Glob(cfg + ".guardsh-changed-*")
	if len(moved) != 1 {
		t.Fatalf("moved aside: %q", moved)
	}
	if b, _ := os.ReadFile(moved[0]); !strings.Contains(string(b), "fsmonitor = evil") {
		t.Error("what was moved aside is not the changed config")
	}
}

// TestRestoreMakesLinksAgain: a kept symbolic link (a dotfiles
// repository's gitconfig linking on to its real place, which ~/.gitconfig
// leads through) that was replaced by a file, another link or a directory
// is made again as it was, and reported; one left alone is not.
func TestRestoreMakesLinksAgain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace func(t *testing.T, p string)
	}{
		{"by a file", func(t *testing.T, p string) {
			must(t, os.Remove(p))
			must(t, os.WriteFile(p, []byte("[core]\n\tfsmonitor = evil\n"), 0o644))
		}},
		{"by another link", func(t *testing.T, p string) {
			must(t, os.Remove(p))
			must(t, os.Symlink("evil/gitconfig", p))
		}},
		{"by a directory", func(t *testing.T, p string) {
			must(t, os.Remove(p))
			must(t, os.MkdirAll(filepath.Join(p, "sub"), 0o755))
		}},
		{"removed", func(t *testing.T, p string) { must(t, os.Remove(p)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			must(t, os.MkdirAll(filepath.Join(dir, "real"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, "real", "gitconfig"), []byte("[user]\n"), 0o644))
			link, other := filepath.Join(dir, "gitconfig"), filepath.Join(dir, "bashrc")
			must(t, os.Symlink("real/gitconfig", link))
			must(t, os.Symlink("real/bashrc", other))
			k := sandbox.Keep(dir, []string{link, other}, nil)
			tc.replace(t, link)
			got, tampered := k.Restore()
			if len(tampered) > 0 || !slices.Equal(got, []string{link}) {
				t.Errorf("Restore = %q, tampered %q; want %q", got, tampered, link)
			}
			if to, err := os.Readlink(link); err != nil || to != "real/gitconfig" {
				t.Errorf("%s links to %q (%v), want real/gitconfig", link, to, err)
			}
			if again, _ := k.Restore(); len(again) != 0 {
				t.Errorf("a second Restore changed %q", again)
			}
		})
	}
}

// TestRestoreOnAFullDisk: a protected file the command changed, which
// cannot be written back because the command filled the file system, is
// moved aside (a rename needs no room), so that git does not run what was
// planted in it (an attack run left a .git/config with a core.fsmonitor in
// place, "not restored").
func TestRestoreOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=1048576"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	cfg := filepath.Join(dir, "config")
	must(t, os.WriteFile(cfg, bytes.Repeat([]byte("# kept\n"), 2000), 0o644))
	k := sandbox.Keep(dir, []string{cfg}, nil)
	must(t, os.WriteFile(cfg+".new", []byte("[core]\n\tfsmonitor = evil\n"), 0o644))
	must(t, os.Rename(cfg+".new", cfg))
	f, err := os.Create(filepath.Join(dir, "fill"))
	must(t, err)
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	f.Close()
	got, _ := k.Restore()
	if len(got) != 1 || !strings.Contains(got[0], "moved aside") {
		t.Fatalf("Restore = %q, want the planted file moved aside", got)
	}
	if b, err := os.ReadFile(cfg); err == nil && strings.Contains(string(b), "evil") {
		t.Fatal("the planted config is still in place")
	}
}

// TestKeepRestoreManyInOneDirectory: a directory holding many kept paths
// (a workspace's root: some forty settings files, most missing) is told
// by its listing, and a big one (thousands of entries) by one lookup per
// path; either way a file made where one was missing is removed, a
// changed one put back, and one still missing is left so.
func TestKeepRestoreManyInOneDirectory(t *testing.T) {
	for name, others := range map[string]int{"listed": 0, "too big to list": 3000} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for i := range others {
				must(t, os.WriteFile(filepath.Join(dir, "other"+strings.Repeat("-", 20)+string(rune('a'+i%26))+strings.Repeat("x", i/26)), nil, 0o644))
			}
			var files []string
			for _, name := range []string{".mcp.json", "opencode.json", "lefthook.yml", ".crush.json", "crush.json", ".aider.conf.yml", "HEAD"} {
				files = append(files, filepath.Join(dir, name))
			}
			must(t, os.WriteFile(files[6], []byte("ref: x\n"), 0o644))
			k := sandbox.Keep(dir, files, nil)
			must(t, os.WriteFile(files[0], []byte("{}"), 0o644))
			must(t, os.WriteFile(files[3], []byte("{}"), 0o644))
			must(t, os.WriteFile(files[6], []byte("ref: evil\n"), 0o644))
			got, tampered := k.Restore()
			want := []string{files[0], files[3], files[6]}
			slices.Sort(want)
			if len(tampered) > 0 || !slices.Equal(got, want) {
				t.Errorf("Restore = %q, %q; want %q", got, tampered, want)
			}
			for _, p := range files[:6] {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s is left", p)
				}
			}
			if b, err := os.ReadFile(files[6]); err != nil || string(b) != "ref: x\n" {
				t.Errorf("HEAD = %q, %v", b, err)
			}
			if got, _ := k.Restore(); len(got) > 0 {
				t.Errorf("Restore again = %q, want nothing", got)
			}
		})
	}
}

// TestKeepOverflow: a record that leaves entries out says which directory
// it stopped in (attack run 77: past 4,096 entries a change was silently
// not put back); one that holds them all says nothing.
func TestKeepOverflow(t *testing.T) {
	dir := t.TempDir()
	small, big, hooks := filepath.Join(dir, "small"), filepath.Join(dir, "vendor"), filepath.Join(dir, "hooks")
	for _, d := range []string{small, big, hooks} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(small, "a"), nil, 0o644))
	if got := sandbox.Keep(dir, nil, []string{small, hooks}).Overflow(); got != "" {
		t.Errorf("a record of one entry: Overflow = %q", got)
	}
	for i := range sandbox.MaxKeptEntries + 1 {
		must(t, os.WriteFile(filepath.Join(big, "f"+strconv.Itoa(i)), nil, 0o644))
	}
	if got := sandbox.Keep(dir, nil, []string{small, big, hooks}).Overflow(); got != big {
		t.Errorf("a record past MaxKeptEntries: Overflow = %q, want %q", got, big)
	}
	var none *sandbox.Kept
	if got := none.Overflow(); got != "" {
		t.Errorf("no record: Overflow = %q", got)
	}
}
