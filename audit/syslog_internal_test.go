package audit

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestParseIPv6 checks the IPv6 text forms syslog destinations take
// (RFC 4291 2.2) against their bytes.
func TestParseIPv6(t *testing.T) {
	good := map[string]string{
		"::1":                   "00000000000000000000000000000001",
		"::":                    "00000000000000000000000000000000",
		"fe80::1:2":             "fe800000000000000000000000010002",
		"2001:db8:0:0:1:0:0:1":  "20010db8000000000001000000000001",
		"2001:DB8::":            "20010db8000000000000000000000000",
		"::ffff:192.0.2.1":      "00000000000000000000ffffc0000201",
		"1:2:3:4:5:6:7:8":       "00010002000300040005000600070008",
		"1:2:3:4:5:6:192.0.2.1": "000100020003000400050006c0000201",
		"1::8":                  "00010000000000000000000000000008",
		"0001:0002::0007:0008":  "00010002000000000000000000070008",
	}
	for in, want := range good {
		ip, ok := parseIPv6(in)
		if got := hex.EncodeToString(ip[:]); !ok || got != want {
			t.Errorf("parseIPv6(%q) = %s, %v; want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"", ":", "1", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "g::",
		"::1%eth0", "1:2:3:4:5:6:7::8", "::192.0.2.1.5", "192.0.2.1::", "+1::", "0x1::", "1:2:3:4:5:6:7:192.0.2.1", ":1::", "1:::2"} {
		if ip, ok := parseIPv6(in); ok {
			t.Errorf("parseIPv6(%q) = %x, want refused", in, ip)
		}
	}
}

// TestSyslogLookupIsBounded: a host name whose lookup does not answer
// fails the dial within the syslog timeout instead of holding the
// command (attack run 68: a getent that slept hung guardsh).
func TestSyslogLookupIsBounded(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "getent"), []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := getentDirs
	getentDirs = []string{dir}
	defer func() { getentDirs = old }()
	start := time.Now()
	_, err := DialSyslog("udp://slow.example:514")
	if err == nil || !strings.Contains(err.Error(), "no answer within") {
		t.Errorf("DialSyslog = %v, want no answer", err)
	}
	if d := time.Since(start); d > syslogTimeout+time.Second {
		t.Errorf("DialSyslog took %v", d)
	}
}
