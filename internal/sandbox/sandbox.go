// Package sandbox confines a command's real shell, and every process it
// starts, with Linux Landlock (github.com/landlock-lsm/go-landlock): reads
// everywhere but the hidden paths, writes only beneath the writable
// directories, no TCP connect or bind unless the network is allowed, no
// signals to and no abstract UNIX sockets of processes outside the jail.
//
// The restrictions are set on one locked OS thread of the calling process
// just before that thread forks the shell (see Start), so they hold from
// the first instruction of the shell on, are inherited by every descendant
// across fork and exec, and cannot be lifted: Landlock domains only ever
// tighten, no_new_privs keeps setuid and file capabilities from
// applying, and the thread's capabilities are dropped (all of them, the
// bounding set included, see dropCapabilities), so a jailed root is uid 0
// owning its files and nothing more. The calling process itself stays
// unconfined.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/guardsh/guardsh/internal/fsview"
	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// MinABI is the lowest Landlock ABI the jail runs on: ABI 4 added TCP
// connect and bind (Linux 6.7). Below it a jail could not close the
// network, so nothing runs in one.
const MinABI = 4

// ABI returns the Landlock ABI version of the running kernel: 0 when
// Landlock is missing or disabled (landlock_create_ruleset(2) with
// LANDLOCK_CREATE_RULESET_VERSION). It asks the kernel once per process.
var ABI = sync.OnceValue(func() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
})

// Unavailable returns why no jail can be set up on this kernel, for the
// audit record ("unavailable (ABI 3)"), or "" when one can.
func Unavailable() string {
	if abi := ABI(); abi < MinABI {
		return fmt.Sprintf("unavailable (ABI %d)", abi)
	}
	return ""
}

// Spec is what a jail lets its processes do. Paths are absolute; they are
// resolved (symbolic links followed) when the jail is built, and paths
// that do not exist are skipped.
type Spec struct {
	// Write are the directories beneath which the jail may create, write,
	// truncate, rename, link and remove files: the workspace, the temp
	// directories, configured extra paths.
	Write []string `json:"write"`
	// Hidden are files and directories the jail may neither read nor
	// write, even beneath a Write directory: secrets, guardsh's own
	// configuration and audit log.
	Hidden []string `json:"hidden"`
	// Kept are files outside the Write directories that the jail may
	// read, whose modes and owners are nonetheless kept and put back as
	// the hidden paths' are (see Jail.PutBack): hidden paths that hold
	// no secret when the jail is built (guard.Guard.Jail).
	Kept []string `json:"kept,omitempty"`
	// Runnable are programs among Kept whose owner's read and execute
	// bits PutBack gives back when the command took them away: guardsh's
	// own binary (attack run 79 made it unrunnable from the jail, and
	// every later command failed).
	Runnable []string `json:"runnable,omitempty"`
	// Network lets the jail connect and bind TCP sockets (the policy
	// allowed the network for this command).
	Network bool `json:"network"`
}

// Rights the jail grants: reading (and executing) outside the hidden
// paths, listing the directories on the way to a hidden path, and the
// full set of file rights beneath a writable directory but making device
// nodes, renames and links within it included (REFER). Rights for single
// files leave out those Landlock only knows for directories.
const (
	readRights = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir
	// No device nodes: as root, a jailed command could make one for the
	// raw disk and read the hidden files through it (an attack run made
	// block and character nodes).
	writeRights = readRights | ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeSym | ll.AccessFSRefer | ll.AccessFSTruncate
	fileRights = ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSWriteFile | ll.AccessFSTruncate |
		ll.AccessFSIoctlDev
)

// devices are the device files every shell writes: the null and zero
// devices, the terminal, pseudo-terminals and shared memory.
var (
	deviceFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}
	deviceDirs  = []string{"/dev/pts", "/dev/shm"}
)

// procFiles and procDirs are what the jail may read of /proc: the
// system-wide figures programs size themselves by (CPUs, memory, load,
// kernel settings). The directories of processes are not readable, the
// jail's own included (/proc/self): Landlock's ptrace restriction does not
// keep a jailed process from reading another's /proc/PID/environ (the
// agent's API keys) when both are the same user, and a rule cannot tell
// the jail's processes from the others. kcore, kmsg, kallsyms and the
// like are left out too.
var (
	// (One Landlock rule each, built for every jailed command: the
	// files runtimes and build tools read, not every one there is.)
	procFiles = []string{"/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/uptime",
		"/proc/version", "/proc/filesystems"}
	procDirs = []string{"/proc/sys"}
)

// Start starts cmd inside a jail built from s, like cmd.Start; it is
// Prepare(s) followed by Jail.Start and Jail.Close.
func Start(cmd *exec.Cmd, s Spec) error {
	j := Prepare(s)
	defer j.Close()
	return j.Start(cmd)
}

// Jail is a confined OS thread being made ready for one Spec, or ready:
// Prepare starts it in the background (walking the file system beside the
// hidden paths, adding one Landlock rule per path, then restricting the
// thread), so that a caller can decide the command meanwhile and Start
// only forks and execs; Start hands it the command.
type Jail struct {
	// done is closed once the thread is confined (or err says why it
	// could not be).
	done chan struct{}
	err  error
	// writers are the inherited descriptors open for writing (see
	// inheritedWriters), made close-on-exec before the jail starts.
	writers []int
	// start takes the command to the confined thread, which answers on
	// started with cmd.Start's error; quit (closed by Close) ends a
	// thread no command was handed to.
	start   chan *exec.Cmd
	started chan error
	// modes are the modes and owners of the hidden paths and of the
	// directories above them when the jail was built (see PutBack).
	modes []keptMode
	// runnable are Spec.Runnable's paths as lstat(2) found them.
	runnable map[dirID]bool
	quit     chan struct{}
	close    sync.Once
	used     atomic.Bool
}

// Prepare starts, in a new goroutine, confining the OS thread that will
// start the command of s, and returns at once: the goroutine locks its
// thread (never unlocked, so Go ends the thread with the goroutine and no
// other code of the caller ever runs confined), builds the ruleset and
// the seccomp program, sets no_new_privs, drops every capability and
// restricts that thread alone, then waits for Start or Close. Close the
// Jail when done with it.
func Prepare(s Spec) *Jail {
	j := &Jail{done: make(chan struct{}), start: make(chan *exec.Cmd), started: make(chan error, 1), quit: make(chan struct{})}
	go j.confine(s)
	return j
}

// confine is the goroutine of Prepare: it confines its own thread and
// then forks and execs the command Start hands it from there.
func (j *Jail) confine(s Spec) {
	runtime.LockOSThread()
	if err := j.restrict(s); err != nil {
		j.err = err
		releaseHeld()
		close(j.done)
		return
	}
	close(j.done)
	for {
		select {
		case <-j.quit:
			releaseHeld()
			return
		case cmd := <-j.start:
			// Should guardsh be killed (SIGKILL, the OOM killer) while
			// the command runs, the command is killed with it rather
			// than going on unwatched. The parent-death signal follows
			// the thread that forked, so the thread stays until the
			// command has ended (waitid with WNOWAIT leaves the reaping
			// to the caller's Wait).
			if cmd.SysProcAttr == nil {
				cmd.SysProcAttr = &syscall.SysProcAttr{}
			}
			cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
			err := cmd.Start()
			j.started <- err
			if err != nil {
				// Nothing started: the thread may start another.
				continue
			}
			// The command has exec'd (its copies of the build's
			// descriptors closed there): guardsh's go too, while the
			// command runs, so that none holds a mount busy for its
			// time nor costs guardsh's exit.
			releaseHeld()
			var info unix.Siginfo
			for unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
			}
			return
		}
	}
}

// restrict builds the jail of s and confines the calling thread to it.
func (j *Jail) restrict(s Spec) error {
	if abi := ABI(); abi < MinABI {
		return fmt.Errorf("%w: Landlock ABI %d, the jail needs %d", ErrUnavailable, abi, MinABI)
	}
	prog, err := filter(s.Network)
	if err != nil {
		return err
	}
	j.writers = inheritedWriters()
	fd, flags, hidden, writes, err := s.ruleset()
	if err != nil {
		return err
	}
	j.modes = keepModes(hidden, writes)
	for _, p := range s.Runnable {
		if m, ok := lstatMode(p); ok && !m.link && !m.dir {
			if j.runnable == nil {
				j.runnable = map[dirID]bool{}
			}
			j.runnable[dirID{m.dev, m.ino}] = true
		}
	}
	defer keepOpen(fd, heldBound())
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: no_new_privs: %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("sandbox: landlock_restrict_self: %w", err)
	}
	return installFilter(prog)
}

// Start starts cmd inside the jail, like cmd.Start, from the thread
// Prepare confined (waiting for it to be ready); cmd's process gets
// SIGKILL should the calling process die first (PR_SET_PDEATHSIG).
// Writable descriptors other than standard input, output and error that
// the process inherited are closed on exec first, so the jail cannot
// write through a file opened outside it. A Jail starts one command: once
// one has started, Start fails; after a failed start (the program could
// not be executed) it may be called again.
func (j *Jail) Start(cmd *exec.Cmd) error {
	<-j.done
	if j.err != nil {
		return j.err
	}
	if !j.used.CompareAndSwap(false, true) {
		return errors.New("sandbox: this jail already started a command")
	}
	for _, fd := range j.writers {
		unix.CloseOnExec(fd)
	}
	// What the command leaves running comes back to this process when
	// its parent ends, for StopLeftovers.
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("sandbox: child subreaper: %w", err)
	}
	select {
	case j.start <- cmd:
	case <-j.quit:
		return errors.New("sandbox: the jail was closed")
	}
	err := <-j.started
	if err != nil {
		j.used.Store(false)
	}
	return err
}

// Ready waits until the thread is confined and returns why it could not
// be, if so (the error Start would return).
func (j *Jail) Ready() error {
	<-j.done
	return j.err
}

// Close ends the confined thread if no command was started from it (one
// that was ends with its command). It does not wait.
func (j *Jail) Close() {
	j.close.Do(func() { close(j.quit) })
}

// ErrUnavailable is wrapped by Start's error when the kernel has no
// Landlock, or an ABI below MinABI.
var ErrUnavailable = errors.New("sandbox unavailable")

// ruleset builds the Landlock ruleset of s and returns its descriptor and
// the flags for landlock_restrict_self(2). The rules are added as the
// file system is walked: each directory on the way to a hidden path is
// opened relative to its parent's descriptor, listed through its own,
// and each of its entries opened (O_PATH, no link followed) relative to
// it, one landlock_add_rule(2) each. The descriptors are left open (see
// keepOpen): they close at the command's exec, where they are
// close-on-exec, and at guardsh's exit.
func (s Spec) ruleset() (fd int, flags uint32, hidden, writes []string, err error) {
	return s.rulesetIn(fsview.New())
}

// rulesetIn is ruleset walking through view v.
func (s Spec) rulesetIn(v *fsview.View) (fd int, flags uint32, hidden, writes []string, err error) {
	cfg := landlock.V7.BestEffort()
	if s.Network {
		cfg.HandledAccessNet = 0
	}
	fd, flags, err = cfg.NewRulesetFD()
	if err != nil {
		return -1, 0, nil, nil, fmt.Errorf("sandbox: building the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return -1, 0, nil, nil, fmt.Errorf("%w: Landlock ABI %d", ErrUnavailable, ABI())
	}
	c := &carver{view: v, ruleset: fd, grantable: grantable(ABI()), bound: heldBound()}
	hidden, writes = s.carveAll(c)
	if c.err != nil {
		unix.Close(fd)
		return -1, 0, nil, nil, fmt.Errorf("sandbox: building the Landlock ruleset: %w", c.err)
	}
	return fd, flags, hidden, writes, nil
}

// grantable returns the file rights a rule may name under Landlock ABI
// abi, as the best-effort ruleset of landlock.V7 handles them there: of
// the rights the jail grants, ABI 5 added ioctl on device files (the
// others are known from ABI 3, below MinABI).
func grantable(abi int) uint64 {
	r := uint64(writeRights | fileRights)
	if abi < 5 {
		r &^= ll.AccessFSIoctlDev
	}
	return r
}

// Rules returns the Landlock rules of s: read rights on the file system
// minus the hidden paths, /proc and /dev (a directory holding a hidden
// path is listed, and its other entries granted one by one; of /proc only
// procFiles and procDirs, of /dev only deviceFiles and deviceDirs), write rights beneath the
// writable directories (carved the same way when one holds a hidden
// path), and the device files. Symbolic links met while carving get no
// rule: what they point to is granted, or not, where it lives. They are
// the rules the jail adds (by descriptor, as it walks) described by path.
func (s Spec) Rules() ([]landlock.Rule, error) {
	c := &carver{view: fsview.New(), ruleset: -1}
	s.carveAll(c)
	return []landlock.Rule{
		landlock.PathAccess(readRights, c.roDirs...).IgnoreIfMissing(),
		landlock.PathAccess(readRights&^ll.AccessFSReadDir, c.roFiles...).IgnoreIfMissing(),
		landlock.PathAccess(ll.AccessFSReadDir, c.listDirs...).IgnoreIfMissing(),
		landlock.PathAccess(writeRights, c.rwDirs...).IgnoreIfMissing(),
		landlock.PathAccess(fileRights&^ll.AccessFSIoctlDev, c.rwFiles...).IgnoreIfMissing(),
		landlock.PathAccess(fileRights, deviceFiles...).IgnoreIfMissing(),
		landlock.PathAccess(writeRights|ll.AccessFSIoctlDev, deviceDirs...).IgnoreIfMissing(),
	}, nil
}

// carveAll walks the file system for the rules of s (adding them to
// c.ruleset, or collecting their paths) and returns the hidden and kept
// paths and the writable directories as found (resolved), for keepModes.
// A hidden file outside the writable directories that the jail's
// processes could not open anyway (Unreadable) costs no carving: /etc's
// hundred-odd entries for /etc/shadow, for any user but root.
func (s Spec) carveAll(c *carver) (hidden, writes []string) {
	v := c.view
	hidden = resolveAll(v, append(slices.Clip(s.Hidden), "/proc"))
	writes = resolveAll(v, s.Write)
	carved := slices.DeleteFunc(slices.Clone(hidden), func(h string) bool {
		return !slices.ContainsFunc(writes, func(w string) bool { return within(h, w) }) && Unreadable(h)
	})
	c.carve(c.openDir(unix.AT_FDCWD, "/"), "/", carved, false)
	hidden = append(hidden, resolveAll(v, s.Kept)...)
	for _, w := range writes {
		if slices.ContainsFunc(carved, func(h string) bool { return within(w, h) }) {
			continue // the directory itself is hidden
		}
		if slices.ContainsFunc(carved, func(h string) bool { return within(h, w) }) {
			c.carve(c.openDir(unix.AT_FDCWD, w), w, carved, true)
			continue
		}
		c.grant(unix.AT_FDCWD, "", w, writeRights, &c.rwDirs, true)
	}
	for _, f := range deviceFiles {
		c.grant(unix.AT_FDCWD, "", f, fileRights, nil, true)
	}
	for _, d := range deviceDirs {
		c.grant(unix.AT_FDCWD, "", d, writeRights|ll.AccessFSIoctlDev, nil, true)
	}
	return hidden, writes
}

// carver walks the file system for a jail's rules: it adds them to
// ruleset as it goes, or, when ruleset is -1, collects their paths (see
// Spec.Rules).
type carver struct {
	view *fsview.View
	// ruleset is the Landlock ruleset the rules are added to; grantable
	// the rights a rule may name (see grantable); bound how many
	// descriptors the build may leave open (see keepOpen).
	ruleset   int
	grantable uint64
	bound     int
	// err is the first error adding a rule (the build fails).
	err                                        error
	roDirs, roFiles, listDirs, rwDirs, rwFiles []string
}

// openDir opens directory name relative to dirfd (an absolute name:
// dirfd is AT_FDCWD) for listing, following no symbolic link in its last
// component (the paths carved are resolved, so a link there was swapped
// in meanwhile): -1 when it cannot be opened, and in the collecting mode.
func (c *carver) openDir(dirfd int, name string) int {
	if c.ruleset < 0 {
		return -1
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	return fd
}

// grant adds a rule giving access to name relative to dirfd (p is its
// path), or notes p in list when collecting. A name that is missing gets
// no rule; a relative name is opened without following a link (the
// listing said it was none: one swapped in gets a rule of its own, or,
// for directory rights, none), an absolute one following links, as
// configured paths are (and /dev/stdin-like links are not among them).
func (c *carver) grant(dirfd int, name, p string, access uint64, list *[]string, follow bool) {
	if c.ruleset < 0 {
		if list != nil {
			*list = append(*list, p)
		}
		return
	}
	if c.err != nil {
		return
	}
	if name == "" {
		name = p
	}
	flags := unix.O_PATH | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Openat(dirfd, name, flags, 0)
	if err != nil {
		if err != unix.ENOENT {
			c.err = fmt.Errorf("open %s: %w", p, err)
		}
		return
	}
	c.add(fd, p, access, !follow)
	keepOpen(fd, c.bound)
}

// add adds to the ruleset a rule giving access (within c.grantable)
// beneath the file open as fd, named p. When listed, p came from a
// directory's listing: a rule with directory rights on what is no
// directory there (swapped in since the listing) is left out, nothing is
// granted there; for a configured path it is an error, as it always was.
func (c *carver) add(fd int, p string, access uint64, listed bool) {
	attr := ll.PathBeneathAttr{ParentFd: fd, AllowedAccess: access & c.grantable}
	if attr.AllowedAccess == 0 {
		return
	}
	err := ll.LandlockAddPathBeneathRule(c.ruleset, &attr, 0)
	if err == unix.EINVAL && listed && access&^fileRights != 0 {
		var st unix.Stat_t
		if unix.Fstat(fd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			return
		}
	}
	if err != nil {
		c.err = fmt.Errorf("landlock_add_rule %s: %w", p, err)
	}
}

// carve grants dir (open as dirfd for reading, -1 when it could not be
// opened or when collecting) minus the hidden paths beneath it: dir
// itself may only be listed, each entry that holds no hidden path gets
// the full rights (read, or write when rw), and each entry on the way to
// one is carved in turn.
func (c *carver) carve(dirfd int, dir string, hidden []string, rw bool) {
	var entries []os.DirEntry
	var err error
	if c.ruleset >= 0 {
		if dirfd < 0 {
			return // nothing beneath it is granted
		}
		defer keepOpen(dirfd, c.bound)
		if c.add(dirfd, dir, ll.AccessFSReadDir, false); c.err != nil {
			return
		}
		entries, err = c.view.EntriesFD(dir, dirfd)
	} else {
		c.listDirs = append(c.listDirs, dir)
		entries, err = c.view.Entries(dir)
	}
	if err != nil {
		return // nothing beneath it is granted
	}
	for _, e := range entries {
		p := join(dir, e.Name())
		switch {
		case p == "/proc":
			for _, f := range procFiles {
				c.grant(unix.AT_FDCWD, "", f, readRights&^ll.AccessFSReadDir, &c.roFiles, true)
			}
			for _, d := range procDirs {
				c.grant(unix.AT_FDCWD, "", d, readRights, &c.roDirs, true)
			}
		case p == "/dev":
			// Only deviceFiles and deviceDirs (granted in carveAll): as
			// root, a jailed command read the raw disk (/dev/vda) and
			// with it any hidden file.
			continue
		case slices.Contains(hidden, p):
			continue
		case e.Type()&os.ModeSymlink != 0:
			continue // its target is granted where it lives
		case slices.ContainsFunc(hidden, func(h string) bool { return within(h, p) }):
			c.carve(c.openDir(dirfd, e.Name()), p, hidden, rw)
		case e.IsDir():
			if rw {
				c.grant(dirfd, e.Name(), p, writeRights, &c.rwDirs, false)
			} else {
				c.grant(dirfd, e.Name(), p, readRights, &c.roDirs, false)
			}
		default:
			if rw {
				c.grant(dirfd, e.Name(), p, fileRights&^ll.AccessFSIoctlDev, &c.rwFiles, false)
			} else {
				c.grant(dirfd, e.Name(), p, readRights&^ll.AccessFSReadDir, &c.roFiles, false)
			}
		}
	}
}

// join is filepath.Join for a clean absolute dir and a name from its
// listing (no slash, not . or ..), without Join's cleaning.
func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// maxHeld is the most descriptors the jails' builds of one process leave
// open (see keepOpen): a home of thousands of entries beside a hidden
// path costs one each.
const maxHeld = 4096

// held counts the descriptors keepOpen left open, and marks them (a bit
// per descriptor number, see inheritedWriters): a few hundred bytes
// where a map of them took pages, each a page fault to touch first.
var held struct {
	sync.Mutex
	n    int
	bits []uint64
}

// heldBound returns how many descriptors keepOpen may leave open in all:
// a quarter of the open-file limit (RLIMIT_NOFILE, as Go raised it at
// start), at most maxHeld, so that the command's own files and guardsh's
// are never short of descriptors.
func heldBound() int {
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) != nil {
		return 0
	}
	return int(min(rl.Cur/4, maxHeld))
}

// keepOpen leaves fd, a close-on-exec descriptor the jail's build opened
// and no longer needs, open while fewer than bound are, and closes it
// otherwise: a close is a system call (several microseconds on a virtual
// machine) for each of a ruleset's hundred-odd rules, while releaseHeld
// closes them all with a few, once the command has started (the
// command's copies close at its exec, being close-on-exec), or when the
// jail is closed unused.
func keepOpen(fd, bound int) {
	held.Lock()
	defer held.Unlock()
	if held.n >= bound || fd < 0 {
		unix.Close(fd)
		return
	}
	for fd/64 >= len(held.bits) {
		held.bits = append(held.bits, 0)
	}
	held.bits[fd/64] |= 1 << (fd % 64)
	held.n++
}

// releaseHeld closes the descriptors keepOpen left open: each run of
// consecutive numbers (the build opens them one after the other, so
// there are few) with one close_range(2), one close(2) each where the
// kernel has no close_range (before Linux 5.9). Every descriptor in a run
// is one keepOpen was given, which nothing uses any more.
func releaseHeld() {
	held.Lock()
	defer held.Unlock()
	for lo := 0; lo < len(held.bits)*64; lo++ {
		if held.bits[lo/64]&(1<<(lo%64)) == 0 {
			continue
		}
		hi := lo
		for hi+1 < len(held.bits)*64 && held.bits[(hi+1)/64]&(1<<((hi+1)%64)) != 0 {
			hi++
		}
		if unix.CloseRange(uint(lo), uint(hi), 0) != nil {
			for fd := lo; fd <= hi; fd++ {
				unix.Close(fd)
			}
		}
		lo = hi
	}
	held.bits, held.n = held.bits[:0], 0
}

// isHeld reports whether fd is one keepOpen left open.
func isHeld(fd int) bool {
	held.Lock()
	defer held.Unlock()
	return fd >= 0 && fd/64 < len(held.bits) && held.bits[fd/64]&(1<<(fd%64)) != 0
}

// within reports whether p is dir or beneath it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// listAbove is how many hidden paths a directory must hold directly for
// resolveAll to list it rather than look each up: one listing costs
// about as many system calls as four lookups, and a home directory,
// which holds most secrets, is listed for carving anyway.
const listAbove = 4

// resolveAll returns the paths with symbolic links resolved, cleaned,
// without duplicates; paths that do not exist, and relative ones, are
// left out; for a path whose existence cannot be told, the directory
// that hides it (see fsview.View.Unknown) stands in. A directory holding more than listAbove of the paths is
// listed instead of looked up name by name.
func resolveAll(v *fsview.View, paths []string) []string {
	perDir := make(map[string]int, len(paths))
	for _, p := range paths {
		if filepath.IsAbs(p) {
			perDir[filepath.Dir(filepath.Clean(p))]++
		}
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		if perDir[filepath.Dir(filepath.Clean(p))] > listAbove {
			if dir, ok := v.Resolve(filepath.Dir(filepath.Clean(p))); ok {
				v.Entries(dir)
			}
		}
		r, ok := v.Resolve(p)
		if !ok {
			// A path guardsh cannot tell missing (a directory on the way
			// that may not be searched, mode 000): the directory that
			// stopped the lookup stands for it. Granted whole, it would
			// let a command make it searchable again and read the
			// secret (an attack run's chmod 000 ~/.aws, then chmod 700
			// and cat ~/.aws/credentials from the jail).
			r = v.Unknown(p)
		}
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// inheritedWriters returns the descriptors above 2 that are open for
// writing and not close-on-exec: guardsh opens its own with O_CLOEXEC, so
// these came from guardsh's caller, and a jailed process must not write
// through a file opened outside the jail (Jail.Start marks them
// close-on-exec). Descriptors open only for reading stay (a jailed process
// may read what is outside the hidden paths anyway).
func inheritedWriters() []int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd <= 2 || isHeld(fd) {
			continue
		}
		// Close-on-exec first: guardsh's own descriptors, most of
		// those open, are so told with one fcntl(2).
		if fdfl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil || fdfl&unix.FD_CLOEXEC != 0 {
			continue
		}
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		if err != nil || fl&unix.O_ACCMODE == unix.O_RDONLY && fl&unix.O_PATH == 0 {
			continue
		}
		out = append(out, fd)
	}
	return out
}
