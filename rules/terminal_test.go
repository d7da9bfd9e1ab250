package rules

import (
	"strings"
	"testing"
)

func TestTerminalConfig(t *testing.T) {
	for _, c := range []struct {
		src  string
		want TerminalConfig
	}{
		{"mode: ask\n", TerminalConfig{}},
		{"pty: never\nrecord: true\n", TerminalConfig{PTY: "never", Record: "true", Line: 1}},
		{"record: required\nrecord_input: true\nrecord_max_bytes: 8192\n", TerminalConfig{Record: "required", RecordInput: true, RecordMaxBytes: 8192, Line: 1}},
		{"mode: ask\nrecord: False\npty: always\n", TerminalConfig{PTY: "always", Record: "false", Line: 2}},
	} {
		p, err := Parse([]byte(c.src), "c.yaml")
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		if p.Terminal != c.want {
			t.Errorf("%q: got %+v, want %+v", c.src, p.Terminal, c.want)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"pty: yes\n", `c.yaml:1: pty: want auto, always or never, got "yes"`},
		{"pty: [auto]\n", `c.yaml:1: pty: want auto, always or never, got a list`},
		{"record: sometimes\n", `c.yaml:1: record: want false, true or required, got "sometimes"`},
		{"record: 1\n", `c.yaml:1: record: want false, true or required, got "1"`},
		{"record_input: please\n", `c.yaml:1: record_input: expected true or false, got a string`},
		{"record_max_bytes: 100\n", `c.yaml:1: record_max_bytes: want a whole number of bytes of at least 4096, got "100"`},
	} {
		_, err := Parse([]byte(c.src), "c.yaml")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.src, err, c.want)
		}
	}
}

// TestMergeTerminal: record is the stricter of system and user; a
// project file cannot change how commands meet the terminal or what is
// kept of them.
func TestMergeTerminal(t *testing.T) {
	parse := func(s, file string) *Policy {
		p, err := Parse([]byte(s), file)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sys := parse("record: required\nrecord_max_bytes: 10000\n", "/etc/guardsh/config.yaml")
	// Under a system's record: required the user can neither turn the
	// pty off nor shrink the cap.
	user := parse("record: false\npty: never\nrecord_max_bytes: 4096\n", "user.yaml")
	proj := parse("record: false\npty: always\nrecord_input: true\n", ".guardsh.yaml")
	out, warnings := Merge(Layers{System: sys, User: user, Project: proj})
	want := TerminalConfig{Record: "required", RecordMaxBytes: 10000}
	if out.Terminal != want {
		t.Errorf("got %+v, want %+v", out.Terminal, want)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].Problem, "may not set pty: or record:") || warnings[0].Line != 1 {
		t.Errorf("warnings: %v", warnings)
	}
	out, _ = Merge(Layers{System: parse("record: true\n", "/etc/guardsh/config.yaml"), User: parse("record: required\nrecord_input: true\n", "u.yaml")})
	if out.Terminal.Record != "required" || !out.Terminal.RecordInput {
		t.Errorf("the user may tighten: %+v", out.Terminal)
	}
	out, _ = Merge(Layers{System: parse("record: true\n", "/etc/guardsh/config.yaml"), User: parse("pty: never\nrecord_max_bytes: 4096\n", "u.yaml")})
	if out.Terminal.PTY != "never" || out.Terminal.RecordMaxBytes != 4096 {
		t.Errorf("without required the user decides: %+v", out.Terminal)
	}
}
