package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock (up to ABI 7) restricts TCP only: a socket made with protocol
// IPPROTO_MPTCP (262), which falls back to plain TCP on the wire, an SCTP
// or SMC socket, a raw or packet socket (which root may open) and
// io_uring's socket and connect operations all reach the network past it.
// Nor does it see TCP Fast Open (sendto with MSG_FASTOPEN connects
// without connect(2)) or listen(2) on an unbound socket (which binds a
// port of its own): an attack run reached a loopback server and took a
// connection from outside that way. When the jail closes the network, a
// seccomp filter on the same thread closes all of these: socket(2) for
// AF_INET and AF_INET6 is allowed only as a datagram socket with protocol
// 0, UDP or ICMP (ping) — no TCP socket at all, so no connect, bind,
// listen or Fast Open —, never for AF_PACKET, AF_SMC or AF_VSOCK (a
// virtual machine's stream channel to its host), io_uring_setup(2)
// fails, and so does every system call of another ABI (32-bit int 0x80
// and x32 on amd64), where socketcall(2) would create any socket.

// Protocol, family and socket-type numbers (Linux uapi).
const (
	ipprotoICMP   = 1
	ipprotoUDP    = 17
	ipprotoICMPv6 = 58
	afSMC         = 43
	sockTypeMask  = 0xf
	x32SyscallBit = 0x40000000
	// ioctl(2) requests of the file attribute flags (linux/fs.h):
	// FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS, FS_IOC_FSSETXATTR.
	fsIocSetflags   = 0x40086602
	fsIoc32Setflags = 0x40046602
	fsIocFssetxattr = 0x401c5820
)

// nativeArch is the AUDIT_ARCH of the running Go binary, 0 where the
// filter is not built (the jail then does not start: fail closed).
func nativeArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	}
	return 0
}

// filter returns the seccomp program: always, ioctl(2) TIOCSTI and
// TIOCLINUX fail (they push input into the terminal, where the shell
// guardsh returns to, or the approval dialog, would read it as typed by
// the human: an attack run's find), so do the ioctls that set file
// attribute flags and prlimit64(2) on any other process; and when network
// is false, what is described above.
func filter(network bool) ([]unix.SockFilter, error) {
	arch := nativeArch()
	if arch == 0 {
		return nil, fmt.Errorf("sandbox: no seccomp filter for %s", runtime.GOARCH)
	}
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		and  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
		// offsets in struct seccomp_data (little-endian low words)
		offNr   = 0
		offArch = 4
		offArg0 = 16
		offArg1 = 24
		offArg2 = 32
	)
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	eperm := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	eacces := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES))
	// Jumps are relative to the next instruction; the three returns
	// close the program: ALLOW, EACCES, EPERM. A jump target is written
	// as a label and patched below.
	type ins struct {
		f      unix.SockFilter
		jt, jf string // labels; "" is the next instruction
		at     string // the label of this instruction
	}
	prog := []ins{
		{f: unix.SockFilter{Code: ld, K: offArch}},
		{f: unix.SockFilter{Code: jeq, K: arch}, jf: "eperm"}, // another ABI
		{f: unix.SockFilter{Code: ld, K: offNr}},
		{f: unix.SockFilter{Code: jset, K: x32SyscallBit}, jt: "eperm"},
		// prlimit64 on another process: the jailed command's parent is
		// guardsh, whose file-size or open-file limit set to nothing
		// would keep it from writing the audit record and putting the
		// protected paths back (an attack run's find). pid 0 is the
		// caller itself (setrlimit, ulimit).
		{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_PRLIMIT64)}, jf: "ioctl"},
		{f: unix.SockFilter{Code: ld, K: offArg0}},
		{f: unix.SockFilter{Code: jeq, K: 0}, jf: "eperm"},
		{f: unix.SockFilter{Code: ld, K: offArg0 + 4}},
		{f: unix.SockFilter{Code: jeq, K: 0}, jt: "allow", jf: "eperm"},
		{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_IOCTL)}, jf: "modes0", at: "ioctl"},
		{f: unix.SockFilter{Code: ld, K: offArg1}},
		{f: unix.SockFilter{Code: jeq, K: unix.TIOCSTI}, jt: "eperm"},
		{f: unix.SockFilter{Code: jeq, K: unix.TIOCLINUX}, jt: "eperm"},
		// The immutable and append-only flags (chattr +i, as root) would
		// keep the put-back from undoing a change (an attack run's find).
		{f: unix.SockFilter{Code: jeq, K: fsIocSetflags}, jt: "eperm"},
		{f: unix.SockFilter{Code: jeq, K: fsIoc32Setflags}, jt: "eperm"},
		{f: unix.SockFilter{Code: jeq, K: fsIocFssetxattr}, jt: "eperm", jf: "allow"},
	}
	// Setuid and setgid bits, file capabilities and ACLs: a jailed
	// command left a setuid copy of python in /tmp (as root: any user
	// of the machine became root; as a user: another user became that
	// user and read its keys), and an ACL on the home let another user
	// read guardsh's config — attack runs' finds. no_new_privs protects
	// only the jail's own processes. So a mode with S_ISUID or S_ISGID
	// is refused to every call that sets or creates one, the xattr calls
	// (security.capability, system.posix_acl_*) say the file system has
	// none, and openat2 (whose mode the filter cannot read) and io_uring
	// (which opens files past it) are refused.
	for i, c := range modeCalls() {
		next := fmt.Sprintf("modes%d", i+1)
		prog = append(prog,
			ins{f: unix.SockFilter{Code: jeq, K: c.nr}, jf: next, at: fmt.Sprintf("modes%d", i)},
			ins{f: unix.SockFilter{Code: ld, K: offArg0 + 8*c.arg}},
			ins{f: unix.SockFilter{Code: jset, K: unix.S_ISUID | unix.S_ISGID}, jt: "eperm", jf: "allow"})
	}
	prog = append(prog,
		ins{f: unix.SockFilter{Code: jeq, K: sysOpenat2}, jt: "enosys", at: fmt.Sprintf("modes%d", len(modeCalls()))},
		ins{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_IO_URING_SETUP)}, jt: "eperm"},
		ins{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_SETXATTR)}, jt: "enotsup"},
		ins{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_LSETXATTR)}, jt: "enotsup"},
		ins{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_FSETXATTR)}, jt: "enotsup"},
		ins{f: unix.SockFilter{Code: jeq, K: sysSetxattrat}, jt: "enotsup", jf: "net"},
	)
	if network {
		prog = append(prog, ins{f: unix.SockFilter{Code: ret, K: allow}, at: "net"}) // nothing more
	} else {
		prog = append(prog,
			ins{f: unix.SockFilter{Code: jeq, K: uint32(unix.SYS_SOCKET)}, jf: "allow", at: "net"},
			ins{f: unix.SockFilter{Code: ld, K: offArg0}},
			ins{f: unix.SockFilter{Code: jeq, K: unix.AF_PACKET}, jt: "eacces"},
			ins{f: unix.SockFilter{Code: jeq, K: afSMC}, jt: "eacces"},
			ins{f: unix.SockFilter{Code: jeq, K: unix.AF_VSOCK}, jt: "eacces"},
			ins{f: unix.SockFilter{Code: jeq, K: unix.AF_INET}, jt: "inet"},
			ins{f: unix.SockFilter{Code: jeq, K: unix.AF_INET6}, jf: "allow"},
			ins{f: unix.SockFilter{Code: ld, K: offArg1}, at: "inet"},
			ins{f: unix.SockFilter{Code: and, K: sockTypeMask}},
			ins{f: unix.SockFilter{Code: jeq, K: unix.SOCK_DGRAM}, jf: "eacces"},
			ins{f: unix.SockFilter{Code: ld, K: offArg2}},
			ins{f: unix.SockFilter{Code: jeq, K: 0}, jt: "allow"},
			ins{f: unix.SockFilter{Code: jeq, K: ipprotoUDP}, jt: "allow"},
			ins{f: unix.SockFilter{Code: jeq, K: ipprotoICMP}, jt: "allow"},
			ins{f: unix.SockFilter{Code: jeq, K: ipprotoICMPv6}, jt: "allow", jf: "eacces"},
		)
	}
	labels := map[string]int{}
	for i, in := range prog {
		if in.at != "" {
			labels[in.at] = i
		}
	}
	labels["allow"] = len(prog)
	labels["eacces"] = len(prog) + 1
	labels["eperm"] = len(prog) + 2
	labels["enosys"] = len(prog) + 3
	labels["enotsup"] = len(prog) + 4
	prog = append(prog, ins{f: unix.SockFilter{Code: ret, K: allow}}, ins{f: unix.SockFilter{Code: ret, K: eacces}},
		ins{f: unix.SockFilter{Code: ret, K: eperm}},
		ins{f: unix.SockFilter{Code: ret, K: uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))}},
		ins{f: unix.SockFilter{Code: ret, K: uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EOPNOTSUPP))}})
	out := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		out[i] = in.f
		for _, j := range []struct {
			label string
			to    *uint8
		}{{in.jt, &out[i].Jt}, {in.jf, &out[i].Jf}} {
			if j.label == "" {
				continue
			}
			target, ok := labels[j.label]
			if !ok || target <= i || target-i-1 > 255 {
				return nil, fmt.Errorf("sandbox: seccomp label %q", j.label)
			}
			*j.to = uint8(target - i - 1)
		}
	}
	return out, nil
}

// Syscall numbers the same on amd64 and arm64 that golang.org/x/sys may
// not name: fchmodat2 (Linux 6.6), openat2 (5.6), setxattrat (6.13).
const (
	sysFchmodat2  = 452
	sysOpenat2    = 437
	sysSetxattrat = 463
)

// modeCall is a system call that sets or creates a file's mode, and the
// index of its mode argument.
type modeCall struct {
	nr  uint32
	arg uint32
}

// modeCalls are the calls the filter refuses a setuid or setgid mode:
// the *at ones everywhere, and on amd64 the old ones too (chmod, open,
// creat, mknod; arm64 has none of them).
func modeCalls() []modeCall {
	calls := []modeCall{{uint32(unix.SYS_FCHMOD), 1}, {uint32(unix.SYS_FCHMODAT), 2}, {sysFchmodat2, 2},
		{uint32(unix.SYS_OPENAT), 3}, {uint32(unix.SYS_MKNODAT), 2}}
	if runtime.GOARCH == "amd64" {
		// chmod(2) 90, open(2) 2, creat(2) 85, mknod(2) 133.
		calls = append(calls, modeCall{90, 1}, modeCall{2, 2}, modeCall{85, 1}, modeCall{133, 1})
	}
	return calls
}

// installFilter installs prog (made by filter) on the calling thread,
// which must have no_new_privs set; the filter is inherited across fork
// and exec and cannot be removed.
func installFilter(prog []unix.SockFilter) error {
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("sandbox: seccomp filter: %w", err)
	}
	runtime.KeepAlive(prog)
	return nil
}
