package guard

import (
	"strings"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// Prompt variables in an interactive session.
//
// Assigning PS1 or PROMPT_COMMAND changes what an interactive shell runs
// before each prompt, so the rules treat it as running code no rule sees.
// In guardsh's interactive mode the persistent bash never expands a prompt
// itself: guardsh analyses each prompt string and PROMPT_COMMAND element
// before it is used (see interp.Session). There an assignment to one of
// these variables whose value is known and whose code would be allowed
// here is decided like an ordinary assignment; a value only known at run
// time, or code that would not be allowed, still asks. A child shell that
// inherits an exported value gets code that was allowed.

// promptNames are the variables guardsh's interactive mode expands or runs
// before a prompt itself (PS0 is analysed the same way, though guardsh
// does not print it).
var promptNames = map[string]bool{"PS0": true, "PS1": true, "PS2": true, "PROMPT_COMMAND": true}

// declarations are the builtins whose NAME=value arguments assign.
var declarations = map[string]bool{"export": true, "declare": true, "typeset": true, "local": true, "readonly": true}

// PromptAllowed reports whether the code that using value as the prompt
// variable name (PS0, PS1, PS2: expanded as a prompt; PROMPT_COMMAND: run
// as a command) would run is allowed here without asking.
func (g *Guard) PromptAllowed(name, value string) bool {
	if strings.Contains(value, interp.Hole) {
		return false
	}
	text := value
	if name != "PROMPT_COMMAND" {
		var ok bool
		if text, ok = interp.PromptText(value); !ok {
			return false
		}
	}
	o := g.Evaluate(text)
	return o.Decision == rules.Allow && !o.Sandbox
}

// withoutPromptAssigns returns seg without the assignments (NAME=value
// words before the command or as a declaration builtin's arguments) to
// prompt variables whose code PromptAllowed allows; seg itself when there
// are none.
func (g *Guard) withoutPromptAssigns(seg interp.Segment) interp.Segment {
	vetted := func(w interp.Word) bool {
		name, value, ok := strings.Cut(w.Value, "=")
		return ok && promptNames[name] && g.PromptAllowed(name, value)
	}
	out := seg
	if len(seg.Assigns) > 0 {
		out.Assigns = nil
		for _, w := range seg.Assigns {
			if !vetted(w) {
				out.Assigns = append(out.Assigns, w)
			}
		}
	}
	if len(seg.Args) > 1 && declarations[seg.Args[0].Value] {
		out.Args = []interp.Word{seg.Args[0]}
		for _, w := range seg.Args[1:] {
			if !vetted(w) {
				out.Args = append(out.Args, w)
			}
		}
	}
	return out
}
