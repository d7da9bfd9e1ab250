package ci

import (
	"bytes"
	_ "embed"

	"github.com/guardsh/guardsh/rules"
)

//go:embed preset.yaml
var preset []byte

// PresetFile names the CI preset in messages and rule sources.
const PresetFile = "<ci preset>"

// Preset returns the text of the CI policy preset: a commented config file
// for a CI job step (guardsh ci-config prints it), to install as the
// user's config on the runner.
func Preset() []byte { return bytes.Clone(preset) }

// PresetPolicy returns the CI preset parsed. It never fails for the
// preset guardsh ships (a test checks).
func PresetPolicy() (*rules.Policy, error) { return rules.Parse(preset, PresetFile) }
