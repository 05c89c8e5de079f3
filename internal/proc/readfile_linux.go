package proc

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// A check reads some twenty files of /proc and of its cgroup. os.ReadFile
// takes nine system calls for each: os.Open offers the file to the
// runtime's poller (two fcntls, an epoll_ctl that /proc refuses, two more
// fcntls to undo them) and os.ReadFile fstats it for a size /proc does not
// give. On a VM, where a system call costs a microsecond or two, that was
// a tenth of a passing check. ReadFile and ReadDirNames take the three or
// four calls the reading needs.

// ReadFile reads a file of /proc or of a cgroup whole, as os.ReadFile
// does, and fails as it does: a *fs.PathError wrapping the errno.
func ReadFile(path string) ([]byte, error) {
	fd, err := open(path, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == unix.EINTR:
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		default:
			buf = buf[:len(buf)+n]
		}
	}
}

// ReadDirNames lists a directory of /proc, unsorted, without "." and "..".
func ReadDirNames(path string) ([]string, error) {
	fd, err := open(path, unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var (
		names []string
		buf   [4096]byte
	)
	for {
		n, err := unix.Getdents(fd, buf[:])
		switch {
		case err == unix.EINTR:
		case err != nil:
			return nil, &fs.PathError{Op: "readdirent", Path: path, Err: err}
		case n == 0:
			return names, nil
		default:
			_, _, names = unix.ParseDirent(buf[:n], -1, names)
		}
	}
}

func open(path string, flags int) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|flags, 0)
		if err != unix.EINTR {
			if err != nil {
				return -1, &fs.PathError{Op: "open", Path: path, Err: err}
			}
			return fd, nil
		}
	}
}
