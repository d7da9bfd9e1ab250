package adversary

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/guardsh/guardsh/rules"
)

// RulesFile is a parsed adversary.md: optional front matter between two
// "---" lines, then the rules in free text.
//
//	---
//	tools: [shell]          # as in goose; "shell" (or "…__shell") means every command
//	match: ["curl *"]       # guardsh command patterns: only these segments are reviewed
//	---
//	- Block anything that reads ~/.aws.
//
// With no rules text the built-in DefaultRules apply.
type RulesFile struct {
	// Path is the file; Rules the text the model is given.
	Path  string
	Rules string
	// Shell is false when tools: lists no shell tool: the adversary then
	// reviews no command.
	Shell bool
	// Match, when not empty, limits the review to segments matching one
	// of these patterns.
	Match []string
	// Hash is the SHA-256 of the file's bytes (hex), part of the cache key.
	Hash string
}

// ParseRulesFile parses the contents of an adversary.md named path. An
// error (front matter that is not YAML, an unknown key, an unclosed front
// matter) names path and line.
func ParseRulesFile(data []byte, path string) (*RulesFile, error) {
	sum := sha256.Sum256(data)
	rf := &RulesFile{Path: path, Shell: true, Hash: hex.EncodeToString(sum[:])}
	text := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	if strings.HasPrefix(text, "---\n") {
		end := strings.Index(text[4:], "\n---")
		if end < 0 || (len(text) > 4+end+4 && text[4+end+4] != '\n') {
			return nil, fmt.Errorf("%s:1: front matter opened with \"---\" is not closed by a \"---\" line", path)
		}
		front := text[4 : 4+end+1]
		text = strings.TrimPrefix(text[4+end+4:], "\n")
		var fm struct {
			Tools []string `yaml:"tools"`
			Match []string `yaml:"match"`
		}
		dec := yaml.NewDecoder(strings.NewReader(front))
		dec.KnownFields(true)
		if err := dec.Decode(&fm); err != nil && err.Error() != "EOF" {
			return nil, fmt.Errorf("%s: front matter: %v (expected tools: and match: lists)", path, err)
		}
		if fm.Tools != nil {
			rf.Shell = false
			for _, t := range fm.Tools {
				rf.Shell = rf.Shell || t == "shell" || strings.HasSuffix(t, "__shell")
			}
		}
		for i, m := range fm.Match {
			if m == "" || strings.TrimSpace(m) != m {
				return nil, fmt.Errorf("%s: front matter: match[%d]: %q is empty or has leading or trailing white space", path, i, m)
			}
		}
		rf.Match = fm.Match
	}
	rf.Rules = strings.TrimSpace(text)
	if rf.Rules == "" {
		rf.Rules = DefaultRules
	}
	return rf, nil
}

// Covers reports whether the adversary reviews a segment with these words.
func (rf *RulesFile) Covers(words []string) bool {
	if !rf.Shell {
		return false
	}
	if len(rf.Match) == 0 {
		return true
	}
	for _, m := range rf.Match {
		if rules.MatchCommand(m, words) {
			return true
		}
	}
	return false
}

// rulesWatch re-reads a rules file when its size or modification time
// changes.
type rulesWatch struct {
	mu    sync.Mutex
	path  string
	size  int64
	mtime time.Time
	rf    *RulesFile
	err   error
}

// load returns the current rules, (nil, nil) when the file does not exist.
func (w *rulesWatch) load() (*RulesFile, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fi, err := os.Stat(w.path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("adversary rules: %w", err)
	}
	if (w.rf != nil || w.err != nil) && fi.Size() == w.size && fi.ModTime().Equal(w.mtime) {
		return w.rf, w.err
	}
	data, err := os.ReadFile(w.path)
	if err != nil {
		return nil, fmt.Errorf("adversary rules: %w", err)
	}
	w.size, w.mtime = fi.Size(), fi.ModTime()
	w.rf, w.err = ParseRulesFile(data, w.path)
	return w.rf, w.err
}
