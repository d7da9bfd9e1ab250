// Package interp is guardsh's view of the shell language: it parses a command
// with the bash dialect of mvdan.cc/sh/v3 and finds every simple command that
// would run and every file a redirection would write or read. It knows nothing
// of policy.
//
// # Segments
//
// Analyze turns a command text into segments. An Exec segment is one simple
// command, wherever it sits: in a list or pipeline, a subshell, group, if,
// while, until, for, select or case, a function body (a definition counts as
// code), a command or process substitution, an arithmetic expansion, a [[ ]]
// operand, a parameter-expansion operand (${x:-$(cmd)}), a redirection
// target, an assignment value or an unquoted here-document body (a quoted
// one, <<'EOF', is data). Declarations (export, declare, typeset, local,
// readonly) are Exec segments: Args holds the name, flags and other operands,
// Assigns the NAME=value operands. A statement of assignments only is an
// Exec segment with no Args. So is the loop variable of for NAME in … and
// select NAME in …: an Exec segment with no Args and Assigns
// ["NAME=<Hole>"], after the commands nested in the loop's words and
// before its body, since each iteration assigns NAME a value only known at
// run time (for PATH in …, for PS4 in … are assignments a policy should
// see).
//
// Three compound commands are Exec segments too, so that a policy sees
// them: [[ ]] as ["[[", operands and operators…, "]]"] (operands after
// quote removal), (( )) as ["((", expression, "))"] and let as ["let",
// expression…] (an expression as written, run-time parts as Holes; a lone
// quoted word after quote removal). Their operands can run code at run
// time through array subscripts (let 'a[$(cmd)]'), which no static reading
// can see; a policy should treat them like any other program.
//
// A Write segment is an output redirection (>, >>, >|, &>, &>>, <>, N>,
// >&word where word is not a file descriptor) to a file; a Read segment an
// input redirection (<, <>) from a file. /dev/null, /dev/tty, /dev/stdout,
// /dev/stderr, /dev/fd/1 and /dev/fd/2 (for writes), /dev/stdin and
// /dev/fd/0 (for reads) are not files here, and fd duplications (2>&1,
// >&2, <&0, >&-) are not redirections to files. Here-documents and
// here-strings are not reads.
//
// A target that names a file of the shell's own process is a whole Hole:
// a path under /proc/self, /proc/thread-self, /proc/PID, /dev/fd (other
// than the exemptions above), /dev/stdin, /dev/stdout or /dev/stderr
// (writing /dev/stdin, reading /dev/stdout, any /dev/fd/3…), also when "."
// or ".." lead there (/dev/fd/../cwd/x is the shell's working directory).
// Writing /dev/stdout or /dev/stderr reopens, for writing, whatever file is
// on fd 1 or 2; so an input redirection from a file onto fd 1 or 2
// (2<file) is a Write of that file too, and a duplication onto fd 1 or 2
// of another descriptor (2>&5, 1<&0) a Write of a Hole.
//
// # Nested code
//
// Code that a command runs from a string is parsed and analysed too, and the
// command itself stays a segment: eval (its arguments joined by single
// spaces, after an optional "--"), the -c operand of bash, sh, zsh, dash, ksh,
// mksh, ash, rbash and guardsh (by base name, with flags before and after -c,
// clustered or not, and -o/-O arguments skipped; also busybox sh; the code
// of sh, dash and ash, and of busybox's shells, is parsed as POSIX sh, as
// dash reads it, nested eval and trap text included), what
// such a shell reads as code from its standard input when it has no -c and
// no script operand (or the script /dev/stdin, or for source /dev/stdin): a
// here-document or here-string, or, as the last stage of a pipe, the output
// of echo with static operands or of cat of a here-document, the action of trap and the value of alias NAME=VALUE. Wrappers run a command of their own,
// found with each one's option grammar (getopt.go, wrappers.go): command,
// builtin, exec, env (its NAME=value become Assigns; -S is split as env
// splits it), nohup, nice, timeout, stdbuf, setsid, chroot, ionice,
// taskset, nsenter, unshare, setpriv, flock, strace, ltrace, busybox,
// sudo (-s/-i: shell code), doas, su and runuser (-c: shell code), time,
// watch (sh -c of its words), script -c, xargs (with a trailing Hole for
// the arguments it reads, or Holes for its -I string), parallel (inputs
// as Holes), each -exec, -execdir, -ok and -okdir of find ("{}" a Hole),
// ssh (its remote command, as shell code), docker|podman exec|run,
// kubectl exec … -- and tmux (new-session, new-window, send-keys, …). Some
// programs run a command given in an option, analysed as shell code: git
// -c alias.X=!… (followed when X is the subcommand; an alias without "!"
// expands to a git command), git -c core.pager and the other keys that
// name a command, tar --to-command/--checkpoint-action=exec=/-I, sort
// --compress-program, man -P, rsync -e, zip -TT. A wrapped command is an
// extra Exec segment with the wrapper's Assigns. Segments found this way have
// Via set: "eval", "bash -c", "sh <<", "sh <<<", "| sh", "trap", "alias", the wrapper's name or
// "find -exec", and "$(…)", "`…`", "<(…)", ">(…)" for substitutions. A
// payload only known at run time is not analysed; the segment carrying it has
// a Hole. A payload deeper than Options.MaxDepth, or one that fails to parse,
// makes the whole text *NotUnderstood.
//
// Segment.RunsCode marks a segment that may run code only known at run time,
// code no segment shows: eval of text with a Hole; a shell whose -c string
// or options have a Hole, or whose standard input (a here-document or
// here-string with a Hole, a pipe from a command whose output is not known,
// or an inherited one) is not analysed; a trap with a Hole in its operands;
// an alias with a Hole; source or . of a path with a Hole; a wrapper whose
// options or operands are only known at run time or not in its table, or
// whose command cannot be followed (kubectl exec without "--", tmux
// send-keys, parallel, git -c core.hooksPath); and any segment
// with a prompt expansion ${x@P} or a locale translation $"…" in a word
// (bash expands the value, or the translation, and runs its command
// substitutions). Such a word is a whole Hole; where no segment could
// carry it (a case word or pattern, an arithmetic for loop, a coproc name,
// the here-document of a compound command), the text is *NotUnderstood.
//
// # Words
//
// Each Word is one argument as bash would pass it (as dash would, in code
// parsed as POSIX sh: no brace expansion): brace expansion, tilde
// expansion (Options.Home; after "=" and ":" too in assignments and
// assignment-like arguments), and quote removal are done as bash does them,
// with mvdan.cc/sh/v3/expand; where expand differs from bash ($'\cX'
// escapes, a tilde after brace expansion as in {a,~}), this package does the
// step itself, and a test compares the result with bash's. Every part
// only known at run time (parameter expansion, command, process and
// arithmetic substitution) is a Hole inside Value, so "/tmp/$x" is
// "/tmp/\x00"; an unquoted part is not split into fields, so it stays one
// Word. A word with an unquoted glob character or an extended glob becomes a
// whole Hole, since globbing replaces it with unknown file names. A brace
// expansion gives several Words with the same Source. Assignment values and
// [[ operands get no brace expansion, splitting or globbing, as in bash.
//
// # Order
//
// Segments come in the order they would run: statements in source order,
// pipeline stages left to right; for a simple command, first the commands
// nested in its assignments and words (left to right, innermost first), then
// its redirections in source order (each after the commands nested in its
// target), then the command itself, then the segments of what it runs
// (eval, sh -c, trap, wrappers). A compound command's redirections come
// before its body.
//
// # Working directory
//
// A relative redirection target is resolved against a working directory the
// analysis cannot follow once it may have changed. So a relative target
// (not starting with "/" or with a Hole) becomes a whole Hole when a segment
// that may change the directory comes before it in the order above (cd,
// pushd, popd, eval of text only known at run time, or a command whose name
// is only known at run time; at any depth, even inside a subshell or
// substitution where it would not matter), when it is inside a loop that
// contains such a segment (a later iteration runs after it), or when it is in
// a function body, trap action or alias value (which run later) and the text
// has such a segment anywhere; with Options.DirChanged, always.
//
// # Lines
//
// Segment.Line is 1-based in the text given to Analyze. Commands in
// substitutions, here-documents and compound commands are part of that text
// and report their own line. Segments of a re-parsed payload (eval, sh -c,
// trap, a here-document fed to a shell) report the line of the word (or
// redirection) that holds the payload.
//
// # Failing closed
//
// Analyze returns *NotUnderstood, and no segments, for text that does not
// parse or is incomplete, contains a raw carriage return or NUL byte, is
// larger than MaxScriptSize or holds one command larger than MaxTextSize
// (a longer text is parsed one top-level command at a time), nests brackets deeper than the parser can afford,
// expands beyond the analysis budget, or holds a nested payload with any of
// these problems or nested deeper than Options.MaxDepth.
//
// It also refuses text that parses but that the parser may read otherwise
// than bash (or dash) does, so that the commands seen would not be the
// commands run: a comment whose line ends in a backslash (the shell ends
// the comment at the newline; the parser continues the line); "$" followed
// by a line continuation ("$\" newline "(cmd)" is $(cmd) to bash), and any
// line continuation with no blank on either side and, on one side at
// least, a character other than a letter, digit, "_", ".", ",", "/", "-"
// or non-ASCII byte (bash removes backslash-newline before it finds tokens:
// "<\" newline "(" is "<("); an unquoted here-document whose
// line continuations move where bash ends it; a single-quoted string where
// bash reads single quotes as plain characters and expands what they hold
// (an operand of ${…} inside double quotes or an unquoted here-document,
// "${x:-'$(cmd)'}"; arithmetic, $(( '$(cmd)' )), array subscripts and
// ${x:offset}), unless it holds only letters, digits, blanks and
// "_.,:/+=@%-"; "<(" or ">(" in the operand of ${…} (bash runs the process
// substitution, the parser reads text); a $'…' escape whose value depends
// on the locale (\u or \U of a surrogate or beyond U+10FFFF); and a text
// that ends in a backslash (bash drops it when it reads a script from a
// file or a pipe). A line continuation after a blank ("cmd \" newline
// "  --flag") is fine.
//
// One parse error is recovered the way bash recovers it: bash reads "$(("
// or "((" as arithmetic only when a ")" follows at once the parenthesis
// pair its second "(" opens, and otherwise as "$( (" or "( (" (a command
// substitution or subshell holding a subshell). The parser always tries
// arithmetic, so TAGS="$((echo HEAD && git tag) | xargs)" fails to parse;
// Analyze then analyses it as bash reads it, and the text
// given to bash is unchanged. Where quotes, backquotes, comments or
// here-documents inside the pair leave bash's reading unsure, the text stays
// not understood.
package interp
