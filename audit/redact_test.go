package audit_test

import (
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
	"mvdan.cc/sh/v3/syntax"
)

func TestRedactorRemovesEachFormOfSecret(t *testing.T) {
	r, err := audit.NewRedactor([]string{`corp-[0-9]{6}`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, secret, keep string
	}{
		{"bearer token", `curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig" https://api`, "eyJhbGci", "Authorization: "},
		{"bare bearer", `http GET api.example.com "bearer abcdefgh12345678"`, "abcdefgh12345678", "bearer "},
		{"Authorization basic", `curl -H 'authorization: Basic dXNlcjpwYXNz' x`, "dXNlcjpwYXNz", "authorization: "},
		{"URL credentials", `git clone https://alice:s3cretpw@github.com/org/repo`, "s3cretpw", "https://"},
		{"password= assignment", `mysql --host db password=hunter2`, "hunter2", "password="},
		{"--password option", `mysql --password hunter2 -h db`, "hunter2", "--password "},
		{"--password= option", `docker login --password=hunter2 ghcr.io`, "hunter2", "--password="},
		{"export of a token", `export GITHUB_TOKEN=abc123def456`, "abc123def456", "export GITHUB_TOKEN="},
		{"export of a quoted secret", `export MY_API_KEY="with spaces inside"`, "with spaces", "export MY_API_KEY="},
		{"AWS access key", `aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE`, "AKIAIOSFODNN7EXAMPLE", "aws configure"},
		{"AWS secret", `AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls`, "wJalrXUtnFEMI", "AWS_SECRET_ACCESS_KEY="},
		{"GCP API key", `curl "https://maps.googleapis.com/x?key=AIzaSyA1234567890abcdefghijklmnopqrstuv"`, "AIzaSyA1234567890", "https://maps"},
		{"GitHub token", `gh auth login --with-token <<< ghp_abcdefghijklmnopqrstuvwxyz0123456789`, "ghp_abcdef", "gh auth login"},
		{"GitHub fine-grained token", `echo github_pat_11ABCDEFG0123456789_abcdefghijklmnop`, "github_pat_11", "echo "},
		{"OpenAI key", `OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz012345 python run.py`, "sk-proj-abcdef", "python run.py"},
		{"private key", "echo '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----' > k", "b3BlbnNzaC1rZXk", "> k"},
		{"a private key without its END line", "echo '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7' > k", "MIIEvQIBADAN", "> k"},
		{"a lone BEGIN line hides no command", "echo \"-----BEGIN PRIVATE KEY-----\" `cat <<true`\nrm -rf /victim\ntrue", "PRIVATE KEY-----", "rm -rf /victim"},
		{"an extra pattern", `deploy --ticket corp-123456`, "corp-123456", "deploy --ticket "},
		// Forms an attack run found kept in the log.
		{"curl user and password", `curl -u admin:S3CRETpw https://x`, "S3CRETpw", "curl -u "},
		{"an API key header", `curl -H 'X-API-Key: S3CRETk3y' https://x`, "S3CRETk3y", "X-API-Key: "},
		{"a cookie", `curl -H 'Cookie: session=S3CRETs' https://x`, "S3CRETs", "Cookie: "},
		{"a _PASS variable", `DB_PASS=S3CRETdb psql`, "S3CRETdb", "DB_PASS="},
		{"export PASS", `export PASS=S3CRETp`, "S3CRETp", "export PASS="},
		{"a KEY variable", `KEY=S3CRETkey ./run`, "S3CRETkey", "KEY="},
		{"an _AUTH variable", `NPM_AUTH=S3CRETnpm npm publish`, "S3CRETnpm", "NPM_AUTH="},
		{"mysql -p", `mysql -u root -pS3CRETmy db`, "S3CRETmy", "mysql -u root -p"},
		{"sshpass -p", `sshpass -p S3CRETssh ssh host`, "S3CRETssh", "sshpass -p "},
		{"a signed URL", `curl 'https://b.s3.amazonaws.com/o?X-Amz-Signature=S3CRETsig&x=1'`, "S3CRETsig", "X-Amz-Signature="},
		{"a token as URL user", `git clone https://ghs_S3CRETtokenabcdef@github.com/o/r`, "S3CRETtoken", "https://"},
		{"a JSON password", `curl -d '{"password": "S3CRETjs"}' https://x`, "S3CRETjs", `"password": `},
		{"netrc", `printf 'machine x login u password S3CRETnet' > ~/.netrc`, "S3CRETnet", "login u password "},
		{"a value with quotes inside", `PASSWORD=abc"S3CRET quoted"`, "S3CRET", "PASSWORD="},
		{"a value with an escape", `API_TOKEN=abc\ S3CRETesc x`, "S3CRETesc", "API_TOKEN="},
		{"a $'...' value", `MY_TOKEN=$'S3CRETdollar'`, "S3CRETdollar", "MY_TOKEN="},
		// Attack run 56: user-and-password values in other quoting and
		// options, kept in the record's command.
		{"curl -u double-quoted", `curl -u "bob:S3CRETb" https://x`, "S3CRETb", "curl -u "},
		{"curl -u single-quoted", `curl -u 'bob:S3CRETc' https://x`, "S3CRETc", "curl -u "},
		{"curl -u partly quoted", `curl -u bob":S3CRETd" https://x`, "S3CRETd", "curl -u "},
		{"curl --user quoted", `curl --user "bob:S3CRETh" https://x`, "S3CRETh", "curl --user "},
		{"curl -u glued quoted", `curl -u"bob:S3CRETm" https://x`, "S3CRETm", "curl -u"},
		{"curl -u escaped colon", `curl -u $'bob\x3aS3CRETi' https://x`, "S3CRETi", "curl -u "},
		{"curl -u colon quoted apart", `curl -u "bob"':'"S3CRETj" https://x`, "S3CRETj", "curl -u "},
		{"curl -u run-time colon", `curl -u bob${c}S3CRETk https://x`, "S3CRETk", "curl -u "},
		{"curl -su", `curl -su bob:S3CRETl https://x`, "S3CRETl", "curl -su "},
		{"curl --user with a space", `curl --user 'b o b:S3CRETn' https://x`, "S3CRETn", "curl --user "},
		{"curl --proxy-user", `curl --proxy-user bob:S3CRETr https://x`, "S3CRETr", "curl --proxy-user "},
		{"curl -U", `curl -U bob:S3CRETs https://x`, "S3CRETs", "curl -U "},
		// Attack run 57: JSON inside a double-quoted word, mysql's -p
		// with a quoted value.
		{"escaped JSON password", `curl -d "{\"password\":\"S3CRETej\"}" https://x`, "S3CRETej", `\"password\":`},
		{"escaped JSON token among members", `curl -d "{\"user\":\"bob\",\"api_token\": \"S3CRETek\\\"x\"}" https://x`, "S3CRETek", `\"user\":\"bob\"`},
		{"mysql -p double-quoted", `mysql -u root -p"S3CRETmq" db`, "S3CRETmq", "mysql -u root -p"},
		{"docker login -p", `docker login -u bob -p S3CRETdk ghcr.io`, "S3CRETdk", "docker login -u bob -p "},
		{"redis-cli -a after -p", `redis-cli -h db -p 6379 -a 'S3CRETrc' ping`, "S3CRETrc", "-p 6379 -a "},
		{"curl cookie", `curl -b 'session=S3CRETck' https://x`, "S3CRETck", "curl -b "},
		{"aws configure set", `aws configure set aws_secret_access_key S3CRETaw`, "S3CRETaw", "aws_secret_access_key "},
		{"npm config set", `npm config set //registry.npmjs.org/:_authToken S3CRETnp`, "S3CRETnp", ":_authToken "},
		{"gh secret set --body", `gh secret set DEPLOY_KEY --body "S3CRETgh"`, "S3CRETgh", "--body "},
		{"vault login", `vault login S3CRETvl`, "S3CRETvl", "vault login "},
		{"htpasswd -b", `htpasswd -cb .htpasswd bob S3CRETht`, "S3CRETht", ".htpasswd bob "},
		{"zip -P", `zip -r -P S3CRETzp out.zip dir`, "S3CRETzp", "zip -r -P "},
		{"openssl -passin", `openssl rsa -in k.pem -passin pass:S3CRETos`, "S3CRETos", "-passin "},
		{"ssh-keygen -N", `ssh-keygen -t ed25519 -N 'S3CRETsk' -f k`, "S3CRETsk", "-N "},
		{"smbclient -U user%password", `smbclient //h/s -U 'bob%S3CRETsm'`, "S3CRETsm", "-U "},
		{"7z -p", `7z a -pS3CRET7z out.7z dir`, "S3CRET7z", "7z a -p"},
		{"JSON pwd", `curl -d '{"pwd": "S3CRETpw"}' https://x`, "S3CRETpw", `"pwd": `},
		{"SQL IDENTIFIED BY", `mysql -e "CREATE USER bob IDENTIFIED BY 'S3CRETsq'"`, "S3CRETsq", "IDENTIFIED BY "},
		{"SQL PASSWORD", `psql -c "ALTER USER bob WITH PASSWORD 'S3CRETpg'"`, "S3CRETpg", "PASSWORD "},
		// Attack run 59: glued values, more programs and token forms.
		{"docker login -pS", `docker login -u bob -pS3CRETg1 reg`, "S3CRETg1", "docker login -u bob -p"},
		{"redis-cli -aS", `redis-cli -aS3CRETg2 ping`, "S3CRETg2", "redis-cli -a"},
		{"ssh-keygen -NS", `ssh-keygen -q -t ed25519 -NS3CRETg3 -f k`, "S3CRETg3", "-N"},
		{"smbclient -Uuser%S", `smbclient -Ubob%S3CRETg4 //h/s`, "S3CRETg4", "smbclient -U"},
		{"vault login -method=token", `vault login -method=token S3CRETg5`, "S3CRETg5", "-method=token "},
		{"cargo login", `cargo login S3CRETg6`, "S3CRETg6", "cargo login "},
		{"oc login -p", `oc login -u bob -p S3CRETg7 https://api`, "S3CRETg7", "-p "},
		{"twine -p", `twine upload -u __token__ -p S3CRETg8 dist/*`, "S3CRETg8", "-p "},
		{"poetry config http-basic", `poetry config http-basic.repo bob S3CRETg9`, "S3CRETg9", "http-basic.repo bob "},
		{"empty-user URL", `psql "postgres://:S3CRETh1@127.0.0.1/db"`, "S3CRETh1", "postgres://"},
		{"Stripe key", `export STRIPE=sk_live_S3CRETh2abcdef`, "S3CRETh2", "export STRIPE="},
		{"JWT", `export J=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.S3CRETh3abcdef`, "S3CRETh3", "export J="},
		{"Slack webhook", `curl -X POST https://hooks.slack.com/services/T0000/B0000/S3CRETh4xyz`, "S3CRETh4", "https://hooks.slack.com/services/"},
		{"Telegram bot", `curl https://api.telegram.org/bot123456:S3CRETh5abc/sendMessage`, "S3CRETh5", "api.telegram.org/bot"},
		{"a _PAT name", `export GITHUB_PAT=S3CRETh6`, "S3CRETh6", "GITHUB_PAT="},
		{"a _PW name", `export DB_PW=S3CRETh7`, "S3CRETh7", "DB_PW="},
		{"a hyphenated key name", `client-key-data: S3CRETh8`, "S3CRETh8", "client-key-data: "},
		{"a Python dict", `python3 -c "print({'password': 'S3CRETh9'})"`, "S3CRETh9", `'password': `},
		{"SQL SET PASSWORD", `mysql -e "SET PASSWORD FOR 'bob'@'%' = 'S3CRETi1'"`, "S3CRETi1", "SET PASSWORD FOR"},
		{"SQL IDENTIFIED WITH", `mysql -e "ALTER USER bob IDENTIFIED WITH mysql_native_password BY 'S3CRETi2'"`, "S3CRETi2", "IDENTIFIED WITH"},
		{"sshpass value with a blank", `sshpass -p 'SEK S3CRETi3' ssh h`, "S3CRETi3", "sshpass -p "},
		{"curl -u after a substitution", `curl -u "$(whoami):S3CRETi4" https://x`, "S3CRETi4", "curl -u "},
		{"curl -u after a default", `curl -u "${U:-bob}:S3CRETi5" https://x`, "S3CRETi5", "curl -u "},
		{"mysqldump -p single-quoted", `mysqldump -uroot -p'S3CRETmr' db`, "S3CRETmr", "mysqldump -uroot -p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := r.String(tt.in)
			if strings.Contains(got, tt.secret) || !strings.Contains(got, audit.Redacted) || !strings.Contains(got, tt.keep) {
				t.Errorf("String(%q) = %q: want %q gone, %q kept", tt.in, got, tt.secret, tt.keep)
			}
		})
	}
	for _, clean := range []string{"git status", "go test ./...", "echo password", "grep -r token src/", "ls --password-file-does-not-exist",
		"shopt -u extglob", "git status -u", "sort -u a.txt", "docker run -u 1000 img",
		"redis-cli -p 6379 ping", "openssl x509 -in c.pem -noout -text", "vault login -method=github", "date -u +%s",
		"curl -P - https://x", "smbclient -L h -U bob", "htpasswd -c .htpasswd bob", "git checkout -b feature",
		// Attack run 59: a key's value never starts on the next line or
		// after a blank following =, and --no-password is no option of
		// a password.
		"# Check the API key:\ntouch f", "echo password=\ntouch f", "ls --no-password\ntouch f", "vault login\ntouch f",
		"GITHUB_TOKEN= git status --short", "psql --no-password -h localhost db", "gh auth login --with-token < t\ntouch f",
		"echo PATH=/usr/bin MY_PATH=x",
		// Attack run 62: a password option's program in another
		// command, a cookie pair before a command's word.
		"echo redis-cli && cp -a src dst", "echo redis-cli &cp -a src dst", "git checkout -b x; PATH=t/ws/bin; ls",
		// A value that only names variables holds no secret the text
		// shows (a new user's find: records of CI steps lost which
		// variable they used).
		`curl -H "Authorization: Bearer $GITHUB_TOKEN" https://x`, `curl -u "$GITHUB_ACTOR:$GITHUB_TOKEN" https://x`,
		`export TOKEN=${GH_TOKEN}`, `docker login -u "$U" -p "$P" ghcr.io`} {
		if got := r.String(clean); got != clean {
			t.Errorf("String(%q) = %q, want it unchanged", clean, got)
		}
	}
}

// TestRedactorCleansReviewsAndAnswers: a model's reason that quotes the
// command, and a human's message, are redacted too (an attack run's model
// put a bearer token into the record's llm.reason).
func TestRedactorCleansReviewsAndAnswers(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	const secret = "S3CRETtokenzz2abcdef"
	rec := &audit.Record{
		LLM:      &audit.LLM{Reason: "runs curl -H 'Authorization: Bearer " + secret + "'"},
		Segments: []audit.Segment{{LLM: &audit.LLM{Reason: "Bearer " + secret, Error: "answer: Bearer " + secret}}},
		Human:    &audit.Human{Message: "do not send token=" + secret},
	}
	r.Record(rec)
	for _, got := range []string{rec.LLM.Reason, rec.Segments[0].LLM.Reason, rec.Segments[0].LLM.Error, rec.Human.Message} {
		if strings.Contains(got, secret) {
			t.Errorf("not redacted: %q", got)
		}
	}
}

// The record written is redacted in every field that holds command text;
// the secret split across argv words (an option and its value) too.
func TestAppendWritesTheRedactedRecord(t *testing.T) {
	red, err := audit.NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	l, path := openTemp(t)
	l.Close()
	l, err = audit.OpenWith(path, audit.Options{Redact: red})
	if err != nil {
		t.Fatal(err)
	}
	rec := fullRecord(time.Now(), `mysql --password hunter2 && curl -H "Authorization: Bearer tok12345678"`)
	rec.Argv = []string{"bash", "-c", rec.Command}
	rec.Segments[0].Argv = []string{"mysql", "--password", "hunter2"}
	if err := l.Append(rec); err != nil {
		t.Fatal(err)
	}
	l.Close()
	data := string(readFile(t, path))
	for _, secret := range []string{"hunter2", "tok12345678"} {
		if strings.Contains(data, secret) {
			t.Errorf("log holds %q: %s", secret, data)
		}
	}
	if !strings.Contains(data, `["mysql","--password","[REDACTED]"]`) {
		t.Errorf("segment argv not redacted word by word: %s", data)
	}
	if _, err := audit.Verify([]string{path}, nil); err != nil {
		t.Errorf("redacted log does not verify: %v", err)
	}
}

// TestRedactorCleansMysqlPasswordsInArgv: a MySQL client's -pPASSWORD
// word is redacted in a segment's argv however many words stand before it
// (attack run 57: `mysql -u root -pS db` kept S there, three words from
// the program), and -P (port) and a lone -p are kept.
func TestRedactorCleansMysqlPasswordsInArgv(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	rec := &audit.Record{Command: "x", Segments: []audit.Segment{
		{Argv: []string{"/usr/bin/mysql", "-h", "127.0.0.1", "-P", "3306", "-u", "root", "-pS3CRETma", "db"}},
		{Argv: []string{"mysqldump", "-u", "root", "-p", "db"}},
		{Argv: []string{"grep", "-u", "root", "-pattern", "f"}},
	}}
	r.Record(rec)
	want := [][]string{
		{"/usr/bin/mysql", "-h", "127.0.0.1", "-P", "3306", "-u", "root", "-p" + audit.Redacted, "db"},
		{"mysqldump", "-u", "root", "-p", "db"},
		{"grep", "-u", "root", "-pattern", "f"},
	}
	for i, w := range want {
		if got := rec.Segments[i].Argv; strings.Join(got, "\x00") != strings.Join(w, "\x00") {
			t.Errorf("segment %d argv = %q, want %q", i, got, w)
		}
	}
}

// TestRedactorCleansArgvValuesWithBlanks: an argv word is one value
// however many blanks it holds, and is redacted whole (attack run 57:
// `--user 'b o b:pw'`, `--password "a b"`, `TOKEN="a b"` kept what
// followed the first blank in a segment's argv).
func TestRedactorCleansArgvValuesWithBlanks(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	rec := &audit.Record{Command: "x", Segments: []audit.Segment{
		{Argv: []string{"curl", "--user", "b o b:S3CRETua zz", "https://x"}},
		{Argv: []string{"wget", "--password", "SEK S3CRETwg", "https://x"}},
		{Argv: []string{"export", "TOKEN=SEK S3CRETex"}},
		{Argv: []string{"sshpass", "-p", "a\tS3CRETsp", "ssh", "h"}},
		{Argv: []string{"curl", "-u", "bob:S3CRET\xffb c", "https://x"}},
	}}
	r.Record(rec)
	for _, s := range rec.Segments {
		j := strings.Join(s.Argv, " ")
		if strings.Contains(j, "S3CRET") || !strings.Contains(j, audit.Redacted) {
			t.Errorf("argv %q: want the whole value redacted", s.Argv)
		}
	}
	if got := rec.Segments[0].Argv; got[0] != "curl" || got[1] != "--user" || got[3] != "https://x" {
		t.Errorf("argv %q: want the other words kept", got)
	}
}

// TestRedactorCommandFormsAttackRun59: as shell text, each redaction
// kept inside its word, these lose their secret and keep every command
// (attack run 59).
func TestRedactorCommandFormsAttackRun59(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	for _, tc := range []struct{ in, secret, keep string }{
		{`curl -u "$(whoami):S3CRETj1" https://x`, "S3CRETj1", `"$(whoami):`},
		{"curl -u \"`whoami`:S3CRETj2\" https://x", "S3CRETj2", "`whoami`:"},
		{`curl -u "${U:-bob}:S3CRETj3" https://x`, "S3CRETj3", `"${U:-bob}:`},
		{`sshpass -p 'SEK S3CRETj4' ssh h`, "S3CRETj4", "sshpass -p "},
		{"# Check the API key:\ntouch f\nexport TOKEN=S3CRETj5", "S3CRETj5", "\ntouch f\n"},
		{"GITHUB_TOKEN= git status && API_KEY=S3CRETj6 make", "S3CRETj6", "GITHUB_TOKEN= git status && "},
		// A script the analysis did not read is bounded as code: no
		// redaction reaches past a separator inside it.
		{`bash -c "echo Cookie: S3CRETj7; touch f; echo $PWD"`, "S3CRETj7", "; touch f; echo $PWD"},
		{"bash -c $'export GH_TOKEN=S3CRETj8\\ntouch\\tf'", "S3CRETj8", "touch"},
		{`eval "echo Cookie: S3CRETj9; touch hidden $PWD"`, "S3CRETj9", "; touch hidden $PWD"},
		{`eval 'bash -c "curl -s -H Cookie:sid=S3CRETk1 https://127.0.0.1:9/; rm -f v2-a1.txt; echo $PWD"' \< /dev/null && pwd -P >| /tmp/c`, "S3CRETk1", "; rm -f v2-a1.txt; echo $PWD"},
		{`python3 -c "print(1) # Cookie: S3CRETk2; import os; os.system('touch f')"`, "S3CRETk2", "; import os; os.system('touch f')"},
		// Attack run 61: code that reaches a shell another way.
		{`cmd="echo Cookie: S3CRETk6; touch F"; eval "$cmd"`, "S3CRETk6", `; touch F"; eval "$cmd"`},
		{`printf '%s\n' '-----BEGIN OPENSSH PRIVATE KEY-----' 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAS3CRETl4' '-----END OPENSSH PRIVATE KEY-----' > k`, "S3CRETl4", "printf '%s\\n' "},
		{"bash <<EOF\necho Cookie: S3CRETk7; touch F\nEOF", "S3CRETk7", "; touch F\nEOF"},
		{`c=$'echo Cookie: S3CRETl6\ntouch F'; eval "$c"`, "S3CRETl6", `\ntouch F'; eval "$c"`},
		{`printf 'echo Cookie: S3CRETl7\ntouch F\n' | bash`, "S3CRETl7", `\ntouch F\n' | bash`},
		{`echo Cookie: S3CRETl9; BASH_ENV=x bash -c true`, "S3CRETl9", "; BASH_ENV=x bash -c true"},
		{`echo Cookie: a=S3CRETn1; BASH_ENV=evil.sh; bash -c true`, "S3CRETn1", "; BASH_ENV=evil.sh; bash -c true"},
		{`nl=$'\n'; sh -c "echo Cookie: S3CRETn3${nl}touch F"`, "S3CRETn3", "${nl}touch F"},
		{`wget --http-password S3CRETk8 https://x`, "S3CRETk8", "--http-password "},
		{`docker run --docker-password=S3CRETk9 x`, "S3CRETk9", "--docker-password="},
		{`curl -b "a=1; sid=S3CRETl1" https://x`, "S3CRETl1", "curl -b "},
		{`curl 'https://x/?a=1&b=2' -b sid=S3CRETl2`, "S3CRETl2", "-b "},
		{`curl -u '$k9:$S3CRETl3' https://x`, "S3CRETl3", "curl -u "},
		// Attack run 62.
		{`curl -b "a=1; sid=S3CRETl5; b=2" https://x`, "S3CRETl5", "curl -b "},
		// Attack run 64: escapes in a secret, grouped -b, a blank
		// before the closing quote.
		{`mysql -p"Pa\tS3CRETm1"`, "S3CRETm1", "mysql -p"},
		{`export API_TOKEN="a\bS3CRETm2"`, "S3CRETm2", "export API_TOKEN="},
		{`curl -sb "a=1; sid=S3CRETm3" https://x`, "S3CRETm3", "curl -sb "},
		{`curl -H "Cookie: a=1; sid=S3CRETm4 " https://x`, "S3CRETm4", "Cookie: "},
		// Attack run 67: a line continuation between an option and its
		// value, or inside a value; a single cookie to grouped options.
		{"curl -u \\\n bob:S3CRETo1 https://x", "S3CRETo1", "curl -u "},
		{"mysql -u root \\\n -pS3CRETo2 db", "S3CRETo2", "mysql -u root "},
		{"docker login \\\n -u bob -p S3CRETo3", "S3CRETo3", "docker login "},
		{"redis-cli -h h \\\n -a S3CRETo4 ping", "S3CRETo4", " ping"},
		{"sshpass -p \\\n S3CRETo5 ssh h", "S3CRETo5", " ssh h"},
		{"curl -H \"Authorization: Bearer \\\nS3CRETo6abcdefgh\" https://x", "S3CRETo6", "Authorization: "},
		{"export API_TOKEN=ab\\\nS3CRETo7", "S3CRETo7", "export API_TOKEN="},
		{`curl -sSb "session=S3CRETo8" https://x`, "S3CRETo8", "curl -sSb "},
		{`curl -sLb'sid=S3CRETo9' https://x`, "S3CRETo9", " https://x"},
		// Attack run 67: curl's prefixes of --proxy-user, a quoted
		// option, a certificate's passphrase.
		{`curl --proxy-u bob:S3CRETp1 -x http://p:3128 https://x`, "S3CRETp1", "curl --proxy-u "},
		{`curl --proxy-us=bob:S3CRETp2 https://x`, "S3CRETp2", "curl --proxy-us="},
		{`curl "-u" bob:S3CRETp3 https://x`, "S3CRETp3", `curl "-u" `},
		{`curl '-u' 'bob:S3CRETp4' https://x`, "S3CRETp4", `curl '-u' `},
		{`curl -E client.pem:S3CRETp5 https://x`, "S3CRETp5", "curl -E "},
		{`curl --cert=client.pem:S3CRETp6 https://x`, "S3CRETp6", "curl --cert="},
		{`http --auth bob:S3CRETp7 https://x`, "S3CRETp7", "http --auth "},
		{`az devops login --pat S3CRETp8`, "S3CRETp8", "--pat "},
		{`keytool -genkey -storepass S3CRETp9 -keypass S3CRETq1 -keystore k.jks`, "S3CRETp9", "-storepass "},
		{`keytool -genkey -storepass S3CRETp9 -keypass S3CRETq1 -keystore k.jks`, "S3CRETq1", " -keystore k.jks"},
		{`gpg --batch --passphrase S3CRETq2 -d f.gpg`, "S3CRETq2", " -d f.gpg"},
		// Attack run 69's misses.
		{`keytool -importkeystore -srcstorepass S3CRETq4 -deststorepass S3CRETq5 -destkeypass S3CRETq6 -x y`, "S3CRETq4", " -x y"},
		{`keytool -importkeystore -srcstorepass S3CRETq4 -deststorepass S3CRETq5 -destkeypass S3CRETq6 -x y`, "S3CRETq5", " -x y"},
		{`keytool -importkeystore -srcstorepass S3CRETq4 -deststorepass S3CRETq5 -destkeypass S3CRETq6 -x y`, "S3CRETq6", " -x y"},
		{`http -a bob:S3CRETq7 https://x/api`, "S3CRETq7", " https://x/api"},
		{`unzip -P S3CRETq8 a.zip`, "S3CRETq8", " a.zip"},
		{`ldapsearch -x -D cn=admin -w S3CRETq9 -b dc=x`, "S3CRETq9", " -b dc=x"},
		{`pscp -pw S3CRETr1 f user@h:`, "S3CRETr1", " f user@h:"},
		// A continuation inside double quotes joins too.
		{"curl -H \"Authorization: Bearer \\\nS3CRETq3abcdefgh\" https://x", "S3CRETq3", "Authorization: "},
	} {
		got := r.Command(tc.in, nil)
		if strings.Contains(got, tc.secret) || !strings.Contains(got, tc.keep) || !strings.Contains(got, audit.Redacted) {
			t.Errorf("Command(%q) = %q: want %q gone, %q kept", tc.in, got, tc.secret, tc.keep)
		}
	}
}

// TestRedactorSegmentScriptsKeepCommands: a segment's word that a code
// runner gets is redacted as shell text, so a redaction never hides the
// commands after a separator in it (attack run 59).
func TestRedactorSegmentScriptsKeepCommands(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	rec := &audit.Record{Command: "x", Segments: []audit.Segment{
		{Argv: []string{"bash", "-c", "echo Cookie: S3CRETk3; touch f; echo $PWD"}},
		{Argv: []string{"eval", "API_KEY=S3CRETk4; rm -f g"}},
		{Argv: []string{"sudo", "sh", "-c", "export TOKEN=S3CRETk5\nrm -f h"}},
	}}
	r.Record(rec)
	for i, want := range []string{"touch f; echo $PWD", "rm -f g", "rm -f h"} {
		j := strings.Join(rec.Segments[i].Argv, " ")
		if strings.Contains(j, "S3CRET") || !strings.Contains(j, want) {
			t.Errorf("segment %d argv %q: want the secret gone and %q kept", i, rec.Segments[i].Argv, want)
		}
	}
}

// TestRedactorSegmentArgvProgramOptions: a program's own password option
// is redacted in a segment's argv wherever it stands after the program,
// and a key block whose lines are words of their own loses every line
// (attack run 59).
func TestRedactorSegmentArgvProgramOptions(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	argvs := [][]string{
		{"docker", "login", "-u", "bob", "-p", "S3CRETm1", "registry.example"},
		{"redis-cli", "-h", "127.0.0.1", "-p", "6379", "-a", "S3CRETm2", "ping"},
		{"curl", "-s", "-X", "GET", "--cookie", "sid=S3CRETm3", "https://x"},
		{"openssl", "enc", "-d", "-aes-256-cbc", "-pbkdf2", "-in", "a.txt", "-k", "S3CRETm4"},
		{"ssh-keygen", "-p", "-f", "k", "-P", "S3CRETm5", "-N", "new"},
		{"htpasswd", "-bc", "h", "bob", "S3CRETm6"},
		{"pnpm", "config", "set", "//registry.npmjs.org/:_authToken", "S3CRETm7"},
		{"gh", "secret", "set", "MYSECRET", "--body", "S3CRETm8"},
		{"aws", "configure", "set", "aws_secret_access_key", "S3CRETm9"},
		{"printf", "%s\\n", "-----BEGIN OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQS3CRETn1", "-----END OPENSSH PRIVATE KEY-----"},
		{"echo", "-e", "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQS3CRETn2\\n-----END OPENSSH PRIVATE KEY-----"},
	}
	rec := &audit.Record{Command: "x"}
	for _, a := range argvs {
		rec.Segments = append(rec.Segments, audit.Segment{Argv: a})
	}
	r.Record(rec)
	for i, s := range rec.Segments {
		j := strings.Join(s.Argv, " ")
		if strings.Contains(j, "S3CRET") || s.Argv[0] != argvs[i][0] {
			t.Errorf("argv %q: want the secret gone, the program kept", s.Argv)
		}
	}
	// The words around stay: the host, the port, the URL.
	if got := rec.Segments[1].Argv; got[2] != "127.0.0.1" || got[4] != "6379" || got[7] != "ping" {
		t.Errorf("redis-cli argv %q: want the other words kept", got)
	}
}

func TestNewRedactorRejectsBadPatterns(t *testing.T) {
	for _, bad := range []string{"(", "x*"} {
		if _, err := audit.NewRedactor([]string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("NewRedactor(%q) = %v, want an error naming it", bad, err)
		}
	}
}

// TestRedactorCleansReasonsOfArgvSecrets: a reason that quotes a word
// redacted for the option beside it, written its own way (a run-time part
// as "…"), is cleaned of the secret too (attack run 57: `curl -u
// "$U:pw"` kept pw in the segment's reason).
func TestRedactorCleansReasonsOfArgvSecrets(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	rec := &audit.Record{Command: `curl -u "$U:S3CRETzz" https://x`, Segments: []audit.Segment{{
		Argv:   []string{"curl", "-u", "$U:S3CRETzz", "https://x"},
		Reason: "argument …:S3CRETzz is only known at run time",
	}}}
	r.Record(rec)
	if s := rec.Segments[0]; strings.Contains(s.Reason, "S3CRETzz") || strings.Contains(strings.Join(s.Argv, " "), "S3CRETzz") || strings.Contains(rec.Command, "S3CRETzz") {
		t.Errorf("kept: command %q, argv %q, reason %q", rec.Command, s.Argv, s.Reason)
	}
	for _, word := range []string{"$(whoami):S3CRETzy", "`whoami`:S3CRETzy", "${U:-bob}:S3CRETzy", "$1:S3CRETzy"} {
		rec := &audit.Record{Command: "curl -u \"" + word + "\" https://x", Segments: []audit.Segment{{
			Argv:   []string{"curl", "-u", word, "https://x"},
			Reason: "argument …:S3CRETzy is only known at run time",
		}}}
		r.Record(rec)
		if s := rec.Segments[0]; strings.Contains(s.Reason, "S3CRETzy") || strings.Contains(strings.Join(s.Argv, " "), "S3CRETzy") {
			t.Errorf("%s: kept: argv %q, reason %q", word, s.Argv, s.Reason)
		}
	}
	if got := rec.Segments[0].Reason; !strings.HasPrefix(got, "argument …") {
		t.Errorf("reason %q: want the rest kept", got)
	}
}

// TestRedactorKeepsOptionsThatHoldNoSecret: the password option's names
// added for attack run 67's misses (auth, pat, storepass, keypass,
// passphrase) take only options of those names.
func TestRedactorKeepsOptionsThatHoldNoSecret(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	for _, in := range []string{`git commit --author "A <a@b.c>" -m x`, `tool --path src/x`, `http --auth-type bearer x`,
		`mongo --authenticationDatabase admin`, `gpg --passphrase-fd 0 -d f`, `ls --pattern '*.go'`} {
		if got := r.Command(in, nil); got != in {
			t.Errorf("Command(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestRedactorKeepsAuthors: "author" is no secret's name (a new user's
// agent commits, with Claude Code's Co-Authored-By: trailer, were all
// recorded redacted and skipped by replay), while a name holding a
// secret word beside it still is.
func TestRedactorKeepsAuthors(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	for _, in := range []string{
		"git commit -m \"fix\n\nCo-Authored-By: Claude <noreply@anthropic.com>\"",
		`echo "author: Alice"`,
		`printf '{"name": "x", "author": "Alice <a@b.c>"}' > package.json`,
		`AUTHOR=alice make dist`,
	} {
		if got := r.Command(in, nil); got != in {
			t.Errorf("Command(%q) = %q, want it unchanged", in, got)
		}
	}
	for _, in := range []string{`echo "author_token: s3cr3tvalue"`, `printf '{"author": "A", "auth": "s3cr3tvalue"}'`, `echo "auth: s3cr3tvalue"`} {
		if got := r.Command(in, nil); strings.Contains(got, "s3cr3tvalue") {
			t.Errorf("Command(%q) = %q, want the value redacted", in, got)
		}
	}
}

// TestRedactorKeepsCommandsAfterAnEscapedBackslash: a newline after an
// escaped backslash, in single quotes or after a comment is no line
// continuation: the command on the next line is kept whole (attack run
// 69: `echo --password \\` then `touch F` was recorded as `echo
// --password [REDACTED] F`).
func TestRedactorKeepsCommandsAfterAnEscapedBackslash(t *testing.T) {
	r, _ := audit.NewRedactor(nil)
	for _, tc := range []struct{ in, keep string }{
		{"echo --password \\\\\ntouch F", "\ntouch F"},
		{"TOKEN=\\\\\ntouch P6 && echo ok", "\ntouch P6 && echo ok"},
		{"echo x # --password \\\ntouch F", "\ntouch F"},
		{"echo '--password \\\ntouch F'", "touch F'"},
		// Attack run 72: a quoted here-document keeps its backslash-
		// newline; the document's end and the command after it stay.
		{"cat <<'EOF'\nnotes: run with --password \\\nEOF\nrm -rf victimdir", "\nEOF\nrm -rf victimdir"},
	} {
		if got := r.Command(tc.in, nil); !strings.Contains(got, tc.keep) {
			t.Errorf("Command(%q) = %q: want %q kept", tc.in, got, tc.keep)
		}
	}
}

// TestQuotedSecretWords: a secret whose name or value a quote splits, or
// whose quoted value holds a blank, is taken out of the command text whole
// with its word, the other words kept (attack runs 75 and 76: the
// command kept `env "API_TOKEN"=S3CRET`, and the part of a quoted
// password after its blank); a header of variables' references is kept.
func TestQuotedSecretWords(t *testing.T) {
	r, err := audit.NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{`env "API_TOKEN"=S3CRETq1 true`, `env [REDACTED] true`},
		{`export "API_TOKEN"=S3CRETq2; ls`, `export [REDACTED]; ls`},
		{`mysql "--password"=S3CRETq3 db`, `mysql [REDACTED] db`},
		{`docker run -e "DB_PASSWORD"=S3CRETq4 img`, `docker run -e [REDACTED] img`},
		{`psql "postgres"://bob:S3CRETq5@db/x`, `psql [REDACTED]`},
		{`psql "postgres://bob:S3CRETq6 more$X@db/x"; touch h`, `psql [REDACTED]; touch h`},
		{`X=1; env "DB_PASSWORD=S3CRETq7 more$X" ./run`, `X=1; env [REDACTED] ./run`},
		{`curl -H "Authorization: Bearer $TOKEN" x; touch h`, `curl -H "Authorization: Bearer $TOKEN" x; touch h`},
		{`echo "hello world" && ls -la`, `echo "hello world" && ls -la`},
	} {
		if got := r.Command(c.in, nil); got != c.want {
			t.Errorf("Command(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNestedWordAcrossQuotes: a word of a script given to eval may run
// across the closing quote of the outer word that holds it; a redaction in
// it stops short of that quote, and what is left parses (fuzzing found
// the text below, with a nested program named 0, redacted to one that
// did not).
func TestNestedWordAcrossQuotes(t *testing.T) {
	r, err := audit.NewRedactor(nil)
	if err != nil {
		t.Fatal(err)
	}
	in := `'0 Auth:'''0`
	got := r.Command(in, []audit.Segment{{Argv: []string{"0"}, Via: []string{"eval"}}})
	if _, err := syntax.NewParser().Parse(strings.NewReader(strings.ReplaceAll(got, audit.Redacted, "x")), ""); err != nil {
		t.Errorf("Command(%q) = %q, which does not parse: %v", in, got, err)
	}
}
