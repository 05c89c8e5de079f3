//go:build unix

package exectest_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
)

// shapes are the two fixture shapes; every verdict must hold for both.
var shapes = []struct {
	name string
	opts []exectest.DescendantOption
	// sleepText is what a message shows of the descendant's command line.
	sleepText string
}{
	{"shell", nil, "/bin/sleep 20"},
	{"hermetic", []exectest.DescendantOption{exectest.Hermetic()}, "-exectest.fixture=descendant"},
}

// hungCost bounds what a hung check may cost: the bound, the kill and the
// messages, far below the descendant's 20 s lifetime. Generous on purpose:
// the machines are shared.
const hungCost = time.Second + 5*time.Second

func TestAssertCancelVerdicts(t *testing.T) {
	cases := []struct {
		name     string
		run      runner
		script   bool // run d.Script() instead of d.Argv()
		verdict  string
		wantText []string
	}{
		{"default cancel", defaultCancel, false, "fail", []string{"run did not return within the bound after cancel", "want return within 1s", "(descendant)", "holds the write end of the command's stdout+stderr pipe:["}},
		{"kill only", killOnly, false, "fail", []string{"run did not return within the bound after cancel", "(descendant)", "pipe:["}},
		{"wait delay only", waitDelayOnly, false, "fail", []string{"fixture processes alive after run returned: got 1, want 0", "(descendant)"}},
		{"fixed", fixed, false, "pass", nil},
		{"policy", policy, false, "pass", nil},
		{"script with policy", policy, true, "pass", nil},
		{"script with default cancel", defaultCancel, true, "fail", []string{"run did not return within the bound after cancel", "pipe:["}},
		{"separate stdout and stderr", separateOutputs, false, "fail", []string{"holds the write end of the command's stdout pipe:[", " and stderr pipe:["}},
		{"file stdout with default cancel", fileStdout, false, "fail", []string{"fixture processes alive after run returned: got 1, want 0", "(descendant)"}},
		{"file stdout with policy", func(argv []string) func(context.Context) error {
			return func(ctx context.Context) error {
				cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
				if err := cancelpolicy.Apply(cmd); err != nil { // nil stdio: /dev/null, no pipe either
					return err
				}
				//execcheck:ignore a runner of the verdict table: cancelpolicy.Apply on the waiting fixture, which it stops
				return cmd.Run()
			}
		}, false, "pass", nil},
	}
	for _, sh := range shapes {
		for _, c := range cases {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				var res exectest.Result
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.opts...)
					argv := d.Argv()
					if c.script {
						argv = []string{d.Script()}
					}
					res = exectest.AssertCancel(tb, d, c.run(argv))
				})
				want := reachable(c.wantText)
				if c.verdict == "fail" {
					want = append(want, sh.sleepText)
				}
				f.wantVerdict(t, c.verdict, want...)
				if cost := time.Since(start); cost > hungCost {
					t.Errorf("check cost: got %v, want at most %v (the bound, not the descendant's lifetime)", cost, hungCost)
				}
				if res.Failed != (c.verdict == "fail") {
					t.Errorf("Result.Failed: got %v, want %v: the verdict the check reported, %s", res.Failed, !res.Failed, c.verdict)
				}
				if portable != strings.HasPrefix(res.Tracker, "portable mode: ") {
					t.Errorf("Result.Tracker: got %q, want the portable mode named there, and only there", res.Tracker)
				}
				// Under -v, how the fixture was tracked here (CI looks).
				t.Logf("tracked by: %s", res.Tracker)
				if c.verdict == "pass" && (!res.Proved || res.DescendantPID == 0) {
					t.Errorf("result of a passing check: got %+v, want proved and the descendant's pid", res)
				}
			})
		}
	}
}

func TestAssertCancelEscapingDescendant(t *testing.T) {
	for _, sh := range shapes {
		for name, r := range map[string]runner{"fixed": fixed, "policy": policy} {
			t.Run(sh.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				var res exectest.Result
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, append([]exectest.DescendantOption{exectest.Escaping()}, sh.opts...)...)
					res = exectest.AssertCancel(tb, d, r(d.Argv()))
				})
				f.wantVerdict(t, "fail", "(descendant, escaped into its own session)", sh.sleepText)
				if len(res.Holders)+len(res.Survivors) == 0 {
					t.Fatalf("result: got no holder and no survivor, want the escaped descendant")
				}
				// The escapee leads its own session: proof it escaped before the kill.
				p := append(res.Holders, res.Survivors...)[0]
				if p.SID != p.PID {
					t.Errorf("escaped descendant: got sid %d, want its own pid %d", p.SID, p.PID)
				}
			})
		}
	}
}

func TestAssertCancelVacuous(t *testing.T) {
	cases := []struct {
		name     string
		run      runner
		wantText string
	}{
		{"never runs", neverRuns, "no report from the fixture child: run did not start the command"},
		{"missing binary", missingBinary, "no such file or directory"},
	}
	for _, strict := range []string{"0", "1"} {
		for _, c := range cases {
			t.Run(c.name+"/strict="+strict, func(t *testing.T) {
				t.Setenv("EXECTEST_STRICT", strict)
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb)
					exectest.AssertCancel(tb, d, c.run(d.Argv()))
				})
				want := map[string]string{"0": "skip", "1": "fail"}[strict]
				f.wantVerdict(t, want, "the descendant never proved it runs", c.wantText, "EXECTEST_STRICT",
					"fix: run must start d.Argv() (or d.Script()) under ctx")
			})
		}
	}
}

func TestAssertCancelRunPanics(t *testing.T) {
	var res exectest.Result
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
			if err := cancelpolicy.Apply(cmd); err != nil {
				return err
			}
			//execcheck:ignore tests cancelpolicy.Apply on the waiting fixture, which it stops
			if err := cmd.Start(); err != nil {
				return err
			}
			<-ctx.Done()
			cmd.Wait()
			panic("runner exploded")
		})
	})
	f.wantVerdict(t, "fail", "run panicked: runner exploded", "goroutine")
	if res.Panic != "runner exploded" {
		t.Errorf("Result.Panic: got %v, want %q", res.Panic, "runner exploded")
	}
}

func TestAssertCancelRunNeverReturns(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	var res exectest.Result
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		res = exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
			//execcheck:ignore the runner that ignores the cancel, on purpose: AssertCancel must report it
			if err := cmd.Start(); err != nil {
				return err
			}
			defer cmd.Wait()
			<-release // ignores ctx and the kill alike
			return nil
		}, exectest.Within(200*time.Millisecond))
	})
	f.wantVerdict(t, "fail", "run did not return within the bound", "its goroutine is leaked")
	if res.Returned {
		t.Errorf("Result.Returned: got true, want false")
	}
	if cost := time.Since(start); cost > 200*time.Millisecond+hungCost {
		t.Errorf("cost of a run that never returns: got %v, want at most %v", cost, 200*time.Millisecond+hungCost)
	}
}

func TestAssertCancelEarlyCancel(t *testing.T) {
	// A correct runner passes wherever the cancel lands in start-up.
	for _, sh := range shapes {
		for name, opt := range map[string]exectest.Option{
			"after 0":           exectest.CancelAfter(0),
			"after random 0-20": exectest.CancelAfterRandom(0, 20*time.Millisecond),
		} {
			t.Run(sh.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				// Each check on its own, not as a series of the test's
				// (see TestEarlyCancelSeriesAcrossRows): a fresh name.
				fresh := freshName(t)
				for range 5 {
					f := runFakeAs(t, fresh, func(tb testing.TB) {
						d := exectest.NewDescendant(tb, sh.opts...)
						exectest.AssertCancel(tb, d, policy(d.Argv()), opt)
					})
					f.wantVerdict(t, "pass")
				}
			})
		}
	}
}

func TestAssertCancelRunReturnsEarlyLeavingProcesses(t *testing.T) {
	// A runner that starts the command and returns at once, never waiting.
	var cmd *exec.Cmd
	f := runFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd = exec.Command(d.Argv()[0], d.Argv()[1:]...)
			return cmd.Start()
		})
	})
	cmd.Wait() // reap the killed child, as GODEBUG=execwait=2 wants
	f.wantVerdict(t, "fail", "fixture processes alive after run returned", "run returned before the cancel")
}

func TestBadInput(t *testing.T) {
	ok := func(ctx context.Context) error { return nil }
	cases := []struct {
		name string
		fn   func(tb testing.TB)
		want string
	}{
		{"nil descendant", func(tb testing.TB) { exectest.AssertCancel(tb, nil, ok) }, "descendant: got nil, want one from exectest.NewDescendant(t)"},
		{"nil run", func(tb testing.TB) { exectest.AssertCancel(tb, exectest.NewDescendant(tb), nil) }, "run: got nil"},
		{"zero bound", func(tb testing.TB) { exectest.AssertCancel(tb, exectest.NewDescendant(tb), ok, exectest.Within(0)) }, "exectest.Within: bound: got 0s, want > 0"},
		{"negative bound", func(tb testing.TB) {
			exectest.AssertCancel(tb, exectest.NewDescendant(tb), ok, exectest.Within(-time.Second))
		}, "exectest.Within: bound: got -1s, want > 0"},
		{"zero lifetime", func(tb testing.TB) { exectest.NewDescendant(tb, exectest.Lifetime(0)) }, "exectest.Lifetime: got 0s, want > 0"},
		{"bad random range", func(tb testing.TB) {
			exectest.AssertCancel(tb, exectest.NewDescendant(tb), ok, exectest.CancelAfterRandom(time.Second, time.Second))
		}, "want 0 <= min < max"},
		{"zero settle time", func(tb testing.TB) {
			exectest.AssertCancel(tb, exectest.NewDescendant(tb), ok, exectest.SettleTime(0))
		}, "exectest.SettleTime: got 0s, want > 0"},
		{"zero proof timeout", func(tb testing.TB) {
			exectest.AssertCancel(tb, exectest.NewDescendant(tb), ok, exectest.ProofTimeout(0))
		}, "exectest.ProofTimeout: got 0s, want > 0"},
		{"descendant used twice", func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, policy(d.Argv()))
			exectest.AssertCancel(tb, d, policy(d.Argv()))
		}, "was already used by an earlier check: create one per check"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runFake(t, c.fn).wantVerdict(t, "fail", c.want)
		})
	}
}

// badSwitch is what a bad value of an EXECTEST_* switch fails with.
const badSwitch = `: got "yes", want one of 1, t, T, true, TRUE or True (on); 0, f, F, false, FALSE, False or unset (off)`

// EXECTEST_STRICT takes what strconv.ParseBool takes. Before, "true" failed
// the test as bad input ("got \"true\", want 1"), and only 1 was on.
func TestStrictValues(t *testing.T) {
	for _, c := range []struct {
		value, verdict, text string
	}{
		{"1", "fail", "failing instead of skipping: EXECTEST_STRICT is on"},
		{"true", "fail", "failing instead of skipping: EXECTEST_STRICT is on"},
		{"TRUE", "fail", "failing instead of skipping: EXECTEST_STRICT is on"},
		{"t", "fail", "failing instead of skipping: EXECTEST_STRICT is on"},
		{"0", "skip", "set EXECTEST_STRICT=1 to make this a failure"},
		{"false", "skip", "set EXECTEST_STRICT=1 to make this a failure"},
		{"F", "skip", "set EXECTEST_STRICT=1 to make this a failure"},
		{"", "skip", "set EXECTEST_STRICT=1 to make this a failure"},
		{"yes", "fail", "exectest: EXECTEST_STRICT" + badSwitch},
	} {
		t.Run(c.value, func(t *testing.T) {
			t.Setenv("EXECTEST_STRICT", c.value)
			f := runFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, neverRuns(nil)) // vacuous: it never runs the command
			})
			f.wantVerdict(t, c.verdict, c.text)
		})
	}
}

// EXECTEST_PORTABLE takes what strconv.ParseBool takes too (see
// internal/proc's TestPortableSwitchValues for the mode each one gives).
func TestBadPortableValue(t *testing.T) {
	for value, want := range map[string]string{"yes": "fail", "True": "skip", "0": "skip"} {
		t.Run(value, func(t *testing.T) {
			t.Setenv("EXECTEST_STRICT", "0")
			t.Setenv("EXECTEST_PORTABLE", value)
			f := runFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, neverRuns(nil))
			})
			if want == "fail" {
				f.wantVerdict(t, "fail", "exectest: EXECTEST_PORTABLE"+badSwitch)
				return
			}
			f.wantVerdict(t, "skip", "vacuous") // the value is accepted: the check runs, and finds nothing to prove
		})
	}
}

func TestWaitAlive(t *testing.T) {
	t.Parallel()
	t.Run("proves", func(t *testing.T) {
		t.Parallel()
		d := exectest.NewDescendant(t, exectest.Lifetime(5*time.Second))
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, d.Argv()[0], d.Argv()[1:]...)
		if err := cancelpolicy.Apply(cmd); err != nil {
			t.Fatal(err)
		}
		//execcheck:ignore tests cancelpolicy.Apply on the waiting fixture, which it stops
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		defer cancel()
		if err := d.WaitAlive(ctx); err != nil {
			t.Fatalf("WaitAlive: got %v, want nil", err)
		}
		if id, ok := d.Process(); !ok || !id.Alive() {
			t.Errorf("Process after WaitAlive: got %v, %v, want a live process", id, ok)
		}
	})
	t.Run("times out saying what it saw", func(t *testing.T) {
		t.Parallel()
		d := exectest.NewDescendant(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		err := d.WaitAlive(ctx)
		if err == nil || !strings.Contains(err.Error(), "no report from the fixture child") || ctx.Err() == nil {
			t.Fatalf("WaitAlive with nothing started: got %v, want a deadline error saying no report came from the fixture child", err)
		}
	})
}
