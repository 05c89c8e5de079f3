package check

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/fixture"
	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/watchdog"
)

// A Fixture is the engine behind exectest.Descendant: the fixture's
// folder, FIFOs, monitor and tracker, and what releases them once its
// check ends.
type Fixture struct {
	tb         testing.TB
	cfg        FixtureConfig // as given, for a fixture of the same shape (see startupTime)
	spec       fixture.Spec
	hermetic   bool
	dir        string
	argv       []string
	script     string
	scriptErr  error
	scriptOnce sync.Once
	mon        *monitor.Monitor
	tracker    *proc.Tracker
	guard      *watchdog.Fixture      // cleans up if the test process dies first
	madeAt     string                 // where the test called exectest.NewDescendant: see madeBy
	claimedBy  atomic.Pointer[string] // the check that used it (see usedBy), once one did
	releaseOne sync.Once
	released   atomic.Bool // release has begun: see Script
	// untrack takes the fixture out of what its test's cleanup releases
	// (see track): a released fixture (its monitor, snapshots, tracker) is
	// garbage as soon as the test drops it, not when the test ends.
	untrack func()
}

// NewFixture prepares a fixture for one check, as exectest.NewDescendant
// does with the options cfg holds. It starts nothing: the code under test
// runs it. A missing prerequisite (/bin/sh, /bin/sleep, setsid(1) for
// Escaping) skips the test, or fails it under EXECTEST_STRICT=1.
func NewFixture(tb testing.TB, cfg FixtureConfig) *Fixture {
	tb.Helper()
	cfg.checkShapes()
	if len(cfg.Errs) > 0 {
		tb.Fatalf("%s", strings.Join(cfg.Errs, "\n"))
	}
	strict(tb) // bad input fails at once, not only when a check would skip
	portableValue(tb)
	if why := shapeHere(cfg); why != "" {
		skipVacuous(tb, "%s", why)
	}
	if why := portableUnsupported(); why != "" {
		skipVacuous(tb, "%s", why)
	}
	if !proc.Portable() {
		if _, err := os.Stat("/proc/self/stat"); err != nil {
			skipVacuous(tb, "exectest: the toolkit needs /proc to identify processes: %v", err)
		}
	}
	d := &Fixture{tb: tb, cfg: cfg, hermetic: cfg.Hermetic || onlyHermetic, madeAt: callerOf(entryNewDescendant)}
	d.spec = fixture.Spec{Token: newToken(), Lifetime: cfg.Lifetime, Escape: cfg.Escape, Portable: proc.Portable(),
		Launch: cfg.Shape.Launch, IgnoreTerm: cfg.Shape.IgnoreTerm, JobControl: cfg.Shape.JobControl, DoubleFork: cfg.Shape.DoubleFork}
	if d.hermetic && !cfg.Hermetic && !hermeticHooked() {
		// Not bad input: the same test runs the shell fixture elsewhere.
		skipVacuous(tb, "exectest: fixture hook: got none, want exectest.VerifyTestMain(m) as TestMain (or fixtures.Dispatch() called first in it): on %s the fixture is the test binary, re-executed as the command, since there is no /bin/sh; add\n\tfunc TestMain(m *testing.M) { exectest.VerifyTestMain(m) }\nto a _test.go file of this package", runtime.GOOS)
	}
	if d.hermetic {
		if !hermeticHooked() {
			tb.Fatalf("exectest.Hermetic: fixture hook: got none, want exectest.VerifyTestMain(m) as TestMain (or fixtures.Dispatch() called first in it), so that the test binary can re-execute itself as the fixture; add\n\tfunc TestMain(m *testing.M) { exectest.VerifyTestMain(m) }\nto a _test.go file of this package")
		}
	} else {
		for _, p := range []string{"/bin/sh", "/bin/sleep"} {
			if err := executable(p); err != nil {
				skipVacuous(tb, "exectest: the shell fixture needs %s: %v (exectest.Hermetic() needs neither /bin/sh nor /bin/sleep)", p, err)
			}
		}
		if cfg.Escape || cfg.Shape.DoubleFork {
			d.spec.Setsid = lookPath(tb, "setsid", "util-linux")
		}
		if cfg.Shape.JobControl {
			d.spec.Bash = lookPath(tb, "bash", "bash")
		}
	}
	if err := d.prepare(); err != nil {
		d.removeDir()
		d.guard.End()
		tb.Fatalf("exectest.NewDescendant: %v", err)
	}
	noWatchdogOnce(tb)
	d.register() // cleaned up on SIGINT and SIGTERM too (see interrupt.go)
	// Its check releases it (see check.do); this is for a fixture never
	// checked, or whose check never got to run.
	d.track()
	return d
}

// lookPath is the absolute path of a program the shell fixture's shape
// needs, or a skip saying it is missing.
func lookPath(tb testing.TB, name, pkg string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		skipVacuous(tb, "exectest: this shape of the shell fixture needs %s(1): %v (install %s, or use exectest.Hermetic())", name, err, pkg)
	}
	abs, _ := filepath.Abs(p)
	return abs
}

func (d *Fixture) prepare() error {
	var err error
	sweepTempDir()
	// The zombies of orphans the test process adopted since the toolkit
	// last looked (of programs the tests ran between checks): reaped at
	// each check's start too, not only at a release, so that they pile up
	// only between two calls of the toolkit (how-it-works.md, Side effects).
	proc.ReapAdopted()
	// Started with the first fixture, the watchdog learns each part of
	// this one as soon as it exists (see package internal/watchdog).
	d.guard = watchdog.Watch(d.spec.Token)
	if d.dir, err = os.MkdirTemp("", "exectest-"+proc.OwnerTag()+"-"+d.spec.Token+"-"); err != nil {
		return fmt.Errorf("%w (the fixture's folder goes in TMPDIR, %q: it must be a writable folder that the command under test can read)", err, os.TempDir())
	}
	// A relative TMPDIR gives a relative folder, and the command may run
	// in another working directory (cmd.Dir): its paths must not depend
	// on where it runs.
	abs, err := filepath.Abs(d.dir)
	if err != nil {
		return fmt.Errorf("the fixture's folder %s: %w", d.dir, err)
	}
	d.dir = abs
	d.guard.Dir(d.dir)
	// The code under test may run the fixture as another user, or in a
	// sandbox that binds this folder read-only: it must still reach the FIFO.
	if err := os.Chmod(d.dir, 0o755); err != nil {
		return err
	}
	d.spec.Marker = filepath.Join(d.dir, "marker")
	d.spec.Go = filepath.Join(d.dir, "go")
	// Anyone may report (the fixture may run as another user); anyone may
	// read the go-ahead, which says nothing.
	for path, mode := range map[string]uint32{d.spec.Marker: 0o622, d.spec.Go: 0o644} {
		if err := mkfifo(path, 0o600); err != nil {
			return fmt.Errorf("mkfifo %s: %w", path, err)
		}
		if err := os.Chmod(path, os.FileMode(mode)); err != nil {
			return err
		}
	}
	d.tracker = proc.NewTracker(d.spec.Token)
	d.spec.Cgroup = d.tracker.CgroupProcs()
	if d.spec.Cgroup != "" {
		d.guard.Cgroup(filepath.Dir(d.spec.Cgroup))
	}
	d.spec.TestCgroup, d.spec.TestCgroupNS = d.tracker.JoinFrom()
	// Every fixture process holds the marker FIFO (see package fixtures):
	// without a cgroup, that finds the orphans that never reported.
	if err := d.tracker.FollowHolders(d.spec.Marker); err != nil {
		d.tracker.Close()
		return err
	}
	// The portable mode sees no held file: the token in every fixture
	// process's arguments finds them instead, until one execs /bin/sleep
	// (after its report).
	d.tracker.FollowArg(d.spec.Token)
	d.mon, err = monitor.Start(d.spec, fixture.ExecsAfterReport(d.hermetic), d.tracker, d.guard)
	if err != nil {
		d.tracker.Close()
		return err
	}
	if d.hermetic {
		d.argv, err = fixture.HermeticArgv(d.spec)
	} else {
		// Known once the monitor holds the FIFO open.
		d.spec.TestHeld = d.mon.HeldPath()
		d.argv = fixture.ShellArgv(d.spec)
	}
	if err != nil {
		d.mon.Close()
		d.tracker.Close()
	}
	return err
}

// TB is the test the fixture was made for.
func (d *Fixture) TB() testing.TB { return d.tb }

// Argv is the command line for the code under test to run: argv[0] is an
// absolute path.
func (d *Fixture) Argv() []string { return append([]string(nil), d.argv...) }

// Script is the path of an executable file that does what [Descendant.Argv]
// does, for code that takes the path of a binary. It is written on the
// first call, in the fixture's folder: it is gone once the check ends.
func (d *Fixture) Script() string {
	d.tb.Helper()
	if d.released.Load() {
		by := ""
		if p := d.claimedBy.Load(); p != nil {
			by = " (" + *p + ")"
		}
		d.tb.Fatalf("exectest: Script: %s was released by its check%s, with its folder: call Script before AssertCancel, and create one Descendant per check with exectest.NewDescendant", d.label(), by)
	}
	d.scriptOnce.Do(func() { d.script, d.scriptErr = d.writeScript() })
	if d.scriptErr != nil {
		d.tb.Fatalf("exectest: Script: %v", d.scriptErr)
	}
	return d.script
}

// writeScript writes the file Script returns.
func (d *Fixture) writeScript() (string, error) {
	body := fixture.ShellScript(d.spec)
	if d.hermetic {
		var err error
		if body, err = fixture.HermeticScript(d.spec); err != nil {
			return "", err
		}
	}
	path := filepath.Join(d.dir, "exectest-"+d.spec.Token+fixture.ScriptExt)
	if err := writeExecutable(path, []byte(body)); err != nil {
		return "", fmt.Errorf("%w (TMPDIR must be writable, and allow executables)", err)
	}
	return path, nil
}

// sweepTempDir removes, once per process, the fixture folders that killed
// test runs left in TMPDIR (see proc.RemoveStale).
var sweepTempDir = sync.OnceFunc(func() { proc.RemoveStale(os.TempDir(), "exectest-") })

// writeExecutable writes an executable file that a fork elsewhere in the
// process cannot leave open for writing: a child forked while the
// descriptor is open keeps it until its exec, and exec of the file then
// fails with "text file busy" (go.dev/issue/22315). Forks take
// [syscall.ForkLock] for writing, so holding it for reading keeps them
// out until the descriptor is closed.
func writeExecutable(path string, body []byte) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// name names the fixture in messages.
func (d *Fixture) name() string { return "exectest-" + d.spec.Token }

// WaitAlive returns nil once the descendant has proved it runs in its
// final shape: it reported from its own pid, after it escaped (with
// [Escaping]) and while holding the inherited descriptors, and that pid
// and start time were found in /proc. It returns an error when a fixture
// process reports that it cannot do its part, or when ctx is done; the
// error wraps ctx.Err() then and says what was seen. Once the check has
// released the fixture, it answers at once: nil if the descendant had
// proved it runs, else an error.
func (d *Fixture) WaitAlive(ctx context.Context) error {
	for {
		s := d.mon.Snapshot()
		if s.Proof != nil {
			return nil
		}
		if len(s.Failures) > 0 {
			return &notAliveError{Reason: strings.Join(s.Failures, "; ")}
		}
		if s.Closed {
			return fmt.Errorf("exectest: waiting for the descendant's proof of life: %w: its check released it (%s)", errReleased, s)
		}
		select {
		case <-s.Changed:
		case <-ctx.Done():
			return fmt.Errorf("exectest: waiting for the descendant's proof of life: %w (%s)", ctx.Err(), s)
		}
	}
}

// notAliveError says that the fixture reported it cannot run as asked.
type notAliveError struct{ Reason string }

func (e *notAliveError) Error() string { return "exectest: the descendant cannot run: " + e.Reason }

// proved returns the descendant's identity once it has proved it runs.
func (d *Fixture) proved() (proc.Identity, bool) {
	s := d.mon.Snapshot()
	if s.Proof == nil {
		return proc.Identity{}, false
	}
	return s.Proof.ID, true
}

// claim marks the fixture as used by one check.
func (d *Fixture) claim(tb testing.TB) (earlier string, ok bool) {
	by := usedBy(tb, callerOf(entryAssertCancel))
	if d.claimedBy.CompareAndSwap(nil, &by) {
		return "", true
	}
	return *d.claimedBy.Load(), false
}

// label names the fixture in a message, as its test made it.
func (d *Fixture) label() string { return madeBy(d.tb, d.madeAt) }

// tracking says how the fixture's processes are followed: a cgroup v2, the
// test process as child subreaper, or the fixture's own reports. It can
// change once the command runs: a fixture child that the code under test
// started in a cgroup of its own stays there, followed without a cgroup
// (see proc.Tracker.Adopt).
func (d *Fixture) tracking() string { return d.tracker.Mechanism() }

// killAll kills every process of the fixture: the tracker's members and
// every process the fixture reported, by identity.
func (d *Fixture) killAll() error {
	_, err := d.tracker.KillAll(d.mon.Snapshot().IDs())
	return err
}

// errReleased says the fixture's check has ended and released it.
var errReleased = errors.New("the fixture is released")

// release gives back everything the fixture holds, once: what cleanup
// does, then the catch of SIGINT and SIGTERM for it (unregister, after
// cleanup: a signal during it finds the fixture). Its check calls it as
// it ends, so that a test that runs a thousand checks holds no more after
// the last one than after the first; the test's cleanup calls it too, for
// a fixture never checked, and then it does nothing if the check did.
func (d *Fixture) release() {
	d.releaseOne.Do(func() {
		d.released.Store(true)
		d.cleanup()
		d.unregister()
		d.untrack()
	})
}

// cleanup kills what is the fixture's and only that, reaps the orphans
// among them by pid, and removes the cgroup and the folder.
func (d *Fixture) cleanup() {
	var errs []error
	s := d.mon.Snapshot()
	killed, err := d.tracker.KillAll(s.IDs())
	if err != nil {
		errs = append(errs, err)
	}
	if killed > 0 {
		awaitDead(d.tracker, s.IDs(), time.Second)
	}
	d.tracker.ReapOrphans(s.IDs(), func(id proc.Identity) bool {
		for _, k := range s.Known {
			if k.ID == id {
				return k.ExecChild
			}
		}
		return false
	})
	// And any other orphan the test process adopted that died since: the
	// code under test's, which nothing else reaps.
	proc.ReapAdopted()
	if err := d.tracker.Close(); err != nil {
		errs = append(errs, err)
	}
	// Unlink first: a late writer then creates a plain file instead of
	// blocking in open(2) on a FIFO without a reader.
	os.Remove(d.spec.Marker)
	d.mon.Close()
	d.removeDir()
	if err := errors.Join(errs...); err != nil {
		d.tb.Errorf("exectest: cleanup of %s, %v: %v", d.label(), d.name(), err)
		return // the watchdog tries again if the test process dies
	}
	d.guard.End()
}

// noWatchdogOnce logs, in the first test that makes a fixture, why the
// test process has no watchdog, if it has none.
var noWatchdogOnce = func() func(testing.TB) {
	var once sync.Once
	return func(tb testing.TB) {
		tb.Helper()
		if err := watchdog.Err(); err != nil {
			once.Do(func() {
				tb.Logf("exectest: no watchdog (%v): if this test binary is killed, its fixtures' processes, cgroups and folders stay until the next test binary's first fixture", err)
			})
		}
	}
}()

// awaitDead polls, with a capped backoff, until the tracker has no live
// member or grace has passed: the kernel tears killed processes down
// asynchronously.
func awaitDead(t *proc.Tracker, known []proc.Identity, grace time.Duration) []proc.Identity {
	var live []proc.Identity
	backoff.Poll(grace, time.Millisecond, 50*time.Millisecond, func() bool {
		live = t.Members(known)
		return len(live) == 0
	})
	return live
}

func (d *Fixture) removeDir() {
	if d.dir != "" {
		proc.RemoveAll(d.dir)
	}
}

func newToken() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func executable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.Mode()&0o111 == 0 || fi.IsDir() {
		return fmt.Errorf("%s: got mode %v, want an executable file", path, fi.Mode())
	}
	return nil
}

// hermeticHooked is fixture.Hooked, a variable so that a test can see
// what a test binary without the hook gets.
var hermeticHooked = fixture.Hooked

// deadline bounds d by a part of the time the test has left, so that a
// wait never outlives go test -timeout.
func deadline(tb testing.TB, d time.Duration) time.Duration {
	if dl, ok := tb.(interface{ Deadline() (time.Time, bool) }); ok {
		if t, ok := dl.Deadline(); ok {
			if left := time.Until(t) / 4; left < d {
				return max(left, 0)
			}
		}
	}
	return d
}
