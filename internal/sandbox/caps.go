package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// dropCapabilities empties the capability sets of the calling thread, so
// that the shell it forks, and everything that shell starts, holds none:
// the ambient set is cleared (PR_CAP_AMBIENT_CLEAR_ALL), every capability
// is dropped from the bounding set (PR_CAPBSET_DROP, for capability 0 up
// to the first number the kernel calls invalid), and the inheritable,
// permitted and effective sets are emptied (capset(2)). As root, a jail
// kept every capability before: an attack run added an address to the
// loopback device over netlink (CAP_NET_ADMIN), set the host name
// (CAP_SYS_ADMIN) and reached bpf(2). What a jailed root keeps is its user
// and group ids: files it owns, and those the permission bits let uid 0
// use; what Landlock and the seccomp filter forbid stays forbidden.
//
// The bounding set can only be changed with CAP_SETPCAP; a thread without
// it (any user but root) keeps its bounding set, which then grants
// nothing: with the permitted and ambient sets empty and no_new_privs set
// (see Jail.restrict), execve(2) gives no capability back, neither from a
// setuid-root or file-capability program nor from root's own exec rule
// (capabilities(7), "Capabilities and execution of programs by root").
//
// Errors: capget(2) or capset(2) failing, or a bounding-set drop refused
// while the thread holds CAP_SETPCAP; the jail then does not start.
func dropCapabilities() error {
	// EINVAL: a kernel before 4.3 has no ambient set to clear.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("sandbox: clearing the ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData // version 3: capabilities 0–31, then 32–63
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: reading the capabilities: %w", err)
	}
	if data[0].Effective&(1<<unix.CAP_SETPCAP) != 0 {
		for c := 0; ; c++ {
			err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
			if err == unix.EINVAL && c > 0 {
				break // past the kernel's last capability (CAP_LAST_CAP)
			}
			if err != nil {
				return fmt.Errorf("sandbox: dropping capability %d from the bounding set: %w", c, err)
			}
		}
	}
	hdr = unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("sandbox: emptying the capability sets: %w", err)
	}
	return nil
}
