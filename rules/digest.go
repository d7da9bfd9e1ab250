package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// RulesDigest returns a digest of the policy's rules: the SHA-256, hex
// encoded (64 characters), of the section, decision and pattern of each
// rule in file order. Two policies with the same rules in the same order
// have the same digest; changing, adding, removing or reordering a rule
// changes it. It is computed once per policy (hashing 10,000 rules takes
// milliseconds) and is safe for concurrent use.
func (p *Policy) RulesDigest() string {
	if d := p.digest.Load(); d != nil {
		return *d
	}
	h := sha256.New()
	var buf []byte
	for _, r := range p.rules {
		// Each field quoted: no pattern can pass for two fields.
		buf = strconv.AppendQuote(buf[:0], r.Section)
		buf = strconv.AppendQuote(buf, r.Decision.String())
		buf = strconv.AppendQuote(buf, r.Pattern)
		h.Write(append(buf, '\n'))
	}
	d := hex.EncodeToString(h.Sum(nil))
	p.digest.Store(&d)
	return d
}
