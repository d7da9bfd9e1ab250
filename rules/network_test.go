package rules

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"
)

func TestNetworkUse(t *testing.T) {
	for _, tc := range []struct {
		words []string
		want  bool
	}{
		// Programs whose every call uses the network.
		{w("curl", "-fsSL", "https://example.com"), true},
		{w("/usr/bin/curl", "x"), true},
		{w("wget", "-qO-", "x"), true},
		{w("ssh", "host", "ls"), true},
		{w("sftp", "host"), true},
		{w("nc", "-l", "8080"), true},
		{w("ncat", "host", "80"), true},
		{w("netcat", "host", "80"), true},
		{w("socat", "-", "TCP:host:80"), true},
		{w("telnet", "host"), true},
		{w("ftp", "host"), true},
		{w("ping", "-c1", "host"), true},
		{w("dig", "example.com"), true},
		{w("gh", "pr", "list"), true},
		{w("gh", "--version"), true},
		{w("npx", "create-react-app", "x"), true},
		{w("bunx", "x"), true},
		{w("uvx", "ruff"), true},

		// scp and rsync: when an operand is on another host.
		{w("scp", "a", "host:/tmp/a"), true},
		{w("scp", "-P", "2222", "user@host:a", "."), true},
		{w("scp", "scp://host/a", "."), true},
		{w("scp", "a", "b"), false},
		{w("scp", "./a:b", "c"), false}, // a ':' after a '/' is local
		{w("rsync", "-av", "src/", "host:dst/"), true},
		{w("rsync", "-av", "rsync://mirror/x", "."), true},
		{w("rsync", "-av", "host::module", "."), true},
		{w("rsync", "--daemon"), true},
		{w("rsync", "-a", "src/", "dst/"), false},
		{w("rsync", "-a", "src/", Hole), true},

		// git.
		{w("git", "push"), true},
		{w("git", "push", "--force", "origin", "main"), true},
		{w("git", "fetch", "--all"), true},
		{w("git", "pull", "--rebase"), true},
		{w("git", "clone", "https://example.com/r.git"), true},
		{w("git", "ls-remote", "origin"), true},
		{w("git", "-C", "sub", "push"), true},
		{w("git", "-c", "http.proxy=x", "fetch"), true},
		{w("git", "--git-dir", ".git", "pull"), true},
		{w("git", "--git-dir=.git", "pull"), true},
		{w("git", "--no-pager", "fetch"), true},
		{w("git", "submodule", "update", "--init"), true},
		{w("git", "submodule", "--quiet", "update"), true},
		{w("git", "submodule", "add", "https://x", "x"), true},
		{w("git", "submodule", "status"), false},
		{w("git", "submodule"), false},
		{w("git", "remote", "update"), true},
		{w("git", "remote", "show", "origin"), true},
		{w("git", "remote", "-v"), false},
		{w("git", "remote", "add", "o", "x"), false},
		{w("git", "archive", "--remote=x", "HEAD"), true},
		{w("git", "archive", "HEAD"), false},
		{w("git", "lfs", "pull"), true},
		{w("git", "lfs", "ls-files"), false},
		{w("git", "status"), false},
		{w("git", "log", "--oneline"), false},
		{w("git", "commit", "-m", "push"), false},
		{w("git", "-C", "push", "status"), false}, // "push" is -C's directory
		{w("git", Hole), true},
		{w("git", "-C", "x", Hole), true},
		{w("git", "log", Hole), false},

		// Package managers.
		{w("npm", "install"), true},
		{w("npm", "i", "left-pad"), true},
		{w("npm", "ci"), true},
		{w("npm", "add", "x"), true},
		{w("npm", "update"), true},
		{w("npm", "publish"), true},
		{w("npm", "view", "x"), true},
		{w("npm", "outdated"), true},
		{w("npm", "exec", "x"), true},
		{w("npm", "-g", "install", "x"), true},
		{w("npm", "--prefix", "./sub", "install"), true},
		{w("npm", "--prefix=./sub", "ci"), true},
		{w("npm", "init", "react-app", "x"), true},
		{w("npm", "init", "-y"), false},
		{w("npm", "test"), false},
		{w("npm", "run", "build"), false},
		{w("npm", "ls"), false},
		{w("npm", "--version"), false},
		{w("npm", Hole), true},
		{w("pnpm", "install"), true},
		{w("pnpm", "add", "-D", "x"), true},
		{w("pnpm", "dlx", "x"), true},
		{w("pnpm", "store", "add", "x"), true},
		{w("pnpm", "store", "path"), false},
		{w("pnpm", "run", "build"), false},
		{w("yarn"), true}, // installs
		{w("yarn", "--frozen-lockfile"), true},
		{w("yarn", "--version"), false},
		{w("yarn", "add", "x"), true},
		{w("yarn", "dlx", "x"), true},
		{w("yarn", "npm", "publish"), true},
		{w("yarn", "npm", "whoami"), true},
		{w("yarn", "test"), false},
		{w("bun", "install"), true},
		{w("bun", "add", "x"), true},
		{w("bun", "x", "cowsay"), true},
		{w("bun", "test"), false},
		{w("pip", "install", "requests"), true},
		{w("pip3", "download", "x"), true},
		{w("pip3.11", "install", "x"), true},
		{w("pip", "list"), true}, // the self version check
		{w("pip", "show", "x"), false},
		{w("pip", "freeze"), false},
		{w("python3", "-m", "pip", "install", "x"), true},
		{w("python", "-mpip", "install", "x"), true},
		{w("python3", "-u", "-m", "pip", "download", "x"), true},
		{w("python3", "-Im", "pip", "install", "x"), true},
		{w("python3", "-W", "ignore", "-m", "pip", "install", "x"), true},
		{w("python3", "-m", "pip", "show", "x"), false},
		{w("python3", "-m", "venv", ".venv"), false},
		{w("python3", "-c", "import pip"), false},
		{w("python3", "script.py", "-m", "pip", "install"), false},
		{w("python3", Hole), true},
		{w("python3", "-m", Hole, "install"), true},
		{w("pipx", "run", "x"), true},
		{w("uv", "add", "x"), true},
		{w("uv", "pip", "install", "x"), true},
		{w("uv", "pip", "list"), false},
		{w("cargo", "install", "ripgrep"), true},
		{w("cargo", "publish"), true},
		{w("cargo", "fetch"), true},
		{w("cargo", "+nightly", "install", "x"), true},
		{w("cargo", "build"), false},
		{w("go", "install", "golang.org/x/tools/cmd/goimports@latest"), true},
		{w("go", "get", "example.com/m@v1"), true},
		{w("go", "mod", "download"), true},
		{w("go", "mod", "tidy"), true},
		{w("go", "mod", "graph"), false},
		{w("go", "test", "./..."), false},
		{w("go", "vet", "./..."), false},
		{w("apt", "install", "x"), true},
		{w("apt-get", "update"), true},
		{w("apt-get", "-y", "install", "x"), true},
		{w("apt-get", "-o", "Dpkg::Options::=--force-confnew", "install", "x"), true},
		{w("apt", "list", "--installed"), false},
		{w("apt-cache", "show", "x"), false},
		{w("brew", "install", "x"), true},
		{w("brew", "update"), true},
		{w("brew", "list"), false},
		{w("gem", "install", "x"), true},
		{w("bundle", "install"), true},

		// docker and podman.
		{w("docker", "pull", "alpine"), true},
		{w("docker", "push", "x"), true},
		{w("docker", "login"), true},
		{w("docker", "run", "--rm", "alpine"), true},
		{w("docker", "build", "."), true},
		{w("docker", "compose", "up"), true},
		{w("docker", "compose", "ps"), false},
		{w("docker", "image", "pull", "x"), true},
		{w("docker", "image", "ls"), false},
		{w("docker", "buildx", "build", "."), true},
		{w("docker", "ps"), false},
		{w("docker", "logs", "-f", "web"), false},
		{w("docker", "-H", "ssh://host", "ps"), true},
		{w("docker", "--host=tcp://h:2375", "ps"), true},
		{w("docker", "-Htcp://h:2375", "ps"), true},
		{w("docker", "--context", "remote", "ps"), true},
		{w("docker", "-l", "debug", "ps"), false},
		{w("docker", "--config", "cfg", "pull", "x"), true},
		{w("podman", "pull", "x"), true},
		{w("podman", "--remote", "ps"), true},
		{w("podman", "ps"), false},

		// Not network programs.
		{w("ls", "-la"), false},
		{w("cat", "x"), false},
		{w("kubectl", "get", "pods"), false},
		{nil, false},
		{w(Hole, "x"), true},
		{w("cu" + Hole), true},
	} {
		t.Run(shown(strings.Join(tc.words, " ")), func(t *testing.T) {
			if got := networkUse(tc.words); got != tc.want {
				t.Errorf("networkUse(%q) = %v (%s), want %v", tc.words, got, networkSource(tc.words), tc.want)
			}
		})
	}
}

// Every entry of networkPrograms says where it comes from, and a program
// read-only in the built-in table is never a network program called as
// its read-only entry allows (tested on the read-only calls of
// moreCases).
func TestNetworkProgramsTable(t *testing.T) {
	for name, c := range networkPrograms() {
		if c.Source == "" {
			t.Errorf("%s has no Source", name)
		}
		if !c.All && !c.Remote && c.Sub == nil {
			t.Errorf("%s: neither All, Remote nor Sub", name)
		}
	}
	for _, tc := range moreCases {
		if tc.want == ReadOnly && networkUse(tc.words) && !strings.Contains(strings.Join(tc.words, " "), Hole) {
			t.Errorf("%q is read-only and a network use (%s)", tc.words, networkSource(tc.words))
		}
	}
}

// TestNetworkNames: networkName names exactly the programs networkPrograms
// has an entry for (its case list read from network.go).
func TestNetworkNames(t *testing.T) {
	table := networkPrograms()
	for name := range table {
		if !networkName(name) {
			t.Errorf("%s is in networkPrograms but not networkName", name)
		}
	}
	f, err := goparser.ParseFile(token.NewFileSet(), "network.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "networkName" {
			ast.Inspect(fn, func(x ast.Node) bool {
				if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					name, _ := strconv.Unquote(lit.Value)
					n++
					if _, ok := table[name]; !ok {
						t.Errorf("networkName lists %q, networkPrograms has no entry", name)
					}
				}
				return true
			})
		}
	}
	if n != len(table) {
		t.Errorf("networkName lists %d names, networkPrograms has %d", n, len(table))
	}
}
