package proc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// portableBackend takes every process fact from gopsutil: what macOS, the
// BSDs and Windows give, and what Linux gives through it with
// EXECTEST_PORTABLE=1. It reads no descriptor and no namespace, and has no
// pidfd, cgroup or child subreaper (see CannotSee).
var portableBackend backend

func init() {
	// gopsutil derives a Linux process's creation time from the boot
	// time, read again for every process unless cached: in a container
	// from /proc/uptime against the clock, truncated to the second, so two
	// reads of one process could differ by a second and it seemed gone.
	// One boot time for the whole test process keeps its identities; the
	// watchdog, another process, measures as it does ([MeasureStartsAs]).
	process.EnableBootTimeCache(true)
	portableBackend = backend{
		name:            "portable",
		readStat:        psReadStat,
		children:        func(pid int) []int { return psParents().children[pid] },
		descendants:     func(pid int) []int { return walk(pid, psParents().childrenOf) },
		tree:            func() func(int) []int { return psParents().childrenOf },
		fds:             psFDs,
		pipes:           psPipes,
		pipeHolders:     func(map[string]string, []int) []Identity { return nil },
		fdTarget:        func(int, int) (string, error) { return "", errNoDescriptors },
		fdIs:            func(int, int, fileID) bool { return false },
		signal:          psSignal,
		age:             psAge,
		nspid:           func(pid int) ([]int, error) { return []int{pid}, nil },
		holds:           func(int, fileID) bool { return false },
		resolve:         psResolve,
		enableSubreaper: func() error { return errNoSubreaper },
		isSubreaper:     func() bool { return false },
		gone:            psGone,
		staleHolders:    func(string, string) []Identity { return nil },
		fifoHolders:     func([]string) []Identity { return nil },
		holdsFIFOIn:     func(int, []string) bool { return false },
		pids:            psPIDs,
		peek:            psPeek,
		startedHere:     func() (map[int]bool, bool) { return nil, false },
		origin:          func(Identity) Origin { return OriginUnknown },
		argsHold:        psArgsHold,
		ignored:         func(int) (SignalSet, bool) { return 0, false },
	}
}

var (
	errNoDescriptors = errors.New("portable mode: cannot read a process's descriptors")
	errNoSubreaper   = errors.New("portable mode: no child subreaper (Linux only, and not with " + PortableEnv + "=1)")
)

// psReadStat reads what Stat holds from gopsutil: name, state, parent and
// creation time (ms since the epoch), and the group and session from the
// system where it has them. Flags and RawLine stay empty.
func psReadStat(pid int) (Stat, error) {
	if pid <= 0 {
		return Stat{}, fs.ErrNotExist
	}
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return Stat{}, notThere(err)
	}
	start, err := psCreated(p)
	if err != nil {
		return Stat{}, notThere(err)
	}
	s := Stat{PID: pid, Start: start}
	if ppid, err := p.Ppid(); err == nil {
		s.PPID = int(ppid)
	} else {
		return Stat{}, notThere(err)
	}
	s.Comm, _ = p.Name()
	s.State = "?"
	if st, err := p.Status(); err == nil && len(st) > 0 {
		s.State = stateLetter(st[0])
	}
	s.PGID, s.SID = groupAndSession(pid)
	// Read last, the creation time again: the facts above are of the
	// process it names only if the pid was not recycled meanwhile.
	if again, err := process.NewProcess(int32(pid)); err != nil {
		return Stat{}, notThere(err)
	} else if t, err := psCreated(again); err != nil || t != start {
		return Stat{}, fs.ErrNotExist
	}
	return s, nil
}

// notThere maps gopsutil's errors for a process that is gone to
// fs.ErrNotExist, as reading /proc/PID does.
func notThere(err error) error {
	if errors.Is(err, process.ErrorProcessNotRunning) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return fs.ErrNotExist
	}
	return fmt.Errorf("gopsutil: %w", err)
}

// stateLetter maps gopsutil's state names to /proc's letters.
func stateLetter(s string) string {
	switch s {
	case process.Running:
		return "R"
	case process.Sleep:
		return "S"
	case process.Stop:
		return "T"
	case process.Idle:
		return "I"
	case process.Zombie:
		return "Z"
	case process.Wait, process.Blocked:
		return "D"
	case process.Lock:
		return "L"
	}
	return "?"
}

// parents is every process's children, from one read of every process's
// parent: gopsutil has no cheaper way to find them.
type parents struct{ children map[int][]int }

func (p parents) childrenOf(pid int) []int { return p.children[pid] }

func psParents() parents {
	p, _ := psScan(nil, 0)
	return p
}

// psScan reads the parent of every process that started no earlier than
// since (ms since the epoch; 0 for all), and lists for each of args the
// processes among them that psWithArg lists for it, in one pass over the
// processes: gopsutil reads a process's creation time when it finds it,
// and the rest only for those.
func psScan(args []string, since uint64) (parents, map[string][]Identity) {
	out := parents{children: map[int][]int{}}
	withArg := map[string][]Identity{}
	pids, err := process.Pids()
	if err != nil {
		return out, withArg
	}
	for _, pid := range pids {
		p, err := process.NewProcess(pid)
		if err != nil {
			continue
		}
		if created, err := psCreated(p); since > 0 && (err != nil || created < since) {
			continue
		}
		if ppid, err := p.Ppid(); err == nil && ppid != pid {
			out.children[int(ppid)] = append(out.children[int(ppid)], int(pid))
		}
		if len(args) == 0 || int(pid) == os.Getpid() {
			continue
		}
		for _, arg := range args {
			if arg == "" || !argsHold(p, arg) {
				continue
			}
			if id, err := Identify(int(pid)); err == nil && argsHold(p, arg) && id.matches() {
				withArg[arg] = append(withArg[arg], id)
			}
		}
	}
	return out, withArg
}

// psPeek reads a process's parent and creation time: gopsutil reads the
// creation time when it finds the process.
func psPeek(pid int) (ppid int, start uint64, err error) {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0, 0, notThere(err)
	}
	created, err := psCreated(p)
	if err != nil {
		return 0, 0, notThere(err)
	}
	pp, err := p.Ppid()
	if err != nil {
		return 0, 0, notThere(err)
	}
	return int(pp), created, nil
}

// psPIDs lists every process.
func psPIDs() []int {
	pids, _ := process.Pids()
	out := make([]int, len(pids))
	for i, pid := range pids {
		out[i] = int(pid)
	}
	return out
}

// psArgsHold reports whether one of pid's arguments holds s.
func psArgsHold(pid int, s string) bool {
	p, err := process.NewProcess(int32(pid))
	return err == nil && argsHold(p, s)
}

// psSignal pins the process where the system can (os.FindProcess holds a
// pidfd on Linux, a handle on Windows), checks that it is still id, and
// only then signals it.
func psSignal(id Identity, sig syscall.Signal) error {
	p, err := os.FindProcess(id.PID)
	if err != nil {
		return nil // gone (Windows finds only live processes)
	}
	defer p.Release()
	if !id.matches() {
		return nil
	}
	return ignoreGone(p.Signal(sig))
}

// psAge is how long ago a process created at start (ms since the epoch)
// started.
func psAge(start uint64) time.Duration {
	d := time.Since(time.UnixMilli(int64(start)))
	return max(d, 0).Round(ageResolution)
}

// psResolve takes the process that has innerPID now, if it started at
// start (any, for 0): the portable mode sees neither namespaces nor
// descriptors, so it cannot tell a reporter in a sandbox from a stranger
// with the same pid.
func psResolve(innerPID int, start uint64, file string) (Identity, error) {
	id, err := Identify(innerPID)
	if err == nil && (start == 0 || id.Start == start) {
		return id, nil
	}
	if file != "" {
		return Identity{}, fmt.Errorf("proctest: resolve pid %d holding %s: %w", innerPID, file, ErrGone)
	}
	return Identity{}, fmt.Errorf("proctest: resolve pid %d: %w", innerPID, ErrGone)
}

// psWithArg lists the processes, the test process aside, one of whose
// arguments holds s, identified after the look and looked at again: a pid
// reused in between has another creation time or other arguments.
func psWithArg(s string) []Identity {
	if s == "" {
		return nil
	}
	pids, _ := process.Pids()
	var out []Identity
	for _, pid := range pids {
		p, err := process.NewProcess(pid)
		if err != nil || int(pid) == os.Getpid() || !argsHold(p, s) {
			continue
		}
		if id, err := Identify(int(pid)); err == nil && argsHold(p, s) && id.matches() {
			out = append(out, id)
		}
	}
	return out
}

// argsHold reports whether one of p's arguments holds s, read now.
func argsHold(p *process.Process, s string) bool {
	args, err := p.CmdlineSlice()
	return err == nil && slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, s) })
}

// psListable asks gopsutil for the list of processes once.
var psListable = sync.OnceValue(func() error {
	_, err := process.Pids()
	if err != nil {
		return fmt.Errorf("portable mode: gopsutil: %w", err)
	}
	return nil
})

// psGone reports whether no process has pid (a zombie has exited too).
func psGone(pid int) bool {
	s, err := ReadStat(pid)
	return errors.Is(err, fs.ErrNotExist) || err == nil && s.Zombie()
}

// psFDs lists the test process's own descriptors (see ownFDs); of any
// other process, none: the portable mode reads no other process's.
func psFDs(pid int, only map[string]string) []FD {
	if pid != os.Getpid() {
		return nil
	}
	var out []FD
	for _, fd := range ownFDs() {
		if _, ok := only[fd.Target]; only == nil || ok {
			out = append(out, fd)
		}
	}
	return out
}

// psPipes lists the pipes among the test process's own descriptors.
func psPipes(pid int) map[string]bool {
	pipes := map[string]bool{}
	for _, fd := range psFDs(pid, nil) {
		if IsPipe(fd.Target) {
			pipes[fd.Target] = true
		}
	}
	return pipes
}
