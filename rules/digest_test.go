package rules

import "testing"

// TestRulesDigest: the digest names the rules, in order: the same rules
// give the same digest, whatever else differs (mode, file), and a changed,
// added, removed or reordered rule gives another.
func TestRulesDigest(t *testing.T) {
	const base = "rules:\n  shell: {allow: [\"git status *\"], deny: [\"rm -rf *\"]}\n  write: {deny: [\"~/.ssh/*\"]}\n"
	d := mustParse(t, base).RulesDigest()
	if len(d) != 64 {
		t.Fatalf("digest %q", d)
	}
	same, err := Parse([]byte("mode: auto\n"+base), "other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := same.RulesDigest(); got != d {
		t.Errorf("same rules, another mode and file: %s, want %s", got, d)
	}
	seen := map[string]string{d: "base"}
	for name, text := range map[string]string{
		"pattern changed":  "rules:\n  shell: {allow: [\"git status *\"], deny: [\"rm -rf  *\"]}\n  write: {deny: [\"~/.ssh/*\"]}\n",
		"decision changed": "rules:\n  shell: {allow: [\"git status *\"], ask: [\"rm -rf *\"]}\n  write: {deny: [\"~/.ssh/*\"]}\n",
		"section changed":  "rules:\n  shell: {allow: [\"git status *\"], deny: [\"rm -rf *\"]}\n  read: {deny: [\"~/.ssh/*\"]}\n",
		"rule added":       base + "  read: {deny: [\"~/.aws/*\"]}\n",
		"rule removed":     "rules:\n  shell: {deny: [\"rm -rf *\"]}\n  write: {deny: [\"~/.ssh/*\"]}\n",
		"order changed":    "rules:\n  write: {deny: [\"~/.ssh/*\"]}\n  shell: {allow: [\"git status *\"], deny: [\"rm -rf *\"]}\n",
	} {
		got := mustParse(t, text).RulesDigest()
		if other, ok := seen[got]; ok {
			t.Errorf("%s: digest %s, the same as %s", name, got, other)
		}
		seen[got] = name
	}
	p := mustParse(t, base)
	if p.RulesDigest() != p.RulesDigest() {
		t.Error("digest changes between calls")
	}
}
