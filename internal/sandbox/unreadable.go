package sandbox

import "golang.org/x/sys/unix"

// Unreadable reports whether no process of a jail could read, write or
// run the file at path p even unhidden: p is a regular file (a symbolic
// link is not looked through) on a file system whose permission bits the
// kernel itself enforces (see modesEnforced), owned by another user than
// this process's effective one (an owner may chmod it), with no POSIX
// access ACL (system.posix_acl_access, which may grant what the bits do
// not), and its permission bits grant this process nothing — no read,
// write or execute bit for its group when the file's group is its
// effective or a supplementary group, none for others. A jail holds no
// capability (see dropCapabilities; CAP_DAC_OVERRIDE and
// CAP_DAC_READ_SEARCH included), and no_new_privs keeps a setuid or
// setgid program from lending it another user or group, so the kernel's
// permission check refuses it what these bits refuse. /etc/shadow (mode
// 0640, owner root, group shadow) is so for every user but root and the
// shadow group's members. The bits are looked at once: should the owner
// loosen them while a jailed command runs, it may read the file (as every
// user of the machine then may). An error looking (p missing included)
// is false: p is hidden.
func Unreadable(p string) bool {
	var st unix.Stat_t
	if unix.Lstat(p, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Uid == uint32(unix.Geteuid()) {
		return false
	}
	if !modesEnforced(p) {
		return false
	}
	if _, err := unix.Lgetxattr(p, "system.posix_acl_access", nil); err != unix.ENODATA && err != unix.EOPNOTSUPP {
		return false // an ACL, or no telling
	}
	const rwx = 0o7
	if st.Mode&rwx != 0 {
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
	return !inGroup || st.Mode&(rwx<<3) == 0
}

// modesEnforced reports whether the file system holding p is one whose
// permission bits the kernel checks itself (statfs(2)'s f_type): ext2–4,
// XFS, Btrfs, bcachefs, F2FS, tmpfs and overlayfs over them. FUSE (unless
// mounted with default_permissions, which guardsh cannot see), NFS, CIFS,
// 9p and the like leave the check to a daemon or a server, which may
// grant what the bits refuse: an attack run read another owner's 0600
// file through a FUSE mount, and nobody read its own sshfs-like ~/.netrc.
func modesEnforced(p string) bool {
	var fs unix.Statfs_t
	if unix.Statfs(p, &fs) != nil {
		return false
	}
	switch int64(fs.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.BCACHEFS_SUPER_MAGIC,
		unix.F2FS_SUPER_MAGIC, unix.TMPFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC:
		return true
	}
	return false
}
