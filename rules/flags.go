package rules

import (
	"slices"
	"strings"
)

// Option spellings, for deny and ask rules only.
//
// `rm -rf *` is written one way; rm reads -fr, -r -f, -Rf, --recursive
// --force, and (GNU permutes arguments) `rm x -rf` the same. For the common
// destructive programs below, a deny or ask rule whose words name options
// is also matched structurally: the rule's options and the command's are
// read with the program's option table (long forms and aliases mapped to one
// letter, options taking a value paired with it, bundles split, options
// after operands collected until "--"), and the rule matches when every
// option it names is among the command's (a value pattern matching the
// value), and its operands, joined by spaces, match the command's as a
// pattern (a rule ending in "*" leaves the rest open). Extra options in the
// command do not prevent the match: `rm -rfv x` is still `rm -rf *`.
//
// Allow rules get none of this: `git -p status` does not inherit
// `git status *`.

// optionTable is one program's options. Letters not listed are flags
// without a value. It holds no map, so that the tables are data guardsh
// starts with rather than makes (a map of them cost every process that
// loaded a policy some 0.01 ms).
type optionTable struct {
	long    []longOption // long options (without "--") and their letters
	alias   string       // pairs: a short letter, the letter it means ("Rr": -R is -r)
	withArg string       // letters that take a value (glued or the next word)
	optArg  string       // letters whose value may only be glued (sed -i.bak)
}

// longOption is a long option's name and its letter (longOnly for none).
type longOption struct {
	name   string
	letter byte
}

// letterOf returns the letter of the long option name, and whether the
// table has it: written whole, or abbreviated to a prefix of options of
// one letter only, as getopt_long and git's parse-options take it (attack
// run 82: `rm --rec --for`, `sed --in-pl` and `chmod --rec` got past the
// rules naming -r, -f, -i and -R). A prefix of options with different
// letters is ambiguous: the program refuses it, and it stays a word.
// full is the option's whole name (the first of those of a shared letter).
func (t *optionTable) letterOf(name string) (full string, letter byte, ok bool) {
	for _, o := range t.long {
		if o.name == name {
			return o.name, o.letter, true
		}
		if name != "" && strings.HasPrefix(o.name, name) {
			if ok && (o.letter != letter || letter == longOnly) {
				return "", 0, false
			}
			full, letter, ok = o.name, o.letter, true
		}
	}
	return full, letter, ok
}

// meant returns the letter short letter c means: itself, but for an alias.
func (t *optionTable) meant(c byte) byte {
	for i := 0; i+1 < len(t.alias); i += 2 {
		if t.alias[i] == c {
			return t.alias[i+1]
		}
	}
	return c
}

// longOnly marks a long option with no short form; it is kept as a word.
const longOnly = 0

// optionTables are the programs whose options are read for deny and ask
// rules; git subcommands are "git SUB" (git's own options before the
// subcommand are skipped). Sources: the programs' --help on GNU coreutils
// 9, sed 4.9, curl 8, wget 1.21, git 2.4x.
var optionTables = []struct {
	program string
	table   optionTable
}{
	{"rm", optionTable{long: []longOption{{"recursive", 'r'}, {"force", 'f'}, {"dir", 'd'}, {"verbose", 'v'},
		{"one-file-system", longOnly}, {"no-preserve-root", longOnly}, {"preserve-root", longOnly}, {"interactive", 'i'}},
		alias: "Rr"}},
	{"chmod", optionTable{long: []longOption{{"recursive", 'R'}, {"verbose", 'v'}, {"changes", 'c'}, {"silent", 'f'}, {"quiet", 'f'},
		{"reference", longOnly}, {"no-preserve-root", longOnly}, {"preserve-root", longOnly}}}},
	{"chown", optionTable{long: []longOption{{"recursive", 'R'}, {"verbose", 'v'}, {"changes", 'c'}, {"silent", 'f'}, {"quiet", 'f'},
		{"no-dereference", 'h'}, {"dereference", longOnly}, {"from", longOnly}, {"reference", longOnly},
		{"no-preserve-root", longOnly}, {"preserve-root", longOnly}}}},
	{"sort", optionTable{long: []longOption{{"output", 'o'}, {"unique", 'u'}, {"reverse", 'r'}, {"key", 'k'}, {"field-separator", 't'},
		{"temporary-directory", 'T'}, {"buffer-size", 'S'}, {"numeric-sort", 'n'}, {"check", 'c'}, {"merge", 'm'},
		{"compress-program", longOnly}, {"files0-from", longOnly}}, withArg: "kotTS"}},
	{"tee", optionTable{long: []longOption{{"append", 'a'}, {"ignore-interrupts", 'i'}}}},
	{"sed", optionTable{long: []longOption{{"in-place", 'i'}, {"expression", 'e'}, {"file", 'f'}, {"quiet", 'n'}, {"silent", 'n'},
		{"regexp-extended", 'E'}, {"separate", 's'}, {"null-data", 'z'}}, alias: "rE",
		withArg: "ef", optArg: "i"}},
	{"curl", optionTable{long: []longOption{{"output", 'o'}, {"remote-name", 'O'}, {"silent", 's'}, {"location", 'L'}, {"insecure", 'k'},
		{"data", 'd'}, {"request", 'X'}, {"header", 'H'}, {"user", 'u'}, {"upload-file", 'T'}, {"fail", 'f'}, {"form", 'F'}},
		withArg: "odXHuTFAeEKrwmyY"}},
	{"wget", optionTable{long: []longOption{{"output-document", 'O'}, {"quiet", 'q'}, {"output-file", 'o'}, {"directory-prefix", 'P'},
		{"input-file", 'i'}, {"post-data", longOnly}, {"post-file", longOnly}}, withArg: "OoPiaeU"}},
	{"git push", optionTable{long: []longOption{{"force", 'f'}, {"delete", 'd'}, {"mirror", longOnly}, {"force-with-lease", longOnly},
		{"all", longOnly}, {"tags", longOnly}, {"repo", longOnly}, {"prune", longOnly}}, withArg: "o"}},
	{"git clean", optionTable{long: []longOption{{"force", 'f'}, {"dry-run", 'n'}, {"interactive", 'i'}, {"quiet", 'q'}, {"exclude", 'e'}}, withArg: "e"}},
	{"git reset", optionTable{long: []longOption{{"hard", longOnly}, {"soft", longOnly}, {"mixed", longOnly}, {"keep", longOnly}, {"merge", longOnly}, {"quiet", 'q'}}}},
	{"git checkout", optionTable{long: []longOption{{"force", 'f'}, {"quiet", 'q'}}, withArg: "bB"}},
	{"git switch", optionTable{long: []longOption{{"force", 'f'}, {"discard-changes", 'f'}, {"create", 'c'}, {"force-create", 'C'}},
		withArg: "cC"}},
	{"git branch", optionTable{long: []longOption{{"delete", 'd'}, {"force", 'f'}, {"move", 'm'}, {"copy", 'c'}}, alias: "",
		withArg: ""}},
}

// optionTableOf returns prog's option table, nil for none.
func optionTableOf(prog string) *optionTable {
	for i := range optionTables {
		if optionTables[i].program == prog {
			return &optionTables[i].table
		}
	}
	return nil
}

// gitGlobalWithArg are git's options before the subcommand that take the
// next word.
var gitGlobalWithArg = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--attr-source", "--list-cmds", "--super-prefix"}

// optionForm is a command (or a rule's pattern) read with its program's
// option table.
type optionForm struct {
	program  string
	opts     []option // in the order met
	operands []string
}

type option struct {
	letter byte   // longOnly for a long option without a letter
	long   string // the long name, for longOnly
	value  string
	hasVal bool
}

// readOptions reads words (argv, or a pattern split at spaces) with the
// option table of its program. ok is false when the program has no table
// or a word cannot be read (a git option whose value is missing).
func readOptions(words []string) (optionForm, bool) {
	if len(words) == 0 {
		return optionForm{}, false
	}
	prog := words[0]
	rest := words[1:]
	if prog == "git" {
		i := 0
		for i < len(rest) && strings.HasPrefix(rest[i], "-") {
			name, _, glued := strings.Cut(rest[i], "=")
			if !glued && slices.Contains(gitGlobalWithArg, name) {
				i++
			}
			i++
		}
		if i >= len(rest) {
			return optionForm{}, false
		}
		prog, rest = "git "+rest[i], rest[i+1:]
	}
	table := optionTableOf(prog)
	if table == nil {
		return optionForm{}, false
	}
	f := optionForm{program: prog}
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		switch {
		case w == "--":
			f.operands = append(f.operands, rest[i+1:]...)
			return f, true
		case strings.HasPrefix(w, "--") && len(w) > 2:
			name, val, hasVal := strings.Cut(w[2:], "=")
			full, letter, known := table.letterOf(name)
			if !known || letter == longOnly {
				if known {
					name = full
				}
				f.opts = append(f.opts, option{long: name, value: val, hasVal: hasVal})
				continue
			}
			if strings.IndexByte(table.withArg, letter) >= 0 && !hasVal && i+1 < len(rest) {
				i++
				val, hasVal = rest[i], true
			}
			f.opts = append(f.opts, option{letter: letter, value: val, hasVal: hasVal})
		case len(w) > 1 && w[0] == '-':
			for j := 1; j < len(w); j++ {
				c := w[j]
				c = table.meant(c)
				if strings.IndexByte(table.withArg, c) >= 0 {
					val := w[j+1:]
					if val == "" && i+1 < len(rest) {
						i++
						val = rest[i]
					}
					f.opts = append(f.opts, option{letter: c, value: val, hasVal: true})
					break
				}
				if strings.IndexByte(table.optArg, c) >= 0 {
					f.opts = append(f.opts, option{letter: c, value: w[j+1:], hasVal: j+1 < len(w)})
					break
				}
				f.opts = append(f.opts, option{letter: c})
			}
		default:
			f.operands = append(f.operands, w)
		}
	}
	return f, true
}

// optionRule is a deny or ask rule read with its program's option table.
type optionRule struct {
	entry    int // index of the rule in the shell trie's entries
	form     optionForm
	operands *glob // the rule's operands joined, "*" appended when open
	values   []*glob
}

// newOptionRule reads the pattern of entry i, or returns false when it
// names no option of a program with a table, or has a '*' in a place
// that is not a whole operand or an option value.
func newOptionRule(i int, pattern string) (optionRule, bool) {
	words := strings.Split(pattern, " ")
	if strings.Contains(words[0], "*") {
		return optionRule{}, false
	}
	f, ok := readOptions(words)
	if !ok || len(f.opts) == 0 {
		return optionRule{}, false
	}
	r := optionRule{entry: i, form: f}
	for _, o := range f.opts {
		if o.letter == longOnly && strings.Contains(o.long, "*") {
			return optionRule{}, false // --output*: left to the plain pattern
		}
		r.values = append(r.values, compileGlob(o.value, false))
	}
	ops := strings.Join(f.operands, " ")
	last := words[len(words)-1]
	if strings.HasSuffix(last, "*") && (len(f.operands) == 0 || !strings.HasSuffix(ops, "*")) {
		// The final star was an option's value: the operands are open.
		ops = strings.TrimSpace(ops + " *")
	}
	r.operands = compileGlob(ops, true)
	return r, true
}

// match reports whether command form c has every option of the rule (a
// value matching the rule's) and operands matching the rule's.
func (r *optionRule) match(c optionForm) bool {
	if c.program != r.form.program {
		return false
	}
	for k, want := range r.form.opts {
		found := false
		for _, have := range c.opts {
			if have.letter != want.letter || (want.letter == longOnly && have.long != want.long) {
				continue
			}
			if !want.hasVal || r.values[k].match(have.value) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return r.operands.match(strings.Join(c.operands, " "))
}

// judge matches command form c, whose words have run-time parts when
// holes is set: definite when it matches whatever they turn out to be (a
// Hole is matched only by a '*', which matches any value in its place),
// could when they might make it match (c's options hold every option of
// the rule but the operands or values do not match as written, or an
// option word itself is only known at run time).
func (r *optionRule) judge(c optionForm, holes bool) (definite, could bool) {
	if r.match(c) {
		return true, false
	}
	if !holes || c.program != r.form.program {
		return false, false
	}
	for _, o := range c.opts {
		if o.letter == Hole[0] {
			return false, true
		}
	}
	for _, want := range r.form.opts {
		if !slices.ContainsFunc(c.opts, func(have option) bool {
			return have.letter == want.letter && (want.letter != longOnly || have.long == want.long || strings.Contains(have.long, Hole))
		}) {
			return false, false
		}
	}
	return false, true
}

// matchOptions adds to h the deny and ask rules that match words read with
// its program's option table (see optionTables).
func (p *Policy) matchOptions(words []string, h *hits) {
	f, ok := readOptions(words)
	if !ok {
		return
	}
	holes := slices.ContainsFunc(words, func(w string) bool { return strings.Contains(w, Hole) })
	rules := p.options()
	for i := range rules {
		r := &rules[i]
		definite, could := r.judge(f, holes)
		d := p.shell.entries[r.entry].rule.Decision
		switch {
		case definite && d == Deny:
			h.deny = minHit(h.deny, r.entry)
		case definite && d == Ask:
			h.ask = minHit(h.ask, r.entry)
		case could && d == Deny:
			h.could = minHit(h.could, r.entry)
		}
	}
}
