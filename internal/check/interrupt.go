package check

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/watchdog"
)

// Ctrl-C and kill(1) end a test binary without its cleanups: its fixture
// processes, their cgroups and folders would stay until the next run (see
// proc.RemoveStale). So while a fixture is in use, and only then, the
// test binary catches SIGINT and SIGTERM (from a fixture's NewDescendant to
// the end of its check: not between checks): it kills the fixtures' processes,
// removes their cgroups and folders, says so in one line on stderr, and
// raises the signal again with the catch undone, so that the process dies
// of it as it would have. (Whatever else kills it, its watchdog cleans up
// after it: see package internal/watchdog.)
//
// Catching a signal in Go cannot be made invisible to the test binary's
// own handlers (see docs/how-it-works.md): a signal.Notify of its own gets the
// signal twice, the original and the one raised again; one that stopped
// in between gets none of the second, and the process dies of it.

// interruptSignals are the signals that end a test run from outside.
var interruptSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM}

// interrupts holds the fixtures in use and the catch while there are any.
var interrupts struct {
	mu     sync.Mutex
	active map[*Fixture]struct{}
	catch  *catch // nil while no fixture is in use, or no signal can be caught
}

// A catch is one period of catching: from the first fixture in use to the
// last one's cleanup, or to the signal.
type catch struct {
	ch   chan os.Signal
	stop chan struct{} // closed after signal.Stop when the last fixture is done
	done chan struct{} // closed when the catching goroutine has ended
}

// register counts d as in use until unregister, and starts catching the
// signals if it is the first.
func (d *Fixture) register() {
	interrupts.mu.Lock()
	defer interrupts.mu.Unlock()
	if interrupts.active == nil {
		interrupts.active = map[*Fixture]struct{}{}
	}
	interrupts.active[d] = struct{}{}
	if interrupts.catch == nil {
		interrupts.catch = startCatch()
	}
}

// unregister counts d as no longer in use, and stops catching the signals
// if it was the last: the test binary gets back what it had.
func (d *Fixture) unregister() {
	interrupts.mu.Lock()
	delete(interrupts.active, d)
	c := interrupts.catch
	if len(interrupts.active) > 0 || c == nil {
		interrupts.mu.Unlock()
		return
	}
	interrupts.catch = nil
	signal.Stop(c.ch)
	close(c.stop)
	interrupts.mu.Unlock()
	<-c.done // no goroutine of ours outlives the last fixture
}

// startCatch catches those of interruptSignals that are not ignored: a
// signal the test binary ignores (signal.Ignore, or nohup and the
// background jobs of a shell, which start it with SIGINT ignored) stays
// ignored, as it does for the code under test.
func startCatch() *catch {
	var sigs []os.Signal
	for _, s := range interruptSignals {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return nil
	}
	c := &catch{ch: make(chan os.Signal, 1), stop: make(chan struct{}), done: make(chan struct{})}
	caught := make(chan struct{})
	go func() {
		defer close(c.done)
		// Without the caller's pprof labels: this goroutine, and os/signal's
		// own that the first Notify starts and that never ends, belong to
		// no GoroutineScope, whose check would take them for leaks.
		pprof.SetGoroutineLabels(context.Background())
		signal.Notify(c.ch, sigs...)
		close(caught)
		select {
		case sig := <-c.ch:
			interrupted(c, sig)
		case <-c.stop:
			// A signal that came just before the Stop is in the buffer: it
			// must still do what it would have done.
			select {
			case sig := <-c.ch:
				interrupted(c, sig)
			default:
			}
		}
	}()
	<-caught
	return c
}

// interrupted cleans up every fixture in use, says in one line on stderr
// what it killed and removed, then stops catching and raises sig again.
// Nothing is left to catch it unless the test binary has a signal.Notify
// of its own for it: the process dies of sig.
func interrupted(c *catch, sig os.Signal) {
	interrupts.mu.Lock()
	var fixtures []*Fixture
	for d := range interrupts.active {
		// One its check has just released, not yet unregistered, left
		// nothing: it is not killed, removed or counted twice.
		if watchdog.Knows(d.spec.Token) {
			fixtures = append(fixtures, d)
		}
	}
	// Their cleanups will find nothing left to do.
	clear(interrupts.active)
	var killed []proc.Identity
	for _, d := range fixtures {
		killed = append(killed, d.tracker.Members(d.mon.Snapshot().IDs())...)
		d.killAll() // by identity, and cgroup.kill
	}
	var removed []string
	for _, d := range fixtures {
		removed = append(removed, d.removeInterrupted()...)
	}
	fmt.Fprintln(os.Stderr, interruptLine(sig, len(fixtures), killed, removed))
	if interrupts.catch == c {
		interrupts.catch = nil
	}
	signal.Stop(c.ch)
	interrupts.mu.Unlock()
	if s, ok := sig.(syscall.Signal); ok {
		raise(s)
	}
}

// interruptLine says what the cleanup on sig did, in one line.
func interruptLine(sig os.Signal, fixtures int, killed []proc.Identity, removed []string) string {
	name := sig.String()
	switch sig {
	case syscall.SIGINT:
		name = "SIGINT"
	case syscall.SIGTERM:
		name = "SIGTERM"
	}
	killedWhat := "no process"
	if len(killed) > 0 {
		pids := make([]string, len(killed))
		for i, id := range killed {
			pids[i] = strconv.Itoa(id.PID)
		}
		killedWhat = "pid " + strings.Join(pids, ", ")
	}
	removedWhat := "nothing"
	if len(removed) > 0 {
		removedWhat = strings.Join(removed, ", ")
	}
	return fmt.Sprintf("exectest: %s with %d fixture(s) in use: killed %s; removed %s", name, fixtures, killedWhat, removedWhat)
}

// removeInterrupted removes the cgroup and the folder of a fixture whose
// processes were just killed, and returns what it removed. Unlike the
// cleanup it reaps nothing and reports nothing: the test binary is about
// to die.
func (d *Fixture) removeInterrupted() []string {
	var removed []string
	awaitDead(d.tracker, d.mon.Snapshot().IDs(), time.Second)
	cg := d.tracker.CgroupProcs()
	// Close waits up to a second for the killed to leave the cgroup.
	if err := d.tracker.Close(); err == nil && cg != "" {
		removed = append(removed, filepath.Dir(cg))
	}
	os.Remove(d.spec.Marker)
	if d.dir != "" && proc.RemoveAll(d.dir) == nil {
		removed = append(removed, d.dir)
	}
	d.guard.End()
	return removed
}
