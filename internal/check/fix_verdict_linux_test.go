package check_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
	"github.com/exectest/exectest/recorder"
)

// The fix lines of a vacuous check name a change where the command runs
// (a /bin/sleep that sleeps), or in the test (a Lifetime, a later
// cancel): applied, the check is no longer vacuous. Its verdict is then
// the runner's own: a failure with the runner's fix line for a runner
// that kills the child only, a pass with that line applied too.
func TestVacuousFixLinesApplied(t *testing.T) {
	testenv.NeedBwrap(t)
	self := brokenSleeps(t)["sleep sleeps 150ms"]
	for _, c := range []struct {
		name string
		opt  []exectest.Option
		// then wraps each runner: what run does after the command.
		then func(runnerOf) runnerOf
		want string
	}{
		// The cancel comes while the sleep still sleeps; it then ends
		// on its own, which no kill of the runner's caused.
		{"ended on its own", nil, func(r runnerOf) runnerOf { return r },
			"fix: where the command runs, /bin/sleep must sleep for its whole lifetime (20s): it is another program there, or it cannot run"},
		// The cancel comes after the sleep ended (150ms after it
		// started: 2s leaves room for a slow start under -race and load),
		// to a run that serves until its context is done.
		{"lapsed by the cancel", []exectest.Option{exectest.CancelAfter(2 * time.Second)}, untilCancelled,
			"fix: make the descendant live where the command runs: /bin/sleep must be a working sleep there (not another program, not missing its libraries)"},
	} {
		for _, b := range builds {
			t.Run(c.name+"/"+b.name, func(t *testing.T) {
				t.Parallel()
				checkWith := func(sandbox []string, r runnerOf) systemtest.Fake {
					return systemtest.RunFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb)
						exectest.AssertCancel(tb, d, inSandbox(sandbox, c.then(r))(b, d, nil), c.opt...)
					})
				}
				f := checkWith(self, killsChild)
				if v := f.Verdict(); v == "pass" || !slices.Equal(fixLines(f.Recorded()), []string{c.want}) {
					t.Fatalf("in a sandbox whose /bin/sleep ends on its own: got %s with fix lines %q, want a vacuous check with %q:%s", v, fixLines(f.Recorded()), c.want, f.Recorded())
				}
				// The change: a /bin/sleep that sleeps (the host's).
				f = checkWith(sharedPID, killsChild)
				f.WantVerdict(t, "fail")
				if got := fixLines(f.Recorded()); !slices.Equal(got, []string{S(check.FixLines["own group"])}) {
					t.Fatalf("with a working /bin/sleep: got fix lines %q, want the runner's own:%s", got, f.Recorded())
				}
				checkWith(sharedPID, starts(asIs)).WantVerdict(t, "pass")
			})
		}
	}
}

// untilCancelled runs the command as r does, then returns only when ctx
// is done, as a server's run does.
func untilCancelled(r runnerOf) runnerOf {
	return func(b build, d *exectest.Descendant, rp *reaper) func(context.Context) error {
		return func(ctx context.Context) error {
			err := r(b, d, rp)(ctx)
			<-ctx.Done()
			return err
		}
	}
}

// A descendant that cannot outlive the check is bad input: the line names
// the Lifetime that can, as Go code, and with it the check runs.
func TestLifetimeFixLineApplied(t *testing.T) {
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb, exectest.Lifetime(500*time.Millisecond))
		exectest.AssertCancel(tb, d, policyRun(d.Argv()))
	})
	const want = "fix: exectest.NewDescendant(t, exectest.Lifetime(3*time.Second)), or a shorter exectest.Within"
	f.WantVerdict(t, "fail")
	if got := fixLines(f.Recorded()); !slices.Equal(got, []string{want}) {
		t.Fatalf("fix lines: got %q, want %q", got, want)
	}
	systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb, exectest.Lifetime(3*time.Second))
		exectest.AssertCancel(tb, d, policyRun(d.Argv()))
	}).WantVerdict(t, "pass")
}

// earlySeriesRun numbers the runs of TestEarlySeriesFixLineApplied in this
// process, so that each (under -count=N too) counts a series of its own.
var earlySeriesRun atomic.Int64

// A series of early cancels in which the fixture never started says to
// run d.Argv() and to cancel later: done, the checks pass.
func TestEarlySeriesFixLineApplied(t *testing.T) {
	name := fmt.Sprintf("%s#%d", t.Name(), earlySeriesRun.Add(1))
	var last *recorder.T
	for range 20 {
		last = recorder.Run(t, name, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, waitsForCancel(d.Argv()), exectest.CancelAfter(0))
		})
	}
	f := systemtest.Fake{T: last}
	want := []string{"fix: check that run runs d.Argv(), and cancel later (CancelAfterRandom with a later max) or use the default (no cancel option), which waits for the proof of life"}
	if v := f.Verdict(); v == "pass" || !slices.Equal(fixLines(f.Recorded()), want) {
		t.Fatalf("the 20th early cancel in which the fixture never started: got %s with fix lines %q, want %q:%s", v, fixLines(f.Recorded()), want, f.Recorded())
	}
	// The fixed checks are another test's (the change replaced the
	// broken ones): under this test's name, as its rows, they would be
	// counted with the 20 broken checks above, and the first of them to
	// lose the race with start-up would make 21.
	//
	// That some of them see the descendant prove it runs says that run
	// runs d.Argv(); but whether a cancel comes after the start-up depends
	// on how long it takes, which load stretches (221ms at a load of 30).
	// So a series in which none did is tried again over a longer window.
	//
	// Their verdicts, not the timing, are under test: the bound leaves
	// room for a process group's teardown on a loaded machine (it took
	// 1.24s under 16 burners on 2 CPUs, with every holder gone by then).
	within := exectest.Within(5 * time.Second)
	started := 0
	window := 100 * time.Millisecond
	for try := 0; ; try++ {
		for range 20 {
			var res exectest.Result
			f := systemtest.Fake{T: recorder.Run(t, fmt.Sprintf("%s-fixed-%v", name, window), func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				res = exectest.AssertCancel(tb, d, policyRun(d.Argv()), exectest.CancelAfterRandom(0, window), within)
			})}
			f.WantVerdict(t, "pass")
			if res.Proved {
				started++
			}
		}
		if started > 0 || try == 2 {
			break
		}
		t.Logf("run running d.Argv(), cancelled up to %v after start: the descendant proved in none of 20 checks; again, up to %v", window, 4*window)
		window *= 4
	}
	// The default waits for the proof of life: its cancel delay is the
	// start-up, as long as it is now.
	var def exectest.Result
	systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		def = exectest.AssertCancel(tb, d, policyRun(d.Argv()), within)
	}).WantVerdict(t, "pass")
	switch {
	case started > 0:
	case def.Proved && def.CancelDelay >= window/2:
		t.Skipf("run running d.Argv(), cancelled up to %v after start: the descendant proved in none of 20 checks, but its start-up, measured now by the default's wait for the proof, took %v: too slow a machine to tell", window, def.CancelDelay)
	default:
		t.Errorf("run running d.Argv(), cancelled up to %v after start: got the descendant proved in none of 20 checks, want some (the default's wait for the proof took %v, proved %v)", window, def.CancelDelay, def.Proved)
	}
}
