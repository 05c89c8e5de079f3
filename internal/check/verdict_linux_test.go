package check_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/check"
	"github.com/exectest/exectest/internal/systemtest"
	"github.com/exectest/exectest/internal/testenv"
)

// brokenSleeps are roots where /bin/sleep starts but does not sleep out its
// lifetime: each lets a runner with the default Cancel pass vacuously
// unless the check proves the descendant alive at the cancel and sees how
// it ended. The real sleep stays reachable at /opt/sleep for the scripts.
func brokenSleeps(t *testing.T) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The real sleep with its libc renamed: the dynamic loader cannot find it.
	real, err := os.ReadFile("/usr/bin/sleep")
	if err != nil {
		t.Fatal(err)
	}
	noLibs := bytes.Replace(real, []byte("libc.so.6\x00"), []byte("libZ.so.6\x00"), 1)
	if bytes.Equal(noLibs, real) {
		t.Fatalf("/usr/bin/sleep: got no libc.so.6 to rename, want a dynamically linked sleep")
	}
	noLibsPath := filepath.Join(dir, "sleep-without-libc")
	if err := os.WriteFile(noLibsPath, noLibs, 0o755); err != nil {
		t.Fatal(err)
	}
	root := func(sleep string) []string {
		return testenv.BwrapArgs(testenv.BwrapHide("/opt"), testenv.BwrapBind("/usr/bin/sleep", "/opt/sleep"), testenv.BwrapBind(sleep, "/usr/bin/sleep"))
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]string{
		"sleep sleeps 150ms":        root(self), // see shortSleep
		"sleep is true":             root("/usr/bin/true"),
		"sleep is a 5ms script":     root(script("sleep-5ms", "#!/bin/sh\n/opt/sleep 0.005\n")),
		"sleep is a 300ms script":   root(script("sleep-300ms", "#!/bin/sh\n/opt/sleep 0.3\n")),
		"sleep lacks its libraries": root(noLibsPath),
		"sleep exits 0 after 100ms": root(script("sleep-exit", "#!/bin/sh\n/opt/sleep 0.1; exit 0\n")),
	}
}

// A /bin/sleep that starts but does not sleep must never let a check
// pass: the check is vacuous (skipped; failed under EXECTEST_STRICT=1),
// for a broken runner and a correct one alike. Before the proof had to
// hold at the cancel and the descendant's end was looked at, the default
// Cancel passed here 9 times in 10.
func TestBrokenSleepIsNeverAPass(t *testing.T) {
	testenv.NeedBwrap(t)
	t.Run("kernel tells how it ended", func(t *testing.T) { brokenSleepIsNeverAPass(t, stressRuns(t, 5, 100)) })
	// Before Linux 6.15 the check cannot always ask afterwards: the proof
	// waits for the descendant to be asleep instead.
	t.Run("as on older kernels", func(t *testing.T) {
		defer check.AsOnOldKernels()()
		brokenSleepIsNeverAPass(t, stressRuns(t, 5, 20))
	})
}

func brokenSleepIsNeverAPass(t *testing.T, runs int) {
	for name, sandbox := range brokenSleeps(t) {
		for rname, r := range map[string]systemtest.Runner{"default cancel": systemtest.DefaultCancel, "policy": systemtest.Policy, "file stdout": systemtest.FileStdout} {
			if rname == "policy" && name == "sleep sleeps 150ms" {
				continue // it sleeps at the cancel, and the group kill ends it: a true pass
			}
			t.Run(name+"/"+rname, func(t *testing.T) {
				t.Setenv("EXECTEST_STRICT", "0")
				hung := 0
				for i := range runs {
					f := systemtest.RunFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb)
						exectest.AssertCancel(tb, d, prefixed(sandbox, r)(d.Argv()), exectest.Within(500*time.Millisecond))
					})
					// Vacuous, or a failure of the runner's own (the file
					// stdout runner leaves the fixture child behind bwrap);
					// never the command failing to start, which would prove
					// the sandbox wrong instead. Under load a broken sleep
					// may still run at the bound, and hold the pipe: a
					// true hang, but not what this tests (counted below).
					rep := f.Recorded()
					v := f.Verdict()
					if v == "fail" && strings.Contains(rep, "did not return within the bound") {
						hung++
						continue
					}
					if v == "pass" || strings.Contains(rep, "run did not start the command") ||
						!strings.Contains(rep, "vacuous") && !strings.Contains(rep, "alive after run returned") {
						t.Fatalf("run %d: got %s, want skip or fail: a descendant that does not sleep tests nothing:%s", i, v, rep)
					}
				}
				if hung == runs {
					t.Skipf("every one of %d runs hung: the broken sleep still ran at the 500ms bound (a loaded machine), so none tested the vacuous-pass guard; none passed", runs)
				}
			})
		}
	}
	t.Run("strict", func(t *testing.T) {
		t.Setenv("EXECTEST_STRICT", "1")
		sandbox := brokenSleeps(t)["sleep sleeps 150ms"]
		f := systemtest.RunFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, prefixed(sandbox, systemtest.DefaultCancel)(d.Argv()))
		})
		f.WantVerdict(t, "fail", "ended on its own (exited with status 0)", "so the check would pass vacuously", "fix: ", "EXECTEST_STRICT")
	})
}

// The descendant must outlive the check: a hung run would otherwise pass
// when the descendant ends on its own. Before this was checked, both of
// these passed with a runner that hangs.
func TestLifetimeMustOutlastTheCheck(t *testing.T) {
	cases := []struct {
		name string
		fn   func(tb testing.TB)
		want string
	}{
		{"bound past the default lifetime", func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, systemtest.DefaultCancel(d.Argv()), exectest.Within(30*time.Second))
		}, "the descendant's lifetime: got 20s, want at least 1m0s (the cancel delay 0s + the bound 30s + 30s)"},
		{"lifetime under the default bound", func(tb testing.TB) {
			d := exectest.NewDescendant(tb, exectest.Lifetime(500*time.Millisecond))
			exectest.AssertCancel(tb, d, systemtest.DefaultCancel(d.Argv()))
		}, "the descendant's lifetime: got 500ms, want at least 3s"},
		{"cancel delay eats the lifetime", func(tb testing.TB) {
			d := exectest.NewDescendant(tb, exectest.Lifetime(4*time.Second))
			exectest.AssertCancel(tb, d, systemtest.DefaultCancel(d.Argv()), exectest.CancelAfterRandom(0, 2*time.Second))
		}, "got 4s, want at least 5s (the cancel delay 2s + the bound 1s + 2s)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			systemtest.RunFake(t, c.fn).WantVerdict(t, "fail", c.want, "fix: exectest.NewDescendant(t, exectest.Lifetime(")
		})
	}
}

// Before the survivors were taken at the moment run returns, the grace
// given to processes being killed let this runner pass.
func TestReturnBeforeTheKillIsASurvivor(t *testing.T) {
	for _, sh := range systemtest.Shapes {
		for _, after := range []time.Duration{100 * time.Millisecond, 450 * time.Millisecond} {
			t.Run(sh.Name+"/"+after.String(), func(t *testing.T) {
				t.Parallel()
				f := systemtest.RunFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.Opts...)
					exectest.AssertCancel(tb, d, systemtest.LateKill(after)(d.Argv()))
				})
				f.WantVerdict(t, "fail", "fixture processes alive after run returned", "alive and not being killed when run returned", sh.SleepText)
			})
		}
	}
}

// waitsForCancel never runs the command: it waits for the cancel.
func waitsForCancel([]string) func(context.Context) error {
	return func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	}
}

// runConcurrently runs fn as a test on a recorder under each name at once,
// and returns the fakes in the order of names: a series of checks costs
// one check's time, and its verdicts, counted, are the same in any order.
func runConcurrently(t *testing.T, names []string, fn func(tb testing.TB)) []systemtest.Fake {
	t.Helper()
	fakes := make([]systemtest.Fake, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() { fakes[i] = systemtest.RunFakeAs(t, name, fn) })
	}
	wg.Wait()
	return fakes
}

// wantVerdicts fails t unless the fakes ended as want counts, and the
// first of them with each verdict also holds wantText[verdict].
func wantVerdicts(t *testing.T, fakes []systemtest.Fake, want map[string]int, wantText map[string][]string) {
	t.Helper()
	got := map[string]int{}
	for _, f := range fakes {
		got[f.Verdict()]++
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		for _, f := range fakes {
			if f.Verdict() != "pass" {
				t.Logf("a %s:%s", f.Verdict(), f.Recorded())
				break
			}
		}
		t.Fatalf("verdicts of %d checks: got %v, want %v", len(fakes), got, want)
	}
	for verdict, text := range wantText {
		for _, f := range fakes {
			if f.Verdict() == verdict {
				f.WantVerdict(t, verdict, text...)
				break
			}
		}
	}
}

// times is name n times: one row repeated, as by go test -count=n.
func times(n int, name string) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = name
	}
	return names
}

// earlySeriesLength is exectest's: 20 checks make a series.
const earlySeriesLength = 20

// One early cancel may lose the race with start-up; a series in which the
// fixture never once started proves nothing. Before the series was
// counted, every one of these passed. Each run names its fakes afresh:
// the series carries over between -count runs, as designed for users, and
// before it did, two of three runs under -count=3 skipped here.
func TestEarlyCancelSeriesThatNeverStarts(t *testing.T) {
	t.Setenv("EXECTEST_STRICT", "0")
	for name, opt := range map[string]exectest.Option{
		"after 0":             exectest.CancelAfter(0),
		"after random 0-20ms": exectest.CancelAfterRandom(0, 20*time.Millisecond),
	} {
		t.Run(name, func(t *testing.T) {
			row := systemtest.FreshName(t) + "/row" // one row, as under -count=20
			fakes := runConcurrently(t, times(earlySeriesLength, row), func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, waitsForCancel(d.Argv()), opt)
			})
			wantVerdicts(t, fakes, map[string]int{"pass": earlySeriesLength - 1, "skip": 1},
				map[string][]string{"skip": {"early-cancel checks of " + row + ": got 20 in which the fixture never started", "fix: "}})
		})
	}
	t.Run("a correct runner starts the fixture", func(t *testing.T) {
		name := systemtest.FreshName(t)
		for range earlySeriesLength + 1 { // one at a time: the fixture starts within 5-30ms
			f := systemtest.RunFakeAs(t, name, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()), exectest.CancelAfterRandom(5*time.Millisecond, 30*time.Millisecond))
			})
			f.WantVerdict(t, "pass")
		}
	})
}

// Table-driven tests are how the toolkit is used: the rows of one test
// (its t.Run subtests) are one series, in one run and across -count runs.
// Before, the series was keyed by the row's full name: each row was a
// series of one, and all 30 of these checks passed under
// EXECTEST_STRICT=1.
func TestEarlyCancelSeriesAcrossRows(t *testing.T) {
	t.Setenv("EXECTEST_STRICT", "1")
	for name, rows := range map[string]func(top string) []string{
		"30 rows": func(top string) (rows []string) {
			for i := range 30 {
				rows = append(rows, fmt.Sprintf("%s/row_%d", top, i))
			}
			return rows
		},
		"10 rows, -count=3": func(top string) (rows []string) {
			for range 3 {
				for i := range 10 {
					rows = append(rows, fmt.Sprintf("%s/row_%d", top, i))
				}
			}
			return rows
		},
	} {
		t.Run(name, func(t *testing.T) {
			top := systemtest.FreshName(t)
			fakes := runConcurrently(t, rows(top), func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				// The series is under test, not the bound: 30 checks at
				// once on a loaded machine take a while to return.
				exectest.AssertCancel(tb, d, waitsForCancel(d.Argv()), exectest.CancelAfter(5*time.Millisecond), exectest.Within(5*time.Second))
			})
			// 19 pass; from the 20th on, each fails.
			wantVerdicts(t, fakes, map[string]int{"pass": earlySeriesLength - 1, "fail": 30 - earlySeriesLength + 1},
				map[string][]string{"fail": {"early-cancel checks of " + top + " (its rows counted together): got ", "in which the fixture never started", "failing instead of skipping"}})
		})
	}
}

// A row repeated by -count is a series of its own, also where the test's
// other rows start the fixture.
func TestEarlyCancelSeriesOfOneRow(t *testing.T) {
	t.Setenv("EXECTEST_STRICT", "0")
	top := systemtest.FreshName(t)
	good := runConcurrently(t, []string{top + "/good_1", top + "/good_2", top + "/good_3"}, func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()), exectest.CancelAfter(300*time.Millisecond)) // started by then
	})
	wantVerdicts(t, good, map[string]int{"pass": 3}, nil)
	row := top + "/broken"
	fakes := runConcurrently(t, times(earlySeriesLength, row), func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, waitsForCancel(d.Argv()), exectest.CancelAfter(0))
	})
	wantVerdicts(t, fakes, map[string]int{"pass": earlySeriesLength - 1, "skip": 1},
		map[string][]string{"skip": {"early-cancel checks of " + row + ": got 20 in which the fixture never started"}})
}

// When every early cancel of a test comes before the descendant proved it
// runs, the checks test a cancel during start-up only: said once, with the
// fixture's start-up measured, and a window that spans it. Before, they
// passed without a word. The fix line is a claim: with the window it
// names, a correct runner's checks cancel after the proof too, and the
// note does not come.
func TestEarlyCancelsThatAllLoseTheRace(t *testing.T) {
	name := systemtest.FreshName(t)
	const note = "every one before the descendant proved it runs"
	var fix string
	for _, f := range runConcurrently(t, times(earlySeriesLength+1, name), func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		// run waits for the fixture child's start, which 21 at once
		// on a loaded machine can take a while: a bound to match.
		exectest.AssertCancel(tb, d, stopsOnceStarted(d), exectest.CancelAfter(0), exectest.Within(5*time.Second))
	}) {
		f.WantVerdict(t, "pass")
		if !strings.Contains(f.Recorded(), note) {
			continue
		}
		if fix != "" {
			t.Fatalf("got the note twice, want it once:%s", f.Recorded())
		}
		f.WantVerdict(t, "pass", "exectest: early-cancel checks of "+name+": got 20 cancels, "+note,
			"the fixture's start-up, measured now", "from its start to the descendant's proof of life", "fix: cancel over a window that spans it: exectest.CancelAfterRandom(0, ")
		fix = f.Recorded()
	}
	if fix == "" {
		t.Fatalf("%d early cancels, every one before the proof: got no note, want one", earlySeriesLength+1)
	}
	var upTo int
	if _, err := fmt.Sscanf(fix[strings.Index(fix, "CancelAfterRandom(0, "):], "CancelAfterRandom(0, %d*time.Millisecond)", &upTo); err != nil || upTo <= 0 {
		t.Fatalf("fix line: got %v reading the window's end from%s", err, fix)
	}
	// The window is the start-up measured a moment ago: a load that
	// comes since can make every start in it slower. A series in which
	// the fixture never started at all is that premise broken, not the
	// fix line: it is tried again, and skipped with the reason if the
	// load persists.
	const neverStarted = "in which the fixture never started"
	for try := 1; ; try++ {
		fixedName := systemtest.FreshName(t)
		proved, vacuous := 0, ""
		for range earlySeriesLength {
			f := systemtest.RunFakeAs(t, fixedName, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				if exectest.AssertCancel(tb, d, systemtest.Policy(d.Argv()), exectest.CancelAfterRandom(0, time.Duration(upTo)*time.Millisecond)).Proved {
					proved++
				}
			})
			if strings.Contains(f.Recorded(), neverStarted) && proved == 0 {
				vacuous = f.Recorded()
				continue
			}
			f.WantVerdict(t, "pass")
			if strings.Contains(f.Recorded(), note) {
				t.Fatalf("with the window the fix line names, [0, %dms): got the note again:%s", upTo, f.Recorded())
			}
		}
		switch {
		case vacuous != "" && try < 3:
			t.Logf("with the window the fix line names, [0, %dms), series %d: the fixture never started in any check (a load since the start-up was measured): trying again", upTo, try)
			continue
		case vacuous != "":
			t.Skipf("with the window the fix line names, [0, %dms): the fixture never started in any check of %d series: the machine is too loaded for the start-up measured to hold:%s", upTo, try, vacuous)
		case proved == 0:
			t.Errorf("with the window the fix line names, [0, %dms): got no cancel after the proof in %d checks, want some", upTo, earlySeriesLength)
		}
		return
	}
}
