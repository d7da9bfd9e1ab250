package audit_test

import (
	"math/rand/v2"
	"regexp"
	"sort"
	"testing"
	"time"

	"github.com/guardsh/guardsh/audit"
)

var idPattern = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

func TestNewIDEncodesTheTimeLikeULID(t *testing.T) {
	tests := []struct {
		name string
		t    time.Time
		want string // the first 10 characters: 48 bits of milliseconds
	}{
		// The example of the ULID spec: 1469918176385 ms is 01ARYZ6S41.
		{"the ULID spec's example", time.UnixMilli(1469918176385), "01ARYZ6S41"},
		{"the epoch", time.Unix(0, 0), "0000000000"},
		{"times before the epoch are the epoch", time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), "0000000000"},
		{"the last millisecond of 48 bits", time.UnixMilli(1<<48 - 1), "7ZZZZZZZZZ"},
		{"later times are the last millisecond", time.UnixMilli(1 << 50), "7ZZZZZZZZZ"},
		{"sub-millisecond parts are dropped", time.UnixMilli(1469918176385).Add(999 * time.Microsecond), "01ARYZ6S41"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := audit.NewID(tt.t)
			if !idPattern.MatchString(id) || len(id) != audit.IDLen {
				t.Fatalf("NewID = %q, not 26 Crockford base32 characters", id)
			}
			if id[:10] != tt.want {
				t.Errorf("NewID(%v) = %s, want time part %s", tt.t, id, tt.want)
			}
		})
	}
}

func TestNewIDsSortInTimeOrder(t *testing.T) {
	// Increasing times, from 1 ms to years apart, across the whole range.
	rng := rand.New(rand.NewPCG(1, 2))
	ms := int64(0)
	var ids []string
	for ms < 1<<48-1 && len(ids) < 5000 {
		ids = append(ids, audit.NewID(time.UnixMilli(ms)))
		step := int64(1) << rng.IntN(40) // 1 ms .. ~35 years
		ms += 1 + rng.Int64N(step)
	}
	if !sort.StringsAreSorted(ids) {
		for i := 1; i < len(ids); i++ {
			if ids[i-1] >= ids[i] {
				t.Fatalf("id %d %s does not sort after id %d %s", i, ids[i], i-1, ids[i-1])
			}
		}
	}
	// Consecutive real times, as guardsh makes them.
	prev := audit.NewID(time.Now())
	for range 20 {
		time.Sleep(time.Millisecond)
		id := audit.NewID(time.Now())
		if id <= prev {
			t.Fatalf("id %s made later sorts before %s", id, prev)
		}
		prev = id
	}
}

func TestNewIDsAreUnique(t *testing.T) {
	// All in the same millisecond: only the 80 random bits tell them apart.
	now := time.Now()
	seen := make(map[string]bool, 10000)
	for range 10000 {
		id := audit.NewID(now)
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
	}
}
