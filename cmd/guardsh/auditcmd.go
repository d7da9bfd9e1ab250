package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/rules"
)

const auditUsageText = `usage:
  guardsh audit verify [--anchor FILE] [FILE…]
  guardsh audit tail [-f] [-n N] [--json] [FILTERS] [FILE…]
  guardsh audit stats [--top N] [FILTERS] [FILE…]
  guardsh audit replay --config NEW.yaml [--json] [FILTERS] [FILE…]
FILTERS: --decision allow|ask|deny --since T --until T --agent NAME --cwd DIR
         --command PATTERN --rule PATTERN --run ID --job NAME|ID
         (T: RFC 3339, YYYY-MM-DD, or a duration ago: 2h; --run and --job: a CI run's, a CI job's)
FILE defaults to the configured audit log and its rotated files, oldest first.`

// auditMain is `guardsh audit SUBCOMMAND`. Exit statuses: 0 done (verify:
// the log holds), 1 verify found the log broken (or replay found flips,
// or records it could not replay, with --fail-on-change), 2 usage,
// reading or config errors.
func auditMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "--help" || args[0] == "-h" || args[0] == "help" {
		fmt.Fprintln(stdout, auditUsageText)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("guardsh audit "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, auditUsageText) }
	var f audit.Filter
	var since, until string
	filters := func() {
		fs.StringVar(&f.Decision, "decision", "", "allow, ask or deny")
		fs.StringVar(&since, "since", "", "records at or after T")
		fs.StringVar(&until, "until", "", "records before T")
		fs.StringVar(&f.Agent, "agent", "", "detected agent")
		fs.StringVar(&f.Cwd, "cwd", "", "working directory or below")
		fs.StringVar(&f.Command, "command", "", "pattern the command matches (* any run)")
		fs.StringVar(&f.Rule, "rule", "", "pattern a segment's rule matches")
		fs.StringVar(&f.Run, "run", "", "a CI run's or pipeline's ID")
		fs.StringVar(&f.Job, "job", "", "a CI job's name or ID")
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "guardsh audit %s: %v\n", sub, err)
		return exitUsage
	}
	var (
		follow, asJSON, failOnChange bool
		n, top                       int
		anchorFile, newConfig        string
	)
	switch sub {
	case "verify":
		fs.StringVar(&anchorFile, "anchor", "", "anchor file to check the log against (default: the config's anchor: file:PATH)")
	case "tail":
		filters()
		fs.BoolVar(&follow, "f", false, "follow: print records as they are appended")
		fs.IntVar(&n, "n", 20, "the last N records (0: all)")
		fs.BoolVar(&asJSON, "json", false, "JSONL instead of a table")
	case "stats":
		filters()
		fs.IntVar(&top, "top", 10, "how many most-asked commands and most-hit rules")
	case "replay":
		filters()
		fs.StringVar(&newConfig, "config", "", "the new policy to decide the recorded commands under (required)")
		fs.BoolVar(&asJSON, "json", false, "the flipped records as JSONL")
		fs.BoolVar(&failOnChange, "fail-on-change", false, "exit 1 when any decision would change, or a record could not be replayed (its command redacted)")
	default:
		fmt.Fprintf(stderr, "guardsh audit: unknown subcommand %q\n%s\n", sub, auditUsageText)
		return exitUsage
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if f.Decision != "" && f.Decision != audit.Allow && f.Decision != audit.Ask && f.Decision != audit.Deny {
		return fail(fmt.Errorf("--decision %q: want allow, ask or deny", f.Decision))
	}
	var err error
	if f.Cwd != "" {
		// Records hold absolute directories: --cwd . is this one.
		if f.Cwd, err = filepath.Abs(f.Cwd); err != nil {
			return fail(fmt.Errorf("--cwd: %w", err))
		}
	}
	if f.Since, err = parseWhen(since); err != nil {
		return fail(fmt.Errorf("--since: %w", err))
	}
	if f.Until, err = parseWhen(until); err != nil {
		return fail(fmt.Errorf("--until: %w", err))
	}
	files, policy, err := auditFiles(fs.Args(), stderr)
	if err != nil {
		return fail(err)
	}
	switch sub {
	case "verify":
		return auditVerify(files, anchorFile, policy, stdout, stderr)
	case "tail":
		return auditTail(files, &f, n, follow, asJSON, stdout, stderr)
	case "stats":
		var st audit.Stats
		if err := audit.ScanFiles(files, func(_ string, _ int, r *audit.Record) error {
			if f.Match(r) {
				st.Add(r)
			}
			return nil
		}); err != nil {
			return fail(err)
		}
		st.Write(stdout, top)
		return 0
	default: // replay
		if newConfig == "" {
			return fail(errors.New("--config NEW.yaml is required"))
		}
		// The new config is checked first, so that its error is not
		// reported against the first record replayed.
		if _, err := rules.Load(newConfig); err != nil {
			return fail(fmt.Errorf("--config: %w", err))
		}
		rep, err := audit.ReplayFiles(files, &f, replayDecider(newConfig))
		if err != nil {
			return fail(err)
		}
		if asJSON {
			for _, fl := range rep.Flips {
				audit.WriteJSONL(stdout, fl.Rec)
			}
			if n := len(rep.Unreplayable); n > 0 {
				fmt.Fprintf(stderr, "guardsh audit replay: %d recorded commands not replayed: their command was redacted\n", n)
			}
		} else {
			rep.Write(stdout)
		}
		// A record not replayed may have changed: fail closed.
		if failOnChange && len(rep.Flips)+len(rep.Unreplayable) > 0 {
			return 1
		}
		return 0
	}
}

// parseWhen reads a --since/--until value: RFC 3339, a date (UTC
// midnight), a duration before now ("90m", "2h", and days or weeks: "1d",
// "2w", "1d12h"), or "today"/"yesterday" (UTC midnight).
func parseWhen(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	midnight := time.Now().UTC().Truncate(24 * time.Hour)
	switch s {
	case "today":
		return midnight, nil
	case "yesterday":
		return midnight.Add(-24 * time.Hour), nil
	}
	if d, ok := parseDays(s); ok {
		return time.Now().Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return time.Now().Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("%q is not RFC 3339, YYYY-MM-DD, today, yesterday or a duration like 2h or 7d", s)
}

// parseDays reads a duration with a leading count of days (d) or weeks
// (w), what time.ParseDuration has no unit for, and an optional rest it
// reads ("1d12h").
func parseDays(s string) (time.Duration, bool) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 || i == len(s) || s[i] != 'd' && s[i] != 'w' {
		return 0, false
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n > 100000 {
		return 0, false
	}
	unit := 24 * time.Hour
	if s[i] == 'w' {
		unit *= 7
	}
	d := time.Duration(n) * unit
	if rest := s[i+1:]; rest != "" {
		r, err := time.ParseDuration(rest)
		if err != nil || r < 0 {
			return 0, false
		}
		d += r
	}
	return d, true
}

// auditFiles returns the files named, else the configured log's rotated
// files and the log itself; and the effective policy (nil when files were
// named and no config was needed).
func auditFiles(named []string, stderr io.Writer) ([]string, *rules.Policy, error) {
	cwd, _ := os.Getwd()
	cfg, _, _, err := loadFor(cwd, "", stderr)
	if err != nil {
		if len(named) > 0 {
			return named, nil, nil
		}
		return nil, nil, fmt.Errorf("config: %w", err)
	}
	if len(named) > 0 {
		return named, cfg.policy, nil
	}
	path, err := auditPath(cfg.policy)
	if err != nil {
		return nil, nil, err
	}
	old, err := audit.Rotated(path)
	if err != nil {
		return nil, nil, err
	}
	return append(old, path), cfg.policy, nil
}

func auditVerify(files []string, anchorFile string, p *rules.Policy, stdout, stderr io.Writer) int {
	if anchorFile == "" && p != nil {
		if rest, ok := strings.CutPrefix(p.Audit.Anchor, "file:"); ok {
			anchorFile = rest
		}
	}
	var anchors []audit.AnchorLine
	if anchorFile != "" {
		all, err := audit.LoadAnchors(anchorFile)
		if err != nil {
			fmt.Fprintf(stderr, "guardsh audit verify: %v\n", err)
			return exitUsage
		}
		// The anchors of this log only (another log may share the file).
		last := files[len(files)-1]
		others := map[string]bool{}
		for _, a := range all {
			if a.Log == "" || a.Log == last || canonical(a.Log) == canonical(last) {
				anchors = append(anchors, a)
			} else {
				others[a.Log] = true
			}
		}
		if len(anchors) == 0 && len(all) > 0 {
			// Checked against none, a copy of the log (truncated, say)
			// read "ok" (a new user's find): anchors are matched by the
			// log's path.
			names := slices.Sorted(maps.Keys(others))
			fmt.Fprintf(stderr, "guardsh audit verify: none of the %d anchors in %s is of %s: they name %s (an anchor names the log it was taken of; verify that path, or a copy with the same name in place)\n",
				len(all), anchorFile, last, strings.Join(names, ", "))
			return 1
		}
	}
	v, err := audit.Verify(files, anchors)
	var b *audit.Broken
	switch {
	case errors.As(err, &b):
		fmt.Fprintf(stderr, "guardsh audit verify: broken at %v\n", b)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "guardsh audit verify: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "ok: %d records in %d file(s), one chain, head %s", v.Records, v.Files, v.Head)
	if anchorFile != "" {
		fmt.Fprintf(stdout, "; %d anchors in %s hold", v.Anchors, anchorFile)
	}
	fmt.Fprintln(stdout)
	return 0
}

func auditTail(files []string, f *audit.Filter, n int, follow, asJSON bool, stdout, stderr io.Writer) int {
	var last []*audit.Record
	err := audit.ScanFiles(files, func(_ string, _ int, r *audit.Record) error {
		if f.Match(r) {
			last = append(last, r)
			if n > 0 && len(last) > n {
				last = last[1:]
			}
		}
		return nil
	})
	if err != nil && !(follow && errors.Is(err, os.ErrNotExist)) {
		fmt.Fprintf(stderr, "guardsh audit tail: %v\n", err)
		return exitUsage
	}
	table := audit.NewTable(stdout, 80)
	show := func(r *audit.Record) error {
		if asJSON {
			return audit.WriteJSONL(stdout, r)
		}
		table.Add(r)
		if follow {
			return table.Flush() // a row at a time: columns may shift
		}
		return nil
	}
	for _, r := range last {
		show(r)
	}
	if !follow {
		table.Flush()
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err = audit.Follow(ctx, files[len(files)-1], 200*time.Millisecond, func(r *audit.Record) error {
		if f.Match(r) {
			return show(r)
		}
		return nil
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "guardsh audit tail: %v\n", err)
		return exitUsage
	}
	return 0
}

// replayDecider decides recorded commands under the config file path, as
// guardsh would in each record's working directory: the system layer, the
// file as the user's config, and the project file at that workspace.
func replayDecider(path string) audit.Decider {
	guards := map[string]*guard.Guard{}
	return func(r *audit.Record) (string, string, error) {
		g := guards[r.Cwd]
		if g == nil {
			cfg, ws, root, err := loadFor(r.Cwd, path, io.Discard)
			if err != nil {
				return "", "", err
			}
			g = newGuard(cfg.policy, cfg.name, cfg.policy.Mode, r.Cwd, ws, root, true, cfg.guarded...)
			guards[r.Cwd] = g
		}
		o := g.Evaluate(r.Command)
		why := ""
		if o.Err != nil {
			why = "not understood: " + o.Err.Error()
		}
		for _, c := range o.Segments {
			if c.Verdict.Decision == o.Decision {
				why = strings.Join(guard.DisplayArgv(c.Segment), " ") + ": " + c.Verdict.Reason
				break
			}
		}
		return o.Decision.String(), why, nil
	}
}
