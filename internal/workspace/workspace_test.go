package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// tree makes dirs (ending in "/") and files under a fresh directory, with
// symlinks resolved, and returns it.
func tree(t *testing.T, entries map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range entries {
		p := filepath.Join(root, name)
		if name[len(name)-1] == '/' {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// gitDir is the least of a repository git itself accepts.
func gitDir(at string) map[string]string {
	return map[string]string{at + "/HEAD": "ref: refs/heads/main\n", at + "/objects/": "", at + "/refs/": ""}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func TestFind(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		dir   string
		// top, root and dirs relative to the tree; "" is the tree itself.
		top, root string
		dirs      []string
		git       []string
	}{
		{
			name:  "a work tree's subdirectory: its top is workspace and root",
			files: merge(map[string]string{"proj/.git/": "", "proj/a/b/": ""}),
			dir:   "proj/a/b", top: "proj", root: "proj", dirs: []string{"proj"}, git: []string{"proj"},
		},
		{
			name:  "an empty .git file an agent touched is no work tree",
			files: map[string]string{"proj/.git/": "", "proj/sub/.git": ""},
			dir:   "proj/sub", top: "proj", root: "proj", dirs: []string{"proj"}, git: []string{"proj/sub", "proj"},
		},
		{
			name:  "a .git file naming no repository is no work tree",
			files: map[string]string{"proj/.git/": "", "proj/sub/.git": "gitdir: ../nothing\n", "proj/nothing/": ""},
			dir:   "proj/sub", top: "proj", root: "proj", dirs: []string{"proj"}, git: []string{"proj/sub", "proj"},
		},
		{
			name:  "a .git file naming a repository is a work tree, nested: it narrows the workspace, the root stays",
			files: merge(map[string]string{"proj/.git/": "", "proj/sub/.git": "gitdir: ../real\n"}, gitDir("proj/real")),
			dir:   "proj/sub", top: "proj/sub", root: "proj", dirs: []string{"proj", "proj/sub"}, git: []string{"proj/sub", "proj"},
		},
		{
			name:  "a nested .git directory: the outer work tree is still the root",
			files: map[string]string{"proj/.git/": "", "proj/sub/.git/": "", "proj/sub/x/": ""},
			dir:   "proj/sub/x", top: "proj/sub", root: "proj", dirs: []string{"proj", "proj/sub"}, git: []string{"proj/sub", "proj"},
		},
		{
			name:  "project files between root and the working directory, and above the root",
			files: map[string]string{"src/.guardsh.yaml": "", "src/proj/.git/": "", "src/proj/a/.guardsh.yaml": "", "src/proj/a/b/": ""},
			dir:   "src/proj/a/b", top: "src/proj", root: "src/proj", dirs: []string{"src", "src/proj", "src/proj/a"}, git: []string{"src/proj"},
		},
		{
			name:  "no work tree: the directory itself, and the project files around it",
			files: map[string]string{"proj/.guardsh.yaml": "", "proj/sub/": ""},
			dir:   "proj/sub", top: "proj/sub", root: "proj/sub", dirs: []string{"proj", "proj/sub"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := tree(t, c.files)
			abs := func(rel []string) []string {
				var out []string
				for _, r := range rel {
					out = append(out, filepath.Join(base, r))
				}
				return out
			}
			l := Find(filepath.Join(base, c.dir), base)
			if want := filepath.Join(base, c.top); l.Top != want {
				t.Errorf("Top = %s, want %s", l.Top, want)
			}
			if want := filepath.Join(base, c.root); l.Root != want {
				t.Errorf("Root = %s, want %s", l.Root, want)
			}
			if want := abs(c.dirs); !slices.Equal(l.Dirs, want) {
				t.Errorf("Dirs = %q, want %q", l.Dirs, want)
			}
			if want := abs(c.git); !slices.Equal(l.Git, want) {
				t.Errorf("Git = %q, want %q", l.Git, want)
			}
		})
	}
}

// TestFindHome: the home directory is no project directory; a work tree
// at home (dotfiles) is the workspace only of what has no inner one, and
// never the root of an inner one.
func TestFindHome(t *testing.T) {
	base := tree(t, map[string]string{"home/.git/": "", "home/.guardsh.yaml": "", "home/proj/.git/": "", "home/proj/sub/.git/": "", "home/notes/": ""})
	home := filepath.Join(base, "home")
	l := Find(filepath.Join(home, "proj/sub"), home)
	if l.Root != home+"/proj" || l.Top != home+"/proj/sub" || !slices.Equal(l.Dirs, []string{home + "/proj", home + "/proj/sub"}) {
		t.Errorf("in a nested work tree below a home work tree: %+v", l)
	}
	l = Find(filepath.Join(home, "notes"), home)
	if l.Top != home || l.Root != home {
		t.Errorf("outside any inner work tree, the home's is the (no) workspace: %+v", l)
	}
}

// TestFindStopsAtSharedDirectory: a .git or .guardsh.yaml in a directory
// others may write (/tmp) belongs to no one's project.
func TestFindStopsAtSharedDirectory(t *testing.T) {
	base := tree(t, map[string]string{"shared/.git/": "", "shared/.guardsh.yaml": "", "shared/proj/x/": ""})
	if err := os.Chmod(filepath.Join(base, "shared"), 0o1777); err != nil {
		t.Fatal(err)
	}
	l := Find(filepath.Join(base, "shared/proj/x"), "")
	want := filepath.Join(base, "shared/proj/x")
	if l.Top != want || l.Root != want || !slices.Equal(l.Dirs, []string{want}) || len(l.Git) != 0 {
		t.Errorf("the search went past a shared directory: %+v", l)
	}
}

// TestIsWorkTreeAsGit checks IsWorkTree against git's own discovery in
// real repositories: `git init`, a linked work tree (`git worktree add`,
// a .git file naming .git/worktrees/NAME), and the forged .git files git
// refuses.
func TestIsWorkTreeAsGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	base := tree(t, map[string]string{"empty/.git": "", "garbage/.git": "not a gitfile\n", "dangling/.git": "gitdir: /nonexistent\n"})
	run := func(dir string, args ...string) error {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES="+base,
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("git %q in %s: %v: %s", args, dir, err, out)
		}
		return err
	}
	if err := run(base, "init", "-q", "repo"); err != nil {
		t.Fatal(err)
	}
	if err := run(filepath.Join(base, "repo"), "commit", "-q", "--allow-empty", "-m", "x"); err != nil {
		t.Fatal(err)
	}
	if err := run(filepath.Join(base, "repo"), "worktree", "add", "-q", "../linked"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir  string
		want bool
	}{{"repo", true}, {"linked", true}, {"empty", false}, {"garbage", false}, {"dangling", false}} {
		dir := filepath.Join(base, c.dir)
		gitSees := run(dir, "rev-parse", "--git-dir") == nil
		if got := IsWorkTree(dir); got != c.want || gitSees != c.want {
			t.Errorf("%s: IsWorkTree = %v, git sees a repository: %v, want %v", c.dir, got, gitSees, c.want)
		}
	}
}

// BenchmarkFind is the search of a command's start from a directory five
// levels below a work tree's top, a nested work tree on the way: what
// guardsh adds to each command for its project directories.
func BenchmarkFind(b *testing.B) {
	base, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(base, "home/proj/a/sub/c/d/e")
	for _, d := range []string{dir, base + "/home/proj/.git", base + "/home/proj/a/sub/.git"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	home := filepath.Join(base, "home")
	for b.Loop() {
		if l := Find(dir, home); l.Root != home+"/proj" {
			b.Fatal(l)
		}
	}
}
