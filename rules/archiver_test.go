package rules

import (
	"os"
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
