package interp

import (
	"mvdan.cc/sh/v3/syntax"
	"strconv"
	"strings"
)

// Shell options that make bash run something other than the text analysed:
// keyword (-k: NAME=value words anywhere in a command become its
// environment), histexpand (-H: !… rewrites a line from earlier ones) and
// posix (aliases expand in a script too, special builtins are found
// before functions, source no longer reads the working directory's file:
// an attack run's `set -o posix`, then an alias named ls, ran the alias's
// command where the analysis read ls).
// guardsh starts bash with +H and refuses -k and -H on its own command
// line; text that turns either on, with set, shopt -o or a nested shell's
// options, is not understood. An option word only known at run time makes
// the segment RunsCode.

// RiskyShoptNames are the shopt options that, turned on (-O NAME on a
// shell's command line, shopt -s NAME), make bash run or read what the
// analysis did not: a later word runs an alias (expand_aliases) or
// changes directory (autocd, cdable_vars), a DEBUG trap skips commands
// (extdebug), a later glob matches what the analysis does not expect
// (dotglob, extglob, globstar, nocaseglob: ~/.ssh/@(id_rsa), ~/.SS[H]).
// (The read-only table's shopt entry excludes the same names.) Attack run
// 32 passed them to a nested shell as -O, and to guardsh itself.
var RiskyShoptNames = map[string]bool{"expand_aliases": true, "autocd": true, "cdable_vars": true, "extdebug": true,
	"dotglob": true, "extglob": true, "globstar": true, "nocaseglob": true}

// riskyOptionNames are the set -o names of those options.
var riskyOptionNames = map[string]bool{"keyword": true, "histexpand": true, "posix": true}

// optionRisk checks a set, shopt or shell segment's words for an option
// that turns keyword or histexpand on: refuse names it; dynamic reports
// an option word only known at run time.
func optionRisk(args []Word) (refuse string, dynamic bool) {
	// `command set -k` and `builtin set -k` are set -k too.
	for len(args) > 1 && (args[0].Value == "command" || args[0].Value == "builtin") {
		args = args[1:]
		for len(args) > 1 && (args[0].Value == "-p" || args[0].Value == "--") {
			args = args[1:]
		}
	}
	if len(args) == 0 {
		return "", false
	}
	switch args[0].Value {
	case "set":
		return setRisk(args[1:], true)
	case "shopt":
		// Only -s turns an option on (-u off; neither, or -q, asks).
		oMode, on, off := false, false, false
		var names []Word
		for _, w := range args[1:] {
			v := w.Value
			if strings.Contains(v, Hole) {
				return "", true
			}
			if len(v) > 1 && v[0] == '-' && len(names) == 0 {
				oMode = oMode || strings.ContainsRune(v, 'o')
				on = on || strings.ContainsRune(v, 's')
				off = off || strings.ContainsRune(v, 'u')
				continue
			}
			names = append(names, w)
		}
		if oMode && on && !off {
			for _, w := range names {
				if riskyOptionNames[w.Value] {
					return "shopt -o " + w.Value + " would make bash run something other than what was analysed", false
				}
			}
		}
		if off {
			for _, w := range names {
				if w.Value == "interactive_comments" || w.Value == "interactive-comments" {
					// Off in an interactive shell, "#" starts no comment:
					// `echo hi # ; cat KEY` runs the cat (attack run 30).
					return "shopt -u interactive_comments would make bash run what the analysis read as a comment", false
				}
			}
		}
		if !oMode && off {
			for _, w := range names {
				if w.Value == "sourcepath" {
					// Off, source NAME reads ./NAME, not the file on PATH
					// the analysis reads.
					return "shopt -u sourcepath would make source read a file other than the one analysed", false
				}
			}
		}
	}
	return "", false
}

// bashLongOptions are the multi-character options bash takes (bash 5.2
// shell.c long_args), each spelled with "--" or, as bash also reads them,
// with one "-" (`bash -rcfile F`: an attack run's `bash -rcfile true`
// was read as -r -c -f … and ran its standard input unanalysed).
var bashLongOptions = map[string]bool{
	"debug": true, "debugger": true, "dump-po-strings": true, "dump-strings": true, "help": true,
	"init-file": true, "login": true, "noediting": true, "noprofile": true, "norc": true, "posix": true,
	"pretty-print": true, "protected": true, "rcfile": true, "rpm-requires": true, "restricted": true,
	"verbose": true, "version": true, "wordexp": true,
}

// longOption returns a shell's option word v as "--NAME" when it is one
// of bashLongOptions spelled with one dash, else v.
func longOption(v string) string {
	if len(v) > 2 && v[0] == '-' && v[1] != '-' && bashLongOptions[v[1:]] {
		return "-" + v
	}
	return v
}

// setRisk reads set's (or a shell's) option words up to the first operand.
func setRisk(args []Word, isSet bool) (refuse string, dynamic bool) {
	short := false // a short option came: no long one after it (see shell)
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if strings.Contains(v, Hole) {
			return "", true
		}
		if !isSet && !short {
			v = longOption(v)
		}
		if v == "+" && !isSet {
			continue // an empty option group, which a shell skips (see shell)
		}
		if !strings.HasPrefix(v, "--") && len(v) >= 2 && (v[0] == '-' || v[0] == '+') {
			short = true
		}
		if v == "--" || v == "-" || len(v) < 2 || (v[0] != '-' && v[0] != '+') || strings.HasPrefix(v, "--") {
			if strings.HasPrefix(v, "--") && v != "--" && !isSet {
				if len(v) >= 4 && strings.HasPrefix("--posix", v) {
					return "--posix would make bash run something other than what was analysed", false
				}
				continue // a shell's long option (--norc, --rcfile F …)
			}
			return "", false
		}
		for _, c := range v[1:] {
			switch {
			case c == 'o' || c == 'O':
				if i+1 < len(args) {
					i++
					n := args[i].Value
					if strings.Contains(n, Hole) {
						return "", true
					}
					if v[0] == '-' && c == 'o' && riskyOptionNames[n] {
						return "-o " + n + " would make bash run something other than what was analysed", false
					}
					if v[0] == '+' && c == 'o' && n == "interactive-comments" {
						return "+o interactive-comments would make bash run what the analysis read as a comment", false
					}
					// A shell's -O NAME is shopt -s NAME (set has no -O).
					if !isSet && c == 'O' && (v[0] == '-' && RiskyShoptNames[n] || v[0] == '+' && (n == "sourcepath" || n == "interactive_comments")) {
						return string(v[0]) + "O " + n + " would make bash run something other than what was analysed", false
					}
				}
			case v[0] == '-' && (c == 'k' || c == 'H'):
				return "-" + string(c) + " would make bash run something other than what was analysed", false
			}
		}
	}
	return "", false
}

// hasShortOption reports whether the option words before the first operand
// hold the letter opt (alone or in a cluster), or a word only known at run
// time that could.
func hasShortOption(args []Word, opt byte) bool {
	for _, w := range args {
		v := w.Value
		if strings.Contains(v, Hole) {
			return true
		}
		if v == "--" || len(v) < 2 || v[0] != '-' {
			return false
		}
		if strings.IndexByte(v[1:], opt) >= 0 {
			return true
		}
	}
	return false
}

// mapfileCallback finds mapfile's -C CALLBACK among its options (d, n, O,
// s, u and c take an argument too): the callback text and the index of its
// word.
func mapfileCallback(args []Word) (code string, at int, ok bool) {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if strings.Contains(v, Hole) && !ok {
			return Hole, i, true // an option only known at run time could be -C
		}
		if v == "--" || len(v) < 2 || v[0] != '-' {
			return "", 0, false
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			if strings.IndexByte("dnOsucC", c) < 0 {
				continue
			}
			val, idx := v[j+1:], i
			if val == "" && i+1 < len(args) {
				i++
				val, idx = args[i].Value, i
			}
			if c == 'C' {
				return val, idx, true
			}
			break
		}
	}
	return "", 0, false
}

// printfVar returns the variable printf -v assigns (a Hole when only known
// at run time).
func printfVar(args []Word) (string, bool) {
	if len(args) < 2 || args[0].Value != "printf" {
		return "", false
	}
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--" || len(v) < 2 || v[0] != '-':
			return "", false
		case v == "-v":
			if i+1 < len(args) {
				return args[i+1].Value, true
			}
			return "", false
		case strings.HasPrefix(v, "-v"):
			return v[2:], true
		case strings.Contains(v, Hole):
			return Hole, true
		}
	}
	return "", false
}

// subscriptCode returns why args, a simple command, would run code in an
// array subscript of a static argument, or "": bash expands a subscript's
// text when it evaluates it, so a "$" or backquote in it runs, quoted or
// not (let 'a[$(cmd)]=1', read 'a[$(cmd)]', [ -v 'a[$(cmd)]' ]). Seen are
// let's expressions, the names of declare, typeset, local, readonly and
// export (their values too under -i or, but for export, -n), of unset,
// read, printf -v, wait -p and test -v ([ -v, [[ -v), and the operands of
// [['s arithmetic comparisons (-eq …). Arguments only known at run time are not
// seen here (README "Known limits").
func subscriptCode(args []Word) string {
	name, ops := evaluatedOperands(args)
	for _, op := range ops {
		if op.Compound {
			if v := op.Word.Value; strings.HasPrefix(v, "(") && strings.ContainsAny(v, "$`") {
				return name + " parses the quoted value " + strconv.Quote(v) + " as an array's elements, expanding $ and ` in it, and so may run code"
			}
			continue
		}
		v := strings.ReplaceAll(op.Word.Value, Hole, "")
		if i := strings.IndexByte(v, '['); i >= 0 && strings.ContainsAny(v[i:], "$`") {
			return name + " evaluates the array subscript in " + strconv.Quote(op.Word.Value) + ", where bash expands $ and ` and so may run code"
		}
	}
	return ""
}

// operand is a word of a simple command that bash evaluates: as a
// variable's name (Name) or as an arithmetic expression.
type operand struct {
	Word Word
	Name bool
	// Compound: a value declare -a or -A (typeset, local …) assigns as
	// written in quotes or from a variable, which bash parses again as
	// a compound assignment "(…)" when it reads so, expanding what it
	// holds: declare -a x='($(cmd))' runs cmd.
	Compound bool
}

// evaluatedOperands returns the command name (past builtin and command)
// and the operands of args, a simple command, that bash evaluates as a
// variable's name, whose subscript it expands, or as arithmetic (see
// subscriptCode): let's expressions, the names of declare, typeset,
// local, readonly and export (their values too under -i or, but for
// export, -n: those as arithmetic), of unset, read, printf -v, wait -p and
// test -v ([ -v, [[ -v), and the operands of [['s arithmetic comparisons
// (-eq …). A NAME=value word gives its name; Source is cut there too.
func evaluatedOperands(args []Word) (string, []operand) {
	for len(args) > 1 && (args[0].Value == "command" || args[0].Value == "builtin") {
		args = args[1:]
		for len(args) > 1 && (args[0].Value == "-p" || args[0].Value == "--") {
			args = args[1:]
		}
	}
	if len(args) < 2 {
		return "", nil
	}
	name := args[0].Value
	var out []operand
	rest := args[1:]
	switch name {
	case "let":
		for _, w := range rest {
			out = append(out, operand{Word: w})
		}
	case "unset":
		for _, w := range rest {
			out = append(out, operand{Word: w, Name: true})
		}
	case "declare", "typeset", "local", "readonly", "export":
		values, arrays := false, false
		for _, w := range rest {
			v := w.Value
			if len(v) > 1 && (v[0] == '-' || v[0] == '+') && !strings.Contains(v, "=") {
				values = values || strings.ContainsRune(v, 'i') || (name != "export" && strings.ContainsRune(v, 'n'))
				arrays = arrays || v[0] == '-' && strings.ContainsAny(v, "aA"+Hole)
				continue
			}
			n, val, assigns := strings.Cut(v, "=")
			src, srcVal, _ := strings.Cut(w.Source, "=")
			out = append(out, operand{Word: Word{Value: n, Source: src}, Name: true})
			if values && assigns {
				out = append(out, operand{Word: Word{Value: val, Source: srcVal}})
			}
			if arrays && assigns && !strings.HasPrefix(srcVal, "(") {
				out = append(out, operand{Word: Word{Value: val, Source: srcVal}, Compound: true})
			}
		}
	case "read", "printf", "wait", "test", "[", "[[":
		// The operands that name a variable: read's (and -a's), printf
		// -v's, wait -p's, test -v's.
		flag := "-v" // printf's, test's, ['s, [['s
		switch name {
		case "read":
			flag = ""
		case "wait":
			flag = "-p"
		}
		for i, w := range rest {
			v := w.Value
			switch {
			case name == "[[" && arithTestOp(v):
				// Both operands are arithmetic expressions (test and [
				// take integers only).
				for _, o := range []int{i - 1, i + 1} {
					if o >= 0 && o < len(rest) {
						out = append(out, operand{Word: rest[o]})
					}
				}
			case flag != "" && v == flag && i+1 < len(rest):
				out = append(out, operand{Word: rest[i+1], Name: true})
			case (name == "printf" || name == "wait") && strings.HasPrefix(v, flag) && len(v) > len(flag):
				n := Word{Value: v[len(flag):], Source: strings.TrimPrefix(w.Source, flag)}
				out = append(out, operand{Word: n, Name: true})
			case name == "read" && !strings.HasPrefix(v, "-") && (i == 0 || !readTakesArg(rest[i-1].Value)):
				out = append(out, operand{Word: w, Name: true})
			}
		}
	}
	return name, out
}

// arithTestOp reports a test operator whose operands are arithmetic.
func arithTestOp(op string) bool {
	switch op {
	case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

// readTakesArg reports a read option whose next word is its argument
// (a prompt, a delimiter, …), not a variable name; -a's is a name.
func readTakesArg(opt string) bool {
	if len(opt) < 2 || opt[0] != '-' || opt == "--" {
		return false
	}
	return strings.ContainsAny(opt[len(opt)-1:], "dinNptu")
}

// scriptFloor is the lowest descriptor number bash may hold its script
// on, or a copy of it, at the top level: bash keeps the descriptors of its
// own at 10 and above (SHELL_FD_BASE): the script it reads (moved to the
// highest free one below 256) and, while a redirection replaces that one,
// a saved copy of it at the lowest free one from 10 (attack run 31: `{
// read -u 10 x; } 255>/dev/null` read the next line of the script).
const scriptFloor = 10

// scriptFd reports whether v, a descriptor number as written, could be
// the one bash reads its script from (see scriptFloor): a command that
// reads it (read -u 255, cat <&255) takes text from under bash, which then
// runs as code what the analysis read as data (an attack run's here-
// document body), and one that replaces it (exec 255<FILE) makes bash go
// on with another file's text. An attack run read a stdin script's
// channel, a large script's descriptor and a nested `bash FILE`'s so.
func scriptFd(v string) bool { return scriptFdFrom(v, scriptFloor) }

// scriptFdIn is scriptFd where the analysis stands: in a nested shell
// reading its script from a file (see analyzer.fileScript), any
// descriptor from 3 up.
func (a *analyzer) scriptFdIn(v string) bool {
	if a.fileScript > 0 {
		return scriptFdFrom(v, 3)
	}
	return scriptFd(v)
}

// scriptFdFrom reports v, plain digits, naming a descriptor of floor or
// above.
func scriptFdFrom(v string, floor int) bool {
	if !allDigits(v) {
		return false
	}
	n, err := strconv.Atoi(v)
	return err != nil || n >= floor
}

// readsScriptFd reports whether read, mapfile or readarray's options
// (args[0] is the builtin) give -u a descriptor scriptFdIn reports, or one
// not written as plain digits (only known at run time, or " 255", "+255",
// which bash reads as 255).
func (a *analyzer) readsScriptFd(args []Word) bool {
	withArg := "adinNptu" // read's options that take a value
	if args[0].Value != "read" {
		withArg = "dnOsuCc" // mapfile's
	}
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if strings.Contains(v, Hole) {
			return true // an option only known at run time could be -u
		}
		if v == "--" || len(v) < 2 || v[0] != '-' {
			return false
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			if strings.IndexByte(withArg, c) < 0 {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(args) {
				i++
				val = args[i].Value
			}
			if c == 'u' && (!allDigits(val) || a.scriptFdIn(val)) {
				// bash reads the number as legal_number does (blanks
				// around it, a sign: "+255", " 255"): anything but plain
				// digits could be the script's (attack run 30).
				return true
			}
			break
		}
	}
	return false
}

// readsOwnInput reports whether read, mapfile or readarray in statement
// s reads something other than its shell's standard input: only when s
// itself has input of its own (see ownInput). A -u does not count: the
// descriptor may be a copy of standard input (`exec 3<&0`).
func readsOwnInput(s *syntax.Stmt) bool { return ownInput(s) }

// ownInput reports that statement s itself (not an enclosing compound
// command, which is not looked for) gives descriptor 0 input of its own:
// a here-document, a here-string, or a file named by a literal path
// outside /dev and /proc. A duplicated descriptor (`<&3`) or /dev/stdin
// may be its shell's standard input itself.
func ownInput(s *syntax.Stmt) bool {
	own := false
	for _, r := range s.Redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			own = true
		case syntax.RdrIn, syntax.RdrInOut:
			lit := r.Word.Lit()
			own = lit != "" && !strings.HasPrefix(lit, "/dev/") && !strings.HasPrefix(lit, "/proc/")
		case syntax.DplIn:
			own = false
		}
	}
	return own
}
