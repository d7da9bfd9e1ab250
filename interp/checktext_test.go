package interp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/guardsh/guardsh/internal/benchdata"
)

// checkTextSeeds are texts at the edges of checkText's and checkShape's
// bounds: brackets, runs of "!", carriage returns and NUL bytes in either
// order, keyword nesting and chains at and past their limits, keywords
// inside and after other words, here-documents.
func checkTextSeeds() []string {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "x" + strings.Repeat(close, n)
	}
	seeds := []string{
		deep("(", ")", maxBrackets), deep("(", ")", maxBrackets+1), deep("{ ", "}", maxBrackets+1),
		"a" + deep("[", "]", maxBrackets+1), strings.Repeat("(", maxBrackets) + ")" + strings.Repeat("[", 2),
		strings.Repeat("!", maxBangs) + " x", strings.Repeat("! ", maxBangs+1), strings.Repeat("!\t\n", maxBangs) + "!",
		strings.Repeat("!", maxBangs) + "a" + strings.Repeat("!", maxBangs),
		"a\rb\x00c", "a\x00b\rc", "x\r", "\x00", strings.Repeat("(", maxBrackets+1) + "\r",
		strings.Repeat("if a; then ", maxKeywords+1), strings.Repeat("for i in a; do ", maxKeywords) + "while x; do",
		strings.Repeat("case a in a) ", maxKeywords+1), strings.Repeat("xif a; then ", maxKeywords+1),
		strings.Repeat("a && ", maxChain) + "b", strings.Repeat("a|", maxChain+1) + "b", strings.Repeat("a ||\n", maxChain+1),
		strings.Repeat("a=b|&c ", maxChain+1), strings.Repeat("a >&b |", maxChain+1), strings.Repeat("a &>|b &", maxChain+1),
		strings.Repeat("cat <<E; if x\nif y\nE\n", maxKeywords+1), strings.Repeat("cat <<-'E' <<F\n\tif\n\tE\nif\nF\n", maxKeywords+1),
		strings.Repeat("echo if; then fi; done \\\nif `if` (if) {if} !if x<if <<<if\n", maxKeywords+1),
		strings.Repeat("e9if_x-if.if/if@if if\n", maxKeywords+1),
	}
	// Each byte checkShape acts on, right after a byte it does not.
	for _, c := range " \t\\\n;&|<(){`!" {
		seeds = append(seeds, strings.Repeat("x."+string(c)+"if a; then ", maxKeywords+1),
			strings.Repeat("x."+string(c)+"<E\nif x\nE\n", maxKeywords+1))
	}
	seeds = append(seeds, analyzeSeeds...)
	seeds = append(seeds, fastPathTexts...)
	return append(seeds, benchLine, benchdata.CIScript(), benchdata.Snapshot(), benchdata.Script(64<<10))
}

// FuzzCheckText compares checkText and checkShape with the byte-by-byte
// readings they replaced (checkTextByByte, checkShapeByByte): the same
// refusal, at the same place, for every text.
func FuzzCheckText(f *testing.F) {
	for _, s := range checkTextSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compareCheckText(t, src)
	})
}

func TestCheckTextAsByByte(t *testing.T) {
	for _, src := range checkTextSeeds() {
		compareCheckText(t, src)
	}
	// Every seed with one byte replaced by each of the bytes the loops
	// act on, at a few places.
	for _, src := range checkTextSeeds()[:30] {
		for _, c := range []byte(" \t\\\n;&|<>(){}[]`!\r\x00aZ_9=\"'#") {
			for _, at := range []int{0, len(src) / 3, len(src) / 2, len(src) - 1} {
				if at < 0 || at >= len(src) {
					continue
				}
				compareCheckText(t, src[:at]+string(c)+src[at+1:])
			}
		}
	}
}

func compareCheckText(t *testing.T, src string) {
	t.Helper()
	for _, limit := range []int{MaxScriptSize, len(src) / 2} {
		got := checkText(src, &frame{src: src, lines: &lineIndex{}}, limit)
		want := checkTextByByte(src, &frame{src: src, lines: &lineIndex{}}, limit)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("checkText(%.80q…, %d) = %v, byte by byte %v", src, limit, got, want)
		}
	}
	off, reason := checkShape(src)
	wantOff, wantReason := checkShapeByByte(src)
	if off != wantOff || reason != wantReason {
		t.Fatalf("checkShape(%.80q…) = %d %q, byte by byte %d %q", src, off, reason, wantOff, wantReason)
	}
}

// checkTextByByte is checkText as it read the text before its byte
// classes and vectorised searches: the reference FuzzCheckText compares
// it with.
func checkTextByByte(src string, f *frame, limit int) *NotUnderstood {
	if len(src) > limit {
		line, col := f.pos(0)
		return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("text is %d bytes, over the %d-byte limit", len(src), limit)}
	}
	if i := strings.IndexAny(src, "\r\x00"); i >= 0 {
		what := "raw carriage return"
		if src[i] == 0 {
			what = "NUL byte"
		} else if strings.HasPrefix(src[i:], "\r\n") {
			what = "raw carriage return (Windows line endings, CRLF: convert the file with dos2unix, or `* text=auto eol=lf` in .gitattributes)"
		}
		line, col := f.pos(i)
		return &NotUnderstood{Line: line, Col: col, Reason: what + " in command text"}
	}
	depth, bangs := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			depth++
			if depth > maxBrackets {
				line, col := f.pos(i)
				return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("brackets nested deeper than %d levels", maxBrackets)}
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
		switch src[i] {
		case '!':
			bangs++
			if bangs > maxBangs {
				line, col := f.pos(i)
				return &NotUnderstood{Line: line, Col: col, Reason: fmt.Sprintf("more than %d \"!\" in a row", maxBangs)}
			}
		case ' ', '\t', '\n':
		default:
			bangs = 0
		}
	}
	if off, reason := checkShapeByByte(src); reason != "" {
		line, col := f.pos(off)
		return &NotUnderstood{Line: line, Col: col, Reason: reason}
	}
	return nil
}

// checkShapeByByte is checkShape as it read every byte of a word out of
// command position one at a time.
func checkShapeByByte(src string) (off int, reason string) {
	kw, chain := 0, 0
	cmd := true        // a word starting here is in command position
	chained := false   // the last token was &&, || or |: a newline continues the chain
	var hdocs []string // delimiters of the here-documents whose bodies start at the next newline
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\\':
			i += 2 // an escaped character, or a line continuation
		case c == '\n':
			i++
			for _, d := range hdocs {
				i = skipHdoc(src, i, d)
			}
			hdocs = hdocs[:0]
			if !chained {
				chain = 0
			}
			cmd = true
		case c == ';':
			chain, cmd, chained = 0, true, false
			i++
		case c == '&' || c == '|':
			redirect := (i > 0 && (src[i-1] == '>' || src[i-1] == '<')) || (i+1 < len(src) && src[i+1] == '>')
			switch {
			case redirect:
				i++
				cmd, chained = false, false
				continue
			case i+1 < len(src) && (src[i+1] == c || (c == '|' && src[i+1] == '&')):
				i += 2
				chain++
			case c == '|':
				i++
				chain++
			default: // a lone "&" ends the statement
				i++
				chain, cmd, chained = 0, true, false
				continue
			}
			if chain > maxChain {
				return i - 1, fmt.Sprintf("more than %d operators (&&, ||, |) in one chain", maxChain)
			}
			cmd, chained = true, true
		case c == '<' && strings.HasPrefix(src[i:], "<<") && !strings.HasPrefix(src[i:], "<<<"):
			d, end := hdocDelim(src, i+2)
			if d != "" {
				hdocs = append(hdocs, d)
			}
			i, cmd, chained = end, false, false
		case c == '(' || c == ')' || c == '{' || c == '`' || c == '!':
			i++
			cmd, chained = true, false
		case isAlpha(c) && cmd:
			j := i
			for j < len(src) && isAlpha(src[j]) {
				j++
			}
			word := ""
			if j == len(src) || strings.IndexByte(" \t\n;&|()<>", src[j]) >= 0 {
				word = src[i:j]
			}
			cmd = false
			switch word {
			case "if", "while", "until":
				kw++
				cmd = true
			case "case", "for", "select":
				kw++
			case "fi", "done", "esac":
				kw = max(kw-1, 0)
			case "then", "do", "else", "elif":
				cmd = true
			}
			if kw > maxKeywords {
				return i, fmt.Sprintf("compound commands (if, case, for, while …) nested deeper than %d levels", maxKeywords)
			}
			i, chained = j, false
		default:
			i++
			cmd, chained = false, false
		}
	}
	return 0, ""
}

// TestCRLFSaysWhatToDo: a script with Windows line endings is refused
// with what converts it (a new user's CI script committed from Windows);
// a lone carriage return is refused as before.
func TestCRLFSaysWhatToDo(t *testing.T) {
	_, err := Analyze("echo crlf\r\necho two\r\n", Options{})
	if err == nil || !strings.Contains(err.Error(), "line 1 col 10: raw carriage return (Windows line endings, CRLF: convert the file with dos2unix") {
		t.Errorf("CRLF script: %v", err)
	}
	_, err = Analyze("A=x\recho ./payload.sh", Options{})
	if err == nil || !strings.Contains(err.Error(), "raw carriage return in command text") || strings.Contains(err.Error(), "CRLF") {
		t.Errorf("lone CR: %v", err)
	}
}
