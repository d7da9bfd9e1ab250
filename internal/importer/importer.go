// Package importer converts other coding agents' permission rules (Claude
// Code, Codex, Gemini CLI, goose, opencode) into guardsh rules, and reports
// each entry it could not convert and why.
//
// The conversions keep the decision (deny stays deny; ask, prompt and
// ask_user become ask; allow stays allow) and never widen what the source
// allowed. An entry guardsh cannot express exactly becomes a stricter rule
// when it denies or asks and such a rule can be written (a '?' read as '*',
// a rule limited to one mode imported for all); otherwise, and always when
// it allows, it is reported, not imported. A rule that allows every command
// (Claude Code's "Bash", opencode's "*": "allow") is never imported:
// guardsh's mode bypass is its equivalent.
package importer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/guardsh/guardsh/rules"
)

// tools are the names Convert accepts, in the order messages list them.
var tools = [...]string{"claude", "codex", "gemini", "goose", "opencode"}

// Result is one imported file: the guardsh rules made from it and the
// entries left out. Write it as a config fragment with WriteYAML.
type Result struct {
	// Tool is the name the file was imported as ("claude", ...).
	Tool string
	// File is the file's name as the caller gave it.
	File string
	// Source names the format in the output header ("Claude Code settings").
	Source string
	// Decisions are the source's words for allow, ask and deny, in that
	// order (Codex: "allow", "prompt", "forbidden").
	Decisions [3]string
	// Rules are the converted rules, in source order.
	Rules []Rule
	// Skipped are the entries not converted, in source order.
	Skipped []Skipped
	// Notes are format-specific remarks for the output header, one
	// sentence each.
	Notes []string
}

// Rule is one guardsh rule and the source entry it came from.
type Rule struct {
	// Section is "shell", "write" or "read".
	Section  string
	Decision rules.Decision
	// Pattern is a valid guardsh pattern of Section (rules.Parse accepts it).
	Pattern string
	// Where locates the source entry inside its file
	// ("permissions.allow[3]", "line 12", `permission.bash["git *"]`).
	Where string
	// Text is the source entry, as written or rendered compactly.
	Text string
	// Note says what changed in the translation, or is empty.
	Note string
}

// Skipped is a source entry that was not converted.
type Skipped struct {
	Where, Text string
	// Why is the reason, a clause without a final period.
	Why string
}

// InputError is a file that could not be read or is not of the format it
// was imported as. Convert returns no Result with it.
type InputError struct {
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line    int
	Problem string
	Err     error
}

// Error returns "FILE:LINE: PROBLEM", or "FILE: PROBLEM" when Line is 0.
func (e *InputError) Error() string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Problem
	}
	return e.File + ": " + e.Problem
}

// Unwrap returns the underlying error, if any.
func (e *InputError) Unwrap() error { return e.Err }

// ErrUnknownTool is returned (wrapped) by Convert and ReadFile for a tool
// name other than claude, codex, gemini, goose and opencode.
var ErrUnknownTool = errors.New("unknown tool")

// ReadFile reads and converts the file at path as tool. A file that cannot
// be read is an *InputError wrapping the fs error.
func ReadFile(tool, path string) (*Result, error) {
	if !known(tool) {
		return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownTool, tool, toolList())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		problem := "cannot read file"
		var pe *os.PathError
		if errors.As(err, &pe) {
			problem += ": " + pe.Err.Error()
		}
		return nil, &InputError{File: path, Problem: problem, Err: err}
	}
	return Convert(tool, data, path)
}

// Convert converts data, the contents of file, as tool: claude, codex,
// gemini, goose or opencode. The
// errors are ErrUnknownTool (wrapped) and *InputError for input that is not
// of the tool's format; entries that cannot be converted are not errors but
// Result.Skipped.
func Convert(tool string, data []byte, file string) (*Result, error) {
	switch tool {
	case "claude":
		return Claude(data, file)
	case "codex":
		return Codex(data, file)
	case "gemini":
		return Gemini(data, file)
	case "goose":
		return Goose(data, file)
	case "opencode":
		return Opencode(data, file)
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownTool, tool, toolList())
}

func known(tool string) bool {
	for _, t := range tools {
		if t == tool {
			return true
		}
	}
	return false
}

func toolList() string {
	s := ""
	for i, t := range tools {
		switch {
		case i == 0:
		case i == len(tools)-1:
			s += " or "
		default:
			s += ", "
		}
		s += t
	}
	return s
}

// builder collects a Result.
type builder struct {
	res *Result
}

func newBuilder(tool, file, source string, allow, ask, deny string) *builder {
	return &builder{res: &Result{
		Tool: tool, File: file, Source: source,
		Decisions: [3]string{allow, ask, deny},
	}}
}

func (b *builder) add(section string, d rules.Decision, pattern, where, text, note string) {
	b.res.Rules = append(b.res.Rules, Rule{Section: section, Decision: d, Pattern: pattern, Where: where, Text: text, Note: note})
}

func (b *builder) skip(where, text, why string) {
	b.res.Skipped = append(b.res.Skipped, Skipped{Where: where, Text: text, Why: why})
}

func (b *builder) note(s string) { b.res.Notes = append(b.res.Notes, s) }

// Reasons shared by the converters.
const (
	whyScope = "guardsh governs shell commands and file paths only"
	// whyAllowAll is why a rule allowing every command is not imported.
	whyAllowAll = "allows every command; guardsh's mode bypass is the equivalent; not imported, since a guard never widens on import"
	noteEvery   = "every command"
)

// shellCatchAll records a rule of decision d that matches every command.
// An allow is skipped (see whyAllowAll); an ask or deny becomes "*".
// overridden, when not empty, says which later or higher-priority rules of
// the source loosen the catch-all there, making it the default for what no
// other rule matches; guardsh's deny > ask > allow would let a "*" outrank
// them instead. Such an ask is reported, not imported: guardsh's mode
// approve is its equivalent. Such a deny is imported all the same, with a
// note, since guardsh has no deny-by-default mode and dropping it would
// widen what runs.
func (b *builder) shellCatchAll(d rules.Decision, where, text, overridden string) {
	switch {
	case d == rules.Allow:
		b.skip(where, text, whyAllowAll)
	case overridden != "" && d == rules.Ask:
		b.skip(where, text, "asks for every command that no other rule matches, but "+overridden+
			"; in guardsh an ask rule \"*\" would outrank every allow rule; guardsh's mode approve is the equivalent (allow rules allow, everything else asks); not imported")
	case overridden != "":
		b.add("shell", d, "*", where, text, noteEvery+"; "+overridden+", but in guardsh a deny outranks every allow, and guardsh has no deny-by-default mode")
	default:
		b.add("shell", d, "*", where, text, noteEvery)
	}
}

// base is the name origins use for file.
func base(file string) string { return filepath.Base(file) }
