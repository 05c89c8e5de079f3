package exectest_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/internal/bwrap"
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
		return bwrap.Args(bwrap.Hide("/opt"), bwrap.Bind("/usr/bin/sleep", "/opt/sleep"), bwrap.Bind(sleep, "/usr/bin/sleep"))
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
	needBwrap(t)
	t.Run("kernel tells how it ended", func(t *testing.T) { brokenSleepIsNeverAPass(t, stressRuns(t, 5, 100)) })
	// Before Linux 6.15 the check cannot always ask afterwards: the proof
	// waits for the descendant to be asleep instead.
	t.Run("as on older kernels", func(t *testing.T) {
		defer exectest.AsOnOldKernels()()
		brokenSleepIsNeverAPass(t, stressRuns(t, 5, 20))
	})
}

func brokenSleepIsNeverAPass(t *testing.T, runs int) {
	for name, sandbox := range brokenSleeps(t) {
		for rname, r := range map[string]runner{"default cancel": defaultCancel, "policy": policy, "file stdout": fileStdout} {
			if rname == "policy" && name == "sleep sleeps 150ms" {
				continue // it sleeps at the cancel, and the group kill ends it: a true pass
			}
			t.Run(name+"/"+rname, func(t *testing.T) {
				t.Setenv("EXECTEST_STRICT", "0")
				for i := range runs {
					f := runFake(t, func(tb testing.TB) {
						d := exectest.NewDescendant(tb)
						exectest.AssertCancel(tb, d, prefixed(sandbox, r)(d.Argv()), exectest.Within(500*time.Millisecond))
					})
					// Vacuous, or a failure of the runner's own (the file
					// stdout runner leaves the fixture child behind bwrap);
					// never the command failing to start, which would prove
					// the sandbox wrong instead.
					rep := f.report()
					if v := f.verdict(); v == "pass" || strings.Contains(rep, "run did not start the command") ||
						!strings.Contains(rep, "vacuous") && !strings.Contains(rep, "alive after run returned") {
						t.Fatalf("run %d: got %s, want skip or fail: a descendant that does not sleep tests nothing:%s", i, v, rep)
					}
				}
			})
		}
	}
	t.Run("strict", func(t *testing.T) {
		t.Setenv("EXECTEST_STRICT", "1")
		sandbox := brokenSleeps(t)["sleep sleeps 150ms"]
		f := runFake(t, func(tb testing.TB) {
			d := exectest.NewDescendant(tb)
			exectest.AssertCancel(tb, d, prefixed(sandbox, defaultCancel)(d.Argv()))
		})
		f.wantVerdict(t, "fail", "ended on its own (exited with status 0)", "so the check would pass vacuously", "fix: ", "EXECTEST_STRICT")
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
			exectest.AssertCancel(tb, d, defaultCancel(d.Argv()), exectest.Within(30*time.Second))
		}, "the descendant's lifetime: got 20s, want at least 1m0s (the cancel delay 0s + the bound 30s + 30s)"},
		{"lifetime under the default bound", func(tb testing.TB) {
			d := exectest.NewDescendant(tb, exectest.Lifetime(500*time.Millisecond))
			exectest.AssertCancel(tb, d, defaultCancel(d.Argv()))
		}, "the descendant's lifetime: got 500ms, want at least 3s"},
		{"cancel delay eats the lifetime", func(tb testing.TB) {
			d := exectest.NewDescendant(tb, exectest.Lifetime(4*time.Second))
			exectest.AssertCancel(tb, d, defaultCancel(d.Argv()), exectest.CancelAfterRandom(0, 2*time.Second))
		}, "got 4s, want at least 5s (the cancel delay 2s + the bound 1s + 2s)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runFake(t, c.fn).wantVerdict(t, "fail", c.want, "fix: exectest.NewDescendant(t, exectest.Lifetime(")
		})
	}
}

// Before the survivors were taken at the moment run returns, the grace
// given to processes being killed let this runner pass.
func TestReturnBeforeTheKillIsASurvivor(t *testing.T) {
	for _, sh := range shapes {
		for _, after := range []time.Duration{100 * time.Millisecond, 450 * time.Millisecond} {
			t.Run(sh.name+"/"+after.String(), func(t *testing.T) {
				t.Parallel()
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb, sh.opts...)
					exectest.AssertCancel(tb, d, lateKill(after)(d.Argv()))
				})
				f.wantVerdict(t, "fail", "fixture processes alive after run returned", "alive and not being killed when run returned", sh.sleepText)
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

// One early cancel may lose the race with start-up; a series in which the
// fixture never once started proves nothing. Before the series was
// counted, every one of these passed.
func TestEarlyCancelSeriesThatNeverStarts(t *testing.T) {
	for name, opt := range map[string]exectest.Option{
		"after 0":             exectest.CancelAfter(0),
		"after random 0-20ms": exectest.CancelAfterRandom(0, 20*time.Millisecond),
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("EXECTEST_STRICT", "0")
			for i := 1; i <= 20; i++ {
				f := runFake(t, func(tb testing.TB) {
					d := exectest.NewDescendant(tb)
					exectest.AssertCancel(tb, d, waitsForCancel(d.Argv()), opt)
				})
				if i < 20 {
					f.wantVerdict(t, "pass")
					continue
				}
				f.wantVerdict(t, "skip", "early-cancel checks of "+t.Name()+": got 20 in which the fixture never started", "fix: ")
			}
		})
	}
	t.Run("a correct runner starts the fixture", func(t *testing.T) {
		for range 25 {
			f := runFake(t, func(tb testing.TB) {
				d := exectest.NewDescendant(tb)
				exectest.AssertCancel(tb, d, policy(d.Argv()), exectest.CancelAfterRandom(5*time.Millisecond, 30*time.Millisecond))
			})
			f.wantVerdict(t, "pass")
		}
	})
}
