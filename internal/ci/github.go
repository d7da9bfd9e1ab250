package ci

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/guard"
)

// escapeData escapes the message of a GitHub workflow command (%, CR, LF).
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value of a workflow command.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Annotation returns the GitHub Actions workflow command that shows a
// refused command as an error annotation on the job:
// "::error title=guardsh refused a command::LINES" with the refusal's lines
// (see guard.Outcome.Refusal) joined, escaped as GitHub requires. The
// runner reads it from the step's standard output.
func Annotation(refusal []string) string {
	return "::error title=" + escapeProperty("guardsh refused a command") + "::" + escapeData(strings.Join(refusal, "\n")) + "\n"
}

// Summary writes, in GitHub-flavoured Markdown, the decision table of a
// refused command: one row per segment with its decision, the rule and
// its source, and the reason. It is appended to $GITHUB_STEP_SUMMARY.
// What it shows is redacted as the audit record is (red; nil redacts
// nothing): the summary is published with the run (a new user's find: a
// literal token of a refused step was in it twice).
func Summary(w io.Writer, command string, o guard.Outcome, red *audit.Redactor) error {
	cell := func(s string) string {
		return strings.NewReplacer("|", `\|`, "\n", "<br>", "`", "'").Replace(s)
	}
	rec := &audit.Record{Command: command}
	o.Record(rec)
	red.Record(rec)
	var b strings.Builder
	fmt.Fprintf(&b, "### guardsh refused a command\n\n```sh\n%s\n```\n\n", strings.ReplaceAll(rec.Command, "```", "'''"))
	if o.Err != nil {
		fmt.Fprintf(&b, "Not understood: %s\n\n", cell(red.String(o.Err.Error())))
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString("| decision | segment | rule | reason |\n|---|---|---|---|\n")
	for _, seg := range rec.Segments {
		rule := ""
		if seg.Rule != nil {
			rule = "`" + cell(*seg.Rule) + "` (" + cell(seg.Source) + ")"
		}
		text := strings.Join(seg.Argv, " ")
		switch seg.Kind {
		case "write":
			text = "> " + text
		case "read":
			text = "< " + text
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", seg.Decision, cell(text), rule, cell(seg.Reason))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// AppendSummary appends Summary to the file at path (the step summary).
func AppendSummary(path, command string, o guard.Outcome, red *audit.Redactor) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("step summary: %w", err)
	}
	defer f.Close()
	if err := Summary(f, command, o, red); err != nil {
		return fmt.Errorf("step summary %s: %w", path, err)
	}
	return nil
}
