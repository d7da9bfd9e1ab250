package audit

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Broken is the first place a log fails verification.
type Broken struct {
	// File and Line (1-based) locate the line; Line is the number of lines
	// + 1 when the problem is what is missing after the last one.
	File string
	Line int
	// Problem says what is wrong, in words: "edited", "deleted",
	// "reordered", "truncated", … and why.
	Problem string
}

// Error returns "FILE:LINE: PROBLEM".
func (b *Broken) Error() string { return fmt.Sprintf("%s:%d: %s", b.File, b.Line, b.Problem) }

// Verified is what Verify found in a log that holds.
type Verified struct {
	// Records is the number of lines checked, Files the files.
	Records, Files int
	// Head is the hash of the last record (Genesis for an empty log).
	Head string
	// Anchors is the number of anchors checked.
	Anchors int
}

// Verify checks the hash chain of the log made of files, oldest first (the
// rotated files then the log itself, see Rotated), and that it holds every
// hash in anchors. It returns a *Broken for the first line that fails:
//
//   - a line without the final newline: truncated;
//   - a line that does not end in a hash member, or whose hash is not the
//     SHA-256 of the line without it: edited (or not a record);
//   - a line whose prev is not the hash of the line before it: deleted
//     (the record it follows is missing), reordered (it follows a line
//     found elsewhere in the log), or duplicated;
//   - the first line of the first file not starting a chain (prev not
//     Genesis): earlier records deleted, or a rotated file not given;
//   - an anchor whose hash is in none of the lines: records deleted from
//     the end (truncated) or the log rewritten;
//   - with anchors, records after the last anchored one: guardsh anchors
//     every record it writes, so they were appended by something else (a
//     process that forged chained records), or guardsh stopped between
//     the record and its anchor.
//
// Reading errors are returned as they are (wrapped with the file name).
func Verify(files []string, anchors []AnchorLine) (Verified, error) {
	var v Verified
	type at struct {
		file string
		line int
	}
	seen := map[string]at{} // hash → where
	// First pass: every hash and where it is, to tell reordered from
	// deleted.
	all := map[string]at{}
	for _, name := range files {
		if err := eachLine(name, func(n int, line []byte, _ bool) error {
			if h, ok := lineHash(line); ok {
				all[h] = at{name, n}
			}
			return nil
		}); err != nil {
			return v, err
		}
	}
	prev := Genesis
	var last at
	var order []at // every record, in order
	index := map[string]int{}
	for fi, name := range files {
		v.Files++
		err := eachLine(name, func(n int, line []byte, eol bool) error {
			broken := func(format string, args ...any) error {
				return &Broken{File: name, Line: n, Problem: fmt.Sprintf(format, args...)}
			}
			if !eol {
				return broken("truncated: the last line has no newline (%d bytes of a cut record)", len(line))
			}
			h, ok := lineHash(line)
			if !ok {
				return broken("edited: the line does not end in a hash member (not a chained record)")
			}
			body := line[:len(line)-len(hashTail)-len(h)-2]
			sum := sha256.New()
			sum.Write(body)
			sum.Write([]byte("}"))
			if want := hex.EncodeToString(sum.Sum(nil)); want != h {
				return broken("edited: the line's hash is %.12s…, its content hashes to %.12s…", h, want)
			}
			var r struct {
				Prev *string `json:"prev"`
				ID   string  `json:"id"`
			}
			if err := json.Unmarshal(line, &r); err != nil || r.Prev == nil {
				return broken("edited: not a record with a prev (%v)", err)
			}
			if p, dup := seen[h]; dup {
				return broken("duplicated: the same record as %s:%d", p.file, p.line)
			}
			if *r.Prev != prev {
				switch p, ok := all[*r.Prev]; {
				case prev == Genesis && fi == 0 && n == 1:
					return broken("deleted: the first record follows one (prev %.12s…) that is not in the log: earlier records were removed, or a rotated file was not given", *r.Prev)
				case *r.Prev == Genesis:
					return broken("inserted: the record starts a new chain in the middle of the log")
				case ok && (fileIndex(files, p.file) > fi || p.file == name && p.line > n):
					return broken("reordered: the record follows %s:%d, a line after it", p.file, p.line)
				case ok:
					return broken("reordered: the record follows %s:%d, not the line before it (lines were moved or removed)", p.file, p.line)
				default:
					return broken("deleted: the record before this one (hash %.12s…) is missing", *r.Prev)
				}
			}
			seen[h] = at{name, n}
			prev, last = h, at{name, n}
			index[h] = len(order)
			order = append(order, at{name, n})
			v.Records++
			return nil
		})
		if err != nil {
			return v, err
		}
	}
	v.Head = prev
	for _, a := range anchors {
		if _, ok := seen[a.Hash]; !ok {
			// Named at its last line, after which the record is missing
			// (a line past the end was named before, a new user's find:
			// ":3" of a two-line file).
			file, line, where := "", 0, "after this line"
			if len(files) > 0 {
				file = files[len(files)-1]
				line = last.line
				if last.file != file || line == 0 {
					line, where = 1, "(it holds no record)"
				}
			}
			return v, &Broken{File: file, Line: line, Problem: fmt.Sprintf(
				"truncated or rewritten %s: anchor %d (%s) names record %s (hash %.12s…), which is not in the log", where, a.Line, a.TS, a.ID, a.Hash)}
		}
		v.Anchors++
	}
	if len(anchors) > 0 {
		newest := -1
		for _, a := range anchors {
			newest = max(newest, index[a.Hash])
		}
		if after := len(order) - 1 - newest; after > 0 {
			first := order[newest+1]
			return v, &Broken{File: first.file, Line: first.line, Problem: fmt.Sprintf(
				"unanchored: this record and the %d after it have no anchor, though guardsh anchors every record it writes: appended by something else, or guardsh stopped before anchoring", after-1)}
		}
	}
	return v, nil
}

// eachLine calls f with each line of the file name (1-based n, without
// "\n"; eol false for a last line that has none).
func eachLine(name string, f func(n int, line []byte, eol bool) error) error {
	fh, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("audit verify: %w", err)
	}
	defer fh.Close()
	r := bufio.NewReaderSize(fh, 256<<10)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			eol := line[len(line)-1] == '\n'
			if ferr := f(n, bytes.TrimSuffix(line, []byte("\n")), eol); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("audit verify: %s: %w", name, err)
		}
	}
}

func fileIndex(files []string, name string) int {
	for i, f := range files {
		if f == name {
			return i
		}
	}
	return -1
}
