package rules

import (
	"strings"
	"testing"
)

// A program that runs code given in an argument is sensitive and is not
// allowed by an allow rule that does not name that argument; one written
// for it allows it, and the same programs without such an argument keep
// their allow rules.
func TestRunsArgument(t *testing.T) {
	p := mustParse(t, `
rules:
  shell:
    allow: ["python3 *", "node *", "perl *", "ruby *", "sed -n *", "sed *", "awk *", "find *", "grep *", "tar *",
            "git *", "sort *", "man *", "rsync *", "zip *", "ruby *", "php *", "lua *", "deno *", "bun *",
            "python3 -c print(1)", "git -c core.pager=less *"]
`)
	ctx := testContext(t, AskMode)
	cases := []struct {
		words []string
		want  Decision
	}{
		{[]string{"python3", "-c", "import os; os.system('rm -rf /')"}, Ask},
		{[]string{"python3", "-Sc", "x"}, Ask},
		{[]string{"python3", "-c", "print(1)"}, Allow}, // a rule written for it
		{[]string{"python3", "script.py", "-c", "x"}, Allow},
		{[]string{"python3", "-m", "pytest", "-c", "x"}, Allow},
		{[]string{"python3", "-X", "importtime", "-c", "x"}, Ask},
		{[]string{"python3", "-Wignore", "-uc", "x"}, Ask},
		{[]string{"perl", "-MData::Dumper", "script.pl"}, Allow},
		{[]string{"perl", "-MData::Dumper", "-le", "print"}, Ask},
		{[]string{"ruby", "-E", "UTF-8", "app.rb"}, Allow},
		{[]string{"node", "-e", "require('child_process')"}, Ask},
		{[]string{"node", "--eval=x"}, Ask},
		{[]string{"node", "app.js"}, Allow},
		{[]string{"perl", "-ne", "print"}, Ask},
		// sed's -i takes the rest of its cluster as a suffix: the script
		// is the next word (attack run 79).
		{[]string{"sed", "-iex", "1e ln -s ~ d1", "f"}, Ask},
		{[]string{"sed", "-iex", "s/a/b/", "f"}, Allow},
		{[]string{"perl", "-pi", "-e", "s/a/b/", "f"}, Ask},
		{[]string{"ruby", "-e", "x"}, Ask},
		{[]string{"php", "-r", "x"}, Ask},
		{[]string{"lua", "-e", "x"}, Ask},
		{[]string{"deno", "eval", "x"}, Ask},
		{[]string{"bun", "-e", "x"}, Ask},
		{[]string{"sed", "-n", "/error/p", "logs/app.log"}, Allow},
		{[]string{"sed", "s/a/b/g", "f"}, Allow},
		{[]string{"sed", "-e", "s/a/b/;s/c/d/", "f"}, Allow},
		{[]string{"sed", "s/a/id/e", "f"}, Ask},
		{[]string{"sed", "1e id", "f"}, Ask},
		{[]string{"sed", "-n", "w /tmp/out", "f"}, Ask},
		{[]string{"sed", "-e", "s/x/y/w out", "f"}, Ask},
		{[]string{"sed", "--sandbox", "s/a/b/", "f"}, Allow},
		{[]string{"sed", "-i", "/x/a \\\n    def test(self):\\\n        pass", "f.py"}, Allow},
		{[]string{"sed", "/x/a \\\n  text\n1e id", "f"}, Ask},
		{[]string{"awk", "{print $1}", "f"}, Allow},
		{[]string{"awk", "$3 > 100 || $2 == 1 {print}", "f"}, Allow},
		{[]string{"awk", "BEGIN{system(\"rm -rf /\")}"}, Ask},
		{[]string{"awk", "{print | \"sh\"}"}, Ask},
		{[]string{"awk", "{print > \"/etc/x\"}"}, Ask},
		{[]string{"awk", "BEGIN{\"id\" | getline x}"}, Ask},
		{[]string{"find", "src", "-name", "*.js", "-exec", "grep", "-l", "x", "{}", ";"}, Allow},
		{[]string{"find", ".", "-fprintf", "/etc/x", "%p"}, Ask},
		{[]string{"tar", "--checkpoint-action=exec=sh", "-cf", "x.tar", "."}, Ask},
		{[]string{"tar", "--checkpoint-action=echo", "-cf", "x.tar", "."}, Allow},
		{[]string{"tar", "--to-com=sh", "-xf", "x.tar"}, Ask},
		{[]string{"tar", "-xIzstd", "-f", "x.tar"}, Ask},
		{[]string{"tar", "-czf", "x.tgz", "src"}, Allow},
		{[]string{"sort", "--compress-program=sh", "f"}, Ask},
		{[]string{"man", "-P", "sh", "ls"}, Ask},
		{[]string{"rsync", "-e", "ssh -p 2", "a", "b:c"}, Ask},
		{[]string{"rsync", "-av", "a", "b"}, Allow},
		{[]string{"zip", "-TT", "sh", "x.zip", "f"}, Ask},
		{[]string{"git", "-c", "alias.x=!rm -rf /", "x"}, Ask},
		{[]string{"git", "-c", "alias.st=status", "st"}, Allow},
		{[]string{"git", "-c", "core.sshCommand=ssh -i k", "fetch"}, Ask},
		{[]string{"git", "-c", "core.pager=less", "log"}, Allow}, // a rule written for it
		{[]string{"git", "-c", "color.ui=always", "log"}, Allow},
		{[]string{"git", "log", "--oneline"}, Allow},
	}
	for _, c := range cases {
		t.Run(joinWords(c.words), func(t *testing.T) {
			v := p.Decide(exec(c.words...), ctx)
			if v.Decision != c.want {
				t.Errorf("Decide(%q) = %v (%s), want %v", c.words, v.Decision, v.Reason, c.want)
			}
			if v.Decision == Ask && v.Suggest != "" {
				if got := mustParse(t, "rules:\n  shell:\n    allow: ['"+strings.ReplaceAll(v.Suggest, "'", "''")+"']\n").Decide(exec(c.words...), ctx); got.Decision != Allow {
					t.Errorf("suggested %q does not allow %q: %s", v.Suggest, c.words, got.Reason)
				}
			}
		})
	}
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += " "
		}
		out += w
	}
	return out
}

// Assignments that change what runs make a segment ask, even under an allow
// rule that matches its words; inert ones do not.
func TestEnvironmentThatChangesWhatRuns(t *testing.T) {
	p := mustParse(t, `
rules:
  shell:
    allow: ["git log *", "less *", "make *"]
    deny: ["rm -rf *"]
`)
	ctx := testContext(t, AskMode)
	cases := []struct {
		assigns []string
		words   []string
		want    Decision
	}{
		{[]string{"NO_COLOR=1", "LANG=C"}, []string{"git", "log", "--oneline", "-5"}, Allow},
		{[]string{"TZ=UTC", "LC_ALL=C", "CI=1"}, []string{"git", "log"}, Allow},
		{[]string{"LD_PRELOAD=/tmp/x.so"}, []string{"git", "log"}, Ask},
		{[]string{"LD_LIBRARY_PATH=/tmp"}, []string{"git", "log"}, Ask},
		{[]string{"BASH_ENV=/tmp/x"}, []string{"make"}, Ask},
		{[]string{"ENV=/tmp/x"}, []string{"make"}, Ask},
		{[]string{"PROMPT_COMMAND=x"}, []string{"make"}, Ask},
		{[]string{"PATH=/tmp/bin:/usr/bin"}, []string{"make"}, Ask},
		{[]string{"GIT_SSH_COMMAND=sh"}, []string{"git", "log"}, Ask},
		{[]string{"GIT_EXTERNAL_DIFF=sh"}, []string{"git", "log"}, Ask},
		{[]string{"GIT_PAGER=sh"}, []string{"git", "log"}, Ask},
		{[]string{"PAGER=sh"}, []string{"git", "log"}, Ask},
		{[]string{"EDITOR=sh"}, []string{"make"}, Ask},
		{[]string{"VISUAL=sh"}, []string{"make"}, Ask},
		{[]string{"SHELLOPTS=xtrace"}, []string{"make"}, Ask},
		{[]string{"BASHOPTS=x"}, []string{"make"}, Ask},
		{[]string{"IFS=/"}, []string{"make"}, Ask},
		{[]string{"LESSOPEN=|sh %s"}, []string{"less", "f"}, Ask},
		{[]string{"GIT_CONFIG_PARAMETERS='core.pager'='sh'"}, []string{"git", "log"}, Ask},
		{[]string{"SUDO_ASKPASS=/tmp/x"}, []string{"make"}, Ask},
		{[]string{"GCONV_PATH=/tmp"}, []string{"make"}, Ask},
		{nil, []string{"export", "PATH=/tmp:/usr/bin"}, Ask},
		{nil, []string{"export", "LD_PRELOAD"}, Ask},
		{nil, []string{"declare", "-x", "BASH_ENV=/tmp/x"}, Ask},
		{nil, []string{"export", "LANG=C"}, Allow},
	}
	for _, c := range cases {
		t.Run(joinWords(append(append([]string(nil), c.assigns...), c.words...)), func(t *testing.T) {
			s := exec(c.words...)
			s.Assigns = c.assigns
			for _, mode := range []Mode{AskMode, Bypass} {
				ctx.Mode = mode
				v := p.Decide(s, ctx)
				if v.Decision != c.want {
					t.Errorf("mode %s: Decide(%q %q) = %v (%s), want %v", mode, c.assigns, c.words, v.Decision, v.Reason, c.want)
				}
			}
		})
	}
}

// ssh is not in the read-only table: its segment is sensitive, whatever
// the remote command (which package interp analyses as segments of their
// own).
func TestSSHIsSensitive(t *testing.T) {
	ctx := testContext(t, AskMode)
	v := Default().Decide(exec("ssh", "host", "ls"), ctx)
	if v.Class != Sensitive || v.Decision != Ask {
		t.Errorf("ssh host ls: %v %s (%s)", v.Decision, v.Class, v.Reason)
	}
}
