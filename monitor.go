package exectest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/exectest/exectest/internal/marker"
	"github.com/exectest/exectest/proctest"
)

// monitor reads the fixture's reports from its FIFO and keeps what they
// establish: which processes are the fixture's, and whether the descendant
// has proved it runs.
type monitor struct {
	token  string
	escape bool
	f      *os.File
	done   chan struct{} // the reader has ended

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every event
	alive    chan struct{} // closed once the descendant has proved it runs
	known    []knownProcess
	started  int
	proof    *proof
	exit     string // the direct child's last "exit" status
	failures []string
}

type knownProcess struct {
	id   proctest.Identity
	role string
}

// proof is the descendant's own report, checked against /proc.
type proof struct {
	id   proctest.Identity
	stat proctest.Stat // as the descendant saw itself, in its PID namespace
}

func startMonitor(path, token string, escape bool) (*monitor, error) {
	// O_RDWR keeps a writer open, so the reader never sees EOF between the
	// fixture's reports, and a writer never blocks waiting for a reader.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	m := &monitor{token: token, escape: escape, f: f, done: make(chan struct{}),
		changed: make(chan struct{}), alive: make(chan struct{})}
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

func (m *monitor) close() {
	m.f.Close() // unblocks the reader
	<-m.done
}

func (m *monitor) handle(e marker.Event) {
	// Resolving a pid reads /proc: do it before taking the lock.
	var (
		st     proctest.Stat
		id     proctest.Identity
		reason string
		gone   bool
	)
	if e.Kind == marker.Started || e.Kind == marker.Alive {
		st, id, reason, gone = identify(e)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	defer m.broadcast()
	switch e.Kind {
	case marker.Started:
		m.started++
		if gone {
			return // a fixture child that has exited cannot survive
		}
		if reason != "" {
			m.failures = append(m.failures, "fixture child "+reason)
			return
		}
		m.known = append(m.known, knownProcess{id, "fixture child"})
	case marker.Alive:
		if reason != "" {
			m.failures = append(m.failures, "descendant "+reason)
			return
		}
		role := "descendant"
		if m.escape {
			role = "descendant, escaped into its own session"
		}
		m.known = append(m.known, knownProcess{id, role})
		if m.escape && st.SID != st.PID {
			m.failures = append(m.failures, fmt.Sprintf("descendant pid %d reported alive but not escaped: sid: got %d, want its own pid %d", id.PID, st.SID, st.PID))
			return
		}
		if m.proof == nil {
			m.proof = &proof{id: id, stat: st}
			close(m.alive)
		}
	case marker.Exit:
		m.exit = e.Text
	case marker.Fail:
		m.failures = append(m.failures, e.Text)
	}
}

// identify turns a report into an identity in the test's PID namespace.
// gone says the process exited before it could be found.
func identify(e marker.Event) (st proctest.Stat, id proctest.Identity, reason string, gone bool) {
	if e.Stat == "" {
		return st, id, fmt.Sprintf("pid %d could not read /proc/self/stat: mount /proc where the command runs", e.PID), false
	}
	st, err := proctest.ParseStat(e.Stat)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), false
	}
	id, err = proctest.Resolve(st.PID, st.Start)
	if err != nil {
		return st, id, fmt.Sprintf("pid %d: %v", e.PID, err), errors.Is(err, proctest.ErrGone)
	}
	return st, id, "", false
}

func (m *monitor) broadcast() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// snapshot is what the monitor knows at one moment.
type snapshot struct {
	changed  <-chan struct{}
	started  int
	proof    *proof
	exit     string
	failures []string
	known    []knownProcess
}

func (m *monitor) snapshot() snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return snapshot{m.changed, m.started, m.proof, m.exit,
		append([]string(nil), m.failures...), append([]knownProcess(nil), m.known...)}
}

// String says what the fixture has reported so far, for messages.
func (s snapshot) String() string {
	var parts []string
	if s.started == 0 {
		parts = append(parts, "the command never started (no report from the fixture child)")
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
		parts = append(parts, "the direct child saw the descendant exit with status "+s.exit)
	}
	return strings.Join(parts, "; ")
}
