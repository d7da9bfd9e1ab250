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
// Exec segment with no Args.
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
// input redirection (<, <>) from a file. /dev/null, /dev/stdout, /dev/stderr
// (for writes), /dev/stdin, /dev/tty and /dev/fd/N are not files here, and fd
// duplications (2>&1, >&2, <&0, >&-) are not redirections to files.
// Here-documents and here-strings are not reads.
//
// # Nested code
//
// Code that a command runs from a string is parsed and analysed too, and the
// command itself stays a segment: eval (its arguments joined by single
// spaces, after an optional "--"), the -c operand of bash, sh, zsh, dash, ksh,
// mksh, ash, rbash and guardsh (by base name, with flags before and after -c,
// clustered or not, and -o/-O arguments skipped; also busybox sh), what
// such a shell reads as code from its standard input when it has no -c and
// no script operand (or the script /dev/stdin, or for source /dev/stdin): a
// here-document or here-string, or, as the last stage of a pipe, the output
// of echo with static operands or of cat of a here-document, the action of trap and the value of alias NAME=VALUE. Wrappers run a command of their own:
// command, builtin, exec, env (its NAME=value become Assigns), nohup, nice,
// timeout, stdbuf, setsid, sudo, doas, time, xargs (with a trailing Hole for
// the arguments it reads, or Holes for its -I string) and each -exec,
// -execdir, -ok and -okdir of find ("{}" a Hole); the wrapped command is an
// extra Exec segment with the wrapper's Assigns. Segments found this way have
// Via set: "eval", "bash -c", "sh <<", "sh <<<", "| sh", "trap", "alias", the wrapper's name or
// "find -exec", and "$(…)", "`…`", "<(…)", ">(…)" for substitutions. A
// payload only known at run time is not analysed; the segment carrying it has
// a Hole. A payload deeper than Options.MaxDepth, or one that fails to parse,
// makes the whole text *NotUnderstood.
//
// # Words
//
// Each Word is one argument as bash would pass it: brace expansion, tilde
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
// larger than MaxTextSize, nests brackets deeper than the parser can afford,
// expands beyond the analysis budget, or holds a nested payload with any of
// these problems or nested deeper than Options.MaxDepth.
package interp
