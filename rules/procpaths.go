package rules

import (
	"path"
	"strings"
)

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
	p = squeeze(p)
	for _, self := range []string{"/proc/self/", "/proc/thread-self/"} {
		// ".." after the command's own cwd or root link is below what the
		// link leads to, as after any link (attack run 82: `rm -r
		// /proc/self/cwd/../.ssh` in CI was a path in an unknown
		// directory, which mode bypass runs).
		// One that leads back under /proc is left to what follows.
		if rest, ok := strings.CutPrefix(p, self+"cwd/"); ok && cwd != "" {
			if r := strings.TrimSuffix(cwd, "/") + "/" + rest; !isProcPath(path.Clean(r)) {
				return r, true
			}
		}
		if rest, ok := strings.CutPrefix(p, self+"root/"); ok {
			if r := "/" + rest; !isProcPath(path.Clean(r)) {
				return r, true
			}
		}
	}
	if procDotDot(p) {
		// /proc/self/../self/cwd, /proc/net/../cwd (net is a link to
		// self/net), /sys/../proc/self/cwd: where ".." leads under /proc
		// depends on links guardsh would resolve in its own process, not
		// the command's (attack run 33 read the key after `cd ..`). What
		// follows the last cwd or root component (or the last "..") is
		// a path in an unknown directory.
		parts := strings.Split(p, "/")
		at := -1
		for i, c := range parts {
			if c == "cwd" || c == "root" || c == ".." {
				at = i
			}
		}
		rest := strings.Join(parts[at+1:], "/")
		if rest == "" {
			rest = "."
		}
		return rest, false
	}
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		if r, fd := strings.CutPrefix(p, "/dev/fd/"); fd {
			return afterLink(r), false
		}
		for _, std := range []string{"/dev/stdin/", "/dev/stdout/", "/dev/stderr/"} {
			if r, in := strings.CutPrefix(p, std); in {
				return r, false // /dev/fd/N/…
			}
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
		return procPath("/"+rest, cwd) // /proc/self/root/proc/self/cwd
	case link == "cwd" || link == "root":
		return rest, false
	case link == "fd" || link == "task" || link == "map_files":
		return afterLink(rest), false
	}
	return p, true // /proc/cpuinfo, /proc/self/status: plain files
}

// isProcPath reports whether p lies under /proc/ or /dev/fd/, or below
// /dev/stdin, /dev/stdout or /dev/stderr (links to /dev/fd/N, attack run
// 34: `cat /dev/stdin/../.ssh/id_rsa < .`), however spelled (//proc/,
// /proc/./), or could through ".." (see procDotDot).
func isProcPath(p string) bool {
	if !mayBeProc(p) {
		return false
	}
	s := squeeze(p)
	return strings.HasPrefix(s, "/proc/") || strings.HasPrefix(s, "/dev/fd/") || strings.HasPrefix(s, "/dev/std") && stdDir(s) || procDotDot(s)
}

// mayBeProc reports whether p holds "proc", "fd", "self" or "/std", one
// of which every path isProcPath takes holds: one pass over p where four
// searches made isProcPath 3 % of deciding a command.
func mayBeProc(p string) bool {
	for i := 0; i < len(p); i++ {
		switch rest := p[i:]; p[i] {
		case 'p':
			if strings.HasPrefix(rest, "proc") {
				return true
			}
		case 'f':
			if strings.HasPrefix(rest, "fd") {
				return true
			}
		case 's':
			if strings.HasPrefix(rest, "self") {
				return true
			}
		case '/':
			if strings.HasPrefix(rest, "/std") {
				return true
			}
		}
	}
	return false
}

// stdDir reports a squeezed path below /dev/stdin, /dev/stdout or
// /dev/stderr (not one of them itself: a file to read or write).
func stdDir(s string) bool {
	for _, std := range []string{"/dev/stdin/", "/dev/stdout/", "/dev/stderr/"} {
		if strings.HasPrefix(s, std) && len(s) > len(std) {
			return true
		}
	}
	return false
}

// perProcess reports whether the path p, a symbolic link met resolving a
// path, is one of the per-process views whose target depends on the
// process that resolves it — guardsh's own descriptors, working directory
// and root here, not the command's: under /proc/, /dev/fd (and below it),
// /dev/stdin, /dev/stdout, /dev/stderr. A resolution stops there (see
// resolveProbing).
func perProcess(p string) bool {
	switch p {
	case "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	return strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/dev/fd/")
}

// procDotDot reports a squeezed path holding ".." and a component of the
// per-process views (proc, fd, self, thread-self): /sys/../proc/self/cwd,
// /proc/self/../self/cwd.
func procDotDot(s string) bool {
	dots, procish := false, false
	for _, c := range strings.Split(s, "/") {
		switch c {
		case "..":
			dots = true
		case "proc", "fd", "self", "thread-self", "stdin", "stdout", "stderr":
			procish = true
		}
	}
	return dots && procish
}

// squeeze drops empty and "." components from p (//proc/self/./cwd is
// /proc/self/cwd); ".." is left alone, since after a link it is the
// link target's parent.
func squeeze(p string) string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for i, c := range parts {
		if (c == "" && i > 0) || c == "." {
			continue
		}
		out = append(out, c)
	}
	s := strings.Join(out, "/")
	if strings.HasSuffix(p, "/") && !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// afterLink drops the first component (a descriptor number) of rest.
func afterLink(rest string) string {
	_, after, _ := strings.Cut(rest, "/")
	return after
}

// otherDescriptor reports a path naming a descriptor of a process other
// than the one resolving it (/proc/PID/fd/N, /proc/PID/task/TID/fd/N,
// PID a number or only known at run time), returned squeezed.
func otherDescriptor(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") || !strings.Contains(p, "proc/") {
		// squeeze keeps a leading "" component only, and the "proc" one
		// is followed by a '/' in p: no /proc/… after squeezing.
		return "", false
	}
	s := squeeze(p)
	rest, ok := strings.CutPrefix(s, "/proc/")
	if !ok {
		return "", false
	}
	proc, rest, _ := strings.Cut(rest, "/")
	if proc == "self" || proc == "thread-self" || proc == "" {
		return "", false
	}
	if t, ok := strings.CutPrefix(rest, "task/"); ok {
		_, rest, _ = strings.Cut(t, "/")
	}
	if !strings.HasPrefix(rest, "fd/") {
		return "", false
	}
	return s, true
}
