package audit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"testing/quick"
)

// reference encodes v the way encoding/json encodes a struct with no
// methods, reading each field's json tag (name, omitempty), with HTML
// escaping off and nil slices as []. It walks the fields by reflection, so
// it sees every field Record, Segment and LLM have, including new ones.
func reference(t *testing.T, v reflect.Value) []byte {
	t.Helper()
	leaf := func(x any) []byte {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return []byte("null")
		}
		return reference(t, v.Elem())
	case reflect.Slice:
		out := []byte{'['}
		for i := range v.Len() {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, reference(t, v.Index(i))...)
		}
		return append(out, ']')
	case reflect.Struct:
		out := []byte{'{'}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue // not recorded
			}
			if opts == "omitempty" && v.Field(i).IsZero() || opts == "omitempty" && v.Field(i).Kind() == reflect.Slice && v.Field(i).Len() == 0 {
				continue
			}
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, leaf(name)...)
			out = append(out, ':')
			out = append(out, reference(t, v.Field(i))...)
		}
		return append(out, '}')
	}
	return leaf(v.Interface())
}

// TestEncodingMatchesEncodingJSON checks that the hand-written encoder
// writes, for records filled at random (every field, nested segments and
// reviews, odd strings and numbers), the bytes encoding/json writes.
func TestEncodingMatchesEncodingJSON(t *testing.T) {
	odd := []string{"", "a\"b\\c", "tab\there\nnl\rcr\b\f", "\x00\x01\x1f\x7f", "<>&'", "\xff\xfe bad utf8 \xc3",
		"é ✓ 😀", "\u2028\u2029", "$(rm -rf ~) && echo `x`"}
	floats := []float64{0, 1, -1, 0.5, 1e-7, 1.5e-7, 123456789.125, 1e20, 1e21, 1.25e22, 5e-324, math.MaxFloat64, -2.5e-9}
	r := rand.New(rand.NewSource(1))
	check := func(rec Record) bool {
		// Spice the random values with the cases that differ most.
		rec.Command = odd[r.Intn(len(odd))] + rec.Command
		rec.DurationMS = floats[r.Intn(len(floats))]
		if len(rec.Segments) > 0 {
			rec.Segments[0].Reason = odd[r.Intn(len(odd))]
			if rec.Segments[0].LLM != nil {
				rec.Segments[0].LLM.LatencyMS = floats[r.Intn(len(floats))]
			}
		}
		for i := range rec.Segments {
			if l := rec.Segments[i].LLM; l != nil && (math.IsNaN(l.LatencyMS) || math.IsInf(l.LatencyMS, 0)) {
				l.LatencyMS = 1
			}
		}
		if rec.LLM != nil && (math.IsNaN(rec.LLM.LatencyMS) || math.IsInf(rec.LLM.LatencyMS, 0)) {
			rec.LLM.LatencyMS = 2
		}
		if rec.Human != nil {
			rec.Human.LatencyMS = floats[r.Intn(len(floats))]
			rec.Human.Message = odd[r.Intn(len(odd))]
		}
		got, err := rec.MarshalJSON()
		if err != nil {
			t.Errorf("MarshalJSON: %v", err)
			return false
		}
		plain := rec
		if plain.Argv == nil {
			plain.Argv = []string{}
		}
		if plain.Segments == nil {
			plain.Segments = []Segment{}
		}
		for i := range plain.Segments {
			if plain.Segments[i].Argv == nil {
				plain.Segments[i].Argv = []string{}
			}
		}
		want := reference(t, reflect.ValueOf(plain))
		if !bytes.Equal(got, want) {
			t.Errorf("record encodes as\n%s\nencoding/json writes\n%s", got, want)
			return false
		}
		if !json.Valid(got) {
			t.Errorf("not valid JSON: %s", got)
			return false
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 3000, Rand: r}); err != nil {
		t.Fatal(err)
	}
}

// TestReferenceSeesEveryField makes sure the reference walks nested
// structs: a record with a segment review encodes the review's model name.
func TestReferenceSeesEveryField(t *testing.T) {
	rec := Record{Segments: []Segment{{LLM: &LLM{Model: "m-1"}}}, LLM: &LLM{Model: "m-2"}}
	if ref := reference(t, reflect.ValueOf(rec)); !bytes.Contains(ref, []byte(`"m-1"`)) || !bytes.Contains(ref, []byte(`"m-2"`)) {
		t.Fatalf("reference misses nested fields: %s", ref)
	}
}

// TestEncodingRefusesNonFiniteNumbers: JSON cannot hold them, and the
// audit line must stay valid JSON.
func TestEncodingRefusesNonFiniteNumbers(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := (Record{DurationMS: f}).MarshalJSON(); err == nil {
			t.Errorf("duration %v encoded", f)
		}
		if _, err := (Record{LLM: &LLM{LatencyMS: f}}).MarshalJSON(); err == nil {
			t.Errorf("latency %v encoded", f)
		}
	}
}
