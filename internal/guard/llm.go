package guard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/guardsh/guardsh/adversary"
	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/rules"
)

// LLMCall is one role's review of one segment of an Outcome.
type LLMCall struct {
	// Segment indexes Outcome.Segments.
	Segment int
	Result  adversary.Result
	// Effect says what the review did to the segment's verdict:
	// "blocked", "approved", "read-only", "none", or "on_error: D" when
	// no usable answer came and on_error D applied.
	Effect string
	// Warning is set when on_error: allow let a segment through after a
	// failure (the Goose-compatible fail-open).
	Warning string
}

// Review is the LLM step, between Evaluate and the handling of what still
// asks: given the command text and its Outcome o, it returns o adjusted by the layer's roles and the calls made.
//
//   - Nothing is asked about a command that was not understood or that is
//     denied: deny is absolute, and rules alone decided it.
//   - The adversary (an adversary.md, enabled) reviews every segment that
//     would run or ask and that its front matter covers, in every mode,
//     except the code of a file read by source (an agent's shell snapshot
//     holds hundreds of segments; the source segment itself is reviewed). It
//     may only tighten: BLOCK makes the segment deny (or ask with on_block:
//     ask); a failure applies on_error (ask by default; allow leaves the
//     verdict and warns). After a deny no further segment is reviewed.
//   - The reviewer (mode auto) and the read-only judge (mode ask with
//     llm.smart) only run when every segment that asks is in their scope:
//     decided by class or mode (never by a rule: ask rules and deny rules
//     that could match stay with the human), not a protected path, not
//     code only known at run time; for the reviewer, of a sensitivity in
//     llm.reviewer.sensitive (default network) or matching
//     llm.reviewer.match; for the judge, an unknown program. A segment
//     turns to allow only when the answer is SAFE (READ_ONLY) and
//     confident; otherwise it keeps asking and no further segment is sent.
//     A failure applies on_error (ask by default).
//
// ctx may be cancelled (a human answered first): a cancelled call is a
// failure and on_error applies; the caller then uses the human's answer.
func (g *Guard) Review(ctx context.Context, text string, o Outcome, l *adversary.Layer) (Outcome, []LLMCall) {
	if l == nil || o.Err != nil || o.Decision == rules.Deny || len(o.Segments) == 0 {
		return o, nil
	}
	o.Segments = slices.Clone(o.Segments)
	var calls []LLMCall
	cfg := l.Config
	if rf, err := l.Rules(); rf != nil || err != nil {
		for i := range o.Segments {
			c := &o.Segments[i]
			if c.Verdict.Decision == rules.Deny || c.Segment.Sourced != "" || (rf != nil && !rf.Covers(Subject(c.Segment).Words)) {
				continue
			}
			var res adversary.Result
			if err != nil {
				res = adversary.Result{Role: adversary.RoleAdversary, Model: cfg.Model, Err: err}
			} else {
				res = l.Ask(ctx, adversary.RoleAdversary, rf.Rules, rf.Hash, g.query(text, *c))
			}
			call := LLMCall{Segment: i, Result: res, Effect: "none"}
			switch {
			case res.Err != nil:
				d := adversary.OnError(cfg.Adversary)
				call.Effect = "on_error: " + d.String()
				if d == rules.Allow {
					call.Warning = "adversary failed (" + res.Err.Error() + "); on_error: allow let the segment through unreviewed"
				} else if d >= c.Verdict.Decision {
					// An ask stays an ask, but now the adversary's: the
					// reviewer may not approve what the adversary could
					// not review.
					c.Verdict = llmVerdict(c.Verdict, d, "adversary", "adversary failed ("+res.Err.Error()+"); on_error: "+d.String())
				}
			case res.Answer.Verdict == adversary.Block:
				d := rules.Deny
				if cfg.Adversary.OnBlock == "ask" {
					d = rules.Ask
				}
				call.Effect = "blocked"
				c.Verdict = llmVerdict(c.Verdict, max(d, c.Verdict.Decision), "adversary", "blocked by the adversary: "+res.Answer.Reason)
			}
			calls = append(calls, call)
			if c.Verdict.Decision == rules.Deny {
				break
			}
		}
		o = recombine(o)
	}
	if o.Decision != rules.Ask || !cfg.Set {
		return o, calls
	}
	role, rc := adversary.RoleReviewer, cfg.Reviewer
	switch mode := g.mode(); {
	case mode == rules.Auto && !cfg.Reviewer.Disabled:
	case mode == rules.AskMode && cfg.Smart && !cfg.Judge.Disabled:
		role, rc = adversary.RoleJudge, cfg.Judge
	default:
		return o, calls
	}
	var asking []int
	for i, c := range o.Segments {
		if c.Verdict.Decision == rules.Ask {
			if !inScope(role, rc, c) {
				return o, calls
			}
			asking = append(asking, i)
		}
	}
	for _, i := range asking {
		c := &o.Segments[i]
		res := l.Ask(ctx, role, "", "", g.query(text, *c))
		call := LLMCall{Segment: i, Result: res, Effect: "none"}
		yes := adversary.Safe
		if role == adversary.RoleJudge {
			yes = adversary.ReadOnly
		}
		switch {
		case res.Err != nil:
			d := adversary.OnError(rc)
			call.Effect = "on_error: " + d.String()
			why := string(role) + " failed (" + res.Err.Error() + "); on_error: " + d.String()
			if d == rules.Allow {
				call.Warning = why + " approved the segment unreviewed"
			}
			c.Verdict = llmVerdict(c.Verdict, d, string(role), why)
		case res.Answer.Verdict == yes && res.Answer.Confident:
			call.Effect = "approved"
			v := llmVerdict(c.Verdict, rules.Allow, string(role), string(role)+": "+res.Answer.Reason)
			if role == adversary.RoleJudge {
				call.Effect = "read-only"
				v.Class, v.Sensitivity = rules.ReadOnly, ""
			}
			*c = Checked{Segment: c.Segment, Verdict: v}
		default:
			what := "not sure"
			if res.Answer.Verdict != yes {
				what = strings.ToLower(res.Answer.Verdict)
			}
			c.Verdict.Reason += "; " + string(role) + ": " + what + ": " + res.Answer.Reason
		}
		calls = append(calls, call)
		if c.Verdict.Decision != rules.Allow {
			break // the human decides this command anyway
		}
	}
	return recombine(o), calls
}

// inScope reports whether role may turn the asking segment c into allow.
func inScope(role adversary.Role, rc rules.LLMRole, c Checked) bool {
	v := c.Verdict
	if v.Rule != nil || (v.DecidedBy != rules.ByClass && v.DecidedBy != rules.ByMode) ||
		v.Protected != "" || v.Sensitivity == rules.ProtectedPath || c.Segment.RunsCode || v.Class != rules.Sensitive {
		return false
	}
	if role == adversary.RoleJudge {
		return v.Sensitivity == rules.UnknownProgram && c.Segment.Kind == "exec"
	}
	scope := rc.Sensitive
	if scope == nil {
		scope = []rules.Sensitivity{rules.Network}
	}
	if v.Sensitivity != "" && slices.Contains(scope, v.Sensitivity) {
		return true
	}
	for _, m := range rc.Match {
		if rules.MatchCommand(m, Subject(c.Segment).Words) {
			return true
		}
	}
	return false
}

// llmVerdict is v decided d by role (DecidedBy) for reason.
func llmVerdict(v rules.Verdict, d rules.Decision, role, reason string) rules.Verdict {
	return rules.Verdict{Decision: d, Class: v.Class, Sensitivity: v.Sensitivity, DecidedBy: role, Reason: reason}
}

// recombine recomputes o's decision from its segments: the strictest, and
// what decided it.
func recombine(o Outcome) Outcome {
	o.Decision, o.DecidedBy = rules.Allow, "class"
	for i, c := range o.Segments {
		if i == 0 || c.Verdict.Decision > o.Decision {
			o.Decision, o.DecidedBy = c.Verdict.Decision, c.Verdict.DecidedBy
		}
	}
	return o
}

// query describes segment c of o for a role.
func (g *Guard) query(text string, c Checked) adversary.Query {
	argv := make([]string, len(c.Segment.Args))
	for i, w := range c.Segment.Args {
		argv[i] = w.Value
	}
	return adversary.Query{
		Segment:   strings.Join(DisplayArgv(c.Segment), " "),
		Argv:      argv,
		Program:   programID(argv, g.Context.Cwd),
		Command:   text,
		Cwd:       g.Context.Cwd,
		Workspace: g.Context.Workspace,
		Decision:  c.Verdict.Decision.String(),
		Reason:    c.Verdict.Reason,
	}
}

// programID identifies the file argv[0] names when it is a path (see
// adversary.Query.Program): "" for a name looked up on PATH or a file that
// is not there.
func programID(argv []string, cwd string) string {
	if len(argv) == 0 || !strings.Contains(argv[0], "/") {
		return ""
	}
	p := argv[0]
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	info, err := os.Stat(p)
	if err != nil {
		return ""
	}
	id := fmt.Sprintf("%d %d", info.Size(), info.ModTime().UnixNano())
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		id += fmt.Sprintf(" %d %d", st.Dev, st.Ino)
	}
	return id
}

// RecordLLM fills the llm fields of an audit record from calls: each
// reviewed segment's llm object, and the record's (the call that decided,
// else the last one).
func RecordLLM(r *audit.Record, o Outcome, calls []LLMCall) {
	for _, c := range calls {
		l := &audit.LLM{Role: string(c.Result.Role), Model: c.Result.Model, Effect: c.Effect,
			LatencyMS: float64(c.Result.Latency.Microseconds()) / 1000, Cached: c.Result.Cached, Warning: c.Warning}
		if c.Result.Err != nil {
			l.Verdict, l.Error = "error", c.Result.Err.Error()
		} else {
			l.Verdict, l.Reason, l.Confident = strings.ToLower(c.Result.Answer.Verdict), c.Result.Answer.Reason, &c.Result.Answer.Confident
		}
		if c.Segment < len(r.Segments) {
			r.Segments[c.Segment].LLM = l
		}
		if r.LLM == nil || string(c.Result.Role) == o.DecidedBy || c.Warning != "" {
			r.LLM = l
		}
	}
}
