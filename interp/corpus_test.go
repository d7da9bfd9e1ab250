package interp

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// corpus reads the "cmd" or "command" field of each line of a JSONL file in
// testdata (copies of the shared case corpus), or for invocations the -c
// operand of "argv".
func corpus(t testing.TB, name string) []string {
	t.Helper()
	fh, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Cmd, Command string
			Argv         []string
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		src := rec.Cmd + rec.Command
		for i, a := range rec.Argv {
			if a == "-c" || a == "-lc" {
				for _, b := range rec.Argv[i+1:] {
					if b != "-l" {
						src = b
						break
					}
				}
				break
			}
		}
		out = append(out, src)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpusAnalyses runs every command of the shared corpus: each one
// analyses, except the few that bash itself cannot parse or that hold a raw
// carriage return.
func TestCorpusAnalyses(t *testing.T) {
	refused := map[string]bool{
		"rg -n \"```mermaid\" docs | head": true, // bash: unexpected EOF looking for `
		"A=x\recho ./payload.sh":           true, // raw carriage return
		// bash reads the single quotes in arithmetic as plain
		// characters and runs the substitution.
		"echo $[ x='a[$(touch /tmp/flag)]', x ]": true,
	}
	for _, file := range []string{"agent-commands.jsonl", "bypass-commands.jsonl", "invocations.jsonl"} {
		n, failed := 0, 0
		for _, src := range corpus(t, file) {
			n++
			_, err := Analyze(src, Options{Home: "/home/user"})
			var nu *NotUnderstood
			if err != nil && !errors.As(err, &nu) {
				t.Fatalf("%q: %v", src, err)
			}
			if err != nil {
				failed++
				if !refused[src] && len(src) < 200 {
					t.Errorf("%s: %q refused: %v", file, src, err)
				}
			}
		}
		t.Logf("%s: %d commands, %d refused", file, n, failed)
		if failed > 2 {
			t.Errorf("%s: %d commands refused", file, failed)
		}
	}
}
