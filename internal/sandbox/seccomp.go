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
// When the jail closes the network, a seccomp filter on the same thread
// closes these too: socket(2) for AF_INET and AF_INET6 is allowed only as a
// stream or datagram socket with protocol 0, TCP, UDP or ICMP (ping), never
// for AF_PACKET or AF_SMC, io_uring_setup(2) fails, and so does every
// system call of another ABI (32-bit int 0x80 and x32 on amd64), where
// socketcall(2) would create any socket.

// Protocol, family and socket-type numbers (Linux uapi).
const (
	ipprotoICMP   = 1
	ipprotoTCP    = 6
	ipprotoUDP    = 17
	ipprotoICMPv6 = 58
	afSMC         = 43
	sockTypeMask  = 0xf
	x32SyscallBit = 0x40000000
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

// networkFilter returns the seccomp program described above.
func networkFilter() ([]unix.SockFilter, error) {
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
	// close the program: ALLOW at n-3, EACCES at n-2, EPERM at n-1.
	prog := []unix.SockFilter{
		/* 0 */ {Code: ld, K: offArch},
		/* 1 */ {Code: jeq, K: arch, Jt: 0, Jf: 0}, // Jf → EPERM, patched below
		/* 2 */ {Code: ld, K: offNr},
		/* 3 */ {Code: jset, K: x32SyscallBit}, // Jt → EPERM
		/* 4 */ {Code: jeq, K: uint32(unix.SYS_IO_URING_SETUP)}, // Jt → EPERM
		/* 5 */ {Code: jeq, K: uint32(unix.SYS_SOCKET)}, // Jf → ALLOW
		/* 6 */ {Code: ld, K: offArg0},
		/* 7 */ {Code: jeq, K: unix.AF_PACKET}, // Jt → EACCES
		/* 8 */ {Code: jeq, K: afSMC}, // Jt → EACCES
		/* 9 */ {Code: jeq, K: unix.AF_INET, Jt: 1},
		/* 10 */ {Code: jeq, K: unix.AF_INET6}, // Jf → ALLOW
		/* 11 */ {Code: ld, K: offArg1},
		/* 12 */ {Code: and, K: sockTypeMask},
		/* 13 */ {Code: jeq, K: unix.SOCK_STREAM, Jt: 1},
		/* 14 */ {Code: jeq, K: unix.SOCK_DGRAM}, // Jf → EACCES
		/* 15 */ {Code: ld, K: offArg2},
		/* 16 */ {Code: jeq, K: 0}, // Jt → ALLOW
		/* 17 */ {Code: jeq, K: ipprotoTCP}, // Jt → ALLOW
		/* 18 */ {Code: jeq, K: ipprotoUDP}, // Jt → ALLOW
		/* 19 */ {Code: jeq, K: ipprotoICMP}, // Jt → ALLOW
		/* 20 */ {Code: jeq, K: ipprotoICMPv6}, // Jt → ALLOW, Jf → EACCES
		/* 21 */ {Code: ret, K: allow},
		/* 22 */ {Code: ret, K: eacces},
		/* 23 */ {Code: ret, K: eperm},
	}
	const allowAt, eaccesAt, epermAt = 21, 22, 23
	to := func(from, target int) uint8 { return uint8(target - from - 1) }
	prog[1].Jt, prog[1].Jf = 0, to(1, epermAt)
	prog[3].Jt, prog[3].Jf = to(3, epermAt), 0
	prog[4].Jt, prog[4].Jf = to(4, epermAt), 0
	prog[5].Jt, prog[5].Jf = 0, to(5, allowAt)
	prog[7].Jt, prog[7].Jf = to(7, eaccesAt), 0
	prog[8].Jt, prog[8].Jf = to(8, eaccesAt), 0
	prog[10].Jt, prog[10].Jf = 0, to(10, allowAt)
	prog[14].Jt, prog[14].Jf = 0, to(14, eaccesAt)
	for i := 16; i <= 19; i++ {
		prog[i].Jt, prog[i].Jf = to(i, allowAt), 0
	}
	prog[20].Jt, prog[20].Jf = to(20, allowAt), to(20, eaccesAt)
	return prog, nil
}

// closeNetworkPastLandlock installs networkFilter on the calling thread,
// which must have no_new_privs set; the filter is inherited across fork
// and exec and cannot be removed.
func closeNetworkPastLandlock() error {
	prog, err := networkFilter()
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("sandbox: seccomp filter: %w", err)
	}
	runtime.KeepAlive(prog)
	return nil
}
