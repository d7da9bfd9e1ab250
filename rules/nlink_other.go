//go:build !unix

package rules

import "os"

// hardLinks returns 1: link counts are not available here.
func hardLinks(os.FileInfo) uint64 { return 1 }

// lstat is os.Lstat (see the unix version).
func lstat(p string) (os.FileInfo, error) { return os.Lstat(p) }
