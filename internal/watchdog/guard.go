package watchdog

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/exectest/exectest/internal/proc"
)

// guard is the test process's side: its watchdog, and what it has told it
// of the fixtures not cleaned up yet, to tell a new one if it must start
// another.
var guard struct {
	mu       sync.Mutex
	w        *os.File // the pipe's write end; nil while no watchdog runs
	p        *os.Process
	id       proc.Identity
	err      error // why the last start failed
	starts   int
	fixtures map[string]*proc.Remains // what the watchdog was told, by token
}

// maxStarts bounds how many watchdogs a test process starts: one, and
// another if one died under it (killed, out of memory).
const maxStarts = 3

// writeWait bounds one write to the watchdog: the pipe holds 64 KiB and
// the watchdog reads as the lines come, so only a stopped or hung
// watchdog makes a write wait.
const writeWait = 5 * time.Second

// A Fixture is the watchdog's handle on one fixture: the test process
// tells it each fact as soon as it learns it.
type Fixture struct{ token string }

// Watch starts the watchdog if none runs yet and returns its handle on
// the fixture token. Without a watchdog (see [Err]) the handle does
// nothing: a test binary killed then leaves its fixtures to the next run.
func Watch(token string) *Fixture {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if guard.fixtures == nil {
		guard.fixtures = map[string]*proc.Remains{}
	}
	guard.fixtures[token] = &proc.Remains{Owner: os.Getpid(), Token: token}
	ensure()
	return &Fixture{token: token}
}

// Dir tells the watchdog the fixture's folder.
func (f *Fixture) Dir(path string) { f.tell(message{kind: "dir", token: f.token, path: path}) }

// Cgroup tells the watchdog the fixture's cgroup.
func (f *Fixture) Cgroup(path string) { f.tell(message{kind: "cgroup", token: f.token, path: path}) }

// Process tells the watchdog a process of the fixture, by identity.
func (f *Fixture) Process(id proc.Identity) {
	f.tell(message{kind: "proc", token: f.token, id: id})
}

// End tells the watchdog that the fixture is cleaned up.
func (f *Fixture) End() {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if _, ok := guard.fixtures[f.token]; !ok {
		return
	}
	delete(guard.fixtures, f.token)
	if guard.w != nil && write(message{kind: "end", token: f.token}) != nil {
		lose()
		ensure()
	}
}

// Knows reports whether the watchdog is to clean up after the fixture
// token if the test process dies: true from [Watch] until [Fixture.End].
// A fixture its check released is no longer known, and nothing of it is
// told again or cleaned up twice.
func Knows(token string) bool {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	_, ok := guard.fixtures[token]
	return ok
}

func (f *Fixture) tell(m message) {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	r := guard.fixtures[f.token]
	if r == nil || m.kind == "proc" && slices.Contains(r.Known, m.id) {
		return // ended, or told already
	}
	apply(guard.fixtures, os.Getpid(), m)
	if guard.w == nil {
		ensure() // a new watchdog is told everything, m too
		return
	}
	if write(m) != nil {
		lose()
		ensure()
	}
}

// Err says why the test process has no watchdog, or nil.
func Err() error {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if guard.w != nil {
		return nil
	}
	if guard.err == nil {
		return errors.New("watchdog: none started yet")
	}
	return guard.err
}

// Running returns the identity of the test process's watchdog, if one
// runs.
func Running() (proc.Identity, bool) {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	return guard.id, guard.w != nil
}

// ensure starts a watchdog if none runs and it may, and tells it every
// fixture not cleaned up yet. Hold guard.mu.
func ensure() {
	for guard.w == nil && guard.starts < maxStarts {
		guard.starts++
		if err := start(); err != nil {
			guard.err = fmt.Errorf("watchdog: start %d of %d: %w", guard.starts, maxStarts, err)
			continue
		}
		if !replay() {
			lose()
		}
	}
}

// replay tells a new watchdog every fixture not cleaned up yet.
func replay() bool {
	for token, r := range guard.fixtures {
		var ms []message
		if r.Dir != "" {
			ms = append(ms, message{kind: "dir", token: token, path: r.Dir})
		}
		if r.Cgroup != "" {
			ms = append(ms, message{kind: "cgroup", token: token, path: r.Cgroup})
		}
		for _, id := range r.Known {
			ms = append(ms, message{kind: "proc", token: token, id: id})
		}
		for _, m := range ms {
			if write(m) != nil {
				return false
			}
		}
	}
	return true
}

// write sends one line to the watchdog. Hold guard.mu.
func write(m message) error {
	guard.w.SetWriteDeadline(time.Now().Add(writeWait))
	_, err := guard.w.WriteString(m.String())
	if err != nil {
		guard.err = fmt.Errorf("watchdog: pid %d: %w", guard.id.PID, err)
	}
	return err
}

// start starts the watchdog: this test binary, with the read end of a
// pipe whose only write end the test process keeps. Hold guard.mu.
func start() error {
	exe, err := executable()
	if err != nil {
		return err
	}
	r, w, err := os.Pipe() // close-on-exec, both ends
	if err != nil {
		return err
	}
	defer r.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		w.Close()
		return err
	}
	defer null.Close()
	self, err := proc.Identify(os.Getpid())
	if err != nil {
		w.Close()
		return err
	}
	// Not an exec.Cmd: it is never waited for while the test runs, which
	// GODEBUG=execwait=2 would take for a bug.
	attr, in := procAttr(null, r)
	attr.Env = environ()
	p, err := os.StartProcess(exe, []string{exe, roleArg(self, in)}, attr)
	if err != nil {
		w.Close()
		return err
	}
	id, err := proc.Identify(p.Pid)
	if err != nil {
		// Gone already: it did not get to read anything.
		p.Kill()
		p.Wait()
		w.Close()
		return fmt.Errorf("pid %d exited at once: %w", p.Pid, err)
	}
	guard.w, guard.p, guard.id = w, p, id
	proc.SetWatchdog(id, fdOf(w))
	return nil
}

// lose ends a watchdog that a write failed to reach: killed through the
// handle of a child never waited for (so its pid cannot have been
// reused), and reaped. Hold guard.mu.
func lose() {
	guard.p.Kill()
	guard.p.Wait()
	guard.w.Close()
	guard.w, guard.p = nil, nil
	proc.SetWatchdog(proc.Identity{}, -1)
}

// environ is the test process's environment with the mode pinned: the
// watchdog must identify processes as the test process did, whatever was
// set since the test process read EXECTEST_PORTABLE.
func environ() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, proc.PortableEnv+"=") })
	if proc.Portable() {
		env = append(env, proc.PortableEnv+"=1")
	}
	return env
}

// fdOf is f's descriptor number, read without Fd, which would make f
// blocking and its write deadline void.
func fdOf(f *os.File) int {
	fd := -1
	if c, err := f.SyscallConn(); err == nil {
		c.Control(func(u uintptr) { fd = int(u) })
	}
	return fd
}
