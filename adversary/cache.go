package adversary

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Cache keeps answers on disk, one small file per key under Dir, for TTL;
// when a write takes it past Max entries the oldest are removed. The zero
// Dir disables it. Concurrent guardsh processes share it safely: each
// entry is written to a temporary file and renamed into place.
type Cache struct {
	Dir string
	TTL time.Duration // 0: 24 h
	Max int           // 0: 10000 entries
}

type cacheEntry struct {
	At     int64  `json:"at"` // Unix seconds
	Answer Answer `json:"answer"`
}

// CacheKey returns the key of an answer: a SHA-256 (hex) of the role, the
// endpoint and model, the adversary rules' hash, and of q the working
// directory, the workspace, the program file's identity and the exact
// words (each with its length, so that quoting is not lost; the display
// string when Argv is nil). An attack run had one command's answer
// reused for another spelled alike.
func CacheKey(role Role, baseURL, model, rulesHash string, q Query) string {
	h := sha256.New()
	for _, s := range []string{string(role), baseURL, model, rulesHash, q.Cwd, q.Workspace, q.Program} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	// Each word with its length, so that no two argvs write the same bytes.
	for _, w := range q.Argv {
		fmt.Fprintf(h, "%d:%s", len(w), w)
	}
	if q.Argv == nil {
		h.Write([]byte(q.Segment))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Cache) path(key string) string { return filepath.Join(c.Dir, key[:2], key+".json") }

// Get returns the answer stored under key if it is younger than TTL.
func (c *Cache) Get(key string, now time.Time) (Answer, bool) {
	if c == nil || c.Dir == "" {
		return Answer{}, false
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return Answer{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil {
		return Answer{}, false
	}
	ttl := c.TTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	if age := now.Sub(time.Unix(e.At, 0)); age < 0 || age > ttl {
		return Answer{}, false
	}
	return e.Answer, true
}

// Put stores a under key. Errors are ignored: a cache that cannot be
// written only costs another request.
func (c *Cache) Put(key string, a Answer, now time.Time) {
	if c == nil || c.Dir == "" {
		return
	}
	p := c.path(key)
	if os.MkdirAll(filepath.Dir(p), 0o700) != nil {
		return
	}
	data, _ := json.Marshal(cacheEntry{At: now.Unix(), Answer: a})
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), p) != nil {
		os.Remove(f.Name())
		return
	}
	c.prune()
}

// prune removes the oldest entries beyond Max.
func (c *Cache) prune() {
	limit := c.Max
	if limit <= 0 {
		limit = 10000
	}
	type entry struct {
		path string
		mod  time.Time
	}
	var all []entry
	_ = filepath.WalkDir(c.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".json" && filepath.Base(p) != breakerFile {
			if fi, err := d.Info(); err == nil {
				all = append(all, entry{p, fi.ModTime()})
			}
		}
		return nil
	})
	if len(all) <= limit {
		return
	}
	slices.SortFunc(all, func(a, b entry) int { return a.mod.Compare(b.mod) })
	for _, e := range all[:len(all)-limit] {
		os.Remove(e.path)
	}
}
