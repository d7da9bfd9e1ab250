package audit

import (
	"encoding/hex"
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

// TestParseIPv6 checks the IPv6 text forms syslog destinations take
// (RFC 4291 2.2) against their bytes.
func TestParseIPv6(t *testing.T) {
	good := map[string]string{
		"::1":                   "00000000000000000000000000000001",
		"::":                    "00000000000000000000000000000000",
		"fe80::1:2":             "fe800000000000000000000000010002",
		"2001:db8:0:0:1:0:0:1":  "20010db8000000000001000000000001",
		"2001:DB8::":            "20010db8000000000000000000000000",
		"::ffff:192.0.2.1":      "00000000000000000000ffffc0000201",
		"1:2:3:4:5:6:7:8":       "00010002000300040005000600070008",
		"1:2:3:4:5:6:192.0.2.1": "000100020003000400050006c0000201",
		"1::8":                  "00010000000000000000000000000008",
		"0001:0002::0007:0008":  "00010002000000000000000000070008",
	}
	for in, want := range good {
		ip, ok := parseIPv6(in)
		if got := hex.EncodeToString(ip[:]); !ok || got != want {
			t.Errorf("parseIPv6(%q) = %s, %v; want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"", ":", "1", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::",
		"::1%eth0", "1:2:3:4:5:6:7::8", "::192.0.2.1.5", "192.0.2.1::", "+1::", "0x1::", "1:2:3:4:5:6:7:192.0.2.1", ":1::", "1:::2"} {
		if ip, ok := parseIPv6(in); ok {
			t.Errorf("parseIPv6(%q) = %x, want refused", in, ip)
		}
	}
}
