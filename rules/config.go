package rules

import (
	"bytes"
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gopkg.in/yaml.v3"
)

// Policy is one parsed config file: the mode, the real shell, the audit
// settings and the rules. Build it with Parse, Load or Default; the zero
// value is a policy with no rules and no mode (Decide treats that as ask).
// A Policy is safe for concurrent use by Decide; do not copy it.
type Policy struct {
	// Mode is the file's mode, canonical (aliases resolved); empty when the
	// file does not set one.
	Mode Mode
	// LockMode (`lock_mode: true`) makes Mode the loosest mode any later
	// layer, the environment or a flag may choose; only the system config's
	// is obeyed (see Merge).
	LockMode bool
	// ModeSource is where Mode was set, "FILE:LINE"; empty when unset.
	ModeSource string
	// modeLine, shellLine and auditLine locate mode:, shell: and audit:
	// (0 when absent), for the warnings of Merge.
	modeLine, shellLine, auditLine int
	// Shell is the absolute path of the real shell that runs commands;
	// empty means: find bash on PATH.
	Shell string
	// Audit says where decisions are recorded.
	Audit AuditConfig
	// Approval says how an ask is put to a human (the `approval:` section).
	Approval ApprovalConfig
	// File is the name the policy was parsed under ("<embedded default>"
	// for Default).
	File string
	// LLM is the llm: section (see LLMConfig); only the user's and the
	// system's count (see Merge).
	LLM LLMConfig
	// Sandbox is the `sandbox:` setting (see sandbox.go).
	Sandbox SandboxConfig
	// Terminal is the pty:, record:, record_input: and record_max_bytes:
	// settings (see TerminalConfig).
	Terminal TerminalConfig

	rules []Rule // every rule, in file order
	shell *trie  // shell rules, compiled
	// readonly are the `readonly:` patterns (Section "readonly", Decision
	// Allow), compiled: commands the user declares read-only.
	readonly *trie
	paths    [2][]pathRule // write and read rules, compiled per Context
	cache    atomic.Pointer[pathIndex]
	// building is held while an index is built (see PreparePaths).
	building sync.Mutex
	// denies: some rule denies (see Denies).
	denies bool
	// optionRules are the deny and ask shell rules that name options of a
	// program with an option table (see optionTables), read on first need
	// (see options): most commands' programs have no table, and reading
	// the rules cost every process that loaded a policy some 0.02 ms.
	// optionable: a deny or ask shell rule's first word is a plain word,
	// so some may be there.
	optionRules atomic.Pointer[[]optionRule]
	optionable  bool
	// pathPrograms are the deny and ask shell rules that name their
	// program by a path, by the path's last element ("*" for one with a
	// wildcard there): see programPathForms.
	pathPrograms map[string][]string
	// digest caches RulesDigest; build clears it.
	digest atomic.Pointer[string]
}

// Denies reports whether the policy has any deny rule. Code only known at
// run time (eval "$x") could match one, so it asks only when one exists
// (the design's rule for run-time words).
func (p *Policy) Denies() bool { return p.denies }

// AuditConfig is the `audit:` section.
type AuditConfig struct {
	// Path is the JSONL audit log as written in the file (a leading "~/"
	// is the caller's to expand against the home directory); empty means
	// the default location.
	Path string
	// Required, true unless the file says `required: false`, means a
	// command whose audit record cannot be written does not run.
	Required bool
	// RequiredSet says the file spells `required:` out (see Merge).
	RequiredSet bool

	// The chain, rotation, shipping and redaction settings (audit
	// package). Merge: a higher layer's anchor, syslog and max_bytes win;
	// fsync is on if any layer sets it; redact patterns add up.
	//
	//	audit:
	//	  anchor: file:/var/log/guardsh.anchor   # or: syslog
	//	  max_bytes: 10000000                    # rotate at this size (bytes)
	//	  fsync: true                            # fdatasync every record
	//	  syslog: udp://logs.example:514         # RFC 5424; tcp://…, unix:///dev/log, or "local"
	//	  redact: ["corp-[0-9]{6}"]              # RE2, besides the built-in secrets
	Anchor   string
	MaxBytes int64
	Fsync    bool
	Syslog   string
	Redact   []string
}

// ConfigError is a problem with a config file, located by file and line.
// Every error returned by Parse is a *ConfigError; Load's are too.
type ConfigError struct {
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line    int
	Problem string
	// Err is the underlying error, if any (for example fs.ErrNotExist).
	Err error
}

// Error returns "FILE:LINE: PROBLEM", or "FILE: PROBLEM" when Line is 0.
func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Problem
	}
	return e.File + ": " + e.Problem
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

// DefaultFile is the File of the embedded default policy and of its rules.
const DefaultFile = "<embedded default>"

//go:embed default.yaml
var defaultYAML []byte

// DefaultConfig returns the text of the embedded default policy: a commented
// config file, suitable as a starter ~/.config/guardsh/config.yaml.
func DefaultConfig() []byte { return bytes.Clone(defaultYAML) }

//go:generate go run gen_default.go

// Default returns the embedded default policy (see default.yaml), whose
// rules have File "<embedded default>". Each call returns a fresh Policy.
// It is built from defaultParsed, default.yaml parsed when guardsh was
// built (default_gen.go, checked against Parse by TestDefaultGenerated),
// so that start-up parses no YAML.
func Default() *Policy {
	d := defaultParsed
	p := &Policy{Mode: d.mode, ModeSource: d.modeSource, Shell: d.shell, Audit: d.audit, Approval: DefaultApproval, File: DefaultFile,
		rules: slices.Clone(d.rules)}
	if _, line, ok := strings.Cut(d.modeSource, DefaultFile+":"); ok {
		p.modeLine, _ = strconv.Atoi(line)
	}
	p.build()
	return p
}

// parsedPolicy is what Parse reads from a file, for default_gen.go.
type parsedPolicy struct {
	mode       Mode
	modeSource string
	shell      string
	audit      AuditConfig
	rules      []Rule
}

// Load reads and parses the config file at path. A missing or unreadable
// file is a *ConfigError naming it (wrapping the fs error, so
// errors.Is(err, fs.ErrNotExist) works); so is every parse problem.
func Load(path string) (*Policy, error) {
	data, err := readConfig(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// readConfig reads the config file at path; an error is a *ConfigError
// naming it and wrapping the fs error.
func readConfig(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		problem := "cannot read config file"
		if errors.Is(err, os.ErrNotExist) {
			problem = "config file does not exist"
		} else {
			var pe *os.PathError
			if errors.As(err, &pe) {
				problem += ": " + pe.Err.Error()
			}
		}
		return nil, &ConfigError{File: path, Problem: problem, Err: err}
	}
	return data, nil
}

// Parse parses a config file's contents; file names it in errors and in
// each Rule's File. The accepted shape, anything else being an error:
//
//	mode: ask                 # chat | plan | approve | ask | auto | bypass, or an alias
//	lock_mode: true           # system config only: no layer may loosen the mode
//	shell: /usr/bin/bash      # absolute path of the real shell
//	audit: {path: ~/x.jsonl, required: true}
//	readonly: ["make -n *"]   # command patterns to treat as read-only
//	approval: {headless: deny, timeout: 5m, wait: 2m, expires: 1h, prompt: terminal, notify: [notify-send, guardsh]}
//	sandbox: workspace        # off | workspace | strict, or {mode: workspace, write: [~/.cache]}
//	pty: auto                 # auto | always | never (see TerminalConfig)
//	record: true              # false | true | required; record_input: true; record_max_bytes: 67108864
//	rules:
//	  shell: {allow: [...], ask: [...], deny: [...]}   # command patterns
//	  write: {allow: [...], ask: [...], deny: [...]}   # file-write path patterns
//	  read:  {allow: [...], ask: [...], deny: [...]}   # file-read path patterns
//
// A pattern is a string, or a mapping that carries examples checked here
// (see checkExamples):
//
//   - pattern: "git push *"
//     match: ["git push origin main"]     # commands (or paths) it must match
//     not_match: ["git pushd"]            # and must not
//
// Every key is optional; an empty file is a policy with no rules and no
// mode. The errors (all *ConfigError with the line of the offending node):
// YAML syntax, more than one document, an unknown or duplicate key, a value
// of the wrong type (a pattern must be a string: quote `yes`, `1`…), an
// unknown mode, a relative shell path, an empty pattern, a pattern with a
// NUL byte, a shell pattern with leading or trailing white space (it could
// never match), a path pattern starting "~user", and an example the
// pattern does not match (match:) or matches (not_match:).
func Parse(data []byte, file string) (*Policy, error) {
	ps := &parser{file: file, p: &Policy{File: file, Audit: AuditConfig{Required: true}, Approval: DefaultApproval}}
	if err := ps.parse(data); err != nil {
		return nil, err
	}
	slices.SortStableFunc(ps.p.rules, func(a, b Rule) int { return a.Line - b.Line })
	ps.p.build()
	return ps.p, nil
}

// auditMore reads audit.anchor, max_bytes, fsync, syslog and redact.
func (ps *parser) auditMore(af map[string]*yaml.Node) error {
	a := &ps.p.Audit
	if v := af["anchor"]; v != nil {
		s, err := ps.str(v, "audit.anchor")
		if err != nil {
			return err
		}
		if rest, ok := strings.CutPrefix(s, "file:"); !(s == "syslog" || ok && filepath.IsAbs(rest)) {
			return ps.errorf(v, "audit.anchor: want syslog or file:/ABSOLUTE/PATH, got %q", s)
		}
		a.Anchor = s
	}
	if v := af["max_bytes"]; v != nil {
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if v.Kind != yaml.ScalarNode || err != nil || n < 4096 {
			return ps.errorf(v, "audit.max_bytes: want a whole number of bytes of at least 4096, got %q", v.Value)
		}
		a.MaxBytes = n
	}
	if v := af["fsync"]; v != nil {
		b, err := ps.boolean(v, "audit.fsync")
		if err != nil {
			return err
		}
		a.Fsync = b
	}
	if v := af["syslog"]; v != nil {
		s, err := ps.str(v, "audit.syslog")
		if err != nil {
			return err
		}
		if why := syslogSpecProblem(s); why != "" {
			return ps.errorf(v, "audit.syslog: want local, udp://HOST:PORT, tcp://HOST:PORT or unix:///PATH, got %q: %s", s, why)
		}
		a.Syslog = s
	}
	if v := af["redact"]; v != nil {
		if v.Kind != yaml.SequenceNode {
			return ps.errorf(v, "audit.redact: expected a list of regular expressions, got %s", kindName(v))
		}
		for i, e := range v.Content {
			s, err := ps.str(deref(e), fmt.Sprintf("audit.redact[%d]", i))
			if err != nil {
				return err
			}
			if re, err := regexp.Compile(s); err != nil || re.MatchString("") {
				return ps.errorf(e, "audit.redact[%d]: %q is not a regular expression matching something (RE2): %v", i, s, err)
			}
			a.Redact = append(a.Redact, s)
		}
	}
	return nil
}

// build compiles p.rules, in their order, and the readonly patterns.
func (p *Policy) build() {
	p.denies = false
	p.paths = [2][]pathRule{}
	p.cache.Store(nil)
	p.digest.Store(nil)
	var shell, readonly []entry
	for i := range p.rules {
		r := &p.rules[i]
		p.denies = p.denies || r.Decision == Deny
		switch r.Section {
		case "readonly":
			readonly = append(readonly, entry{g: compileGlob(r.Pattern, true), rule: r})
			continue
		case "shell":
			shell = append(shell, entry{g: compileGlob(r.Pattern, true), rule: r})
		case "write":
			p.paths[0] = append(p.paths[0], newPathRule(r))
		case "read":
			p.paths[1] = append(p.paths[1], newPathRule(r))
		}
	}
	p.shell = newTrie(shell)
	p.readonly = nil
	if len(readonly) > 0 {
		p.readonly = newTrie(readonly)
	}
	p.optionRules.Store(nil)
	p.optionable = false
	p.pathPrograms = nil
	for _, e := range p.shell.entries {
		if e.rule.Decision == Allow {
			continue
		}
		if first, _, _ := strings.Cut(e.rule.Pattern, " "); !strings.Contains(first, "*") {
			p.optionable = true
		}
		p.addPathProgram(e.rule.Pattern)
	}
}

// options returns the policy's option rules (see optionRules), reading
// them the first time.
func (p *Policy) options() []optionRule {
	if rs := p.optionRules.Load(); rs != nil {
		return *rs
	}
	rs := []optionRule{}
	for i, e := range p.shell.entries {
		if e.rule.Decision == Allow {
			continue
		}
		if r, ok := newOptionRule(i, e.rule.Pattern); ok {
			rs = append(rs, r)
		}
	}
	p.optionRules.Store(&rs)
	return rs
}

// syslogSpecProblem says what is wrong with an audit.syslog value, ""
// for nothing: its form (local, udp://, tcp://, unix://, unixgram://), a
// port of 1 to 65535, a host (an IPv6 address in brackets), an absolute
// socket path. Whether the destination answers is only known when
// guardsh connects (audit.DialSyslog).
func syslogSpecProblem(s string) string {
	if s == "local" {
		return ""
	}
	scheme, addr, ok := strings.Cut(s, "://")
	switch {
	case !ok || addr == "":
		return "no destination"
	case scheme == "unix" || scheme == "unixgram":
		if !strings.HasPrefix(addr, "/") {
			return "the socket's path must be absolute (unix:///run/x.sock)"
		}
		return ""
	case scheme != "udp" && scheme != "tcp":
		return "unknown scheme " + strconv.Quote(scheme)
	}
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return "no port"
	}
	host, port := addr[:i], addr[i+1:]
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != port {
		return "bad port " + strconv.Quote(port)
	}
	bracketed := strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]")
	switch {
	case host == "" || bracketed && len(host) == 2:
		return "no host"
	case !bracketed && strings.ContainsAny(host, ":[]"):
		return "an IPv6 address goes in brackets (udp://[::1]:514)"
	case strings.ContainsAny(host, " \t\n/@?#") || strings.HasPrefix(host, "-"):
		return "bad host " + strconv.Quote(host)
	}
	return ""
}

type parser struct {
	file string
	p    *Policy
	// at is the node of the last error (nil for none, or for an error of
	// the whole file); Lint removes it to look for further errors.
	at *yaml.Node
}

func (ps *parser) errorf(n *yaml.Node, format string, args ...any) *ConfigError {
	ps.at = n
	line := 0
	if n != nil {
		line = n.Line
	}
	return &ConfigError{File: ps.file, Line: line, Problem: fmt.Sprintf(format, args...)}
}

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

func (ps *parser) parse(data []byte) error {
	root, err := ps.decode(data)
	if err != nil || root == nil {
		return err
	}
	return ps.walk(root)
}

// decode reads the one YAML document of data and returns its root node,
// nil for an empty file.
func (ps *parser) decode(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			return nil, nil
		}
		return nil, ps.yamlError(data, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, ps.errorf(&extra, "a config file holds one YAML document; remove the second \"---\"")
	case err != io.EOF:
		return nil, ps.yamlError(data, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		root = root.Content[0]
	}
	return root, nil
}

// walk reads the policy from the root node of the file into ps.p.
func (ps *parser) walk(root *yaml.Node) error {
	fields, err := ps.mapping(root, "", "mode", "lock_mode", "shell", "audit", "approval", "readonly", "rules", "llm", "sandbox",
		"pty", "record", "record_input", "record_max_bytes")
	if err != nil || fields == nil {
		return err
	}
	if n := fields["mode"]; n != nil {
		s, err := ps.str(n, "mode")
		if err != nil {
			return err
		}
		m, err := ParseMode(s)
		if err != nil {
			return ps.errorf(n, "mode: %v", err)
		}
		ps.p.Mode = m
		ps.p.ModeSource, ps.p.modeLine = ps.file+":"+strconv.Itoa(n.Line), n.Line
	}
	if n := fields["lock_mode"]; n != nil {
		b, err := ps.boolean(n, "lock_mode")
		if err != nil {
			return err
		}
		ps.p.LockMode = b
	}
	if n := fields["readonly"]; n != nil {
		if err := ps.patterns(n, "readonly", Allow, "readonly"); err != nil {
			return err
		}
	}
	if n := fields["shell"]; n != nil {
		s, err := ps.str(n, "shell")
		if err != nil {
			return err
		}
		if !filepath.IsAbs(s) || strings.ContainsRune(s, 0) {
			return ps.errorf(n, "shell: must be an absolute path, got %q", s)
		}
		ps.p.Shell, ps.p.shellLine = filepath.Clean(s), n.Line
	}
	if n := fields["audit"]; n != nil {
		ps.p.auditLine = n.Line
		af, err := ps.mapping(n, "audit", "path", "required", "anchor", "max_bytes", "fsync", "syslog", "redact")
		if err != nil {
			return err
		}
		if v := af["path"]; v != nil {
			s, err := ps.str(v, "audit.path")
			if err != nil {
				return err
			}
			if strings.ContainsRune(s, 0) {
				return ps.errorf(v, "audit.path: contains a NUL byte")
			}
			ps.p.Audit.Path = s
		}
		if v := af["required"]; v != nil {
			b, err := ps.boolean(v, "audit.required")
			if err != nil {
				return err
			}
			ps.p.Audit.Required, ps.p.Audit.RequiredSet = b, true
		}
		if err := ps.auditMore(af); err != nil {
			return err
		}
	}
	if n := fields["approval"]; n != nil {
		if err := ps.approval(n); err != nil {
			return err
		}
	}
	if n := fields["llm"]; n != nil {
		if err := ps.llm(n); err != nil {
			return err
		}
	}
	if n := fields["sandbox"]; n != nil {
		if err := ps.sandbox(n); err != nil {
			return err
		}
	}
	if err := ps.terminal(fields); err != nil {
		return err
	}
	if n := fields["rules"]; n != nil {
		rf, err := ps.mapping(n, "rules", "shell", "write", "read")
		if err != nil {
			return err
		}
		for _, section := range []string{"shell", "write", "read"} {
			sn := rf[section]
			if sn == nil {
				continue
			}
			where := "rules." + section
			df, err := ps.mapping(sn, where, "allow", "ask", "deny")
			if err != nil {
				return err
			}
			for _, d := range []Decision{Allow, Ask, Deny} {
				if ln := df[d.String()]; ln != nil {
					if err := ps.patterns(ln, section, d, where+"."+d.String()); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// deref follows an alias (`*name`) to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// kindName describes a node's type for error messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str":
			return "a string"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!null":
			return "nothing"
		case "!!timestamp":
			return "a timestamp"
		}
		return "a " + strings.TrimPrefix(n.ShortTag(), "!!")
	}
	return "an unexpected node"
}

// mapping returns the values of mapping n by key, checking that every key
// is one of allowed and occurs once. A null n is an empty mapping (nil map).
// where names n in messages ("" for the top level).
func (ps *parser) mapping(n *yaml.Node, where string, allowed ...string) (map[string]*yaml.Node, error) {
	n = deref(n)
	if isNull(n) {
		return nil, nil
	}
	prefix := ""
	if where != "" {
		prefix = where + ": "
	}
	if n.Kind != yaml.MappingNode {
		if where == "" {
			return nil, ps.errorf(n, "expected a mapping of mode, shell, audit and rules at the top level, got %s", kindName(n))
		}
		hint := ""
		if n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0 && len(allowed) > 0 {
			// `rules:` followed by "- shell: …" items: the keys are
			// written without the dashes.
			hint = "; write its keys without '- '"
		}
		return nil, ps.errorf(n, "%sexpected a mapping of %s, got %s%s", prefix, orList(allowed), kindName(n), hint)
	}
	out := make(map[string]*yaml.Node, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, ps.errorf(k, "%sexpected a key, got %s", prefix, kindName(k))
		}
		if !slices.Contains(allowed, k.Value) {
			return nil, ps.errorf(k, "%sunknown key %q (expected %s)", prefix, k.Value, orList(allowed))
		}
		if first, dup := lines[k.Value]; dup {
			return nil, ps.errorf(k, "%sduplicate key %q (first at line %d)", prefix, k.Value, first)
		}
		lines[k.Value] = k.Line
		if isNull(v) {
			continue
		}
		out[k.Value] = v
	}
	return out, nil
}

// orList renders ["a","b","c"] as "a, b or c".
func orList(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// str returns the string value of scalar n.
func (ps *parser) str(n *yaml.Node, where string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		hint := ""
		if n.Kind == yaml.ScalarNode {
			hint = "; quote it"
		}
		return "", ps.errorf(n, "%s: expected a string, got %s%s", where, kindName(n), hint)
	}
	return n.Value, nil
}

// boolean returns the value of scalar n, which must be true or false.
func (ps *parser) boolean(n *yaml.Node, where string) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, ps.errorf(n, "%s: expected true or false, got %s", where, kindName(n))
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, ps.errorf(n, "%s: %v", where, err)
	}
	return b, nil
}

// patterns reads the list of patterns at n into rules of section with
// decision d. An item is a pattern string or a mapping {pattern, match,
// not_match}.
func (ps *parser) patterns(n *yaml.Node, section string, d Decision, where string) error {
	if n.Kind != yaml.SequenceNode {
		return ps.errorf(n, "%s: expected a list of patterns, got %s", where, kindName(n))
	}
	for i, item := range n.Content {
		item = deref(item)
		at := fmt.Sprintf("%s[%d]", where, i)
		var match, notMatch []*yaml.Node
		if item.Kind == yaml.MappingNode {
			f, err := ps.mapping(item, at, "pattern", "match", "not_match")
			if err != nil {
				return err
			}
			if f["pattern"] == nil {
				return ps.errorf(item, "%s: a rule written as a mapping needs a pattern: key", at)
			}
			for _, k := range []string{"match", "not_match"} {
				ex := f[k]
				if ex == nil {
					continue
				}
				if ex.Kind != yaml.SequenceNode {
					return ps.errorf(ex, "%s.%s: expected a list of examples, got %s", at, k, kindName(ex))
				}
				for _, e := range ex.Content {
					e = deref(e)
					if e.Kind != yaml.ScalarNode || e.ShortTag() != "!!str" {
						return ps.errorf(e, "%s.%s: expected an example string, got %s; quote it", at, k, kindName(e))
					}
					if k == "match" {
						match = append(match, e)
					} else {
						notMatch = append(notMatch, e)
					}
				}
			}
			item = f["pattern"]
		}
		if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" {
			hint := ""
			if item.Kind == yaml.ScalarNode && !isNull(item) {
				hint = "; quote it"
			}
			return ps.errorf(item, "%s: expected a pattern string, got %s%s", at, kindName(item), hint)
		}
		pat := item.Value
		if problem := checkPattern(section, pat); problem != "" {
			return ps.errorf(item, "%s: %s", at, problem)
		}
		if err := ps.checkExamples(section, pat, at, match, notMatch); err != nil {
			return err
		}
		ps.p.rules = append(ps.p.rules, Rule{Section: section, Decision: d, Pattern: pat, File: ps.file, Line: item.Line})
	}
	return nil
}

// checkPattern returns why pat cannot be a pattern of section, or "".
func checkPattern(section, pat string) string {
	switch {
	case pat == "":
		return "empty pattern"
	case strings.IndexByte(pat, 0) >= 0:
		return "pattern contains a NUL byte"
	}
	if section == "shell" || section == "readonly" {
		if strings.TrimSpace(pat) != pat {
			return fmt.Sprintf("pattern %q has leading or trailing white space, so it could never match (words are joined by single spaces)", pat)
		}
		return ""
	}
	if strings.HasPrefix(pat, "~") && pat != "~" && !strings.HasPrefix(pat, "~/") {
		return fmt.Sprintf("pattern %q: only \"~/\" is expanded (to the home directory), not \"~user\"", pat)
	}
	return ""
}

// ApprovalConfig is the `approval:` section: how an ask reaches a human
// (package prompt). Durations are written as Go durations ("90s", "5m").
type ApprovalConfig struct {
	// Headless is what happens to an ask when no trusted terminal exists:
	// "deny" (the default: refuse, leaving a pending approval), "wait"
	// (block up to Wait for `guardsh approve` from elsewhere) or "allow"
	// (run it, recorded decided_by: headless).
	Headless string
	// Timeout is how long the dialog waits for a key before it denies
	// (default 5m).
	Timeout time.Duration
	// Wait is how long headless "wait" blocks (default 2m).
	Wait time.Duration
	// Expires is how long a pending approval, or a given one not yet
	// used, stays valid (default 1h).
	Expires time.Duration
	// Prompt is "terminal" (the default: the dialog on a trusted
	// terminal only) or "tmux" (without one, a tmux display-popup on the
	// human's client, when $TMUX names a server older than the agent).
	Prompt string
	// Notify is a command (argv) run with the pending request as JSON on
	// stdin when an approval becomes pending; empty for none.
	Notify []string
	// Line is the line of `approval:` (0 when absent).
	Line int
}

// DefaultApproval is the approval section of a file that has none.
var DefaultApproval = ApprovalConfig{Headless: "deny", Timeout: 5 * time.Minute, Wait: 2 * time.Minute, Expires: time.Hour, Prompt: "terminal"}

// approval parses the `approval:` section into ps.p.Approval.
func (ps *parser) approval(n *yaml.Node) error {
	a := &ps.p.Approval
	a.Line = n.Line
	f, err := ps.mapping(n, "approval", "headless", "timeout", "wait", "expires", "prompt", "notify")
	if err != nil {
		return err
	}
	oneOf := func(key string, dst *string, allowed ...string) error {
		v := f[key]
		if v == nil {
			return nil
		}
		s, err := ps.str(v, "approval."+key)
		if err != nil {
			return err
		}
		if !slices.Contains(allowed, s) {
			return ps.errorf(v, "approval.%s: must be %s, got %q", key, orList(allowed), s)
		}
		*dst = s
		return nil
	}
	if err := oneOf("headless", &a.Headless, "deny", "wait", "allow"); err != nil {
		return err
	}
	if err := oneOf("prompt", &a.Prompt, "terminal", "tmux"); err != nil {
		return err
	}
	for _, d := range []struct {
		key string
		dst *time.Duration
	}{{"timeout", &a.Timeout}, {"wait", &a.Wait}, {"expires", &a.Expires}} {
		key, dst := d.key, d.dst
		v := f[key]
		if v == nil {
			continue
		}
		s, err := ps.str(v, "approval."+key)
		if err != nil {
			return err
		}
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return ps.errorf(v, "approval.%s: must be a positive duration such as \"90s\" or \"5m\", got %q", key, s)
		}
		*dst = d
	}
	if v := deref(f["notify"]); v != nil {
		if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
			return ps.errorf(v, "approval.notify: must be a non-empty list (the command and its arguments), got %s", kindName(v))
		}
		a.Notify = nil
		for _, w := range v.Content {
			s, err := ps.str(w, "approval.notify")
			if err != nil {
				return err
			}
			a.Notify = append(a.Notify, s)
		}
	}
	return nil
}

// TerminalConfig is how commands meet guardsh's terminal (package
// internal/tty): the top-level keys
//
//	pty: auto              # auto (default) | always | never
//	record: true           # false (default) | true | required
//	record_input: false    # also record what is typed (may hold passwords)
//	record_max_bytes: 67108864   # size cap of one recording, bytes (at least 4096)
//
// Merge: the user's, else the system's; record is the stricter of the two
// (false < true < required) and record_input true if either sets it; a
// project file's are ignored with a warning.
type TerminalConfig struct {
	// PTY is "auto" (a pty when guardsh's stdin and stdout are a terminal
	// whose foreground process group guardsh is in), "always" (also when
	// only stdout is: the command keeps guardsh's stdin), or "never";
	// empty means auto.
	PTY string
	// Record is "false", "true" (a pty-run command's output is saved as
	// an asciicast v2 file; a failing recorder never stops the command)
	// or "required" (a command whose recording cannot be opened does not
	// run); empty means false.
	Record string
	// RecordInput: the recording also holds what was typed.
	RecordInput bool
	// RecordMaxBytes caps one recording's size; 0 means the default
	// (64 MiB, tty.DefaultMaxBytes).
	RecordMaxBytes int64
	// Line is the line of the first of these keys in the file, 0 when none.
	Line int
}

// recordRank orders record values from the loosest.
var recordRank = map[string]int{"": 0, "false": 0, "true": 1, "required": 2}

// terminal reads pty, record, record_input and record_max_bytes.
func (ps *parser) terminal(f map[string]*yaml.Node) error {
	tc := &ps.p.Terminal
	for _, k := range []string{"pty", "record", "record_input", "record_max_bytes"} {
		if n := f[k]; n != nil && (tc.Line == 0 || n.Line < tc.Line) {
			tc.Line = n.Line
		}
	}
	if n := f["pty"]; n != nil {
		s, err := ps.str(n, "pty")
		if err != nil || !(s == "auto" || s == "always" || s == "never") {
			return ps.errorf(n, "pty: want auto, always or never, got %s", quoted(n))
		}
		tc.PTY = s
	}
	if n := f["record"]; n != nil {
		if n.Kind != yaml.ScalarNode || !(n.ShortTag() == "!!bool" || n.Value == "required") {
			return ps.errorf(n, "record: want false, true or required, got %s", quoted(n))
		}
		tc.Record = strings.ToLower(n.Value)
		if n.ShortTag() == "!!bool" {
			var b bool
			_ = n.Decode(&b)
			tc.Record = strconv.FormatBool(b)
		}
	}
	if n := f["record_input"]; n != nil {
		b, err := ps.boolean(n, "record_input")
		if err != nil {
			return err
		}
		tc.RecordInput = b
	}
	if n := f["record_max_bytes"]; n != nil {
		v, err := strconv.ParseInt(n.Value, 10, 64)
		if n.Kind != yaml.ScalarNode || err != nil || v < 4096 {
			return ps.errorf(n, "record_max_bytes: want a whole number of bytes of at least 4096, got %s", quoted(n))
		}
		tc.RecordMaxBytes = v
	}
	return nil
}

// quoted is a scalar's value quoted, else its kind.
func quoted(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return strconv.Quote(n.Value)
	}
	return kindName(n)
}

// mergeTerminal gives the effective terminal settings of the layers (see
// TerminalConfig).
func mergeTerminal(l Layers, warnAt func(file string, line int, format string, args ...any)) TerminalConfig {
	var out TerminalConfig
	for _, p := range []*Policy{l.System, l.User} {
		if p == nil {
			continue
		}
		t := p.Terminal
		if out.Record == "required" && p == l.User {
			// The system requires recordings: the user may not turn the
			// pty off (nothing would be recorded) nor shrink what is
			// kept below the system's cap.
			if t.PTY != "never" {
				out.PTY = cmp.Or(t.PTY, out.PTY)
			}
			if t.RecordMaxBytes > out.RecordMaxBytes {
				out.RecordMaxBytes = t.RecordMaxBytes
			}
		} else {
			out.PTY = cmp.Or(t.PTY, out.PTY)
			out.RecordMaxBytes = cmp.Or(t.RecordMaxBytes, out.RecordMaxBytes)
		}
		if recordRank[t.Record] >= recordRank[out.Record] && t.Record != "" {
			out.Record = t.Record
		}
		out.RecordInput = out.RecordInput || t.RecordInput
	}
	for _, p := range l.projects() {
		if p.Terminal.Line > 0 {
			warnAt(p.File, p.Terminal.Line, "a project file may not set pty: or record: (how commands meet your terminal, and what is kept of them); ignored")
		}
	}
	return out
}
