package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
	"github.com/guardsh/guardsh/rules"
)

// The audit: settings reach the log: a record is redacted, shipped to a
// real syslog listener on loopback and anchored there, and the log file
// verifies against an anchor file.
func TestOpenAuditAppliesTheAuditSettings(t *testing.T) {
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	dir := t.TempDir()
	cfg := "audit:\n  syslog: udp://" + pc.LocalAddr().String() + "\n  anchor: syslog\n  redact: ['corp-[0-9]{4}']\n  fsync: true\n"
	p, err := rules.Parse([]byte(cfg), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "audit.jsonl")
	l, ship, err := openAudit(p, path)
	if err != nil || ship != nil {
		t.Fatal(err, ship)
	}
	r := audit.NewRecord(time.Now())
	r.User, r.Cwd, r.Command, r.Mode, r.Decision, r.DecidedBy = "dev", dir, "deploy corp-1234", "ask", audit.Allow, "class"
	if err := l.Append(r); err != nil {
		t.Fatal(err)
	}
	l.Close()
	var msgs []string
	buf := make([]byte, 64<<10)
	pc.SetReadDeadline(time.Now().Add(5 * time.Second))
	for range 2 {
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, string(buf[:n]))
	}
	if !strings.Contains(msgs[0], `"command":"deploy [REDACTED]"`) || strings.Contains(msgs[0], "corp-1234") {
		t.Errorf("shipped record %q: want the redacted command", msgs[0])
	}
	anchors, err := audit.ReadAnchors(strings.NewReader(msgs[1]), "syslog")
	if err != nil || len(anchors) != 1 {
		t.Fatalf("anchor message %q: %v", msgs[1], err)
	}
	if v, err := audit.Verify([]string{path}, anchors); err != nil || v.Anchors != 1 {
		t.Errorf("Verify against the syslog anchor = %+v, %v", v, err)
	}
}

// An audit setting that cannot be set up is an error like a log that
// cannot be opened; a syslog destination that cannot be reached is not:
// the log opens without it, and ship says why.
func TestOpenAuditFailsClosed(t *testing.T) {
	p, err := rules.Parse([]byte("audit:\n  redact: ['(']\n"), "c.yaml")
	if err == nil {
		if _, _, err := openAudit(p, filepath.Join(t.TempDir(), "a.jsonl")); err == nil || !strings.Contains(err.Error(), "audit.redact") {
			t.Errorf("openAudit = %v, want an audit.redact error", err)
		}
	}
	p, err = rules.Parse([]byte("audit:\n  syslog: unix:///nonexistent/guardsh.sock\n  anchor: syslog\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, ship, err := openAudit(p, filepath.Join(t.TempDir(), "a.jsonl"))
	if err != nil || l == nil || ship == nil || !strings.Contains(ship.Error(), "audit.syslog") || !strings.Contains(ship.Error(), "/nonexistent/guardsh.sock") {
		t.Fatalf("openAudit = %v, %v, %v; want the log, and a ship error naming audit.syslog and its destination", l, ship, err)
	}
	l.Close()
}
