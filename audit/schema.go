package audit

import (
	"bytes"
	_ "embed"
)

//go:embed schema.json
var schema []byte

// Schema returns the JSON Schema (draft 2020-12) of one audit record, the
// contents of schema.json in this package. Its "v" is SchemaVersion. The
// returned slice is a copy; the caller may change it.
func Schema() []byte { return bytes.Clone(schema) }
