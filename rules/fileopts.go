package rules

import "strings"

// fileOpts is what a call of cp, mv or ln says, read as GNU coreutils
// reads it (cp(1), mv(1), ln(1), coreutils 9): its options (long ones by
// any unambiguous prefix, as getopt_long takes them; short ones in
// clusters, a value glued or in the next word; options after operands too,
// as getopt permutes them) and its operands.
type fileOpts struct {
	// recursive: cp -r, -R, --recursive; archive: cp -a, --archive;
	// noDeref: cp -P, -d, --no-dereference (links copied as links);
	// symbolic: ln -s, --symbolic, cp -s, --symbolic-link; relative: ln -r,
	// --relative.
	recursive, archive, noDeref, symbolic, relative bool
	// targetDir is -t DIR or --target-directory=DIR, and hasTargetDir
	// says one was given (each operand is then a source, landing in it);
	// noTargetDir is -T, --no-target-directory (the last operand is the
	// name made, never a directory to land in).
	targetDir                 string
	hasTargetDir, noTargetDir bool
	// targetAt is the index in the words of the one that holds
	// targetDir (the option's value, or the option with it glued).
	targetAt int
	// backup: -b, --backup[=CONTROL], -S, --suffix (a backup is made of
	// each file replaced); suffix is -S or --suffix's value.
	backup bool
	suffix string
	// operands are the words that are no option nor an option's value,
	// and at their indices in the words.
	operands []string
	at       []int
}

// fileOptTable is one program's options: short letters that take no
// value and that take one, and long names, each with whether it takes a
// value ('r' required: glued after "=" or the next word; 'o' optional:
// only after "="; 'n' none).
type fileOptTable struct {
	flags, withArg string
	long           map[string]byte
}

// fileOptTables are cp's, mv's and ln's (coreutils 9.4).
var fileOptTables = map[string]fileOptTable{
	"cp": {flags: "abdfHilLnPprRsTuvxZ", withArg: "St", long: map[string]byte{
		"archive": 'n', "attributes-only": 'n', "backup": 'o', "copy-contents": 'n', "debug": 'n',
		"force": 'n', "interactive": 'n', "link": 'n', "dereference": 'n', "no-clobber": 'n',
		"no-dereference": 'n', "preserve": 'o', "no-preserve": 'r', "parents": 'n', "recursive": 'n',
		"reflink": 'o', "remove-destination": 'n', "sparse": 'r', "strip-trailing-slashes": 'n',
		"symbolic-link": 'n', "suffix": 'r', "target-directory": 'r', "no-target-directory": 'n',
		"update": 'o', "verbose": 'n', "keep-directory-symlink": 'n', "one-file-system": 'n',
		"context": 'o', "help": 'n', "version": 'n'}},
	"mv": {flags: "bfinTuvZ", withArg: "St", long: map[string]byte{
		"backup": 'o', "debug": 'n', "exchange": 'n', "force": 'n', "interactive": 'n', "no-clobber": 'n',
		"no-copy": 'n', "strip-trailing-slashes": 'n', "suffix": 'r', "target-directory": 'r',
		"no-target-directory": 'n', "update": 'o', "verbose": 'n', "context": 'o', "help": 'n', "version": 'n'}},
	"ln": {flags: "bdFfiLnPrsTv", withArg: "St", long: map[string]byte{
		"backup": 'o', "directory": 'n', "force": 'n', "interactive": 'n', "logical": 'n',
		"no-dereference": 'n', "physical": 'n', "relative": 'n', "symbolic": 'n', "suffix": 'r',
		"target-directory": 'r', "no-target-directory": 'n', "verbose": 'n', "help": 'n', "version": 'n'}},
}

// longOption returns the long option of table that name (without its
// leading "--" and any "=value") stands for: itself, or the one option it
// is a prefix of; "" when it is none or more than one.
func (t fileOptTable) longOption(name string) string {
	if _, ok := t.long[name]; ok {
		return name
	}
	found := ""
	for o := range t.long {
		if strings.HasPrefix(o, name) {
			if found != "" {
				return ""
			}
			found = o
		}
	}
	return found
}

// parseFileOpts reads words, a call of cp, mv or ln. It reports false for
// another program, an option it does not know (or an ambiguous
// abbreviation), or a value missing at the end: what the call does is
// then not known.
func parseFileOpts(words []string) (fileOpts, bool) {
	var o fileOpts
	t, ok := fileOptTables[words[0]]
	if !ok {
		return o, false
	}
	cp, ln := words[0] == "cp", words[0] == "ln"
	i := 0 // the word being read
	set := func(opt string, val string) {
		switch {
		case opt == "target-directory" || opt == "t":
			o.targetDir, o.hasTargetDir, o.targetAt = val, true, i
		case opt == "no-target-directory" || opt == "T":
			o.noTargetDir = true
		case cp && (opt == "recursive" || opt == "r" || opt == "R"):
			o.recursive = true
		case cp && (opt == "archive" || opt == "a"):
			o.archive = true
		case cp && (opt == "no-dereference" || opt == "P" || opt == "d"):
			o.noDeref = true
		case ln && (opt == "symbolic" || opt == "s"), cp && (opt == "symbolic-link" || opt == "s"):
			o.symbolic = true
		case ln && (opt == "relative" || opt == "r"):
			o.relative = true
		case opt == "backup" || opt == "b":
			o.backup = true
		case opt == "suffix" || opt == "S":
			o.backup, o.suffix = true, val
		}
	}
	for i = 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			for j := i + 1; j < len(words); j++ {
				o.operands, o.at = append(o.operands, words[j]), append(o.at, j)
			}
			return o, true
		case w == "-" || !strings.HasPrefix(w, "-"):
			o.operands, o.at = append(o.operands, w), append(o.at, i)
		case strings.HasPrefix(w, "--"):
			name, val, eq := strings.Cut(w[2:], "=")
			opt := t.longOption(name)
			if opt == "" {
				return o, false
			}
			switch t.long[opt] {
			case 'n':
				if eq {
					return o, false // getopt refuses a value
				}
			case 'r':
				if !eq {
					if i+1 == len(words) {
						return o, false
					}
					i++
					val = words[i]
				}
			}
			set(opt, val)
		default:
			for k := 1; k < len(w); k++ {
				c := w[k : k+1]
				switch {
				case strings.Contains(t.withArg, c):
					val := w[k+1:]
					if val == "" {
						if i+1 == len(words) {
							return o, false
						}
						i++
						val = words[i]
					}
					set(c, val)
					k = len(w)
				case strings.Contains(t.flags, c):
					set(c, "")
				default:
					return o, false
				}
			}
		}
	}
	return o, true
}
