package proc

import (
	"sync"

	"golang.org/x/sys/unix"
)

// toolkitPidfds are the pidfds the toolkit holds (watches, signals): a
// look at the test process's pidfds ([Adopted]) leaves them out, since
// they say nothing of who started the process. The lock orders every open
// and close against a whole look, so that a look never sees a toolkit
// pidfd not yet listed, nor a number closed and reused by os/exec still
// listed.
var toolkitPidfds = struct {
	sync.RWMutex
	fds map[int]bool
}{fds: map[int]bool{}}

// PidfdOpen opens a pidfd on pid for the toolkit: a look at which
// processes the test process started leaves it out. Close it with
// [PidfdClose], not unix.Close.
func PidfdOpen(pid int) (int, error) {
	toolkitPidfds.Lock()
	defer toolkitPidfds.Unlock()
	fd, err := unix.PidfdOpen(pid, 0)
	if err == nil {
		toolkitPidfds.fds[fd] = true
	}
	return fd, err
}

// PidfdClose closes a pidfd that [PidfdOpen] opened.
func PidfdClose(fd int) {
	toolkitPidfds.Lock()
	defer toolkitPidfds.Unlock()
	delete(toolkitPidfds.fds, fd)
	unix.Close(fd)
}
