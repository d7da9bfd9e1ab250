package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// GitReach is what git config files make git read or run, in every
// repository they apply to: what guardsh protects so that no command
// plants code there for a later git to run unasked and unjailed.
type GitReach struct {
	// Files are the config files themselves and every file they include
	// (include.path, includeIf.<condition>.path, whatever the condition),
	// absolute and cleaned; a file that does not exist is listed (a
	// command may create it) but not read.
	Files []string
	// Programs are the absolute paths named in the values of the keys
	// whose value git runs as a program or a command line (see
	// programKeys): core.fsmonitor, core.pager, an alias's "!…", a
	// credential helper, a diff, merge or filter driver …
	Programs []string
	// Dirs are the directories git runs code from: core.hooksPath and
	// init.templateDir (the hooks git init and clone copy).
	Dirs []string
	// RelDirs are relative core.hooksPath values, which git takes in the
	// work tree of each repository it runs in (git-config(1)): the caller
	// protects them beneath each repository's top.
	RelDirs []string
}

// ConfigEntry is one key and value of git configuration; Key as git
// writes it with --list (section and name in lower case).
type ConfigEntry struct{ Key, Value string }

// EnvConfig returns the git configuration given in the environment, as
// git reads it (git-config(1), "ENVIRONMENT"): GIT_CONFIG_KEY_<n> and
// GIT_CONFIG_VALUE_<n> for n below GIT_CONFIG_COUNT, then the items of
// GIT_CONFIG_PARAMETERS (what `git -c` hands its subcommands). lookup is
// os.LookupEnv or a stand-in.
func EnvConfig(lookup func(string) (string, bool)) []ConfigEntry {
	var out []ConfigEntry
	if c, ok := lookup("GIT_CONFIG_COUNT"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(c)); err == nil {
			// The variables present bound the loop whatever the count.
			for i := 0; i < n; i++ {
				k, okk := lookup("GIT_CONFIG_KEY_" + strconv.Itoa(i))
				v, okv := lookup("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
				if !okk && !okv {
					break
				}
				out = append(out, ConfigEntry{strings.ToLower(k), v})
			}
		}
	}
	if p, ok := lookup("GIT_CONFIG_PARAMETERS"); ok {
		for _, it := range ConfigParameters(p) {
			k, v, _ := strings.Cut(it, "=")
			out = append(out, ConfigEntry{strings.ToLower(k), v})
		}
	}
	return out
}

// ConfigParameters returns the items of GIT_CONFIG_PARAMETERS, a list of
// single-quoted 'key'='value' (or 'key=value', or 'key') items as git
// writes them (sq_quote: a quote inside is written '\”), each as
// "key=value" (or "key"); the quoted parts of one item are joined.
func ConfigParameters(s string) []string {
	var items []string
	var cur strings.Builder
	inItem := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				break
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inItem = true
		case c == '\\' && i+1 < len(s):
			cur.WriteByte(s[i+1])
			i++
			inItem = true
		case c == ' ' || c == '\t' || c == '\n':
			if inItem {
				items = append(items, cur.String())
				cur.Reset()
				inItem = false
			}
		default:
			cur.WriteByte(c)
			inItem = true
		}
	}
	if inItem {
		items = append(items, cur.String())
	}
	return items
}

// GlobalReach returns what the git configuration every repository of this
// user sees makes git read or run: the global and system config files
// (GlobalConfigs), what they include, and the configuration given in the
// environment (EnvConfig) with what it includes. Each file is read by
// git itself (`git config --file F --no-includes --null --list`), with
// git's syntax: a byte-order mark, quotes inside a value, continued
// lines, several sections on a line. Without git on PATH nothing is read
// (no git runs such config either) and only the top-level files are
// listed.
//
// cache, when not "", is a file guardsh keeps the answer in, keyed by the
// environment read and the identity (device, inode, size, change and
// modification times) of every file read or looked for: a git process
// start costs more than deciding a command, and the answer is needed for
// every command. It must lie where commands cannot write (guardsh's state
// directory, a protected path hidden from jails). It is rewritten when
// anything changed; an unreadable or stale one is ignored.
func GlobalReach(home string, lookup func(string) (string, bool), cache string) GitReach {
	getenv := func(k string) string { v, _ := lookup(k); return v }
	// The setting guardsh gives every real shell (safe.bareRepository,
	// see interp.ShellEnv) names nothing: left out, a guardsh started
	// inside a command (the PATH link) shares its parent's answer.
	env := slices.DeleteFunc(EnvConfig(lookup), func(e ConfigEntry) bool { return e.Key == "safe.barerepository" })
	key := reachKey{Home: home, Env: env}
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "XDG_CONFIG_HOME", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM"} {
		key.Vars = append(key.Vars, getenv(k))
	}
	if cache != "" {
		cache = keyedCache(cache, key)
		if r, ok := readReachCache(cache, key); ok {
			return r
		}
	}
	git, err := SystemGit()
	if err != nil {
		return GitReach{Files: GlobalConfigs(home, getenv)}
	}
	w := reachWalk{git: git, home: home, seen: map[string]bool{}}
	for _, f := range GlobalConfigs(home, getenv) {
		w.file(filepath.Clean(f), 1)
	}
	w.entries("", env, 1)
	if cache != "" {
		writeReachCache(cache, key, w)
	}
	return w.reach
}

// reachWalk reads config files for GlobalReach.
type reachWalk struct {
	git, home string
	seen      map[string]bool
	reach     GitReach
	// stats are the identities of the files read or looked for, for the
	// cache.
	stats []fileID
}

// file adds file, and what it names, at include depth depth.
func (w *reachWalk) file(file string, depth int) {
	if w.seen[file] || depth > maxIncludeDepth {
		return
	}
	w.seen[file] = true
	w.reach.Files = append(w.reach.Files, file)
	id := identify(file)
	w.stats = append(w.stats, id)
	if !id.Exists {
		return
	}
	cmd := exec.Command(w.git, "config", "--file", file, "--no-includes", "--null", "--list")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_COUNT=0", "GIT_CONFIG_PARAMETERS=")
	cmd.Dir = "/"
	out, err := cmd.Output()
	var entries []ConfigEntry
	if err != nil {
		// git cannot parse it (and so refuses to run with it): what a
		// plain reading finds it includes still counts.
		data, _ := os.ReadFile(file)
		for _, v := range plainIncludePaths(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))) {
			entries = append(entries, ConfigEntry{"include.path", v})
		}
	}
	for _, e := range bytes.Split(out, []byte{0}) {
		k, v, _ := bytes.Cut(e, []byte{'\n'})
		if len(k) > 0 {
			entries = append(entries, ConfigEntry{string(k), string(v)})
		}
	}
	w.entries(file, entries, depth)
}

// entries adds what the entries of file (""; the environment) name.
func (w *reachWalk) entries(file string, entries []ConfigEntry, depth int) {
	for _, e := range entries {
		key := strings.ToLower(e.Key)
		switch kind := programKey(key); {
		case isInclude(key):
			if p := w.place(e.Value, file); p != "" {
				w.file(p, depth+1)
			}
		case kind == dirValue:
			v := strings.TrimSpace(e.Value)
			if key == "core.hookspath" && v != "" && !filepath.IsAbs(v) && !strings.HasPrefix(v, "~") {
				if v = filepath.Clean(v); !slices.Contains(w.reach.RelDirs, v) {
					w.reach.RelDirs = append(w.reach.RelDirs, v)
				}
				continue
			}
			if p := w.place(v, file); p != "" && !slices.Contains(w.reach.Dirs, p) {
				w.reach.Dirs = append(w.reach.Dirs, p)
			}
		case kind == programValue:
			v := e.Value
			if strings.HasPrefix(key, "alias.") {
				var ok bool
				if v, ok = strings.CutPrefix(strings.TrimSpace(v), "!"); !ok {
					continue // a git command, not a program
				}
			}
			for _, word := range pathWords(v) {
				if p := w.place(word, ""); p != "" && !slices.Contains(w.reach.Programs, p) {
					w.reach.Programs = append(w.reach.Programs, p)
				}
			}
		}
	}
}

// place makes a path v named in file absolute: "~/" and "~user/" against
// the home directories, a relative one against file's directory (none
// for file "": the environment, or a program's command line, whose
// relative words git looks up elsewhere); "" when it cannot be placed.
func (w *reachWalk) place(v, file string) string {
	switch {
	case v == "":
		return ""
	case strings.HasPrefix(v, "~"):
		name, rest, _ := strings.Cut(v[1:], "/")
		if name == "" {
			if w.home == "" {
				return ""
			}
			return filepath.Join(w.home, rest)
		}
		u, err := user.Lookup(name)
		if err != nil || u.HomeDir == "" {
			return ""
		}
		return filepath.Join(u.HomeDir, rest)
	case filepath.IsAbs(v):
		return filepath.Clean(v)
	case file == "":
		return ""
	}
	return filepath.Join(filepath.Dir(file), v)
}

// isInclude reports whether key is include.path or
// includeif.<condition>.path.
func isInclude(key string) bool {
	return key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")
}

// Kinds of value programKey tells.
const (
	otherValue = iota
	// programValue: a program, or a command line run by a shell.
	programValue
	// dirValue: a directory git runs code from.
	dirValue
)

// programKeys are the keys whose value git runs (git-config(1)): by full
// name, or, for a key with a subsection (diff.<driver>.command), by
// section and name joined with "*".
var programKeys = map[string]int{
	"core.fsmonitor": programValue, "core.pager": programValue, "core.editor": programValue,
	"core.sshcommand": programValue, "core.askpass": programValue, "core.gitproxy": programValue,
	"core.alternaterefscommand": programValue, "sequence.editor": programValue,
	"diff.external": programValue, "diff.*.command": programValue, "diff.*.textconv": programValue,
	"merge.*.driver": programValue, "filter.*.clean": programValue, "filter.*.smudge": programValue,
	"filter.*.process": programValue, "credential.helper": programValue, "credential.*.helper": programValue,
	"gpg.program": programValue, "gpg.*.program": programValue, "interactive.difffilter": programValue,
	"pager.*": programValue, "alias.*": programValue, "difftool.*.cmd": programValue,
	"difftool.*.path": programValue, "mergetool.*.cmd": programValue, "mergetool.*.path": programValue,
	"browser.*.cmd": programValue, "browser.*.path": programValue, "man.*.cmd": programValue,
	"man.*.path": programValue, "uploadpack.packobjectshook": programValue,
	"remote.*.uploadpack": programValue, "remote.*.receivepack": programValue,
	"sendemail.sendmailcmd": programValue, "sendemail.smtpserver": programValue,
	"trailer.*.command": programValue, "trailer.*.cmd": programValue, "hook.*.command": programValue,
	"core.hookspath": dirValue, "init.templatedir": dirValue,
}

// EnvRunsProgram returns the first key of the git configuration the
// environment gives (see EnvConfig) whose value git runs, or whose value
// names a directory git runs code from (programKeys: core.fsmonitor,
// core.pager, alias.*, core.hooksPath …), and false when none does.
func EnvRunsProgram(lookup func(string) (string, bool)) (string, bool) {
	for _, e := range EnvConfig(lookup) {
		if programKey(e.Key) != otherValue {
			return e.Key, true
		}
	}
	return "", false
}

// programKey returns the kind of key's value (see programKeys).
func programKey(key string) int {
	if k, ok := programKeys[key]; ok {
		return k
	}
	section, rest, ok := strings.Cut(key, ".")
	if !ok {
		return otherValue
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return programKeys[section+".*"]
	}
	return programKeys[section+".*."+rest[i+1:]]
}

// pathWords returns the words of a command line that name a file by an
// absolute or "~" path: split at white space and at the shell's operators
// and quotes, so that `sh -c '/x/y; z'` yields /x/y.
func pathWords(v string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(v, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || strings.ContainsRune(";&|()<>'\"`=", r)
	}) {
		if strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") {
			out = append(out, w)
		}
	}
	return out
}

// fileID is what tells a file changed: a missing file has only Path.
type fileID struct {
	Path           string
	Exists         bool
	Dev, Ino, Size uint64
	Mtime, Ctime   int64
}

// identify returns file's identity now (lstat of what it resolves to).
func identify(file string) fileID {
	var st syscall.Stat_t
	if err := syscall.Stat(file, &st); err != nil {
		return fileID{Path: file}
	}
	return fileID{Path: file, Exists: true, Dev: uint64(st.Dev), Ino: st.Ino, Size: uint64(st.Size),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
}

// reachKey is what a cached GitReach was computed from, besides the
// files: the home, the variables that choose the files, and the
// environment's configuration. (Which git read them does not count: an
// answer is cached only when one was found.)
type reachKey struct {
	Home string
	Vars []string
	Env  []ConfigEntry
}

// keyedCache returns the cache file for key beside cache: its name with
// a hash of the key before the extension (gitreach-0123456789abcdef.json),
// so that processes whose environment places git's configs apart (another
// XDG_CONFIG_HOME, a GIT_CONFIG_GLOBAL) keep an answer each instead of
// replacing one another's, which made every other command start git (two
// configs taking turns: 1.5 ms a command).
func keyedCache(cache string, key reachKey) string {
	var b strings.Builder
	b.WriteString(key.Home)
	for _, v := range key.Vars {
		b.WriteString("\x00" + v)
	}
	for _, e := range key.Env {
		b.WriteString("\x00" + e.Key + "=" + e.Value)
	}
	sum := sha256.Sum256([]byte(b.String()))
	ext := filepath.Ext(cache)
	return strings.TrimSuffix(cache, ext) + "-" + hex.EncodeToString(sum[:8]) + ext
}

// reachCache is the cache file's content.
type reachCache struct {
	Key   reachKey
	Files []fileID
	Reach GitReach
}

// readReachCache returns the cached answer for key when every file it
// was computed from is as it was.
func readReachCache(cache string, key reachKey) (GitReach, bool) {
	data, err := os.ReadFile(cache)
	if err != nil {
		return GitReach{}, false
	}
	c, ok := decodeReachCache(data)
	if !ok || c.Key.Home != key.Home || !slices.Equal(c.Key.Vars, key.Vars) || !slices.Equal(c.Key.Env, key.Env) {
		return GitReach{}, false
	}
	for _, f := range c.Files {
		if identify(f.Path) != f {
			return GitReach{}, false
		}
	}
	return c.Reach, true
}

// writeReachCache stores w's answer for key, replacing the file whole; a
// failure leaves the next command to compute it again.
func writeReachCache(cache string, key reachKey, w reachWalk) {
	data := encodeReachCache(reachCache{Key: key, Files: w.stats, Reach: w.reach})
	dir := filepath.Dir(cache)
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(cache)+".new-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), cache) != nil {
		os.Remove(tmp.Name())
	}
}

// reachCacheHeader starts a cache file: its format and version. The
// format is lines of a tag and fields, strings quoted as Go quotes them
// (strconv.Quote), numbers in decimal — read without encoding/json, whose
// reflection costs a command's start more than the rest of the lookup.
const reachCacheHeader = "guardsh-gitreach 1"

// encodeReachCache writes c in the cache file's format, ended by a line
// "end".
func encodeReachCache(c reachCache) []byte {
	var b strings.Builder
	b.WriteString(reachCacheHeader + "\n")
	line := func(tag string, fields ...string) {
		b.WriteString(tag)
		for _, f := range fields {
			b.WriteString(" " + f)
		}
		b.WriteByte('\n')
	}
	q := strconv.Quote
	line("home", q(c.Key.Home))
	for _, v := range c.Key.Vars {
		line("var", q(v))
	}
	for _, e := range c.Key.Env {
		line("env", q(e.Key), q(e.Value))
	}
	for _, f := range c.Files {
		exists := "0"
		if f.Exists {
			exists = "1"
		}
		line("file", q(f.Path), exists, strconv.FormatUint(f.Dev, 10), strconv.FormatUint(f.Ino, 10),
			strconv.FormatUint(f.Size, 10), strconv.FormatInt(f.Mtime, 10), strconv.FormatInt(f.Ctime, 10))
	}
	for _, l := range []struct {
		tag  string
		list []string
	}{{"config", c.Reach.Files}, {"program", c.Reach.Programs}, {"dir", c.Reach.Dirs}, {"reldir", c.Reach.RelDirs}} {
		for _, p := range l.list {
			line(l.tag, q(p))
		}
	}
	b.WriteString("end\n")
	return []byte(b.String())
}

// decodeReachCache reads what encodeReachCache wrote; ok is false for
// anything else (the answer is then computed again).
func decodeReachCache(data []byte) (c reachCache, ok bool) {
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 || lines[0] != reachCacheHeader {
		return c, false
	}
	ended := false
	for _, l := range lines[1:] {
		if ended && l != "" {
			return c, false
		}
		if l == "" {
			continue
		}
		if l == "end" {
			ended = true
			continue
		}
		tag, rest, _ := strings.Cut(l, " ")
		var fields []string
		for rest != "" {
			if rest[0] == '"' {
				qs, err := strconv.QuotedPrefix(rest)
				if err != nil {
					return c, false
				}
				v, _ := strconv.Unquote(qs)
				fields = append(fields, v)
				rest = strings.TrimPrefix(rest[len(qs):], " ")
				continue
			}
			f, r, _ := strings.Cut(rest, " ")
			fields, rest = append(fields, f), r
		}
		want := map[string]int{"home": 1, "var": 1, "env": 2, "file": 7, "config": 1, "program": 1, "dir": 1, "reldir": 1}[tag]
		if want == 0 || len(fields) != want {
			return c, false
		}
		switch tag {
		case "home":
			c.Key.Home = fields[0]
		case "var":
			c.Key.Vars = append(c.Key.Vars, fields[0])
		case "env":
			c.Key.Env = append(c.Key.Env, ConfigEntry{fields[0], fields[1]})
		case "file":
			f := fileID{Path: fields[0], Exists: fields[1] == "1"}
			var errs [5]error
			f.Dev, errs[0] = strconv.ParseUint(fields[2], 10, 64)
			f.Ino, errs[1] = strconv.ParseUint(fields[3], 10, 64)
			f.Size, errs[2] = strconv.ParseUint(fields[4], 10, 64)
			f.Mtime, errs[3] = strconv.ParseInt(fields[5], 10, 64)
			f.Ctime, errs[4] = strconv.ParseInt(fields[6], 10, 64)
			for _, err := range errs {
				if err != nil {
					return c, false
				}
			}
			c.Files = append(c.Files, f)
		case "config":
			c.Reach.Files = append(c.Reach.Files, fields[0])
		case "program":
			c.Reach.Programs = append(c.Reach.Programs, fields[0])
		case "dir":
			c.Reach.Dirs = append(c.Reach.Dirs, fields[0])
		case "reldir":
			c.Reach.RelDirs = append(c.Reach.RelDirs, fields[0])
		}
	}
	// A file cut short (it is replaced whole, but a disk may fail) is
	// no answer: it could leave out a program to protect.
	return c, ended
}

// gitNoSystem reports whether GIT_CONFIG_NOSYSTEM, as git reads a boolean
// (git_env_bool), is true: "", "false", "no", "off" and "0" are not.
func gitNoSystem(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "no", "off", "0":
		return false
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
		return n != 0
	}
	return true
}
