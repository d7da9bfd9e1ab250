package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
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
//
// The socket is a plain one of golang.org/x/sys/unix, not the net
// package: net (and net/netip with it) would be linked into guardsh, and
// its package initialisation, with the goroutine net/netip's unique
// handles start, cost every command about 60 µs of its start-up whether
// a syslog is configured or not (issue 9: syslog kept off the path of
// commands rules decide).
type Syslog struct {
	network, addr string
	host          string

	mu sync.Mutex
	fd int
}

// syslogTimeout bounds connecting to the destination and each send
// (SO_SNDTIMEO, which Linux applies to connect(2) too).
const syslogTimeout = 2 * time.Second

// DialSyslog connects to the syslog destination spec: "udp://HOST:PORT",
// "tcp://HOST:PORT", "unix:///PATH" or "unixgram:///PATH" (a datagram
// socket such as /dev/log), or "local" (unixgram:///dev/log). HOST is an
// IPv4 address, an IPv6 one in brackets, or a name, looked up with
// getent(1) ahosts (the system's resolver, /etc/hosts and DNS as
// nsswitch.conf says; the getent of /usr/bin or /bin, never PATH's), whose
// first address is used. Errors name spec.
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
	fd, err := dialSyslog(network, addr)
	if err != nil {
		return nil, fmt.Errorf("syslog %s: %w", spec, err)
	}
	s.fd = fd
	return s, nil
}

// dialSyslog returns a socket connected to addr over network ("udp",
// "tcp" or "unixgram"), close-on-exec, with sends bounded by
// syslogTimeout.
func dialSyslog(network, addr string) (int, error) {
	var sa unix.Sockaddr
	typ := unix.SOCK_DGRAM
	switch network {
	case "unixgram":
		sa = &unix.SockaddrUnix{Name: addr}
	case "udp", "tcp":
		if network == "tcp" {
			typ = unix.SOCK_STREAM
		}
		var err error
		if sa, err = inetSockaddr(addr); err != nil {
			return -1, err
		}
	default:
		return -1, fmt.Errorf("unknown network %q (want udp, tcp, unix or unixgram)", network)
	}
	family := unix.AF_UNIX
	switch sa.(type) {
	case *unix.SockaddrInet4:
		family = unix.AF_INET
	case *unix.SockaddrInet6:
		family = unix.AF_INET6
	}
	fd, err := unix.Socket(family, typ|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	tv := unix.NsecToTimeval(syslogTimeout.Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &tv); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("setsockopt: %w", err)
	}
	if err := connect(fd, sa); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("connect: %w", err)
	}
	return fd, nil
}

// connect connects fd to sa within syslogTimeout. A connect(2) a signal
// interrupted goes on in the kernel: it is waited for (poll(2) for
// writing, then SO_ERROR), not started again.
func connect(fd int, sa unix.Sockaddr) error {
	err := unix.Connect(fd, sa)
	if !errors.Is(err, unix.EINTR) {
		if errors.Is(err, unix.EINPROGRESS) || errors.Is(err, unix.EAGAIN) {
			err = fmt.Errorf("no connection within %v", syslogTimeout)
		}
		return err
	}
	deadline := time.Now().Add(syslogTimeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return fmt.Errorf("no connection within %v", syslogTimeout)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if errors.Is(err, unix.EINTR) || err == nil && n == 0 {
			continue
		}
		if err != nil {
			return err
		}
		if soErr, err := unix.GetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil {
			return err
		} else if soErr != 0 {
			return unix.Errno(soErr)
		}
		return nil
	}
}

// inetSockaddr returns the address of "HOST:PORT" (see DialSyslog for
// HOST).
func inetSockaddr(addr string) (unix.Sockaddr, error) {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return nil, fmt.Errorf("%q: want HOST:PORT", addr)
	}
	host, p := addr[:i], addr[i+1:]
	port, err := strconv.Atoi(p)
	if err != nil || port < 1 || port > 65535 || strconv.Itoa(port) != p {
		return nil, fmt.Errorf("%q: bad port %q", addr, p)
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		ip, ok := parseIPv6(host[1 : len(host)-1])
		if !ok {
			return nil, fmt.Errorf("%q: bad IPv6 address", addr)
		}
		return &unix.SockaddrInet6{Port: port, Addr: ip}, nil
	}
	if ip, ok := parseIPv4(host); ok {
		return &unix.SockaddrInet4{Port: port, Addr: ip}, nil
	}
	if host == "" || strings.ContainsAny(host, ":[] \t\n") || strings.HasPrefix(host, "-") {
		return nil, fmt.Errorf("%q: bad host %q", addr, host)
	}
	getent := ""
	for _, dir := range getentDirs {
		if fi, err := os.Stat(dir + "/getent"); err == nil && fi.Mode().IsRegular() {
			getent = dir + "/getent"
			break
		}
	}
	if getent == "" {
		return nil, fmt.Errorf("looking up %s: no getent in /usr/bin or /bin (use an address)", host)
	}
	// From the system's directories, not PATH: a command may have set
	// PATH (and a getent there would choose where records go).
	// Bounded like the connection: a resolver that does not answer
	// must not hold the command (attack run 68).
	ctx, cancel := context.WithTimeout(context.Background(), syslogTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, getent, "ahosts", host)
	cmd.WaitDelay = 100 * time.Millisecond // nor a child it left holding the pipe
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("looking up %s: no answer within %v", host, syslogTimeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		// getent(1): a key was not found in the database.
		return nil, fmt.Errorf("looking up %s: no such host", host)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up %s (getent ahosts): %w", host, err)
	}
	for line := range strings.Lines(string(out)) {
		a, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		if ip, ok := parseIPv4(a); ok {
			return &unix.SockaddrInet4{Port: port, Addr: ip}, nil
		}
		if ip, ok := parseIPv6(a); ok {
			return &unix.SockaddrInet6{Port: port, Addr: ip}, nil
		}
	}
	return nil, fmt.Errorf("looking up %s: no address", host)
}

// getentDirs are where inetSockaddr looks for getent(1), in order.
var getentDirs = []string{"/usr/bin", "/bin", "/usr/sbin", "/sbin"}

// parseIPv4 parses a dotted-quad address: four decimal parts 0-255, no
// leading zeros.
func parseIPv4(s string) (ip [4]byte, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return ip, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || strconv.Itoa(n) != p {
			return ip, false
		}
		ip[i] = byte(n)
	}
	return ip, true
}

// parseIPv6 parses an IPv6 address in the text form of RFC 4291 2.2:
// eight groups of up to four hex digits, one "::" for a run of zero
// groups, the last two groups optionally a dotted quad; no zone.
func parseIPv6(s string) (ip [16]byte, ok bool) {
	head, tail, compressed := strings.Cut(s, "::")
	if strings.Contains(tail, "::") {
		return ip, false
	}
	groups := func(part string, last bool) ([]byte, bool) {
		if part == "" {
			return nil, true
		}
		var b []byte
		fields := strings.Split(part, ":")
		for i, f := range fields {
			if last && i == len(fields)-1 && strings.Contains(f, ".") {
				v4, ok := parseIPv4(f)
				if !ok {
					return nil, false
				}
				b = append(b, v4[:]...)
				continue
			}
			n, err := strconv.ParseUint(f, 16, 16)
			if err != nil || len(f) == 0 || len(f) > 4 || strings.ContainsAny(f, "+-xX") {
				return nil, false
			}
			b = append(b, byte(n>>8), byte(n))
		}
		return b, true
	}
	h, ok1 := groups(head, !compressed)
	t, ok2 := groups(tail, true)
	if !ok1 || !ok2 {
		return ip, false
	}
	switch n := len(h) + len(t); {
	case !compressed && n != 16, compressed && n > 14:
		return ip, false
	}
	copy(ip[:], h)
	copy(ip[16-len(t):], t)
	return ip, true
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
	err := s.write(m)
	if err != nil && s.network == "tcp" {
		if fd, derr := dialSyslog(s.network, s.addr); derr == nil {
			unix.Close(s.fd)
			s.fd = fd
			err = s.write(m)
		}
	}
	if err != nil {
		return fmt.Errorf("syslog %s://%s: %w", s.network, s.addr, err)
	}
	return nil
}

// Record ships a record line (its JSON, without "\n") with a severity
// from its decision. Over UDP or a Unix datagram socket a line longer
// than maxDatagram is shipped shortened (see shortened): sent whole, it
// was refused (EMSGSIZE) and the command ran with its record only in the
// local log, which a command padded to that length could count on (a new
// user's find).
func (s *Syslog) Record(decision string, line []byte) error {
	sev := SeverityInfo
	switch decision {
	case Deny:
		sev = SeverityWarning
	case Ask:
		sev = SeverityNotice
	}
	msg := string(line)
	if s.network != "tcp" && len(line) > maxDatagram {
		msg = shortened(line)
	}
	return s.Send(sev, "record", msg)
}

// maxDatagram is the longest record line Record sends whole in one
// datagram, in bytes: a UDP datagram holds 65,507 bytes over IPv4, less
// the message's header (PRI, time, host name: under 300 bytes here).
// (Receivers may keep less: rsyslog's default maximum is 8 KiB.)
const maxDatagram = 64 << 10

// shortKeys are the members of a record a shortened one keeps as they
// are: enough to find the whole record in the local log (id, hash) and
// to read its decision.
var shortKeys = []string{"v", "ts", "id", "session", "ppid", "agent", "user", "cwd", "mode", "decision", "decided_by",
	"exit", "duration_ms", "error", "redacted", "prev", "hash"}

// shortened returns a record line cut to shortKeys' members, the first
// 4 KiB of its command, and "shipped", which says it was shortened from
// how many bytes; valid JSON either way.
func shortened(line []byte) string {
	var m map[string]json.RawMessage
	out := map[string]any{"shipped": fmt.Sprintf("shortened from %d bytes for a datagram: the whole record is in the local log", len(line))}
	if json.Unmarshal(line, &m) == nil {
		for _, k := range shortKeys {
			if v, ok := m[k]; ok && len(v) <= 4096 {
				out[k] = v
			}
		}
		var cmd string
		if json.Unmarshal(m["command"], &cmd) == nil {
			if len(cmd) > 4096 {
				cmd = strings.ToValidUTF8(cmd[:4096], "") + "…"
			}
			out["command"] = cmd
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// Anchor sends an AnchorMessage: a Syslog is an Anchor.
func (s *Syslog) Anchor(path, id, hash string) error {
	return s.Send(SeverityInfo, "anchor", AnchorMessage(path, id, hash))
}

// write sends m whole: one datagram, or all of it on a stream (a short
// write goes on from where it stopped).
func (s *Syslog) write(m []byte) error {
	for len(m) > 0 {
		var n int
		err := retryEINTR(func() (err error) { n, err = unix.Write(s.fd, m); return err })
		if errors.Is(err, unix.EAGAIN) {
			return fmt.Errorf("not sent within %v", syslogTimeout)
		}
		if err != nil {
			return err
		}
		m = m[n:]
	}
	return nil
}

// Close closes the connection.
func (s *Syslog) Close() error { return unix.Close(s.fd) }
