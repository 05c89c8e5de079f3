package proc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Identity names one process for its whole life: its pid in the test's PID
// namespace and its start time. Two processes never share both, so an
// Identity whose pid has been recycled simply stops matching.
type Identity struct {
	PID   int
	Start uint64 // clock ticks since boot, field 22 of /proc/PID/stat
}

func (id Identity) String() string { return "pid " + strconv.Itoa(id.PID) }

// Identify returns the identity of the process that has pid now.
func Identify(pid int) (Identity, error) {
	s, err := ReadStat(pid)
	if err != nil {
		return Identity{}, err
	}
	return Identity{PID: pid, Start: s.Start}, nil
}

// Stat reads the process's stat and reports [fs.ErrNotExist] when the pid
// is gone or now belongs to another process.
func (id Identity) Stat() (Stat, error) {
	s, err := ReadStat(id.PID)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
			return Stat{}, fs.ErrNotExist
		}
		return Stat{}, err
	}
	if s.Start != id.Start {
		return Stat{}, fs.ErrNotExist
	}
	return s, nil
}

// Alive reports whether the process still runs. Zombies count as dead.
func (id Identity) Alive() bool {
	s, err := id.Stat()
	return err == nil && !s.Zombie()
}

// Kill sends SIGKILL to the process if, and only if, it is still the one
// named by id. It opens a pidfd first and checks the start time after, so
// a pid recycled at any moment is never signalled. A process already gone
// is not an error.
func (id Identity) Kill() error { return id.Signal(unix.SIGKILL) }

// Signal sends sig to the process under the same rule as [Identity.Kill].
func (id Identity) Signal(sig unix.Signal) error {
	if id.PID <= 1 || id.PID == os.Getpid() {
		return fmt.Errorf("proctest: refusing to signal %v: got pid %d, want a fixture process", sig, id.PID)
	}
	pidfd, err := unix.PidfdOpen(id.PID, 0)
	if err != nil {
		if errors.Is(err, unix.ESRCH) {
			return nil
		}
		if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM) {
			return fmt.Errorf("proctest: pidfd_open %d: %w", id.PID, err)
		}
		// Kernels before 5.3: check, then signal by pid. The window is the
		// time between two system calls, and the pid must be recycled in it.
		if !id.matches() {
			return nil
		}
		return ignoreGone(unix.Kill(id.PID, sig))
	}
	defer unix.Close(pidfd)
	// The pidfd pins the process it was opened on; if that is still ours,
	// the signal can reach no one else.
	if !id.matches() {
		return nil
	}
	return ignoreGone(unix.PidfdSendSignal(pidfd, sig, nil, 0))
}

func (id Identity) matches() bool {
	s, err := ReadStat(id.PID)
	return err == nil && s.Start == id.Start
}

func ignoreGone(err error) error {
	if err == nil || errors.Is(err, unix.ESRCH) {
		return nil
	}
	return err
}

// NSpid returns the pids of the process in each PID namespace it belongs
// to, from the one of /proc's mount down to its own (the NSpid line of
// /proc/PID/status).
func NSpid(pid int) ([]int, error) {
	b, err := os.ReadFile(procPath(pid, "status"))
	if err != nil {
		return nil, err
	}
	for line := range strings.Lines(string(b)) {
		rest, ok := strings.CutPrefix(line, "NSpid:")
		if !ok {
			continue
		}
		var pids []int
		for _, f := range strings.Fields(rest) {
			n, err := strconv.Atoi(f)
			if err != nil {
				return nil, fmt.Errorf("proctest: NSpid of %d: %w", pid, err)
			}
			pids = append(pids, n)
		}
		return pids, nil
	}
	return []int{pid}, nil
}
