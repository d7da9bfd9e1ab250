package audit

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Syslog severities (RFC 5424, 6.2.1) used for records.
const (
	SeverityWarning = 4 // a refused command
	SeverityNotice  = 5 // an asked one
	SeverityInfo    = 6 // an allowed one
)

// facilityAuthpriv is the facility of every message: security and
// authorization messages kept private (RFC 5424 facility 10).
const facilityAuthpriv = 10

// Syslog ships records and anchors off the machine as RFC 5424 messages:
//
//	<PRI>1 TIMESTAMP HOSTNAME guardsh PROCID MSGID - MSG
//
// with facility authpriv, MSGID "record" (MSG the record's JSON line) or
// "anchor" (MSG an AnchorMessage). Over TCP each message is framed by
// octet counting (RFC 6587, "LEN SP MSG"); over UDP and Unix datagram
// sockets it is one datagram. It is safe for concurrent use.
type Syslog struct {
	network, addr string
	host          string

	mu   sync.Mutex
	conn net.Conn
}

// DialSyslog connects to the syslog destination spec: "udp://HOST:PORT",
// "tcp://HOST:PORT", "unix:///PATH" or "unixgram:///PATH" (a datagram
// socket such as /dev/log), or "local" (unixgram:///dev/log). Errors name
// spec.
func DialSyslog(spec string) (*Syslog, error) {
	network, addr := "unixgram", "/dev/log"
	if spec != "local" {
		var ok bool
		network, addr, ok = strings.Cut(spec, "://")
		if !ok || addr == "" {
			return nil, fmt.Errorf("syslog %q: want udp://HOST:PORT, tcp://HOST:PORT, unix:///PATH or local", spec)
		}
		if network == "unix" {
			network = "unixgram"
		}
	}
	host, _ := os.Hostname()
	if host == "" {
		host = "-"
	}
	s := &Syslog{network: network, addr: addr, host: host}
	conn, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		return nil, fmt.Errorf("syslog %s: %w", spec, err)
	}
	s.conn = conn
	return s, nil
}

// Format returns the RFC 5424 message for severity, msgid and msg at t.
func (s *Syslog) Format(t time.Time, severity int, msgid, msg string) []byte {
	return fmt.Appendf(nil, "<%d>1 %s %s guardsh %d %s - %s",
		facilityAuthpriv*8+severity, t.UTC().Format("2006-01-02T15:04:05.000000Z"), s.host, os.Getpid(), msgid, msg)
}

// Send sends one message; over TCP a broken connection is dialled again
// once.
func (s *Syslog) Send(severity int, msgid, msg string) error {
	m := s.Format(time.Now(), severity, msgid, msg)
	if s.network == "tcp" {
		m = append([]byte(strconv.Itoa(len(m))+" "), m...)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.conn.Write(m)
	if err != nil && s.network == "tcp" {
		if c, derr := net.DialTimeout(s.network, s.addr, 2*time.Second); derr == nil {
			s.conn.Close()
			s.conn = c
			_, err = c.Write(m)
		}
	}
	if err != nil {
		return fmt.Errorf("syslog %s://%s: %w", s.network, s.addr, err)
	}
	return nil
}

// Record ships a record line (its JSON, without "\n") with a severity
// from its decision.
func (s *Syslog) Record(decision string, line []byte) error {
	sev := SeverityInfo
	switch decision {
	case Deny:
		sev = SeverityWarning
	case Ask:
		sev = SeverityNotice
	}
	return s.Send(sev, "record", string(line))
}

// Anchor sends an AnchorMessage: a Syslog is an Anchor.
func (s *Syslog) Anchor(path, id, hash string) error {
	return s.Send(SeverityInfo, "anchor", AnchorMessage(path, id, hash))
}

// Close closes the connection.
func (s *Syslog) Close() error { return s.conn.Close() }
