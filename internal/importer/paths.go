package importer

import (
	"strings"
)

// Path patterns. guardsh's write and read patterns are anchored by their
// start ("/" absolute, "~/" the home directory, anything else relative to
// the workspace) and their '*' matches any run of characters, '/' included
// (rules/paths.go). A converted pattern of a deny or ask rule may match
// more than the source did, never less ("strict"); one of an allow rule may
// match less, never more.

const (
	whyStarSlash = "gitignore's * stops at /, guardsh's does not, so as an allow rule it would allow more than the source"
	noteWidened  = "widened: ? and [...] became *"
)

// claudePath converts the specifier of a Claude Code Read or Edit rule.
// Those follow the gitignore specification
// (https://git-scm.com/docs/gitignore#_pattern_format) with four anchors
// (https://code.claude.com/docs/en/permissions, "Read and Edit"):
// "//path" from the file system root, "~/path" from the home directory,
// "/path" from the settings file's project and "path" or "./path" from the
// current directory; the last two become workspace-relative guardsh
// patterns. Like gitignore, a pattern also covers what lies inside a
// directory it matches, so a strict conversion adds "P/*" to a P that does
// not end in '*', and a slash-less "path" may match at any depth, so a
// strict conversion adds "*/path" too. strict says the rule denies or asks.
// why is not empty when spec cannot be converted; note says what was
// widened.
func claudePath(spec string, strict bool) (pats []string, note, why string) {
	if spec == "" {
		return nil, "", "has an empty path"
	}
	if strings.IndexByte(spec, 0) >= 0 {
		return nil, "", "has a NUL byte in its path"
	}
	root, rest, bare := "", spec, false
	switch {
	case strings.HasPrefix(spec, "//"):
		root, rest = "/", spec[2:]
	case spec == "~":
		root, rest = "~", ""
	case strings.HasPrefix(spec, "~/"):
		root, rest = "~/", spec[2:]
	case strings.HasPrefix(spec, "~"):
		return nil, "", "names another user's home directory, which guardsh does not expand"
	case strings.HasPrefix(spec, "/"):
		rest = spec[1:]
	case strings.HasPrefix(spec, "./"):
		rest = spec[2:]
	default:
		bare = true
	}
	if strings.HasPrefix(rest, "!") {
		return nil, "", "is a negated gitignore pattern, which guardsh has no equivalent for"
	}
	rest = strings.TrimRight(rest, "/")
	anyDepth := bare && !strings.Contains(rest, "/")

	var segs []string
	if rest != "" {
		segs = strings.Split(rest, "/")
	}
	bodies, widened, why := gitignoreBodies(segs, strict)
	if why != "" {
		return nil, "", why
	}
	if widened {
		note = noteWidened
	}
	var out []string
	for _, body := range bodies {
		full := joinRoot(root, body)
		out = append(out, full)
		if strict && anyDepth && body != "" && !strings.HasPrefix(body, "*") {
			// ("*.txt" already covers "*/*.txt".)
			out = append(out, "*/"+body)
		}
	}
	if strict {
		for _, p := range out {
			if !strings.HasSuffix(p, "*") {
				out = append(out, strings.TrimSuffix(p, "/")+"/*")
			}
		}
	}
	return dedupe(out), note, ""
}

func joinRoot(root, body string) string {
	switch {
	case body == "" && root == "":
		return "."
	case body == "" && root == "~/":
		return "~"
	case root == "~":
		return "~"
	}
	return root + body
}

// gitignoreBodies translates gitignore path segments into guardsh pattern
// bodies (without their anchor). "**" as the last segment is everything
// inside; elsewhere it is zero or more directories, written as two patterns
// (with and without "*/"), or as nothing when the next and last segment
// starts with '*' ("**/*.ts" is exactly "*.ts"). A '*' stops at '/' in
// gitignore, so in an allow rule it is exact only as the whole last segment
// or as the start of a last segment after "**".
func gitignoreBodies(segs []string, strict bool) (bodies []string, widened bool, why string) {
	bodies = []string{""}
	join := func(s string) {
		for i, b := range bodies {
			if b != "" {
				b += "/"
			}
			bodies[i] = b + s
		}
	}
	middle := 0 // "**" segments spelled out as two variants
	for i, seg := range segs {
		last := i == len(segs)-1
		afterStars := i > 0 && segs[i-1] == "**"
		if seg == "**" {
			switch {
			case last:
				join("*")
			case i+1 == len(segs)-1 && strings.HasPrefix(segs[i+1], "*"):
				// The last segment's leading '*' covers every depth.
			default:
				if middle++; middle > 3 {
					return nil, false, "has more than three ** before its end, too many patterns to spell out"
				}
				var next []string
				for _, b := range bodies {
					with := "*"
					if b != "" {
						with = b + "/*"
					}
					next = append(next, with, b)
				}
				bodies = next
			}
			continue
		}
		text, hasStar, wid, why := gitignoreSegment(seg, strict)
		if why != "" {
			return nil, false, why
		}
		widened = widened || wid
		if hasStar && !strict && !(last && (seg == "*" || afterStars && strings.HasPrefix(seg, "*"))) {
			return nil, false, whyStarSlash
		}
		join(text)
	}
	return bodies, widened, ""
}

// gitignoreSegment translates one segment without "**". hasStar says it
// holds a '*'. In a strict conversion '?' and "[...]" become '*' (widened);
// otherwise they cannot be converted.
func gitignoreSegment(seg string, strict bool) (text string, hasStar, widened bool, why string) {
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch c {
		case '\\':
			if i+1 == len(seg) {
				return "", false, false, "ends in a lone backslash"
			}
			i++
			switch seg[i] {
			case '*':
				if !strict {
					return "", false, false, "has a literal *, which guardsh cannot spell"
				}
				b.WriteByte('*')
				hasStar, widened = true, true
			default:
				b.WriteByte(seg[i]) // '?' and '[' are literal to guardsh
			}
		case '*':
			b.WriteByte('*')
			hasStar = true
		case '?', '[':
			end := i
			if c == '[' {
				end = classEnd(seg, i)
				if end < 0 {
					b.WriteByte(c) // no closing ']': a literal '['
					continue
				}
			}
			if !strict {
				return "", false, false, "has the wildcard " + seg[i:end+1] + ", which guardsh cannot spell exactly"
			}
			b.WriteByte('*')
			hasStar, widened = true, true
			i = end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), hasStar, widened, ""
}

// classEnd returns the index of the ']' closing the bracket expression that
// starts at seg[i] == '[', or -1.
func classEnd(seg string, i int) int {
	j := i + 1
	if j < len(seg) && (seg[j] == '!' || seg[j] == '^') {
		j++
	}
	if j < len(seg) && seg[j] == ']' {
		j++
	}
	for ; j < len(seg); j++ {
		if seg[j] == ']' {
			return j
		}
	}
	return -1
}

// opencodePath converts a path pattern of an opencode edit or read rule.
// Its wildcards are '*' (any run of characters, '/' included) and '?'
// (exactly one), and "~" or "$HOME" may start it
// (https://opencode.ai/docs/permissions, "Wildcards", "Home directory
// expansion"); a relative pattern becomes workspace-relative.
func opencodePath(spec string, strict bool) (pats []string, note, why string) {
	switch {
	case spec == "":
		return nil, "", "has an empty path"
	case strings.IndexByte(spec, 0) >= 0:
		return nil, "", "has a NUL byte in its path"
	}
	p := spec
	switch {
	case p == "$HOME":
		p = "~"
	case strings.HasPrefix(p, "$HOME/"):
		p = "~/" + p[len("$HOME/"):]
	case strings.HasPrefix(p, "~") && p != "~" && !strings.HasPrefix(p, "~/"):
		return nil, "", "names another user's home directory, which guardsh does not expand"
	}
	if strings.Contains(p, "?") {
		if !strict {
			return nil, "", "has the wildcard ?, which guardsh cannot spell exactly"
		}
		p, note = collapseStars(strings.ReplaceAll(p, "?", "*")), "widened: ? became *"
	}
	return []string{p}, note, ""
}

func dedupe(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	out := xs[:0]
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
