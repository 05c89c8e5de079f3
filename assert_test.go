//go:build unix

package exectest_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/cancelpolicy"
	"github.com/exectest/exectest/internal/systemtest"
)

func TestAssertCancelVerdicts(t *testing.T) {
	cases := []struct {
		name     string
		run      systemtest.Runner
		script   bool // run d.Script() instead of d.Argv()
		verdict  string
		wantText []string
	}{
		{"default cancel", systemtest.DefaultCancel, false, "fail", []string{"run did not return within the bound after cancel", "want return within 1s", "(descendant)", "holds the write end of the command's stdout+stderr pipe:["}},
		{"kill only", systemtest.KillOnly, false, "fail", []string{"run did not return within the bound after cancel", "(descendant)", "pipe:["}},
		{"wait delay only", systemtest.WaitDelayOnly, false, "fail", []string{"fixture processes alive after run returned: got 1, want 0", "(descendant)"}},
		{"fixed", systemtest.Fixed, false, "pass", nil},
		{"policy", systemtest.Policy, false, "pass", nil},
		{"script with policy", systemtest.Policy, true, "pass", nil},
		{"script with default cancel", systemtest.DefaultCancel, true, "fail", []string{"run did not return within the bound after cancel", "pipe:["}},
		{"separate stdout and stderr", systemtest.SeparateOutputs, false, "fail", []string{"holds the write end of the command's stdout pipe:[", " and stderr pipe:["}},
		{"file stdout with default cancel", systemtest.FileStdout, false, "fail", []string{"fixture processes alive after run returned: got 1, want 0", "(descendant)"}},
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
	for _, sh := range systemtest.Shapes {
		for _, c := range cases {
			t.Run(sh.Name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				start := time.Now()
				var res exectest.Result
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.Opts...)
					argv := d.Argv()
					if c.script {
						argv = []string{d.Script()}
					}
					res = exectest.AssertCancel(tb, d, c.run(argv))
				})
				want := systemtest.Reachable(c.wantText)
				if c.verdict == "fail" {
					want = append(want, sh.SleepText)
				}
				f.WantVerdict(t, c.verdict, want...)
				if cost := time.Since(start); cost > systemtest.HungCost {
					t.Errorf("check cost: got %v, want at most %v (the bound, not the descendant's lifetime)", cost, systemtest.HungCost)
				}
				if res.Failed != (c.verdict == "fail") {
					t.Errorf("Result.Failed: got %v, want %v: the verdict the check reported, %s", res.Failed, !res.Failed, c.verdict)
				}
				if systemtest.Portable != strings.HasPrefix(res.Tracker, "portable mode: ") {
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
	for _, sh := range systemtest.Shapes {
		for name, r := range map[string]systemtest.Runner{"fixed": systemtest.Fixed, "policy": systemtest.Policy} {
			t.Run(sh.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				var res exectest.Result
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, append([]exectest.DescendantOption{exectest.Escaping()}, sh.Opts...)...)
					res = exectest.AssertCancel(tb, d, r(d.Argv()))
				})
				f.WantVerdict(t, "fail", "(descendant, escaped into its own session)", sh.SleepText)
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
		name          string
		run           systemtest.Runner
		wantText, fix string
	}{
		{"never runs", systemtest.NeverRuns, "no report from the fixture child: run did not start the command",
			"fix: run must start d.Argv() (or d.Script()) under ctx"},
		{"missing binary", systemtest.MissingBinary, "no such file or directory",
			`fix: the command did not start: run returned err = "fork/exec `},
	}
	for _, strict := range []string{"0", "1"} {
		for _, c := range cases {
			t.Run(c.name+"/strict="+strict, func(t *testing.T) {
				t.Setenv("EXECTEST_STRICT", strict)
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb)
					exectest.AssertCancel(tb, d, c.run(d.Argv()))
				})
				want := map[string]string{"0": "skip", "1": "fail"}[strict]
				f.WantVerdict(t, want, "the descendant never proved it runs", c.wantText, "EXECTEST_STRICT", c.fix)
			})
		}
	}
}

func TestAssertCancelRunPanics(t *testing.T) {
	var res exectest.Result
	f := systemtest.RunFake(t, func(tb testing.TB) {
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
	f.WantVerdict(t, "fail", "run panicked: runner exploded", "goroutine")
	if res.Panic != "runner exploded" {
		t.Errorf("Result.Panic: got %v, want %q", res.Panic, "runner exploded")
	}
}

func TestAssertCancelRunNeverReturns(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	var res exectest.Result
	f := systemtest.RunFake(t, func(tb testing.TB) {
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
	f.WantVerdict(t, "fail", "run did not return within the bound", "its goroutine is leaked")
	if res.Returned {
		t.Errorf("Result.Returned: got true, want false")
	}
	if cost := time.Since(start); cost > 200*time.Millisecond+systemtest.HungCost {
		t.Errorf("cost of a run that never returns: got %v, want at most %v", cost, 200*time.Millisecond+systemtest.HungCost)
	}
}

func TestAssertCancelEarlyCancel(t *testing.T) {
	// A correct runner passes wherever the cancel lands in start-up.
	for _, sh := range systemtest.Shapes {
		for name, opt := range map[string]exectest.Option{
			"after 0":           exectest.CancelAfter(0),
			"after random 0-20": exectest.CancelAfterRandom(0, 20*time.Millisecond),
		} {
			t.Run(sh.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				// Each check on its own, not as a series of the test's
				// (see TestEarlyCancelSeriesAcrossRows): a fresh name.
				fresh := systemtest.FreshName(t)
				for range 5 {
					f := systemtest.RunFakeAs(t, fresh, func(tb testing.TB) {
						d := exectest.NewDescendant(tb, sh.Opts...)
						exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()), opt)
					})
					f.WantVerdict(t, "pass")
				}
			})
		}
	}
}

func TestAssertCancelRunReturnsEarlyLeavingProcesses(t *testing.T) {
	// A runner that starts the command and returns at once, never waiting.
	var cmd *exec.Cmd
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error {
			cmd = exec.Command(d.Argv()[0], d.Argv()[1:]...)
			return cmd.Start()
		})
	})
	cmd.Wait() // reap the killed child, as GODEBUG=execwait=2 wants
	f.WantVerdict(t, "fail", "fixture processes alive after run returned", "run returned before the cancel")
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
			exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()))
			exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()))
		}, "was already used by an earlier check, the check in "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			systemtest.RunFake(t, c.fn).WantVerdict(t, "fail", c.want)
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
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, systemtest.NeverRuns(nil)) // vacuous: it never runs the command
			})
			f.WantVerdict(t, c.verdict, c.text)
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
			f := systemtest.RunFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, systemtest.NeverRuns(nil))
			})
			if want == "fail" {
				f.WantVerdict(t, "fail", "exectest: EXECTEST_PORTABLE"+badSwitch)
				return
			}
			f.WantVerdict(t, "skip", "vacuous") // the value is accepted: the check runs, and finds nothing to prove
		})
	}
}

// A Descendant reused for a second check is named by the test that made
// it and where, and the check that used it: the message said
// "exectest-f2149da40f38 was already used by an earlier check", the
// toolkit's own token, which says nothing to the test's author.
func TestReusedDescendantNamedByItsTest(t *testing.T) {
	var made, used string
	f := systemtest.RunFake(t, func(tb testing.TB) {
		d, at := exectest.NewDescendant(tb), here()
		made = at
		used = calledAt(exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv())))
		exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()))
	})
	f.WantVerdict(t, "fail", fmt.Sprintf("exectest.AssertCancel: the Descendant that %s made (at %s) was already used by an earlier check, the check in %s at %s: create one per check", t.Name(), made, t.Name(), used))
	if token := regexp.MustCompile(`exectest-[0-9a-f]{12}\b`).FindString(f.Recorded()); token != "" {
		t.Errorf("message: got the fixture's token %s, want it named by its test:%s", token, f.Recorded())
	}
}

// here is its caller's file:line.
func here() string {
	_, file, line, _ := runtime.Caller(1)
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}

// calledAt is the file:line of the call whose result it takes: its own.
func calledAt(exectest.Result) string {
	_, file, line, _ := runtime.Caller(1)
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}
