package prompt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/rules"
)

// Prompter puts asks to a human, or applies the headless policy.
type Prompter struct {
	Config rules.ApprovalConfig
	Spool  Spool
	// UserConfig is the user's config file, where "always" rules go;
	// Initial is what a missing one starts from (the embedded default).
	UserConfig string
	Initial    []byte
	// PPID is the process that started guardsh (the agent), for the
	// trusted-terminal rule.
	PPID int
	// Exe is guardsh's executable, run by the tmux popup.
	Exe string
	// Stderr receives progress lines while waiting ("waiting for …").
	Stderr io.Writer
}

// Answer is what became of an ask.
type Answer struct {
	// Decision is Allow or Deny (for an outcome that was not Ask: its own
	// decision, unchanged).
	Decision rules.Decision
	// DecidedBy is "human", "headless" or "signal" (one ended the dialog,
	// see Interrupted); empty when unchanged.
	DecidedBy string
	// Why says why an ask was refused, for guard.Outcome.Refusal.
	Why string
	// Lines are printed on stderr ("guardsh: …"), after a refusal's lines
	// or before the command runs.
	Lines []string
	// Approval is the id of the pending approval left behind, if any.
	Approval string
	// Human is the human's answer for the audit record; nil when no human
	// answered.
	Human *audit.Human
	// Interrupted is the signal that ended the dialog (SIGINT, SIGTERM,
	// SIGHUP, SIGQUIT), nil for none: guardsh ends of it once the refusal
	// is recorded, running nothing more.
	Interrupted os.Signal
}

// Resolve turns the decided outcome o into the human's or the headless
// policy's answer; every decision but Ask passes through unchanged (deny
// is absolute). In order: an answer already given from another terminal
// for the same command, directory and session (used once); the dialog on
// a trusted terminal (see OpenTrusted); with approval.prompt: tmux, a tmux
// popup on the human's client (see PopupDialog); the headless policy (deny, wait or allow; text that was not understood is
// never allowed headless).
func (p *Prompter) Resolve(o guard.Outcome, req Request) Answer {
	if o.Decision != rules.Ask {
		return Answer{Decision: o.Decision}
	}
	if p.Spool.Dir != "" {
		a, ok, err := p.Spool.Take(req)
		if err != nil {
			p.say("guardsh: warning: %v", err)
		} else if ok {
			return given(a, a.latency(0))
		}
	}
	tty, err := OpenTrusted(p.PPID)
	if err == nil {
		defer tty.Close()
		start := time.Now()
		reply, derr := Dialog(tty, req, p.Config.Timeout)
		if errors.Is(derr, ErrBackground) {
			return p.headless(req, derr.Error())
		}
		ans := p.apply(reply, derr, req)
		ans.Interrupted = reply.Signal
		if reply.Why == "" && derr == nil {
			ans.Human = &audit.Human{Answer: answerName[reply.Choice], LatencyMS: ms(time.Since(start)), Message: reply.Message}
			if reply.Choice == Exact || reply.Choice == Prefix {
				ans.Human.Rules = reply.Patterns
			}
		} else if reply.Signal != nil {
			// No human answered: a signal ended the dialog, and guardsh
			// with it.
			ans.DecidedBy = "signal"
		} else if ans.Decision == rules.Deny {
			// No human answered: the declared default (deny) did.
			ans.DecidedBy = "headless"
		}
		return ans
	}
	why := "no trusted terminal"
	var ue *UntrustedError
	if errors.As(err, &ue) {
		why = ue.Error()
	}
	if p.Config.Prompt == "tmux" {
		if a, ok := p.popup(req); ok {
			return a
		}
	}
	return p.headless(req, why)
}

var answerName = map[Choice]string{Deny: "deny", Once: "once", Session: "session", Exact: "always", Prefix: "prefix"}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// latency is how long the human took to answer a: from the request
// (a.Created, when the approval became pending) to the answer
// (a.Decided), both stamped by the spool's clock; else, for an approval
// without both stamps or with a clock that went back, otherwise.
func (a Approval) latency(otherwise time.Duration) time.Duration {
	if a.Created.IsZero() || a.Decided.IsZero() || a.Decided.Before(a.Created) {
		return otherwise
	}
	return a.Decided.Sub(a.Created)
}

// given is the answer of an approval decided elsewhere (guardsh approve
// or deny from another terminal), latency the time from the request to
// the answer (see Approval.latency).
func given(a Approval, latency time.Duration) Answer {
	h := &audit.Human{Answer: "approve", LatencyMS: ms(latency), Approval: a.ID, Message: a.Message}
	if a.Reusable {
		h.Answer = "session"
	}
	if a.Status == Approved {
		return Answer{Decision: rules.Allow, DecidedBy: "human", Approval: a.ID, Human: h,
			Lines: []string{fmt.Sprintf("guardsh: approved by a human (approval %s)", a.ID)}}
	}
	h.Answer = "deny"
	ans := Answer{Decision: rules.Deny, DecidedBy: "human", Approval: a.ID, Human: h, Why: "denied by a human, approval " + a.ID}
	if a.Message != "" {
		ans.Lines = []string{"guardsh: message from the human: " + Visible(a.Message)}
	}
	return ans
}

func (p *Prompter) say(format string, args ...any) {
	if p.Stderr != nil {
		fmt.Fprintf(p.Stderr, format+"\n", args...)
	}
}

// apply turns the dialog's reply into an answer, remembering rules.
func (p *Prompter) apply(r Reply, derr error, req Request) Answer {
	switch r.Choice {
	case Once:
		return Answer{Decision: rules.Allow, DecidedBy: "human"}
	case Session:
		ans := Answer{Decision: rules.Allow, DecidedBy: "human"}
		if a, err := p.Spool.Grant(req, p.Config.Expires); err != nil {
			ans.Lines = append(ans.Lines, fmt.Sprintf("guardsh: warning: not remembered for the session: %v", err))
		} else {
			ans.Lines = append(ans.Lines, fmt.Sprintf("guardsh: allowed in this directory and session until %s", a.Expires.Format(time.Kitchen)))
		}
		return ans
	case Exact, Prefix:
		ans := Answer{Decision: rules.Allow, DecidedBy: "human"}
		added, err := Remember(p.UserConfig, r.Patterns, p.Initial)
		if err != nil {
			ans.Lines = append(ans.Lines, fmt.Sprintf("guardsh: warning: %v (allowed once)", err))
		}
		for _, a := range added {
			ans.Lines = append(ans.Lines, fmt.Sprintf("guardsh: remembered: %q in rules.shell.allow (%s:%d)", a.Pattern, a.File, a.Line))
		}
		return ans
	}
	ans := Answer{Decision: rules.Deny, DecidedBy: "human", Why: "denied by a human"}
	if r.Why != "" {
		ans.Why = "denied: " + r.Why
	}
	if derr != nil && !errors.Is(derr, ErrInterrupted) {
		ans.Why = fmt.Sprintf("denied: %v", derr)
	}
	if r.Message != "" {
		ans.Lines = []string{"guardsh: message from the human: " + Visible(r.Message)}
	}
	return ans
}

// headless applies approval.headless when no human can be asked here.
func (p *Prompter) headless(req Request, why string) Answer {
	mode := p.Config.Headless
	if mode == "allow" && req.NotUnderstood == "" {
		return Answer{Decision: rules.Allow, DecidedBy: "headless",
			Lines: []string{"guardsh: " + why + "; approval.headless: allow runs it unapproved"}}
	}
	if p.Spool.Dir == "" {
		return Answer{Decision: rules.Deny, DecidedBy: "headless", Why: why}
	}
	a, err := p.Spool.Add(req, p.Config.Expires)
	if err != nil {
		return Answer{Decision: rules.Deny, DecidedBy: "headless", Why: why, Lines: []string{"guardsh: " + err.Error()}}
	}
	p.notify(a)
	how := []string{
		fmt.Sprintf("guardsh: approval %s pending until %s; a human can approve it from a shell in their own terminal with:", a.ID, a.Expires.UTC().Format(time.RFC3339)),
		fmt.Sprintf("guardsh:   guardsh approve %s        (then the same command, retried here, runs once)", a.ID),
	}
	if mode != "wait" {
		return Answer{Decision: rules.Deny, DecidedBy: "headless", Why: why + ", approval " + a.ID + " pending", Lines: how, Approval: a.ID}
	}
	// What it waits for, and why, as a refusal would say (a new user in
	// headless: wait had to run guardsh approvals to learn it).
	if req.NotUnderstood != "" {
		p.say("guardsh: not understood: %s", Visible(req.NotUnderstood))
	}
	for _, it := range req.Items {
		p.say("guardsh: needs approval: %s (%s)", Visible(it.Text), Visible(it.Reason))
	}
	for _, l := range how[:1] {
		p.say("%s", l)
	}
	p.say("guardsh:   guardsh approve %s   (or: guardsh deny %s -m MESSAGE); waiting up to %v", a.ID, a.ID, p.Config.Wait)
	began := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), p.Config.Wait)
	defer cancel()
	got, err := p.Spool.Wait(ctx, a.ID, 100*time.Millisecond)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v", p.Config.Wait)
		}
		return Answer{Decision: rules.Deny, DecidedBy: "headless", Why: fmt.Sprintf("%s; %v, approval %s still pending", why, err, a.ID), Lines: how, Approval: a.ID}
	}
	return given(got, got.latency(time.Since(began)))
}

// notify runs approval.notify with a as JSON on stdin; it does not wait
// for the command to finish (it notifies, it decides nothing).
func (p *Prompter) notify(a Approval) {
	if len(p.Config.Notify) == 0 {
		return
	}
	data, _ := json.Marshal(a)
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	defer r.Close()
	// The request fits the pipe's buffer (64 KiB on Linux) or is cut
	// short: the command gets all of it at once and guardsh need not wait.
	data = append(data, '\n')
	if len(data) > 60000 {
		data = append(data[:59999:59999], '\n')
	}
	_, _ = w.Write(data)
	w.Close()
	cmd := exec.Command(p.Config.Notify[0], p.Config.Notify[1:]...)
	cmd.Stdin = r
	if err := cmd.Start(); err != nil {
		p.say("guardsh: warning: approval.notify: %v", err)
		return
	}
	go cmd.Wait()
}
