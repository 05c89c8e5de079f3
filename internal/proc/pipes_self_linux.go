package proc

import (
	"os"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// Every check looks at the test process's own descriptors as it starts
// and again after run returns: a /proc link read per descriptor walks
// /proc/PID/fd/N each time, which costs more than an fstat(2) of the
// descriptor itself. So the test process's descriptors are told apart by
// their fstat alone: a pipe is a FIFO on the pipes' own device (see
// pipefs), which tells it from a named FIFO whose inode number could be
// a pipe's.

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

// pipefs is the device of the kernel's pipes, all on the one internal
// pipefs mount: a FIFO on it is a pipe, whose link reads pipe:[inode];
// any other FIFO is a named one. It is learnt from a pipe made and closed
// at once (close-on-exec: no child started meanwhile keeps it), the first
// time it is needed; ok is false where no pipe could be made.
var pipefs = sync.OnceValues(func() (dev uint64, ok bool) {
	var p [2]int
	if unix.Pipe2(p[:], unix.O_CLOEXEC) != nil {
		return 0, false
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	var st unix.Stat_t
	if unix.Fstat(p[0], &st) != nil {
		return 0, false
	}
	return uint64(st.Dev), true
})

// ownPipeFDs calls fn with each of the test process's descriptors that is
// a pipe, and its link's target (pipe:[inode]): from its fstat alone, or
// where the pipes' device is unknown, from the link of each FIFO.
func ownPipeFDs(fn func(fd int, target string)) {
	dev, known := pipefs()
	for _, n := range ownDescriptors() {
		var st unix.Stat_t
		if unix.Fstat(n, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
			continue
		}
		if known {
			if uint64(st.Dev) == dev {
				fn(n, "pipe:["+strconv.FormatUint(st.Ino, 10)+"]")
			}
			continue
		}
		if target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(n)); err == nil && IsPipe(target) {
			fn(n, target)
		}
	}
}

// ownPipes is linuxPipes of the test process.
func ownPipes() map[string]bool {
	pipes := map[string]bool{}
	ownPipeFDs(func(_ int, target string) { pipes[target] = true })
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
	ownPipeFDs(func(n int, target string) {
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
