//go:build !linux

package rules

import "syscall"

// probeNoLinks is not available here: ENOSYS, and resolving walks the
// path with lstat (see the linux version).
func probeNoLinks(string) error { return syscall.ENOSYS }
