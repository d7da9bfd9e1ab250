package interp

import "strings"

// Kinds of option argument, as getopt_long(3) has them.
const (
	argNone     = iota
	argRequired // the rest of the cluster, or the next word; --long=VAL or --long VAL
	argOptional // only attached: -xVAL, --long=VAL
)

// optSpec is the option grammar of a wrapper, in getopt_long(3) terms. Options
// end at the first operand (getopt's leading "+", which every wrapper that
// runs a command uses so that the command's own options are left alone)
// or after "--".
type optSpec struct {
	// short is a getopt option string: each letter, followed by ":" when
	// it takes an argument and "::" when that argument is optional.
	short string
	// long is the long options (no leading "--"), see long.
	long longOpts
	// abbrev: a long option may be written as any unambiguous prefix
	// (getopt_long; not Go's pflag, not sudo).
	abbrev bool
	// numeric: "-N" is an option (nice -10).
	numeric bool
}

// option is one parsed option: name is "-c" or "--command" (the full
// long name, even when abbreviated); at is the index of the word that
// holds the value (or the option itself when it has none).
type option struct {
	name     string
	value    string
	hasValue bool
	at       int
	word     int // index of the word that holds the option itself
}

func (s *optSpec) shortKind(c byte) (kind int, ok bool) {
	if c == ':' {
		return 0, false
	}
	i := strings.IndexByte(s.short, c)
	if i < 0 {
		return 0, false
	}
	rest := s.short[i+1:]
	switch {
	case strings.HasPrefix(rest, "::"):
		return argOptional, true
	case strings.HasPrefix(rest, ":"):
		return argRequired, true
	}
	return argNone, true
}

func (s *optSpec) longKind(name string) (full string, kind int, ok bool) {
	for _, raw := range s.long {
		if n, k := splitLong(raw); n == name {
			return name, k, true
		}
	}
	if !s.abbrev || name == "" {
		return "", 0, false
	}
	for _, raw := range s.long {
		if n, k := splitLong(raw); strings.HasPrefix(n, name) {
			if full != "" {
				return "", 0, false // ambiguous: the program refuses it
			}
			full, kind = n, k
		}
	}
	return full, kind, full != ""
}

// oneWord reports whether w is one argument whatever its run-time value:
// static, or a single double-quoted string. An unquoted run-time part may
// split into several words, or none, and so move every word after it.
func oneWord(w Word) bool {
	if !w.Dynamic() {
		return true
	}
	s := w.Source
	return len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && strings.Count(s, `"`) == 2 && !strings.Contains(s, "`")
}

// getopt parses the options of args from index i on. It returns them, the
// index of the first operand (after a "--"), and ok=false when it meets an
// option the spec does not know, a word that may be an option but is only
// known at run time, or an option argument that may be several words: the
// caller cannot know what the program then runs. next is then the index
// of the word it stopped at.
func getopt(args []Word, i int, spec *optSpec) (opts []option, next int, ok bool) {
	for i < len(args) {
		w := args[i]
		v := w.Value
		if w.Dynamic() {
			if !strings.HasPrefix(v, "-") && oneWord(w) && !strings.HasPrefix(v, Hole) {
				return opts, i, true // an operand, whatever its value
			}
			return opts, i, false
		}
		if v == "--" {
			return opts, i + 1, true
		}
		if len(v) < 2 || v[0] != '-' {
			return opts, i, true
		}
		if spec.numeric && isNumberOpt(v) {
			opts = append(opts, option{name: v, at: i, word: i})
			i++
			continue
		}
		if strings.HasPrefix(v, "--") {
			n, val, has := strings.Cut(v[2:], "=")
			name, kind, found := spec.longKind(n)
			if !found {
				return opts, i, false
			}
			o := option{name: "--" + name, value: val, hasValue: has, at: i, word: i}
			i++
			switch kind {
			case argNone:
				if has {
					return opts, i - 1, false
				}
			case argRequired:
				if !has {
					if i >= len(args) || !oneWord(args[i]) {
						return opts, i, false
					}
					o.value, o.hasValue, o.at = args[i].Value, true, i
					i++
				}
			}
			opts = append(opts, o)
			continue
		}
		// A cluster of short options.
		at := i
		i++
		for j := 1; j < len(v); j++ {
			kind, found := spec.shortKind(v[j])
			if !found {
				return opts, at, false
			}
			o := option{name: "-" + v[j:j+1], at: at, word: at}
			if kind == argNone {
				opts = append(opts, o)
				continue
			}
			if rest := v[j+1:]; rest != "" {
				o.value, o.hasValue = rest, true
			} else if kind == argRequired {
				if i >= len(args) || !oneWord(args[i]) {
					return opts, i, false
				}
				o.value, o.hasValue, o.at = args[i].Value, true, i
				i++
			}
			opts = append(opts, o)
			break
		}
	}
	return opts, i, true
}

// has reports whether opts holds one of names.
func has(opts []option, names ...string) bool {
	for _, o := range opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

// longOpts is a long-option table: each name, with a ":" suffix when it
// takes an argument and "::" when that argument is optional, looked up
// by a scan (see splitLong): a table is a few dozen names, and the maps
// they were built into cost every guardsh's start some 50 µs.
type longOpts []string

// long builds a long-option table (see longOpts).
func long(names ...string) longOpts { return names }

// splitLong returns a longOpts entry's option name and argument kind.
func splitLong(n string) (name string, kind int) {
	switch {
	case strings.HasSuffix(n, "::"):
		return n[:len(n)-2], argOptional
	case strings.HasSuffix(n, ":"):
		return n[:len(n)-1], argRequired
	}
	return n, argNone
}
