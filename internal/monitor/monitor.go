package monitor

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/internal/watchdog"
)

// Monitor reads the fixture's reports from its FIFO and keeps what they
// establish: which processes are the fixture's, and whether the descendant
// has proved it runs.
type Monitor struct {
	path    string // the FIFO the fixture reports to, and holds open
	token   string
	escape  bool
	spec    fixture.Spec  // the tree shape the descendant proves it took (see shapes.go)
	execs   bool          // the descendant execs its final program after its report
	cancel  atomic.Bool   // the check has cancelled (see MarkCancelled)
	f       io.ReadCloser // the reports: the FIFO itself, or on Windows a tail of the file (see reports_windows.go)
	goAhead *os.File      // the fixture child waits for a line here before it forks
	tracker *proc.Tracker
	guard   *watchdog.Fixture
	done    chan struct{} // the reader has ended

	mu           sync.Mutex
	closed       bool          // see Close
	changed      chan struct{} // closed and replaced on every event; closed for good by Close
	alive        chan struct{} // closed once the descendant has proved it runs
	known        []Known
	before       map[string]bool   // pipes open in the test process before run: none is the command's (see OpenBeforeRun)
	pipes        map[string]string // the command's own stdio pipes: "pipe:[1234]" -> "stdout"
	stdio        stdioSeen
	childStdio   [3]string        // what the first fixture child's fds 0-2 point to, "" where unreadable
	child        proc.Stat        // the fixture child as it started, in the test's namespace
	childWatch   *procstate.Watch // on that child: how it ended (see exectest's check.cancelSignal)
	notes        []string
	started      int
	aliveReports int // see Snapshot.Alive
	proof        *Proof
	exit         string // the direct child's last "exit" status
	failures     []string
}

// Known is a process identified as the fixture's.
type Known struct {
	ID   proc.Identity
	Role Role
	// ExecChild says the process is a child of the test process from the
	// start, so os/exec waits for it and the toolkit must never reap it.
	ExecChild bool
}

// Proof is the descendant's own report, checked against /proc.
type Proof struct {
	ID    proc.Identity
	stat  proc.Stat        // as the descendant saw itself, in its PID namespace
	Comm  string           // the program it runs once proved: sleep, or the hermetic role's
	Watch *procstate.Watch // how it ends
	At    time.Time        // when it was proved
}

// Start opens the fixture's two FIFOs, spec.Marker and spec.Go, and reads
// the fixture's reports until Close. execs says the descendant execs its
// final program after its report (the shell fixture's sleep); tracker
// adopts every fixture child identified, and guard hears of every process
// identified, for the watchdog.
func Start(spec fixture.Spec, execs bool, tracker *proc.Tracker, guard *watchdog.Fixture) (*Monitor, error) {
	path, goPath, token, escape := spec.Marker, spec.Go, spec.Token, spec.Escape
	f, err := openReports(path)
	if err != nil {
		return nil, err
	}
	// O_RDWR here is a reader of the FIFO: the go-ahead is written before
	// the child reads it.
	g, err := os.OpenFile(goPath, os.O_RDWR, 0)
	if err != nil {
		f.Close()
		return nil, err
	}
	m := &Monitor{path: path, token: token, escape: escape, spec: spec, execs: execs, f: f, goAhead: g, tracker: tracker, guard: guard,
		done: make(chan struct{}), changed: make(chan struct{}), alive: make(chan struct{}),
		pipes: map[string]string{}}
	go m.read()
	return m, nil
}

// HeldPath is the monitor's descriptor on the FIFO as a path in the
// test's /proc, for [fixture.Spec.TestHeld]; "" where it would be 9, the
// fixture's own descriptor on it, which a process of another PID
// namespace with the test's pid could hold.
func (m *Monitor) HeldPath() string {
	var fd uintptr
	f, ok := m.f.(*os.File)
	if !ok {
		return "" // Windows: a report file, held by no one
	}
	rc, err := f.SyscallConn()
	if err != nil || rc.Control(func(n uintptr) { fd = n }) != nil || fd == 9 {
		return "" // SyscallConn, not Fd: Fd makes the reads blocking, and Close could not end them
	}
	return "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/" + strconv.FormatUint(uint64(fd), 10)
}

func (m *Monitor) read() {
	defer close(m.done)
	sc := bufio.NewScanner(m.f)
	for sc.Scan() {
		if e, ok := marker.Parse(m.token, sc.Text()); ok {
			m.handle(e)
		}
	}
}

// MarkCancelled says that the check has cancelled run's context: from now
// on a fixture process may die of the cancel, which is no failure of its
// own.
func (m *Monitor) MarkCancelled() { m.cancel.Store(true) }

func (m *Monitor) cancelled() bool { return m.cancel.Load() }

// ReportedExit is the direct child's last "exit" status, "" until it
// reports one: how the descendant ended, as its parent saw it.
func (m *Monitor) ReportedExit() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.exit
}

// Close stops the reader and releases what the monitor holds: its FIFOs
// and the pidfds on the fixture child and the descendant. The monitor is
// closed from then on: a [Snapshot] says so, and its Changed channel is
// closed already, so that a wait for the next event ends at once instead
// of for ever. Close may be called more than once.
func (m *Monitor) Close() {
	m.f.Close() // unblocks the reader
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return
	}
	m.closed = true
	if m.proof != nil {
		m.proof.Watch.Close()
	}
	m.childWatch.Close()
	m.goAhead.Close() // a child still waiting sees EOF and goes on
	close(m.changed)  // for good: no event comes after the reader's end
}

func (m *Monitor) handle(e marker.Event) {
	// Resolving a pid reads /proc: do it before taking the lock.
	var (
		st     proc.Stat
		id     proc.Identity
		reason string
		gone   bool
	)
	if e.Kind == marker.Alive {
		// Said at once: the checks below wait for the exec, and the test
		// can use that while (see exectest's waitToCancel).
		m.mu.Lock()
		m.aliveReports++
		m.broadcast()
		m.mu.Unlock()
	}
	started := e.Kind == marker.Started || e.Kind == marker.Running
	if started || e.Kind == marker.Alive {
		st, id, reason, gone = identify(e, m.path)
		if reason == "" && !gone {
			// Identified (and, in the Linux mode, holding the FIFO): the
			// fixture's, whatever the checks below make of its report.
			m.guard.Process(id)
			// Now, while run still holds its Cmd: a report made after
			// Go's pidfd on the fixture child is gone (collected with
			// the Cmd) must still not call it adopted.
			proc.NoteOrigin(id)
		}
	}
	var (
		adoptErr error
		stdio    [3]string
		read     bool
	)
	if started && reason == "" {
		adoptErr = m.tracker.Adopt(id) // joined already if Running: a no-op then
		stdio, read = m.readStdio(id.PID)
	}
	if e.Kind == marker.Started || e.Kind == marker.Running && m.spec.Launch {
		// Always: the child waits for this line before it forks (the
		// launcher, which exits right after, also once it is known here).
		m.goAhead.WriteString("go\n")
	}
	raced := false
	switch {
	case e.Kind == marker.Alive && gone && m.cancelled():
		reason, raced = "", true
	case e.Kind == marker.Alive && gone:
		reason = m.diedAfterReport(e.PID)
	case e.Kind == marker.Alive && reason == "" && m.execs:
		reason, raced = m.awaitExec(id, st.Comm)
	}
	if e.Kind == marker.Alive && reason == "" && !gone && proc.Portable() {
		reason = m.olderThanChild(id, st)
	}
	if e.Kind == marker.Alive && reason == "" && !gone && !raced {
		reason = m.notInShape(id)
	}
	var (
		childStat  proc.Stat
		childWatch *procstate.Watch
	)
	if started && reason == "" {
		childStat, _ = id.Stat() // its group and session in the test's namespace
		// Opened while it runs: the signal it dies of is the cancel's.
		childWatch, _ = procstate.Open(id)
	}
	defer func() { childWatch.Close() }() // unless kept below
	comm := st.Comm
	if m.execs {
		comm = sleepComm
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.broadcast()
	switch e.Kind {
	case marker.Started, marker.Running:
		m.started++
		m.recordStdio(id.PID, stdio, read)
		if gone {
			return // a fixture child that has exited cannot survive
		}
		if reason != "" {
			m.failures = append(m.failures, "fixture child "+reason)
			return
		}
		if adoptErr != nil {
			m.notes = append(m.notes, adoptErr.Error())
		}
		if m.childStdio == ([3]string{}) {
			m.childStdio = stdio
		}
		if m.child == (proc.Stat{}) {
			m.child = childStat
			m.childWatch, childWatch = childWatch, nil
		}
		m.known = append(m.known, Known{ID: id, Role: FixtureChild, ExecChild: st.PPID == os.Getpid()})
	case marker.Alive:
		if reason != "" {
			m.failures = append(m.failures, "descendant "+reason)
			return
		}
		if gone {
			return // killed by the cancel before it could be found: nothing to follow
		}
		m.known = append(m.known, Known{ID: id, Role: m.descendantRole()})
		if m.escape && st.SID != st.PID {
			m.failures = append(m.failures, fmt.Sprintf("descendant pid %d reported alive but not escaped: sid: got %d, want its own pid %d", id.PID, st.SID, st.PID))
			return
		}
		if m.proof == nil && !raced {
			// A pidfd held from now on tells, after the check, how the
			// descendant ended: killed, or on its own.
			w, err := procstate.Open(id)
			if err != nil {
				m.notes = append(m.notes, "how the descendant ends cannot be told: "+err.Error())
			}
			m.proof = &Proof{ID: id, stat: st, Comm: comm, Watch: w, At: time.Now()}
			close(m.alive)
		}
	case marker.Exit:
		m.exit = e.Text
	case marker.Fail:
		m.failures = append(m.failures, e.Text)
	}
}

// execWait bounds the wait for the descendant's exec after its report: a
// variable, so that a test of a read that never works need not wait it.
var execWait = 5 * time.Second

// sleepComm is the command name of a process that execs /bin/sleep.
const sleepComm = "sleep"

// awaitExec waits until the descendant has become /bin/sleep and sleeps:
// its command name is "sleep" (it was was), it runs the file at /bin/sleep
// and it waits in the kernel (state S). Only then is the report proof: a /bin/sleep that is missing,
// lacks its libraries or is another program (true, a script) exits
// instead, or never sleeps, and the check would pass vacuously. It returns
// the reason the proof fails, or "", and raced: the cancel killed it
// first, which proves nothing either way.
func (m *Monitor) awaitExec(id proc.Identity, was string) (reason string, raced bool) {
	var (
		s   proc.Stat
		err error
	)
	done := execPolling.Poll(execWait, func() bool {
		s, err = statOf(id)
		gone := ended(err) || err == nil && s.Exiting()
		switch {
		case gone && m.cancelled():
			reason, raced = "", true
		case gone:
			reason = m.diedAfterReport(id.PID)
		case err != nil:
			return false // a read that failed, of a process still there: look again
		case s.Comm != was && s.Comm != sleepComm:
			reason = fmt.Sprintf("pid %d: became %q after its report, want %s (/bin/sleep)", id.PID, s.Comm, sleepComm)
		case s.Comm == sleepComm && s.State == "S":
			// Asleep, it got past its loader and libraries: a sleep
			// that is true, or lacks its libc, never gets here.
			reason = runsSleep(id)
		default:
			return false
		}
		return true
	})
	if !done && err != nil {
		return unreadable(id.PID, err), false
	}
	if !done {
		return fmt.Sprintf("pid %d: still %q in state %s %v after its report, want it to have become /bin/sleep, sleeping (state S)", id.PID, s.Comm, s.State, execWait), false
	}
	return reason, raced
}

// statOf reads a process's stat: a variable, for the tests of a read that
// fails.
var statOf = proc.Identity.Stat

// execPolling is how often the descendant is looked at while it execs:
// the exec and the loader take about a millisecond, and each look past the
// moment it sleeps delays the cancel of every passing check; a descendant
// that takes longer is looked at less and less often.
var execPolling = backoff.Schedule{
	First: 20 * time.Microsecond, Max: 200 * time.Microsecond,
	Slow: 20 * time.Millisecond, SlowMax: 5 * time.Millisecond,
}

// diedAfterReport says why a descendant that reported alive and then died
// at once proves nothing.
func (m *Monitor) diedAfterReport(pid int) string {
	if m.execs {
		return fmt.Sprintf("pid %d exited right after its report instead of becoming /bin/sleep: /bin/sleep cannot run where the command runs", pid)
	}
	return fmt.Sprintf("pid %d exited right after its report (is its Lifetime that short?)", pid)
}

func (m *Monitor) broadcast() {
	close(m.changed)
	m.changed = make(chan struct{})
}
