// Package workspace finds, for a working directory, the directories
// guardsh's policy depends on: the workspace whose writes mode auto runs,
// the root relative path rules are anchored at, and the project
// directories whose .guardsh.yaml apply.
//
// Every marker it reads (a .git, a .guardsh.yaml) may be of an agent's
// making, so a marker may only narrow the workspace or add project files
// and anchors: a nested work tree never drops the rules of the one around
// it, nor moves where the user's relative rules apply.
package workspace

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ProjectFile is the name of the project layer's config file.
const ProjectFile = ".guardsh.yaml"

// Layout is where the policy of one working directory comes from. All
// paths are absolute and cleaned, as Dir was given (canonical when it was).
type Layout struct {
	// Dir is the working directory.
	Dir string
	// Top is the innermost work tree holding Dir: the nearest directory
	// from Dir up whose .git is a directory or a valid gitdir link (see
	// IsWorkTree), else Dir. It is the default workspace; when it is the
	// home directory or "/", there is none.
	Top string
	// Root is where relative allow rules are anchored (and relative deny
	// and ask rules, among Dirs): the outermost work tree holding Dir
	// below the home directory, else Top. A work tree nested in another
	// (a submodule, or one an agent made with `git init`) has the outer
	// one's Root.
	Root string
	// Dirs are the project directories, outermost first, Root and Top
	// among them: Root, Top, every work tree between Dir and the search's
	// end, and every directory there holding a .guardsh.yaml. Each one's
	// .guardsh.yaml applies (only its ask and deny rules count), and
	// relative deny and ask rules of every layer are anchored at each.
	Dirs []string
	// Git are the directories from Dir up to the search's end that hold
	// a .git of any kind, a broken one included, innermost first: the
	// places whose git config and hooks guardsh protects (a .git file
	// naming a directory that is not yet a repository may become one).
	Git []string
}

// Find returns the Layout of dir, an absolute cleaned path, for the home
// directory home ("" when unknown). The search goes from dir up and ends
// at home (which may still be Top, not Root nor a project directory unless
// it is dir), at "/", or below a directory outside home that others may
// write (mode o+w, such as /tmp: a .git or .guardsh.yaml anyone can make
// there is nobody's project). It costs two lstats per directory, a stat
// per directory outside home up to the outermost marker, and a read of
// each .git that is a file (BenchmarkFind).
func Find(dir, home string) Layout {
	l := Layout{Dir: dir}
	var tops, projects []string // innermost first
	// checked is the outermost directory known to be no one else's (dir
	// itself counts as it is): a marker above it counts once every
	// directory up to the marker's is looked at, so that the search
	// costs no status call above the outermost marker. A directory
	// beneath home is the user's to share or not: not looked at.
	checked := dir
	shared := func(d string) bool {
		for checked != d {
			up := filepath.Dir(checked)
			if (home == "" || !strings.HasPrefix(up, home+"/")) && othersWrite(up) {
				return true
			}
			checked = up
		}
		return false
	}
	for d := dir; ; {
		end := d == home || d == "/"
		fi, gitErr := os.Lstat(filepath.Join(d, ".git"))
		project := (!end || d == dir) && exists(filepath.Join(d, ProjectFile))
		if (gitErr == nil || project) && shared(d) {
			break
		}
		if gitErr == nil {
			l.Git = append(l.Git, d)
			if workTree(d, fi) {
				tops = append(tops, d)
			}
		}
		if project {
			projects = append(projects, d)
		}
		parent := filepath.Dir(d)
		if end || parent == d {
			break
		}
		d = parent
	}
	l.Top = dir
	if len(tops) > 0 {
		l.Top = tops[0]
	}
	l.Root = l.Top
	if l.Top != home && l.Top != "/" {
		for _, t := range tops {
			if t != home && t != "/" {
				l.Root = t // the last one is the outermost
			}
		}
	}
	for _, d := range append(append([]string{l.Root, l.Top}, projects...), tops...) {
		if (d == home || d == "/") && d != l.Top && d != dir {
			continue
		}
		if !slices.Contains(l.Dirs, d) {
			l.Dirs = append(l.Dirs, d)
		}
	}
	// All lie on the line from dir up: the shorter, the further out.
	slices.SortFunc(l.Dirs, func(a, b string) int { return len(a) - len(b) })
	return l
}

// IsWorkTree reports whether dir is the top of a git work tree as git
// itself takes one: dir/.git is a git directory, or a file "gitdir: PATH"
// naming one (gitrepository-layout(5)). An empty .git file, or one naming
// no repository, is none: git refuses to work there, and an agent can
// write such a file with one touch.
func IsWorkTree(dir string) bool {
	fi, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil && workTree(dir, fi)
}

// workTree is IsWorkTree for dir's .git, whose lstat is fi. A .git
// directory counts as it is (only narrowing follows from it: a directory
// an agent made is beneath the outer work tree, whose rules still apply);
// a link to a directory likewise.
func workTree(dir string, fi os.FileInfo) bool {
	git := filepath.Join(dir, ".git")
	switch {
	case fi.IsDir():
		return true
	case fi.Mode()&os.ModeSymlink != 0:
		st, err := os.Stat(git)
		return err == nil && (st.IsDir() || st.Mode().IsRegular() && GitDirOf(dir) != "")
	case fi.Mode().IsRegular():
		return GitDirOf(dir) != ""
	}
	return false
}

// GitDirOf returns the git directory dir/.git names when it is a file
// "gitdir: PATH" (PATH relative to dir, or absolute) and PATH is a git
// directory (IsGitDir), "" otherwise.
func GitDirOf(dir string) string {
	p := GitFileTarget(dir)
	if p == "" || !IsGitDir(p) {
		return ""
	}
	return p
}

// GitFileTarget returns the path a .git file in dir names ("gitdir:
// PATH", made absolute against dir and cleaned), whether or not a
// repository is there; "" when dir/.git is no such file. Only the first
// 4 KiB are read.
func GitFileTarget(dir string) string {
	f, err := os.Open(filepath.Join(dir, ".git"))
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	buf, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(buf), "\n")
	p, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "gitdir:")
	if p = strings.TrimSpace(p); !ok || p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// IsGitDir reports whether d looks like a git directory as git's
// discovery requires (setup.c is_git_directory): a HEAD file, and objects
// and refs directories in d or in the directory its commondir file names
// (a linked work tree's).
func IsGitDir(d string) bool {
	if st, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || !st.Mode().IsRegular() {
		return false
	}
	common := d
	if data, err := os.ReadFile(filepath.Join(d, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(d, c)
		}
		common = c
	}
	return isDir(filepath.Join(common, "objects")) && isDir(filepath.Join(common, "refs"))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// othersWrite reports whether users other than the owner may write dir
// (or it cannot be looked at).
func othersWrite(dir string) bool {
	st, err := os.Stat(dir)
	return err != nil || st.Mode().Perm()&0o002 != 0
}
