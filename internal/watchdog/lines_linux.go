package watchdog

import (
	"bytes"
	"errors"
	"os"

	"golang.org/x/sys/unix"

	"github.com/exectest/exectest/internal/proc"
)

// readLines calls each for every line the test process owner sends on
// the pipe fd, until the test process is gone: at the pipe's EOF, or as
// soon as a pidfd on owner says it has exited, whichever comes first. EOF
// alone can come late: it waits for every write end, and a process that
// the test process forked and that has not exec'd yet holds a copy of
// its end (close-on-exec closes it only at the exec), on a loaded machine
// for tens of milliseconds, and for as long as such a child is stopped.
// Once the owner has exited, whatever it wrote is in the pipe already:
// it is read to the end of what is there, and nothing else is waited for.
func readLines(owner proc.Identity, fd uintptr, each func(string)) {
	in := int(fd)
	pidfd, gone := ownerPidfd(owner)
	if pidfd < 0 && !gone || unix.SetNonblock(in, true) != nil {
		// EOF alone, as before pidfds.
		if pidfd >= 0 {
			unix.Close(pidfd)
		}
		scanLines(os.NewFile(fd, "watchdog"), each)
		return
	}
	var lines lineBuffer
	buf := make([]byte, 64<<10)
	if gone {
		// Gone before the watchdog got here (it exited right after
		// starting it): what it wrote is all there is.
		readAvailable(in, buf, &lines, each)
		return
	}
	defer unix.Close(pidfd)
	fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}, {Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil && !errors.Is(err, unix.EINTR) {
			// Cannot wait on both: EOF alone.
			unix.SetNonblock(in, false)
			scanLines(os.NewFile(fd, "watchdog"), each)
			return
		}
		// Read all there is, readable or not: after the owner's exit it
		// is all there will be.
		ownerGone := fds[1].Revents != 0
		if fds[0].Fd >= 0 {
			switch readAvailable(in, buf, &lines, each) {
			case eof:
				return
			case failed:
				// A read error must not end the watch early: wait for the
				// owner alone (poll skips a negative descriptor).
				fds[0].Fd = -1
			}
		}
		if ownerGone {
			return
		}
	}
}

// What readAvailable ended with.
const (
	drained = iota // nothing more to read for now
	eof            // every write end is closed
	failed         // a read failed
)

// readAvailable reads what the pipe in holds, without waiting, and passes
// its lines to each.
func readAvailable(in int, buf []byte, lines *lineBuffer, each func(string)) int {
	for {
		n, err := unix.Read(in, buf)
		switch {
		case n > 0:
			lines.add(buf[:n], each)
		case n == 0 && err == nil:
			return eof
		case errors.Is(err, unix.EINTR):
		case errors.Is(err, unix.EAGAIN):
			return drained
		default:
			return failed
		}
	}
}

// ownerPidfd opens a pidfd on owner, the watchdog's parent (the test
// process starts its watchdog itself). gone says owner has exited already:
// it is no longer the parent (a process is reparented only when its
// parent exits, after the parent's descriptors are closed). fd is -1 when
// gone, or when no pidfd can be had (Linux before 5.3): then EOF alone
// tells.
func ownerPidfd(owner proc.Identity) (fd int, gone bool) {
	fd, err := unix.PidfdOpen(owner.PID, 0)
	// Checked after the open: a parent still ours held its pid then, so
	// the pidfd is on it.
	if os.Getppid() != owner.PID {
		if err == nil {
			unix.Close(fd)
		}
		return -1, true
	}
	if err != nil {
		return -1, false
	}
	return fd, false
}

// lineBuffer cuts what is read into lines; a line longer than maxLine is
// dropped, with the rest of it up to its newline.
type lineBuffer struct {
	pending  []byte
	skipping bool
}

func (b *lineBuffer) add(p []byte, each func(string)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if !b.skipping {
				b.pending = append(b.pending, p...)
			}
			if len(b.pending) > maxLine {
				b.pending, b.skipping = b.pending[:0], true
			}
			return
		}
		if !b.skipping {
			b.pending = append(b.pending, p[:i]...)
			each(string(b.pending))
		}
		b.pending, b.skipping = b.pending[:0], false
		p = p[i+1:]
	}
}
