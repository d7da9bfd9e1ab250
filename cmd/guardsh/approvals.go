package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/guardsh/guardsh/internal/guard"
	"github.com/guardsh/guardsh/prompt"
	"github.com/guardsh/guardsh/rules"
)

// spool is the user's approvals directory (see prompt.SpoolDir); its Dir
// is "" when the home directory is unknown.
func spool() prompt.Spool {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return prompt.Spool{}
	}
	return prompt.Spool{Dir: prompt.SpoolDir(home)}
}

// newPrompter is the approval channel of a shell run under policy; "always"
// answers go to userPath.
func newPrompter(policy *rules.Policy, userPath string, stderr io.Writer) *prompt.Prompter {
	exe, _ := os.Executable()
	return &prompt.Prompter{Config: policy.Approval, Spool: spool(), UserConfig: userPath,
		Initial: rules.DefaultConfig(), PPID: os.Getppid(), Exe: exe, Stderr: stderr}
}

// session names the requesting session an approval is bound to.
func session() string {
	if s := os.Getenv("GUARDSH_SESSION"); s != "" {
		return s
	}
	return "ppid:" + strconv.Itoa(os.Getppid())
}

// resolve asks about o when it is Ask (prompt.Prompter.Resolve); in CI
// mode nothing is asked (the ask is refused: headless deny).
func (s *shellRun) resolve(text string, o guard.Outcome) prompt.Answer {
	if o.Decision != rules.Ask || s.prompter == nil || s.ci {
		return prompt.Answer{Decision: o.Decision}
	}
	return s.prompter.Resolve(o, prompt.NewRequest(o, text, s.guard.Context.Cwd, session()))
}

// approvalsMain is `guardsh approvals`, `guardsh approve ID [--always]`
// and `guardsh deny ID [-m MSG]`.
func approvalsMain(cmd string, args []string, stdout, stderr io.Writer) int {
	usage := func() int {
		fmt.Fprintln(stderr, "usage: guardsh approvals | guardsh approve ID [--always] | guardsh deny ID|--all [-m MESSAGE]")
		return exitUsage
	}
	sp := spool()
	if sp.Dir == "" {
		fmt.Fprintln(stderr, "guardsh: approvals: no home directory")
		return 1
	}
	if cmd == "approvals" && !(len(args) == 2 && args[0] == "dialog") {
		if len(args) > 0 {
			return usage()
		}
		if err := prompt.List(stdout, sp); err != nil {
			fmt.Fprintf(stderr, "guardsh: %v\n", err)
			return 1
		}
		return 0
	}
	if cmd == "approvals" && len(args) == 2 && args[0] == "dialog" {
		// Run by the tmux popup (approval.prompt: tmux).
		exe, _ := os.Executable()
		path, _ := configPath()
		if err := prompt.PopupDialog(sp, args[1], canonical(exe), path, rules.DefaultConfig(), rules.DefaultApproval.Timeout); err != nil {
			fmt.Fprintf(stderr, "guardsh: approvals dialog: %v\n", err)
			return exitRefused
		}
		return 0
	}
	var id, msg string
	always, all := false, false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--always" && cmd == "approve":
			always = true
		case a == "--all" && cmd == "deny":
			all = true
		case (a == "-m" || a == "--message") && cmd == "deny" && i+1 < len(args):
			i++
			msg = args[i]
		case id == "" && a != "" && a[0] != '-':
			id = a
		default:
			return usage()
		}
	}
	if id == "" && !all || id != "" && all {
		return usage()
	}
	exe, _ := os.Executable()
	if err := prompt.CheckApprover(canonical(exe)); err != nil {
		fmt.Fprintf(stderr, "guardsh: %s %s: %v\n", cmd, cmp.Or(id, "--all"), err)
		fmt.Fprintf(stderr, "guardsh:   %s\n", prompt.ApproverHelp(cmd, cmp.Or(id, "--all")))
		return exitRefused
	}
	if all {
		// Every pending approval: the requests a headless agent left.
		list, err := sp.List()
		if err != nil {
			fmt.Fprintf(stderr, "guardsh: deny --all: %v\n", err)
			return 1
		}
		n := 0
		for _, a := range list {
			if a.Status != prompt.Pending {
				continue
			}
			if _, err := sp.Decide(a.ID, prompt.Denied, false, msg); err != nil {
				fmt.Fprintf(stderr, "guardsh: deny %s: %v\n", a.ID, err)
				continue
			}
			n++
		}
		fmt.Fprintf(stdout, "%d pending approvals denied\n", n)
		return 0
	}
	var err error
	switch {
	case cmd == "deny":
		_, err = sp.Decide(id, prompt.Denied, false, msg)
	case always:
		path, _ := configPath()
		var added []prompt.Added
		if added, err = prompt.ApproveAlways(sp, id, path, rules.DefaultConfig()); err == nil {
			for _, a := range added {
				fmt.Fprintf(stdout, "remembered: %q in rules.shell.allow (%s:%d)\n", a.Pattern, a.File, a.Line)
			}
		}
	default:
		_, err = sp.Decide(id, prompt.Approved, false, "")
	}
	if err != nil {
		fmt.Fprintf(stderr, "guardsh: %s: %v\n", cmd, err)
		return 1
	}
	done := map[string]string{"approve": "approved", "deny": "denied"}[cmd]
	if done == "" {
		done = cmd + "d"
	}
	fmt.Fprintf(stdout, "%s: %s\n", id, done)
	return 0
}
