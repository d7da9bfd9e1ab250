package audit

import (
	"strings"
	"testing"
)

// unfiltered is String without the triggers: every built-in pattern runs.
func unfiltered(s string) string {
	return (&Redactor{}).redact(s, &bounds{whole: true}, false)
}

var triggerSeeds = []string{
	`curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig" https://api`,
	`PROXY-AUTHORIZATION:token abc`, `git clone https://alice:s3cretpw@github.com/org/repo`,
	`mysql --PassWord hunter2`, `x -client-secret=abc`, `DB_PWD=x`, `export GITHUB_TOKEN=abc123def456`,
	`aws AKIAIOSFODNN7EXAMPLE`, `k=AIzaSyA1234567890abcdefghijklmnopqrstuv`,
	`ghs_abcdefghijklmnopqrstuvwxyz0123456789`, `sk-ant-abcdefghijklmnopqrstuvwxyz`, `xoxb-1234567890-abc`,
	"-----BEGIN RSA PRIVATE KEY-----\nabc", `Api_Key: v`, `credentials=x y`, `git status`, `echo bearer`,
	`docker login -u b -p x r`, `REDIS-CLI -a x`, `zip -P x o`, `7z a -px o`, `ssh-keygen -N x`, `openssl -passin pass:x`,
	`curl -b a=b x`, `gh secret set K --body x`, `smbclient -U a%b`, `htpasswd -b f u p`, `vault login x`,
	`aws configure set aws_secret_access_key x`, `mysql -p'x'`, `x IDENTIFIED BY 'p'`, `curl -d "{\"token\":\"x\"}"`,
}

// TestCommonRecordTextsRunNoPattern: the texts nearly every record holds
// — a rule's reason naming its file, a .env's ask, Claude Code's wrapper
// — hold no pattern's triggers, so redacting them compiles and runs no
// expression (each costs some 0.1 ms on first use, per process).
func TestCommonRecordTextsRunNoPattern(t *testing.T) {
	for _, s := range []string{
		`matches allow rule "/bin/true" (/home/u/.config/guardsh/config.yaml:4)`,
		`argument .env matches read ask rule "/*/.env" (<built-in secrets>)`,
		`source /home/u/.claude/shell-snapshots/snapshot-bash-1-a.sh 2>/dev/null || true && shopt -u extglob 2>/dev/null || true && eval 'git status' \< /dev/null && pwd -P >| /tmp/claude-1-cwd`,
		`git is in the read-only table`,
	} {
		lower := strings.ToLower(s)
		for i := range builtinRedactions {
			if builtinRedactions[i].mayHold(lower) {
				t.Errorf("%q holds a trigger of %s", s, builtinRedactions[i].name)
			}
		}
	}
}

// TestTriggersChangeNothing checks that skipping a pattern whose triggers
// are absent never changes the result: each trigger is in every match.
func TestTriggersChangeNothing(t *testing.T) {
	// The replacement must hold no trigger, or redacting one secret
	// could make a later pattern's skip wrong.
	for _, r := range builtinRedactions {
		for _, tr := range r.triggers {
			if strings.Contains(strings.ToLower(Redacted), tr) {
				t.Errorf("%s: %q holds the trigger %q", r.name, Redacted, tr)
			}
		}
	}
	for _, s := range triggerSeeds {
		if got, want := (&Redactor{}).String(s), unfiltered(s); got != want {
			t.Errorf("String(%q) = %q, unfiltered %q", s, got, want)
		}
	}
}

func FuzzTriggersChangeNothing(f *testing.F) {
	for _, s := range triggerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := (&Redactor{}).String(s), unfiltered(s); got != want {
			t.Errorf("String(%q) = %q, unfiltered %q", s, got, want)
		}
	})
}
