package audit

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Redacted replaces a secret in a redacted record.
const Redacted = "[REDACTED]"

// redaction is one built-in form of secret: re matches it, and group
// keep (when > 0) is the prefix that stays (the header name, the option).
// Every match of re contains, ignoring case, one of triggers: a text with
// none is left alone without compiling or running re, so a record with no
// secret-looking word costs a few substring searches.
type redaction struct {
	name     string
	re       string
	keep     int
	triggers []string
	// valid, when not nil, accepts or rejects a match (m as
	// FindStringSubmatchIndex gives it) that re cannot judge.
	valid func(s string, m []int) bool
}

// programAnchored names the redactions whose match starts at a program's
// name and reaches its option's value across any words between (see
// wordSpans): mysql's, 7-Zip's, htpasswd's, sshpass's, the config set
// and login forms, and each of programPasswords.
var programAnchored = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"mysql password": true, "7-Zip password": true, "config set secret": true,
		"poetry config secret": true, "login token": true, "htpasswd password": true, "sshpass password": true,
		"cookie pair": true}
	for _, p := range programPasswords {
		m[p.name+" password option"] = true
	}
	return m
})

// redactionNeeds holds, by a redaction's name, lists of which every match
// of it contains one of each besides one of its triggers: a text without
// is left alone as well. A rule's reason names its file (config.yaml:4),
// a .env's ask names <built-in secrets>, every Claude Code command holds
// `shopt -u extglob` and pwd: without these, every such record would
// compile and run the patterns they trigger (some 0.1 ms each).
var redactionNeeds = map[string][][]string{
	"user and password option":       {{userOption}, userPasswordMarks},
	"config set secret":              {{"set"}},
	"gh secret set password option":  {{"gh"}},
	"secret assignment":              {{"=", ":"}},
	"JSON secret member":             {{":"}},
	"quoted secret member":           {{":"}, {"'"}},
	"password after a run-time user": {{userOption}, {":"}},
	"cookie pair":                    {{";"}, {"="}},
	"escaped JSON secret member":     {{`\"`}},
}

// userOption, as a need, stands for an option that takes a user: a word
// starting with "-" and letters, one of them u (-u, -su, -fsSLu, -U), or
// --user, --proxy-user and the prefixes of it curl takes (--proxy-u),
// quoted or not (see hasUserOption). Reasons and paths hold a u,
// a "-" and a ":" often enough (`<embedded default>:104`,
// shell-snapshots) that the two patterns it guards compiled and ran for
// every Claude Code command's record.
const userOption = "\x00user option"

// hasUserOption reports whether lower, lower-cased, holds a user option
// (see userOption) at its start or after a blank or control character.
func hasUserOption(lower string) bool {
	for i := 0; i < len(lower); i++ {
		if lower[i] != '-' {
			continue
		}
		before := i
		if before > 0 && (lower[before-1] == '"' || lower[before-1] == '\'') {
			before-- // a quoted option: "-u" bob:pw
		}
		if before > 0 && lower[before-1] > ' ' {
			continue
		}
		if rest := lower[i:]; strings.HasPrefix(rest, "--user") || strings.HasPrefix(rest, "--proxy-u") {
			return true
		}
		for j := i + 1; j < len(lower) && lower[j] >= 'a' && lower[j] <= 'z'; j++ {
			if lower[j] == 'u' {
				return true
			}
		}
	}
	return false
}

// holds reports whether lower holds need n (see redactionNeeds).
func holds(lower, n string) bool {
	if n == userOption {
		return hasUserOption(lower)
	}
	return strings.Contains(lower, n)
}

// userPasswordMarks are what a user-and-password value holds: its colon,
// written as is or escaped ($'\x3a', $'\072'), or a run-time part that
// may make one.
var userPasswordMarks = []string{":", `\x3a`, `\072`, "$"}

// userPassword accepts a user-and-password option's match whose value
// (after group 1) holds one of userPasswordMarks: `curl -u "bob:pw"`, and
// not `shopt -u extglob`.
func userPassword(s string, m []int) bool {
	v := strings.ToLower(s[m[3]:m[1]])
	for _, mark := range userPasswordMarks {
		if strings.Contains(v, mark) {
			return true
		}
	}
	return false
}

// programPasswords are the programs whose own option's value is a
// password, a token or a cookie (attack run 57's table), and those
// options: docker login -p, redis-cli -a, zip -P, ssh-keygen -N and -P
// (new and old passphrase), openssl -k and -passin/-passout, curl's
// cookies, gh secret set's body, smbclient's user%password. Each makes a
// redaction of the program's name, any words up to the option, and the
// value in any quoting.
var programPasswords = []struct {
	name, program, trigger string
	options                []string
	valid                  func(s string, m []int) bool
	// glued: the value may follow the option in the same word (-pS),
	// and a short option end a group of others (-sSb), as getopt and
	// pflag read them.
	glued bool
}{
	{"docker login", `docker[ \t]+login`, "docker", []string{"-p"}, nil, true},
	{"podman login", `podman[ \t]+login`, "podman", []string{"-p"}, nil, true},
	{"helm registry login", `helm[ \t]+registry[ \t]+login`, "helm", []string{"-p"}, nil, true},
	{"oc login", `oc[ \t]+login`, "oc", []string{"-p"}, nil, true},
	{"az login", `az[ \t]+login`, "az", []string{"-p"}, nil, true},
	{"twine", `twine`, "twine", []string{"-p"}, nil, true},
	{"poetry publish", `poetry[ \t]+publish`, "poetry", []string{"-p"}, nil, true},
	{"mongosh", `mongo(?:sh)?`, "mongo", []string{"-p"}, nil, true},
	{"redis-cli", `redis-cli`, "redis-cli", []string{"-a"}, nil, true},
	{"zip", `zip`, "zip", []string{"-P"}, nil, true},
	{"ssh-keygen", `ssh-keygen`, "ssh-keygen", []string{"-N", "-P"}, nil, true},
	{"openssl", `openssl`, "openssl", []string{"-k", "-passin", "-passout"}, nil, false},
	{"curl", `curl`, "curl", []string{"-b", "--cookie"}, nil, true},
	// Attack run 69: HTTPie's -a USER:PW, unzip's -P, the OpenLDAP
	// tools' -w, PuTTY's -pw.
	{"HTTPie", `https?`, "http", []string{"-a", "--auth"}, func(s string, m []int) bool { return strings.Contains(s[m[3]:m[1]], ":") }, true},
	{"unzip", `unzip`, "unzip", []string{"-P"}, nil, true},
	{"OpenLDAP", `ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)`, "ldap", []string{"-w"}, nil, true},
	{"PuTTY", `(?:pscp|plink|psftp)`, "-pw", []string{"-pw"}, nil, false},
	// A client certificate's passphrase after its file (curl(1) -E
	// CERT[:PASSWORD]); the file's name goes with it (attack run 67).
	{"curl certificate", `curl`, "curl", []string{"-E", "--cert"}, func(s string, m []int) bool { return strings.Contains(s[m[3]:m[1]], ":") }, true},
	{"gh secret set", `gh[ \t]+secret[ \t]+set`, "secret", []string{"-b", "--body"}, nil, true},
	// smbclient's -U holds a password only after a %.
	{"smbclient", `smbclient`, "smbclient", []string{"-U", "--user"}, func(s string, m []int) bool { return strings.Contains(s[m[3]:m[1]], "%") }, true},
}

// programRedactions returns the redactions of programPasswords.
func programRedactions() []redaction {
	var out []redaction
	for _, p := range programPasswords {
		opts := make([]string, len(p.options))
		for i, o := range p.options {
			opts[i] = regexp.QuoteMeta(o)
			if p.glued && len(o) == 2 {
				// getopt reads a short option last in a group of
				// others: curl -sSb 'sid=S' (attack run 67).
				opts[i] = "-[A-Za-z]*" + regexp.QuoteMeta(o[1:])
			}
		}
		sep := `=|[ \t]+`
		if p.glued {
			sep += "|"
		}
		out = append(out, redaction{p.name + " password option",
			`(\b` + p.program + `\b(?:'[^'\n]*'|"[^"\n]*"|[^|;&\n'"])*?[ \t](?:` + strings.Join(opts, "|") + `)(?:` + sep + `))` + shellWord, 1, []string{p.trigger}, p.valid})
	}
	return out
}

// cookieHeadPairs matches a Cookie header up to a pair: its name, and
// name=value pairs separated by "; ", nothing else.
var cookieHeadPairs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("(?i)^cookie[ \\t]*:[ \\t]*[^'\"\\s;&|<>()`]*(?:;[ \\t]*[^'\"\\s;&|<>()`]*)*$")
})

// cookieLookback bounds how far before a cookie pair cookiePair looks
// for its header or option (bytes).
const cookieLookback = 64 << 10

// cookieOptionPairs matches curl's -b or --cookie and the pairs of its
// value up to a pair.
var cookieOptionPairs = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^(?:-[A-Za-z]*b|--cookie)(?:=|[ \\t]+)[\"']?[^'\"\\s;&|<>()`]*(?:;[ \\t]*[^'\"\\s;&|<>()`]*)*$")
})

// cookiePair accepts a "; name=value" that follows a Cookie header's
// pairs and nothing else: `Cookie: a=1; sid=S`, not `echo Cookie: a
// $HOME; X=1 touch f` (an assignment of a command).
func cookiePair(s string, m []int) bool {
	// Looked for within cookieLookback bytes before the pair: a whole
	// text's rescan per pair made a 100 KB cookie string take 20 s
	// (attack run 64).
	from := max(0, m[0]-cookieLookback)
	before := s[from:m[0]]
	i := strings.LastIndex(strings.ToLower(before), "cookie")
	head := i >= 0 && cookieHeadPairs().MatchString(before[i:])
	if !head {
		// Or a cookie string given to curl's -b/--cookie (attack run
		// 62: -b "a=1; sid=S" published sid's value), in a group of
		// short options too (-sb).
		b := max(strings.LastIndex(before, "b "), strings.LastIndex(before, "b="), strings.LastIndex(before, "--cookie"))
		if b >= 0 && before[b] == 'b' {
			for b > 0 && ('a' <= before[b-1] && before[b-1] <= 'z' || 'A' <= before[b-1] && before[b-1] <= 'Z') {
				b--
			}
			b--
		}
		head = b >= 0 && strings.Contains(before[:b], "curl") && cookieOptionPairs().MatchString(before[b:])
	}
	if !head {
		return false
	}
	// Its value ends the pairs or is followed by another: a word after
	// it makes it an assignment of a command's (`echo Cookie: a;
	// BASH_ENV=x bash`, attack run 62).
	return cookiePairEnds(s, m)
}

// cookiePairEnds reports whether a cookie pair's value (ending at m[1])
// is followed by another pair, a quote, a newline or the end, blanks
// aside.
func cookiePairEnds(s string, m []int) bool {
	rest := strings.TrimLeft(s[m[1]:], " \t")
	return rest == "" || strings.ContainsRune(";'\"\n", rune(rest[0]))
}

// notAuthor rejects a name whose only secret word is the "auth" of
// "author" (author:, "author": in a package.json, a commit's
// Co-Authored-By: trailer, which a new user's every agent commit had
// redacted).
func notAuthor(s string, m []int) bool {
	name := strings.ReplaceAll(strings.ToLower(s[m[2]:m[3]]), "author", "")
	for _, w := range [...]string{"pass", "pwd", "token", "secret", "auth", "key", "cred", "_pat", "_pw"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// notNegated rejects an option --no-…: --no-password takes no value.
func notNegated(s string, m []int) bool {
	return !strings.Contains(strings.ToLower(s[m[2]:m[3]]), "-no-")
}

// vaultToken accepts `vault login TOKEN`, not an option or a
// method's key=value after login.
func vaultToken(s string, m []int) bool {
	v := s[m[3]:m[1]]
	return !strings.HasPrefix(v, "-") && !strings.Contains(v, "=")
}

// htpasswdBatch accepts an htpasswd command whose options hold -b (the
// password on the command line: htpasswd -b FILE USER PASSWORD).
func htpasswdBatch(s string, m []int) bool {
	for _, w := range strings.Fields(s[m[2]:m[3]])[1:] {
		if !strings.HasPrefix(w, "-") {
			break
		}
		if !strings.HasPrefix(w, "--") && strings.Contains(w, "b") {
			return true
		}
	}
	return false
}

// sameLabel accepts a key block whose BEGIN and END lines (groups 1 and 2)
// name the same kind of key.
func sameLabel(s string, m []int) bool { return s[m[2]:m[3]] == s[m[4]:m[5]] }

// shellWord matches a value as the shell reads one word of it: single- and
// double-quoted parts, $'…' parts, backslash escapes and plain characters,
// command substitutions, in any sequence (PASSWORD=abc"S3CRET" is one
// word); an unquoted < > ( ) or backquote that starts none ends it, as it
// ends a word (--with-token < t took "<").
const shellWord = `(?:\$'(?:[^'\\]|\\.)*'|'[^']*'|"(?:[^"\\]|\\.)*"|\$\((?:[^()]|\([^()]*\))*\)|\x60(?:[^\x60\\]|\\.)*\x60|\\.|[^\s'"\\&;|<>()\x60])+`

// builtinRedactions are the secrets every record is cleaned of. Order
// matters: the wider forms (a whole header) come before the narrower ones
// they contain.
var builtinRedactions = append([]redaction{
	// A key block is BEGIN and END lines of the same label around
	// base64 lines (and RFC 1421 headers such as Proc-Type: 4,ENCRYPTED);
	// without an END line, only the base64 lines that follow are the
	// key. Nothing else is: an attack run hid `touch h2` between a BEGIN
	// and an END line written as arguments of two echo commands.
	{"private key block", `-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----(?:(?:\s|\\[nr]|['"])*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+:[ \t]*[A-Za-z0-9,._/-]+))*(?:\s|\\[nr]|['"])*-----END ([A-Z0-9 ]*PRIVATE KEY)-----`, 0,
		[]string{"private key-----"}, sameLabel},
	{"private key without its END line", `-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:(?:\s|\\[nr]|['"])*[A-Za-z0-9+/]{16,}={0,2})*`, 0, []string{"private key-----"}, nil},
	{"Authorization header", `(?i)(\b(?:proxy-)?authorization[ \t]*:[ \t]*)(?:(?:bearer|basic|token|digest)[ \t]+)?[^\s'"]+`, 1, []string{"authorization"}, nil},
	{"bearer token", `(?i)(\bbearer[ \t]+)[A-Za-z0-9._~+/=-]{8,}`, 1, []string{"bearer"}, nil},
	{"URL credentials", `(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s:@'"]*:[^/\s@'"]+@`, 1, []string{"://"}, nil},
	// Any option whose last word is one of these (--http-password,
	// --docker-password, --access-token), not --no-… (attack run 61).
	// Also --auth USER:PW (HTTPie), --pat (Azure DevOps' personal access
	// token), keytool's -storepass and -keypass (and -srcstorepass,
	// -deststorepass, -destkeypass …), gpg's --passphrase.
	{"password option", `(?i)((?:^|[\s'"=])--?(?:[a-z0-9]+-)*(?:password|passwd|pass|passphrase|token|api-key|apikey|secret|client-secret|auth|pat|(?:src|dest|new)?(?:storepass|keypass))(?:=|[ \t]+))` + shellWord, 1,
		[]string{"-pass", "-token", "-api", "-secret", "-client", "-auth", "-pat", "storepass", "keypass"}, notNegated},
	// The value follows = at once (NAME= prog is an empty value and a
	// program), or = with blanks before it (SECRET_KEY = 'v' in a
	// here-document's Python), or a colon and blanks, never a newline: a
	// comment ending in "key:" made the next line's program [REDACTED]
	// (attack run 59).
	{"secret assignment", `(?i)(\b(?:[a-z0-9_-]*(?:password|passwd|pwd|pass|token|secret|auth|key|credentials?|creds)[a-z0-9_-]*|[a-z0-9_-]*_(?:pat|pw))(?:=|[ \t]+=[ \t]*|[ \t]*:[ \t]*))` + shellWord, 1,
		[]string{"pass", "pwd", "token", "secret", "auth", "key", "credential", "creds", "_pat", "_pw"}, notAuthor},
	{"JSON secret member", `(?i)("[a-z0-9_-]*(?:password|passwd|pwd|pass|token|secret|auth|key|credentials?)[a-z0-9_-]*"[ \t]*:[ \t]*)"(?:[^"\\]|\\.)*"`, 1,
		[]string{"pass", "pwd", "token", "secret", "auth", "key", "credential"}, notAuthor},
	// The same in a Python or JavaScript literal: {'password': 'v'}.
	{"quoted secret member", `(?i)('[a-z0-9_-]*(?:password|passwd|pwd|pass|token|secret|auth|key|credentials?)[a-z0-9_-]*'[ \t]*:[ \t]*)'(?:[^'\\]|\\.)*'`, 1,
		[]string{"pass", "pwd", "token", "secret", "auth", "key", "credential"}, notAuthor},
	// A header's value ends at a character that may separate commands:
	// a script the analysis never read (a variable's value eval runs)
	// kept `; touch F` after a Cookie header's value hidden (attack run
	// 61). A cookie's later pairs are the next form.
	{"secret header", "(?i)(\\b(?:x-api-key|api-key|x-auth-token|auth-token|private-token|x-amz-security-token|cookie|set-cookie)[ \\t]*:[ \\t]*)[^'\"\\n;&|<>()`\\\\$]+", 1,
		[]string{"api-key", "auth-token", "private-token", "security-token", "cookie"}, nil},
	{"cookie pair", "(;[ \\t]*[A-Za-z0-9_.!#%*+^~-]+=)[^'\"\\s;&|<>()`$\\\\]+", 1, []string{"cookie", "b"}, cookiePair},
	// curl, wget and the like: -u/--user, -U/--proxy-user, and -u last
	// in a group of short options (curl -su, -fsSLu); the value in any
	// quoting (attack run 56: `curl -u "bob:pw"` kept pw in the record's
	// command). Its trigger is the u every match holds (-AU$ is one:
	// a cluster glued to its value); what it needs besides
	// (userPasswordMarks) keeps most texts from running it.
	{"user and password option", `((?:^|\s)["']?(?:-[A-Za-z]*[uU]|--user|--proxy-u(?:s(?:er?)?)?)["']?(?:=|[ \t]*))` + shellWord, 1,
		[]string{"u"}, userPassword},
	// Its password after a user only known at run time ($(id -un),
	// backquotes, ${U:-bob}): the text after the user's last colon
	// (attack run 59: the substitution stopped the redaction above).
	{"password after a run-time user", "((?:^|\\s)[\"']?(?:-[A-Za-z]*[uU]|--user|--proxy-u(?:s(?:er?)?)?)[\"']?(?:=|[ \\t]*)[\"']?(?:\\$\\([^)]*\\)|`[^`]*`|\\$\\{[^}]*\\}|[^\\s:'\"])*:)[^\\s'\"]+", 1,
		[]string{"u"}, nil},
	// A JSON member written inside a double-quoted shell word, its
	// quotes escaped: curl -d "{\"password\":\"S\"}" (attack run 57).
	{"escaped JSON secret member", `(?i)(\\"[a-z0-9_-]*(?:password|passwd|pwd|pass|token|secret|auth|key|credentials?)[a-z0-9_-]*\\"[ \t]*:[ \t]*)\\"(?:[^"\\]|\\[^"])*\\"`, 1,
		[]string{"pass", "pwd", "token", "secret", "auth", "key", "credential"}, notAuthor},
	{"mysql password", `(?i)(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb)\b[^|;&\n]*?[ \t]-p)` + shellWord, 1, []string{"mysql", "mariadb"}, nil},
	// Programs whose own option or argument is a password: see also
	// programPasswords.
	{"7-Zip password", `(\b7z[ar]?\b[^|;&\n]*?[ \t]-p)` + shellWord, 1, []string{"7z"}, nil},
	{"config set secret", `(?i)(\b(?:aws[ \t]+configure|npm[ \t]+config|yarn[ \t]+config|pnpm[ \t]+config|pip[ \t]+config)[ \t]+set[ \t]+\S*(?:password|passwd|secret|token|auth|key|credential)\S*[ \t]+)` + shellWord, 1,
		[]string{"config"}, nil},
	{"poetry config secret", `(?i)(\bpoetry[ \t]+config[ \t]+(?:pypi-token|http-basic)\.\S+[ \t]+(?:\S+[ \t]+)?)` + shellWord, 1, []string{"poetry"}, nil},
	{"login token", `(\b(?:vault|cargo)[ \t]+login(?:[ \t]+-\S+)*[ \t]+)` + shellWord, 1, []string{"login"}, vaultToken},
	{"htpasswd password", `(\bhtpasswd(?:[ \t]+-\S+)+(?:[ \t]+` + shellWord + `){2}[ \t]+)` + shellWord, 1, []string{"htpasswd"}, htpasswdBatch},
	{"SQL password", `(?i)(\b(?:identified(?:[ \t]+with[ \t]+\S+)?[ \t]+by|password(?:[ \t]+for[ \t]+\S+[ \t]*=)?)[ \t]+)'(?:[^']|'')*'`, 1, []string{"identified", "password"}, nil},
	{"sshpass password", `(\bsshpass[ \t]+-p[ \t]*)` + shellWord, 1, []string{"sshpass"}, nil},
	{"netrc password", `(?i)(\blogin\s+\S+\s+password[ \t]+)\S+`, 1, []string{"password"}, nil},
	{"URL query secret", `(?i)([?&](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-credential|code|key|api_?key|access_?token|token|password|secret)=)[^&\s'"#]+`, 1,
		[]string{"sig", "signature", "credential", "code=", "key=", "token=", "password=", "secret="}, nil},
	{"URL token", `(?i)(\b[a-z][a-z0-9+.-]*://)[A-Za-z0-9_.~+/=-]{16,}@`, 1, []string{"://"}, nil},
	{"AWS access key ID", `\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b`, 0,
		[]string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa"}, nil},
	{"GCP API key", `\bAIza[0-9A-Za-z_-]{35}\b`, 0, []string{"aiza"}, nil},
	{"GitHub token", `\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`, 0, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, nil},
	{"OpenAI or Anthropic key", `\bsk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_-]{20,}`, 0, []string{"sk-"}, nil},
	{"Slack token", `\bxox[abposr]-[A-Za-z0-9-]{10,}`, 0, []string{"xox"}, nil},
	{"Stripe key", `\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`, 0, []string{"k_live_", "k_test_"}, nil},
	{"Hugging Face, npm, PyPI or GitLab token", `\b(?:hf_[A-Za-z0-9]{30,}|npm_[A-Za-z0-9]{36,}|pypi-[A-Za-z0-9_-]{50,}|glpat-[A-Za-z0-9_-]{20,})`, 0,
		[]string{"hf_", "npm_", "pypi-", "glpat-"}, nil},
	{"JSON web token", `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, 0, []string{"eyj"}, nil},
	{"webhook URL", `(?i)(\bhooks\.slack\.com/services/|\bdiscord(?:app)?\.com/api/webhooks/|\bapi\.telegram\.org/bot)[A-Za-z0-9/:_-]+`, 1,
		[]string{"hooks.slack.com", "/api/webhooks/", "api.telegram.org"}, nil},
}, programRedactions()...)

// builtinRE compiles the built-in redactions, each on first need.
var builtinRE = func() []func() *regexp.Regexp {
	out := make([]func() *regexp.Regexp, len(builtinRedactions))
	for i, r := range builtinRedactions {
		out[i] = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(r.re) })
	}
	return out
}()

// mayHold reports whether s, lowered, contains one of r's triggers (and
// what r needs): the definition the redactors work by, which they reach
// by wordMarks (marksOf, wordMarks.may) so that a text or a window of
// words is searched once for all redactions' strings, not once per
// redaction (TestWordMarksAgreeWithMayHold holds the two together).
func (r *redaction) mayHold(lower string) bool {
	for _, needs := range redactionNeeds[r.name] {
		if !slices.ContainsFunc(needs, func(n string) bool { return holds(lower, n) }) {
			return false
		}
	}
	for _, t := range r.triggers {
		if strings.Contains(lower, t) {
			return true
		}
	}
	return false
}

// Redactor removes secrets from records before they are written: the
// built-in forms (bearer tokens, Authorization headers, credentials in
// URLs, password and token options and assignments, AWS, GCP, GitHub,
// OpenAI/Anthropic and Slack keys, private key blocks) and the extra
// patterns it was made with. The decision is made on the real command;
// only the record is redacted. A nil *Redactor redacts nothing.
type Redactor struct {
	extra []*regexp.Regexp
}

// NewRedactor returns a Redactor for the built-in forms and extra, Go
// regular expressions (RE2 syntax) whose whole match is replaced. An extra
// pattern that does not compile is an error naming it; one that matches
// the empty string is refused (it would redact nothing and everything).
func NewRedactor(extra []string) (*Redactor, error) {
	r := &Redactor{}
	for _, e := range extra {
		re, err := regexp.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("redact pattern %q: %w", e, err)
		}
		if re.MatchString("") {
			return nil, fmt.Errorf("redact pattern %q matches the empty string", e)
		}
		r.extra = append(r.extra, re)
	}
	return r, nil
}

// String returns s with every secret replaced by Redacted, s taken as
// text: a match is replaced whole (from the end of its kept prefix).
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	return r.redact(s, &bounds{whole: true}, true)
}

// Command returns the shell text cmd with every secret replaced by
// Redacted, each replacement kept inside the word that holds the secret
// (see bounds): the rest of the command stays in the record whatever a
// pattern would match. segments are the command's (its record's): a word
// that is a script for one of those found in nested code (Segment.Via:
// bash -c '…', eval '…') is bounded by its own words in turn. Text that
// does not parse is cut at every character that may separate commands.
func (r *Redactor) Command(cmd string, segments []Segment) string {
	return r.command(cmd, nestedPrograms(segments))
}

func (r *Redactor) command(cmd string, nested map[string]bool) string {
	if r == nil {
		return cmd
	}
	lazy := func(text string) func() *bounds {
		var b *bounds
		return func() *bounds {
			if b == nil {
				b = shellBounds(text, nested)
			}
			return b
		}
	}
	spans := r.spans(cmd, lazy(cmd), true)
	spans = append(spans, r.quotedWords(cmd, lazy(cmd), spans)...)
	if strings.Contains(cmd, "\\\n") {
		// bash removes each backslash-newline before it reads words:
		// `curl -u \⏎ bob:pw` gives -u its value, `TOKEN=ab\⏎cd` is
		// one word (attack run 67). The text is matched once more with
		// them removed, and the spans found there mapped back to the
		// text as written.
		joined, at := withoutContinuations(cmd)
		var more [][2]int
		for _, sp := range r.spans(joined, lazy(joined), true) {
			if sp[0] < sp[1] {
				more = append(more, [2]int{at[sp[0]], at[sp[1]-1] + 1})
			}
		}
		// A backslash-newline bash keeps (in a quoted here-document's
		// body) joined words it does not: a span found so swallowed
		// the document's end, and the record showed the command after
		// it as the document's text (attack run 72). The spans found
		// in the joined text count only when the record keeps the
		// command's statements.
		if with := append(slices.Clone(spans), more...); len(more) > 0 && sameStatements(cmd, replaceSpans(cmd, with)) {
			spans = with
		}
	}
	return replaceSpans(cmd, spans)
}

// quotedWords returns, for each word of the shell text cmd (b's words)
// that holds a quote, the whole word when its text with the quotes taken
// out holds a secret that is not only variables' references: found as in
// a value, where no span of found touches the word, and with the blanks
// inside it kept where it holds one. The patterns read a secret's name and value in text as it is written,
// so a quote inside it kept it whole in the record (attack run 76:
// `env "API_TOKEN"=S3CRET true`, `mysql "--password"=…`; attack run 75:
// `"postgres://bob:pw secret$X@db/x"`). The word is replaced whole: the
// command's other words stay.
func (r *Redactor) quotedWords(cmd string, b func() *bounds, found [][2]int) [][2]int {
	if !strings.ContainsAny(cmd, `"'`) {
		return nil
	}
	bd := b()
	if bd.whole {
		return nil
	}
	whole := func() *bounds { return &bounds{whole: true} }
	// The spans found by start, with the furthest end among each prefix:
	// a word [a, b) is touched by one when the furthest end of those
	// starting before b passes a, and one reaches its closing quote when
	// that end is at least b-1 (a scan per word made a 17,000-word
	// command quadratic).
	byStart := slices.Clone(found)
	slices.SortFunc(byStart, func(x, y [2]int) int { return cmp.Compare(x[0], y[0]) })
	maxEnd := make([]int, len(byStart))
	for i, sp := range byStart {
		maxEnd[i] = sp[1]
		if i > 0 {
			maxEnd[i] = max(maxEnd[i], maxEnd[i-1])
		}
	}
	furthest := func(b int) int { // the furthest end of the spans starting before b, or -1
		k, _ := slices.BinarySearchFunc(byStart, b, func(sp [2]int, t int) int { return cmp.Compare(sp[0], t) })
		if k == 0 {
			return -1
		}
		return maxEnd[k-1]
	}
	unquote := strings.NewReplacer(`"`, "", `'`, "")
	var out [][2]int
	for _, w := range bd.words {
		text := cmd[w[0]:w[1]]
		if !strings.ContainsAny(text, `"'`) || strings.Count(text, `"`)%2 == 1 || strings.Count(text, `'`)%2 == 1 {
			// (A word of a nested script may end inside the outer
			// word's quotes: replaced whole, it would leave one.)
			continue
		}
		plain := unquote.Replace(text)
		if strings.ContainsAny(plain, ";&|()<>`\\\n") || strings.Contains(plain, "${") || strings.Contains(text, "$'") {
			// Code, or text that may be (bash -c '…', a printf piped to
			// a shell, an escape or a variable that may hold a newline):
			// the words found in it bound its redactions, and a whole
			// word's would hide its commands.
			continue
		}
		end := furthest(w[1])
		untouched := end <= w[0]
		// A value with a blank inside its quotes, where what the
		// patterns found ended at the blank (a span found that reaches
		// the word's closing quote left nothing after one).
		blank := hasBlank(plain) && end < w[1]-1
		if !untouched && !blank {
			continue
		}
		normal := r.spans(plain, whole, true)
		var spans [][2]int
		if untouched {
			spans = normal
		}
		if blank {
			// What reading past the blank takes more of (not a
			// header's value, which its pattern reads whole).
			more := append(slices.Clone(normal), r.spans(blanksKept(plain), whole, true)...)
			noBlanks := func(s string) string { return strings.Join(strings.Fields(s), "") }
			if noBlanks(replaceSpans(plain, slices.Clone(normal))) != noBlanks(replaceSpans(plain, more)) {
				spans = append(spans, more...)
			}
		}
		for _, s := range spans {
			if v := strings.Trim(plain[s[0]:s[1]], " \t"); v != "" && !referencesOnly(v) {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// sameStatements reports whether shell texts a and b both parse, into
// as many statements and here-documents each.
func sameStatements(a, b string) bool {
	count := func(text string) (stmts, docs int, ok bool) {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil {
			return 0, 0, false
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				stmts++
			case *syntax.Redirect:
				if n.Hdoc != nil {
					docs++
				}
			}
			return true
		})
		return stmts, docs, true
	}
	sa, da, oka := count(a)
	sb, db, okb := count(b)
	return oka && okb && sa == sb && da == db
}

// withoutContinuations returns s with every line continuation removed
// (a backslash-newline outside single quotes and comments whose backslash
// is not itself escaped, as bash reads it), and, for each byte of the
// result, its offset in s. An escaped backslash before a newline (`\\`⏎)
// ends the line: read as a continuation it joined the next command to a
// password option, whose value the record then hid (attack run 69).
// Only redaction uses it: a span it finds covers at most a word of the
// text as bash reads it.
func withoutContinuations(s string) (string, []int) {
	var b strings.Builder
	at := make([]int, 0, len(s))
	keep := func(i int) {
		b.WriteByte(s[i])
		at = append(at, i)
	}
	single, double, comment := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case comment:
			comment = c != '\n'
		case single:
			single = c != '\''
		case c == '\\' && i+1 < len(s):
			if s[i+1] == '\n' {
				i++ // a continuation
				continue
			}
			keep(i) // the backslash and what it escapes
			i++
		case c == '"':
			double = !double
		case c == '\'' && !double:
			single = true
		case c == '#' && !double && (i == 0 || isBlank(s[i-1]) || strings.IndexByte(";&|()", s[i-1]) >= 0):
			comment = true
		}
		keep(i)
	}
	return b.String(), at
}

func (r *Redactor) redact(s string, b *bounds, filter bool) string {
	return r.redactLazy(s, func() *bounds { return b }, filter)
}

// redactLazy replaces the spans every pattern matches in s (see spans),
// each clamped by bounds, asked for only when something matched.
func (r *Redactor) redactLazy(s string, bnd func() *bounds, filter bool) string {
	return replaceSpans(s, r.spans(s, bnd, filter))
}

// spans returns where secrets are in s, [start, end) byte offsets, each
// clamped by bounds (asked for only when something matched). All
// patterns match the original text and their spans are joined, so no
// replacement can make or unmake another's match. filter skips the
// built-in patterns whose triggers s does not hold (tests turn it off to
// check that this changes nothing).
func (r *Redactor) spans(s string, bnd func() *bounds, filter bool) [][2]int {
	return r.spansOf(s, bnd, filter, false, nil)
}

// spansOf is spans, with two choices strings makes for words joined: with
// across, a whole-match secret (keep 0: a key block, a token) is not
// clamped, so that it is redacted in every word it covers; with only not
// nil, just the built-in patterns it picks run (and no extra ones).
func (r *Redactor) spansOf(s string, bnd func() *bounds, filter, across bool, only func(i int) bool) [][2]int {
	var spans [][2]int
	// same: the key and the value must lie in one word of shell text
	// (see bounds.oneWord): the cookie pair's.
	add := func(re *regexp.Regexp, keep int, valid func(string, []int) bool, same bool) {
		// Where the last cookie pair ended, and whether it was taken:
		// the next pair of the same cookie has the same header, found
		// (or not) for the first (a rescan per pair was quadratic).
		chain, taken := -1, false
		for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
			ok := true
			switch {
			case same && m[0] == chain:
				ok = taken && cookiePairEnds(s, m)
			case valid != nil:
				ok = valid(s, m)
			}
			if same {
				chain, taken = m[1], ok
			}
			if !ok {
				continue
			}
			start, end := m[0], m[1]
			if keep > 0 {
				start = m[2*keep+1]
			} else if across {
				spans = append(spans, [2]int{start, end})
				continue
			}
			if keep == 0 && (strings.ContainsAny(s[start:end], "\n'\"") || strings.Contains(s[start:end], `\n`)) {
				// A whole-match secret over several lines or quoted
				// words (a key block written as printf's arguments).
				spans = append(spans, bnd().spread(start, end)...)
				continue
			}
			if same && !bnd().oneWord(m[2], start) {
				// A cookie's ";" is inside its word: one between
				// statements leaves the next one's assignment alone
				// (attack run 64: `echo Cookie: a=1; BASH_ENV=x; …`).
				continue
			}
			if start, end, ok := bnd().clamp(start, end); ok && !onlyReferences().MatchString(s[start:end]) {
				spans = append(spans, [2]int{start, end})
			}
		}
	}
	var marks wordMarks
	if filter {
		marks = marksOf(strings.ToLower(s))
	}
	for i := range builtinRedactions {
		if filter && !marks.may(i) || only != nil && !only(i) {
			continue
		}
		add(builtinRE[i](), builtinRedactions[i].keep, builtinRedactions[i].valid, builtinRedactions[i].name == "cookie pair")
	}
	if only == nil {
		for _, re := range r.extra {
			add(re, 0, nil, false)
		}
	}
	return spans
}

// onlyReferences matches a value made of parameter expansions alone
// ($TOKEN, "${GITHUB_TOKEN}", "$USER:$PASS"), quotes and separators,
// after an authorization scheme (Bearer $TOKEN) or the scheme alone (not
// in single quotes, where '$k9:$Qx7' is a literal): it
// holds no secret the text shows, and redacting it hid which variable a
// command used and kept its record from being replayed (a new user's
// find: -H "Authorization: Bearer $GITHUB_TOKEN").
var onlyReferences = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?i:bearer|basic|token|digest)(?:[ \t]+|$))?(?:\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*|[":@ ])*$`)
})

// referencesOnly reports a value found that holds at least one variable's
// reference and nothing else onlyReferences does not take: no secret the
// text shows.
func referencesOnly(v string) bool {
	return strings.Contains(v, "$") && onlyReferences().MatchString(v)
}

// replaceSpans returns s with each of spans, joined where they overlap or
// touch, replaced by one Redacted.
func replaceSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
	var out strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] <= end; i++ {
			end = max(end, spans[i][1])
		}
		out.WriteString(s[last:start])
		out.WriteString(Redacted)
		last = end
	}
	out.WriteString(s[last:])
	return out.String()
}

// Record redacts, in place, the fields of rec that hold command text: the
// command, argv, each segment's argv and reason, the error, the models'
// reasons and errors, and a human's message and remembered rules. The
// command is redacted as shell text (Command), each redaction inside its
// word, and rec.Redacted is set when that changed it: the text is then
// not the command that was decided, and `audit replay` says so instead of
// deciding it again.
func (r *Redactor) Record(rec *Record) {
	if r == nil {
		return
	}
	nested := nestedPrograms(rec.Segments)
	cmd := rec.Command
	if c := r.command(cmd, nested); c != cmd {
		rec.Command, rec.Redacted = c, true
	}
	rec.Error = r.String(rec.Error)
	argv := make([]string, len(rec.Argv))
	for i, a := range rec.Argv {
		if a == cmd {
			argv[i] = rec.Command // the -c string: redacted as the command
		} else {
			argv[i] = r.String(a)
		}
	}
	if rec.Argv != nil {
		rec.Argv = argv
	}
	r.llm(rec.LLM)
	for i := range rec.Segments {
		s := &rec.Segments[i]
		orig := s.Argv
		s.Argv = r.wordsWritten(s.Argv, s.Written, nested)
		s.Reason = r.String(s.Reason)
		// A reason quotes the segment's words: what was redacted in a
		// word only for what stands beside it (`curl -u "$U:pw"`: the
		// option before it) is redacted in the reason too, however the
		// reason writes the word's run-time parts (attack run 57).
		for j, w := range orig {
			if j >= len(s.Argv) || s.Argv[j] == w {
				continue
			}
			for _, f := range secretFragments(w, s.Argv[j]) {
				s.Reason = strings.ReplaceAll(s.Reason, f, Redacted)
				if s.LLM != nil {
					s.LLM.Reason = strings.ReplaceAll(s.LLM.Reason, f, Redacted)
				}
			}
		}
		r.llm(s.LLM)
	}
	if rec.Human != nil {
		// A human's message and remembered rules may quote the command.
		rec.Human.Message = r.String(rec.Human.Message)
		rec.Human.Rules = r.strings(rec.Human.Rules, nil)
	}
}

// expansionOrQuote matches what a word's secret may be written with and
// a reason renders otherwise: a parameter expansion (${…} with any
// operator, $1, $@), a command substitution ($(…), backquotes), a quote
// (attack run 59: curl -u "$(whoami):pw" kept pw in the reason).
var expansionOrQuote = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\\$\\{[^}]*\\}|\\$\\([^)]*\\)|`[^`]*`|\\$[A-Za-z_][A-Za-z0-9_]*|\\$[0-9@*#?$!-]|[\"']")
})

// secretFragments returns the pieces of word orig that its redaction,
// redacted, replaced (between what it kept before and after), split at
// parameter expansions and quotes, those of at least 4 bytes: what a
// reason quoting orig may hold of the secret.
func secretFragments(orig, redacted string) []string {
	pre, post, ok := strings.Cut(redacted, Redacted)
	if !ok || !strings.HasPrefix(orig, pre) || len(pre)+len(post) > len(orig) {
		return nil
	}
	secret := orig[len(pre):]
	if i := strings.LastIndex(secret, post); post != "" && i >= 0 {
		secret = secret[:i]
	}
	var out []string
	for _, f := range expansionOrQuote().Split(secret, -1) {
		if len(f) >= 4 {
			out = append(out, f)
		}
	}
	return out
}

// llm redacts a model's review: its reason may quote the command (an
// attack run's model did), and an error may quote the answer.
func (r *Redactor) llm(l *LLM) {
	if l != nil {
		l.Reason, l.Error, l.Warning = r.String(l.Reason), r.String(l.Error), r.String(l.Warning)
	}
}

// window is how many consecutive words strings joins to find a secret
// split across them: "Authorization: Bearer TOKEN" as three words.
const window = 3

// strings redacts each word and, for secrets split across words (a
// header name and its value, an option and its value), the words joined,
// each redaction kept inside one word; nested is nestedPrograms'. A word
// that is a script the analysis read (bash -c's, eval's) is redacted as a
// command, each redaction inside one of its words, and never joined with
// others.
func (r *Redactor) strings(words []string, nested map[string]bool) []string {
	return r.wordsWritten(words, nil, nested)
}

// blanksKept returns w with each blank made wordBlank, a byte no
// pattern's value stops at, byte by byte (invalid UTF-8 keeps its length).
func blanksKept(w string) string {
	b := []byte(w)
	for j, c := range b {
		if isBlank(c) {
			b[j] = wordBlank
		}
	}
	return string(b)
}

// wordsWritten is strings, with what is found in the words written marks
// (see Segment.Written: their quotes and expansions as in the command)
// kept from two mistakes: a span that holds only variables' references
// ("Bearer $TOKEN") is no secret the record shows, and is kept, as in the
// command; and a span never takes the word's closing quote (a new user's
// `-H "Authorization: Bearer $TOKEN"` was recorded as
// `"Authorization:[REDACTED]`). Found as values are, blanks inside quotes
// included (`"postgres://bob:pw secret$X@db"` loses all of pw secret$X).
func (r *Redactor) wordsWritten(words []string, written []bool, nested map[string]bool) []string {
	if len(words) == 0 {
		return words
	}
	whole := func() *bounds { return &bounds{whole: true} }
	out := make([]string, len(words))
	script := make([]bool, len(words))
	spans := make([][][2]int, len(words))
	code := len(words) // the first word after a code runner (see bounds.code)
	for i, w := range words {
		if isCodeRunner(w) {
			code = i + 1
			break
		}
	}
	for i, w := range words {
		spans[i] = r.spans(w, whole, true)
		// A word as written is one word of the command, not a script
		// of its own (but a code runner's code): read as one, a quoted
		// value's blank ended the redaction (attack run 75: env
		// "DB_PASSWORD=pw secret$X" kept secret$X).
		isWritten := i < len(written) && written[i]
		if len(spans[i]) > 0 && (i >= code || !isWritten && isScript(w, nested)) {
			// Redacted as shell text, each redaction inside one of its
			// words (or, if it does not parse, between separators).
			out[i], script[i], spans[i] = r.command(w, nested), true, nil
		}
	}
	r.wordSpans(words, script, spans)
	// A word is one value however many blanks it holds (`--user
	// 'b o b:pw'`, `TOKEN="a b"`), where the patterns' values end at a
	// blank, as they do in shell text (attack run 57): the words are
	// matched once more with each blank inside a word made a byte no
	// value stops at, and both passes' spans redacted.
	if slices.ContainsFunc(words, hasBlank) {
		joined := make([]string, len(words))
		for i, w := range words {
			joined[i] = blanksKept(w)
			if !script[i] {
				spans[i] = append(spans[i], r.spans(joined[i], whole, true)...)
			}
		}
		r.wordSpans(joined, script, spans)
	}
	for i, w := range words {
		if !script[i] {
			if i < len(written) && written[i] {
				spans[i] = writtenSpans(w, spans[i])
			}
			out[i] = replaceSpans(w, spans[i])
		}
	}
	return out
}

// writtenSpans returns spans of w, a word as written, less those that
// hold only variables' references (onlyReferences, quotes and blanks
// around them aside), each kept short of a closing quote that ends w.
func writtenSpans(w string, spans [][2]int) [][2]int {
	out := spans[:0:0]
	for _, s := range spans {
		if q := w[len(w)-1]; s[1] == len(w) && s[0] > 0 && s[1]-s[0] > 1 && (q == '"' || q == '\'') && strings.Count(w[:s[0]], string(q))%2 == 1 {
			// A quote opened before the span and closing the word: the
			// span keeps it (a span over the whole word takes both).
			s[1]--
		}
		if referencesOnly(strings.Trim(w[s[0]:s[1]], " \t\"'")) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// wordBlank stands for a blank inside an argv word in strings' second
// pass: a control character no pattern's value stops at (shellWord, \S)
// and none takes for a separator.
const wordBlank = '\x1f'

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func hasBlank(w string) bool { return strings.ContainsAny(w, " \t\n\r\f\v") }

// wordSpans adds to spans, per word, the secrets found in words joined
// by a space, window at a time (a header name and its value, an option
// and its value in two words), each span kept inside one word; words
// that are scripts are never joined. words keep their byte lengths
// whatever pass strings makes, so the spans fit the words it was given.
func (r *Redactor) wordSpans(words []string, script []bool, spans [][][2]int) {
	// A window none of whose words holds a trigger (or a word of one)
	// holds no built-in secret: 17,000 plain words took 52 ms (attack
	// run 59); nor one whose words lack what a redaction needs besides
	// its trigger (see redactionNeeds): the u of `-u` is in most words,
	// and a Claude Code command's record took 0.2 ms joining windows
	// whose patterns then did not run. Extra patterns have no triggers:
	// with them, every window runs.
	marks := make([]wordMarks, len(words))
	for k, w := range words {
		marks[k] = marksOf(strings.ToLower(w))
	}
	// held returns which redactions may hold a secret in words[i:j]
	// (by their index in builtinRedactions), nil for none.
	lists, _ := needTables()
	held := func(i, j int) func(k int) bool {
		if len(r.extra) > 0 || len(builtinRedactions) > 64 || len(lists) > 64 {
			return func(int) bool { return true }
		}
		var m wordMarks
		for _, w := range marks[i:j] {
			m.trig |= w.trig
			m.needs |= w.needs
		}
		var set uint64
		for k := range builtinRedactions {
			if m.may(k) {
				set |= 1 << k
			}
		}
		if set == 0 {
			return nil
		}
		return func(k int) bool { return set&(1<<k) != 0 }
	}
	join := func(i, n int, only func(i int) bool) {
		b := &bounds{words: make([][2]int, 0, n)}
		var sb strings.Builder
		for k := i; k < i+n; k++ {
			if k > i {
				sb.WriteByte(' ')
			}
			b.words = append(b.words, [2]int{sb.Len(), sb.Len() + len(words[k])})
			sb.WriteString(words[k])
		}
		joined := sb.String()
		b.text = joined
		// A span goes to every word it covers: a key block's lines
		// as words of their own (attack run 59: printf '%s\n' BEGIN
		// BODY END kept the body); the others stay in the word they
		// start in (clamp).
		for _, sp := range r.spansOf(joined, func() *bounds { return b }, true, true, only) {
			for k, w := range b.words {
				if s, e := max(sp[0], w[0]), min(sp[1], w[1]); s < e {
					spans[i+k] = append(spans[i+k], [2]int{s - w[0], e - w[0]})
				}
			}
		}
	}
	// In a long argv (more than manyWords), a window starts only at a
	// word that introduces a value in the next: one ending in ":", "=" or
	// "-----", an option, or an auth keyword (see introducesValue); 17,000
	// words holding a trigger each (key=a) took 230 ms.
	many := len(words) > manyWords
	for n := 2; n <= window; n++ {
	next:
		for i := 0; i+n <= len(words); i++ {
			if many && !introducesValue(words[i]) {
				continue
			}
			for k := i; k < i+n; k++ {
				if script[k] {
					continue next
				}
			}
			if only := held(i, i+n); only != nil {
				if len(r.extra) > 0 {
					only = nil // the extra patterns run too
				}
				join(i, n, only)
			}
		}
	}
	// A program's own password option stands anywhere after the program
	// (docker login -u bob -p S, redis-cli -h H -p 6379 -a S): the
	// patterns that start at a program's name run over each run of
	// words longer than a window, whole (attack run 59).
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && !script[j] {
			j++
		}
		if j-i > window {
			if only := held(i, j); only != nil {
				join(i, j-i, func(k int) bool { return only(k) && programAnchored()[builtinRedactions[k].name] })
			}
		}
		i = j + 1
	}
}

// manyWords is the argv length above which wordSpans's windows start only
// where a word introduces a value (introducesValue).
const manyWords = 256

// introducesValue reports a word after which the next word may be a
// secret's value: a key ending in ":" or "=", a key block's BEGIN line
// ending in "-----", an option, or an authorization keyword.
func introducesValue(w string) bool {
	if w == "" {
		return false
	}
	if strings.HasPrefix(w, "-") || strings.HasSuffix(w, ":") || strings.HasSuffix(w, "=") || strings.HasSuffix(w, "-----") {
		return true
	}
	switch strings.ToLower(w) {
	case "bearer", "basic", "token", "digest", "password", "passwd", "login", "by", "set":
		return true
	}
	return false
}

// wordMarks are what one word holds of what the built-in redactions
// need (see wordSpans): bit k of trig for a trigger of
// builtinRedactions[k] (or a word of one that has several: private
// key-----), bit j of needs for one of the strings of needTables' list j.
// No trigger or need holds a blank, so a window of words joined by blanks
// holds one exactly where one of its words does.
type wordMarks struct{ trig, needs uint64 }

//go:generate go test -run ^TestMarkTablesGenerated$ -write-marks

// needTables numbers the lists of redactionNeeds: lists[j] is list j, and
// masks[k] the bits of builtinRedactions[k]'s lists. They are generated
// (marks_gen.go, by computeNeedTables; TestMarkTablesGenerated fails when
// they are out of date): made at run time they cost every guardsh
// process some 0.03 ms, `-c true` too, since every record is redacted.
func needTables() (lists [][]string, masks []uint64) { return genNeedLists, genNeedMasks }

// computeNeedTables makes what needTables returns.
func computeNeedTables() (lists [][]string, masks []uint64) {
	masks = make([]uint64, len(builtinRedactions))
	for k := range builtinRedactions {
		for _, l := range redactionNeeds[builtinRedactions[k].name] {
			masks[k] |= 1 << len(lists)
			lists = append(lists, l)
		}
	}
	return lists, masks
}

// markTableT holds each string a trigger or a need list of the built-in
// redactions names (a trigger with blanks, each of its words), once, with
// the bits it sets in wordMarks: marksOf searches each string once
// (several redactions share pass, token, key, u).
type markTableT struct {
	strs        []string
	trig, needs []uint64
}

// markTable returns the table marksOf searches by, generated like
// needTables' (see there).
func markTable() markTableT { return markTableT{genMarkStrs, genMarkTrig, genMarkNeeds} }

// computeMarkTable makes what markTable returns.
func computeMarkTable() (t markTableT) {
	at := map[string]int{}
	add := func(str string, trig, needs uint64) {
		i, ok := at[str]
		if !ok {
			i = len(t.strs)
			at[str] = i
			t.strs = append(t.strs, str)
			t.trig, t.needs = append(t.trig, 0), append(t.needs, 0)
		}
		t.trig[i] |= trig
		t.needs[i] |= needs
	}
	for k := range builtinRedactions {
		for _, tr := range builtinRedactions[k].triggers {
			for _, w := range strings.Fields(tr) {
				add(w, 1<<k, 0)
			}
		}
	}
	lists, _ := computeNeedTables()
	for j, l := range lists {
		for _, n := range l {
			add(n, 0, 1<<j)
		}
	}
	return t
}

// marksOf returns the wordMarks of a text, lower-cased (the bits of the
// first 64 redactions and lists: with more, wordSpans joins every window,
// and TestRedactionsFitTheMasks fails).
func marksOf(lower string) (m wordMarks) {
	t := markTable()
	for i, str := range t.strs {
		if holds(lower, str) {
			m.trig |= t.trig[i]
			m.needs |= t.needs[i]
		}
	}
	return m
}

// may reports whether builtinRedactions[k] may match a text of marks m:
// one of its triggers and something of each of its need lists are there
// (what mayHold says, but a trigger with blanks counts when one of its
// words is there).
func (m wordMarks) may(k int) bool {
	if k >= 64 {
		return true
	}
	_, needs := needTables()
	return m.trig&(1<<k) != 0 && needs[k]&^m.needs == 0
}
