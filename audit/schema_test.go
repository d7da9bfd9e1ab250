package audit_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
)

// validator checks a JSON value against the subset of JSON Schema 2020-12
// that schema.json uses: type, const, enum, required, properties,
// additionalProperties: false, items, pattern, minimum and local $ref.
type validator struct{ root map[string]any }

func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

func loadSchema(t *testing.T) validator {
	t.Helper()
	var root map[string]any
	if err := decodeNumbers(audit.Schema(), &root); err != nil {
		t.Fatalf("schema.json: %v", err)
	}
	return validator{root}
}

func (v validator) validate(data []byte) []string {
	var doc any
	if err := decodeNumbers(data, &doc); err != nil {
		return []string{err.Error()}
	}
	return v.check(v.root, doc, "")
}

func hasType(val any, typ string) bool {
	switch typ {
	case "object":
		_, ok := val.(map[string]any)
		return ok
	case "array":
		_, ok := val.([]any)
		return ok
	case "string":
		_, ok := val.(string)
		return ok
	case "boolean":
		_, ok := val.(bool)
		return ok
	case "null":
		return val == nil
	case "number":
		_, ok := val.(json.Number)
		return ok
	case "integer":
		n, ok := val.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	}
	panic("schema uses unknown type " + typ)
}

func (v validator) check(s map[string]any, val any, at string) (errs []string) {
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/$defs/")
		if !found {
			panic("unsupported $ref " + ref)
		}
		return v.check(v.root["$defs"].(map[string]any)[name].(map[string]any), val, at)
	}
	for key := range s {
		switch key {
		case "$schema", "$id", "$defs", "title", "description", "format",
			"type", "const", "enum", "required", "properties", "additionalProperties", "items", "pattern", "minimum":
		default:
			panic("schema uses unsupported keyword " + key)
		}
	}
	switch typ := s["type"].(type) {
	case string:
		if !hasType(val, typ) {
			fail("want %s, got %v", typ, val)
			return
		}
	case []any:
		if !slices.ContainsFunc(typ, func(t any) bool { return hasType(val, t.(string)) }) {
			fail("want one of %v, got %v", typ, val)
			return
		}
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(c, val) {
		fail("want %v, got %v", c, val)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return reflect.DeepEqual(x, val) }) {
		fail("want one of %v, got %v", e, val)
	}
	if p, ok := s["pattern"].(string); ok {
		if str, _ := val.(string); !regexp.MustCompile(p).MatchString(str) {
			fail("%q does not match %s", str, p)
		}
	}
	if m, ok := s["minimum"].(json.Number); ok {
		min, _ := m.Float64()
		if n, _ := val.(json.Number).Float64(); n < min {
			fail("%v is below %v", n, min)
		}
	}
	if obj, ok := val.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range s["required"].([]any) {
			if _, ok := obj[r.(string)]; !ok {
				fail("missing required %q", r)
			}
		}
		for k, x := range obj {
			if ps, ok := props[k]; ok {
				errs = append(errs, v.check(ps.(map[string]any), x, at+"/"+k)...)
			} else if s["additionalProperties"] == false {
				fail("unexpected property %q", k)
			}
		}
	}
	if arr, ok := val.([]any); ok {
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range arr {
				errs = append(errs, v.check(items, x, fmt.Sprintf("%s/%d", at, i))...)
			}
		}
	}
	return errs
}

func TestSchemaIsDraft202012AndVersioned(t *testing.T) {
	v := loadSchema(t)
	if got := v.root["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", got)
	}
	vProp := v.root["properties"].(map[string]any)["v"].(map[string]any)
	if got := vProp["const"]; got != json.Number(fmt.Sprint(audit.SchemaVersion)) {
		t.Errorf("schema's v is const %v, want SchemaVersion %d", got, audit.SchemaVersion)
	}
}

// jsonFields returns the JSON names of typ's fields and which of them are
// required (not omitempty).
func jsonFields(typ reflect.Type) (names, required []string) {
	for f := range typ.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue // not recorded
		}
		names = append(names, name)
		if opts != "omitempty" {
			required = append(required, name)
		}
	}
	sort.Strings(names)
	sort.Strings(required)
	return names, required
}

func schemaFields(s map[string]any) (names, required []string) {
	for k := range s["properties"].(map[string]any) {
		names = append(names, k)
	}
	for _, r := range s["required"].([]any) {
		required = append(required, r.(string))
	}
	sort.Strings(names)
	sort.Strings(required)
	return names, required
}

func TestSchemaMatchesTheGoTypes(t *testing.T) {
	v := loadSchema(t)
	for _, tt := range []struct {
		name   string
		typ    reflect.Type
		schema map[string]any
	}{
		{"Record", reflect.TypeFor[audit.Record](), v.root},
		{"Segment", reflect.TypeFor[audit.Segment](), v.root["$defs"].(map[string]any)["segment"].(map[string]any)},
		{"Human", reflect.TypeFor[audit.Human](), v.root["$defs"].(map[string]any)["human"].(map[string]any)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			goNames, goReq := jsonFields(tt.typ)
			sNames, sReq := schemaFields(tt.schema)
			if !slices.Equal(goNames, sNames) {
				t.Errorf("fields: Go %v, schema %v", goNames, sNames)
			}
			if !slices.Equal(goReq, sReq) {
				t.Errorf("required (not omitempty): Go %v, schema %v", goReq, sReq)
			}
		})
	}
}

func TestRecordsValidateAgainstSchema(t *testing.T) {
	v := loadSchema(t)
	now := time.Now()
	for name, r := range map[string]*audit.Record{
		"every field set":                      fullRecord(now, "git push origin > /tmp/out"),
		"optional fields unset and slices nil": minimalRecord(now),
		"a segment decided by the mode or class": func() *audit.Record {
			r := minimalRecord(now)
			r.Segments = []audit.Segment{{Kind: "read", Class: "read-only", Decision: audit.Allow, Reason: "reads in the workspace"}}
			return r
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			// As written to the log by Append, and as json.Marshal writes it.
			l, path := openTemp(t)
			if err := l.Append(r); err != nil {
				t.Fatal(err)
			}
			line := bytes.TrimSuffix(readFile(t, path), []byte("\n"))
			marshaled, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, data := range [][]byte{line, marshaled} {
				if errs := v.validate(data); len(errs) > 0 {
					t.Errorf("%s\ndoes not validate:\n%s", data, strings.Join(errs, "\n"))
				}
			}
		})
	}
}

func TestSchemaRejectsMalformedRecords(t *testing.T) {
	// The validator above is only worth something if it fails these.
	v := loadSchema(t)
	full := fullRecord(time.Now(), "true")
	full.Prev, full.Hash = audit.Genesis, strings.Repeat("ab", 32)
	good, err := json.Marshal(full)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(m map[string]any)
	}{
		{"another version", func(m map[string]any) { m["v"] = 1 }},
		{"a short hash", func(m map[string]any) { m["hash"] = "abc" }},
		{"no prev", func(m map[string]any) { delete(m, "prev") }},
		{"a missing ts", func(m map[string]any) { delete(m, "ts") }},
		{"a ts with seconds only", func(m map[string]any) { m["ts"] = "2025-07-01T12:00:00Z" }},
		{"an id with a lower-case letter", func(m map[string]any) { m["id"] = "01arz3ndektsv4rrffq69g5fav" }},
		{"exit as a string", func(m map[string]any) { m["exit"] = "0" }},
		{"a fractional ppid", func(m map[string]any) { m["ppid"] = 1.5 }},
		{"a negative duration", func(m map[string]any) { m["duration_ms"] = -1 }},
		{"an unknown decision", func(m map[string]any) { m["decision"] = "maybe" }},
		{"an unknown field", func(m map[string]any) { m["extra"] = true }},
		{"argv null", func(m map[string]any) { m["argv"] = nil }},
		{"a segment without rule", func(m map[string]any) { delete(m["segments"].([]any)[0].(map[string]any), "rule") }},
		{"a segment of unknown kind", func(m map[string]any) { m["segments"].([]any)[1].(map[string]any)["kind"] = "run" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(good, &m); err != nil {
				t.Fatal(err)
			}
			tt.change(m)
			bad, _ := json.Marshal(m)
			if errs := v.validate(bad); len(errs) == 0 {
				t.Errorf("schema accepts %s", bad)
			}
		})
	}
	if errs := v.validate(good); len(errs) > 0 {
		t.Errorf("unchanged record does not validate: %v", errs)
	}
}
