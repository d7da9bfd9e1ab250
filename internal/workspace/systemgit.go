package workspace

import "github.com/guardsh/guardsh/internal/sysbin"

// SystemGit returns the path of the git guardsh runs itself (to read a
// config's includes, a repository's hooks path): sysbin.Path("git"),
// never one found on PATH; an error when there is none, and callers then
// read the files as guardsh reads them without git.
func SystemGit() (string, error) { return sysbin.Path("git") }
