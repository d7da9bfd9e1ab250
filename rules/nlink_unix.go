//go:build unix

package rules

import (
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// hardLinks returns the link count of the file fi describes (1 when
// unknown).
func hardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// lstat is os.Lstat for the many arguments that name no file: the same
// answer without building an *os.PathError for a missing one, which costs
// as much as the system call (the error is only ever compared to nil
// here).
func lstat(p string) (os.FileInfo, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(p, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &statInfo{name: p[strings.LastIndexByte(p, '/')+1:], st: st}, nil
	}
}

// statInfo is an os.FileInfo made from a syscall.Stat_t, as os makes it.
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Time{} } // not needed by the rules
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }
func (s *statInfo) Mode() os.FileMode {
	m := os.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= os.ModeDevice
	case syscall.S_IFCHR:
		m |= os.ModeDevice | os.ModeCharDevice
	case syscall.S_IFDIR:
		m |= os.ModeDir
	case syscall.S_IFIFO:
		m |= os.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= os.ModeSymlink
	case syscall.S_IFSOCK:
		m |= os.ModeSocket
	}
	if s.st.Mode&syscall.S_ISGID != 0 {
		m |= os.ModeSetgid
	}
	if s.st.Mode&syscall.S_ISUID != 0 {
		m |= os.ModeSetuid
	}
	if s.st.Mode&syscall.S_ISVTX != 0 {
		m |= os.ModeSticky
	}
	return m
}

// direntBuf holds buffers for getdents: one system call reads a few
// hundred entries into 8 KiB.
var direntBuf = sync.Pool{New: func() any { b := make([]byte, 8192); return &b }}

// dirNames returns up to max names of the entries of directory dir ("."
// and ".." left out), with the system calls alone (open, getdents,
// close): os.Open would also register the descriptor with the runtime's
// poller, which costs as many calls again. A dir that is no directory
// gives ENOTDIR.
func dirNames(dir string, max int) ([]string, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var names []string
	bp := direntBuf.Get().(*[]byte)
	defer direntBuf.Put(bp)
	buf := *bp
	for len(names) < max {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		_, _, names = syscall.ParseDirent(buf[:n], max-len(names), names)
	}
	return names, nil
}
