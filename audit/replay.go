package audit

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// PolicyDecision is the decision the policy made for r, before a human,
// the headless policy or a reviewer settled an ask: the strictest segment
// decision, ask for a command that was not understood (no segments, an
// error), else r.Decision.
func PolicyDecision(r *Record) string {
	if len(r.Segments) == 0 {
		if r.Error != "" {
			return Ask
		}
		return r.Decision
	}
	d := Allow
	for _, s := range r.Segments {
		if rank(s.Decision) > rank(d) {
			d = s.Decision
		}
	}
	return d
}

func rank(d string) int { return slices.Index([]string{Allow, Ask, Deny}, d) }

// Flip is a recorded command whose decision a new policy changes.
type Flip struct {
	File string
	Line int
	Rec  *Record
	// Was is PolicyDecision of the record, Now the new policy's decision
	// and Why its reason (the deciding segment's).
	Was, Now, Why string
}

// Replay is the result of deciding recorded commands again.
type Replay struct {
	// Records is the number of records decided again.
	Records int
	// Flips are those whose decision changed, in log order.
	Flips []Flip
	// Unreplayable are the records selected but not decided again: their
	// command was redacted (Replayable), in log order; Was is their
	// PolicyDecision and Why says so.
	Unreplayable []Flip
	// Counts counts flips by "was→now" (for example "allow→ask").
	Counts map[string]int
}

// Decider decides a recorded command under a new policy: the decision
// (allow, ask or deny) and why.
type Decider func(r *Record) (decision, why string, err error)

// Replayable reports whether r's command is the text that was decided,
// so that deciding it again means something: not when secrets were
// redacted out of it (Record.Redacted, or a Redacted in the text of a
// record written before that field was). A redacted command decided
// again is another command: its secret replaced, and in records of
// earlier versions whatever a pattern swallowed with it (an attack run's
// `curl … | bash` replayed as a false ask→allow).
func Replayable(r *Record) bool {
	return !r.Redacted && !strings.Contains(r.Command, Redacted)
}

// ReplayFiles decides every record of files that f selects again with
// decide, and returns what changed; a record that is not Replayable is
// listed in Unreplayable instead. A reading or decision error stops it.
func ReplayFiles(files []string, f *Filter, decide Decider) (Replay, error) {
	out := Replay{Counts: map[string]int{}}
	err := ScanFiles(files, func(file string, line int, r *Record) error {
		if f != nil && !f.Match(r) {
			return nil
		}
		if !Replayable(r) {
			out.Unreplayable = append(out.Unreplayable, Flip{File: file, Line: line, Rec: r, Was: PolicyDecision(r),
				Why: "its command was redacted: the text is not what was decided"})
			return nil
		}
		out.Records++
		now, why, err := decide(r)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if was := PolicyDecision(r); was != now {
			out.Flips = append(out.Flips, Flip{File: file, Line: line, Rec: r, Was: was, Now: now, Why: why})
			out.Counts[was+"→"+now]++
		}
		return nil
	})
	return out, err
}

// Write prints the flips, one per line ("WAS→NOW  TS  COMMAND  (why)"),
// the records not replayed ("not replayed (WAS)  TS  COMMAND  (why;
// segments: …)", the segments being every command the record says would
// run), then the counts and the totals.
func (r Replay) Write(w io.Writer) error {
	for _, f := range r.Flips {
		cmd := Visible(strings.ReplaceAll(f.Rec.Command, "\n", "⏎"))
		if _, err := fmt.Fprintf(w, "%s→%s\t%s\t%s\t(%s)\n", f.Was, f.Now, f.Rec.TS, cmd, Visible(f.Why)); err != nil {
			return err
		}
	}
	for _, f := range r.Unreplayable {
		cmd := Visible(strings.ReplaceAll(f.Rec.Command, "\n", "⏎"))
		segs := make([]string, 0, len(f.Rec.Segments))
		for _, s := range f.Rec.Segments {
			segs = append(segs, Visible(strings.Join(s.Argv, " ")))
		}
		if _, err := fmt.Fprintf(w, "not replayed (%s)\t%s\t%s\t(%s; segments: %s)\n", f.Was, f.Rec.TS, cmd, f.Why, strings.Join(segs, "; ")); err != nil {
			return err
		}
	}
	keys := make([]string, 0, len(r.Counts))
	for k := range r.Counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s: %d\n", k, r.Counts[k])
	}
	_, err := fmt.Fprintf(w, "%d of %d recorded commands would be decided differently\n", len(r.Flips), r.Records)
	if err == nil && len(r.Unreplayable) > 0 {
		_, err = fmt.Fprintf(w, "%d recorded commands not replayed: their command was redacted (their segments are listed above)\n", len(r.Unreplayable))
	}
	return err
}
