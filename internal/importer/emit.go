package importer

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/guardsh/guardsh/rules"
)

// WriteYAML writes r as a guardsh config fragment, ready to paste into
// ~/.config/guardsh/config.yaml: a comment header naming the source file
// and how decisions and patterns were carried over, the `rules:` mapping
// (sections shell, write, read; in each deny, ask, allow), every pattern
// double-quoted with a trailing comment naming its origin, and a trailing
// comment listing the entries not imported. The output parses with
// rules.Parse. A pattern that several entries produced is written once,
// with every origin.
func (r *Result) WriteYAML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	src := r.Source
	if src == "" {
		src = r.Tool
	}
	fmt.Fprintf(bw, "# guardsh rules imported from %s %s\n", src, commentSafe(r.File))
	fmt.Fprintf(bw, "# by `guardsh import %s`. Paste them into ~/.config/guardsh/config.yaml,\n", r.Tool)
	fmt.Fprintf(bw, "# adding each list's items to the list of the same name there.\n#\n")
	d := r.Decisions
	if d == ([3]string{}) {
		d = [3]string{"allow", "ask", "deny"}
	}
	var maps []string
	for i, to := range []string{"deny", "ask", "allow"} {
		if from := d[2-i]; from != "" {
			maps = append(maps, from+" -> "+to)
		}
	}
	var head []string
	head = append(head,
		"Decisions: "+strings.Join(maps, ", ")+". guardsh decides deny > ask > allow, whatever the order or priority of the rules, and matches a command as its words after quote removal, joined by single spaces.")
	head = append(head, r.Notes...)
	switch n := len(r.Skipped); n {
	case 0:
	case 1:
		head = append(head, "1 entry was not imported; it is listed at the end and on stderr.")
	default:
		head = append(head, fmt.Sprintf("%d entries were not imported; they are listed at the end and on stderr.", n))
	}
	for i, para := range head {
		if i > 0 {
			bw.WriteString("#\n")
		}
		writeComment(bw, "# ", para)
	}

	items := r.merged()
	if len(items) == 0 {
		bw.WriteString("rules: {}\n")
	} else {
		bw.WriteString("rules:\n")
	}
	for _, section := range []string{"shell", "write", "read"} {
		wroteSection := false
		for _, dec := range []rules.Decision{rules.Deny, rules.Ask, rules.Allow} {
			wroteList := false
			for _, it := range items {
				if it.section != section || it.decision != dec {
					continue
				}
				if !wroteSection {
					fmt.Fprintf(bw, "  %s:\n", section)
					wroteSection = true
				}
				if !wroteList {
					fmt.Fprintf(bw, "    %s:\n", dec)
					wroteList = true
				}
				fmt.Fprintf(bw, "      - %s  # %s\n", yamlQuote(it.pattern), strings.Join(it.origins, "; "))
			}
		}
	}
	if len(r.Skipped) > 0 {
		bw.WriteString("\n# Not imported:\n")
		for _, s := range r.Skipped {
			fmt.Fprintf(bw, "#   %s\n", r.origin(s.Where, s.Text))
			writeComment(bw, "#     ", s.Why)
		}
	}
	return bw.Flush()
}

// WriteReport writes one line per entry not imported:
// "guardsh: import: FILE: WHERE: TEXT: WHY".
func (r *Result) WriteReport(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, s := range r.Skipped {
		fmt.Fprintf(bw, "guardsh: import: %s: %s: %s: %s\n", commentSafe(r.File), commentSafe(s.Where), commentSafe(s.Text), commentSafe(s.Why))
	}
	return bw.Flush()
}

// origin is the comment naming a source entry: "FILE WHERE: TEXT".
func (r *Result) origin(where, text string) string {
	return commentSafe(base(r.File) + " " + where + ": " + text)
}

type item struct {
	section  string
	decision rules.Decision
	pattern  string
	origins  []string
}

// merged returns the rules with duplicates (same section, decision and
// pattern) folded into one item.
func (r *Result) merged() []item {
	var out []item
	index := map[[3]string]int{}
	for _, ru := range r.Rules {
		o := r.origin(ru.Where, ru.Text)
		if ru.Note != "" {
			o += " (" + commentSafe(ru.Note) + ")"
		}
		k := [3]string{ru.Section, ru.Decision.String(), ru.Pattern}
		if i, ok := index[k]; ok {
			out[i].origins = append(out[i].origins, o)
			continue
		}
		index[k] = len(out)
		out = append(out, item{section: ru.Section, decision: ru.Decision, pattern: ru.Pattern, origins: []string{o}})
	}
	return out
}

// writeComment writes text as comment lines starting with prefix, wrapped
// at about 78 columns.
func writeComment(w *bufio.Writer, prefix, text string) {
	line := prefix
	for _, word := range strings.Fields(commentSafe(text)) {
		if line != prefix && len(line)+1+len(word) > 78 {
			w.WriteString(line + "\n")
			line = prefix
		}
		if line != prefix {
			line += " "
		}
		line += word
	}
	w.WriteString(line + "\n")
}

// commentSafe returns s unchanged when every character prints on one line,
// and Go-quoted otherwise, so that a comment cannot end early.
func commentSafe(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || r != ' ' && !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// yamlQuote returns s as a YAML double-quoted scalar: '\\' and '"' escaped,
// and every character that is not printable (control characters, line and
// paragraph separators, the byte order mark) as a \x, \u or \U escape,
// which YAML 1.1 and 1.2 read as the code point (YAML spec 1.2.2, 5.7
// Escaped Characters).
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == ' ' || unicode.IsPrint(r) && r != utf8.RuneError:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
