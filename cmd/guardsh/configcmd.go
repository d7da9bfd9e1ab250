package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/guardsh/guardsh/rules"
)

// Exit statuses of guardsh config lint (64 is sysexits' EX_USAGE, as for
// guardsh check).
const (
	lintClean    = 0
	lintWarnings = 1
	lintErrors   = 2
	configUsage  = 64
)

const configUsageText = `usage: guardsh config show [--config F] [--cwd D]
       guardsh config lint [FILE…]

Subcommands:
  show    print the effective policy (system, user and project layers
          merged) with the file and line of every rule
  lint    check config files for mistakes: what guardsh would reject, and
          rules that can never take effect or reach further than they seem`

const configLintUsageText = `usage: guardsh config lint [FILE…]

Checks each FILE, or with none every layer: the system config
(/etc/guardsh/config.yaml) if it exists, the user config ($GUARDSH_CONFIG,
else $XDG_CONFIG_HOME/guardsh/config.yaml, else
~/.config/guardsh/config.yaml; the embedded default policy when that does
not exist), and the project's .guardsh.yaml if the workspace has one (with
a warning for each setting a project file may not make). Prints one line per
problem, FILE:LINE: error|warning: PROBLEM, then a summary.
Exit status: 0 no problems, 1 warnings only, 2 errors, 64 usage error.`

// configMain runs `guardsh config SUBCOMMAND …`.
func configMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "guardsh config: missing subcommand\n%s\n", configUsageText)
		return configUsage
	}
	// One case per subcommand; each subcommand's usage line belongs in
	// configUsageText.
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, configUsageText)
		return 0
	case "lint":
		return configLintMain(args[1:], stdout, stderr)
	case "show":
		return configShow(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "guardsh config: unknown subcommand %q\n%s\n", args[0], configUsageText)
		return configUsage
	}
}

// lintProject lints a project file (.guardsh.yaml) as the layer it is:
// its findings but how broad an allow rule is, and what the layer may not
// set (its allow rules, its mode), which guardsh ignores.
func lintProject(project string) []rules.Finding {
	var findings []rules.Finding
	for _, f := range rules.LintFile(project) {
		// Its allow rules are ignored (said below): how much one would
		// allow is beside the point.
		if !rules.BroadAllowFinding(f) {
			findings = append(findings, f)
		}
	}
	if p, err := rules.Load(project); err == nil {
		_, ignored := rules.Merge(rules.Layers{Project: p})
		findings = append(findings, ignored...)
	}
	return findings
}

// configLintMain runs `guardsh config lint [FILE…]`.
func configLintMain(args []string, stdout, stderr io.Writer) int {
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case a == "-h" || a == "--help":
			fmt.Fprintln(stdout, configLintUsageText)
			return 0
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "guardsh config lint: unknown flag %s\n%s\n", a, configLintUsageText)
			return configUsage
		default:
			files = append(files, a)
		}
	}

	var findings []rules.Finding
	var linted string
	if len(files) == 0 {
		path, explicit := configPath()
		_, err := os.Stat(path)
		switch {
		case path == "":
			linted = rules.DefaultFile + " (no config file: the home directory is unknown)"
			findings = rules.Lint(rules.DefaultConfig(), rules.DefaultFile)
		case !explicit && errors.Is(err, fs.ErrNotExist):
			linted = fmt.Sprintf("%s (no config file at %s)", rules.DefaultFile, path)
			findings = rules.Lint(rules.DefaultConfig(), rules.DefaultFile)
		default:
			linted = path
			findings = rules.LintFile(path)
		}
		// The other layers that exist: the system config, and the
		// project file of the working directory's workspace, whose
		// ignored settings are warnings too.
		n := 1
		if _, err := os.Stat(systemConfig); err == nil {
			findings = append(rules.LintFile(systemConfig), findings...)
			n++
		}
		cwd, _ := os.Getwd()
		ws, lay := layout(canonical(cwd), stderr)
		// What a command run here would be refused for before any
		// config is read (see loadFor): a config or state place the
		// environment puts in the workspace, a relative GUARDSH_CONFIG.
		if explicit && !filepath.IsAbs(path) {
			findings = append(findings, rules.Finding{File: path, Severity: rules.SeverityError,
				Problem: fmt.Sprintf("GUARDSH_CONFIG=%q is not an absolute path: guardsh refuses to run with it", path)})
		} else if err := envPlacesOutside(ws, lay.Root); err != nil {
			findings = append(findings, rules.Finding{File: path, Severity: rules.SeverityError,
				Problem: fmt.Sprintf("in %s, guardsh refuses to run: %v", cwd, err)})
		}
		for _, d := range lay.Dirs {
			project := filepath.Join(d, projectConfig)
			if _, err := os.Stat(project); err == nil {
				findings = append(findings, lintProject(project)...)
				n++
			}
		}
		if n > 1 {
			linted = fmt.Sprintf("%s and %d more layer(s)", linted, n-1)
		}
	} else {
		for _, f := range files {
			if filepath.Base(f) == projectConfig {
				// Linted as the project file it is (a new user's allow
				// rule in one passed, then was ignored at every command).
				findings = append(findings, lintProject(f)...)
				continue
			}
			findings = append(findings, rules.LintFile(f)...)
		}
		linted = files[0]
		if len(files) > 1 {
			linted = fmt.Sprintf("%d files", len(files))
		}
	}

	errs, warnings := 0, 0
	for _, f := range findings {
		fmt.Fprintln(stdout, f)
		if f.Severity == rules.SeverityError {
			errs++
		} else {
			warnings++
		}
	}
	switch {
	case errs > 0:
		fmt.Fprintf(stdout, "%s: %s, %s\n", linted, count(errs, "error"), count(warnings, "warning"))
		return lintErrors
	case warnings > 0:
		fmt.Fprintf(stdout, "%s: %s\n", linted, count(warnings, "warning"))
		return lintWarnings
	}
	fmt.Fprintf(stdout, "%s: no problems found\n", linted)
	return lintClean
}

// count renders "1 error", "2 errors".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
