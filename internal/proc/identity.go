package proc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// Identity names one process for its whole life: its pid in the test's PID
// namespace and its start time. Two processes never share both, so an
// Identity whose pid has been recycled simply stops matching.
type Identity struct {
	PID int
	// Start is clock ticks since boot, field 22 of /proc/PID/stat; in the
	// portable mode, gopsutil's creation time, ms since the epoch.
	Start uint64
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

// Alive reports whether the process still runs. Zombies count as dead;
// a process whose main thread alone exited lives while another of its
// threads runs and is not dying ([Stat.LeaderExited]).
func (id Identity) Alive() bool {
	s, err := id.Stat()
	return err == nil && (!s.Zombie() || s.LeaderExited() && liveThread(id.PID) > 0)
}

// Kill sends SIGKILL to the process if, and only if, it is still the one
// named by id. It opens a pidfd first and checks the start time after, so
// a pid recycled at any moment is never signalled. A process already gone
// is not an error.
func (id Identity) Kill() error { return id.Signal(syscall.SIGKILL) }

// Signal sends sig to the process under the same rule as [Identity.Kill].
// The portable mode checks the identity right before it signals, through
// an os.Process that pins the process where the system can (a pidfd on
// Linux, a handle on Windows); on macOS and the BSDs a pid recycled in the
// moment between the check and kill(2) is the one risk left.
func (id Identity) Signal(sig syscall.Signal) error {
	if id.PID <= 1 || id.PID == os.Getpid() {
		return fmt.Errorf("proctest: refusing to signal %v: got pid %d, want a fixture process", sig, id.PID)
	}
	return current().signal(id, sig)
}

func (id Identity) matches() bool {
	s, err := ReadStat(id.PID)
	return err == nil && s.Start == id.Start
}

func ignoreGone(err error) error {
	if err == nil || errors.Is(err, syscall.ESRCH) || errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}

// NSpid returns the pids of the process in each PID namespace it belongs
// to, from the one of /proc's mount down to its own (the NSpid line of
// /proc/PID/status); in the portable mode, its pid alone.
func NSpid(pid int) ([]int, error) { return current().nspid(pid) }
