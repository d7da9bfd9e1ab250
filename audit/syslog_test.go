package audit_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
)

var rfc5424 = regexp.MustCompile(`^<(\d+)>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z \S+ guardsh \d+ (record|anchor) - (.*)$`)

// udpSyslog returns a UDP listener on loopback and a Syslog sending to
// it, both closed when the test ends.
func udpSyslog(t *testing.T) (net.PacketConn, *audit.Syslog) {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	sl, err := audit.DialSyslog("udp://" + pc.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sl.Close() })
	return pc, sl
}

// A record goes to a real UDP syslog listener on loopback as one RFC 5424
// datagram holding the record's line, and the anchor after it.
func TestSyslogShipsRecordsAndAnchorsOverUDP(t *testing.T) {
	pc, sl := udpSyslog(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.OpenWith(path, audit.Options{Syslog: sl, Anchor: sl})
	if err != nil {
		t.Fatal(err)
	}
	rec := helperRecord(1, 0, 50)
	rec.Decision = audit.Deny
	if err := l.Append(rec); err != nil {
		t.Fatal(err)
	}
	l.Close()
	buf := make([]byte, 64<<10)
	pc.SetReadDeadline(time.Now().Add(5 * time.Second))
	var got []string
	for range 2 {
		n, _, err := pc.ReadFrom(buf)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(buf[:n]))
	}
	m := rfc5424.FindStringSubmatch(got[0])
	if m == nil || m[1] != "84" || m[2] != "record" {
		t.Fatalf("first message %q: want <84>1 … record (authpriv.warning)", got[0])
	}
	var shipped audit.Record
	if err := json.Unmarshal([]byte(m[3]), &shipped); err != nil || shipped.Hash != rec.Hash || shipped.Command != rec.Command {
		t.Errorf("shipped record %q: %v", m[3], err)
	}
	as, err := audit.ReadAnchors(strings.NewReader(got[1]+"\n"), "udp")
	if err != nil || len(as) != 1 || as[0].Hash != rec.Hash {
		t.Errorf("anchor message %q: %+v, %v", got[1], as, err)
	}
}

// Over TCP, messages are framed by octet counting (RFC 6587).
func TestSyslogFramesTCPMessagesByOctetCount(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	msgs := make(chan string, 2)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for range 2 {
			n, err := r.ReadString(' ')
			if err != nil {
				return
			}
			size, _ := strconv.Atoi(strings.TrimSpace(n))
			b := make([]byte, size)
			if _, err := io.ReadFull(r, b); err != nil {
				return
			}
			msgs <- string(b)
		}
	}()
	sl, err := audit.DialSyslog("tcp://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	for _, m := range []string{"one", "two with spaces"} {
		if err := sl.Send(audit.SeverityInfo, "record", m); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"one", "two with spaces"} {
		select {
		case got := <-msgs:
			if m := rfc5424.FindStringSubmatch(got); m == nil || m[3] != want {
				t.Errorf("message %q, want MSG %q", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no message")
		}
	}
}

func TestDialSyslogRejectsBadSpecs(t *testing.T) {
	for _, bad := range []string{"udp://", "http://x", "x"} {
		if _, err := audit.DialSyslog(bad); err == nil {
			t.Errorf("DialSyslog(%q) accepted", bad)
		}
	}
}

// receive reads one datagram from pc within five seconds.
func receive(t *testing.T, pc net.PacketConn) string {
	t.Helper()
	pc.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 65536)
	n, _, err := pc.ReadFrom(buf)
	if err != nil {
		t.Fatalf("no datagram: %v", err)
	}
	return string(buf[:n])
}

// The other destinations DialSyslog takes, each to a real socket: a Unix
// datagram socket (as /dev/log is), an IPv6 address in brackets, and a
// host name (looked up with getent).
func TestSyslogDestinations(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "log.sock")
	unixPC, err := net.ListenPacket("unixgram", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer unixPC.Close()
	dests := map[string]net.PacketConn{"unix://" + sock: unixPC, "unixgram://" + sock: unixPC}
	if pc, err := net.ListenPacket("udp6", "[::1]:0"); err == nil {
		defer pc.Close()
		dests["udp://"+pc.LocalAddr().String()] = pc
	} else {
		t.Logf("no IPv6 loopback here: %v", err)
	}
	if _, err := exec.LookPath("getent"); err == nil {
		pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer pc.Close()
		port := pc.LocalAddr().(*net.UDPAddr).Port
		if out, _ := exec.Command("getent", "ahosts", "localhost").Output(); strings.HasPrefix(string(out), "127.0.0.1") {
			dests["udp://localhost:"+strconv.Itoa(port)] = pc
		}
	}
	for spec, pc := range dests {
		sl, err := audit.DialSyslog(spec)
		if err != nil {
			t.Errorf("DialSyslog(%q): %v", spec, err)
			continue
		}
		if err := sl.Send(audit.SeverityNotice, "record", "to "+spec); err != nil {
			t.Errorf("%s: send: %v", spec, err)
		}
		got := receive(t, pc)
		if m := rfc5424.FindStringSubmatch(got); m == nil || m[1] != "85" || m[3] != "to "+spec {
			t.Errorf("%s: got %q", spec, got)
		}
		sl.Close()
	}
}

// A destination that is not there is an error naming it, at once.
func TestDialSyslogNamesAnUnreachableDestination(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	for _, spec := range []string{"tcp://" + addr, "unix://" + filepath.Join(t.TempDir(), "none.sock"),
		"udp://[::1:514", "udp://127.0.0.1:0", "udp://127.0.0.1:65536", "udp://-x:514", "sctp://127.0.0.1:514"} {
		start := time.Now()
		_, err := audit.DialSyslog(spec)
		if err == nil || !strings.Contains(err.Error(), spec) {
			t.Errorf("DialSyslog(%q) = %v, want an error naming it", spec, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("DialSyslog(%q) took %v", spec, d)
		}
	}
}

// A host name is looked up with the system's getent, not one a command
// put first on PATH (which would choose where the records go).
func TestSyslogLooksUpNamesWithTheSystemsGetent(t *testing.T) {
	if out, _ := exec.Command("getent", "ahosts", "localhost").Output(); !strings.HasPrefix(string(out), "127.0.0.1") {
		t.Skip("no getent, or localhost is not 127.0.0.1 first")
	}
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	bin := t.TempDir()
	fake := "#!/bin/sh\necho '127.0.0.9       STREAM localhost'\n"
	if err := os.WriteFile(filepath.Join(bin, "getent"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	sl, err := audit.DialSyslog("udp://localhost:" + strconv.Itoa(pc.LocalAddr().(*net.UDPAddr).Port))
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	if err := sl.Send(audit.SeverityInfo, "record", "here"); err != nil {
		t.Fatal(err)
	}
	if got := receive(t, pc); !strings.HasSuffix(got, " - here") {
		t.Errorf("got %q", got)
	}
}

// A record too long for one datagram is shipped shortened, still JSON,
// with its id and hash, the first 4 KiB of its command and how long it
// was (a new user's find: a padded command's record was never shipped).
func TestSyslogShortensRecordsTooLongForADatagram(t *testing.T) {
	pc, sl := udpSyslog(t)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.OpenWith(path, audit.Options{Syslog: sl})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, n := range []int{100, 30000} {
		r := audit.NewRecord(time.Now())
		r.User, r.Cwd, r.Mode, r.Decision, r.DecidedBy = "dev", "/w", "ask", audit.Allow, "rule"
		r.Command = "echo " + strings.Repeat("é", n)
		r.Argv = []string{"guardsh", "-c", r.Command}
		r.Segments = []audit.Segment{{Argv: []string{"echo", strings.Repeat("é", n)}, Kind: "exec", Decision: audit.Allow}}
		if err := l.Append(r); err != nil {
			t.Fatalf("%d: %v", n, err)
		}
		m := rfc5424.FindStringSubmatch(receive(t, pc))
		if m == nil {
			t.Fatalf("%d: not an RFC 5424 message", n)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(m[3]), &got); err != nil {
			t.Fatalf("%d: shipped %q: %v", n, m[3][:min(len(m[3]), 200)], err)
		}
		if got["id"] != r.ID || got["hash"] != r.Hash || got["decision"] != "allow" {
			t.Errorf("%d: shipped id %v hash %v decision %v, want %s %s allow", n, got["id"], got["hash"], got["decision"], r.ID, r.Hash)
		}
		shortened, _ := got["shipped"].(string)
		if n == 100 && (shortened != "" || got["command"] != r.Command) {
			t.Errorf("a short record was shipped shortened: %v", got)
		}
		if n == 30000 && (!strings.Contains(shortened, "shortened from") || len(got["command"].(string)) > 4100 || got["segments"] != nil) {
			t.Errorf("a long record: shipped %q, command of %d bytes, segments %v", shortened, len(got["command"].(string)), got["segments"] != nil)
		}
	}
}
