package audit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
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
}

// shellWord matches a value as the shell reads one word of it: single- and
// double-quoted parts, $'…' parts, backslash escapes and plain characters,
// in any sequence (PASSWORD=abc"S3CRET" is one word).
const shellWord = `(?:\$'(?:[^'\\]|\\.)*'|'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\&;|])+`

// builtinRedactions are the secrets every record is cleaned of. Order
// matters: the wider forms (a whole header) come before the narrower ones
// they contain.
var builtinRedactions = []redaction{
	// Without an END line, only the base64 lines that follow are the
	// key: the rest of the command stays in the record (an attack run
	// hid what a command ran behind a lone BEGIN line).
	{"private key block", `-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----|(?:\s*[A-Za-z0-9+/]{16,}={0,2})*)`, 0, []string{"private key-----"}},
	{"Authorization header", `(?i)(\b(?:proxy-)?authorization\s*:\s*)(?:(?:bearer|basic|token|digest)\s+)?[^\s'"]+`, 1, []string{"authorization"}},
	{"bearer token", `(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`, 1, []string{"bearer"}},
	{"URL credentials", `(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s:@'"]+:[^/\s@'"]+@`, 1, []string{"://"}},
	{"password option", `(?i)(--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret)(?:=|\s+))` + shellWord, 1,
		[]string{"-pass", "-token", "-api", "-secret", "-client"}},
	{"secret assignment", `(?i)(\b[a-z0-9_]*(?:password|passwd|pwd|pass|token|secret|auth|key|credentials?)[a-z0-9_]*\s*[=:]\s*)` + shellWord, 1,
		[]string{"pass", "pwd", "token", "secret", "auth", "key", "credential"}},
	{"JSON secret member", `(?i)("[a-z0-9_-]*(?:password|passwd|pass|token|secret|auth|key|credentials?)[a-z0-9_-]*"\s*:\s*)"(?:[^"\\]|\\.)*"`, 1,
		[]string{"pass", "token", "secret", "auth", "key", "credential"}},
	{"secret header", `(?i)(\b(?:x-api-key|api-key|x-auth-token|auth-token|private-token|x-amz-security-token|cookie|set-cookie)\s*:\s*)[^'"\n]+`, 1,
		[]string{"api-key", "auth-token", "private-token", "security-token", "cookie"}},
	{"user and password option", `((?:^|\s)(?:-u|--user)(?:=|\s*))[^\s:'"]*:` + shellWord, 1, []string{"-u", "--user"}},
	{"mysql password", `(?i)(\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^|;&\n]*?\s-p)[^\s'"]+`, 1, []string{"mysql", "mariadb"}},
	{"sshpass password", `(\bsshpass\s+-p\s*)\S+`, 1, []string{"sshpass"}},
	{"netrc password", `(?i)(\blogin\s+\S+\s+password\s+)\S+`, 1, []string{"password"}},
	{"URL query secret", `(?i)([?&](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-credential|code|key|api_?key|access_?token|token|password|secret)=)[^&\s'"#]+`, 1,
		[]string{"sig", "signature", "credential", "code=", "key=", "token=", "password=", "secret="}},
	{"URL token", `(?i)(\b[a-z][a-z0-9+.-]*://)[A-Za-z0-9_.~+/=-]{16,}@`, 1, []string{"://"}},
	{"AWS access key ID", `\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b`, 0,
		[]string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva", "aipa"}},
	{"GCP API key", `\bAIza[0-9A-Za-z_-]{35}\b`, 0, []string{"aiza"}},
	{"GitHub token", `\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`, 0, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}},
	{"OpenAI or Anthropic key", `\bsk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_-]{20,}`, 0, []string{"sk-"}},
	{"Slack token", `\bxox[abposr]-[A-Za-z0-9-]{10,}`, 0, []string{"xox"}},
}

// builtinRE compiles the built-in redactions, each on first need.
var builtinRE = func() []func() *regexp.Regexp {
	out := make([]func() *regexp.Regexp, len(builtinRedactions))
	for i, r := range builtinRedactions {
		out[i] = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(r.re) })
	}
	return out
}()

// mayHold reports whether s, lowered, contains one of r's triggers.
func (r *redaction) mayHold(lower string) bool {
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

// String returns s with every secret replaced by Redacted.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	lower := strings.ToLower(s)
	for i := range builtinRedactions {
		if !builtinRedactions[i].mayHold(lower) {
			continue
		}
		re := builtinRE[i]()
		if keep := builtinRedactions[i].keep; keep > 0 {
			s = re.ReplaceAllString(s, fmt.Sprintf("${%d}%s", keep, Redacted))
		} else {
			s = re.ReplaceAllLiteralString(s, Redacted)
		}
	}
	for _, re := range r.extra {
		s = re.ReplaceAllLiteralString(s, Redacted)
	}
	return s
}

// Record redacts, in place, the fields of rec that hold command text: the
// command, argv, each segment's argv and reason, the error, the models'
// reasons and errors, and a human's message and remembered rules.
func (r *Redactor) Record(rec *Record) {
	if r == nil {
		return
	}
	rec.Command = r.String(rec.Command)
	rec.Error = r.String(rec.Error)
	rec.Argv = r.strings(rec.Argv)
	r.llm(rec.LLM)
	for i := range rec.Segments {
		s := &rec.Segments[i]
		s.Argv = r.strings(s.Argv)
		s.Reason = r.String(s.Reason)
		r.llm(s.LLM)
	}
	if rec.Human != nil {
		// A human's message and remembered rules may quote the command.
		rec.Human.Message = r.String(rec.Human.Message)
		rec.Human.Rules = r.strings(rec.Human.Rules)
	}
}

// llm redacts a model's review: its reason may quote the command (an
// attack run's model did), and an error may quote the answer.
func (r *Redactor) llm(l *LLM) {
	if l != nil {
		l.Reason, l.Error, l.Warning = r.String(l.Reason), r.String(l.Error), r.String(l.Warning)
	}
}

// strings redacts each word and, for secrets split across words (a
// header name and its value, an option and its value), the words joined.
func (r *Redactor) strings(words []string) []string {
	if len(words) == 0 {
		return words
	}
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = r.String(w)
	}
	for i := 0; i+1 < len(out); i++ {
		pair := out[i] + " " + out[i+1]
		if red := r.String(pair); red != pair && strings.HasPrefix(red, out[i]+" ") {
			out[i+1] = red[len(out[i])+1:]
		}
	}
	return out
}
