package proctest

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/proc"
)

// portableNote is what a report of the portable mode (off Linux, or
// EXECTEST_PORTABLE=1) says of what it cannot see.
func portableNote() string {
	if runtime.GOOS == "windows" {
		return "portable mode: processes found by gopsutil's parent links; cannot see an orphan whose parent exited (Windows keeps no link to it from the tree)"
	}
	return "portable mode: processes found by gopsutil's parent links; cannot see an escaped orphan reparented to init (no child subreaper)"
}

// TestingT is the part of testing.TB that [VerifyNone] uses.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
}

// Find returns an error naming every live process below the test process
// that is not ignored, or nil; or an error naming the bad input among opts. It keeps looking, with a capped backoff, up
// to [MaxWait] (default 1s) while such processes exit. Zombies count as
// dead, and the processes of an exectest fixture still in use are left to
// its own check. Like goleak's Find, it only finds: [VerifyNone] (and
// exectest.VerifyTestMain, after all tests) also kills what it reports.
// It also reaps, by pid, the zombies of the orphans the test process
// adopted as child subreaper (see [Process].Adopted), which nothing else
// would: never a process that os/exec started.
//
// What it can attribute: processes below the test process. A process that
// escaped by a double fork or setsid and whose parent exited is below it
// only when the test process is a child subreaper (exectest.VerifyTestMain
// makes it one). Under t.Parallel, Find cannot tell which test started a
// process: another test's processes are reported too. Call it from tests
// that do not run in parallel, or scope it with [IgnoreProcess];
// exectest.AssertCancel tracks its own fixture per check instead.
//
// Off Linux, and on Linux with EXECTEST_PORTABLE=1, it runs in the
// portable mode: processes and their parents from gopsutil, identified by
// pid and creation time. There is no child subreaper there, so an escaped
// orphan goes to init and is not below the test process: Find cannot see
// it, and its reports say so.
func Find(opts ...Option) error {
	c := newVerifyConfig(opts)
	if err := c.err(); err != nil {
		return err
	}
	found := find(c)
	if len(found) == 0 {
		return nil
	}
	return &foundError{found}
}

func find(c verifyConfig) []Process {
	// The zombies of orphans the test process adopted: no one else can
	// reap them, and they would pile up for the test binary's life.
	proc.ReapAdopted()
	var found []Process
	backoff.Poll(c.maxWait, time.Millisecond, 100*time.Millisecond, func() bool {
		found = c.unexpected()
		return len(found) == 0
	})
	return found
}

// kill kills what a check reported, by identity, so that a leak is
// reported once and not by every later check. It reaps nothing: the
// processes' owner may still wait for them.
func kill(found []Process) {
	for _, p := range found {
		proc.Facts(p).ID().Kill()
	}
}

// foundError lists the unexpected processes [Find] found.
type foundError struct{ processes []Process }

func (e *foundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "proctest: unexpected processes below the test process: got %d, want 0", len(e.processes))
	for _, p := range e.processes {
		b.WriteString("\n\t" + p.String())
	}
	if proc.Portable() {
		b.WriteString("\n(" + portableNote() + ")")
	}
	return b.String()
}

func (c verifyConfig) unexpected() []Process {
	var found []Process
	for _, id := range proc.LiveDescendants() {
		if proc.Tracked(id) {
			continue
		}
		p, ok := proc.Describe(id, "")
		if !ok || c.ignored(Process(p.Facts)) {
			continue
		}
		found = append(found, Process(p.Facts))
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

// VerifyNone fails t for every unexpected process [Find] finds, and kills
// them (by pid and start time), so that the next check does not report
// them again. Use it at the end of a test, typically deferred with
// [IgnoreCurrent]:
//
//	defer proctest.VerifyNone(t, proctest.IgnoreCurrent())
func VerifyNone(t TestingT, opts ...Option) {
	t.Helper()
	c := newVerifyConfig(opts)
	if err := c.err(); err != nil {
		t.Errorf("%v", err)
		return
	}
	if found := find(c); len(found) > 0 {
		kill(found)
		t.Errorf("%v\n(killed now)", &foundError{found})
	}
}
