package interp

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// Files read by source and "." (agents source a shell snapshot before
// every command).
//
// `source FILE` or `. FILE` with a static absolute FILE (after tilde
// expansion) that is a readable regular file of at most MaxTextSize bytes
// is analysed like the rest of the text: its top-level commands become
// segments with Via "source FILE" and Sourced set to FILE. The functions
// it defines are remembered, not analysed where they are defined: a later
// call of one by its literal name, in the file or in the command text,
// analyses the body there (once per analysis); a body called from the
// command text is not Sourced, since the call is the caller's doing. Aliases it defines are not
// followed. A relative FILE (bash searches PATH for it), a FILE only known
// at run time, or one that cannot be read is left to the rules that match
// the source segment itself, as before.
//
// A file's analysis depends only on its content and on Options.Home, so it
// may be kept in a SourceCache between runs.

// SourceCache keeps the analyses of sourced files between analyses, keyed by
// a digest of the file's content and the analysis options. Get returns
// what Put stored under key, or false. A cache that cannot store simply
// forgets; neither method may block for long.
type SourceCache interface {
	Get(key string) ([]byte, bool)
	Put(key string, data []byte)
}

// sourceFormat names the encoding of a cached analysis; a change to the
// analysis or to Segment bumps it, so old entries are never read.
const sourceFormat = "guardsh-source-v7"

// sourcedFile is one file's analysis, as cached.
type sourcedFile struct {
	Segments []Segment          `json:"segments"`
	Funcs    map[string]funcDef `json:"funcs,omitempty"`
	Aliases  map[string]string  `json:"aliases,omitempty"`
}

// funcDef is a function a sourced file defines: its body's text, the line
// of the definition in the file, and whether it is POSIX sh code.
type funcDef struct {
	Body  string `json:"body"`
	Line  int    `json:"line"`
	POSIX bool   `json:"posix,omitempty"`
}

// source analyses the file a source or . segment (the command name) reads,
// named by word file at offset off of f: read is its absolute path and key
// its SourceKey. ok is false when it cannot be read now (see locate), and
// the segment is left to its rules.
func (a *analyzer) source(name, file string, off int, f *frame) (read, key string, ok bool) {
	path, ok := a.locate(file, f, !strings.Contains(file, "/"))
	if !ok {
		return "", "", false
	}
	if a.opt.Secret != nil && a.opt.Secret(path) {
		return "", "", false
	}
	data, ok := readScript(path, a.opt.Secret)
	if ok && bytes.Contains(data, []byte("trap")) {
		a.trapMay = true // see analyzer.trapMay
	}
	if !ok {
		return "", "", false
	}
	a.readFiles = true
	key = sourceKey(data, a.opt.Home, f.posix)
	cacheable := a.sourceData(name, path, key, data, off, f)
	if !cacheable {
		key = ""
	}
	return path, key, a.err == nil
}

// locate returns the absolute, cleaned path of a file a command of the
// text reads as code, when that is known now: an absolute path, or one
// relative to Options.Dir while no cd came before it (bash's source looks
// a name without a slash up on PATH first, with search). It is not known
// when an earlier command of the text (or a redirection of this one)
// names the same file: what it holds when it runs is not what it holds
// now.
func (a *analyzer) locate(file string, f *frame, search bool) (string, bool) {
	if file == "" || strings.Contains(file, Hole) {
		return "", false
	}
	p := file
	if !filepath.IsAbs(p) {
		if a.opt.Dir == "" || a.opt.DirChanged || a.firstCd >= 0 || f.deferred {
			return "", false
		}
		p = filepath.Join(a.opt.Dir, p)
		if search {
			for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
				if filepath.IsAbs(dir) {
					if fi, err := os.Stat(filepath.Join(dir, file)); err == nil && fi.Mode().IsRegular() {
						p = filepath.Join(dir, file)
						break
					}
				}
			}
		}
	}
	p = filepath.Clean(p)
	real := ""
	for _, s := range a.segs[:min(a.callStart, len(a.segs))] {
		if s.Kind == Read {
			continue // reading a file leaves it as it is
		}
		if writesUnnamed(s.Args) {
			// It changes files its words do not name (attack run 84:
			// git merge br && source x.sh, sed -n 'w x.sh' f && source
			// x.sh were decided on x.sh as it was).
			return "", false
		}
		for _, w := range s.Args {
			v := w.Value
			if strings.Contains(v, Hole) {
				continue
			}
			// An operand NAME=PATH (dd of=PATH) names PATH.
			if i := strings.IndexByte(v, '='); i > 0 && !strings.HasPrefix(v, "-") {
				v = v[i+1:]
			}
			if v == "" {
				continue
			}
			if !filepath.IsAbs(v) {
				if a.opt.Dir == "" {
					continue
				}
				v = filepath.Join(a.opt.Dir, v)
			}
			v = filepath.Clean(v)
			// The file itself, or its directory (cp x DIR/ writes DIR/x).
			if v == p || v == filepath.Dir(p) {
				return "", false
			}
			// A link to it (echo … > link).
			if real == "" {
				if real, _ = filepath.EvalSymlinks(p); real == "" {
					real = p
				}
			}
			if r, err := filepath.EvalSymlinks(v); err == nil && (r == real || r == filepath.Dir(real)) {
				return "", false
			}
		}
	}
	return p, true
}

// writesUnnamed reports a command (its argv) that writes files its words
// do not name: git's subcommands that change the work tree (merge, pull,
// cherry-pick, rebase, revert, stash, am, apply, checkout, switch, reset,
// restore, read-tree, checkout-index, sparse-checkout, submodule, bisect,
// worktree, clone, init), programs that unpack or patch (patch, tar,
// bsdtar, unzip, cpio, rsync, 7z), and sed with a w command or a
// w or W flag in its script (any word of it holding "w").
func writesUnnamed(args []Word) bool {
	if len(args) == 0 {
		return false
	}
	name := filepath.Base(args[0].Value)
	switch name {
	case "patch", "tar", "bsdtar", "gtar", "unzip", "cpio", "rsync", "7z", "7za":
		return true
	case "sed", "gsed":
		for _, w := range args[1:] {
			if !strings.HasPrefix(w.Value, "-") && strings.ContainsAny(w.Value, "wW") {
				return true
			}
		}
	case "git":
		for _, w := range args[1:] {
			switch w.Value {
			case "merge", "pull", "cherry-pick", "rebase", "revert", "stash", "am", "apply", "checkout", "switch",
				"reset", "restore", "read-tree", "checkout-index", "sparse-checkout", "submodule", "bisect", "worktree", "clone", "init":
				return true
			}
		}
	}
	return false
}

// readScript reads the file at the absolute path for analysis: a regular
// file of at most MaxTextSize bytes that neither is nor passes through
// /proc, /sys or /dev (whose "regular" files may block a reader forever,
// /proc/kmsg for one, and whose /dev/fd and /proc/self name guardsh's own
// files, not bash's), and not a secret: when secret is not nil it is asked
// about the file opened, named as the kernel resolved it, so that a link
// swapped between an earlier check and the read is seen. ok is false for
// anything else.
func readScript(path string, secret func(string) bool) (data []byte, ok bool) {
	real, ok := resolveOutsideKernel(path)
	if !ok {
		return nil, false
	}
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if secret != nil {
		opened, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
		if err != nil || secret(opened) {
			return nil, false
		}
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() > MaxTextSize {
		return nil, false
	}
	// Read what Stat promised, and one byte more to see the file grew.
	data = make([]byte, info.Size()+1)
	n, err := io.ReadFull(f, data)
	if err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, false // grew since Stat (or failed): not a stable text
	}
	return data[:n], true
}

// resolveOutsideKernel resolves the symlinks of the absolute path one by
// one, and refuses a path that is, or whose resolution passes through,
// /proc, /sys or /dev.
func resolveOutsideKernel(path string) (string, bool) {
	kernel := func(p string) bool {
		for _, dir := range []string{"/proc", "/sys", "/dev"} {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				return true
			}
		}
		return false
	}
	if !filepath.IsAbs(path) {
		return "", false
	}
	todo := strings.Split(filepath.Clean(path), "/")[1:]
	cur := "/"
	for hops := 0; len(todo) > 0; {
		next := filepath.Join(cur, todo[0])
		todo = todo[1:]
		if kernel(next) {
			return "", false
		}
		fi, err := os.Lstat(next)
		if err != nil {
			return "", false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > 40 {
			return "", false
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		if kernel(filepath.Clean(target)) {
			return "", false
		}
		todo = append(strings.Split(filepath.Clean(target), "/")[1:], todo...)
		cur = "/"
	}
	return cur, !kernel(cur)
}

// sourceData is source once the file is read. It reports whether the
// file's analysis depends on its content alone (it read no other file), so
// that it may be cached and recorded clear.
func (a *analyzer) sourceData(name, path, key string, data []byte, off int, f *frame) bool {
	if a.opt.Vouch != nil && a.opt.Sources != nil && len(a.aliases) == 0 && len(a.pendingAliases) == 0 && a.opt.Vouch(name, path, key) {
		if raw, ok := a.opt.Sources.Get(funcsKey(key)); ok {
			// "FUNC FUNC …\nALIAS ALIAS …\n", the aliases as JSON and
			// "\n", then the function definitions as JSON: each decoded
			// only when one of its names is used.
			names, rest, ok1 := bytes.Cut(raw, []byte("\n"))
			aliasNames, rest, ok2 := bytes.Cut(rest, []byte("\n"))
			aliases, defs, ok3 := bytes.Cut(rest, []byte("\n"))
			if ok1 && ok2 && ok3 {
				// Sized once: a snapshot defines hundreds of functions
				// and aliases, and a map grown step by step clears a new
				// table at each step (fresh memory, what a fresh process
				// pays most for).
				if a.pending == nil && len(names) > 0 {
					a.pending = make(map[string][]byte, bytes.Count(names, []byte(" "))+1)
				}
				for n := range strings.FieldsSeq(string(names)) {
					a.pending[n] = defs
				}
				if a.pendingAliases == nil && len(aliasNames) > 0 {
					a.pendingAliases = make(map[string][]byte, bytes.Count(aliasNames, []byte(" "))+1)
				}
				for n := range strings.FieldsSeq(string(aliasNames)) {
					a.pendingAliases[n] = aliases
				}
				return true
			}
		}
	}
	via := "source " + path
	line, col := f.pos(off)
	if f.depth+1 > a.opt.MaxDepth {
		a.err = &NotUnderstood{Line: line, Col: col, Reason: via + ": nested deeper than the depth limit"}
		return true
	}
	a.budget.parsed += len(data)
	if a.budget.parsedOver() {
		a.err = &NotUnderstood{Line: line, Col: col, Reason: via + ": too much nested code"}
		return true
	}
	var sf *sourcedFile
	// Aliases defined before the source apply inside the file: its
	// analysis then depends on more than its content, and is not cached.
	cache := a.opt.Sources
	if len(a.aliases) > 0 || len(a.pendingAliases) > 0 {
		a.loadAliases()
		cache = nil
	}
	if cache != nil {
		if raw, ok := cache.Get(key); ok {
			var cached sourcedFile
			if json.Unmarshal(raw, &cached) == nil {
				sf = &cached
			}
		}
	}
	cacheable := true
	if sf == nil {
		var err error
		sf, cacheable, err = a.analyseFile(path, string(data), f)
		if !cacheable {
			cache = nil // it read other files: its content alone does not decide it
		}
		if err != nil {
			var nu *NotUnderstood
			reason := err.Error()
			if errors.As(err, &nu) {
				reason = nu.Error()
			}
			a.err = &NotUnderstood{Line: line, Col: col, Reason: via + ": " + reason}
			return true
		}
		if cache != nil {
			if raw, err := json.Marshal(sf); err == nil {
				cache.Put(key, raw)
			}
			raw, err := json.Marshal(sf.Funcs)
			aliases, aerr := json.Marshal(sf.Aliases)
			if err == nil && aerr == nil {
				names := make([]string, 0, len(sf.Funcs))
				for n := range sf.Funcs {
					names = append(names, n)
				}
				aliasNames := make([]string, 0, len(sf.Aliases))
				for n := range sf.Aliases {
					aliasNames = append(aliasNames, n)
				}
				entry := append([]byte(strings.Join(names, " ")+"\n"+strings.Join(aliasNames, " ")+"\n"), aliases...)
				cache.Put(funcsKey(key), append(append(entry, '\n'), raw...))
			}
		}
	}
	base := len(a.segs)
	for _, s := range sf.Segments {
		if s.AfterCd > 0 {
			// The file's own index, made the command's.
			s.AfterCd += base
		}
		s.Via = append(append(append([]string(nil), f.via...), via), s.Via...)
		s.Line, s.Col = line, col
		if f.line > 0 {
			s.Line, s.Col = f.line, f.col
		}
		a.emit(s, f)
	}
	a.addFuncs(sf.Funcs)
	for n, v := range sf.Aliases {
		if a.defineAlias(n, v) {
			line, col := f.pos(off)
			a.err = cmp.Or(a.err, &NotUnderstood{Line: line, Col: col, Reason: "alias " + n + " redefined with another value by a sourced file: bash expands the value in force when it reads a line, which the analysis does not follow"})
			return cacheable
		}
	}
	return cacheable
}

func (a *analyzer) addFuncs(funcs map[string]funcDef) {
	for name, def := range funcs {
		if a.funcs == nil {
			a.funcs = map[string]funcDef{}
		}
		a.funcs[name] = def
	}
}

// funcsKey is the key of the functions alone of the file with key key.
func funcsKey(key string) string {
	h := sha256.Sum256([]byte("functions\x00" + key))
	return hex.EncodeToString(h[:])
}

// analyseFile analyses the text of a sourced file on its own: its segments
// (Sourced set to path) and the functions it defines.
//
// cacheable is false when the file read other files (source, scripts):
// then more than its content decides its analysis.
func (a *analyzer) analyseFile(path, text string, f *frame) (sf *sourcedFile, cacheable bool, err error) {
	sub := &analyzer{opt: a.opt, firstCd: -1, sourcing: path, aliases: maps.Clone(a.aliases)}
	sub.opt.MaxDepth = a.opt.MaxDepth - f.depth - 1
	sub.res = newResolver(a.opt.Home, &sub.budget, a.opt.general)
	sub.assume = &assumptions{home: a.opt.Home}
	top := &frame{src: text, lines: &lineIndex{}, mayRunCode: textMayRunCode(text), posix: f.posix}
	if nu := checkText(text, top, MaxTextSize); nu != nil {
		return nil, false, nu
	}
	file, parsed, blanks, perr := sub.parse(text, f.posix)
	if perr != nil {
		l, col := parseErrPos(perr, top)
		return nil, false, &NotUnderstood{Line: l, Col: col, Reason: parseErrText(perr)}
	}
	top.src, top.blanks, top.written = parsed, blanks, text
	sub.stmts(file.Stmts, top)
	if sub.err != nil {
		return nil, false, sub.err
	}
	sub.flushArith()
	// What runs in the file's loops, function bodies and trap actions
	// may run again, as in the command's own text (attack run 58: a
	// sourced file's `while …; do cd ..; done` counted its cd once, and
	// `cat .ssh/id_rsa` after it was decided two directories too deep).
	for j, in := range sub.inLoops(nil) {
		if in || sub.meta[j].deferred {
			sub.segs[j].Repeats = true
		}
	}
	return &sourcedFile{Segments: sub.segs, Funcs: sub.funcs, Aliases: sub.aliases}, !sub.readFiles, nil
}

// defineFunc records a function defined in a sourced file instead of
// analysing its body where it is defined.
func (a *analyzer) defineFunc(c *syntax.FuncDecl, f *frame) {
	if a.funcs == nil {
		a.funcs = map[string]funcDef{}
	}
	line, _ := f.pos(int(c.Pos().Offset()))
	a.funcs[c.Name.Value] = funcDef{Body: f.text(c.Body), Line: line, POSIX: f.posix}
}

// isFunc reports whether name is a function a sourced file defined.
func (a *analyzer) isFunc(name string) bool {
	if _, ok := a.funcs[name]; ok {
		return true
	}
	_, ok := a.pending[name]
	return ok
}

// callFunc analyses the body of a function from a sourced file called by
// name from a segment at f, once per analysis.
func (a *analyzer) callFunc(name string, f *frame) {
	if raw, ok := a.pending[name]; ok {
		var funcs map[string]funcDef
		if json.Unmarshal(raw, &funcs) != nil {
			a.err = &NotUnderstood{Line: 1, Col: 1, Reason: "cached functions of a sourced file do not decode; remove the cache directory"}
			return
		}
		for n := range funcs {
			delete(a.pending, n)
		}
		a.addFuncs(funcs)
	}
	def, ok := a.funcs[name]
	if !ok || a.called[name] {
		return
	}
	if def.Body == Hole {
		a.fail(f, syntax.Pos{}, "function "+name+" was defined in a way the analysis did not see: its body is not known")
		return
	}
	if a.called == nil {
		a.called = map[string]bool{}
	}
	a.called[name] = true
	// The body is the caller's doing: its segments are Sourced only when
	// the sourced file itself calls the function. It is analysed once for
	// every call, so what it runs may run again (attack run 58: `up() {
	// cd ..; }; up; up; up` in a sourced file counted one cd).
	start := len(a.segs)
	a.nested(def.Body, name+"()", 0, f, false, def.POSIX)
	for j := start; j < len(a.segs); j++ {
		a.segs[j].Repeats = true
	}
}

func sourceKey(data []byte, home string, posix bool) string {
	h := sha256.New()
	h.Write([]byte(sourceFormat + "\x00" + home + "\x00"))
	if posix {
		h.Write([]byte("posix\x00"))
	}
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// DirCache is a SourceCache in a directory: one file per key, written
// atomically (a temporary file renamed into place). Whoever can write the
// directory can change what guardsh believes a sourced file does, so it
// must be protected like the config file (cmd/guardsh does).
type DirCache struct{ Dir string }

// Get implements SourceCache.
func (c DirCache) Get(key string) ([]byte, bool) {
	if !validKey(key) {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, key+".json"))
	return data, err == nil
}

// Put implements SourceCache; errors (a read-only or full disk) only mean
// the next run analyses the file again.
func (c DirCache) Put(key string, data []byte) {
	if !validKey(key) {
		return
	}
	if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.Dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(c.Dir, key+".json")) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	c.prune()
}

// maxCacheEntries bounds a DirCache: agents write a new snapshot for every
// session, so old entries are of no use.
const maxCacheEntries = 512

// prune removes the oldest entries beyond maxCacheEntries (by modification
// time); it runs after a Put, which only a cache miss makes.
func (c DirCache) prune() {
	entries, err := os.ReadDir(c.Dir)
	if err != nil || len(entries) <= maxCacheEntries {
		return
	}
	type aged struct {
		name string
		mod  int64
	}
	var files []aged
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			files = append(files, aged{e.Name(), info.ModTime().UnixNano()})
		}
	}
	slices.SortFunc(files, func(a, b aged) int { return cmp.Compare(a.mod, b.mod) })
	for _, f := range files[:max(0, len(files)-maxCacheEntries)] {
		_ = os.Remove(filepath.Join(c.Dir, f.name))
	}
}

func validKey(key string) bool {
	return len(key) == 64 && strings.Trim(key, "0123456789abcdef") == ""
}

// script analyses the script file at path (relative to Options.Dir) that a
// shell runs (`bash FILE`), as a payload with Via via, when it can be read
// now: an absolute path, or a relative one while no cd came before it in
// the text. unknown reports a script that cannot be read now (missing, or
// written by the command itself first, or after a cd): its code is only
// known at run time.
func (a *analyzer) script(path, via string, off int, f *frame, posix bool) (unknown bool) {
	p, ok := a.locate(path, f, false)
	if !ok || a.opt.Secret != nil && a.opt.Secret(p) {
		return true
	}
	data, ok := readScript(p, a.opt.Secret)
	if !ok {
		return true
	}
	a.readFiles = true
	if i := bytes.IndexByte(data, 0); i >= 0 {
		if nl := bytes.IndexByte(data, '\n'); nl < 0 || i < nl {
			return false // bash refuses to run a binary file (a NUL in its first line)
		}
		// bash runs it, the NULs dropped; the analysis reads no NUL.
		a.fail(f, syntax.Pos{}, "a NUL byte in the script "+p+" (bash runs it without)")
		return false
	}
	a.nested(string(data), via, off, f, false, posix)
	return false
}

// shebang reports the shell a file run by its path names on its #! line
// (bash, sh, dash, …, directly or through env), read from Options.Dir for a
// relative path.
func (a *analyzer) shebang(path string) (shell string, ok bool) {
	if !filepath.IsAbs(path) {
		if a.opt.Dir == "" || a.opt.DirChanged || a.firstCd >= 0 {
			return "", false
		}
		path = filepath.Join(a.opt.Dir, path)
	}
	real, ok := resolveOutsideKernel(path)
	if !ok {
		return "", false
	}
	fh, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", false
	}
	defer fh.Close()
	if info, err := fh.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", false
	}
	head := make([]byte, 256) // the kernel's BINPRM_BUF_SIZE
	n, _ := io.ReadFull(fh, head)
	line, _, full := strings.Cut(string(head[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if ok && !full && n == len(head) {
		return "", false // a #! line longer than the kernel reads
	}
	if !ok {
		// No #! line: the kernel does not run it (ENOEXEC), and bash
		// runs a text file so as a script of its own; a binary (a NUL in
		// its first line, as in any ELF file: bash's check_binary_file)
		// it does not.
		if n == 0 || strings.IndexByte(line, 0) >= 0 {
			return "", false
		}
		return "bash", true
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 || !systemProgram(fields[0]) {
		// The kernel runs the interpreter as written: a relative one
		// (#!bash) from the working directory, an absolute one wherever
		// it points. Only a system directory's is the shell its name
		// says (attack run 84: #!bash ran a workspace program named bash
		// while its approver was shown the script as bash runs it).
		return "", false
	}
	prog := filepath.Base(fields[0])
	args := fields[1:]
	if prog == "env" {
		switch {
		case len(args) > 1 && args[0] == "-S":
			args = args[1:] // env -S splits the rest: its first word runs
		case len(args) > 0 && strings.HasPrefix(args[0], "-S") && len(args[0]) > 2:
			args = append([]string{args[0][2:]}, args[1:]...)
		case len(args) == 1:
		default:
			return "", false
		}
		prog, args = args[0], args[1:]
		if strings.Contains(prog, "/") {
			return "", false // env runs that path, not a program on PATH
		}
	} else if len(args) > 1 {
		return "", false // the kernel gives the rest as one argument
	}
	if !shells[prog] || slices.ContainsFunc(args, func(a string) bool { return !harmlessShellFlags(a) }) {
		// An option the analysis does not follow (-k, -O extglob, a
		// login shell's -l) changes what the script does.
		return "", false
	}
	return prog, true
}

// systemProgram reports whether path, a #! line's interpreter, is an
// absolute path in one of the system's program directories (/bin,
// /usr/bin, /usr/local/bin, /opt/homebrew/bin, and NixOS's
// /run/current-system/sw/bin).
func systemProgram(path string) bool {
	switch filepath.Dir(path) {
	case "/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin", "/run/current-system/sw/bin":
		return filepath.IsAbs(path) && filepath.Clean(path) == path
	}
	return false
}

// harmlessShellFlags reports whether a, the one argument a #! line gives
// its shell, is "-" or "-" and flags that change what the analysis of
// the script says nothing about: -e, -u, -x, -v.
func harmlessShellFlags(a string) bool {
	return strings.HasPrefix(a, "-") && strings.Trim(a[1:], "euxv") == ""
}
