package exectest

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/internal/role"
	"github.com/exectest/exectest/internal/watchdog"
)

// monitor reads the fixture's reports from its FIFO and keeps what they
// establish: which processes are the fixture's, and whether the descendant
// has proved it runs.
type monitor struct {
	path    string // the FIFO the fixture reports to, and holds open
	token   string
	escape  bool
	spec    fixture.Spec // the tree shape the descendant proves it took (see shapes.go)
	execs   bool         // the descendant execs its final program after its report
	cancel  atomic.Bool  // the check has cancelled (see markCancelled)
	f       *os.File
	goAhead *os.File // the fixture child waits for a line here before it forks
	tracker *proc.Tracker
	guard   *watchdog.Fixture
	done    chan struct{} // the reader has ended

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced on every event
	alive      chan struct{} // closed once the descendant has proved it runs
	known      []knownProcess
	before     map[string]bool   // pipes open in the test process before run: none is the command's (see openBeforeRun)
	pipes      map[string]string // the command's own stdio pipes: "pipe:[1234]" -> "stdout"
	stdio      stdioSeen
	childStdio [3]string        // what the first fixture child's fds 0-2 point to, "" where unreadable
	child      proc.Stat        // the fixture child as it started, in the test's namespace
	childWatch *procstate.Watch // on that child: how it ended (see check.cancelSignal)
	notes      []string
	started    int
	proof      *proof
	exit       string // the direct child's last "exit" status
	failures   []string
}

type knownProcess struct {
	id   proc.Identity
	role role.Role
	// execChild says the process is a child of the test process from the
	// start, so os/exec waits for it and the toolkit must never reap it.
	execChild bool
}

// proof is the descendant's own report, checked against /proc.
type proof struct {
	id    proc.Identity
	stat  proc.Stat // as the descendant saw itself, in its PID namespace
	comm  string    // the program it runs once proved: sleep, or the hermetic role's
	watch *procstate.Watch
	at    time.Time // when it was proved
}

func startMonitor(spec fixture.Spec, execs bool, tracker *proc.Tracker, guard *watchdog.Fixture) (*monitor, error) {
	path, goPath, token, escape := spec.Marker, spec.Go, spec.Token, spec.Escape
	// O_RDWR keeps a writer open, so the reader never sees EOF between the
	// fixture's reports, and a writer never blocks waiting for a reader.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	// And here a reader: the go-ahead is written before the child reads it.
	g, err := os.OpenFile(goPath, os.O_RDWR, 0)
	if err != nil {
		f.Close()
		return nil, err
	}
	m := &monitor{path: path, token: token, escape: escape, spec: spec, execs: execs, f: f, goAhead: g, tracker: tracker, guard: guard,
		done: make(chan struct{}), changed: make(chan struct{}), alive: make(chan struct{}),
		pipes: map[string]string{}}
	go m.read()
	return m, nil
}

func (m *monitor) read() {
	defer close(m.done)
	sc := bufio.NewScanner(m.f)
	for sc.Scan() {
		if e, ok := marker.Parse(m.token, sc.Text()); ok {
			m.handle(e)
		}
	}
}

// markCancelled says that the check has cancelled run's context: from now
// on a fixture process may die of the cancel, which is no failure of its
// own.
func (m *monitor) markCancelled() { m.cancel.Store(true) }

func (m *monitor) cancelled() bool { return m.cancel.Load() }

// reportedExit is the direct child's last "exit" status, "" until it
// reports one: how the descendant ended, as its parent saw it.
func (m *monitor) reportedExit() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.exit
}

func (m *monitor) close() {
	m.f.Close() // unblocks the reader
	<-m.done
	if p := m.snapshot().proof; p != nil {
		p.watch.Close()
	}
	m.mu.Lock()
	m.childWatch.Close()
	m.mu.Unlock()
	m.goAhead.Close() // a child still waiting sees EOF and goes on
}

func (m *monitor) handle(e marker.Event) {
	// Resolving a pid reads /proc: do it before taking the lock.
	var (
		st     proc.Stat
		id     proc.Identity
		reason string
		gone   bool
	)
	started := e.Kind == marker.Started || e.Kind == marker.Running
	if started || e.Kind == marker.Alive {
		st, id, reason, gone = identify(e, m.path)
		if reason == "" && !gone {
			// Identified (and, in the Linux mode, holding the FIFO): the
			// fixture's, whatever the checks below make of its report.
			m.guard.Process(id)
		}
	}
	var (
		adoptErr error
		stdio    [3]string
		read     bool
	)
	if started && reason == "" {
		adoptErr = m.tracker.Adopt(id) // joined already if Running: a no-op then
		stdio, read = readStdio(id.PID)
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
		m.known = append(m.known, knownProcess{id: id, role: role.FixtureChild, execChild: st.PPID == os.Getpid()})
	case marker.Alive:
		if reason != "" {
			m.failures = append(m.failures, "descendant "+reason)
			return
		}
		if gone {
			return // killed by the cancel before it could be found: nothing to follow
		}
		m.known = append(m.known, knownProcess{id: id, role: m.descendantRole()})
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
			m.proof = &proof{id: id, stat: st, comm: comm, watch: w, at: time.Now()}
			close(m.alive)
		}
	case marker.Exit:
		m.exit = e.Text
	case marker.Fail:
		m.failures = append(m.failures, e.Text)
	}
}

// execWait bounds the wait for the descendant's exec after its report.
const execWait = 5 * time.Second

// sleepComm is the command name of a process that execs /bin/sleep.
const sleepComm = "sleep"

// awaitExec waits until the descendant has become /bin/sleep and sleeps:
// its command name is "sleep" (it was was), it runs the file at /bin/sleep
// and it waits in the kernel (state S). Only then is the report proof: a /bin/sleep that is missing,
// lacks its libraries or is another program (true, a script) exits
// instead, or never sleeps, and the check would pass vacuously. It returns
// the reason the proof fails, or "", and raced: the cancel killed it
// first, which proves nothing either way.
func (m *monitor) awaitExec(id proc.Identity, was string) (reason string, raced bool) {
	var s proc.Stat
	done := execPolling.Poll(execWait, func() bool {
		var err error
		s, err = id.Stat()
		switch {
		case (err != nil || s.Exiting()) && m.cancelled():
			reason, raced = "", true
		case err != nil || s.Exiting():
			reason = m.diedAfterReport(id.PID)
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
	if !done {
		return fmt.Sprintf("pid %d: still %q in state %s %v after its report, want it to have become /bin/sleep, sleeping (state S)", id.PID, s.Comm, s.State, execWait), false
	}
	return reason, raced
}

// execPolling is how often the descendant is looked at while it execs:
// the exec and the loader take about a millisecond, and each look past the
// moment it sleeps delays the cancel of every passing check; a descendant
// that takes longer is looked at less and less often.
var execPolling = backoff.Schedule{
	First: 20 * time.Microsecond, Max: 200 * time.Microsecond,
	Slow: 20 * time.Millisecond, SlowMax: 5 * time.Millisecond,
}

// lapse says why the descendant's proof of life no longer holds, or ""
// while it does: it must still be the process that reported, alive and
// not exiting, running the program it proved to run, and hold what the
// command's stdout and stderr are. Asked at the cancel: a descendant that
// died before it (a /bin/sleep that exits at once, a short lifetime) tests
// nothing.
func (s snapshot) lapse() string {
	p := s.proof
	if p == nil {
		return ""
	}
	st, err := p.id.Stat()
	switch {
	case err != nil || st.Zombie():
		return fmt.Sprintf("pid %d had exited", p.id.PID)
	case st.Exiting():
		return fmt.Sprintf("pid %d was exiting", p.id.PID)
	case st.Comm != p.comm:
		return fmt.Sprintf("pid %d: program: got %q, want %q", p.id.PID, st.Comm, p.comm)
	}
	for fd := 1; fd <= 2; fd++ {
		want := s.childStdio[fd]
		got, err := proc.FDTarget(p.id.PID, fd)
		if want != "" && err == nil && got != want {
			return fmt.Sprintf("pid %d: fd %d: got %s, want the command's %s", p.id.PID, fd, got, want)
		}
	}
	return ""
}

// diedAfterReport says why a descendant that reported alive and then died
// at once proves nothing.
func (m *monitor) diedAfterReport(pid int) string {
	if m.execs {
		return fmt.Sprintf("pid %d exited right after its report instead of becoming /bin/sleep: /bin/sleep cannot run where the command runs", pid)
	}
	return fmt.Sprintf("pid %d exited right after its report (is its Lifetime that short?)", pid)
}

// identify turns a report into an identity in the test's PID namespace:
// the process that fits the report and holds the fixture's FIFO open.
// gone says the process exited before it could be found.
func identify(e marker.Event, fifo string) (st proc.Stat, id proc.Identity, reason string, gone bool) {
	if proc.Portable() {
		return identifyPortable(e, fifo)
	}
	if e.Stat == "" {
		return st, id, fmt.Sprintf("pid %d could not read /proc/self/stat: mount /proc where the command runs", e.PID), false
	}
	st, err := proc.ParseStat(e.Stat)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), false
	}
	id, err = proc.ResolveHolding(st.PID, st.Start, fifo)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), errors.Is(err, proc.ErrGone)
	}
	return st, id, "", false
}

// openBeforeRun records the pipes open in the test process before run
// starts: none of them is the command's own.
func (m *monitor) openBeforeRun(pipes map[string]bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.before = pipes
}

// stdioSeen is what the fixture children's stdin, stdout and stderr were
// seen to be, for a message that may say only what was seen.
type stdioSeen struct {
	fds    []string // "pid 1234: fd 0 /dev/null, fd 1 pipe:[5678], ..." per child
	unread bool     // some child's could not all be read
}

// readStdio reads what the fixture child's stdin, stdout and stderr point
// to, as the code under test set them up; read says all three were read.
func readStdio(pid int) (targets [3]string, read bool) {
	read = true
	for fd := range targets {
		t, err := proc.FDTarget(pid, fd)
		targets[fd], read = t, read && err == nil
	}
	return targets, read
}

// recordStdio keeps the command's own pipes among a fixture child's stdio:
// those not open in the test process before run (see openBeforeRun).
func (m *monitor) recordStdio(pid int, targets [3]string, read bool) {
	for target, name := range stdioPipes(targets) {
		if !m.before[target] {
			m.pipes[target] = name
		}
	}
	if !read {
		m.stdio.unread = true
		return
	}
	desc := make([]string, len(targets))
	for fd, t := range targets {
		desc[fd] = fmt.Sprintf("fd %d %s", fd, t)
		if m.before[t] {
			desc[fd] += " (open in the test process before run)"
		}
	}
	m.stdio.fds = append(m.stdio.fds, fmt.Sprintf("pid %d: %s", pid, strings.Join(desc, ", ")))
}

// stdioPipes names the pipes among a process's stdin, stdout and stderr.
func stdioPipes(targets [3]string) map[string]string {
	pipes := map[string]string{}
	for fd, name := range [...]string{"stdin", "stdout", "stderr"} {
		target := targets[fd]
		if !proc.IsPipe(target) {
			continue
		}
		if prev, ok := pipes[target]; ok {
			name = prev + "+" + name
		}
		pipes[target] = name
	}
	return pipes
}

func (m *monitor) broadcast() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// snapshot is what the monitor knows at one moment.
type snapshot struct {
	changed    <-chan struct{}
	started    int
	proof      *proof
	exit       string
	failures   []string
	known      []knownProcess
	pipes      map[string]string
	stdio      stdioSeen
	childStdio [3]string
	child      proc.Stat
	childWatch *procstate.Watch
	notes      []string
}

func (m *monitor) snapshot() snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return snapshot{m.changed, m.started, m.proof, m.exit,
		slices.Clone(m.failures), slices.Clone(m.known), maps.Clone(m.pipes),
		stdioSeen{slices.Clone(m.stdio.fds), m.stdio.unread}, m.childStdio, m.child, m.childWatch, slices.Clone(m.notes)}
}

// stdioWithoutPipes returns what the fixture children's stdio were, and
// whether all of them were seen and none is a pipe opened during run.
func (s snapshot) stdioWithoutPipes() ([]string, bool) {
	return s.stdio.fds, len(s.stdio.fds) > 0 && !s.stdio.unread && len(s.pipes) == 0
}

// ids lists the identities of the known processes.
func (s snapshot) ids() []proc.Identity {
	ids := make([]proc.Identity, len(s.known))
	for i, k := range s.known {
		ids[i] = k.id
	}
	return ids
}

// role says what the fixture knows a process as.
func (s snapshot) role(id proc.Identity) role.Role {
	for _, k := range s.known {
		if k.id == id {
			return k.role
		}
	}
	return role.FixtureProcess
}

// String says what the fixture has reported so far, for messages.
func (s snapshot) String() string { return s.explain("") }

// explain is String for a command that ran, where ran says how it ended
// without a report from the fixture child (see ranUnreported); "" if
// nothing says it ran.
func (s snapshot) explain(ran string) string {
	var parts []string
	switch {
	case s.started == 0 && ran != "":
		parts = append(parts, ran)
	case s.started == 0:
		parts = append(parts, "no report from the fixture child: run did not start the command, or the command ended (or was killed) before its first line")
	}
	for _, k := range s.known {
		parts = append(parts, fmt.Sprintf("%s pid %d reported", k.role, k.id.PID))
	}
	if s.proof == nil && s.started > 0 {
		parts = append(parts, "no proof of life from the descendant")
	}
	for _, f := range s.failures {
		parts = append(parts, "fixture failure: "+f)
	}
	if s.exit != "" {
		parts = append(parts, "the fixture child saw the descendant exit with status "+s.exit)
	}
	return strings.Join(parts, "; ")
}
