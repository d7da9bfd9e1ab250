package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/internal/tty"
	"github.com/guardsh/guardsh/rules"
)

// openAudit opens the audit log at path with the policy's audit settings:
// redaction, fsync, rotation, syslog shipping and the anchor. A setting
// that cannot be set up is an error, like a log that cannot be opened;
// but a syslog destination that cannot be reached (or an anchor sent
// there) is not the log's fault: the log is opened without it, and ship
// says why, so that what happens next (a refusal, under audit.required)
// is still recorded locally.
func openAudit(p *rules.Policy, path string) (l *audit.Log, ship, err error) {
	a := p.Audit
	opt := audit.Options{Sync: a.Fsync, MaxBytes: a.MaxBytes}
	if opt.Redact, err = audit.NewRedactor(a.Redact); err != nil {
		return nil, nil, fmt.Errorf("audit.redact: %w", err)
	}
	if a.Syslog != "" {
		if opt.Syslog, err = audit.DialSyslog(a.Syslog); err != nil {
			ship = fmt.Errorf("audit.%w", err) // "audit.syslog SPEC: …"
		}
	}
	var send func(string) error
	if opt.Syslog != nil {
		sl := opt.Syslog
		send = func(m string) error { return sl.Send(audit.SeverityInfo, "anchor", m) }
	}
	if ship == nil || a.Anchor != "syslog" {
		if opt.Anchor, err = audit.ParseAnchor(a.Anchor, send); err != nil {
			return nil, nil, fmt.Errorf("audit.anchor: %w (anchor: syslog needs audit.syslog)", err)
		}
	}
	l, err = audit.OpenWith(path, opt)
	return l, ship, err
}

// auditEnvIgnored warns when GUARDSH_AUDIT names another log than the
// config's audit.path, which wins (auditPath): an environment variable
// may not move the record away from where the config's owner reads it.
func auditEnvIgnored(p *rules.Policy) []rules.Finding {
	env := os.Getenv("GUARDSH_AUDIT")
	if env == "" || p.Audit.Path == "" || filepath.Clean(env) == filepath.Clean(expandHome(p.Audit.Path)) {
		return nil
	}
	return []rules.Finding{{File: "GUARDSH_AUDIT=" + env, Severity: rules.SeverityWarning,
		Problem: fmt.Sprintf("ignored: the config's audit.path puts the log at %s", p.Audit.Path)}}
}

// auditProtected are the audit trail's files, written only with a human's
// yes: the log, its rotated files and the file of a rotation under way,
// the anchor file, and the terminal session recordings next to the log;
// the log's whole directory when it is the default one.
func auditProtected(p *rules.Policy, logPath string) []string {
	c := canonical(logPath)
	rd := tty.RecordingsDir(c)
	// The room held for its records (audit.Log.Reserve) beside it: an
	// agent that emptied one and filled the disk lost its command's
	// record, guardsh exiting 0 (attack run 56, a log under /tmp).
	dot := filepath.Join(filepath.Dir(c), "."+filepath.Base(c))
	out := []string{c, c + ".*", dot + ".new-*", dot + ".reserve*", rd, rd + "/*"}
	if p.Audit.Path == "" && os.Getenv("GUARDSH_AUDIT") == "" {
		// The default place, $XDG_STATE_HOME/guardsh or
		// ~/.local/state/guardsh, is guardsh's own directory: all of it
		// (approvals, a jail hides it whole, so that what guardsh makes
		// there while a jail is built is hidden too).
		d := filepath.Dir(c)
		out = append(out, d, d+"/*")
	}
	if a, ok := strings.CutPrefix(p.Audit.Anchor, "file:"); ok {
		out = append(out, canonical(a))
	}
	return out
}
