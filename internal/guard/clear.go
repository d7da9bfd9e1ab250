package guard

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/guardsh/guardsh/interp"
	"github.com/guardsh/guardsh/rules"
)

// Files found clear.
//
// An agent sources the same multi-thousand-line shell snapshot before every
// command. When an allow rule vouches for it (see decide), what can still
// stop the command inside it is a deny rule, an ask rule or a protected
// path. Once every command of a file has passed those, with the working
// directory known and unknown, Evaluate records the file as clear under a
// key made of the file's content digest (interp.Segment.SourceKey), the
// policy's rules, and the context (mode, working directory, home,
// workspace, temporary and protected paths). A later analysis that meets
// the same file under the same key and an allow rule for the same source
// command skips its commands (interp.Options.Vouch): they would all be
// allowed. A changed file, rule or context is a new key.
//
// The record is only as trustworthy as the cache directory, which
// cmd/guardsh protects like the config file. What a clear file does with
// symlinks that change later is not looked at again (the user's allow rule
// vouches for the file).

const clearFormat = "guardsh-clear-v2"

// clearKey is the key under which a file with content key fileKey is
// recorded clear for this guard's policy and context.
func (g *Guard) clearKey(fileKey string) string {
	h := sha256.New()
	c := g.Context
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%q\x00%q\x00", clearFormat, fileKey, c.Mode, c.Cwd, c.Home,
		c.Workspace, c.TempDirs, c.Protected)
	// The rules, by their digest (made once per policy: hashing each
	// rule here cost milliseconds per key under a 10,000-rule policy).
	io.WriteString(h, g.Policy.RulesDigest())
	return hex.EncodeToString(h.Sum(nil))
}

// knownClear implements interp.Options.Vouch: the file at path, read by
// the command name (source or .), was recorded clear, and an allow rule
// lets `name path` run.
func (g *Guard) knownClear(name, path, key string) bool {
	v := g.Policy.Decide(rules.Subject{Kind: rules.KindExec, Words: []string{name, path}}, g.Context)
	if v.Decision != rules.Allow || v.DecidedBy != rules.ByRule {
		return false
	}
	data, ok := g.Verdicts.Get(g.clearKey(key))
	return ok && string(data) == clearFormat
}

// recordClear records each file the analysis read, whose source segment
// was vouched for, as clear when every segment that came from it (those
// whose Via passes through "source FILE") is allowed with the working
// directory known and unknown.
func (g *Guard) recordClear(segs []interp.Segment, ctx rules.Context, vouched map[string]*rules.Rule) {
	for _, seg := range segs {
		if seg.SourceKey == "" || seg.Read == "" || vouched[seg.Read] == nil || seg.Sourced != "" {
			continue
		}
		key := g.clearKey(seg.SourceKey)
		if _, ok := g.Verdicts.Get(key); ok {
			continue
		}
		via := "source " + seg.Read
		clear := true
		for _, known := range []bool{false, true} {
			c := ctx
			c.CwdUnknown = known
			c.NoNewLinks = false // whatever the command that sources it does
			for _, s := range segs {
				if !slices.Contains(s.Via, via) {
					continue
				}
				if affectsDirs(s, c.Home) {
					clear = false
					break
				}
				if v, counts := g.decide(s, c, vouched); counts && v.Decision != rules.Allow {
					clear = false
					break
				}
			}
		}
		if clear && !strings.Contains(via, interp.Hole) {
			g.Verdicts.Put(key, []byte(clearFormat))
		}
	}
}
