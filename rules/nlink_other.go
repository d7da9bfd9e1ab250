//go:build !unix

package rules

import (
	"io"
	"os"
)

// hardLinks returns 1: link counts are not available here.
func hardLinks(os.FileInfo) uint64 { return 1 }

// lstat is os.Lstat (see the unix version).
func lstat(p string) (os.FileInfo, error) { return os.Lstat(p) }

// dirNames returns up to max names of the entries of directory dir.
func dirNames(dir string, max int) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(max)
	if err == io.EOF {
		err = nil
	}
	return names, err
}
