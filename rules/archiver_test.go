package rules

import (
	"os"
	"slices"
	"testing"
)

// tar's and rsync's --exclude=PATTERN (rsync's --include=PATTERN) name
// member patterns, no file: a new user's `tar czf out.tgz --exclude=.git
// .` asked as a write of .git in every mode, so the sandbox could not
// take it. The forms that may still be a file operand stay paths.
func TestArchiverExcludePatterns(t *testing.T) {
	ctx := testContext(t, Auto)
	if err := os.MkdirAll(ctx.Workspace+"/.git/hooks", 0o755); err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "mode: auto\nrules:\n  shell:\n    allow: [\"tar *\", \"bsdtar *\", \"rsync *\"]\n")
	for _, tc := range []struct {
		words []string
		want  Decision
	}{
		{[]string{"tar", "czf", "/tmp/out.tgz", "--exclude=.git", "--exclude=node_modules", "."}, Allow},
		{[]string{"rsync", "-a", "--exclude=.git", "--include=*.py", "./", "/tmp/copy/"}, Allow},
		{[]string{"bsdtar", "-czf", "/tmp/o.tgz", "--exclude=.git/*", "."}, Allow},
		// Still paths: the word after a bare --exclude (it may be an
		// operand), a value leading out with "..", a word after "--",
		// an abbreviation (tar's --exclude-f=FILE), another program.
		{[]string{"tar", "-xf", "--exclude", ".git/hooks/pre-commit"}, Ask},
		{[]string{"tar", "xf", "a.tar", "--exclude=x/../../.git"}, Ask},
		{[]string{"tar", "xf", "a.tar", "--", "--exclude=.git"}, Ask},
		{[]string{"tar", "xf", "a.tar", "--exclude-f=.git/config"}, Ask},
		{[]string{"rsync", "-a", "./", ".git/"}, Ask},
		{[]string{"cp", "-r", "--exclude=.git", "."}, Ask},
	} {
		if v := p.Decide(exec(tc.words...), ctx); v.Decision != tc.want {
			t.Errorf("%q: %v (%s), want %v", tc.words, v.Decision, v.Reason, tc.want)
		}
	}
}

// A --exclude= word that may be the value of the option before it (-C,
// -f, a cluster holding f) stays a path (attack run 85 extracted through
// a link named --exclude= into the home).
func TestArchiverExcludeAsValue(t *testing.T) {
	for _, tc := range []struct {
		words []string
		at    []int
	}{
		{[]string{"tar", "czf", "o.tgz", "--exclude=.git", "."}, []int{3}},
		{[]string{"tar", "-x", "-f", "p.tar", "-C", "--exclude="}, nil},
		{[]string{"tar", "cf", "--exclude=/.bashrc", "README.md"}, nil},
		{[]string{"tar", "-xC", "--exclude=/x", "-f", "a.tar"}, nil},
		{[]string{"rsync", "-av", "--delete", "--exclude=.git", "./", "d/"}, []int{3}},
		{[]string{"rsync", "-e", "--exclude=x", "./", "d/"}, nil},
		{[]string{"rsync", "--rsh", "--exclude=x", "./", "d/"}, nil},
	} {
		if got := archiverPatterns(tc.words); !slices.Equal(got, tc.at) {
			t.Errorf("archiverPatterns(%q) = %v, want %v", tc.words, got, tc.at)
		}
	}
}
