// Package audit is guardsh's audit record: its schema, and a log file that
// concurrent guardsh processes append to, one JSON line per invocation,
// without interleaving or losing lines.
//
// A record is written for every invocation, whether the command ran or was
// refused. The log is opened before the command runs, so a log that cannot be
// written refuses the command (see Open). The record's shape is published as
// a JSON Schema (draft 2020-12) in schema.json, returned by Schema; its "v"
// is SchemaVersion.
package audit

import (
	"fmt"
	"math"
	"time"
)

// SchemaVersion is the value of "v" in every record this package writes. It
// changes when a field is removed or changes meaning; schema.json carries the
// same number. Version 2 added the hash chain (Prev, Hash).
const SchemaVersion = 2

// TimeLayout is the layout of Record.TS: RFC 3339 in UTC with exactly three
// fractional digits (milliseconds), for example "2025-07-01T12:00:00.123Z".
// Fixed width, so timestamps sort as strings.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Decisions, as written in Record.Decision and Segment.Decision.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// Record is one audit record: one invocation of guardsh, what it was asked to
// run, what was decided for each segment and overall, and the outcome. It is
// written as one JSON object on one line; the JSON names are those in the
// struct tags and in schema.json. Fields tagged omitempty are left out when
// unknown; all others are always present.
type Record struct {
	// V is the schema version, SchemaVersion.
	V int `json:"v"`
	// TS is when guardsh was invoked, formatted with TimeLayout (UTC,
	// milliseconds).
	TS string `json:"ts"`
	// ID identifies the record; see NewID. IDs of records made in later
	// milliseconds sort after earlier ones.
	ID string `json:"id"`
	// Session groups records of one agent session, when the caller knows one.
	Session string `json:"session,omitempty"`
	// PPID is the process ID of guardsh's parent (the agent, CI runner, …).
	PPID int `json:"ppid"`
	// Agent names the caller as Detect found it ("claude-code", "codex",
	// "github-actions", …); empty when unknown.
	Agent string `json:"agent,omitempty"`
	// CI names the CI run, job and step that invoked guardsh, as the CI
	// system's environment says (see DetectCI); absent outside CI.
	CI *CI `json:"ci,omitempty"`
	// User is the login name guardsh ran as.
	User string `json:"user"`
	// Cwd is the absolute working directory of the invocation.
	Cwd string `json:"cwd"`
	// Argv is guardsh's own argument vector, argv[0] included. Never null in
	// JSON: nil is written as [].
	Argv []string `json:"argv"`
	// Command is the shell text that was analysed (and, if allowed, run):
	// the -c string, or the script's contents.
	Command string `json:"command"`
	// Redacted is true when secrets were taken out of Command (see
	// Redactor.Command): the text is no longer what was decided, so
	// `audit replay` does not decide it again, and Segments, redacted
	// word by word, show every command that would run. Absent otherwise.
	Redacted bool `json:"redacted,omitempty"`
	// Mode is the policy mode in force ("ask", "auto", …).
	Mode string `json:"mode"`
	// Segments are the per-segment decisions, in the order the segments
	// appear in Command. Never null in JSON: nil is written as [], as it is
	// when Command was not understood.
	Segments []Segment `json:"segments"`
	// Decision is the overall decision: Allow, Ask or Deny. A command that
	// was asked about and then approved or refused by a human records the
	// outcome in DecidedBy ("human") and here.
	Decision string `json:"decision"`
	// DecidedBy says what settled Decision: "rule", "mode", "class",
	// "reviewer", "adversary", "human", "headless", ….
	DecidedBy string `json:"decided_by"`
	// Exit is the command's exit status; nil (JSON null) when nothing ran or
	// the status is unknown.
	Exit *int `json:"exit"`
	// DurationMS is the wall time of the invocation in milliseconds, from
	// start to the record being made (fractional; never negative).
	DurationMS float64 `json:"duration_ms"`
	// LLM is the model review that decided (or the last one made); absent
	// when no model was asked. Each reviewed segment carries its own.
	LLM *LLM `json:"llm,omitempty"`
	// Sandbox says how the command ran with respect to the Landlock jail:
	// "workspace" or "strict" (the sandbox mode) when it ran jailed, with
	// ", network" when the jail let it connect, "; restored PATHS" when
	// guardsh put back protected paths in the workspace that the command
	// changed and "; tampered DIRS" when the command replaced a directory
	// holding protected paths (left alone: see sandbox.Kept.Restore);
	// "unavailable (ABI n)"
	// when it would have run jailed but the kernel's Landlock ABI is too
	// old, so it asked; "unjailed; stopped N" when it ran unjailed with
	// the sandbox on and guardsh stopped the N processes it left running
	// (see the README's "Sandbox"); empty (absent) when no jail was
	// involved.
	Sandbox string `json:"sandbox,omitempty"`
	// Recording is the file name of the command's terminal session
	// recording (asciicast v2, "ID.cast" in the recordings directory next
	// to the log; `guardsh replay ID` plays it); empty (absent) when the
	// command ran on no pty or recording is off.
	Recording string `json:"recording,omitempty"`
	// Error says what went wrong when guardsh itself failed, for example
	// "not understood: …"; empty otherwise.
	Error string `json:"error,omitempty"`
	// Human is the human's answer when one settled an ask (decided_by
	// "human"); nil (absent) otherwise.
	Human *Human `json:"human,omitempty"`
	// Prev is the Hash of the record before this one in the log (across
	// rotated files), or Genesis for the first record: 64 lower-case hex
	// digits. Set by Log.Append; whatever the caller puts here is
	// replaced.
	Prev string `json:"prev"`
	// Hash is the SHA-256, in lower-case hex, of the record's line with
	// the hash member left out (see Log.Append and Verify). Set by
	// Log.Append. It is the last member of the line.
	Hash string `json:"hash"`
}

// Human is a human's answer to an ask.
type Human struct {
	// Answer is what the human chose: "once", "session", "always" (the
	// exact command remembered), "prefix" (a prefix remembered), "deny"
	// (in the dialog), or "approve"/"deny" given from another terminal
	// (Approval then names it).
	Answer string `json:"answer"`
	// LatencyMS is how long the answer took, in milliseconds: from the
	// dialog being shown to the key, or, for an answer given from another
	// terminal (Approval), from the pending approval being made to
	// `guardsh approve` or `deny` answering it (the spool's created and
	// decided stamps), however long the agent then took to retry.
	LatencyMS float64 `json:"latency_ms"`
	// Approval is the pending approval's id, when there was one.
	Approval string `json:"approval,omitempty"`
	// Rules are the allow patterns remembered.
	Rules []string `json:"rules,omitempty"`
	// Message is the human's message for the agent with a denial.
	Message string `json:"message,omitempty"`
}

// CI is where in a CI system a record was made, from the variables the
// system sets for every step: a team auditing what ran finds a record's
// run, job and step. Empty fields are left out.
type CI struct {
	// System is "github-actions" or "gitlab".
	System string `json:"system"`
	// Repository is owner/name (GITHUB_REPOSITORY, CI_PROJECT_PATH).
	Repository string `json:"repository,omitempty"`
	// Workflow is the workflow's name (GITHUB_WORKFLOW).
	Workflow string `json:"workflow,omitempty"`
	// Run is the run's or pipeline's ID (GITHUB_RUN_ID, CI_PIPELINE_ID)
	// and Attempt its attempt (GITHUB_RUN_ATTEMPT).
	Run     string `json:"run,omitempty"`
	Attempt string `json:"attempt,omitempty"`
	// Job is the job's ID or name (GITHUB_JOB, CI_JOB_NAME) and JobID
	// GitLab's numeric job ID (CI_JOB_ID).
	Job   string `json:"job,omitempty"`
	JobID string `json:"job_id,omitempty"`
	// Step is the step's ID (GITHUB_ACTION: the id: of the step, or
	// __run_N for an unnamed run step).
	Step string `json:"step,omitempty"`
}

// DetectCI returns where in a CI system guardsh runs, from getenv
// (os.Getenv): GitHub Actions when GITHUB_ACTIONS is "true", GitLab when
// GITLAB_CI is; nil otherwise.
func DetectCI(getenv func(string) string) *CI {
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		return &CI{System: "github-actions", Repository: getenv("GITHUB_REPOSITORY"), Workflow: getenv("GITHUB_WORKFLOW"),
			Run: getenv("GITHUB_RUN_ID"), Attempt: getenv("GITHUB_RUN_ATTEMPT"), Job: getenv("GITHUB_JOB"), Step: getenv("GITHUB_ACTION")}
	case getenv("GITLAB_CI") == "true":
		return &CI{System: "gitlab", Repository: getenv("CI_PROJECT_PATH"), Run: getenv("CI_PIPELINE_ID"),
			Job: getenv("CI_JOB_NAME"), JobID: getenv("CI_JOB_ID")}
	}
	return nil
}

// Segment is the decision for one segment: one simple command that would
// run, or one file a redirection would write or read.
type Segment struct {
	// Argv is the segment's words after quote removal (for "write" and
	// "read": the single path). Never null in JSON: nil is written as [].
	Argv []string `json:"argv"`
	// Written marks the words of Argv that are as written in the command
	// (a word only known at run time: its quotes and expansions), which
	// redaction reads as shell text, bounded by their quotes, as it
	// reads the command. Not recorded.
	Written []bool `json:"-"`
	// Kind is "exec", "write" or "read".
	Kind string `json:"kind"`
	// Class is the policy's class of the segment: "read-only",
	// "workspace" or "sensitive".
	Class string `json:"class"`
	// Sensitivity is why a "sensitive" segment is: "network",
	// "outside-workspace", "interpreter", "privilege", "destructive",
	// "unknown-program" or "protected-path"; empty (absent) otherwise.
	Sensitivity string `json:"sensitivity,omitempty"`
	// Decision is Allow, Ask or Deny.
	Decision string `json:"decision"`
	// Rule is the pattern that decided; nil (JSON null) when the mode or
	// class did.
	Rule *string `json:"rule"`
	// Source is where Rule is written, as "file:line"; empty when Rule is
	// nil.
	Source string `json:"source,omitempty"`
	// Reason is one sentence for people.
	Reason string `json:"reason"`
	// Via is the chain of constructs that led to nested code, outermost
	// first (for example ["bash -c", "$(…)"]); empty at top level.
	Via []string `json:"via,omitempty"`
	// LLM is the model's review of this segment; absent when none.
	LLM *LLM `json:"llm,omitempty"`
	// Sandbox is true when the segment would have asked and runs inside
	// the Landlock jail instead (its Decision is then Allow).
	Sandbox bool `json:"sandbox,omitempty"`
}

// LLM is one model review of one segment (package adversary).
type LLM struct {
	// Role is "adversary", "reviewer" or "judge".
	Role string `json:"role"`
	// Model is the configured model name.
	Model string `json:"model"`
	// Verdict is the answer's verdict in lower case ("allow", "block",
	// "safe", "unsafe", "read_only", "not_read_only"), or "error" when no
	// usable answer came (Error says why).
	Verdict string `json:"verdict"`
	// Confident is the model's confidence; absent on error.
	Confident *bool `json:"confident,omitempty"`
	// Reason is the model's one sentence (untrusted text).
	Reason string `json:"reason,omitempty"`
	// Effect is what the review did: "blocked", "approved", "read-only",
	// "none", or "on_error: allow|ask|deny".
	Effect string `json:"effect"`
	// LatencyMS is the time the review took, in milliseconds (a cache hit
	// included).
	LatencyMS float64 `json:"latency_ms"`
	// Cached says the answer came from the verdict cache.
	Cached bool `json:"cached"`
	// Error is why no usable answer came.
	Error string `json:"error,omitempty"`
	// Warning is set when on_error: allow let a segment through after a
	// failure (fail-open).
	Warning string `json:"warning,omitempty"`
}

// NewRecord returns a record stamped for an invocation that started at t:
// V is SchemaVersion, TS is t in TimeLayout, ID is NewID(t). The caller fills
// in the rest.
func NewRecord(t time.Time) *Record {
	return &Record{V: SchemaVersion, TS: Timestamp(t), ID: NewID(t)}
}

// Timestamp formats t for Record.TS: UTC, TimeLayout, truncated (not
// rounded) to the millisecond.
func Timestamp(t time.Time) string {
	return t.UTC().Format(TimeLayout)
}

// MarshalJSON writes r as one JSON object with no newline, nil slices as []
// and HTML characters (<, >, &) unescaped so commands read as typed; the
// bytes are those encoding/json would write (see encode.go).
func (r Record) MarshalJSON() ([]byte, error) {
	return appendRecord(make([]byte, 0, 512), &r)
}

// MarshalJSON writes s as one JSON object, Argv nil as [] and HTML
// characters unescaped.
func (s Segment) MarshalJSON() ([]byte, error) {
	return appendSegment(make([]byte, 0, 128), &s)
}

// check reports the first way r would not validate against schema.json in
// the fields a caller most easily gets wrong.
func (r *Record) check() error {
	switch {
	case r.V != SchemaVersion:
		return fmt.Errorf("record has v %d, want %d", r.V, SchemaVersion)
	case r.TS == "":
		return fmt.Errorf("record has no ts (use NewRecord)")
	case r.ID == "":
		return fmt.Errorf("record has no id (use NewRecord)")
	case !isDecision(r.Decision):
		return fmt.Errorf("record has decision %q, want allow, ask or deny", r.Decision)
	case math.IsNaN(r.DurationMS) || math.IsInf(r.DurationMS, 0) || r.DurationMS < 0:
		return fmt.Errorf("record has duration_ms %v, want a finite number >= 0", r.DurationMS)
	}
	for i, s := range r.Segments {
		switch {
		case !isDecision(s.Decision):
			return fmt.Errorf("record segment %d has decision %q, want allow, ask or deny", i, s.Decision)
		case s.Kind != "exec" && s.Kind != "write" && s.Kind != "read":
			return fmt.Errorf("record segment %d has kind %q, want exec, write or read", i, s.Kind)
		}
	}
	return nil
}

func isDecision(d string) bool { return d == Allow || d == Ask || d == Deny }
