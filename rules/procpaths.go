package rules

import "strings"

// procPath reads a path under /proc/ or /dev/fd/ as the command would see
// it, not as guardsh's own process does: /proc/self/cwd (and
// /proc/thread-self/cwd) is the command's working directory cwd, and
// /proc/self/root is "/". It returns the path rewritten and true, or, for
// any other path there (another process's cwd or root, a file descriptor,
// /proc/self/fd/N, whose targets are only known at run time), the part
// after that link ("" when there is none) and false. A path elsewhere is
// returned unchanged with true. cwd "" means the working directory is
// unknown.
func procPath(p, cwd string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		if r, fd := strings.CutPrefix(p, "/dev/fd/"); fd {
			return afterLink(r), false
		}
		return p, true
	}
	proc, rest, _ := strings.Cut(rest, "/")
	link, rest, _ := strings.Cut(rest, "/")
	self := proc == "self" || proc == "thread-self"
	switch {
	case self && link == "cwd" && cwd != "":
		return strings.TrimSuffix(cwd, "/") + "/" + rest, true
	case self && link == "root":
		return "/" + rest, true
	case link == "cwd" || link == "root":
		return rest, false
	case link == "fd" || link == "task" || link == "map_files":
		return afterLink(rest), false
	}
	return p, true // /proc/cpuinfo, /proc/self/status: plain files
}

// afterLink drops the first component (a descriptor number) of rest.
func afterLink(rest string) string {
	_, after, _ := strings.Cut(rest, "/")
	return after
}
