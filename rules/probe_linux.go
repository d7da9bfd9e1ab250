package rules

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// probeNoLinks opens p (absolute) with O_PATH under RESOLVE_NO_SYMLINKS,
// one system call for a walk that lstat makes one per component (see
// Lookups.probe). It returns nil when p exists and no component of it is
// a symlink; ENOENT or ENOTDIR when a component is missing or no
// directory and none before it is a symlink (the kernel walks the
// components in order and stops at the first symlink with ELOOP, at the
// first missing one with ENOENT); any other error (ELOOP, EACCES, ENOSYS
// on kernels before 5.6 or under a seccomp filter) says nothing about p.
// O_PATH opens nothing: a FIFO or device is not touched.
func probeNoLinks(p string) error {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &how)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		syscall.Close(fd)
		return nil
	}
}
