package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

const configShowUsageText = "usage: guardsh config show [--config F] [--cwd D]"

// configShow prints the effective policy for a working directory: each
// layer and whether it exists, the mode and where it comes from, the real
// shell, the audit log, the workspace, then every rule with its file:line,
// by section and decision (deny, ask, allow), the readonly patterns, and
// the warnings of the merge. Exit 0, or 64 for a usage or config error.
func configShow(args []string, stdout, stderr io.Writer) int {
	var configFile, cwd string
	usage := func(msg string) int {
		fmt.Fprintf(stderr, "guardsh config show: %s\n%s\n", msg, configShowUsageText)
		return configUsage
	}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		switch name {
		case "--help", "-h":
			fmt.Fprintln(stdout, configShowUsageText)
			fmt.Fprintln(stdout, "Prints the effective policy (system, user and project layers merged) with the file and line of every rule.")
			return 0
		case "--config", "--cwd":
			if !hasValue {
				if i+1 >= len(args) {
					return usage(name + " needs a value")
				}
				i++
				value = args[i]
			}
			if name == "--config" {
				configFile = value
			} else {
				cwd = value
			}
		default:
			return usage("unknown argument " + args[i])
		}
	}
	if cwd == "" {
		cwd, _ = os.Getwd()
	} else if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return usage("--cwd " + cwd + ": not a directory")
	}
	cfg, ws, root, err := loadFor(cwd, configFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: config: %v\n", err)
		return configUsage
	}
	p := cfg.policy
	w := stdout
	fmt.Fprintln(w, "layers (highest trust first):")
	showLayer(w, "system", systemConfig, cfg.files, "")
	userNote := ""
	if cfg.name == embeddedName {
		userNote = "absent: the embedded default policy serves; guardsh default-config prints it"
	}
	showLayer(w, "user", cfg.userPath, cfg.files, userNote)
	env := "unset"
	if v := os.Getenv("GUARDSH_MODE"); v != "" {
		env = "GUARDSH_MODE=" + v
	}
	fmt.Fprintf(w, "  %-8s %s (may only tighten the mode)\n", "env", env)
	// The project files: the root's, read or not, and each other one
	// that was read (an enclosing directory's, a nested work tree's).
	for _, f := range cfg.projects {
		if f == canonicalFile(root+"/"+projectConfig) || slices.Contains(cfg.files, canonical(f)) {
			showLayer(w, "project", f, cfg.files, "")
		}
	}
	fmt.Fprintln(w)

	mode, modeFrom := p.Mode, p.ModeSource
	if mode == "" {
		mode, modeFrom = rules.AskMode, "default"
	}
	lock := ""
	if p.LockMode {
		lock = ", locked by the system config"
	}
	fmt.Fprintf(w, "mode:      %s (%s%s)\n", mode, modeFrom, lock)
	if env := os.Getenv("GUARDSH_MODE"); env != "" {
		if m, err := effectiveMode(p.Mode, "", io.Discard); err == nil {
			fmt.Fprintf(w, "           %s with GUARDSH_MODE=%s\n", m, env)
		}
	}
	self, _ := os.Executable()
	if shell, err := interp.FindShell(p.Shell, os.Getenv("PATH"), self); err == nil {
		fmt.Fprintf(w, "shell:     %s\n", shell)
	} else {
		fmt.Fprintf(w, "shell:     none: %v\n", err)
	}
	if log, err := auditPath(p); err == nil {
		req := "required: a command whose record cannot be written does not run"
		if !p.Audit.Required {
			req = "not required"
		}
		fmt.Fprintf(w, "audit:     %s (%s)\n", log, req)
		if a := p.Audit; a.Anchor != "" || a.MaxBytes > 0 || a.Fsync || a.Syslog != "" || len(a.Redact) > 0 {
			fmt.Fprintf(w, "           anchor %q, max_bytes %d, fsync %v, syslog %q, redact %q\n", a.Anchor, a.MaxBytes, a.Fsync, a.Syslog, a.Redact)
		}
	}
	a := p.Approval
	fmt.Fprintf(w, "approval:  headless %s, prompt %s, timeout %v, wait %v, expires %v", a.Headless, a.Prompt, a.Timeout, a.Wait, a.Expires)
	if len(a.Notify) > 0 {
		fmt.Fprintf(w, ", notify %q", a.Notify)
	}
	fmt.Fprintln(w)
	if line := llmSummary(p); line != "" {
		fmt.Fprintf(w, "llm:       %s\n", line)
	}
	sb := p.Sandbox
	switch {
	case sb.Mode == "" || sb.Mode == rules.SandboxOff:
		fmt.Fprint(w, "sandbox:   off")
	default:
		fmt.Fprintf(w, "sandbox:   %s", sb.Mode)
	}
	if sb.Source != "" {
		fmt.Fprintf(w, " (%s)", sb.Source)
	}
	if len(sb.Write) > 0 {
		fmt.Fprintf(w, ", write %q", sb.Write)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, terminalSummary(p.Terminal))
	if ws == "" {
		// (A new user read an empty "workspace:" as a fault.)
		ws = "(none: no git work tree here, and the home directory or / is none; every write asks but in the temp directory)"
	}
	fmt.Fprintf(w, "workspace: %s\n", ws)
	if home, _ := os.UserHomeDir(); sb.On() && home != "" && underTemp(canonical(home)) {
		fmt.Fprintf(w, "warning:   the home directory %s lies in a temp directory: the jail cannot write the temp directory then (it holds your home), so jailed commands that write there fail (Claude Code's /tmp/claude-*-cwd among them): use a home outside the temp directories\n", home)
	}
	fmt.Fprintln(w)

	all := p.Rules()
	for _, section := range []string{"shell", "write", "read"} {
		fmt.Fprintf(w, "rules.%s:\n", section)
		n := 0
		for _, d := range []rules.Decision{rules.Deny, rules.Ask, rules.Allow} {
			for _, r := range all {
				if r.Section == section && r.Decision == d {
					fmt.Fprintf(w, "  %-5s %-40q %s\n", d, r.Pattern, r.Source())
					n++
				}
			}
		}
		if section == "read" {
			fmt.Fprintf(w, "  ask   (secrets: ~/.ssh/id_*, cloud and registry credentials, .env files)  %s\n", rules.SecretsFile)
			n++
		}
		if n == 0 {
			fmt.Fprintln(w, "  (none)")
		}
	}
	fmt.Fprintln(w, "readonly (besides the built-in read-only table):")
	n := 0
	for _, r := range all {
		if r.Section == "readonly" {
			fmt.Fprintf(w, "  %-46q %s\n", r.Pattern, r.Source())
			n++
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	if len(cfg.warnings) > 0 {
		fmt.Fprintln(w, "\nwarnings:")
		for _, f := range cfg.warnings {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	return 0
}

// showLayer prints one layer line: its file and whether it was read.
func showLayer(w io.Writer, name, file string, read []string, note string) {
	state := "absent"
	for _, f := range read {
		if f == canonical(file) {
			state = "read"
		}
	}
	if note != "" {
		state = note
	}
	fmt.Fprintf(w, "  %-8s %s (%s)\n", name, file, state)
}

// underTemp reports whether home lies in a temp directory ($TMPDIR, /tmp):
// the jail then writes no temp directory (see guard.Guard.Writable), since
// that would let it write the home.
func underTemp(home string) bool {
	for _, t := range []string{os.TempDir(), "/tmp"} {
		if t = filepath.Clean(t); t != "/" && strings.HasPrefix(home+"/", canonical(t)+"/") {
			return true
		}
	}
	return false
}
