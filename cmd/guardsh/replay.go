package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/guardsh/guardsh/internal/tty"
)

const replayUsageText = `usage: guardsh replay [--speed X] [--idle-limit SECONDS] ID|FILE
Plays the terminal session recorded for the audit record ID (the file in
the recordings directory next to the audit log; the record's "recording"
field names it), or the asciicast v2 FILE, at the recorded speed.
  --speed X              play X times as fast (default 1)
  --idle-limit SECONDS   cap every pause at SECONDS (default: none)
(guardsh audit replay is another thing: it decides logged commands again
under a new policy.)`

// replayMain is `guardsh replay`. Exit statuses: 0 played, 1 the file is
// not a recording (or could not be read), 2 usage or config errors.
func replayMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("guardsh replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, replayUsageText) }
	speed := fs.Float64("speed", 1, "play X times as fast")
	idle := fs.Float64("idle-limit", 0, "cap every pause at this many seconds")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	if fs.NArg() != 1 || *speed <= 0 || *idle < 0 {
		fmt.Fprintln(stderr, replayUsageText)
		return exitUsage
	}
	path, err := recordingPath(fs.Arg(0), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh replay: %v\n", err)
		return exitUsage
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh replay: %v\n", err)
		return 1
	}
	defer f.Close()
	res, err := tty.Play(stdout, f, tty.PlayOptions{Speed: *speed, IdleLimit: time.Duration(*idle * float64(time.Second))})
	if err != nil {
		fmt.Fprintf(stderr, "guardsh replay: %s: %v\n", path, err)
		return 1
	}
	if res.Truncated {
		fmt.Fprintf(stderr, "guardsh replay: %s: the recording stopped at its size cap (record_max_bytes); the command ran on\n", path)
	}
	return 0
}

// recordingPath is the file of arg: arg itself when it holds a '/' or
// names a file here, else the recording of the audit record ID arg (or
// ID.cast) next to the configured audit log.
func recordingPath(arg string, stderr io.Writer) (string, error) {
	if _, err := os.Stat(arg); err == nil || strings.Contains(arg, "/") {
		return arg, nil
	}
	arg = strings.TrimSuffix(arg, ".cast")
	name, err := tty.RecordingName(arg)
	if err != nil {
		return "", err
	}
	cwd, _ := os.Getwd()
	cfg, _, _, err := loadFor(cwd, "", stderr)
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	logPath, err := auditPath(cfg.policy)
	if err != nil {
		return "", err
	}
	return filepath.Join(tty.RecordingsDir(logPath), name), nil
}
