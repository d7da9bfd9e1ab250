package importer

import (
	"encoding/json"
	"testing"
)

func TestParseJSONC(t *testing.T) {
	n, err := parseJSONC([]byte("\uFEFF{\n  // a comment\n  \"a\": [1, -2.5e3, true, false, null,], /* block\n comment */\n  \"b\": \"\\u00e9\\ud83d\\ude00\\n\\\"\",\n  \"a\": \"last\",\n}\n"), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := n.get("a"); got == nil || got.kind != 's' || got.str != "last" {
		t.Errorf("a: the last of duplicate keys should win, got %v", got)
	}
	if got := n.vals[0].text(); got != "[1, -2.5e3, true, false, null]" {
		t.Errorf("first a: got %s", got)
	}
	if b := n.get("b"); b.str != "é😀\n\"" || b.line != 5 {
		t.Errorf("b: got %q on line %d", b.str, b.line)
	}
	if n.keys[0] != "a" || n.keys[1] != "b" || n.keys[2] != "a" {
		t.Errorf("keys out of order: %q", n.keys)
	}
}

// Plain JSON parses to the same values as encoding/json gives.
func TestParseJSONCAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, `"x"`, `{"a": {"b": [1, 2, {"c": "\t\/"}]}}`, `[0, 1e2, -0.5, "a\u0000b"]`,
	} {
		n, err := parseJSONC([]byte(s), "x.json")
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		var got any
		if err := json.Unmarshal([]byte(n.text()), &got); err != nil {
			t.Errorf("%s: rendered %s, which is not JSON: %v", s, n.text(), err)
			continue
		}
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if string(wb) != string(gb) {
			t.Errorf("%s: got %s, want %s", s, gb, wb)
		}
	}
}

func TestParseJSONCErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n\"a\": 1\n\"b\": 2}", "x.json:3: invalid JSON: expected ',' or '}', got '\"'"},
		{"{\"a\" 1}", "x.json:1: invalid JSON: expected ':' after key \"a\", got '1'"},
		{"{a: 1}", "x.json:1: invalid JSON: expected a string key or '}', got 'a'"},
		{"[1,\n2,\n", "x.json:3: invalid JSON: unexpected end of file"},
		{"\"abc", "x.json:1: invalid JSON: unterminated string"},
		{"\"a\nb\"", "x.json:1: invalid JSON: control character in string (escape it)"},
		{`"\x41"`, "x.json:1: invalid JSON: bad escape \\x in string"},
		{`"\u12"`, "x.json:1: invalid JSON: bad \\u escape"},
		{"[1.2.3]", "x.json:1: invalid JSON: bad number \"1.2.3\""},
		{"{} {}", "x.json:1: invalid JSON: unexpected '{' after the JSON value"},
		{"nul", "x.json:1: invalid JSON: unexpected 'n'"},
		{"\xff", "x.json: invalid JSON: not valid UTF-8"},
		{"", "x.json: invalid JSON: empty file; expected a JSON object"},
	} {
		_, err := parseJSONC([]byte(c.in), "x.json")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %s", c.in, err, c.want)
		}
	}
}

func TestParseJSONCDepth(t *testing.T) {
	deep := make([]byte, 0, 2*(maxDepth+2))
	for i := 0; i < maxDepth+2; i++ {
		deep = append(deep, '[')
	}
	for i := 0; i < maxDepth+2; i++ {
		deep = append(deep, ']')
	}
	if _, err := parseJSONC(deep, "x.json"); err == nil {
		t.Error("no error for a value nested too deep")
	}
}

func FuzzParseJSONC(f *testing.F) {
	for _, s := range []string{`{"permission": {"bash": {"*": "ask"}}}`, "{/* c */ \"a\": [1,],}", `"\ud800"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseJSONC([]byte(s), "x.json")
		if err == nil {
			_ = n.text()
		}
	})
}
