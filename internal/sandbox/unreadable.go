package sandbox

import "golang.org/x/sys/unix"

// Unreadable reports whether no process of a jail could read or write
// the file at path p even unhidden: p is a regular file (a symbolic link
// is not looked through), owned by another user than this process's
// effective one (an owner may chmod it), with no POSIX access ACL
// (system.posix_acl_access, which may grant what the bits do not), and
// its permission bits grant neither read nor write to this process: not
// to its group when the file's group is its effective or a supplementary
// group, and not to others. A jail holds no capability (see
// dropCapabilities; CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH included),
// and no_new_privs keeps a setuid or setgid program from lending it
// another user or group, so the kernel's permission check refuses it
// what these bits refuse. /etc/shadow (mode 0640, owner root, group
// shadow) is so for every user but root and the shadow group's members.
// An error looking (p missing included) is false: p is hidden.
func Unreadable(p string) bool {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Uid == uint32(unix.Geteuid()) {
		return false
	}
	if _, err := unix.Lgetxattr(p, "system.posix_acl_access", nil); err != unix.ENODATA && err != unix.EOPNOTSUPP {
		return false // an ACL, or no telling
	}
	const rw = 0o6
	if st.Mode&rw != 0 {
		return false // others
	}
	groups, err := unix.Getgroups()
	if err != nil {
		return false
	}
	inGroup := st.Gid == uint32(unix.Getegid())
	for _, g := range groups {
		inGroup = inGroup || uint32(g) == st.Gid
	}
	return !inGroup || st.Mode&(rw<<3) == 0
}
