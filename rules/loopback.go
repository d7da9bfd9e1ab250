package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// curlLoopbackGet reports whether argv (words[0] is curl) only fetches
// pages from this machine and prints them: every operand (and --url value)
// an http or https URL whose host is localhost or a loopback address, no
// user name in it and none of curl's URL globbing ({a,b}, [1-9]); only the
// options below; the method GET or HEAD. That is read-only in guardsh's
// sense — it writes no file, runs no program and sends nothing off the
// machine — as far as the local service keeps to HTTP's rule that GET and
// HEAD change nothing on the server (RFC 9110 §9.2.1, "safe methods"); a
// service that does not is the one risk left (see README, Known limits).
//
// Options allowed (curl(1)): the switches -s -S -i -I -f -v -k -4 -6 -g
// -q (also bundled, -sS, -fsSL excluded), --silent --show-error --include
// --head --fail --fail-with-body --verbose --insecure --compressed
// --http1.1 --http2 --globoff --no-progress-meter; with a value as the
// next word: -o/--output only /dev/null, -w/--write-out (not "@file",
// which reads a file, nor %output{…}, which writes one), -H/--header (not
// "@file"), -X/--request GET or HEAD, -m/--max-time,
// --connect-timeout, -A/--user-agent, --retry, --url. Everything else —
// -L (a redirect may lead off the machine), -o FILE, -O, -D, -c, -b, -d,
// -F, -T, -K, --proxy, --unix-socket, --resolve, --connect-to, --trace… —
// makes the command sensitive, as does a run-time word.
func curlLoopbackGet(args []string) bool {
	urls := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.Contains(a, Hole) {
			return false
		}
		value := func() (string, bool) {
			if i+1 >= len(args) || strings.Contains(args[i+1], Hole) {
				return "", false
			}
			i++
			return args[i], true
		}
		switch {
		case a == "--url":
			v, ok := value()
			if !ok || !loopbackURL(v) {
				return false
			}
			urls++
		case curlSwitches()[a]:
		case a == "-o" || a == "--output":
			if v, ok := value(); !ok || v != "/dev/null" {
				return false
			}
		case a == "-w" || a == "--write-out":
			if v, ok := value(); !ok || strings.HasPrefix(v, "@") || strings.Contains(v, "%output{") {
				return false
			}
		case a == "-H" || a == "--header":
			if v, ok := value(); !ok || strings.HasPrefix(v, "@") {
				return false
			}
		case a == "-X" || a == "--request":
			if v, ok := value(); !ok || (v != "GET" && v != "HEAD") {
				return false
			}
		case a == "-m" || a == "--max-time" || a == "--connect-timeout" || a == "-A" || a == "--user-agent" || a == "--retry":
			if _, ok := value(); !ok {
				return false
			}
		case len(a) >= 2 && a[0] == '-' && a[1] != '-':
			for _, c := range a[1:] {
				if !strings.ContainsRune(curlShortSwitches, c) {
					return false
				}
			}
		case strings.HasPrefix(a, "-"):
			return false
		default:
			if !loopbackURL(a) {
				return false
			}
			urls++
		}
	}
	return urls > 0
}

// curlShortSwitches are curl's one-letter options that take no value and
// neither write, upload nor follow: silent, show-error, include, head,
// fail, verbose, insecure, IPv4, IPv6, globoff, and -q (no .curlrc).
const curlShortSwitches = "sSiIfvk46gq"

var curlSwitches = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"--silent": true, "--show-error": true, "--include": true, "--head": true, "--fail": true,
		"--fail-with-body": true, "--verbose": true, "--insecure": true, "--compressed": true,
		"--http1.1": true, "--http2": true, "--globoff": true, "--no-progress-meter": true,
	}
})

// curlReadsConfig reports whether curl, given args, reads a default
// config file that exists, which it does unless -q (--disable) is its
// first argument. A line there adds any option — a proxy, data to send, a
// file to write — to every curl: a loopback GET went to another host with
// POST data (attack run 68, a ~/.curlrc with proxy and data lines). The
// names looked at are more than curl(1) "Default config file" lists, as
// curl versions differ (7.88 reads $XDG_CONFIG_HOME/curlrc and
// ~/.config/curlrc, no dot: attack run 69): .curlrc, curlrc, .config/curlrc
// and .config/.curlrc in $CURL_HOME, $XDG_CONFIG_HOME, $HOME and the
// account's home from the user database (home, given when known).
func curlReadsConfig(args []string, getenv func(string) string, home string) bool {
	if len(args) > 0 && (args[0] == "-q" || args[0] == "--disable") {
		return false
	}
	for _, dir := range []string{getenv("CURL_HOME"), getenv("XDG_CONFIG_HOME"), getenv("HOME"), home} {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		for _, name := range []string{".curlrc", "curlrc", ".config/curlrc", ".config/.curlrc"} {
			if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
				return true // there, or not known not to be
			}
		}
	}
	return false
}

// curlAccountHome is the home directory of the account in the user
// database ("" when unknown), which curl falls back to for its config
// file. (A variable: tests look elsewhere.)
var curlAccountHome = sync.OnceValue(func() string {
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
})

// loopbackURL reports whether s is an http or https URL for this machine:
// host localhost or a loopback address (127.0.0.0/8, ::1), an optional
// decimal port, no user name, no curl URL glob. The URL is taken apart
// here rather than by net/url, which would link net/netip, and its
// start-up cost, into every command (see issue 9); what is not exactly
// that shape is not a loopback URL, so a spelling either parser reads
// differently only ever asks.
func loopbackURL(s string) bool {
	if strings.ContainsAny(s, "{}\\ \t\n") {
		return false
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		// curl guesses http:// for a bare host: localhost:3000/x.
		scheme, rest = "http", s
	}
	if s := strings.ToLower(scheme); s != "http" && s != "https" {
		return false
	}
	if strings.ContainsAny(strings.TrimPrefix(rest, "[::1]"), "[]") {
		return false
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	host, port := authority, ""
	if strings.HasPrefix(authority, "[::1]") {
		host, port = "::1", authority[len("[::1]"):]
	} else if i := strings.IndexByte(authority, ':'); i >= 0 {
		host, port = authority[:i], authority[i:]
	}
	if port != "" {
		digits := port[1:]
		if port[0] != ':' || len(digits) == 0 || len(digits) > 5 || strings.Trim(digits, "0123456789") != "" {
			return false
		}
	}
	return host == "localhost" || host == "::1" || loopbackIPv4(host)
}

// loopbackIPv4 reports whether host is a dotted-quad address in
// 127.0.0.0/8 written canonically (four decimal parts, no leading zeros:
// curl reads 0177.0.0.1 as octal and 127.1 as 127.0.0.1, so only the plain
// form is taken).
func loopbackIPv4(host string) bool {
	parts := strings.Split(host, ".")
	if len(parts) != 4 || parts[0] != "127" {
		return false
	}
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || strconv.Itoa(n) != p {
			return false
		}
	}
	return true
}

// describeLoopback is the reason given for a curlLoopbackGet command.
func describeLoopback(label string) string {
	return fmt.Sprintf("%s only fetches a page from this machine (GET to localhost) and prints it", label)
}
