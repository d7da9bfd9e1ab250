package adversary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// breakerFile holds the circuit breaker's state in the cache directory,
// shared by every guardsh process of the user.
const breakerFile = "breaker.json"

// Breaker stops calling an endpoint that failed Failures times in a row
// (transport errors, time-outs, 429 and 5xx after retries) for CoolDown.
// Its state lives in Dir (none: the breaker is per process).
type Breaker struct {
	Dir      string
	Failures int           // 0: 3
	CoolDown time.Duration // 0: 30 s
	mem      breakerState
}

type breakerState struct {
	Failures  int   `json:"failures"`
	OpenUntil int64 `json:"open_until_ms"` // Unix milliseconds
}

func (b *Breaker) load() breakerState {
	if b.Dir == "" {
		return b.mem
	}
	var s breakerState
	if data, err := os.ReadFile(filepath.Join(b.Dir, breakerFile)); err == nil {
		_ = json.Unmarshal(data, &s)
	}
	return s
}

func (b *Breaker) store(s breakerState) {
	b.mem = s
	if b.Dir == "" || os.MkdirAll(b.Dir, 0o700) != nil {
		return
	}
	data, _ := json.Marshal(s)
	f, err := os.CreateTemp(b.Dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(b.Dir, breakerFile)) != nil {
		os.Remove(f.Name())
	}
}

// Open reports whether calls are stopped at now, and until when.
func (b *Breaker) Open(now time.Time) (bool, time.Time) {
	s := b.load()
	until := time.UnixMilli(s.OpenUntil)
	return s.OpenUntil > 0 && now.Before(until), until
}

// Record notes the outcome of one call.
func (b *Breaker) Record(ok bool, now time.Time) {
	s := b.load()
	if ok {
		if s.Failures != 0 || s.OpenUntil != 0 {
			b.store(breakerState{})
		}
		return
	}
	s.Failures++
	limit, cool := b.Failures, b.CoolDown
	if limit <= 0 {
		limit = 3
	}
	if cool <= 0 {
		cool = 30 * time.Second
	}
	if s.Failures >= limit {
		s.OpenUntil, s.Failures = now.Add(cool).UnixMilli(), 0
	}
	b.store(s)
}
