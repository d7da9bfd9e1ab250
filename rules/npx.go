package rules

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// localPackageBin returns the program `npx [-y|--yes|--no|--no-install|
// -q|--quiet] NAME …` (words) runs in working directory cwd without
// contacting a registry: DIR/node_modules/.bin/NAME, for the first DIR
// from cwd up to the workspace root where that name is a file (a link
// followed). npm exec looks in the project's node_modules/.bin first and
// runs what it finds there (npm-exec(1), libnpmexec); only a name it does
// not find is fetched. "" when npx might fetch: a version (`tsc@5`), a
// scope or path in the name, `-p`/`--package`, `-c` or any other option,
// no such file, a cwd outside the workspace, or words that are not npx.
//
// What it finds is the project's own code, which a jailed command may
// have written: it is run as an interpreter is (asked, or jailed by the
// sandbox), never as the read-only tool the name may suggest.
func localPackageBin(words []string, cwd, workspace string, lk *Lookups) string {
	if len(words) < 2 || path.Base(words[0]) != "npx" || cwd == "" || workspace == "" || !within(cwd, workspace) {
		return ""
	}
	i := 1
	for i < len(words) && (words[i] == "-y" || words[i] == "--yes" || words[i] == "--no" ||
		words[i] == "--no-install" || words[i] == "-q" || words[i] == "--quiet") {
		i++
	}
	name := ""
	if i < len(words) {
		name = words[i]
	}
	if !plainBinName(name) {
		return ""
	}
	for dir := cwd; ; dir = filepath.Dir(dir) {
		bin := filepath.Join(dir, "node_modules", ".bin")
		if lk.has(bin, name) {
			p := filepath.Join(bin, name)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
		if dir == workspace || dir == "/" {
			return ""
		}
	}
}

// plainBinName reports whether name can only be an installed program's
// name as npx reads it: letters, digits, '.', '_' and '-', not starting
// with '-' or '.' (no version after '@', no scope, no path, no option).
func plainBinName(name string) bool {
	if name == "" || name[0] == '-' || name[0] == '.' {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}) < 0
}
