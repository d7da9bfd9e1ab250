//go:build unix

package rules

import (
	"os"
	"syscall"
)

// hardLinks returns the link count of the file fi describes (1 when
// unknown).
func hardLinks(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
