package main

import (
	"fmt"
	"github.com/guardsh/guardsh/interp"
	"path/filepath"
	"strings"
)

// invocation is guardsh's command line read the way bash reads its own.
type invocation struct {
	// name is argv[0]'s base name without a login "-"; login is true when
	// argv[0] started with "-".
	name  string
	login bool
	// options are the bash options to hand to the real shell, with -c and
	// -s taken out: long options first (bash accepts them only there), then
	// short ones in order.
	options []string
	long    []string
	// command is -c, stdin is -s, interactive is -i.
	command, stdin, interactive bool
	// initFile is the --rcfile/--init-file operand.
	initFile string
	// version and help ask bash's --version / --help.
	version, help bool
	// ci is guardsh's own --ci: headless, and bash's
	// --noprofile --norc -e -o pipefail as GitHub Actions runs steps.
	ci bool
	// mode is guardsh's own --mode M (or --mode=M): like GUARDSH_MODE, it
	// may only make the configured mode stricter.
	mode string
	// operands follow the options: the command string (with -c) or script
	// file, then $0 (with -c) and the positional parameters.
	operands []string
}

// usageError is a command-line error; bash exits 2 for these.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// takesArg lists the short options that consume the next argument.
const takesArg = "oO"

// refusedOptions are bash options that would make bash run something other
// than what guardsh analysed: -k turns any NAME=value argument into an
// environment assignment, and history expansion (-H) rewrites a command from
// earlier lines after analysis. guardsh refuses them on its command line and
// starts bash with +H.
var refusedOptions = map[string]string{
	"k":          "-k makes NAME=value arguments environment assignments",
	"keyword":    "-o keyword makes NAME=value arguments environment assignments",
	"H":          "-H turns on history expansion, which rewrites commands after analysis",
	"histexpand": "-o histexpand turns on history expansion, which rewrites commands after analysis",
}

// parseInvocation reads argv (argv[0] included) as bash does: long options,
// then short options that may be bundled (-lc, -eo pipefail) and may start
// with + to unset, up to "--", "-" or the first operand. -c is a flag; the
// command string is the first operand.
func parseInvocation(argv []string) (*invocation, error) {
	inv := &invocation{}
	arg0 := "guardsh"
	if len(argv) > 0 {
		arg0 = argv[0]
	}
	if strings.HasPrefix(arg0, "-") {
		inv.login = true
		arg0 = arg0[1:]
	}
	inv.name = filepath.Base(arg0)
	args := argv[min(1, len(argv)):]
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			if m, ok := strings.CutPrefix(a, "--mode="); ok {
				inv.mode = m
				continue
			}
			switch a {
			case "--mode":
				if i+1 >= len(args) {
					return nil, &usageError{a + ": option requires an argument"}
				}
				i++
				inv.mode = args[i]
			case "--version":
				inv.version = true
			case "--help":
				inv.help = true
			case "--ci":
				inv.ci = true
				inv.long = append(inv.long, "--noprofile", "--norc")
				inv.options = append(inv.options, "-e", "-o", "pipefail")
			case "--login":
				inv.long = append(inv.long, a)
			case "--rcfile", "--init-file":
				if i+1 >= len(args) {
					return nil, &usageError{a + ": option requires an argument"}
				}
				i++
				inv.initFile = args[i]
				inv.long = append(inv.long, a, args[i])
			case "--noprofile", "--norc", "--posix", "--noediting", "--restricted", "--verbose",
				"--debugger", "--dump-strings", "--dump-po-strings", "--pretty-print":
				inv.long = append(inv.long, a)
			default:
				return nil, &usageError{a + ": invalid option"}
			}
			continue
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		kept := []byte{a[0]}
		var optArgs []string
		for _, c := range []byte(a[1:]) {
			switch {
			case c == 'c' && a[0] == '-':
				inv.command = true
				continue
			case c == 's' && a[0] == '-':
				inv.stdin = true
				continue
			case c == 'i' && a[0] == '-':
				inv.interactive = true
			case strings.IndexByte(takesArg, c) >= 0:
				if i+1 < len(args) {
					i++
					if why, bad := refusedOptions[args[i]]; bad && c == 'o' && a[0] == '-' {
						return nil, &usageError{why + "; guardsh does not support it"}
					}
					if c == 'O' && (a[0] == '-' && interp.RiskyShoptNames[args[i]] || a[0] == '+' && (args[i] == "sourcepath" || args[i] == "interactive_comments")) {
						// (Attack run 32: -O extglob made `cat ~/.ssh/@(id_rsa)`
						// read the key the analysis took for a file of that name.)
						return nil, &usageError{fmt.Sprintf("%cO %s makes bash run or read what guardsh did not analyse (turn it on inside the command, where guardsh sees it); guardsh does not support it", a[0], args[i])}
					}
					optArgs = append(optArgs, args[i])
				}
			case (c == 'k' || c == 'H') && a[0] == '-':
				return nil, &usageError{refusedOptions[string(c)] + "; guardsh does not support it"}
			case !strings.ContainsRune("abefhkmnptuvxBCEHPTilr", rune(c)):
				return nil, &usageError{fmt.Sprintf("%c%c: invalid option", a[0], c)}
			}
			kept = append(kept, c)
		}
		if len(kept) > 1 {
			inv.options = append(inv.options, string(kept))
		}
		inv.options = append(inv.options, optArgs...)
	}
	inv.operands = args[i:]
	if inv.login {
		inv.options = append([]string{"-l"}, inv.options...)
	}
	inv.options = append(append(inv.long, inv.options...), "+H")
	inv.long = nil
	if inv.command && len(inv.operands) == 0 {
		return nil, &usageError{"-c: option requires an argument"}
	}
	return inv, nil
}

// quietOptions are the bash options that cannot change what a no-op builtin
// (true, :, false) does or prints: errexit, nounset, pipefail and the
// like. -n (noexec), -x and -v (tracing), -i, -l and --login (start-up
// files) and anything else are not here.
var quietOptions = map[string]bool{
	"--noprofile": true, "--norc": true, "--noediting": true, "+H": true,
	"errexit": true, "nounset": true, "pipefail": true, "noclobber": true, "errtrace": true,
	"functrace": true, "hashall": true, "braceexpand": true, "allexport": true, "physical": true,
}

// quietShortOptions are the single-letter forms of quietOptions, which may
// be bundled (-eu, +e).
const quietShortOptions = "aefhuBCEPT"

// quiet reports whether bash, started with this invocation's options, would
// do nothing but run the command: no start-up file, no tracing, no noexec.
// Then a no-op builtin gives the same status whether bash runs it or not
// (see interp.NoOpStatus).
func (inv *invocation) quiet() bool {
	if inv.login || inv.interactive || inv.initFile != "" {
		return false
	}
	for i := 0; i < len(inv.options); i++ {
		o := inv.options[i]
		switch {
		case quietOptions[o]:
		case len(o) >= 2 && (o[0] == '-' || o[0] == '+') && o[1] != '-':
			for _, c := range o[1:] {
				switch {
				case c == 'o':
					// Each o in a cluster takes the next word: -eo pipefail.
					if i+1 >= len(inv.options) || !quietOptions[inv.options[i+1]] {
						return false
					}
					i++
				case !strings.ContainsRune(quietShortOptions, c):
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}
