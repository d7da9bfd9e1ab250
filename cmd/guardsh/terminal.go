package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/tty"
	"github.com/guardsh/guardsh/rules"
)

// terminal returns the terminal the command of rec runs on (nil: none,
// see tty.For and the pty: setting) with its recording opened when
// record: asks for one, and done, to call after the command ran. ok is
// false when the command must not run: record: required and the
// recording could not be opened (said on stderr and in rec.Error).
func (s *shellRun) terminal(rec *audit.Record) (t *tty.Terminal, done func(), ok bool) {
	out, _ := s.stdout.(*os.File)
	in, _ := s.runner.Stdin.(*os.File)
	t = tty.For(s.term.PTY, in, out)
	if e, isFile := s.stderr.(*os.File); t != nil && s.term.PTY != "always" && (!isFile || !term.IsTerminal(int(e.Fd()))) {
		// Standard error goes elsewhere (2>file): on a pty it would
		// reach the terminal instead.
		t = nil
	}
	if t == nil || s.term.Record == "" || s.term.Record == "false" {
		return t, func() {}, true
	}
	h := tty.Header{Width: 80, Height: 24, Timestamp: time.Now().Unix(), Title: "guardsh " + rec.ID,
		Env: map[string]string{"TERM": os.Getenv("TERM"), "SHELL": s.runner.Shell}}
	if w, hgt, err := term.GetSize(int(out.Fd())); err == nil && w > 0 && hgt > 0 {
		h.Width, h.Height = w, hgt
	}
	var rc *tty.Recorder
	var name string
	err := errors.New("no audit log to keep it next to")
	if s.logPath != "" {
		rc, name, err = tty.OpenRecording(tty.RecordingsDir(s.logPath), rec.ID, h, s.term.RecordMaxBytes, s.term.RecordInput)
	}
	if err != nil {
		rec.Error = err.Error()
		if s.term.Record == "required" {
			fmt.Fprintf(s.stderr, "guardsh: %v\nguardsh: refusing to run without a recording (record: required in %s)\n", err, s.guard.PolicyFile)
			return nil, nil, false
		}
		fmt.Fprintf(s.stderr, "guardsh: warning: %v; running without a recording\n", err)
		return t, func() {}, true
	}
	t.Rec, rec.Recording = rc, name
	return t, func() {
		if err := rc.Close(); err != nil {
			// The command ran; what was recorded stays.
			fmt.Fprintf(s.stderr, "guardsh: warning: %v\n", err)
			rec.Error = err.Error()
		}
	}, true
}

// terminalSummary is config show's line for the pty: and record:
// settings: "terminal:  pty auto, record false".
func terminalSummary(tc rules.TerminalConfig) string {
	line := fmt.Sprintf("terminal:  pty %s, record %s", cmp.Or(tc.PTY, "auto"), cmp.Or(tc.Record, "false"))
	if tc.Record == "true" || tc.Record == "required" {
		max := tc.RecordMaxBytes
		if max == 0 {
			max = tty.DefaultMaxBytes
		}
		line += fmt.Sprintf(" (input %v, max %d bytes)", tc.RecordInput, max)
	}
	return line
}
