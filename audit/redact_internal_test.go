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

// TestRedactionsFitTheMasks: wordSpans picks the windows to join by
// 64-bit masks of the built-in redactions and their need lists; with
// more of either it joins every window, correct but as slow as before
// the masks.
func TestRedactionsFitTheMasks(t *testing.T) {
	lists, _ := needTables()
	if len(builtinRedactions) > 64 || len(lists) > 64 {
		t.Errorf("%d built-in redactions and %d need lists: the masks of wordMarks hold 64", len(builtinRedactions), len(lists))
	}
}

// TestWordMarksAgreeWithMayHold: a window of words qualifies a redaction
// by its words' marks (see wordSpans) wherever the redaction's mayHold
// holds for the words joined, so that skipping the other windows loses no
// match.
func TestWordMarksAgreeWithMayHold(t *testing.T) {
	texts := []string{
		"curl -u bob:pw https://x", "curl -su 'b o b:pw' x", "docker login -u bob -p S3cret", "mysql -h h -u root -pS3cret db",
		"-H Authorization: Bearer abcdefgh12345678", "echo -----BEGIN RSA PRIVATE KEY----- MIIEabc -----END RSA PRIVATE KEY-----",
		"printf %s private key----- x", "TOKEN = abc", "export API_KEY=abc", "Cookie: a=1; b=2", "curl -b a=1;b=2 x",
		"npm config set //r/:_authToken abc", "git status --short", "source /x/snapshot.sh", "shopt -u extglob", "pwd -P",
		`curl -d {\"password\":\"S\"} x`, "x?token=abc&sig=d", "https://user:pw@host/x", "AKIAABCDEFGHIJKLMNOP", "sshpass -p pw ssh h",
		"vault login s.abc", "htpasswd -b f u pw", "7z a -pS x.7z", "identified by 'pw'", "gh secret set X --body S",
	}
	_, needs := needTables()
	for _, text := range texts {
		words := strings.Fields(text)
		for i := range words {
			for j := i + 1; j <= len(words); j++ {
				lower := strings.ToLower(strings.Join(words[i:j], " "))
				var m wordMarks
				for _, w := range words[i:j] {
					wm := marksOf(strings.ToLower(w))
					m.trig |= wm.trig
					m.needs |= wm.needs
				}
				for k := range builtinRedactions {
					if builtinRedactions[k].mayHold(lower) && (m.trig&(1<<k) == 0 || needs[k]&^m.needs != 0) {
						t.Errorf("%q: %s may hold it, the marks say no", lower, builtinRedactions[k].name)
					}
				}
			}
		}
	}
}

// TestHasUserOption: the need of the user-and-password patterns, against
// the option spellings their expression takes and the words of reasons
// and paths that hold a "-" and a u without being one.
func TestHasUserOption(t *testing.T) {
	for _, s := range []string{"-u", "curl -su x", "x\t-u bob", "--user=x", "a --proxy-user x", "-fsslu", "wget -au$", "x\n-u",
		`curl "-u" b:p`, "curl '-u' b", "curl --proxy-u b:p"} {
		if !hasUserOption(s) {
			t.Errorf("hasUserOption(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "shell-snapshots", "<embedded default>:104", "a-u", "true", "-1u", "-- u", "status", "snapshot-bash-1747.sh", `x"-u"`} {
		if hasUserOption(s) {
			t.Errorf("hasUserOption(%q) = true", s)
		}
	}
}
