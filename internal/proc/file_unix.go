//go:build unix

package proc

import "golang.org/x/sys/unix"

// statFile names the file at path by device and inode.
func statFile(path string) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}, nil
}

// ownGroup is the test process's own process group.
func ownGroup() (int, bool) { return unix.Getpgrp(), true }
