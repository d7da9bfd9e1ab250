package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
	"gopkg.in/yaml.v3"

	"github.com/guardsh/guardsh/rules"
)

// Added is one rule Remember wrote, located as in the file afterwards.
type Added struct {
	Pattern string
	File    string
	Line    int
}

// Remember appends patterns to rules.shell.allow of the user config file
// at path, keeping the file's comments and order (yaml.v3 node API). The
// file is changed under an exclusive lock (flock on PATH.lock) and replaced
// atomically (a temporary file in the same directory, synced, renamed over
// it, with the old file's permissions, 0600 for a new one). A missing file
// starts from initial (normally the embedded default policy, which it
// replaces). A pattern already in the list is not added twice but is
// still reported. The result must parse as a config (rules.Parse), else
// nothing is written and the error says why.
func Remember(path string, patterns []string, initial []byte) ([]Added, error) {
	if path == "" {
		return nil, errors.New("remembering the answer: no user config file (neither GUARDSH_CONFIG, XDG_CONFIG_HOME nor a home directory)")
	}
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("remembering the answer: %w", err)
	}
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("remembering the answer: %w", err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return nil, fmt.Errorf("remembering the answer: locking %s: %w", lock.Name(), err)
	}
	defer unix.Flock(int(lock.Fd()), unix.LOCK_UN)

	perm := fs.FileMode(0o600)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = initial
	case err != nil:
		return nil, fmt.Errorf("remembering the answer: %w", err)
	default:
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	out, err := appendAllow(data, patterns)
	if err != nil {
		return nil, fmt.Errorf("remembering the answer in %s: %w", path, err)
	}
	if _, err := rules.Parse(out, path); err != nil {
		return nil, fmt.Errorf("remembering the answer: the edited config would not load (%v); %s left as it was", err, path)
	}
	added, err := locate(out, path, patterns)
	if err != nil {
		return nil, err
	}
	if err := writeAtomic(path, out, perm); err != nil {
		return nil, fmt.Errorf("remembering the answer: %w", err)
	}
	return added, nil
}

// appendAllow adds patterns to rules.shell.allow of the YAML document data:
// as lines after the list's last item when the list is a block sequence of
// one-line items, so that every other byte stays as it was (re-encoding
// the document dropped blank lines and comments' alignment, and moved the
// lines later audit records point to: a new user's find); else by
// re-encoding the document (see appendAllowNode).
func appendAllow(data []byte, patterns []string) ([]byte, error) {
	if out, ok := appendAllowLines(data, patterns); ok {
		return out, nil
	}
	return appendAllowNode(data, patterns)
}

// appendAllowLines is appendAllow's text edit; ok is false when the
// document has no such list, or the edit would not read back as the list
// with the patterns added.
func appendAllowLines(data []byte, patterns []string) (out []byte, ok bool) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil, false
	}
	list := lookup(doc.Content[0], "rules", "shell", "allow")
	if list == nil || list.Kind != yaml.SequenceNode || list.Style&yaml.FlowStyle != 0 || len(list.Content) == 0 {
		return nil, false
	}
	last := list.Content[len(list.Content)-1]
	if last.Kind != yaml.ScalarNode || last.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || last.Column < 3 {
		return nil, false
	}
	have := map[string]bool{}
	for _, it := range list.Content {
		have[it.Value] = true
	}
	var add bytes.Buffer
	var want []string
	for _, p := range patterns {
		if have[p] {
			continue
		}
		have[p] = true
		q, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: p})
		if err != nil || bytes.Count(q, []byte("\n")) != 1 {
			return nil, false
		}
		add.WriteString(strings.Repeat(" ", last.Column-3) + "- ")
		add.Write(q)
		want = append(want, p)
	}
	if len(want) == 0 {
		return data, true
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if last.Line > len(lines) || !bytes.HasSuffix(lines[last.Line-1], []byte("\n")) {
		return nil, false
	}
	var b bytes.Buffer
	for i, l := range lines {
		b.Write(l)
		if i == last.Line-1 {
			b.Write(add.Bytes())
		}
	}
	out = b.Bytes()
	// Read back: the list must be what it was and the patterns, in order.
	var check yaml.Node
	if yaml.Unmarshal(out, &check) != nil || len(check.Content) == 0 {
		return nil, false
	}
	got := lookup(check.Content[0], "rules", "shell", "allow")
	if got == nil || len(got.Content) != len(list.Content)+len(want) {
		return nil, false
	}
	for i, it := range got.Content {
		w := ""
		if i < len(list.Content) {
			w = list.Content[i].Value
		} else {
			w = want[i-len(list.Content)]
		}
		if it.Kind != yaml.ScalarNode || it.Value != w {
			return nil, false
		}
	}
	return out, true
}

// lookup returns the value of the path of keys in mapping m, or nil.
func lookup(m *yaml.Node, keys ...string) *yaml.Node {
	for _, key := range keys {
		if m == nil || m.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				next = m.Content[i+1]
			}
		}
		m = next
	}
	return m
}

// appendAllowNode adds patterns to rules.shell.allow of the YAML document
// data through yaml.v3's node API, re-encoding the whole document.
func appendAllowNode(data []byte, patterns []string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode}
	}
	if len(doc.Content) == 0 {
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	n := doc.Content[0]
	for _, key := range []string{"rules", "shell", "allow"} {
		var err error
		if n, err = child(n, key, key == "allow"); err != nil {
			return nil, err
		}
	}
	have := map[string]bool{}
	for _, it := range n.Content {
		have[it.Value] = true
	}
	for _, p := range patterns {
		if !have[p] {
			have[p] = true
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: p})
		}
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// child returns the value of key in mapping m, adding it (a mapping, or a
// sequence when seq) when missing or null.
func child(m *yaml.Node, key string, seq bool) (*yaml.Node, error) {
	if m.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: expected a mapping holding %q", m.Line, key)
	}
	fresh := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if seq {
		fresh = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != key {
			continue
		}
		v := m.Content[i+1]
		if v.Kind == yaml.AliasNode {
			return nil, fmt.Errorf("line %d: %q is an alias; add the rule by hand", v.Line, key)
		}
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
			fresh.HeadComment, fresh.LineComment = v.HeadComment, v.LineComment
			m.Content[i+1] = fresh
			return fresh, nil
		}
		if (seq && v.Kind != yaml.SequenceNode) || (!seq && v.Kind != yaml.MappingNode) {
			return nil, fmt.Errorf("line %d: %q has an unexpected type", v.Line, key)
		}
		return v, nil
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, fresh)
	return fresh, nil
}

// locate finds the line of each pattern in rules.shell.allow of data.
func locate(data []byte, file string, patterns []string) ([]Added, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	n := doc.Content[0]
	for _, key := range []string{"rules", "shell", "allow"} {
		var err error
		if n, err = child(n, key, key == "allow"); err != nil {
			return nil, err
		}
	}
	var out []Added
	for _, p := range patterns {
		a := Added{Pattern: p, File: file}
		for _, it := range n.Content {
			if it.Value == p {
				a.Line = it.Line
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// writeAtomic replaces path with data: a temporary file in the same
// directory, synced, then renamed over path.
func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename: nothing there
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
