package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/ci"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/internal/sandbox"
	"github.com/guardsh/guardsh/rules"
)

// Exit statuses of guardsh check: the decision, or a usage error (64, as
// sysexits' EX_USAGE).
const (
	checkAllow = 0
	checkAsk   = 1
	checkDeny  = 2
	checkUsage = 64
)

const checkUsageText = "usage: guardsh check [--config F] [--mode M] [--cwd D] [--ci] [--json] [--explain] [--] COMMAND"

// checkMain prints the offline verdict for a command without running it.
func checkMain(args []string, stdout, stderr io.Writer) int {
	var configFile, modeName, cwd string
	asJSON, explain, ciFlag := false, false, false
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "guardsh check: %s\n%s\n", msg, checkUsageText)
		return checkUsage
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "--") {
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		needValue := func() (string, bool) {
			if hasValue {
				return value, true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		var ok bool
		switch name {
		case "--help":
			fmt.Fprintln(stdout, checkUsageText)
			fmt.Fprintln(stdout, "Prints the decision for COMMAND (one argument: quote it) without running it; exit 0 allow, 1 ask, 2 deny, 64 usage or config error.")
			fmt.Fprintln(stdout, "--mode M asks what mode M would decide (any mode, looser ones too); when guardsh runs a command, --mode and GUARDSH_MODE may only tighten the configured mode.")
			return 0
		case "--json":
			asJSON, ok = true, !hasValue
		case "--explain":
			explain, ok = true, !hasValue
		case "--ci":
			ciFlag, ok = true, !hasValue
		case "--config":
			configFile, ok = needValue()
		case "--mode":
			modeName, ok = needValue()
		case "--cwd":
			cwd, ok = needValue()
		default:
			return usage("unknown flag " + name)
		}
		if !ok {
			return usage(name + " needs a value")
		}
	}
	if len(args)-i != 1 {
		return usage(fmt.Sprintf("want exactly one COMMAND operand, got %d (quote the command: guardsh check 'git status')", len(args)-i))
	}
	if cwd != "" {
		if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
			return usage("--cwd " + cwd + ": not a directory")
		}
	}
	command := args[i]

	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cfg, ws, root, err := loadFor(cwd, configFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: config: %v\n", err)
		return checkUsage
	}
	cfg.warnLayers(stderr)
	policy := cfg.policy
	mode := policy.Mode
	if modeName != "" {
		// What-if: check may ask about any mode, looser ones included.
		if mode, err = rules.ParseMode(modeName); err != nil {
			return usage(err.Error())
		}
	} else if mode, err = effectiveMode(mode, "", stderr); err != nil {
		fmt.Fprintf(stderr, "guardsh: %v\n", err)
		return checkUsage
	}
	home, _ := os.UserHomeDir()
	logPath, err := auditPath(policy)
	if err != nil {
		logPath = ""
	}
	g := newGuard(policy, cfg.name, mode, cwd, ws, root, true, runGuarded(cfg.guarded, policy, home, logPath)...)
	if home != "" {
		g.JailRecord = guard.JailRecordFile(jailsDir(home))
	}
	o := g.Evaluate(command)
	if ci.Enabled(os.Getenv, ciFlag) {
		// As a CI step decides it: the runner's file commands too.
		ci.FindFileCommands(os.Getenv).Decide(command, &o, g.Policy, g.Context, g.Evaluate)
	}
	if asJSON {
		var jail *sandbox.Spec
		if o.Sandbox {
			self, _ := os.Executable()
			spec := g.Jail(o, canonical(self))
			jail = &spec
		}
		writeCheckJSON(stdout, o, mode, explain, jail)
	} else {
		writeCheckText(stdout, o, explain)
	}
	switch o.Decision {
	case rules.Allow:
		return checkAllow
	case rules.Ask:
		return checkAsk
	}
	return checkDeny
}

// checkJSON is the --json output: the decision and, per segment, the fields
// an audit record gives it, and with --explain how it was found
// (explainedSegment).
type checkJSON struct {
	Decision string `json:"decision"`
	// Mode is the mode the command was decided in.
	Mode     string `json:"mode"`
	Error    string `json:"error,omitempty"`
	Segments any    `json:"segments"`
	// Sandbox is the audit record's sandbox field; Jail, when the command
	// runs jailed, the jail's effective rules.
	Sandbox string        `json:"sandbox,omitempty"`
	Jail    *sandbox.Spec `json:"jail,omitempty"`
}

// auditSegment is audit.Segment without its MarshalJSON, so that
// explainedSegment's JSON holds its fields and the added ones.
type auditSegment audit.Segment

// explainedSegment is a segment of --json --explain: the audit fields, the
// place in the command text where it starts, its chain (interp.Segment.Chain)
// and what decided it ("rule", "mode" or "class").
type explainedSegment struct {
	auditSegment
	Line      int      `json:"line"`
	Col       int      `json:"col"`
	Chain     []string `json:"chain"`
	DecidedBy string   `json:"decided_by"`
}

func writeCheckJSON(w io.Writer, o guard.Outcome, mode rules.Mode, explain bool, jail *sandbox.Spec) {
	var rec audit.Record
	o.Record(&rec)
	out := checkJSON{Decision: o.Decision.String(), Mode: string(mode), Error: rec.Error, Segments: rec.Segments,
		Sandbox: rec.Sandbox, Jail: jail}
	if explain {
		segs := make([]explainedSegment, len(rec.Segments))
		for i, c := range o.Segments {
			segs[i] = explainedSegment{auditSegment: auditSegment(rec.Segments[i]), Line: c.Segment.Line, Col: c.Segment.Col,
				Chain: c.Segment.Chain(), DecidedBy: c.Verdict.DecidedBy}
		}
		out.Segments = segs
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out)
}

func writeCheckText(w io.Writer, o guard.Outcome, explain bool) {
	fmt.Fprintln(w, o.Decision)
	if o.SandboxNote != "" {
		fmt.Fprintf(w, "  sandbox: %s\n", o.SandboxNote)
	}
	if o.Err != nil {
		fmt.Fprintf(w, "  not understood: %v\n", o.Err)
	}
	for _, c := range o.Segments {
		fmt.Fprintf(w, "  %-5s %s\n", c.Verdict.Decision, c.Segment)
		class := string(c.Verdict.Class)
		if c.Verdict.Sensitivity != "" {
			class += " (" + string(c.Verdict.Sensitivity) + ")"
		}
		fmt.Fprintf(w, "        class %s; %s\n", class, c.Verdict.Reason)
		if !explain {
			continue
		}
		fmt.Fprintf(w, "        found line %d col %d: %s\n", c.Segment.Line, c.Segment.Col, strings.Join(c.Segment.Chain(), " → "))
		if r := c.Verdict.Rule; r != nil {
			fmt.Fprintf(w, "        rule  %s\n", r)
		} else {
			fmt.Fprintf(w, "        rule  none (decided by %s)\n", c.Verdict.DecidedBy)
		}
	}
}
