package proc

import (
	"os"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"
)

// Every check looks at the test process's own descriptors as it starts
// and again after run returns: a /proc link read per descriptor walks
// /proc/PID/fd/N each time, which costs more than an fstat(2) of the
// descriptor itself. So for the test process, only a FIFO's link is read;
// every other descriptor is told apart by its fstat alone. A FIFO's link
// tells a pipe ("pipe:[N]") from a named FIFO (a path): an inode number
// alone could be either's.

// ownDescriptors lists the test process's descriptor numbers.
// The listing's own descriptor is among them, closed by now: fstat fails
// on it, or finds whatever reused the number, as for any descriptor
// closed meanwhile.
func ownDescriptors() []int {
	names, _ := ReadDirNames("/proc/self/fd")
	nums := make([]int, 0, len(names))
	for _, name := range names {
		if n, err := strconv.Atoi(name); err == nil {
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	return nums
}

// ownFIFOs calls fn with each of the test process's descriptors that is a
// FIFO, and its link's target.
func ownFIFOs(fn func(fd int, target string)) {
	for _, n := range ownDescriptors() {
		var st unix.Stat_t
		if unix.Fstat(n, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
			continue
		}
		if target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(n)); err == nil {
			fn(n, target)
		}
	}
}

// ownPipes is linuxPipes of the test process.
func ownPipes() map[string]bool {
	pipes := map[string]bool{}
	ownFIFOs(func(_ int, target string) {
		if IsPipe(target) {
			pipes[target] = true
		}
	})
	return pipes
}

// ownFDsOn is linuxFDs of the test process, for targets that are all
// pipes; ok is false for any other target, which needs every link read.
func ownFDsOn(only map[string]string) (fds []FD, ok bool) {
	for target := range only {
		if !IsPipe(target) {
			return nil, false
		}
	}
	ownFIFOs(func(n int, target string) {
		if _, ok := only[target]; ok {
			fds = append(fds, FD{Num: n, Target: target, Write: ownWritable(n)})
		}
	})
	return fds, true
}

// ownWritable reads the access mode of one of the test process's
// descriptors.
func ownWritable(fd int) bool {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	return err == nil && flags&unix.O_ACCMODE != unix.O_RDONLY
}
