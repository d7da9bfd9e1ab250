package rules

import (
	"strings"
	"testing"
)

func TestPatternSemantics(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		subject string
		want    bool
	}{
		{"literal matches itself", "git status", "git status", true},
		{"whole string must match: no extra suffix", "git status", "git status -s", false},
		{"whole string must match: no missing suffix", "git status", "git stat", false},
		{"whole string must match: no extra prefix", "status", "git status", false},
		{"star matches empty", "git*", "git", true},
		{"star matches a run", "git*", "gitk --all", true},
		{"star crosses spaces", "rm * /", "rm -r -f /", true},
		{"star crosses slashes", "cat /etc/*", "cat /etc/ssl/certs/x.pem", true},
		{"star in the middle", "dd * of=/dev/sd*", "dd if=x bs=1M of=/dev/sda", true},
		{"star in the middle, literal missing", "dd * of=/dev/sd*", "dd if=x of=/dev/null", false},
		{"several stars", "a*b*c", "axxbyyc", true},
		{"several stars, order matters", "a*b*c", "acb", false},
		{"stars collapse", "a**b", "ab", true},
		{"lone star matches everything", "*", "anything at all", true},
		{"lone star matches empty", "*", "", true},
		{"case-sensitive", "git status", "Git status", false},
		{"case-sensitive in star run", "rm -*r* /", "rm -Rf /", false},
		{"other characters are literal: ?", "ls ?", "ls a", false},
		{"other characters are literal: ? itself", "ls ?", "ls ?", true},
		{"other characters are literal: brackets", "ls [ab]", "ls a", false},
		{"other characters are literal: backslash", `echo \*`, `echo \x`, true},
		{"trailing space-star matches bare prefix", "git *", "git", true},
		{"trailing space-star matches with args", "git *", "git log -p", true},
		{"trailing space-star needs the space", "git *", "gitk", false},
		{"bare prefix with earlier star", "git * *", "git push", true},
		{"bare prefix of multiword", "npm run *", "npm run", true},
		{"bare prefix is not a prefix match", "npm run *", "npm ru", false},
		{"no bare rule without the space", "git*", "gi", false},
		{"suffix must match", "*.sh", "build.sh", true},
		{"suffix must match, no", "*.sh", "build.shx", false},
		{"prefix and suffix must not overlap", "ab*ba", "aba", false},
		{"prefix and suffix adjacent", "ab*ba", "abba", true},
		{"empty subject, literal pattern", "x", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := compileGlob(tc.pattern, true)
			if got := g.match(tc.subject); got != tc.want {
				t.Errorf("match(%q, %q) = %v, want %v", tc.pattern, tc.subject, got, tc.want)
			}
			// The DP agrees with the plain matcher on Hole-free subjects.
			units := appendUnits(nil, tc.subject)
			hm := &holeMatcher{}
			if got := hm.could(g, units); got != tc.want {
				t.Errorf("could(%q, %q) = %v, want %v", tc.pattern, tc.subject, got, tc.want)
			}
			if got := hm.definite(g, units); got != tc.want {
				t.Errorf("definite(%q, %q) = %v, want %v", tc.pattern, tc.subject, got, tc.want)
			}
		})
	}
}

func TestPathPatternsHaveNoBareRule(t *testing.T) {
	g := compileGlob("/my dir *", false)
	if g.match("/my dir") {
		t.Error(`path pattern "/my dir *" matched "/my dir": the bare rule is for shell patterns only`)
	}
}

func TestHoleSemantics(t *testing.T) {
	H := Hole
	tests := []struct {
		name     string
		pattern  string
		words    []string
		definite bool
		could    bool
	}{
		{"deny rm -rf * vs rm $x: could only", "rm -rf *", []string{"rm", H}, false, true},
		{"deny rm -rf * vs rm -rf $x: definite", "rm -rf *", []string{"rm", "-rf", H}, true, true},
		{"deny rm -rf / vs rm -rf /tmp/$x: neither", "rm -rf /", []string{"rm", "-rf", "/tmp/" + H}, false, false},
		{"hole inside a word inside a star run", "rm -rf /*", []string{"rm", "-rf", "/tmp/" + H}, true, true},
		{"hole against a literal: could", "rm -rf /", []string{"rm", "-rf", H}, false, true},
		{"whole-word hole may vanish", "rm -rf /", []string{"rm", "-rf", H, "/"}, false, true},
		{"whole-word hole may vanish: definite with star", "rm * /", []string{"rm", "-rf", H, "/"}, true, true},
		{"whole-word hole may be several words", "rm -r -f /", []string{"rm", H, "/"}, false, true},
		{"hole in the command name", "rm *", []string{H, "-rf", "/"}, false, true},
		{"hole command name vs other command", "git status", []string{H, "log"}, false, false},
		{"quoted hole must keep the literal around it", "echo a*", []string{"echo", "b" + H}, false, false},
		{"hole with literal tail", "cat *.pem", []string{"cat", H + ".pem"}, true, true},
		{"hole with literal tail, wrong tail", "cat *.pem", []string{"cat", H + ".txt"}, false, false},
		{"bare prefix and hole", "git *", []string{"git", H}, true, true},
		{"exact pattern vs lone hole", "ls", []string{"ls", H}, false, true},
		{"two holes in a row", "a*", []string{"a" + H + H}, true, true},
		{"could requires compatible prefix", "rm *", []string{"ls", H}, false, false},
		{"lone star vs anything", "*", []string{H, H}, true, true},
		{"first word hole, more words, empty expansion", "x", []string{H, "x"}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := compileGlob(tc.pattern, true)
			units, _ := execUnits(tc.words)
			hm := &holeMatcher{}
			if got := hm.definite(g, units); got != tc.definite {
				t.Errorf("definite = %v, want %v", got, tc.definite)
			}
			if got := hm.could(g, units); got != tc.could {
				t.Errorf("could = %v, want %v", got, tc.could)
			}
		})
	}
}

func TestExecUnits(t *testing.T) {
	render := func(u []uint16) string {
		var b strings.Builder
		for _, x := range u {
			switch x {
			case uHole:
				b.WriteString("H")
			case uOpt:
				b.WriteString("?")
			default:
				b.WriteByte(byte(x))
			}
		}
		return b.String()
	}
	tests := []struct {
		words []string
		want  string
		holes bool
	}{
		{[]string{"git", "status"}, "git status", false},
		{[]string{"rm", Hole}, "rm? H", true},
		{[]string{Hole, "x"}, "?H x", true},
		{[]string{Hole}, "H", true},
		{[]string{"a" + Hole + "b", "c"}, "aHb c", true},
		{[]string{"a", "", "b"}, "a  b", false},
	}
	for _, tc := range tests {
		u, holes := execUnits(tc.words)
		if got := render(u); got != tc.want || holes != tc.holes {
			t.Errorf("execUnits(%q) = %q, %v; want %q, %v", tc.words, got, holes, tc.want, tc.holes)
		}
	}
}

// instantiate turns units into one of the strings they stand for: each Hole
// takes the next value from fill (cycling), each optional group is present
// when the next bit of choice is 1.
func instantiate(units []uint16, fill []string, choice uint64) string {
	var b strings.Builder
	k := 0
	for p := 0; p < len(units); p++ {
		switch units[p] {
		case uOpt:
			present := choice&1 == 1
			choice >>= 1
			if !present {
				p += optLen - 1
			}
		case uHole:
			if len(fill) > 0 {
				b.WriteString(fill[k%len(fill)])
				k++
			}
		default:
			b.WriteByte(byte(units[p]))
		}
	}
	return b.String()
}

// FuzzMatch checks the matcher: no panic; a definite match implies a could
// match; on Hole-free subjects both agree with the plain matcher; and on
// random values of the Holes, a definite match always matches and a match
// was always a could match.
func FuzzMatch(f *testing.F) {
	f.Add("rm -rf *", "rm\x1f-rf\x1f\x00", "x", "/ y", uint64(1))
	f.Add("git *", "git\x1f\x00", "", "status", uint64(0))
	f.Add("a*b*c", "a\x00c", "b", "bb", uint64(3))
	f.Add("*/.ssh/*", "/home/u/\x00", "../x", ".ssh/id", uint64(2))
	f.Add("x * y", "\x00\x1fx\x1f\x00", "x", "y", uint64(5))
	f.Fuzz(func(t *testing.T, pattern, subject, fill1, fill2 string, choice uint64) {
		if strings.Contains(pattern, Hole) || strings.Contains(fill1, Hole) || strings.Contains(fill2, Hole) {
			return
		}
		if len(pattern) > 64 || len(subject) > 128 {
			return
		}
		words := strings.Split(subject, "\x1f")
		g := compileGlob(pattern, true)
		units, holes := execUnits(words)
		hm := &holeMatcher{}
		def := hm.definite(g, units)
		could := hm.could(g, units)
		if def && !could {
			t.Fatalf("definite but not could: %q vs %q", pattern, words)
		}
		if !holes {
			plain := g.match(strings.Join(words, " "))
			if could != plain || def != plain {
				t.Fatalf("pattern %q subject %q: plain %v could %v definite %v", pattern, words, plain, could, def)
			}
			return
		}
		s := instantiate(units, []string{fill1, fill2}, choice)
		m := g.match(s)
		if def && !m {
			t.Fatalf("definite match of %q vs %q, but instance %q does not match", pattern, words, s)
		}
		if m && !could {
			t.Fatalf("instance %q of %q matches %q, but could-match said no", s, words, pattern)
		}
	})
}

// TestHasHole checks hasHole against the hasHole execUnits reports.
func TestHasHole(t *testing.T) {
	parts := []string{"", "a", Hole, "x" + Hole, Hole + "/y", "b c", "*"}
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range [][]string{{a}, {a, b}, {"cat", a, b}, nil} {
				if _, want := execUnits(c); hasHole(c) != want {
					t.Errorf("hasHole(%q) = %v, execUnits says %v", c, hasHole(c), want)
				}
			}
		}
	}
}
