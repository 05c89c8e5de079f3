package proc

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

func linuxEnableSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

func linuxIsSubreaper() bool {
	var v int32
	err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0)
	return err == nil && v != 0
}
