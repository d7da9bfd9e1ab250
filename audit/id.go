package audit

import (
	"math/rand/v2"
	"time"
)

// crockford is Crockford's base32 alphabet: digits and upper-case letters
// without I, L, O and U, in ASCII order so that encoded strings sort like the
// numbers they encode.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// IDLen is the length of an ID made by NewID.
const IDLen = 26

const maxMillis = 1<<48 - 1

// NewID returns a new record ID for time t: 26 characters of Crockford
// base32 encoding 128 bits, the first 48 the milliseconds since the Unix
// epoch (big-endian) and the other 80 from math/rand/v2's global generator
// (ChaCha8, seeded from the operating system's entropy when the process
// starts). This is the ULID layout (github.com/ulid/spec), so tools that
// read ULIDs read it. An ID needs to be unique, not secret: crypto/rand's
// first call maps and seeds per-thread state, a quarter of a millisecond
// of every guardsh start on the machines measured (see bench).
//
// IDs made in different milliseconds sort, as strings, in time order; two
// IDs made in the same millisecond are in random order. Collisions need two
// equal 80-bit random values in one millisecond. Times before 1970 are
// encoded as the epoch and times after the year 10889 as its last
// millisecond.
func NewID(t time.Time) string {
	ms := t.UnixMilli()
	ms = max(ms, 0)
	ms = min(ms, maxMillis)
	var rnd [10]byte
	a, b := rand.Uint64(), rand.Uint64()
	for i := range 8 {
		rnd[i] = byte(a >> (8 * i))
	}
	rnd[8], rnd[9] = byte(b), byte(b>>8)

	var out [IDLen]byte
	for i := range 10 {
		out[i] = crockford[(ms>>(45-5*i))&31]
	}
	// The 80 random bits as hi (top 16) and lo (low 64).
	hi := uint64(rnd[0])<<8 | uint64(rnd[1])
	var lo uint64
	for _, b := range rnd[2:] {
		lo = lo<<8 | uint64(b)
	}
	for j := range 16 {
		s := uint(75 - 5*j) // lowest bit of this 5-bit group
		var v uint64
		switch {
		case s >= 64:
			v = hi >> (s - 64)
		case s+5 <= 64:
			v = lo >> s
		default:
			v = lo>>s | hi<<(64-s)
		}
		out[10+j] = crockford[v&31]
	}
	return string(out[:])
}
