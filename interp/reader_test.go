package interp

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// onlyReader hides every method but Read.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func readAll(t *testing.T, cr *CommandReader) []string {
	t.Helper()
	var out []string
	for range 1000 {
		s, err := cr.Next()
		if err == io.EOF {
			if s != "" {
				t.Errorf("text %q returned with io.EOF", s)
			}
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, s)
	}
	t.Fatal("Next never returned io.EOF")
	return nil
}

func TestCommandReaderSplits(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"each line is a command", "echo a\necho b\n", []string{"echo a\n", "echo b\n"}},
		{"several commands on a line stay together", "a; b && c\nd\n", []string{"a; b && c\n", "d\n"}},
		{"blank and comment lines go with the next command", "# c\n\necho a\n", []string{"# c\n\necho a\n"}},
		{"a trailing comment is returned at the end", "echo a\n# end\n", []string{"echo a\n", "# end\n"}},
		{"a heredoc body continues the command", "cat <<EOF > f\nx $(y)\nEOF\necho b\n",
			[]string{"cat <<EOF > f\nx $(y)\nEOF\n", "echo b\n"}},
		{"a tab-stripped heredoc continues the command", "cat <<-EOF\n\tx\n\tEOF\nb\n", []string{"cat <<-EOF\n\tx\n\tEOF\n", "b\n"}},
		{"two heredocs on one line", "cat <<A <<B\n1\nA\n2\nB\nc\n", []string{"cat <<A <<B\n1\nA\n2\nB\n", "c\n"}},
		{"an open single quote continues", "echo 'a\nb'\nc\n", []string{"echo 'a\nb'\n", "c\n"}},
		{"an open double quote continues", "echo \"a\nb\"\n", []string{"echo \"a\nb\"\n"}},
		{"an if continues until fi", "if a\nthen\n  b\nfi\nc\n", []string{"if a\nthen\n  b\nfi\n", "c\n"}},
		{"a function body continues", "f() {\n  a\n}\nf\n", []string{"f() {\n  a\n}\n", "f\n"}},
		{"a trailing and continues", "a &&\nb\nc\n", []string{"a &&\nb\n", "c\n"}},
		{"a trailing or continues", "a ||\n\nb\n", []string{"a ||\n\nb\n"}},
		{"a trailing pipe continues", "a |\nb\n", []string{"a |\nb\n"}},
		{"a backslash continues", "echo a \\\nb\nc\n", []string{"echo a \\\nb\n", "c\n"}},
		{"a command substitution continues", "echo $(\nx\n)\n", []string{"echo $(\nx\n)\n"}},
		{"a parse error is its own chunk", "echo )\necho ok\n", []string{"echo )\n", "echo ok\n"}},
		{"a parse error after an open construct ends the chunk", "if a; then\necho )\nfi\nok\n",
			[]string{"if a; then\necho )\n", "fi\n", "ok\n"}},
		{"text without a final newline is returned", "echo a", []string{"echo a"}},
		{"an incomplete command is returned at the end", "echo 'a\nb", []string{"echo 'a\nb"}},
		{"an unterminated heredoc is returned at the end", "cat <<EOF\nx\n", []string{"cat <<EOF\nx\n"}},
		{"nothing yields nothing", "", nil},
		{"a carriage return is passed through for Analyze to refuse", "echo a\r\necho b\n", []string{"echo a\r\n", "echo b\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := readAll(t, NewCommandReader(onlyReader{strings.NewReader(tc.in)}))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if strings.Join(got, "") != tc.in {
				t.Errorf("chunks do not add up to the input")
			}
		})
	}
}

func TestCommandReaderChunksAnalyse(t *testing.T) {
	in := "cd /tmp\ncat <<EOF > out\n$(id)\nEOF\nbad )\nrm -rf x\n"
	cr := NewCommandReader(strings.NewReader(in))
	var got []string
	for {
		s, err := cr.Next()
		if err == io.EOF {
			break
		}
		segs, aerr := Analyze(s, Options{})
		if aerr != nil {
			got = append(got, "refused")
			continue
		}
		got = append(got, strings.Join(renderAll(segs), "; "))
	}
	want := []string{"exec cd /tmp", "exec id via $(…); write out; exec cat", "refused", "exec rm -rf x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCommandReaderReadsNoFurtherThanTheCommand(t *testing.T) {
	src := strings.NewReader("echo a\ncat <<EOF\nx\nEOF\nrest of input")
	cr := NewCommandReader(src)
	for _, want := range []string{"echo a\n", "cat <<EOF\nx\nEOF\n"} {
		got, err := cr.Next()
		if err != nil || got != want {
			t.Fatalf("Next = %q, %v; want %q", got, err, want)
		}
	}
	if rest, _ := io.ReadAll(src); string(rest) != "rest of input" {
		t.Errorf("left unread %q, want %q", rest, "rest of input")
	}
}

// TestCommandReaderServesAKeptOpenPipe writes commands into a pipe that
// stays open, and checks that each command is returned while the writer is
// still waiting to send the next one.
func TestCommandReaderServesAKeptOpenPipe(t *testing.T) {
	pr, pw := io.Pipe()
	cr := NewCommandReader(pr)
	type result struct {
		s   string
		err error
	}
	next := func() result {
		ch := make(chan result, 1)
		go func() {
			s, err := cr.Next()
			ch <- result{s, err}
		}()
		select {
		case r := <-ch:
			return r
		case <-time.After(5 * time.Second):
			t.Fatal("Next blocked although a complete command was available")
			return result{}
		}
	}
	write := func(s string) {
		done := make(chan struct{})
		go func() {
			if _, err := pw.Write([]byte(s)); err != nil {
				t.Errorf("write: %v", err)
			}
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("writer blocked: the reader stopped reading before %q", s)
		}
	}
	steps := []struct {
		writes []string
		want   string
	}{
		{[]string{"echo a\n"}, "echo a\n"},
		{[]string{"cat <<EOF\n", "body\n", "EOF\n"}, "cat <<EOF\nbody\nEOF\n"},
		{[]string{"if true\n", "then b; fi\n"}, "if true\nthen b; fi\n"},
		{[]string{"echo one \\\n", "two\n"}, "echo one \\\ntwo\n"},
		{[]string{"oops )\n"}, "oops )\n"},
		{[]string{"echo b\n"}, "echo b\n"},
	}
	for _, st := range steps {
		ch := make(chan result, 1)
		go func() {
			s, err := cr.Next()
			ch <- result{s, err}
		}()
		for _, w := range st.writes {
			write(w)
		}
		select {
		case r := <-ch:
			if r.err != nil || r.s != st.want {
				t.Fatalf("Next = %q, %v; want %q", r.s, r.err, st.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Next did not return %q while the pipe stayed open", st.want)
		}
	}
	pw.Close()
	if r := next(); r.err != io.EOF || r.s != "" {
		t.Errorf("after close: Next = %q, %v; want io.EOF", r.s, r.err)
	}
	if r := next(); r.err != io.EOF {
		t.Errorf("io.EOF is not sticky: %v", r.err)
	}
}

func TestCommandReaderReportsReadErrors(t *testing.T) {
	boom := errors.New("boom")
	cr := NewCommandReader(io.MultiReader(strings.NewReader("echo a\necho b"), errReader{boom}))
	if s, err := cr.Next(); s != "echo a\n" || err != nil {
		t.Fatalf("Next = %q, %v", s, err)
	}
	if s, err := cr.Next(); s != "echo b" || err != nil {
		t.Fatalf("Next = %q, %v; want the remaining text first", s, err)
	}
	if _, err := cr.Next(); !errors.Is(err, boom) {
		t.Fatalf("Next error = %v, want %v", err, boom)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestCommandReaderStopsAtTheSizeLimit(t *testing.T) {
	in := "echo ok\necho '" + strings.Repeat("x\n", MaxTextSize) + "'\necho after\n"
	src := strings.NewReader(in)
	cr := NewCommandReader(src)
	if s, err := cr.Next(); s != "echo ok\n" || err != nil {
		t.Fatalf("Next = %q, %v", s, err)
	}
	s, err := cr.Next()
	if err != nil || len(s) != MaxTextSize+1 {
		t.Fatalf("Next = %d bytes, %v; want the over-limit text", len(s), err)
	}
	if _, aerr := Analyze(s, Options{}); aerr == nil {
		t.Error("Analyze accepted the over-limit text")
	}
	var nu *NotUnderstood
	if _, err := cr.Next(); !errors.As(err, &nu) {
		t.Fatalf("after the limit: err = %v, want *NotUnderstood", err)
	}
	if _, err := cr.Next(); !errors.As(err, &nu) {
		t.Fatalf("the limit error is not sticky: %v", err)
	}
}
