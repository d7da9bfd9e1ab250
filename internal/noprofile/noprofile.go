// Package noprofile turns the Go runtime's heap profiling off as early in
// a process as a package's initialisation can: by default the runtime
// records the stack of one allocation in every 512 KiB
// (runtime.MemProfileRate), and a guardsh command, which allocates about
// that much before it exits, paid for the stack walk and the profile
// bucket, some 45 µs of `guardsh -c true`'s start. guardsh never reads a
// heap profile; `go test -memprofile` still gets one (the testing package
// sets the rate again after every package's initialisation).
//
// Import it for its side effect, from main, so that it initialises
// before the packages that allocate most: it imports nothing but runtime.
package noprofile

import "runtime"

func init() { runtime.MemProfileRate = 0 }
