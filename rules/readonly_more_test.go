package rules

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// moreCases are calls of the programs of moreReadOnlyPrograms: the typical
// safe ones, and one for each excluded option, subcommand or form.
var moreCases = []struct {
	words []string
	want  Class
}{
	// node: --check only.
	{w("node", "--check", "app.js"), ReadOnly},
	{w("node", "-c", "src/index.mjs"), ReadOnly},
	{w("nodejs", "--check", "app.js"), ReadOnly},
	{w("node", "-c"), ReadOnly}, // checks stdin
	{w("node", "--check", "--", "app.js"), ReadOnly},
	{w("node", "--version"), ReadOnly},
	{w("node", "-v"), ReadOnly},
	{w("nodejs", "--version"), ReadOnly},
	{w("node", "-e", "1"), Sensitive},
	{w("node", "--version", "-r", "./hook.js"), Sensitive},
	{w("node", "app.js"), Sensitive},                               // runs it
	{w("node", "app.js", "--check"), Sensitive},                    // --check is the script's argument
	{w("node", "--check", "-r", "./hook.js", "app.js"), Sensitive}, // preloads run under --check
	{w("node", "--check", "--require=./hook.js", "app.js"), Sensitive},
	{w("node", "--check", "--import", "./hook.mjs", "app.js"), Sensitive},
	{w("node", "--check", "--env-file=.env", "app.js"), Sensitive}, // .env may set NODE_OPTIONS
	{w("node", "-c", "-e", "1"), Sensitive},
	{w("node", "-e", "process.exit()"), Sensitive},
	{w("node", "--check", "a.js", "b.js"), Sensitive},
	{w("node", "--check", "src/"+Hole), Sensitive},
	{w("node"), Sensitive}, // the REPL

	// npm: the version only.
	{w("npm", "--version"), ReadOnly},
	{w("npm", "-v"), ReadOnly},
	{w("npx", "--version"), ReadOnly},
	{w("npx", "-v"), ReadOnly},
	{w("npx", "--version", "cowsay"), Sensitive},
	{w("npx", "cowsay"), Sensitive},
	{w("npm"), Sensitive},       // writes a debug log
	{w("npm", "ls"), Sensitive}, // writes a debug log where .npmrc says
	{w("npm", "list"), Sensitive},
	{w("npm", "view", "left-pad"), Sensitive}, // the registry
	{w("npm", "outdated"), Sensitive},
	{w("npm", "-v", "install"), Sensitive},
	{w("npm", "--version", "--userconfig=x"), Sensitive},

	// Checksums and encodings.
	{w("sha224sum", "a"), ReadOnly},
	{w("sha384sum", "-c", "SUMS"), ReadOnly},
	{w("b2sum", "-l", "256", "a"), ReadOnly},
	{w("sum", "a"), ReadOnly},
	{w("base64", "-d", "a.b64"), ReadOnly},
	{w("base64", "-w0", "--", Hole), ReadOnly},
	{w("base64", "-w0", Hole), Sensitive},             // could be -o FILE
	{w("base64", "-i", "in", "-o", "out"), Sensitive}, // macOS
	{w("base64", "-Do", "out"), Sensitive},
	{w("base64", "--output=out"), Sensitive},
	{w("base32", "a"), ReadOnly},
	{w("basenc", "--base16", "a"), ReadOnly},

	// Text filters.
	{w("fold", "-w", "80", "a"), ReadOnly},
	{w("fmt", "-w", "72", "README"), ReadOnly},
	{w("paste", "-d,", "a", "b"), ReadOnly},
	{w("join", "-t,", "-o", "1.1,2.2", "a", "b"), ReadOnly},
	{w("expand", "-t", "4", "a"), ReadOnly},
	{w("unexpand", "-a", "a"), ReadOnly},
	{w("numfmt", "--to=iec", "1048576"), ReadOnly},
	{w("tsort", "deps"), ReadOnly},
	{w("pr", "-2", "-t", "a"), ReadOnly},
	{w("shuf", "-n", "3", "a"), ReadOnly},
	{w("shuf", "-i", "1-10"), ReadOnly},
	{w("shuf", "-o", "out", "a"), Sensitive},
	{w("shuf", "-no", "out"), ReadOnly}, // -n's argument is "out"
	{w("shuf", "-eo", "out", "x"), Sensitive},
	{w("shuf", "--output=out", "a"), Sensitive},
	{w("shuf", "--out", "out", "a"), Sensitive},
	{w("shuf", Hole, "a"), Sensitive},
	{w("factor", "42"), ReadOnly},
	{w("pathchk", "-p", "a/b"), ReadOnly},
	{w("rev", "a"), ReadOnly},
	{w("look", "pre", "words"), ReadOnly},
	{w("col", "-b"), ReadOnly},
	{w("colrm", "1", "4"), ReadOnly},
	{w("iconv", "-f", "latin1", "-t", "utf-8", "a"), ReadOnly},
	{w("iconv", "-l"), ReadOnly},
	{w("iconv", "-f", "latin1", "-o", "out", "a"), Sensitive},
	{w("iconv", "--output=out", "a"), Sensitive},
	{w("iconv", "--o", "out", "a"), Sensitive}, // argp abbreviation
	{w("iconv", "-co", "out", "a"), Sensitive},
	{w("diff3", "mine", "old", "yours"), ReadOnly},
	{w("diff3", "-m", "-L", "mine", "mine", "old", "yours"), ReadOnly},
	{w("diff3", "--diff-program=sh", "a", "b", "c"), Sensitive},
	{w("diff3", "--diff-prog", "sh", "a", "b", "c"), Sensitive},
	{w("sdiff", "-s", "a", "b"), ReadOnly},
	{w("sdiff", "-w", "120", "a", "b"), ReadOnly},
	{w("sdiff", "-o", "merged", "a", "b"), Sensitive},
	{w("sdiff", "-so", "merged", "a", "b"), Sensitive},
	{w("sdiff", "--output=merged", "a", "b"), Sensitive},
	{w("sdiff", "--diff-program=sh", "a", "b"), Sensitive},

	// Dumps.
	{w("hexdump", "-C", "a.bin"), ReadOnly},
	{w("hexdump", "-n", "64", "-e", `16/1 "%02x" "\n"`, "a.bin"), ReadOnly},
	{w("strings", "-n", "8", "a.bin"), ReadOnly},
	{w("xxd", "a.bin"), ReadOnly},
	{w("xxd", "-l64", "-c16", "a.bin"), ReadOnly},
	{w("xxd", "-r", "-p", "dump.hex"), ReadOnly}, // to stdout
	{w("xxd", "-p"), ReadOnly},
	{w("xxd", "a.bin", "out"), Sensitive},            // writes out
	{w("xxd", "-r", "dump.hex", "a.bin"), Sensitive}, // writes a.bin
	{w("xxd", "-ac", "a.bin", "out"), Sensitive},     // -ac is -a: out is written
	{w("xxd", "-l", "64", "a.bin"), Sensitive},       // 64 counts as an operand: write -l64
	{w("xxd", Hole), Sensitive},                      // could be two operands
	{w("xxd", "-s", "0x10", "--", "a", "b"), Sensitive},

	// The user, the session, the system.
	{w("logname"), ReadOnly},
	{w("users"), ReadOnly},
	{w("who", "-a"), ReadOnly},
	{w("who", "am", "i"), ReadOnly},
	{w("arch"), ReadOnly},
	{w("arch", "-x86_64", "sh"), Sensitive}, // macOS: runs sh
	{w("arch", "-arch", "arm64", "sh"), Sensitive},
	{w("arch", "-arm64"), Sensitive},
	{w("arch", "sh"), Sensitive},
	{w("hostid"), ReadOnly},
	{w("dircolors", "-b"), ReadOnly},
	{w("dir", "-la"), ReadOnly},
	{w("vdir", "src"), ReadOnly},
	{w("env"), ReadOnly},
	{w("env", "-0"), ReadOnly},
	{w("env", "-u", "SECRET"), ReadOnly},
	{w("env", "--unset", "SECRET"), ReadOnly},
	{w("env", "rm", "-rf", "x"), Sensitive},
	{w("env", "FOO=1", "sh"), Sensitive},
	{w("env", "FOO=1"), Sensitive},
	{w("env", "-i", "sh"), Sensitive},
	{w("env", "-S", "sh -c id"), Sensitive},
	{w("env", "-vS", "sh"), Sensitive},
	{w("env", "--split-string=sh"), Sensitive},
	{w("env", "--s", "sh"), Sensitive}, // getopt_long abbreviation
	{w("env", "--", "sh"), Sensitive},
	{w("env", "-"), Sensitive},
	{w("env", Hole), Sensitive},
	{w("env", "-u", Hole), Sensitive}, // a whole run-time word may be several
	{w("env", "--uns", "X", "sh"), Sensitive},
	{w("getconf", "PAGE_SIZE"), ReadOnly},
	{w("getconf", "-a"), ReadOnly},
	{w("getconf", "PATH_MAX", "/"), ReadOnly},
	{w("getconf", "-v", "POSIX_V7_LP64_OFF64", "PATH"), Sensitive},
	{w("getconf", "-vPOSIX_V7_LP64_OFF64", "PATH"), Sensitive},
	{w("getconf", Hole), Sensitive},
	{w("locale"), ReadOnly},
	{w("locale", "-a"), ReadOnly},
	{w("uptime", "-p"), ReadOnly},
	{w("w", "-h"), ReadOnly},
	{w("vmstat", "1", "5"), ReadOnly},
	{w("pgrep", "-af", "node"), ReadOnly},
	{w("pgrep", "-x", Hole), ReadOnly},
	{w("pkill", "node"), Sensitive},
	{w("pidof", "sshd"), ReadOnly},
	{w("pstree", "-p"), ReadOnly},
	{w("last", "-n", "5"), ReadOnly},
	{w("lsblk", "-f"), ReadOnly},
	{w("lscpu"), ReadOnly},
	{w("lsmem"), ReadOnly},
	{w("lsns"), ReadOnly},
	{w("lslocks"), ReadOnly},
	{w("lsipc"), ReadOnly},
	{w("findmnt", "-T", "."), ReadOnly},
	{w("mountpoint", "-q", "/"), ReadOnly},
	{w("dmesg", "-T"), ReadOnly},
	{w("dmesg", "-l", "err,warn"), ReadOnly},
	{w("dmesg", "-lerr"), ReadOnly},
	{w("dmesg", "--follow"), ReadOnly},
	{w("dmesg", "-C"), Sensitive},
	{w("dmesg", "-c"), Sensitive},
	{w("dmesg", "-Tc"), Sensitive},
	{w("dmesg", "--clear"), Sensitive},
	{w("dmesg", "--read-clear"), Sensitive},
	{w("dmesg", "-D"), Sensitive},
	{w("dmesg", "--console-off"), Sensitive},
	{w("dmesg", "-E"), Sensitive},
	{w("dmesg", "--console-on"), Sensitive},
	{w("dmesg", "-n", "1"), Sensitive},
	{w("dmesg", "--console-level=1"), Sensitive},

	// Open files and sockets.
	{w("lsof", "-i", ":8080"), ReadOnly},
	{w("lsof", "-nP", "-iTCP", "-sTCP:LISTEN"), ReadOnly},
	{w("lsof", "-t", "-i:3000"), ReadOnly},
	{w("lsof", "-p", "1234"), ReadOnly},
	{w("lsof", "+D", "build"), ReadOnly},
	{w("lsof", "+r", "2", "-c", "node"), ReadOnly},
	{w("lsof", "-r2", "-u", "me"), ReadOnly},
	{w("lsof", "+m"), ReadOnly}, // the mount supplement, to stdout
	{w("lsof", "app.log"), ReadOnly},
	{w("lsof", "-Db", "/home/u/.bashrc"), Sensitive},
	{w("lsof", "-D", "u"), Sensitive},
	{w("lsof", "-nD", "b"), Sensitive},
	{w("lsof", "-k", "/tmp/nlist"), Sensitive},
	{w("lsof", "-m", "/dev/mem"), Sensitive},
	{w("lsof", "-i@evil.example"), Sensitive},
	{w("lsof", "-i", "TCP@secret.attacker.example:443"), Sensitive},
	{w("lsof", "-i", Hole), Sensitive},
	{w("lsof", "-p", "1"+Hole), Sensitive},
	{w("ss", "-tlnp"), ReadOnly},
	{w("ss", "-s"), ReadOnly},
	{w("ss", "-f", "inet", "-a"), ReadOnly},
	{w("ss", "-N", "ns1", "-t"), ReadOnly},
	{w("ss", "-K", "dst", "10.0.0.1"), Sensitive},
	{w("ss", "--kill"), Sensitive},
	{w("ss", "-D", "dump.bin"), Sensitive},
	{w("ss", "--diag=dump.bin"), Sensitive},
	{w("ss", "-F", "filter.txt"), Sensitive},
	{w("ss", "-t", "dst", "evil.example"), Sensitive}, // a filter: resolves the name
	{w("ss", "state", "established"), Sensitive},
	{w("ss", Hole), Sensitive},
	{w("netstat", "-tulpn"), ReadOnly},
	{w("netstat", "-rn"), ReadOnly},
	{w("ip", "addr"), ReadOnly},
	{w("ip", "a"), ReadOnly},
	{w("ip", "-br", "a"), ReadOnly},
	{w("ip", "-4", "addr", "show", "dev", "eth0"), ReadOnly},
	{w("ip", "-j", "-p", "link", "show"), ReadOnly},
	{w("ip", "-c=never", "route", "list", "table", "all"), ReadOnly},
	{w("ip", "-f", "inet6", "r"), ReadOnly},
	{w("ip", "--json", "neigh"), ReadOnly},
	{w("ip", "-s", "-s", "link", "show", Hole), ReadOnly},
	{w("ip"), ReadOnly}, // usage
	{w("ip", "addr", "add", "10.0.0.2/24", "dev", "eth0"), Sensitive},
	{w("ip", "addr", "flush", "dev", "eth0"), Sensitive},
	{w("ip", "a", "f", "dev", "eth0"), Sensitive}, // f is flush
	{w("ip", "a", "s"), Sensitive},                // only show and list are spelled out
	{w("ip", "link", "set", "eth0", "down"), Sensitive},
	{w("ip", "route", "add", "default", "via", "10.0.0.1"), Sensitive},
	{w("ip", "route", "del", "default"), Sensitive},
	{w("ip", "netns", "exec", "ns1", "sh"), Sensitive},
	{w("ip", "-b", "cmds.txt"), Sensitive},
	{w("ip", "-batch", "cmds.txt"), Sensitive},
	{w("ip", "-force", "-b", "cmds.txt"), Sensitive},
	{w("ip", "-n", "ns1", "addr"), Sensitive},
	{w("ip", "-all", "netns", "exec", "sh"), Sensitive},
	{w("ip", "monitor"), Sensitive},
	{w("ip", "tuntap", "add", "tap0", "mode", "tap"), Sensitive},
	{w("ip", Hole), Sensitive},
	{w("ip", "addr", Hole), Sensitive},

	// Searching.
	{w("fd", "-e", "go", "main"), ReadOnly},
	{w("fdfind", "-H", "-t", "f", "pattern", "src"), ReadOnly},
	{w("fd", "-x", "rm"), Sensitive},
	{w("fd", "pattern", "--exec", "rm", "{}"), Sensitive},
	{w("fd", "--exec=rm"), Sensitive},
	{w("fd", "-X", "rm"), Sensitive},
	{w("fd", "-HIx", "rm"), Sensitive},
	{w("fd", "--exec-batch", "rm"), Sensitive},
	{w("fdfind", "-l"), Sensitive},
	{w("fd", "--list-details"), Sensitive},
	{w("fd", Hole), Sensitive},
	{w("fd", "x", "src/"+Hole), ReadOnly},
	{w("ag", "-i", "todo", "src"), ReadOnly},
	{w("ag", "-z", "needle"), ReadOnly},
	{w("ag", "--pager", "sh", "x"), Sensitive},
	{w("ag", "--pager=less", "x"), Sensitive},
	{w("ag", "--pag=sh", "x"), Sensitive},
	{w("yq", ".a.b", "config.yaml"), ReadOnly},
	{w("yq", "-y", ".spec", "k8s.yaml"), ReadOnly},
	{w("yq", "eval", ".a", "x.yaml"), ReadOnly},
	{w("yq", "-i", ".a = 1", "x.yaml"), Sensitive},
	{w("yq", "--in-place", ".a = 1", "x.yaml"), Sensitive},
	{w("yq", "--in-p", ".a = 1", "x.yaml"), Sensitive}, // argparse abbreviation
	{w("yq", "eval", "--inplace", ".a = 1", "x.yaml"), Sensitive},
	{w("yq", "-s", ".name", "docs.yaml"), Sensitive},
	{w("yq", "--split-exp", ".name", "docs.yaml"), Sensitive},
	{w("yq", "-yi", ".a", "x.yaml"), Sensitive},

	// Package databases.
	{w("dpkg-query", "-W", "-f=${Package}\n"), ReadOnly},
	{w("dpkg-query", "-l", "lib*"), ReadOnly},
	{w("dpkg", "-l"), ReadOnly},
	{w("dpkg", "-l", "bash"), ReadOnly},
	{w("dpkg", "-L", "coreutils"), ReadOnly},
	{w("dpkg", "-S", "/bin/ls"), ReadOnly},
	{w("dpkg", "-s", "bash"), ReadOnly},
	{w("dpkg", "--status", "bash"), ReadOnly},
	{w("dpkg", "--listfiles", "bash"), ReadOnly},
	{w("dpkg", "--search", "bin/ls"), ReadOnly},
	{w("dpkg", "-l", "--no-pager"), ReadOnly},
	{w("dpkg", "-i", "x.deb"), Sensitive},
	{w("dpkg", "-r", "bash"), Sensitive},
	{w("dpkg", "-P", "bash"), Sensitive},
	{w("dpkg", "--configure", "-a"), Sensitive},
	{w("dpkg", "--set-selections"), Sensitive},
	{w("dpkg", "-l", "--pre-invoke=sh"), Sensitive},
	{w("dpkg", "-l", "--log=/tmp/x"), Sensitive},
	{w("dpkg", "--no-pager", "-l"), Sensitive}, // the action must come first
	{w("dpkg"), Sensitive},
	{w("dpkg", Hole), Sensitive},
	{w("apt", "list", "--installed"), ReadOnly},
	{w("apt", "list", "--upgradable"), ReadOnly},
	{w("apt", "show", "-a", "bash"), ReadOnly},
	{w("apt", "search", "--names-only", "ripgrep"), ReadOnly},
	{w("apt", "policy", "bash"), ReadOnly},
	{w("apt", "install", "x"), Sensitive},
	{w("apt", "update"), Sensitive},
	{w("apt", "upgrade"), Sensitive},
	{w("apt", "remove", "x"), Sensitive},
	{w("apt", "edit-sources"), Sensitive},
	{w("apt", "list", "-o", "Dir::Cache::pkgcache=/home/u/.bashrc"), Sensitive},
	{w("apt", "show", "-c", "evil.conf", "bash"), Sensitive},
	{w("apt", "-o", "Debug::NoLocking=1", "list"), Sensitive},
	{w("apt", Hole), Sensitive},
	{w("apt-cache", "show", "bash"), ReadOnly},
	{w("apt-cache", "policy"), ReadOnly},
	{w("apt-cache", "search", "-n", "ripgrep"), ReadOnly},
	{w("apt-cache", "depends", "--recurse", "--no-recommends", "bash"), ReadOnly},
	{w("apt-cache", "rdepends", "--installed", "libc6"), ReadOnly},
	{w("apt-cache", "showpkg", "bash"), ReadOnly},
	{w("apt-cache", "madison", "bash"), ReadOnly},
	{w("apt-cache", "-qq", "show", "bash"), Sensitive}, // no option before the subcommand
	{w("apt-cache", "gencaches"), Sensitive},
	{w("apt-cache", "show", "-p", "/tmp/cache.bin", "bash"), Sensitive},
	{w("apt-cache", "show", "--pkg-cache=/tmp/cache.bin", "bash"), Sensitive},
	{w("apt-cache", "show", "-s", "/tmp/src.bin", "bash"), Sensitive},
	{w("apt-cache", "show", "-o", "Dir::Cache=/tmp", "bash"), Sensitive},
	{w("apt-cache", "show", "-c", "x.conf", "bash"), Sensitive},
	{w("apt-cache", "show", "--with-source", "x.deb", "bash"), Sensitive},
	{w("apt-cache", "show", "-g", "bash"), Sensitive},
	{w("apt-cache", "show", "-qo", "A=B", "bash"), Sensitive},

	// docker.
	{w("docker", "ps"), ReadOnly},
	{w("docker", "ps", "-aq"), ReadOnly},
	{w("docker", "ps", "--format", "{{.ID}} {{.Names}}"), ReadOnly},
	{w("docker", "ps", "-f", "status=exited", "-n", "5"), ReadOnly},
	{w("docker", "images", "--digests"), ReadOnly},
	{w("docker", "inspect", "-f", "{{.State.Pid}}", "web"), ReadOnly},
	{w("docker", "inspect", "--type=image", "alpine"), ReadOnly},
	{w("docker", "logs", "-f", "--tail", "100", "web"), ReadOnly},
	{w("docker", "logs", "-n", "20", "-t", "web"), ReadOnly},
	{w("docker", "version"), ReadOnly},
	{w("docker", "info", "--format", "{{json .}}"), ReadOnly},
	{w("docker", "container", "ls", "-a"), ReadOnly},
	{w("docker", "container", "logs", "web"), ReadOnly},
	{w("docker", "image", "ls"), ReadOnly},
	{w("docker", "image", "inspect", "alpine"), ReadOnly},
	{w("docker", "inspect", "web-"+Hole), ReadOnly},
	{w("docker", "logs", "--", Hole), ReadOnly},
	{w("docker", "logs", Hole), Sensitive}, // could be an option
	{w("docker", "-H", "ssh://evil.example", "ps"), Sensitive},
	{w("docker", "--host=tcp://10.0.0.1:2375", "ps"), Sensitive},
	{w("docker", "--context", "prod", "ps"), Sensitive},
	{w("docker", "--config", "./cfg", "ps"), Sensitive},
	{w("docker", "-D", "ps"), Sensitive},
	{w("docker", "ps", "-H", "ssh://evil.example"), Sensitive},
	{w("docker", "ps", "--host=x"), Sensitive},
	{w("docker", "ps", "--context=x"), Sensitive},
	{w("docker", "ps", "-aH", "x"), Sensitive},
	{w("docker", "run", "alpine"), Sensitive},
	{w("docker", "exec", "web", "sh"), Sensitive},
	{w("docker", "pull", "alpine"), Sensitive},
	{w("docker", "compose", "ps"), Sensitive},
	{w("docker", "container", "rm", "web"), Sensitive},
	{w("docker", "image", "rm", "alpine"), Sensitive},
	{w("docker", "image", "save", "-o", "x.tar", "alpine"), Sensitive},
	{w("docker", "logs", "--output=x", "web"), Sensitive},
	{w("docker", "ps", "--format="+Hole), Sensitive}, // not a spelled-out option value: could be another option
	{w("docker", "ps", "--form", "x"), Sensitive},    // no abbreviation
	{w("docker", Hole), Sensitive},
	{w("docker", "ps", Hole+"x"), Sensitive},

	// kubectl.
	{w("kubectl", "get", "pods"), ReadOnly},
	{w("kubectl", "get", "pods", "-n", "kube-system", "-o", "wide"), ReadOnly},
	{w("kubectl", "get", "deploy", "-A", "-ojson"), ReadOnly},
	{w("kubectl", "get", "pods", "-l", "app=web", "--sort-by=.metadata.name"), ReadOnly},
	{w("kubectl", "get", "--raw", "/healthz"), ReadOnly},
	{w("kubectl", "get", "pods", "-o", "go-template={{range .items}}{{.metadata.name}}{{end}}"), ReadOnly},
	{w("kubectl", "get", "pods", "-w"), ReadOnly},
	{w("kubectl", "describe", "pod", "web-1", "--namespace=prod"), ReadOnly},
	{w("kubectl", "logs", "-f", "deploy/web", "-c", "app", "--tail=50"), ReadOnly},
	{w("kubectl", "logs", "web-1", "-p", "-v", "6"), ReadOnly},
	{w("kubectl", "version", "--client", "-o", "yaml"), ReadOnly},
	{w("kubectl", "api-resources", "--namespaced=true"), ReadOnly},
	{w("kubectl", "explain", "pod.spec", "--recursive"), ReadOnly},
	{w("kubectl", "get", "pods", "--kubeconfig=./evil.yaml"), Sensitive},
	{w("kubectl", "get", "pods", "--kubeconfig", "./evil.yaml"), Sensitive},
	{w("kubectl", "get", "pods", "-s", "https://evil.example"), Sensitive},
	{w("kubectl", "get", "pods", "-As", "https://evil.example"), Sensitive},
	{w("kubectl", "get", "pods", "--server=https://evil.example"), Sensitive},
	{w("kubectl", "get", "pods", "--token=x"), Sensitive},
	{w("kubectl", "get", "pods", "--as=admin"), Sensitive},
	{w("kubectl", "get", "pods", "--context=prod"), Sensitive},
	{w("kubectl", "get", "pods", "--cluster=x"), Sensitive},
	{w("kubectl", "get", "pods", "--user=x"), Sensitive},
	{w("kubectl", "get", "pods", "--insecure-skip-tls-verify"), Sensitive},
	{w("kubectl", "get", "pods", "--certificate-authority=x"), Sensitive},
	{w("kubectl", "get", "pods", "--cache-dir=/home/u/.ssh"), Sensitive},
	{w("kubectl", "get", "pods", "--profile=cpu", "--profile-output=/home/u/x"), Sensitive},
	{w("kubectl", "get", "pods", "--log-file=/home/u/x"), Sensitive},
	{w("kubectl", "get", "-f", "https://evil.example/x.yaml"), Sensitive},
	{w("kubectl", "get", "--filename=x.yaml"), Sensitive},
	{w("kubectl", "get", "-k", "github.com/evil/repo"), Sensitive},
	{w("kubectl", "describe", "-f", "x.yaml"), Sensitive},
	{w("kubectl", "describe", "-k", "."), Sensitive},
	{w("kubectl", "logs", "web", "--insecure-skip-tls-verify-backend"), Sensitive},
	{w("kubectl", "--kubeconfig=x", "get", "pods"), Sensitive},
	{w("kubectl", "-n", "prod", "get", "pods"), Sensitive}, // no option before the subcommand
	{w("kubectl", "apply", "-f", "x.yaml"), Sensitive},
	{w("kubectl", "exec", "web", "--", "sh"), Sensitive},
	{w("kubectl", "delete", "pod", "web"), Sensitive},
	{w("kubectl", "edit", "pod", "web"), Sensitive},
	{w("kubectl", "port-forward", "web", "8080"), Sensitive},
	{w("kubectl", "config", "view", "--raw"), Sensitive},
	{w("kubectl", "get", "secret", "app-"+Hole), ReadOnly},
	{w("kubectl", "logs", "--", Hole), ReadOnly},
	{w("kubectl", "get", "pods", Hole), Sensitive}, // could be --kubeconfig=…
	{w("kubectl", Hole), Sensitive},
}

func w(words ...string) []string { return words }

func TestMoreReadOnlyPrograms(t *testing.T) {
	for _, tc := range moreCases {
		t.Run(shown(strings.Join(tc.words, " ")), func(t *testing.T) {
			c, why, _ := classifyExec(tc.words, nil)
			if c != tc.want {
				t.Errorf("%q: %s (%s), want %s", tc.words, c, why, tc.want)
			}
		})
	}
}

// Every program of moreReadOnlyPrograms has a test that shows it
// read-only, and its name is not already in readOnlyPrograms (the later
// entry would silently replace the earlier one).
func TestMoreReadOnlyProgramsCovered(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range moreCases {
		if len(tc.words) > 0 && tc.want == ReadOnly {
			seen[tc.words[0]] = true
		}
	}
	old := map[string]bool{}
	for _, p := range readOnlyPrograms {
		old[p.Name] = true
	}
	for _, p := range moreReadOnlyPrograms {
		if old[p.Name] {
			t.Errorf("%s is in readOnlyPrograms already", p.Name)
		}
		if !seen[p.Name] {
			t.Errorf("%s: no test shows a read-only call", p.Name)
		}
		var checkSource func(label string, p program)
		checkSource = func(label string, p program) {
			if p.Source == "" {
				t.Errorf("%s has no Source", label)
			}
			for _, s := range p.Sub {
				checkSource(label+" "+s.Name, s)
			}
		}
		checkSource(p.Name, p)
	}
	if n := countEntries(moreReadOnlyPrograms); n < 40 {
		t.Errorf("%d entries, want at least 40", n)
	}
}

// countEntries counts programs and the subcommands under them, each once
// (a program whose subcommands are listed counts by its subcommands).
func countEntries(progs []program) int {
	n := 0
	for _, p := range progs {
		if p.Sub == nil {
			n++
			continue
		}
		n += countEntries(p.Sub)
	}
	return n
}

// A call judged read-only with run-time words stays read-only for any
// value of them (the promise FuzzClassify checks for the older table):
// each template is instantiated with values that are options, several
// words, or the excluded text of some entry.
func TestMoreReadOnlyHoles(t *testing.T) {
	fills := []string{"", "x", "-x", "--x", "a b", "-o out", "--output=out", "-D b", "@evil", "-i@evil",
		"--kubeconfig=k", "-H ssh://e", "-S sh", "in out", "flush", "add 1 dev x", "-- x", "-v spec", "-x rm", "--exec rm"}
	var templates [][]string
	for _, tc := range moreCases {
		for i := range tc.words {
			if strings.Contains(tc.words[i], Hole) {
				templates = append(templates, tc.words)
				break
			}
		}
	}
	for _, p := range moreReadOnlyPrograms {
		templates = append(templates,
			w(p.Name, Hole), w(p.Name, "a", Hole), w(p.Name, "-"+Hole), w(p.Name, "x"+Hole),
			w(p.Name, "--", Hole))
		for _, s := range p.Sub {
			templates = append(templates, w(p.Name, s.Name, Hole), w(p.Name, s.Name, "x", "x"+Hole),
				w(p.Name, s.Name, "-f", Hole), w(p.Name, s.Name, "-n", Hole))
		}
	}
	templates = append(templates, w("node", "--check", Hole), w("dpkg", "-l", "x"+Hole), w("env", "-u", "x"+Hole),
		w("ip", "a", "show", Hole), w("lsof", "-i", Hole))
	for _, words := range templates {
		c, why, _ := classifyExec(words, nil)
		if c != ReadOnly {
			continue
		}
		for _, fill := range fills {
			inst := instantiateWords(words, fill)
			if ci, whyi, _ := classifyExec(inst, nil); ci != ReadOnly {
				t.Errorf("%q is read-only (%s) but %q is %s (%s)", words, why, inst, ci, whyi)
			}
		}
	}
}

func TestToolConfigNamesAreDangerous(t *testing.T) {
	names := []string{"NODE_OPTIONS", "NODE_PATH", "NODE_V8_COVERAGE", "NODE_REDIRECT_WARNINGS",
		"KUBECONFIG", "KUBERC", "KUBECACHEDIR", "DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG",
		"DPKG_PAGER", "PAGER", "APT_CONFIG", "GETCONF_DIR", "LSOFDEVCACHE", "GCONV_PATH"}
	for _, name := range names {
		for _, s := range []Subject{
			{Kind: KindExec, Words: w("node", "--check", "a.js"), Assigns: w(name + "=x")},
			{Kind: KindExec, Words: w("kubectl", "get", "pods"), Assigns: w(name + "=x")},
			{Kind: KindExec, Words: w("export", name+"=x")},
		} {
			if c, why, bad := classifyExec(s.Words, s.Assigns); c != Sensitive || !bad {
				t.Errorf("%s: %q %q = %s (%s), want a sensitive assignment", name, s.Assigns, s.Words, c, why)
			}
		}
	}
	if c, why, _ := classifyExec(w("docker", "ps"), w("DOCKER_BUILDKIT=1")); c != ReadOnly {
		t.Errorf("DOCKER_BUILDKIT=1 docker ps: %s (%s)", c, why)
	}
}

// With no rules, in mode ask, a read-only call runs and an excluded one
// asks.
func TestMoreReadOnlyDecide(t *testing.T) {
	p := mustParse(t, "")
	ctx := testContext(t, AskMode)
	for _, tc := range []struct {
		words []string
		want  Decision
	}{
		{w("lsof", "-i", ":8080"), Allow},
		{w("node", "--check", "app.js"), Allow},
		{w("docker", "ps", "-a"), Allow},
		{w("kubectl", "get", "pods"), Allow},
		{w("ip", "-br", "addr"), Allow},
		{w("xxd", "a.bin"), Allow},
		{w("xxd", "a.bin", "out"), Ask},
		{w("node", "app.js"), Ask},
		{w("kubectl", "get", "pods", "--kubeconfig=x"), Ask},
		{w("npm", "ls"), Ask},
		{w("env", "sh"), Ask},
	} {
		if v := p.Decide(exec(tc.words...), ctx); v.Decision != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.words, v.Decision, v.Reason, tc.want)
		}
	}
	s := Subject{Kind: KindExec, Words: w("node", "--check", "app.js"), Assigns: w("NODE_OPTIONS=--require=./hook.js")}
	if v := p.Decide(s, ctx); v.Decision != Ask {
		t.Errorf("NODE_OPTIONS=… node --check: %s (%s), want ask", v.Decision, v.Reason)
	}
}

// The claims of moreReadOnlyPrograms that can be checked by running the
// program, where it is installed.
func TestMoreReadOnlyClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("runs external programs")
	}
	dir := t.TempDir()
	run := func(t *testing.T, env []string, name string, args ...string) (string, error) {
		t.Helper()
		if _, err := osexec.LookPath(name); err != nil {
			t.Skipf("%s is not installed", name)
		}
		cmd := osexec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Stdin = strings.NewReader("")
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			return "", err
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return out.String(), err
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%s %q did not end", name, args)
			return "", nil
		}
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	writeFile := func(t *testing.T, name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("node --check does not run the script", func(t *testing.T) {
		writeFile(t, "a.js", "require('fs').writeFileSync('ran-cjs', 'x')\n")
		writeFile(t, "a.mjs", "import fs from 'fs'; fs.writeFileSync('ran-esm', 'x')\n")
		for _, f := range []string{"a.js", "a.mjs"} {
			if out, err := run(t, nil, "node", "--check", f); err != nil {
				t.Fatalf("node --check %s: %v\n%s", f, err, out)
			}
		}
		if exists("ran-cjs") || exists("ran-esm") {
			t.Error("node --check ran the script")
		}
		// What the entry keeps out: a preload runs under --check.
		writeFile(t, "hook.js", "require('fs').writeFileSync('ran-hook', 'x')\n")
		if out, err := run(t, []string{"NODE_OPTIONS=--require=./hook.js"}, "node", "--check", "a.js"); err != nil {
			t.Fatalf("NODE_OPTIONS node --check: %v\n%s", err, out)
		}
		if !exists("ran-hook") {
			t.Error("a --require preload did not run under --check; the Source says it does")
		}
	})

	t.Run("xxd writes its second operand, and -ac is -a", func(t *testing.T) {
		writeFile(t, "in.bin", "hello")
		if out, err := run(t, nil, "xxd", "-ac", "in.bin", "out.hex"); err != nil {
			t.Fatalf("xxd: %v\n%s", err, out)
		}
		if !exists("out.hex") {
			t.Error("xxd -ac in out did not write out: the entry's reason for not reading -c's argument is gone")
		}
	})

	t.Run("npm --version writes no log, npm ls does", func(t *testing.T) {
		logs := filepath.Join(dir, "npmlogs")
		writeFile(t, "package.json", `{"name":"x","version":"1.0.0"}`)
		writeFile(t, ".npmrc", "logs-dir="+logs+"\nupdate-notifier=false\n")
		if out, err := run(t, nil, "npm", "--version"); err != nil {
			t.Fatalf("npm --version: %v\n%s", err, out)
		}
		if entries, _ := os.ReadDir(logs); len(entries) > 0 {
			t.Errorf("npm --version wrote %d files into logs-dir", len(entries))
		}
		if out, err := run(t, nil, "npm", "ls"); err != nil {
			t.Fatalf("npm ls: %v\n%s", err, out)
		}
		if entries, _ := os.ReadDir(logs); len(entries) == 0 {
			t.Error("npm ls wrote no log into logs-dir; the Source says it does")
		}
	})

	t.Run("docker refuses global options after the subcommand", func(t *testing.T) {
		out, err := run(t, nil, "docker", "ps", "-H", "tcp://127.0.0.1:9")
		if err == nil || !strings.Contains(out, "unknown shorthand flag") {
			t.Errorf("docker ps -H: %v\n%s", err, out)
		}
	})

	t.Run("pgrep signals nothing", func(t *testing.T) {
		if _, err := osexec.LookPath("sleep"); err != nil {
			t.Skip("no sleep")
		}
		sleep := osexec.Command("sleep", "30")
		if err := sleep.Start(); err != nil {
			t.Fatal(err)
		}
		ended := make(chan struct{})
		go func() { _ = sleep.Wait(); close(ended) }()
		defer func() { _ = sleep.Process.Kill(); <-ended }()
		_, _ = run(t, nil, "pgrep", "--signal", "KILL", "-x", "sleep")
		select {
		case <-ended:
			t.Error("pgrep --signal KILL killed the process")
		case <-time.After(300 * time.Millisecond):
		}
	})

	t.Run("env with no operand prints the environment", func(t *testing.T) {
		out, err := run(t, []string{"GUARDSH_TEST_MARK=1"}, "env")
		if err != nil || !strings.Contains(out, "GUARDSH_TEST_MARK=1") {
			t.Errorf("env: %v\n%s", err, out)
		}
	})
}

// FuzzClassifyMore is FuzzClassify's promise for moreReadOnlyPrograms: a
// call judged read-only with run-time words stays read-only for any
// value of them.
func FuzzClassifyMore(f *testing.F) {
	for _, prog := range moreReadOnlyPrograms {
		f.Add(prog.Name + "\x1f\x00")
		for _, s := range prog.Sub {
			f.Add(prog.Name + "\x1f" + s.Name + "\x1fx\x00")
		}
	}
	f.Add("lsof\x1f-i\x1f:80\x00")
	f.Add("env\x1f-u\x1fX\x00")
	f.Add("kubectl\x1fget\x1fpods\x1f-l\x1fx\x00")
	f.Fuzz(func(t *testing.T, subject string) {
		words := strings.Split(subject, "\x1f")
		if len(subject) > 200 {
			return
		}
		c, why, _ := classifyExec(words, nil)
		if c != ReadOnly || !strings.Contains(subject, Hole) {
			return
		}
		for _, fill := range []string{"-o out", "--kubeconfig=k -H x", "@evil", "a b c", "-D b", "-S sh", "-x rm", "flush"} {
			inst := instantiateWords(words, fill)
			if ci, whyi, _ := classifyExec(inst, nil); ci != ReadOnly {
				t.Fatalf("%q is read-only (%s) but %q is %s (%s)", words, why, inst, ci, whyi)
			}
		}
	})
}

// The two fields the extended table added to program: Only (an
// allowlist of options) and ExcludeText (substrings no argument may
// hold).
func TestProgramOnlyAndExcludeText(t *testing.T) {
	only := &program{Name: "p", Source: "test", HoleSafe: true, ArgShort: "o", Only: []string{"-a", "-q", "-o", "--format"}}
	text := &program{Name: "p", Source: "test", PlusOptions: true, ExcludeText: []string{"@"}}
	for _, tc := range []struct {
		prog *program
		args []string
		want Class
	}{
		{only, w("-a", "-q"), ReadOnly},
		{only, w("-aq"), ReadOnly},             // a cluster, letter by letter
		{only, w("-ojson"), ReadOnly},          // the rest of the cluster is -o's argument
		{only, w("-ao", "-x"), ReadOnly},       // and so is the next word
		{only, w("--format", "x"), ReadOnly},   // the long option by its full name
		{only, w("--format={{.}}"), ReadOnly},  // with "=value"
		{only, w("--form=x"), Sensitive},       // no abbreviation
		{only, w("-x"), Sensitive},             // not listed
		{only, w("-ax"), Sensitive},            // in a cluster too
		{only, w("--output=x"), Sensitive},     // not listed
		{only, w(Hole), Sensitive},             // could be any option
		{only, w("-" + Hole), Sensitive},       // could be any option
		{only, w("x" + Hole), ReadOnly},        // an operand
		{only, w("--", "-x"), ReadOnly},        // an operand after --
		{text, w("-i", ":80"), ReadOnly},       // no "@"
		{text, w("-i@host"), Sensitive},        // in an option
		{text, w("-i", "TCP@host"), Sensitive}, // in an option's argument
		{text, w("--", "a@b"), Sensitive},      // in an operand
		{text, w("+D", "dir"), ReadOnly},       // plus options
		{text, w("x" + Hole), Sensitive},       // a run-time part could hold it
	} {
		if c, why, _ := tc.prog.check("p", tc.args); c != tc.want {
			t.Errorf("%v %q: %s (%s), want %s", tc.prog.Only, tc.args, c, why, tc.want)
		}
	}
}
