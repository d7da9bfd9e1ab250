package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Filter selects records. The zero Filter selects every record; each set
// field narrows the selection.
type Filter struct {
	// Decision is allow, ask or deny: the record's overall decision, or,
	// for ask, a record whose decision was made by a human or the headless
	// policy on an ask ("ask" selects what asked, whatever the answer).
	Decision string
	// Since and Until bound the record's ts (inclusive, exclusive).
	Since, Until time.Time
	// Agent is the detected caller, exactly.
	Agent string
	// Cwd selects records made in this directory or below it.
	Cwd string
	// Command is a pattern the whole command text, or one of its
	// segments (its argv joined by spaces, as rules match it), must
	// match: * matches any run of characters, everything else is literal
	// (the policy's pattern syntax). The segments are matched because
	// the command text may be redacted (Record.Redacted) and a nested
	// command (bash -c '…', eval '…') is one of them.
	Command string
	// Rule is a pattern some segment's rule must match (same syntax).
	Rule string
	// Run selects the records of a CI run or pipeline (Record.CI.Run),
	// Job those of a CI job by its name or ID (CI.Job or CI.JobID):
	// one job's commands out of a shared runner's log.
	Run, Job string

	command, rule *regexp.Regexp
}

// glob compiles a pattern of the policy's syntax: * any run, the rest
// literal, the whole string.
func glob(p string) *regexp.Regexp {
	parts := strings.Split(p, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile(`^(?s:` + strings.Join(parts, ".*") + `)$`)
}

// Match reports whether f selects r.
func (f *Filter) Match(r *Record) bool {
	switch {
	case f.Decision != "" && r.Decision != f.Decision && !(f.Decision == Ask && asked(r)):
		return false
	case f.Agent != "" && r.Agent != f.Agent:
		return false
	case f.Cwd != "" && r.Cwd != f.Cwd && !strings.HasPrefix(r.Cwd, strings.TrimSuffix(f.Cwd, "/")+"/"):
		return false
	case f.Run != "" && (r.CI == nil || r.CI.Run != f.Run):
		return false
	case f.Job != "" && (r.CI == nil || r.CI.Job != f.Job && r.CI.JobID != f.Job):
		return false
	}
	if !f.Since.IsZero() || !f.Until.IsZero() {
		t, err := time.Parse(time.RFC3339Nano, r.TS)
		if err != nil || !f.Since.IsZero() && t.Before(f.Since) || !f.Until.IsZero() && !t.Before(f.Until) {
			return false
		}
	}
	if f.Command != "" {
		if f.command == nil {
			f.command = glob(f.Command)
		}
		if !f.command.MatchString(r.Command) && !slices.ContainsFunc(r.Segments, func(s Segment) bool {
			return f.command.MatchString(strings.Join(s.Argv, " "))
		}) {
			return false
		}
	}
	if f.Rule != "" {
		if f.rule == nil {
			f.rule = glob(f.Rule)
		}
		if !slices.ContainsFunc(r.Segments, func(s Segment) bool { return s.Rule != nil && f.rule.MatchString(*s.Rule) }) {
			return false
		}
	}
	return true
}

// asked reports a record where something asked: the decision, or a
// segment, was ask before a human or the headless policy settled it.
func asked(r *Record) bool {
	return r.Decision == Ask || slices.ContainsFunc(r.Segments, func(s Segment) bool { return s.Decision == Ask })
}

// Scan reads the records of a JSONL log from r and calls fn with each and
// its 1-based line number; name names r in errors. A line that is not a
// record is an error naming it and its line. fn's error stops the scan
// and is returned.
func Scan(r io.Reader, name string, fn func(line int, rec *Record) error) error {
	br := bufio.NewReaderSize(r, 256<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var rec Record
			if jerr := json.Unmarshal(line, &rec); jerr != nil {
				return fmt.Errorf("%s:%d: not an audit record: %v", name, n, jerr)
			}
			if ferr := fn(n, &rec); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
}

// ScanFiles scans the files in order (see Scan).
func ScanFiles(files []string, fn func(file string, line int, rec *Record) error) error {
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = Scan(f, name, func(line int, rec *Record) error { return fn(name, line, rec) })
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// Follow calls fn with each record appended to the log at path from its
// current end on, until ctx is done, checking every poll interval; when
// the log is rotated it goes on from the start of the new file. It
// returns ctx's error, or the first error of reading or of fn.
func Follow(ctx context.Context, path string, poll time.Duration, fn func(rec *Record) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { f.Close() }()
	off, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	var partial []byte
	buf := make([]byte, 64<<10)
	for {
		n, rerr := f.ReadAt(buf, off)
		if n > 0 {
			off += int64(n)
			partial = append(partial, buf[:n]...)
			for {
				i := bytes.IndexByte(partial, '\n')
				if i < 0 {
					break
				}
				var rec Record
				if err := json.Unmarshal(partial[:i], &rec); err != nil {
					return fmt.Errorf("%s: not an audit record: %v", path, err)
				}
				partial = partial[i+1:]
				if err := fn(&rec); err != nil {
					return err
				}
			}
			continue
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return rerr
		}
		// At the end: rotated?
		if st, err := os.Stat(path); err == nil {
			if cur, err := f.Stat(); err == nil && !os.SameFile(st, cur) {
				nf, err := os.Open(path)
				if err == nil {
					f.Close()
					f, off, partial = nf, 0, nil
					continue
				}
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// WriteJSONL writes r as its JSON line.
func WriteJSONL(w io.Writer, r *Record) error {
	b, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Table writes records as an aligned table: time, decision, what decided,
// agent, working directory and command (newlines shown as ⏎, cut at width
// characters).
type Table struct {
	tw    *tabwriter.Writer
	width int
	n     int
}

// NewTable returns a Table writing to w; width <= 0 means 80.
func NewTable(w io.Writer, width int) *Table {
	if width <= 0 {
		width = 80
	}
	return &Table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), width: width}
}

// Add writes one record's row (the header first).
func (t *Table) Add(r *Record) {
	if t.n == 0 {
		fmt.Fprintln(t.tw, "TIME\tDECISION\tBY\tEXIT\tAGENT\tCWD\tCOMMAND")
	}
	t.n++
	cmdText := Visible(strings.ReplaceAll(Shown(r.Command), "\n", "⏎"))
	if rs := []rune(cmdText); len(rs) > t.width {
		cmdText = string(rs[:t.width-1]) + "…"
	}
	exit := "-"
	if r.Exit != nil {
		exit = fmt.Sprint(*r.Exit)
	}
	fmt.Fprintf(t.tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.TS, r.Decision, r.DecidedBy, exit, Visible(cmp.Or(r.Agent, "-")), Visible(r.Cwd), cmdText)
}

// Visible returns s with what a terminal would act on rather than show
// escaped: control characters (escape sequences start with one; tab and
// newline included) as \xHH, and the C1 controls, the bidirectional
// overrides and isolates and other invisible format characters as \uHHHH.
// A command in the log is the agent's text: printed raw, it could rewrite
// the operator's screen.
func Visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r >= 0x80 && r < 0xa0, r == 0x200b, r == 0x200e, r == 0x200f, r == 0xfeff,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Flush writes out the rows added so far.
func (t *Table) Flush() error { return t.tw.Flush() }

// Stats counts records: by decision, segments by class, the commands that
// asked most and the rules that decided most.
type Stats struct {
	Records    int
	ByDecision map[string]int
	ByClass    map[string]int
	Asked      map[string]int // command text → records where it asked
	Rules      map[string]int // "PATTERN (FILE:LINE)" → segments it decided; " — could match" added where a run-time word only could be what it names
}

// Add counts r.
func (s *Stats) Add(r *Record) {
	if s.ByDecision == nil {
		s.ByDecision, s.ByClass, s.Asked, s.Rules = map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	}
	s.Records++
	// An ask no one could answer is refused: counted apart from the
	// denials rules and humans made.
	d := r.Decision
	switch {
	case d == Deny && r.DecidedBy == "headless":
		d = "deny (an ask no one answered)"
	case d == Deny && r.Human != nil:
		d = "deny (by a human)"
	}
	s.ByDecision[d]++
	for _, seg := range r.Segments {
		s.ByClass[seg.Class]++
		if seg.Rule != nil {
			k := *seg.Rule
			if seg.Source != "" {
				k += " (" + seg.Source + ")"
			}
			if strings.Contains(seg.Reason, "could match") {
				// A word only known at run time that could be what
				// the rule names: counted apart from the rule's
				// matches (a team lead read 51 hits of ~/.ssh/id_*
				// where no command read a key).
				k += " — could match"
			}
			s.Rules[k]++
		}
	}
	if asked(r) {
		s.Asked[Shown(r.Command)]++
	}
}

// Write prints the counts, the top most-asked commands and most-hit rules.
func (s *Stats) Write(w io.Writer, top int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "records\t%d\n", s.Records)
	section := func(title string, m map[string]int, limit int) {
		fmt.Fprintf(tw, "\n%s\n", title)
		type kv struct {
			k string
			v int
		}
		var all []kv
		for k, v := range m {
			all = append(all, kv{k, v})
		}
		slices.SortFunc(all, func(a, b kv) int { return cmp.Or(b.v-a.v, strings.Compare(a.k, b.k)) })
		if limit > 0 && len(all) > limit {
			all = all[:limit]
		}
		for _, e := range all {
			fmt.Fprintf(tw, "  %d\t%s\n", e.v, Visible(statLine(e.k)))
		}
	}
	section("by decision", s.ByDecision, 0)
	section("segments by class", s.ByClass, 0)
	section("most-asked commands", s.Asked, top)
	section("most-hit rules", s.Rules, top)
	return tw.Flush()
}

// statLine is how Stats shows a command or rule: on one line, a text of
// several lines by its first and how many there are, and at most
// statWidth characters (a whole 41-line CI script was one line of the
// counts, a new user's find).
func statLine(k string) string {
	if first, _, ok := strings.Cut(k, "\n"); ok {
		k = fmt.Sprintf("%s ⏎ … (%d lines)", first, strings.Count(strings.TrimRight(k, "\n"), "\n")+1)
	}
	if r := []rune(k); len(r) > statWidth {
		k = string(r[:statWidth-1]) + "…"
	}
	return k
}

// statWidth is the most characters statLine shows of a command.
const statWidth = 160

// Shown is the part of a command a reader of the log looks for: Claude
// Code's wrapper is dropped, leaving the text it gave eval; any other
// text is itself. The wrapper is an && list of, in order: optional set-up
// operands (`source …/shell-snapshots/… 2>/dev/null || true`, `shopt -u
// extglob 2>/dev/null || true`), one `eval WORD` (with `\< /dev/null` or
// `< /dev/null` or neither), and `pwd -P >| FILE` last
// (benchdata.ClaudeCodeCommand has the shape). Anything else in the list
// — another command, a substitution in WORD, a redirection the wrapper
// does not make — keeps the whole text, so what Shown drops never runs
// anything. The record keeps the whole text.
func Shown(command string) string {
	if !strings.Contains(command, "eval ") || !strings.Contains(command, "pwd -P") {
		return command
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return command
	}
	// The list's operands in the order they run, each with the operator
	// before it: A || true && B parses as ((A || true) && B).
	var ops []*syntax.Stmt
	var before []syntax.BinCmdOperator
	st := f.Stmts[0]
	for {
		if !plainStmt(st) {
			return command
		}
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.AndStmt && b.Op != syntax.OrStmt || len(st.Redirs) > 0 {
			break
		}
		ops, before = append(ops, b.Y), append(before, b.Op)
		st = b.X
	}
	ops, before = append(ops, st), append(before, syntax.AndStmt)
	slices.Reverse(ops)
	slices.Reverse(before)
	n := len(ops)
	if n < 2 || before[n-1] != syntax.AndStmt || before[n-2] != syntax.AndStmt || !wrapperPwd(ops[n-1]) {
		return command
	}
	shown, ok := wrapperEval(ops[n-2])
	if !ok {
		return command
	}
	for i, op := range ops[:n-2] {
		if before[i] == syntax.OrStmt {
			if w, ok := callWords(op); !ok || !slices.Equal(w, []string{"true"}) || len(op.Redirs) > 0 {
				return command
			}
		} else if !wrapperSetup(op) {
			return command
		}
	}
	return shown
}

// plainStmt reports a statement run as is: not negated, backgrounded or a
// coprocess.
func plainStmt(s *syntax.Stmt) bool { return !s.Negated && !s.Background && !s.Coprocess }

// callWords returns the literal words of a plain call (no assignments),
// and false for any other statement or a word that is not one literal.
func callWords(s *syntax.Stmt) ([]string, bool) {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || !plainStmt(s) {
		return nil, false
	}
	var out []string
	for _, w := range c.Args {
		lit := w.Lit()
		if lit == "" {
			return nil, false
		}
		out = append(out, lit)
	}
	return out, true
}

// onlyRedirs reports whether s's redirections are exactly want, each
// "OP WORD" (op as the parser prints it, the word literal).
func onlyRedirs(s *syntax.Stmt, want ...string) bool {
	if len(s.Redirs) != len(want) {
		return false
	}
	for i, r := range s.Redirs {
		if r.N != nil && r.N.Value != "2" || r.Hdoc != nil || r.Word == nil {
			return false
		}
		got := r.Op.String() + " " + r.Word.Lit()
		if r.N != nil {
			got = r.N.Value + got
		}
		if got != want[i] {
			return false
		}
	}
	return true
}

// wrapperSetup reports one of the wrapper's set-up operands: `source
// …/.claude/shell-snapshots/snapshot-…` (a protected path, which an agent
// cannot write unasked: attack run 60 had a file of its own under
// another shell-snapshots directory run unshown) or `shopt -u extglob`,
// with 2>/dev/null or
// without (the `|| true` after it is an operand of its own).
func wrapperSetup(s *syntax.Stmt) bool {
	w, ok := callWords(s)
	if !ok || !onlyRedirs(s) && !onlyRedirs(s, "2> /dev/null") {
		return false
	}
	return len(w) == 2 && w[0] == "source" && strings.Contains(w[1], "/.claude/shell-snapshots/snapshot-") ||
		slices.Equal(w, []string{"shopt", "-u", "extglob"})
}

// wrapperPwd reports the wrapper's last operand, `pwd -P >| FILE`.
func wrapperPwd(s *syntax.Stmt) bool {
	w, ok := callWords(s)
	return ok && slices.Equal(w, []string{"pwd", "-P"}) && len(s.Redirs) == 1 &&
		s.Redirs[0].Op == syntax.ClbOut && s.Redirs[0].N == nil && claudeCwdFile().MatchString(s.Redirs[0].Word.Lit())
}

// claudeCwdFile matches the file Claude Code has pwd -P write: a
// temporary directory's claude-HEX-cwd. Another target is no wrapper's
// (attack run 60: `pwd -P >| src/app.py` overwrote a file the table did
// not show).
var claudeCwdFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[^\s]*/claude-[0-9A-Za-z]+-cwd$`) })

// wrapperEval returns the text an `eval WORD` operand runs: WORD's value,
// when it is made of quoted and plain text only (no expansion), and eval
// gets nothing else but `\< /dev/null`, or a `< /dev/null` redirection.
func wrapperEval(s *syntax.Stmt) (string, bool) {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 || !plainStmt(s) || len(c.Args) < 2 || c.Args[0].Lit() != "eval" {
		return "", false
	}
	switch {
	case len(c.Args) == 2 && (onlyRedirs(s) || onlyRedirs(s, "< /dev/null")):
	case len(c.Args) == 4 && onlyRedirs(s) && c.Args[2].Lit() == `\<` && c.Args[3].Lit() == "/dev/null":
	default:
		return "", false
	}
	var b strings.Builder
	for _, part := range c.Args[1].Parts {
		switch p := part.(type) {
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				lit, ok := dp.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(lit.Value, `\"$`+"`\n"))
			}
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, ""))
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape removes the backslashes the shell removes: before any
// character (special empty, outside quotes) or before one of special
// (inside double quotes); a backslash before a newline goes with it.
func unescape(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (special == "" || strings.IndexByte(special, s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
