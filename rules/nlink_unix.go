//go:build unix

package rules

import (
	"os"
	"strings"
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
