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

// builtinRedactions are the secrets every record is cleaned of. Order
// matters: the wider forms (a whole header) come before the narrower ones
// they contain.
var builtinRedactions = []redaction{
	{"private key block", `-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`, 0, []string{"private key-----"}},
	{"Authorization header", `(?i)(\b(?:proxy-)?authorization\s*:\s*)(?:(?:bearer|basic|token|digest)\s+)?[^\s'"]+`, 1, []string{"authorization"}},
	{"bearer token", `(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`, 1, []string{"bearer"}},
	{"URL credentials", `(?i)(\b[a-z][a-z0-9+.-]*://)[^/\s:@'"]+:[^/\s@'"]+@`, 1, []string{"://"}},
	{"password option", `(?i)(--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret)(?:=|\s+))(?:'[^']*'|"[^"]*"|[^\s'"]+)`, 1,
		[]string{"-pass", "-token", "-api", "-secret", "-client"}},
	{"secret assignment", `(?i)(\b[a-z0-9_]*(?:password|passwd|pwd|token|secret|api_?key|access_?key|private_?key|credentials?)[a-z0-9_]*\s*[=:]\s*)(?:'[^']*'|"[^"]*"|[^\s'"&;|]+)`, 1,
		[]string{"pass", "pwd", "token", "secret", "apikey", "api_key", "accesskey", "access_key", "privatekey", "private_key", "credential"}},
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
// command, argv, each segment's argv and reason, and the error.
func (r *Redactor) Record(rec *Record) {
	if r == nil {
		return
	}
	rec.Command = r.String(rec.Command)
	rec.Error = r.String(rec.Error)
	rec.Argv = r.strings(rec.Argv)
	for i := range rec.Segments {
		s := &rec.Segments[i]
		s.Argv = r.strings(s.Argv)
		s.Reason = r.String(s.Reason)
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
