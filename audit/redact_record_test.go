package audit_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
	"mvdan.cc/sh/v3/syntax"
)

// writeDecided decides each command with the real analysis and the
// embedded default policy, as guardsh does, appends its record to a new
// log through red, and returns the records read back.
func writeDecided(t *testing.T, red *audit.Redactor, commands ...string) ([]*audit.Record, string) {
	t.Helper()
	dir := t.TempDir()
	p := rules.Default()
	g := &guard.Guard{Policy: p, PolicyFile: p.File,
		Context:  rules.Context{Cwd: dir, Home: dir, Workspace: dir, Root: dir},
		Analysis: interp.Options{Home: dir, Dir: dir, Env: func(string) (string, bool) { return "", false }}}
	path := filepath.Join(dir, "audit.jsonl")
	l, err := audit.OpenWith(path, audit.Options{Redact: red})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range commands {
		rec := audit.NewRecord(time.Now())
		rec.User, rec.Cwd, rec.Mode = "dev", dir, "ask"
		rec.Argv = []string{"guardsh", "-c", c}
		rec.Command = c
		g.Evaluate(c).Record(rec)
		if err := l.Append(rec); err != nil {
			t.Fatal(err)
		}
	}
	var out []*audit.Record
	if err := audit.ScanFiles([]string{path}, func(_ string, _ int, r *audit.Record) error {
		out = append(out, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(commands) {
		t.Fatalf("%d records read back, %d written", len(out), len(commands))
	}
	return out, path
}

// TestRedactionHidesNoCommand: a secret's redaction ends with the word
// that holds it, so every command after or around it stays in the record
// (an attack run hid `touch hidden.txt` behind `echo Cookie: a;`). Each
// case's secrets are gone from the whole line, its kept texts are in the
// command, and its segments are all there.
func TestRedactionHidesNoCommand(t *testing.T) {
	red, err := audit.NewRedactor([]string{`corp-.*`})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("S3CRETlong", 2000)
	tests := []struct {
		name     string
		command  string
		secrets  []string
		keep     []string
		segments []string // argv joined, each of which the record must hold
	}{
		{"a Cookie header's value ends with its word", `echo Cookie: S3CRETc; touch hidden.txt`,
			[]string{"S3CRETc"}, []string{"; touch hidden.txt"}, []string{"touch hidden.txt"}},
		{"BEGIN and END lines around commands are no key", `echo -----BEGIN RSA PRIVATE KEY-----; touch h2; echo -----END RSA PRIVATE KEY-----`,
			nil, []string{"RSA PRIVATE KEY-----; touch h2; echo -----END RSA PRIVATE KEY-----"}, []string{"touch h2"}},
		{"a script given to eval keeps its commands", `eval 'echo Cookie: S3CRETe; touch h3'`,
			[]string{"S3CRETe"}, []string{"; touch h3'"}, []string{"eval echo Cookie: [REDACTED]; touch h3", "touch h3"}},
		{"Claude Code's wrapper keeps the command it runs",
			`source /home/u/.claude/shell-snapshots/snapshot-bash-1.sh && eval 'echo Cookie: S3CRETw; touch h4' \< /dev/null && pwd -P >| /tmp/claude-1-cwd`,
			[]string{"S3CRETw"}, []string{"; touch h4' \\< /dev/null && pwd -P"}, []string{"touch h4"}},
		{"a script given to bash -c keeps its commands", `bash -c 'echo Cookie: S3CRETb; touch h5'`,
			[]string{"S3CRETb"}, []string{"; touch h5'"}, []string{"bash -c echo Cookie: [REDACTED]; touch h5", "touch h5"}},
		{"a quoted Cookie header loses every pair's value", `curl -H 'Cookie: sid=S3CRETa; csrf=S3CRETb' https://x && touch h6`,
			[]string{"S3CRETa", "S3CRETb"}, []string{"curl -H 'Cookie: [REDACTED]; csrf=[REDACTED]' https://x && touch h6"}, []string{"touch h6"}},
		{"an Authorization header's token ends with its word", `echo Authorization: Bearer S3CRETtok;rm -rf /victim`,
			[]string{"S3CRETtok"}, []string{";rm -rf /victim"}, []string{"rm -rf /victim"}},
		{"a very long value", `echo Cookie: ` + long + `; touch h8`,
			[]string{"S3CRETlong"}, []string{"; touch h8"}, []string{"touch h8"}},
		{"an extra pattern with a greedy .*", `echo corp-S3CRETx; touch h9`,
			[]string{"S3CRETx"}, []string{"echo [REDACTED]; touch h9"}, []string{"touch h9"}},
		{"credentials in a URL", `git clone https://u:S3CRETpw@h/x;touch h10`,
			[]string{"S3CRETpw"}, []string{";touch h10"}, []string{"touch h10"}},
		{"a token= in a URL", `curl 'https://x/?token=S3CRETq&a=1'; touch h11`,
			[]string{"S3CRETq"}, []string{"&a=1'; touch h11"}, []string{"touch h11"}},
		{"a command substitution in a secret's value", `TOKEN=S3CRETv$(touch h12) env`,
			[]string{"S3CRETv"}, []string{"TOKEN=[REDACTED]$(touch h12) env"}, []string{"touch h12"}},
		{"a key in a here-document", "cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\nEOF\ntouch h13",
			[]string{"b3BlbnNzaC1rZXktdjEAAAAABG5vbmU"}, []string{"cat > k <<EOF\n[REDACTED]\nEOF\ntouch h13"}, []string{"touch h13"}},
		{"BEGIN and END lines of different keys frame nothing", "echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END EC PRIVATE KEY-----'; touch h14",
			[]string{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"}, []string{"\n-----END EC PRIVATE KEY-----'; touch h14"}, []string{"touch h14"}},
		{"a script whose commands have run-time words and assignments", `eval 'echo Cookie: S3CRETd $HOME; X=1 touch h15'`,
			[]string{"S3CRETd"}, []string{" $HOME; X=1 touch h15'"}, []string{"X=1 touch h15"}},
		{"a command that does not parse is cut at every separator", `echo Cookie: S3CRETu; touch h16; if`,
			[]string{"S3CRETu"}, []string{"; touch h16; if"}, nil},
		{"commands between BEGIN and END lines in a nested script", "bash -c 'echo -----BEGIN RSA PRIVATE KEY-----\nreboot\necho -----END RSA PRIVATE KEY-----'",
			nil, []string{"\nreboot\necho -----END RSA PRIVATE KEY-----'"}, []string{"reboot"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, path := writeDecided(t, red, tt.command)
			r := recs[0]
			data := string(readFile(t, path))
			for _, s := range tt.secrets {
				if strings.Contains(data, s) {
					t.Errorf("the log holds the secret %q:\n%s", s, data)
				}
			}
			for _, k := range tt.keep {
				if !strings.Contains(r.Command, k) {
					t.Errorf("command %q lost %q", r.Command, k)
				}
			}
			if !r.Redacted {
				t.Errorf("command %q: redacted not set", r.Command)
			}
			if r.Argv[2] != r.Command {
				t.Errorf("argv's -c string %q, command %q: want them the same", r.Argv[2], r.Command)
			}
			var segs []string
			for _, s := range r.Segments {
				segs = append(segs, strings.Join(s.Argv, " "))
			}
			for _, want := range tt.segments {
				if !strings.Contains(strings.Join(segs, "\n"), want) {
					t.Errorf("segments %q lack %q", segs, want)
				}
			}
		})
	}
}

// TestRedactionKeepsCleanRecordsReplayable: a command with no secret is
// written as it was decided, redacted unset, and replay decides it again;
// one whose command was redacted is reported as not replayed, with its
// segments, and never as a changed decision; a record of an earlier
// version whose command holds [REDACTED] is not replayed either.
func TestRedactionKeepsCleanRecordsReplayable(t *testing.T) {
	red, _ := audit.NewRedactor(nil)
	recs, path := writeDecided(t, red, `echo Cookie: S3CRET; touch hidden.txt`, `touch visible.txt`)
	if recs[1].Redacted || recs[1].Command != "touch visible.txt" {
		t.Errorf("clean record: command %q, redacted %v", recs[1].Command, recs[1].Redacted)
	}
	if !strings.Contains(string(readFile(t, path)), `"command":"touch visible.txt","mode"`) {
		t.Errorf("clean record carries a redacted member")
	}
	denyTouch := func(r *audit.Record) (string, string, error) {
		if strings.Contains(r.Command, "touch") {
			return audit.Deny, "touch denied", nil
		}
		return audit.Allow, "", nil
	}
	rep, err := audit.ReplayFiles([]string{path}, nil, denyTouch)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records != 1 || len(rep.Flips) != 1 || rep.Flips[0].Rec.Command != "touch visible.txt" {
		t.Errorf("replay: %d records, flips %+v; want the clean record decided, and flipped", rep.Records, rep.Flips)
	}
	if len(rep.Unreplayable) != 1 || !strings.Contains(rep.Unreplayable[0].Rec.Command, "touch hidden.txt") {
		t.Fatalf("not replayed: %+v, want the redacted record", rep.Unreplayable)
	}
	var b strings.Builder
	rep.Write(&b)
	for _, want := range []string{"not replayed (ask)", "segments: echo Cookie: [REDACTED]; touch hidden.txt", "1 of 1 recorded", "1 recorded commands not replayed"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("replay output lacks %q:\n%s", want, b.String())
		}
	}
	old := &audit.Record{Command: `curl https://x/i.sh -H "Cookie: [REDACTED]`}
	if audit.Replayable(old) {
		t.Errorf("a record whose command holds %s without the field is replayable", audit.Redacted)
	}
}

// TestFilterCommandMatchesSegments: --command finds a record by one of
// its segments, so a command the text does not show as such (a script in
// a word, or text redacted by an earlier version) is found.
func TestFilterCommandMatchesSegments(t *testing.T) {
	r := &audit.Record{Command: "echo Cookie: [REDACTED]", Segments: []audit.Segment{
		{Argv: []string{"echo", "Cookie:", "[REDACTED]"}}, {Argv: []string{"touch", "hidden.txt"}}}}
	for pattern, want := range map[string]bool{"touch *": true, "*touch*": true, "echo Cookie: *": true, "rm *": false} {
		f := audit.Filter{Command: pattern}
		if got := f.Match(r); got != want {
			t.Errorf("--command %q: match %v, want %v", pattern, got, want)
		}
	}
}

// FuzzRedactorCommand: redaction only ever replaces text inside words, so
// a command that parses still parses after it (the marker read as a
// plain word), into as many commands.
func FuzzRedactorCommand(f *testing.F) {
	for _, s := range []string{`echo Cookie: a; touch x`, `eval 'echo Cookie: a; touch h'`, "cat <<EOF\n-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\nEOF",
		`bash -c "echo \"Cookie: a\" ; touch x"`, `TOKEN=$(cat f)x`, `echo 'Authorization: Bearer abcdefgh'\''x; y'`, `echo 'corp-x' ; touch y`,
		`env "API_TOKEN"=S3CRET true; touch x`, `psql "postgres://b:pw more$X@db"; touch h`, `mysql "--password=a b" && touch y`} {
		f.Add(s, "touch")
	}
	red, err := audit.NewRedactor([]string{`corp-.*`})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s, nested string) {
		before, ok := commands(s)
		if !ok {
			return
		}
		got := red.Command(s, []audit.Segment{{Argv: []string{nested}, Via: []string{"eval"}}})
		// The marker as a plain word: A[REDACTED] is no command to the
		// parser (an array element without its =), Ax is.
		if after, ok := commands(strings.ReplaceAll(got, audit.Redacted, "x")); !ok || after != before {
			t.Errorf("Command(%q) = %q: %d commands, %v; want %d", s, got, after, ok, before)
		}
	})
}

// commands counts the statements of shell text, if it parses.
func commands(s string) (int, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil {
		return 0, false
	}
	n := 0
	syntax.Walk(f, func(node syntax.Node) bool {
		if _, ok := node.(*syntax.Stmt); ok {
			n++
		}
		return true
	})
	return n, true
}

// TestWrittenWordsRedaction: a segment's word only known at run time is
// recorded as written; its redaction keeps what holds only variables'
// references, as the command's does, and never takes the word's closing
// quote alone (a new user's `-H "Authorization: Bearer $UPLOAD_TOKEN"` was
// recorded as `"Authorization:[REDACTED]`), while a value holding a blank
// inside its quotes is still redacted whole (attack run 74).
func TestWrittenWordsRedaction(t *testing.T) {
	red, err := audit.NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		command, word string
		secrets       []string
	}{
		{`curl -sf -H "Authorization: Bearer $UPLOAD_TOKEN" "$URL/x.tgz"`, `"Authorization: Bearer $UPLOAD_TOKEN"`, nil},
		{`curl -sf -H "Authorization: Bearer S3CRETh$X" "$URL/x.tgz"`, `"Authorization:[REDACTED]"`, []string{"S3CRETh"}},
		{`curl -sf -H "Cookie: sid=S3CRETc; a=$A" x`, `"Cookie:[REDACTED]; a=$A"`, []string{"S3CRETc"}},
		{`curl -u "$U:S3CRETu" x`, `[REDACTED]`, []string{"S3CRETu"}},
		{`psql "postgres://bob:S3CRETp1 S3CRETp2$X@db/x"`, `"postgres://[REDACTED]db/x"`, []string{"S3CRETp1", "S3CRETp2"}},
		{`mysql "--password=S3CRETm1 S3CRETm2$X"`, `"--password=[REDACTED]"`, []string{"S3CRETm1", "S3CRETm2"}},
		{`X=1; env "DB_PASSWORD=S3CRETe1 S3CRETe2$X" ./run`, `"DB_PASSWORD=[REDACTED]"`, []string{"S3CRETe1", "S3CRETe2"}},
	} {
		recs, _ := writeDecided(t, red, c.command)
		var words []string
		for _, s := range recs[0].Segments {
			words = append(words, s.Argv...)
		}
		if !slices.Contains(words, c.word) {
			t.Errorf("%s: segment words %q, want %q among them", c.command, words, c.word)
		}
		for _, sec := range c.secrets {
			if strings.Contains(strings.Join(words, " "), sec) {
				t.Errorf("%s: the segments hold %q", c.command, sec)
			}
		}
	}
}
