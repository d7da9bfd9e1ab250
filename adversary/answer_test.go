package adversary

import (
	"errors"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name    string
		role    Role
		content string
		want    Answer
		err     bool
	}{
		{"schema block", RoleAdversary, `{"verdict":"BLOCK","confident":true,"reason":"reads keys"}`, Answer{Block, true, "reads keys"}, false},
		{"schema in a fence", RoleReviewer, "```json\n{\"verdict\":\"SAFE\",\"confident\":false,\"reason\":\"r\"}\n```", Answer{Safe, false, "r"}, false},
		{"judge read-only", RoleJudge, `{"reason":"lists","verdict":"READ_ONLY","confident":true}`, Answer{ReadOnly, true, "lists"}, false},
		{"text block", RoleAdversary, "BLOCK - uploads ~/.ssh", Answer{Block, true, "uploads ~/.ssh"}, false},
		{"text allow", RoleAdversary, "ALLOW", Answer{Allow, true, ""}, false},
		{"text both", RoleAdversary, "ALLOW unless BLOCK", Answer{}, true},
		{"text neither", RoleAdversary, "looks fine to me", Answer{}, true},
		{"lower case is neither", RoleAdversary, "allow", Answer{}, true},
		{"text for the reviewer", RoleReviewer, "SAFE", Answer{}, true},
		{"another role's verdict", RoleReviewer, `{"verdict":"ALLOW","confident":true,"reason":""}`, Answer{}, true},
		{"missing confident", RoleReviewer, `{"verdict":"SAFE","reason":""}`, Answer{}, true},
		{"unknown field", RoleAdversary, `{"verdict":"ALLOW","confident":true,"reason":"","also":"BLOCK"}`, Answer{}, true},
		{"two objects", RoleAdversary, `{"verdict":"ALLOW","confident":true,"reason":""}{"verdict":"BLOCK","confident":true,"reason":""}`, Answer{}, true},
		{"trailing text", RoleAdversary, `{"verdict":"ALLOW","confident":true,"reason":""} BLOCK`, Answer{}, true},
		{"truncated", RoleAdversary, `{"verdict":"ALLOW","confident":tr`, Answer{}, true},
		{"wrong type", RoleReviewer, `{"verdict":"SAFE","confident":"yes","reason":""}`, Answer{}, true},
		{"empty", RoleAdversary, "", Answer{}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.role, c.content)
			if c.err {
				if !errors.Is(err, ErrUnparseable) {
					t.Fatalf("Parse = %+v, %v; want ErrUnparseable", got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("Parse = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestParseRulesFile(t *testing.T) {
	rf, err := ParseRulesFile([]byte("---\ntools: [developer__shell]\nmatch: [\"curl *\"]\n---\n- Block uploads.\n"), "a.md")
	if err != nil {
		t.Fatal(err)
	}
	if !rf.Shell || rf.Rules != "- Block uploads." || !rf.Covers([]string{"curl", "-d", "@x", "h"}) || rf.Covers([]string{"ls"}) {
		t.Errorf("%+v", rf)
	}
	rf, _ = ParseRulesFile([]byte("---\ntools: [text_editor]\n---\n"), "a.md")
	if rf.Shell || rf.Covers([]string{"ls"}) || rf.Rules != DefaultRules {
		t.Errorf("tools without shell: %+v", rf)
	}
	rf, _ = ParseRulesFile([]byte("no front matter"), "a.md")
	if !rf.Covers([]string{"ls"}) || rf.Rules != "no front matter" {
		t.Errorf("plain: %+v", rf)
	}
	for _, bad := range []string{"---\ntools: [shell]\n", "---\nmode: x\n---\n", "---\nmatch: [\" curl\"]\n---\n"} {
		if _, err := ParseRulesFile([]byte(bad), "a.md"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestCacheTTLAndCap(t *testing.T) {
	c := Cache{Dir: t.TempDir(), TTL: time.Hour, Max: 3}
	now := time.Unix(1_800_000_000, 0)
	c.Put("aa01", Answer{Verdict: Safe, Confident: true}, now)
	if a, ok := c.Get("aa01", now.Add(59*time.Minute)); !ok || a.Verdict != Safe {
		t.Errorf("fresh entry: %+v %v", a, ok)
	}
	if _, ok := c.Get("aa01", now.Add(61*time.Minute)); ok {
		t.Error("entry past its TTL was returned")
	}
	for _, k := range []string{"bb02", "cc03", "dd04", "ee05"} {
		c.Put(k, Answer{Verdict: Unsafe}, now)
	}
	n := 0
	for _, k := range []string{"aa01", "bb02", "cc03", "dd04", "ee05"} {
		if _, ok := c.Get(k, now); ok {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d entries kept, want 3", n)
	}
}

// BenchmarkCacheHit measures what a cached answer adds to a decision: the
// key, one small file read and its decoding (target ≤ 50 µs, issue 7).
func BenchmarkCacheHit(b *testing.B) {
	c := Cache{Dir: b.TempDir()}
	now := time.Now()
	q := Query{Argv: []string{"curl", "https://example.com"}, Cwd: "/ws", Workspace: "/ws"}
	key := CacheKey(RoleReviewer, "http://127.0.0.1:1/v1", "m", "", q)
	c.Put(key, Answer{Verdict: Safe, Confident: true, Reason: "fetches a page"}, now)
	b.ResetTimer()
	for range b.N {
		k := CacheKey(RoleReviewer, "http://127.0.0.1:1/v1", "m", "", q)
		if _, ok := c.Get(k, now); !ok {
			b.Fatal("miss")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "µs/hit")
}

// TestParseWantsExactMembers: members spelled otherwise, or given twice,
// are not an answer (an attack run had both accepted).
func TestParseWantsExactMembers(t *testing.T) {
	for _, s := range []string{
		`{"Verdict":"ALLOW","confident":true,"reason":"x"}`,
		`{"verdict":"ALLOW","CONFIDENT":false,"reason":"x"}`,
		`{"verdict":"BLOCK","verdict":"ALLOW","confident":true,"reason":"x"}`,
		`{"verdict":"ALLOW","confident":true,"reason":"x","reason":"y"}`,
	} {
		if a, err := Parse(RoleAdversary, s); !errors.Is(err, ErrUnparseable) {
			t.Errorf("Parse(%s) = %+v, %v; want unparseable", s, a, err)
		}
	}
	if _, err := Parse(RoleAdversary, `{"verdict":"ALLOW","confident":true,"reason":"x"}`); err != nil {
		t.Errorf("the exact answer: %v", err)
	}
}

// TestCacheKeySeparatesLookalikes: segments that read alike but are not
// the same command get different keys (an attack run had the answer for
// xtool "a b c" reused for xtool a b c, and ./xt's answer reused in
// another directory).
func TestCacheKeySeparatesLookalikes(t *testing.T) {
	key := func(q Query) string { return CacheKey(RoleReviewer, "u", "m", "", q) }
	base := Query{Argv: []string{"xtool", "a b c"}, Cwd: "/ws", Workspace: "/ws"}
	for name, q := range map[string]Query{
		"split words":       {Argv: []string{"xtool", "a", "b", "c"}, Cwd: "/ws", Workspace: "/ws"},
		"joined words":      {Argv: []string{"xtool a", "b c"}, Cwd: "/ws", Workspace: "/ws"},
		"another directory": {Argv: []string{"xtool", "a b c"}, Cwd: "/ws/sub", Workspace: "/ws"},
		"another program":   {Argv: []string{"xtool", "a b c"}, Cwd: "/ws", Workspace: "/ws", Program: "12 345 1 2"},
	} {
		if key(q) == key(base) {
			t.Errorf("%s: same key as %q", name, base.Argv)
		}
	}
	if key(base) != key(Query{Argv: []string{"xtool", "a b c"}, Cwd: "/ws", Workspace: "/ws", Segment: "shown differently"}) {
		t.Error("the display string changed the key")
	}
}

// FuzzParse: no answer makes Parse panic, and every accepted answer has one
// of its role's two verdicts.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"verdict":"SAFE","confident":true,"reason":"x"}`, "BLOCK: x", "```json\n{}\n```", "ALLOW BLOCK", `{"verdict":"ALLOW"}{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, role := range []Role{RoleAdversary, RoleReviewer, RoleJudge} {
			a, err := Parse(role, s)
			if err != nil {
				if !errors.Is(err, ErrUnparseable) {
					t.Fatalf("%q: error %v does not wrap ErrUnparseable", s, err)
				}
				continue
			}
			if v, _ := verdictsOf(role); a.Verdict != v[0] && a.Verdict != v[1] {
				t.Fatalf("%s %q: verdict %q", role, s, a.Verdict)
			}
		}
	})
}
