package rules

import (
	"math/rand"
	"strings"
	"testing"
)

// TestRootIndexFindsWhatTryingAllFinds: the root index (patterns starting
// with '*', filed by a literal every match holds) gives, for any subject,
// the hits that trying every root pattern gives, for subjects with and
// without run-time parts (Holes). Patterns and subjects
// are drawn from a small alphabet so that they often match.
func TestRootIndexFindsWhatTryingAllFinds(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	words := []string{"git", "push", "--force", "rm", "-rf", "/", "x", "danger", " ", "--", "ab", "abcd", "abcde"}
	pick := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.Intn(len(words))])
			if r.Intn(3) == 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	for round := range 300 {
		var entries []entry
		for i := range 1 + r.Intn(40) {
			pat := "*" + pick(1+r.Intn(3))
			if r.Intn(2) == 0 {
				pat += " *"
			} else if r.Intn(2) == 0 {
				pat += "*" + pick(1)
			}
			d := Decision(i % 3)
			entries = append(entries, entry{g: compileGlob(pat, true), rule: &Rule{Pattern: pat, Decision: d}})
		}
		tr := newTrie(entries)
		plain := *tr
		plain.rootGrams, plain.rootAlways = nil, nil
		for range 50 {
			s := pick(1 + r.Intn(6))
			if got, want := tr.matchString(s), plain.matchString(s); got != want {
				t.Fatalf("round %d: %q: indexed %+v, all %+v (patterns %v)", round, s, got, want, patterns(entries))
			}
			// The same words with run-time parts: whole words that may
			// be absent, and Holes inside words.
			ws := strings.Fields(pick(1 + r.Intn(6)))
			for i := range ws {
				switch r.Intn(4) {
				case 0:
					ws[i] = Hole
				case 1:
					k := r.Intn(len(ws[i]) + 1)
					ws[i] = ws[i][:k] + Hole + ws[i][k:]
				}
			}
			u, _ := execUnits(ws)
			if got, want := tr.matchUnits(u, &holeMatcher{}), plain.matchUnits(u, &holeMatcher{}); got != want {
				t.Fatalf("round %d: %q: indexed %+v, all %+v (patterns %v)", round, ws, got, want, patterns(entries))
			}
		}
	}
}

func patterns(es []entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.g.pat)
	}
	return out
}

// TestProtectedIndexFindsWhatTryingAllFinds: protectedBy, which looks the
// protected patterns up in an index, names for any path the first
// protected pattern that matches it, as trying them all in order does.
// The paths are the patterns with each '*' replaced by pieces that make
// them match or almost match, under the home directory and elsewhere.
func TestProtectedIndexFindsWhatTryingAllFinds(t *testing.T) {
	ctx := testContext(t, AskMode)
	ctx.Protected = []string{"/srv/secret/*", "*.key", "~/notes/*/private"}
	x := Default().pathIndexFor(ctx)
	pieces := []string{"", "x", "a/b", ".git", "hooks/pre-commit", "/", "config", ".ssh/id_rsa"}
	r := rand.New(rand.NewSource(3))
	var paths []string
	for _, g := range x.protected {
		for range 20 {
			var b strings.Builder
			for i := 0; i < len(g.pat); i++ {
				switch {
				case g.pat[i] == '*':
					b.WriteString(pieces[r.Intn(len(pieces))])
				case r.Intn(40) == 0:
					// An almost match: one byte left out.
				default:
					b.WriteByte(g.pat[i])
				}
			}
			paths = append(paths, b.String(), "/other"+b.String(), b.String()+"/below")
		}
	}
	matched := 0
	for i, p := range paths {
		s := pathSubject{cleaned: p, resolved: paths[(i+1)%len(paths)]}
		if i%3 == 0 {
			s.resolved = p
		}
		want := ""
		for _, g := range x.protected {
			if g.match(s.cleaned) || g.match(s.resolved) {
				want = g.pat
				break
			}
		}
		if got := x.protectedBy(s); got != want {
			t.Errorf("%+v: protectedBy %q, trying all %q", s, got, want)
		}
		if want != "" {
			matched++
		}
	}
	if matched < len(paths)/3 {
		t.Errorf("only %d of %d paths are protected: the test tries too little", matched, len(paths))
	}
}

// TestSecretPrefixFilter: a secret pattern that could match something
// below a directory agrees with the directory's path on its literal start,
// the test secretIn makes before running the matcher.
func TestSecretPrefixFilter(t *testing.T) {
	ctx := testContext(t, AskMode)
	x := Default().pathIndexFor(ctx)
	dirs := []string{"/", "/home", ctx.Home, ctx.Home + "/.ssh", ctx.Home + "/.ss", ctx.Home + "/.aws", ctx.Home + "/.config",
		ctx.Home + "/.config/gcloud", ctx.Workspace, "/proc", "/proc/1", "/proc/1/fd", "/dev", "/dev/pts", "/etc", ctx.Home + "/.local/state"}
	var hm holeMatcher
	could := 0
	for _, e := range x.sections[1].entries {
		for _, d := range dirs {
			prefix := d
			if prefix != "/" {
				prefix += "/"
			}
			below := append(appendUnits(nil, prefix), uHole)
			agrees := strings.HasPrefix(e.g.key, prefix) || strings.HasPrefix(prefix, e.g.key)
			if hm.could(e.g, below) {
				could++
				if !agrees {
					t.Errorf("%q could match below %s but its literal start %q disagrees", e.g.pat, d, e.g.key)
				}
			}
		}
	}
	if could < 20 {
		t.Errorf("only %d could-matches: the test tries too little", could)
	}
}

// TestPrefixChecksUnderADirectory: the prefix checks that build no
// string (within, tildeForm, tildeShown) answer as comparing with
// dir + "/" does.
func TestPrefixChecksUnderADirectory(t *testing.T) {
	dirs := []string{"/home/u", "/home/u/", "/h", "/"}
	paths := []string{"/home/u", "/home/u/", "/home/u/x", "/home/ux", "/home/u//x", "/home", "/h", "/h/", "/hx", "/", "", "x"}
	for _, d := range dirs {
		for _, p := range paths {
			wantWithin := p == d || (strings.HasPrefix(p, d+"/") && len(p) > len(d)+1)
			if d == "/" {
				wantWithin = strings.HasPrefix(p, "/")
			}
			if got := within(p, d); got != wantWithin {
				t.Errorf("within(%q, %q) = %v", p, d, got)
			}
			wantShown := p
			if p == d {
				wantShown = "~"
			} else if strings.HasPrefix(p, d+"/") {
				wantShown = "~" + p[len(d):]
			}
			if got := tildeShown(p, d); got != wantShown {
				t.Errorf("tildeShown(%q, %q) = %q, want %q", p, d, got, wantShown)
			}
			if d == "/" {
				continue // tildeForm leaves "/" alone
			}
			form := tildeForm([]string{p}, d)
			want := ""
			if p == d {
				want = "~"
			} else if strings.HasPrefix(p, d+"/") {
				want = "~" + p[len(d):]
			}
			if (form == nil) != (want == "") || form != nil && form[0] != want {
				t.Errorf("tildeForm(%q, %q) = %q, want %q", p, d, form, want)
			}
		}
	}
}
