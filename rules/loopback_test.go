package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCurlLoopbackGet checks which curl calls count as read-only: a GET or
// HEAD of a page on this machine, printed; anything that writes a file,
// sends data, follows a redirect, uses a proxy or names another host is
// sensitive.
func TestCurlLoopbackGet(t *testing.T) {
	// No curl config file here (see TestCurlConfigFileMakesCurlSensitive).
	noAccountHome(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CURL_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	readOnly := [][]string{
		{"curl", "http://localhost:3000"},
		{"curl", "-s", "http://localhost:3001/api/health"},
		{"curl", "-sS", "-f", "https://127.0.0.1:8443/x?y=1&z=2"},
		{"curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://localhost:3000/login"},
		{"curl", "-s", "-I", "http://localhost:3000"},
		{"curl", "-s", "-X", "GET", "-H", "Accept: application/json", "http://[::1]:8080/"},
		{"curl", "--silent", "--max-time", "5", "--url", "http://localhost/"},
		{"curl", "localhost:8080/status"},
		{"curl", "-q", "-s", "http://127.0.0.2/"},
		{"curl", "HTTP://localhost:3000/x"},
		{"curl", "http://[::1]/"},
		{"curl", "http://localhost?q=@evil.com"},
		{"curl", "http://localhost#@evil.com"},
	}
	sensitive := [][]string{
		{"curl"},
		{"curl", "https://example.com"},
		{"curl", "http://localhost.evil.com/"},
		{"curl", "http://localhost@evil.com/"},
		{"curl", "http://localhost:3000@evil.com/"},
		{"curl", "http://localhost:/"},
		{"curl", "http://localhost:123456/"},
		{"curl", "http://localhost:80:80/"},
		{"curl", "http://[::1]@evil.com/"},
		{"curl", "http://[::1]:x/"},
		{"curl", "http://[::2]/"},
		{"curl", "http://LOCALHOST/"},
		{"curl", "http://local%68ost/"},
		{"curl", "http:localhost/"},
		{"curl", "gopher://localhost/"},
		{"curl", "http://user:pw@localhost/"},
		{"curl", "http://{localhost,evil.com}/"},
		{"curl", "http://localhost{,.evil.com}/"},
		{"curl", "http://[127.0.0.1-2].x/"},
		{"curl", "http://0x7f000001/"},
		{"curl", "http://0177.0.0.1/"},
		{"curl", "http://127.1/"},
		{"curl", "http://127.0.0.01/"},
		{"curl", "http://128.0.0.1/"},
		{"curl", "-L", "http://localhost/"},
		{"curl", "-sL", "http://localhost/"},
		{"curl", "-o", "out.html", "http://localhost/"},
		{"curl", "-o/dev/null", "http://localhost/"},
		{"curl", "-O", "http://localhost/x"},
		{"curl", "-D", "headers.txt", "http://localhost/"},
		{"curl", "-c", "jar", "http://localhost/"},
		{"curl", "-b", "~/.ssh/id_rsa", "http://localhost/"},
		{"curl", "-d", "a=1", "http://localhost/"},
		{"curl", "-X", "POST", "http://localhost/"},
		{"curl", "-X", "DELETE", "http://localhost/x"},
		{"curl", "-F", "f=@/etc/passwd", "http://localhost/"},
		{"curl", "-T", "file", "http://localhost/"},
		{"curl", "-K", "cfg", "http://localhost/"},
		{"curl", "-w", "@fmt.txt", "http://localhost/"},
		{"curl", "-w", "%output{/tmp/x}%{http_code}", "http://localhost/"},
		{"curl", "-H", "@headers", "http://localhost/"},
		{"curl", "--proxy", "http://evil:8080", "http://localhost/"},
		{"curl", "--unix-socket", "/var/run/docker.sock", "http://localhost/containers/json"},
		{"curl", "--resolve", "localhost:80:1.2.3.4", "http://localhost/"},
		{"curl", "--connect-to", "localhost:80:evil.com:80", "http://localhost/"},
		{"curl", "http://localhost/", "https://example.com/"},
		{"curl", "file:///etc/passwd"},
		{"curl", "ftp://localhost/"},
		{"curl", "http://localhost/" + Hole},
		{"curl", Hole},
		{"curl", "-s", Hole, "http://localhost/"},
	}
	for _, w := range readOnly {
		if c, why, _ := classifyExec(w, nil); c != ReadOnly {
			t.Errorf("%q: %s (%s), want read-only", w, c, why)
		}
	}
	for _, w := range sensitive {
		if c, why, _ := classifyExec(w, nil); c != Sensitive {
			t.Errorf("%q: %s (%s), want sensitive", w, c, why)
		}
	}
	// A proxy set for the command takes the request off the machine.
	p := Default()
	ctx := Context{Mode: AskMode, Cwd: "/w", Home: "/h", Workspace: "/w"}
	v := p.Decide(Subject{Kind: KindExec, Words: []string{"curl", "http://localhost/"}, Assigns: []string{"http_proxy=http://evil:8080"}}, ctx)
	if v.Decision == Allow {
		t.Errorf("http_proxy=… curl localhost is allowed: %s", v.Reason)
	}
	if v := p.Decide(Subject{Kind: KindExec, Words: []string{"curl", "-s", "http://localhost:3000/health"}}, ctx); v.Decision != Allow || v.Class != ReadOnly {
		t.Errorf("curl localhost health check: %v %s (%s)", v.Decision, v.Class, v.Reason)
	}
}

// TestCurlConfigFileMakesCurlSensitive: curl reads ~/.curlrc (or the one
// of CURL_HOME or XDG_CONFIG_HOME) unless -q comes first, and a line there
// adds a proxy, data or an output file to every call: a loopback GET is
// read-only only without one (attack run 68).
func TestCurlConfigFileMakesCurlSensitive(t *testing.T) {
	noAccountHome(t)
	for _, where := range []string{"HOME", "CURL_HOME", "XDG_CONFIG_HOME", "HOME curlrc", "HOME .config/curlrc", "XDG_CONFIG_HOME curlrc"} {
		where, name, _ := strings.Cut(where, " ")
		if name == "" {
			name = ".curlrc"
		}
		home, dir := t.TempDir(), t.TempDir()
		t.Setenv("HOME", home)
		t.Setenv("CURL_HOME", "")
		t.Setenv("XDG_CONFIG_HOME", "")
		if where == "HOME" {
			dir = home
		}
		t.Setenv(where, dir)
		get := []string{"curl", "-s", "http://127.0.0.1:8081/x"}
		if c, why, _ := classifyExec(get, nil); c != ReadOnly {
			t.Fatalf("%s: no .curlrc: %s (%s), want read-only", where, c, why)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("proxy = http://192.0.2.2:8083\ndata = x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if c, _, _ := classifyExec(get, nil); c != Sensitive {
			t.Errorf("%s/%s: %v, want sensitive", where, name, c)
		}
		if c, why, _ := classifyExec([]string{"curl", "-q", "-s", "http://127.0.0.1:8081/x"}, nil); c != ReadOnly {
			t.Errorf("%s/%s, curl -q first: %s (%s), want read-only", where, name, c, why)
		}
	}
}

// noAccountHome makes curl's fall-back home unknown for the test, so that
// the machine's own ~/.curlrc (if any) does not count.
func noAccountHome(t *testing.T) {
	old := curlAccountHome
	curlAccountHome = func() string { return "" }
	t.Cleanup(func() { curlAccountHome = old })
}
