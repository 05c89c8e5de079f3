package check

import (
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/internal/watchdog"
)

// FixtureOf is the engine's fixture behind d, an *exectest.Descendant,
// whose one field it is: the tests of the engine make their fixtures
// through the public API, as users do.
func FixtureOf(d any) *Fixture {
	return (*Fixture)(reflect.ValueOf(d).Elem().Field(0).UnsafePointer())
}

// ScopeOf is the engine's scope behind g, an *exectest.GoroutineScope,
// whose one field it is.
func ScopeOf(g any) *Scope {
	return (*Scope)(reflect.ValueOf(g).Elem().Field(0).UnsafePointer())
}

// WithoutHermeticHook makes NewFixture see a test binary whose TestMain
// does not dispatch fixtures, until the returned function is called.
func WithoutHermeticHook() (restore func()) {
	hermeticHooked = func() bool { return false }
	return func() { hermeticHooked = fixture.Hooked }
}

// AsWhereOnlyHermetic makes NewFixture take the test binary as the only
// fixture, as on Windows, until the returned function is called.
func AsWhereOnlyHermetic() (restore func()) {
	onlyHermetic = true
	return func() { onlyHermetic = runtime.GOOS == "windows" }
}

// CopyGoroutines counts the scope's os/exec copy goroutines as a check
// does.
func (s *Scope) CopyGoroutines() int { return s.copyGoroutines().n }

// MissCopyGoroutines makes every check count no copy goroutine, as a
// sample taken before a loaded machine ran them does, until the returned
// function is called. Not for parallel tests.
func MissCopyGoroutines() (restore func()) {
	sampleCopyGoroutines = func(*Scope) copySample { return copySample{} }
	return func() { sampleCopyGoroutines = (*Scope).copyGoroutines }
}

// SlowCopyGoroutines makes every check's count of copy goroutines take d
// and count none, as a loaded machine's profile can, until the returned
// function is called. Not for parallel tests.
func SlowCopyGoroutines(d time.Duration) (restore func()) {
	sampleCopyGoroutines = func(*Scope) copySample { time.Sleep(d); return copySample{} }
	return func() { sampleCopyGoroutines = (*Scope).copyGoroutines }
}

// CountCopySamples counts the checks' counts of copy goroutines (each a
// goroutine profile) until restore is called. Not for parallel tests.
func CountCopySamples() (samples func() int, restore func()) {
	var n atomic.Int64
	sampleCopyGoroutines = func(s *Scope) copySample { n.Add(1); return s.copyGoroutines() }
	return func() int { return int(n.Load()) }, func() { sampleCopyGoroutines = (*Scope).copyGoroutines }
}

// AsOnOldKernels makes the checks work as on a kernel that cannot tell how
// a process another one reaped ended (before Linux 6.15), until the
// returned function is called.
func AsOnOldKernels() (restore func()) {
	was := procstate.EndKnown
	procstate.EndKnown = func() bool { return false }
	return func() { procstate.EndKnown = was }
}

// Token is the unique string in the fixture's command lines.
func (d *Fixture) Token() string { return d.spec.Token }

// Tracker says how the fixture's processes are followed.
func (d *Fixture) Tracker() string { return d.tracking() }

// Started says the fixture child has reported that it started.
func (d *Fixture) Started() bool { return d.mon.Snapshot().Started > 0 }

// Process is the descendant's identity once it has proved it runs.
func (d *Fixture) Process() (proc.Identity, bool) { return d.proved() }

// Dir is the fixture's folder.
func (d *Fixture) Dir() string { return d.dir }

// Watched says the watchdog is still to clean up after the fixture if the
// test process dies: the fixture is not released yet.
func (d *Fixture) Watched() bool { return watchdog.Knows(d.spec.Token) }

// FixIgnored is the fix line for a cancel signal sig that a process of
// the command's group ignores, with a grace of half the check's bound.
var FixIgnored = fixIgnored

// FixLines are the check's fix lines that take no argument, by kind: the
// table in docs/failures.md has a row for each, and TestFailuresSayWhatToChange
// applies each to a runner that fails with it.
var FixLines = map[string]string{
	"own group":              fixOwnGroup,
	"kill group":             fixKillGroup,
	"launcher":               fixLauncher,
	"contain":                fixContain,
	"wait first":             fixWaitFirst,
	"early":                  fixEarly,
	"wait":                   fixWait,
	"stop, then wait":        fixStopThenWait,
	"test process holds":     fixSelfHolds,
	"close descriptors":      fixCloseFDs,
	"mount /proc":            fixMountProc,
	"/dev":                   fixDev,
	"/bin/sleep":             fixSleep,
	"shape":                  fixShape,
	"portable PID namespace": fixPortablePIDNS,
	"start argv":             fixStartArgv,
	"report":                 fixReport,
}

// RunCallOf says how run's own goroutine among gs runs the command, as
// the check tells it for its fix lines.
var RunCallOf = runCallOf

// InOwnStart says run's own goroutine among gs is inside a cmd.Start of
// its own: the sample of how it runs the command looks again.
var InOwnStart = inOwnStart

// ForRunCall is a failure's text as a check prints it where run was seen
// in the method call of *exec.Cmd ("Output", "CombinedOutput").
var ForRunCall = forRunCall

// FixKillCgroup and FixReach are the fix lines that name a folder.
var (
	FixKillCgroup = fixKillCgroup
	FixReach      = fixReach
)

// FixUnproved is the fix line of a check whose descendant never proved it
// runs, for the failures the fixture reported and the number of fixture
// children that started.
func FixUnproved(failures []string, started int) string {
	return fixUnproved(monitor.Snapshot{Failures: failures, Started: started}, "", "", nil)
}

// FixNotStarted is the fix line where run returned err before any cancel
// and no process of the command reported.
var FixNotStarted = fixNotStarted

// CatchingInterrupts reports whether the test binary catches SIGINT and
// SIGTERM for the fixtures in use.
func CatchingInterrupts() bool {
	interrupts.mu.Lock()
	defer interrupts.mu.Unlock()
	return interrupts.catch != nil
}

// SetPhaseHook makes every check call hook as each of its phases begins
// (see phaseHook), until the returned function is called. Not for
// parallel tests.
func SetPhaseHook(hook func(phase string)) (restore func()) {
	phaseHook.Store(&hook)
	return func() { phaseHook.Store(nil) }
}

// PendingFixtures is how many fixtures of tb wait for its end to be
// released, and whether tb has the cleanup that releases them.
func PendingFixtures(tb testing.TB) (n int, registered bool) {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	f := pending.byTest[tb]
	if f == nil {
		return 0, false
	}
	return len(f.live), true
}
