package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseCanonicalShape(t *testing.T) {
	src := `mode: approve
shell: /usr/bin/bash
audit: {path: ~/x.jsonl, required: false}
rules:
  shell: {allow: ["git status *"], ask: ["git push *"], deny: ["rm -rf *"]}
  write: {deny: ["~/.ssh/*"]}
  read:
    deny:
      - "~/.ssh/*"
`
	p, err := Parse([]byte(src), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode != Approve || p.Shell != "/usr/bin/bash" || p.Audit.Path != "~/x.jsonl" || p.Audit.Required {
		t.Errorf("got mode %q shell %q audit %+v", p.Mode, p.Shell, p.Audit)
	}
	got := p.Rules()
	want := []Rule{
		{Section: "shell", Decision: Allow, Pattern: "git status *", File: "c.yaml", Line: 5},
		{Section: "shell", Decision: Ask, Pattern: "git push *", File: "c.yaml", Line: 5},
		{Section: "shell", Decision: Deny, Pattern: "rm -rf *", File: "c.yaml", Line: 5},
		{Section: "write", Decision: Deny, Pattern: "~/.ssh/*", File: "c.yaml", Line: 6},
		{Section: "read", Decision: Deny, Pattern: "~/.ssh/*", File: "c.yaml", Line: 9},
	}
	if len(got) != len(want) {
		t.Fatalf("Rules() = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("rule %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if s := got[4].Source(); s != "c.yaml:9" {
		t.Errorf("Source() = %q", s)
	}
}

func TestParseDefaultsAndEmpty(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n", "---\n", "rules:\n", "rules:\n  shell:\n    deny:\n"} {
		p, err := Parse([]byte(src), "c.yaml")
		if err != nil {
			t.Errorf("Parse(%q): %v", src, err)
			continue
		}
		if p.Mode != "" || !p.Audit.Required || len(p.Rules()) != 0 {
			t.Errorf("Parse(%q) = mode %q audit %+v rules %v", src, p.Mode, p.Audit, p.Rules())
		}
	}
}

func TestParseModeAliases(t *testing.T) {
	tests := map[string]Mode{
		"chat": Chat, "plan": Plan, "approve": Approve, "ask": AskMode, "auto": Auto, "bypass": Bypass,
		"smart_approve": AskMode, "default": AskMode, "auto-approval": Auto,
		"bypass-approval": Bypass, "allow-all": Bypass, " ASK ": AskMode,
	}
	for in, want := range tests {
		got, err := ParseMode(in)
		if err != nil || got != want {
			t.Errorf("ParseMode(%q) = %q, %v; want %q", in, got, err, want)
		}
		p, err := Parse([]byte("mode: "+strings.TrimSpace(in)+"\n"), "c.yaml")
		if err != nil || p.Mode != want {
			t.Errorf("config mode %q: got %v, %v", in, p, err)
		}
	}
	if _, err := ParseMode("yolo"); err == nil || err.Error() != `unknown mode "yolo" (expected chat, plan, approve, ask, auto or bypass)` {
		t.Errorf("ParseMode(yolo) error = %v", err)
	}
}

func TestModeStricter(t *testing.T) {
	order := []Mode{Chat, Plan, Approve, AskMode, Auto, Bypass}
	for i, a := range order {
		for k, b := range order {
			// plan and approve are not comparable: plan runs read-only
			// commands approve asks about, approve asks what plan denies.
			want := i < k && !(a == Plan && b == Approve)
			if got := a.Stricter(b); got != want {
				t.Errorf("%s.Stricter(%s) = %v, want %v", a, b, got, want)
			}
		}
	}
	// So neither GUARDSH_MODE=plan under approve, nor approve under a
	// locked plan, loosens anything.
	if m, ok := Tighten(Approve, Plan); ok || m != Approve {
		t.Errorf("Tighten(approve, plan) = %s, %v", m, ok)
	}
	if m, ok := Tighten(Plan, Approve); ok || m != Plan {
		t.Errorf("Tighten(plan, approve) = %s, %v", m, ok)
	}
	if !Mode("default").Stricter(Auto) || Mode("allow-all").Stricter(Auto) {
		t.Error("aliases are not ranked as the mode they name")
	}
	if !Mode("nonsense").Stricter(Chat) {
		t.Error("an unknown mode must rank stricter than chat")
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown top-level key", "mode: ask\nmoed: auto\n",
			`c.yaml:2: unknown key "moed" (expected mode, lock_mode, shell, audit, approval, readonly, rules, llm, sandbox, pty, record, record_input or record_max_bytes)`},
		{"duplicate key", "mode: ask\nmode: bypass\n",
			`c.yaml:2: duplicate key "mode" (first at line 1)`},
		{"duplicate nested key", "rules:\n  shell:\n    deny: [a]\n    deny: [b]\n",
			`c.yaml:4: rules.shell: duplicate key "deny" (first at line 3)`},
		{"mode of wrong type", "mode: [ask]\n",
			`c.yaml:1: mode: expected a string, got a list`},
		{"unknown mode", "mode: fast\n",
			`c.yaml:1: mode: unknown mode "fast" (expected chat, plan, approve, ask, auto or bypass)`},
		{"empty pattern", "rules:\n  shell:\n    deny:\n      - \"\"\n",
			`c.yaml:4: rules.shell.deny[0]: empty pattern`},
		{"pattern with NUL", "rules:\n  shell:\n    deny: [\"ok\", \"rm\\0x\"]\n",
			`c.yaml:3: rules.shell.deny[1]: pattern contains a NUL byte`},
		{"unknown decision key", "rules:\n  shell:\n    warn: [x]\n",
			`c.yaml:3: rules.shell: unknown key "warn" (expected allow, ask or deny)`},
		{"unknown section", "rules:\n  network:\n    deny: [x]\n",
			`c.yaml:2: rules: unknown key "network" (expected shell, write or read)`},
		{"patterns not a list", "rules:\n  shell:\n    deny: \"rm *\"\n",
			`c.yaml:3: rules.shell.deny: expected a list of patterns, got a string`},
		{"unquoted boolean pattern", "rules:\n  shell:\n    allow: [\"yes\", true]\n",
			`c.yaml:3: rules.shell.allow[1]: expected a pattern string, got a boolean; quote it`},
		{"number pattern", "rules:\n  read:\n    deny:\n      - 42\n",
			`c.yaml:4: rules.read.deny[0]: expected a pattern string, got a number; quote it`},
		{"rules not a mapping", "rules: [a]\n",
			`c.yaml:1: rules: expected a mapping of shell, write or read, got a list`},
		{"top level not a mapping", "- mode\n",
			`c.yaml:1: expected a mapping of mode, shell, audit and rules at the top level, got a list`},
		{"audit.required not a boolean", "audit:\n  required: maybe\n",
			`c.yaml:2: audit.required: expected true or false, got a string`},
		{"unknown audit key", "audit: {file: x}\n",
			`c.yaml:1: audit: unknown key "file" (expected path, required, anchor, max_bytes, fsync, syslog or redact)`},
		{"relative shell", "shell: bash\n",
			`c.yaml:1: shell: must be an absolute path, got "bash"`},
		{"shell pattern with trailing space", "rules:\n  shell:\n    deny: [\"rm -rf / \"]\n",
			`c.yaml:3: rules.shell.deny[0]: pattern "rm -rf / " has leading or trailing white space, so it could never match (words are joined by single spaces)`},
		{"tilde-user path", "rules:\n  write:\n    deny: [\"~root/.ssh/*\"]\n",
			`c.yaml:3: rules.write.deny[0]: pattern "~root/.ssh/*": only "~/" is expanded (to the home directory), not "~user"`},
		{"two documents", "mode: ask\n---\nmode: bypass\n",
			`c.yaml:2: a config file holds one YAML document; remove the second "---"`},
		{"YAML syntax", "mode: ask\nrules: [\n",
			`c.yaml:2: invalid YAML: did not find expected node content; the line reads: rules: [ (yaml.v3: "line 2: did not find expected node content")`},
		{"tab indentation", "rules:\n\tshell: {}\n",
			`c.yaml:2: invalid YAML: indented with a tab; YAML indents with spaces only; the line reads: shell: {} (yaml.v3: "line 2: found character that cannot start any token")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse([]byte(tc.src), "c.yaml")
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", p)
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %T is not a *ConfigError: %v", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tc.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.yaml")
	_, err := Load(missing)
	if err == nil || err.Error() != missing+": config file does not exist" {
		t.Errorf("Load(missing) = %v", err)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) does not wrap fs.ErrNotExist: %v", err)
	}
	good := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(good, []byte("mode: plan\nrules:\n  shell:\n    deny: [\"x *\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Load(good)
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode != Plan || p.File != good || p.Rules()[0].Source() != good+":4" {
		t.Errorf("Load = mode %q file %q rules %v", p.Mode, p.File, p.Rules())
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("mode: ask\nmode: ask\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(bad); err == nil || !strings.HasPrefix(err.Error(), bad+":2: ") {
		t.Errorf("Load(bad) = %v", err)
	}
}

func TestDefaultPolicy(t *testing.T) {
	p := Default()
	if p.Mode != AskMode || p.File != DefaultFile || !p.Audit.Required {
		t.Errorf("Default() mode %q file %q audit %+v", p.Mode, p.File, p.Audit)
	}
	for _, r := range p.Rules() {
		if r.File != "<embedded default>" || r.Line == 0 {
			t.Errorf("rule %v has no source", r)
		}
		// The only allow rules are agent plumbing (Claude Code's snapshot
		// and cwd file); everything else runs by class or not at all.
		if r.Decision == Allow && !strings.Contains(r.Pattern, "claude") && !strings.Contains(r.Pattern, "codex") {
			t.Errorf("default policy allows %q; it should allow only agent plumbing by rule", r.Pattern)
		}
	}
	if string(DefaultConfig()) != string(defaultYAML) {
		t.Error("DefaultConfig differs from default.yaml")
	}
	home := t.TempDir()
	ws := filepath.Join(home, "proj")
	ctx := Context{Mode: Bypass, Cwd: ws, Home: home, Workspace: ws}
	deny := [][]string{
		{"rm", "-rf", "/"}, {"rm", "-fr", "/"}, {"rm", "-r", "-f", "/"},
		{"rm", "-rf", "~"}, {"rm", "-rf", "~/"}, {"rm", "--no-preserve-root", "-rf", "/"},
		{"/bin/rm", "-rf", "/"}, {"rm", "-Rf", "/", "x"},
		{"rm", "-rf", home}, {"rm", "-rf", home + "/"}, {"/usr/bin/rm", "-fr", home}, // ~ expanded by the shell
		{Hole + "/bin/rm", "-rf", "/"}, // $dir/bin/rm: whatever $dir, the base name is rm
		{"mkfs.ext4", "/dev/sda1"}, {"mkfs", "-t", "ext4", "/dev/sdb"},
		{"dd", "if=/dev/zero", "of=/dev/sda"}, {"dd", "of=/dev/nvme0n1", "if=x"},
		{"chmod", "-R", "777", "/"}, {"shutdown", "-h", "now"}, {"reboot"},
	}
	for _, w := range deny {
		if v := p.Decide(Subject{Kind: KindExec, Words: w}, ctx); v.Decision != Deny {
			t.Errorf("default policy, bypass: %q = %v (%s), want deny", w, v.Decision, v.Reason)
		}
	}
	// Run-time words that could be "/" or home ask, even in bypass: $HOME,
	// /*, ~/*, "${HOME%/}", "/ho$x", "/bin/$cmd".
	for _, w := range [][]string{{"rm", "-rf", Hole}, {"rm", "-rf", Hole + "/"}, {"rm", Hole, "x"},
		{"rm", "-rf", home[:3] + Hole}, {"rm", "-rf", home + Hole}, {"/bin/" + Hole, "-rf", "/"}} {
		if v := p.Decide(Subject{Kind: KindExec, Words: w}, ctx); v.Decision != Ask {
			t.Errorf("default policy, bypass: %q = %v (%s), want ask", w, v.Decision, v.Reason)
		}
	}
	// Force pushes ask in mode ask (and run in bypass, like every ask rule).
	askCtx := ctx
	askCtx.Mode = AskMode
	for _, w := range [][]string{{"git", "push", "--force", "origin", "main"}, {"git", "push", "-f"}, {"git", "push", "origin", "+main"}, {"git", "push", "origin", "main", "--force"}} {
		if v := p.Decide(Subject{Kind: KindExec, Words: w}, askCtx); v.Decision != Ask || v.Rule == nil || v.Rule.Section != "shell" {
			t.Errorf("default policy, ask: %q = %v (%s), want ask by rule", w, v.Decision, v.Reason)
		}
	}
	ordinary := [][]string{
		{"rm", "-rf", "node_modules"}, {"rm", "-rf", "/tmp/build"}, {"rm", "-rf", "./dist/"},
		{"dd", "if=/dev/zero", "of=/dev/null", "bs=1M", "count=1"}, {"git", "push", "origin", "main"},
		{"git", "push", "--force-with-lease"}, {"chmod", "-R", "755", "build"}, {"make", "-j8"},
		{"npm", "test"}, {"go", "test", "./..."}, {"echo", Hole}, {"rm", "-rf", home + "/proj/build"},
	}
	for _, w := range ordinary {
		if v := p.Decide(Subject{Kind: KindExec, Words: w}, ctx); v.Decision != Allow {
			t.Errorf("default policy, bypass: %q = %v (%s), want allow", w, v.Decision, v.Reason)
		}
	}
	if v := p.Decide(Subject{Kind: KindWrite, Words: []string{home + "/.ssh/authorized_keys"}}, ctx); v.Decision != Deny {
		t.Errorf("write ~/.ssh/authorized_keys = %v", v.Decision)
	}
	if v := p.Decide(Subject{Kind: KindRead, Words: []string{"~/.ssh/id_ed25519"}}, Context{Mode: AskMode, Cwd: home, Home: home}); v.Decision != Allow {
		// A literal "~" in a read target is a directory named "~" in cwd.
		t.Errorf("read ./~/.ssh/id_ed25519 = %v (%s)", v.Decision, v.Reason)
	}
	if v := p.Decide(Subject{Kind: KindRead, Words: []string{home + "/.ssh/id_ed25519"}}, ctx); v.Decision != Deny {
		t.Errorf("read ~/.ssh/id_ed25519 = %v", v.Decision)
	}
}

func TestDecisionText(t *testing.T) {
	for _, d := range []Decision{Allow, Ask, Deny} {
		b, err := d.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Decision
		if err := back.UnmarshalText(b); err != nil || back != d {
			t.Errorf("round trip of %v: %v, %v", d, back, err)
		}
	}
	if _, err := Decision(7).MarshalText(); err == nil {
		t.Error("MarshalText(7) succeeded")
	}
	if Decision(7).String() != "Decision(7)" {
		t.Error(Decision(7).String())
	}
	if Combine(nil) != Allow || Combine([]Verdict{{Decision: Ask}, {Decision: Deny}, {Decision: Allow}}) != Deny ||
		Combine([]Verdict{{Decision: Allow}, {Decision: Ask}}) != Ask {
		t.Error("Combine is not the maximum")
	}
}

// TestDefaultGenerated checks that default_gen.go, from which Default
// builds the embedded policy, is default.yaml as Parse reads it (after
// editing default.yaml, run go generate in rules/).
func TestDefaultGenerated(t *testing.T) {
	p, err := Parse(DefaultConfig(), DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	if d.Mode != p.Mode || d.ModeSource != p.ModeSource || d.modeLine != p.modeLine || d.Shell != p.Shell ||
		!reflect.DeepEqual(d.Audit, p.Audit) || d.File != p.File || d.LockMode != p.LockMode || d.Denies() != p.Denies() {
		t.Errorf("Default() = mode %q (%s) shell %q audit %+v; default.yaml = mode %q (%s) shell %q audit %+v: run go generate in rules/",
			d.Mode, d.ModeSource, d.Shell, d.Audit, p.Mode, p.ModeSource, p.Shell, p.Audit)
	}
	if !slices.Equal(d.Rules(), p.Rules()) {
		t.Errorf("Default() rules differ from default.yaml's: run go generate in rules/")
	}
}

func TestParseAuditChainSettings(t *testing.T) {
	p, err := Parse([]byte("audit:\n  anchor: file:/var/log/g.anchor\n  max_bytes: 1000000\n  fsync: true\n  syslog: udp://127.0.0.1:514\n  redact: ['corp-[0-9]+']\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := p.Audit
	if a.Anchor != "file:/var/log/g.anchor" || a.MaxBytes != 1000000 || !a.Fsync || a.Syslog != "udp://127.0.0.1:514" || len(a.Redact) != 1 {
		t.Errorf("audit = %+v", a)
	}
	for _, bad := range []struct{ yaml, want string }{
		{"audit: {anchor: file:rel}", "c.yaml:1: audit.anchor"},
		{"audit:\n  max_bytes: 10", "c.yaml:2: audit.max_bytes"},
		{"audit:\n  syslog: http://x", "c.yaml:2: audit.syslog"},
		// A new user's wrong values passed until a command was refused.
		{"audit:\n  syslog: udp://127.0.0.1", "c.yaml:2: audit.syslog: want local, udp://HOST:PORT, tcp://HOST:PORT or unix:///PATH, got \"udp://127.0.0.1\": no port"},
		{"audit:\n  syslog: udp://127.0.0.1:x", "c.yaml:2: audit.syslog"},
		{"audit:\n  syslog: tcp://127.0.0.1:70000", "c.yaml:2: audit.syslog"},
		{"audit:\n  syslog: udp://::1:514", "c.yaml:2: audit.syslog"},
		{"audit:\n  syslog: udp://:514", "c.yaml:2: audit.syslog"},
		{"audit:\n  syslog: unix://run/log.sock", "c.yaml:2: audit.syslog"},
		{"audit:\n  syslog: 'udp://-x:514'", "c.yaml:2: audit.syslog"},
		{"audit:\n  redact: ['(']", "c.yaml:2: audit.redact[0]"},
		{"audit:\n  redact: ['x*']", "c.yaml:2: audit.redact[0]"},
	} {
		if _, err := Parse([]byte(bad.yaml), "c.yaml"); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("Parse(%q) = %v, want %s…", bad.yaml, err, bad.want)
		}
	}
}

// The system's anchor and syslog cannot be removed or moved by the user;
// redact patterns add up; a project file changes none of it.
func TestMergeAuditChainSettings(t *testing.T) {
	sys, _ := Parse([]byte("audit: {anchor: 'file:/var/log/sys.anchor', redact: ['a+']}"), "/etc/guardsh/config.yaml")
	user, _ := Parse([]byte("audit: {anchor: 'file:/tmp/mine', syslog: 'udp://x:1', redact: ['b+']}"), "user.yaml")
	proj, _ := Parse([]byte("audit: {fsync: true}"), ".guardsh.yaml")
	p, warnings := Merge(Layers{System: sys, User: user, Project: proj})
	a := p.Audit
	if a.Anchor != "file:/var/log/sys.anchor" || a.Syslog != "udp://x:1" || len(a.Redact) != 2 || a.Fsync {
		t.Errorf("merged audit = %+v", a)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Problem, "audit settings") {
		t.Errorf("warnings = %v", warnings)
	}
}

// TestStarterCommentedSettings: the starter config (the embedded default,
// which guardsh default-config prints and install.sh writes) shows the
// sandbox, shell and audit settings as commented examples; each parses,
// uncommented, to the setting it names (a new user enables the sandbox by
// removing the "# ").
func TestStarterCommentedSettings(t *testing.T) {
	starter := string(DefaultConfig())
	want := map[string]bool{"sandbox": false, "shell": false, "audit": false}
	lines := strings.Split(starter, "\n")
	for i, l := range lines {
		for key := range want {
			if strings.HasPrefix(l, "# "+key+": ") {
				want[key] = true
				lines[i] = strings.TrimPrefix(l, "# ")
			}
		}
	}
	for key, seen := range want {
		if !seen {
			t.Errorf("the starter config has no commented %q example", key+":")
		}
	}
	if !strings.Contains(starter, "\n# sandbox: workspace   # off (default) | workspace | strict\n") {
		t.Error("the starter's sandbox example is not the README's line")
	}
	p, err := Parse([]byte(strings.Join(lines, "\n")), DefaultFile)
	if err != nil {
		t.Fatalf("the starter with its examples uncommented does not parse: %v", err)
	}
	if p.Sandbox.Mode != SandboxWorkspace || p.Shell != "/usr/bin/bash" || p.Audit.Path == "" || !p.Audit.Required {
		t.Errorf("uncommented: sandbox %q, shell %q, audit %+v", p.Sandbox.Mode, p.Shell, p.Audit)
	}
	if d := Default(); !slices.Equal(d.Rules(), p.Rules()) {
		t.Error("uncommenting the examples changed the rules")
	}
}

// TestYAMLSyntaxErrorsNameTheLine: a YAML mistake is reported at the line
// the user must edit, saying what is wrong there, with the line's text and
// yaml.v3's own words. yaml.v3's line is right for some of these and one
// or more lines early for others (it names where the list or mapping
// being read began, counted from 0 for the parser's errors).
func TestYAMLSyntaxErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name, src string
		line      int
		what      string // in the problem
		yamlLine  int    // the line yaml.v3 names, kept in the message
	}{
		{"tab indentation", "mode: ask\nrules:\n  shell:\n\tallow: [\"ls *\"]\n", 4, "indented with a tab", 4},
		{"tab before a list item", "rules:\n  shell:\n    allow:\n\t- \"ls *\"\n", 4, "indented with a tab", 4},
		{"unclosed quote in a flow list", "mode: ask\nrules:\n  shell:\n    allow: [\"ls *]\n    deny: [\"rm *\"]\n", 4, `a " quote that is not closed`, 3},
		{"unclosed quote in a block list", "rules:\n  shell:\n    allow:\n      - \"ls *\n      - \"cat *\"\nsandbox: workspace\n", 4, `a " quote that is not closed`, 3},
		{"unclosed single quote", "rules:\n  shell:\n    allow:\n      - 'ls *\n    deny: []\n", 4, "a ' quote that is not closed", 4},
		{"unclosed list", "rules:\n  shell:\n    allow: [\"ls *\"\n    deny: [\"rm *\"]\nmode: ask\n", 3, "'[' list that is not closed", 2},
		{"unclosed mapping", "rules:\n  shell: {allow: [\"ls *\"]\nmode: ask\n", 2, "'{' mapping that is not closed", 1},
		{"missing colon after a top key", "mode: ask\nrules\n  shell:\n    allow: [\"ls *\"]\n", 2, "a key without a ':'", 2},
		{"missing colon before a value", "rules:\n  shell:\n    allow [\"ls *\"]\n    deny: [\"rm *\"]\n", 3, "a key without a ':'", 4},
		{"missing colon before a mapping", "rules:\n  shell\n    allow: [\"ls *\"]\n", 2, "a key without a ':'", 3},
		{"key indented too little", "rules:\n  shell:\n    allow: [\"ls *\"]\n   deny: [\"rm *\"]\n", 4, "indentation does not match", 1},
		{"key indented too much", "rules:\n  shell:\n    allow: [\"ls *\"]\n      deny: [\"rm *\"]\n", 4, "indentation does not match", 2},
		{"unquoted pattern starting with *", "rules:\n  shell:\n    allow:\n      - *.sh\n", 4, "quote the pattern", 4},
		{"a comment and blank lines before the fault", "# mine\n\nmode: ask\n\n# rules\nrules:\n  shell:\n    allow: [\"ls *]\n", 8, `a " quote`, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), "c.yaml")
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Parse = %v, want a ConfigError", err)
			}
			text := strings.TrimSpace(strings.Split(tc.src, "\n")[tc.line-1])
			if ce.Line != tc.line || !strings.Contains(ce.Problem, tc.what) || !strings.Contains(ce.Problem, "the line reads: "+text+" ") ||
				!strings.Contains(ce.Problem, fmt.Sprintf(`(yaml.v3: "line %d: `, tc.yamlLine)) {
				t.Errorf("error %v\nwant line %d, %q, the line's text %q and yaml.v3's line %d", err, tc.line, tc.what, text, tc.yamlLine)
			}
		})
	}
}

// TestSyslogSpecProblem: what config parsing says of audit.syslog values
// (a new user's wrong ones passed until every command was refused).
func TestSyslogSpecProblem(t *testing.T) {
	for spec, want := range map[string]string{
		"local": "", "udp://127.0.0.1:514": "", "udp://[::1]:514": "", "tcp://logs.example.com:6514": "",
		"unix:///dev/log": "", "unixgram:///run/systemd/journal/syslog": "",
		"udp://127.0.0.1": "no port", "udp://127.0.0.1:x": `bad port "x"`, "tcp://h:70000": `bad port "70000"`,
		"tcp://h:0514": `bad port "0514"`, "udp://::1:514": "in brackets", "udp://:514": "no host", "udp://[]:514": "no host",
		"unix://run/log.sock": "must be absolute", "udp://-x:514": `bad host "-x"`, "udp://a@b:514": `bad host "a@b"`,
		"http://h:80": `unknown scheme "http"`, "udp://": "no destination", "x": "no destination",
	} {
		if got := syslogSpecProblem(spec); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("syslogSpecProblem(%q) = %q, want %q", spec, got, want)
		}
	}
}
