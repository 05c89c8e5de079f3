//go:build unix

package main

import "golang.org/x/sys/unix"

// kernelRelease is uname -r.
func kernelRelease() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Release[:])
}
