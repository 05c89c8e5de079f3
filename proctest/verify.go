package proctest

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// TestingT is the part of testing.TB that [VerifyNone] uses.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
}

// Find returns an error naming every live process below the test process
// that is not ignored, or nil. It keeps looking, with a capped backoff, up
// to [MaxWait] while such processes exit. Zombies count as dead, and the
// processes of a fixture still in use are left to its own check. The
// processes it names are killed (by identity), so that a leak is reported
// once and not by every later check; they are not reaped, since their
// owner may still wait for them.
//
// What it can attribute: processes below the test process. A process that
// escaped by a double fork or setsid and whose parent exited is below it
// only when the test process is a child subreaper ([EnableSubreaper];
// [VerifyTestMain] turns it on). Under t.Parallel, Find cannot tell which
// test started a process: another test's processes are reported too.
// Call it from tests that do not run in parallel, or use IgnoreProcess to
// scope it; exectest.AssertCancel tracks its own fixture per check instead.
func Find(opts ...Option) error {
	c := newVerifyConfig(opts)
	end := time.Now().Add(c.maxWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		found := c.unexpected()
		if len(found) == 0 {
			return nil
		}
		if time.Now().After(end) {
			// Reported is enough: left running, they would be found again
			// by every later check.
			for _, p := range found {
				p.Kill()
			}
			return &FoundError{Processes: found}
		}
		time.Sleep(wait)
	}
}

// FoundError lists the unexpected processes [Find] found.
type FoundError struct{ Processes []Process }

func (e *FoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "proctest: unexpected processes below the test process: got %d, want 0", len(e.Processes))
	for _, p := range e.Processes {
		b.WriteString("\n\t" + p.String())
	}
	return b.String()
}

func (c verifyConfig) unexpected() []Process {
	var found []Process
	for _, id := range liveDescendants() {
		if tracked(id) {
			continue
		}
		p, ok := Describe(id, "")
		if !ok || c.ignored(p) {
			continue
		}
		found = append(found, p)
	}
	return found
}

func (c verifyConfig) ignored(p Process) bool {
	for _, f := range c.ignore {
		if f(p) {
			return true
		}
	}
	return false
}

// VerifyNone fails t for every unexpected process [Find] finds. Use it at
// the end of a test, typically deferred with [IgnoreCurrent]:
//
//	defer proctest.VerifyNone(t, proctest.IgnoreCurrent())
func VerifyNone(t TestingT, opts ...Option) {
	t.Helper()
	if err := Find(opts...); err != nil {
		t.Errorf("%v", err)
	}
}

// TestingM is the part of testing.M that [VerifyTestMain] uses.
type TestingM interface{ Run() int }

// VerifyTestMain runs the tests and then fails the run if processes are
// left below the test process. It makes the test process a child
// subreaper first, so that escaped orphans stay visible.
//
//	func TestMain(m *testing.M) { proctest.VerifyTestMain(m) }
func VerifyTestMain(m TestingM, opts ...Option) {
	os.Exit(verifyTestMain(m, opts...))
}

func verifyTestMain(m TestingM, opts ...Option) int {
	if err := subreaper(); err != nil {
		fmt.Fprintf(os.Stderr, "proctest: no child subreaper (%v): escaped orphans go unseen\n", err)
	}
	opts = append([]Option{IgnoreCurrent()}, opts...)
	code := m.Run()
	if code != 0 {
		return code
	}
	if err := Find(opts...); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n(the tests passed; these processes were left behind, and are killed now)\n", err)
		return 1
	}
	return 0
}

func liveDescendants() []Identity {
	var ids []Identity
	for _, pid := range Descendants(os.Getpid()) {
		if id, err := Identify(pid); err == nil && id.Alive() {
			ids = append(ids, id)
		}
	}
	return ids
}

// active holds the trackers of fixtures in use: their processes are their
// own check's business, not a leak of whichever test runs Find.
var active sync.Map // *Tracker -> struct{}

func tracked(id Identity) bool {
	found := false
	active.Range(func(k, _ any) bool {
		t := k.(*Tracker)
		t.mu.Lock()
		seen, ok := t.seen[id.PID]
		found = ok && seen == id
		for _, r := range t.roots {
			found = found || r == id
		}
		cg := t.cgroup
		t.mu.Unlock()
		if !found && cg != nil {
			found = cg.contains(id.PID)
		}
		return !found
	})
	return found
}
