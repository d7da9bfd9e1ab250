// Package sysbin finds the programs guardsh runs itself (git, to read a
// config's includes; tmux, for an approval popup) in the system's
// directories rather than on PATH: an agent's shell may put a workspace
// or virtual environment directory first on PATH, and a jailed command
// may write there (attack run 84: a jailed command wrote .venv/bin/git,
// and the next guardsh ran it unjailed).
package sysbin

import (
	"fmt"
	"os"
	"strings"
	"sync"
)

// Dirs are the directories searched, in order: those of the system and
// its package managers (Debian's and Fedora's /usr/bin and /bin,
// /usr/local/bin, Homebrew's /opt/homebrew/bin).
var Dirs = []string{"/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"}

var (
	mu    sync.Mutex
	found = map[string]string{}
)

// Path returns the first regular, executable file named name in Dirs,
// looked up once per process, or an error naming the directories when
// none holds one.
func Path(name string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if p, ok := found[name]; ok {
		if p == "" {
			return "", notFound(name)
		}
		return p, nil
	}
	for _, d := range Dirs {
		p := d + "/" + name
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			found[name] = p
			return p, nil
		}
	}
	found[name] = ""
	return "", notFound(name)
}

func notFound(name string) error {
	return fmt.Errorf("no %s in %s", name, strings.Join(Dirs, ", "))
}
