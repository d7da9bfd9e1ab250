package rules

import (
	"path"
	"strings"
)

// A deny or ask rule may name its program by a path ("/opt/tools/deploy
// nuke*"). bash runs that program under other spellings too — relative
// (`./deploy` in /opt/tools), with "." or ".." or a doubled slash, through
// a link to it (`./bin/dep`, a link to /opt/tools/deploy), or by its name
// alone when PATH leads there — and a rule that only met the path as
// written was evaded by all of them (in mode bypass, or jailed by the
// sandbox, they ran). Such rules are also matched against the program's
// absolute path, cleaned and resolved, and a name that may be such a
// program (a bare name, or a relative path in a directory only known at
// run time) could match them: it asks.

// addPathProgram files pattern, a deny or ask shell rule, in
// p.pathPrograms when its program word holds a '/'.
func (p *Policy) addPathProgram(pattern string) {
	prog, _, _ := strings.Cut(pattern, " ")
	i := strings.LastIndexByte(prog, '/')
	if i < 0 || strings.HasPrefix(prog, "~") && !strings.Contains(prog[1:], "/") {
		return
	}
	base := prog[i+1:]
	if base == "" || strings.ContainsAny(base, "*?[") {
		base = "*"
	}
	if p.pathPrograms == nil {
		p.pathPrograms = map[string][]string{}
	}
	p.pathPrograms[base] = append(p.pathPrograms[base], prog)
}

// programPathForms merges into h the deny and ask rules that name their
// program by a path and match words (an exec subject's) under another
// spelling of that program: its absolute path, cleaned and with its links
// resolved (and their "~" forms), definitely — cwd is the working
// directory, "" when only known at run time; the rules' own program paths
// for a bare name or a relative path whose directory is unknown, as
// could-matches (a deny could match; an ask asks). It reports whether a
// could-match came from such a name.
func (p *Policy) programPathForms(h *hits, words []string, cwd, home string, lk *Lookups) (maybe bool) {
	if len(p.pathPrograms) == 0 || len(words) == 0 || strings.Contains(words[0], Hole) {
		return false
	}
	w0 := words[0]
	abs := ""
	switch {
	case strings.HasPrefix(w0, "/"):
		abs = w0
	case strings.Contains(w0, "/") && cwd != "":
		abs = cwd + "/" + w0
	}
	if abs != "" {
		cleaned := path.Clean(abs)
		resolved, _ := resolve(lk, cleaned)
		var forms []form
		for _, prog := range []string{cleaned, resolved} {
			if prog != w0 {
				forms = linkForms(forms, append([]string{prog}, words[1:]...), home)
			}
			if resolved == cleaned {
				break
			}
		}
		for _, f := range forms {
			p.mergeForm(h, f)
			if f.definite && p.optionable {
				p.matchOptions(f.words, h)
			}
		}
		return false
	}
	// A bare name, or a relative path in a directory only known at run
	// time: it may be any program of that name the rules name by a path.
	name := w0[strings.LastIndexByte(w0, '/')+1:]
	progs := p.pathPrograms[name]
	for _, g := range p.pathPrograms["*"] {
		progs = append(progs[:len(progs):len(progs)], g[:strings.LastIndexByte(g, '/')+1]+name)
	}
	for _, prog := range progs {
		fh := p.matchExec(append([]string{prog}, words[1:]...))
		if d := minHit(fh.deny, fh.could); d >= 0 && (h.could < 0 || d < h.could) {
			h.could, maybe = d, true
		}
		h.ask = minHit(h.ask, fh.ask)
	}
	return maybe
}

// fdProgram reports whether w0, a command's program as written (relative
// to cwd, "" when only known at run time), names an open file descriptor
// rather than a file: /dev/fd/N, /proc/self/fd/N (or a process's, or the
// thread's), /dev/stdin. Such a program is whatever file the command (or
// its caller) opened there — `/dev/fd/3 nuke 3< /opt/tools/deploy` ran a
// program a deny rule names under no name the rules see — so every deny
// rule whose arguments match could match it.
func fdProgram(w0, cwd string) bool {
	if !strings.Contains(w0, "/") || strings.Contains(w0, Hole) {
		return false
	}
	p := w0
	if !strings.HasPrefix(p, "/") {
		if cwd == "" {
			return false
		}
		p = cwd + "/" + p
	}
	p = path.Clean(p)
	switch p {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	if strings.HasPrefix(p, "/dev/fd/") {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		_, after, ok := strings.Cut(rest, "/")
		return ok && strings.HasPrefix(after, "fd/")
	}
	return false
}
