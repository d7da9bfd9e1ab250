package prompt

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Approval statuses.
const (
	Pending  = "pending"
	Approved = "approved"
	Denied   = "denied"
)

// Approval is one request a human answers from elsewhere, kept as ID.json
// in the spool directory. It is bound to the request's command, working
// directory and session; a given approval is used once, then removed.
type Approval struct {
	ID      string    `json:"id"`
	Request           // command, cwd, session, segments
	Created time.Time `json:"created"`
	// Expires is when the approval stops counting, pending or given.
	Expires time.Time `json:"expires"`
	Status  string    `json:"status"`
	// Always says the approver also remembered the command's rules.
	Always bool `json:"always,omitempty"`
	// Reusable (allowed "for this session") is not used up by Take.
	Reusable bool `json:"reusable,omitempty"`
	// Message is the approver's word for the agent (with a denial).
	Message string    `json:"message,omitempty"`
	Decided time.Time `json:"decided,omitzero"`
	// PID is the guardsh process that asked.
	PID int `json:"pid"`
}

// Spool is the directory of pending and given approvals. Dir must be
// private (mode 0700, owned by the user): anything else is an error, since
// a file there lets a command run.
type Spool struct {
	Dir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// SpoolDir is the default spool directory under home:
// ~/.local/state/guardsh/approvals.
func SpoolDir(home string) string {
	return filepath.Join(home, ".local", "state", "guardsh", "approvals")
}

var idRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z2-7]{10}$`) })

func (s Spool) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// ready creates Dir (0700) if needed and checks it is private.
func (s Spool) ready() error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	fi, err := os.Lstat(s.Dir)
	if err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 || !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("approvals: %s must be a directory owned by you with mode 0700 (it is %v); fix it with chmod 700 %s", s.Dir, fi.Mode(), s.Dir)
	}
	return nil
}

func (s Spool) file(id string) string { return filepath.Join(s.Dir, id+".json") }

// Add records a pending approval of req that expires after ttl, or
// returns the pending one already bound to the same command, directory
// and session.
func (s Spool) Add(req Request, ttl time.Duration) (Approval, error) {
	list, err := s.List()
	if err != nil {
		return Approval{}, err
	}
	for _, a := range list {
		if a.Status == Pending && a.binds(req) {
			return a, nil
		}
	}
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Approval{}, err
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	id := make([]byte, len(b))
	for i, c := range b {
		id[i] = alphabet[int(c)%32]
	}
	now := s.now()
	a := Approval{ID: string(id), Request: req, Created: now, Expires: now.Add(ttl), Status: Pending, PID: os.Getpid()}
	return a, s.write(a)
}

// Grant records an approval of req given now, reusable until ttl passes
// (the dialog's "allow for this session").
func (s Spool) Grant(req Request, ttl time.Duration) (Approval, error) {
	a, err := s.Add(Request{Command: "\x00grant"}, ttl)
	if err != nil {
		return a, err
	}
	os.Remove(s.file(a.ID))
	now := s.now()
	a.Request, a.Status, a.Reusable, a.Decided, a.Expires = req, Approved, true, now, now.Add(ttl)
	return a, s.write(a)
}

// binds reports whether a answers req: the same command, directory and
// session, and the same analysis of what needs approval (each segment's
// text, kind, class, reason and rule). The reason names the paths the
// segment resolves to, so a link made to point elsewhere after the human
// approved makes the approval not count (an attack run's find).
func (a Approval) binds(req Request) bool {
	return a.Command == req.Command && a.Cwd == req.Cwd && a.Session == req.Session &&
		slices.EqualFunc(a.Items, req.Items, func(x, y Item) bool {
			return x.Text == y.Text && x.Kind == y.Kind && x.Class == y.Class && x.Reason == y.Reason && x.Rule == y.Rule
		})
}

// write stores a atomically (temporary file, rename), mode 0600.
func (s Spool) write(a Approval) error {
	data, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	if err := writeAtomic(s.file(a.ID), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("approvals: %w", err)
	}
	return nil
}

// Get reads the approval id. An unknown id, or one that is not ten
// characters of a-z and 2-7, is an error saying so.
func (s Spool) Get(id string) (Approval, error) {
	if !idRE().MatchString(id) {
		return Approval{}, fmt.Errorf("%q is not an approval id (see guardsh approvals)", id)
	}
	if err := s.ready(); err != nil {
		return Approval{}, err
	}
	data, err := os.ReadFile(s.file(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Approval{}, fmt.Errorf("no approval %s (already used, expired, or never asked; see guardsh approvals)", id)
	}
	if err != nil {
		return Approval{}, fmt.Errorf("approvals: %w", err)
	}
	var a Approval
	if err := json.Unmarshal(data, &a); err != nil || a.ID != id {
		return Approval{}, fmt.Errorf("approvals: %s: unreadable", s.file(id))
	}
	return a, nil
}

// List returns the approvals not yet expired, oldest first; expired ones
// are removed.
func (s Spool) List() ([]Approval, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	names, err := filepath.Glob(filepath.Join(s.Dir, "*.json"))
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out []Approval
	for _, n := range names {
		a, err := s.Get(strings.TrimSuffix(filepath.Base(n), ".json"))
		if err != nil {
			continue
		}
		if !now.Before(a.Expires) {
			os.Remove(n)
			continue
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, nil
}

// Decide answers the pending approval id: status Approved or Denied, with
// always (approved and remembered) and the message for the agent. An
// expired or already answered approval is an error.
func (s Spool) Decide(id, status string, always bool, message string) (Approval, error) {
	a, err := s.Get(id)
	if err != nil {
		return a, err
	}
	now := s.now()
	switch {
	case !now.Before(a.Expires):
		os.Remove(s.file(id))
		return a, fmt.Errorf("approval %s expired at %s; the agent must ask again", id, a.Expires.UTC().Format(time.RFC3339))
	case a.Status != Pending:
		return a, fmt.Errorf("approval %s was already %s", id, a.Status)
	}
	a.Status, a.Always, a.Message, a.Decided = status, always, message, now
	return a, s.write(a)
}

// Take finds an answered, unexpired approval bound to req and uses it up:
// the file is renamed away first, so that of processes racing for one
// approval exactly one gets it. ok is false when there is none.
func (s Spool) Take(req Request) (a Approval, ok bool, err error) {
	list, err := s.List()
	if err != nil {
		return a, false, err
	}
	for _, a := range list {
		if a.Status == Pending || !a.binds(req) {
			continue
		}
		if a.Reusable || s.take(a.ID) {
			return a, true, nil
		}
	}
	return a, false, nil
}

// take removes approval id; it reports whether this call removed it.
func (s Spool) take(id string) bool {
	used := filepath.Join(s.Dir, "."+id+".used")
	if err := os.Rename(s.file(id), used); err != nil {
		return false
	}
	os.Remove(used)
	return true
}

// Wait polls approval id every poll (at most 200 ms is what a human
// expects) until it is answered, then uses it up. It returns ctx's error
// when ctx ends first, and an error when the approval expires or vanishes.
func (s Spool) Wait(ctx context.Context, id string, poll time.Duration) (Approval, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		a, err := s.Get(id)
		if err != nil {
			return a, err
		}
		if a.Status != Pending {
			if !s.take(id) {
				return a, fmt.Errorf("approval %s was used by another process", id)
			}
			return a, nil
		}
		if !s.now().Before(a.Expires) {
			return a, fmt.Errorf("approval %s expired", id)
		}
		select {
		case <-ctx.Done():
			return a, ctx.Err()
		case <-t.C:
		}
	}
}
