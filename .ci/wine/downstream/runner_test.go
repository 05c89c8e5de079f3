package downstream

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/exectest/exectest"
	"github.com/exectest/exectest/proctest"
	"github.com/exectest/exectest/recorder"
)

// A module of a user's, built for windows and run under Wine by
// .ci/wine/downstream.sh, with a replace to the checkout: what it sees of
// exectest is its public API.
func TestMain(m *testing.M) { exectest.VerifyTestMain(m) }

// check runs one AssertCancel on a recorder and wants its verdict and
// words.
func check(t *testing.T, run func(context.Context, []string) error, want string, words []string, opts ...exectest.DescendantOption) {
	t.Helper()
	rec := recorder.Run(t, t.Name(), func(tb testing.TB) {
		d := exectest.NewDescendant(tb, opts...)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error { return run(ctx, d.Argv()) }, exectest.ProofTimeout(30*time.Second))
	})
	if rec.Verdict() != want {
		t.Fatalf("verdict: got %s, want %s:\n%s", rec.Verdict(), want, rec.Report())
	}
	for _, w := range words {
		if !strings.Contains(rec.Report(), w) {
			t.Errorf("report: got\n%s\nwant it to contain %q", rec.Report(), w)
		}
	}
	t.Logf("%s, as expected:\n%s", want, rec.Report())
}

func TestNaiveFailsNamingTheDescendant(t *testing.T) {
	check(t, Naive, recorder.Fail, []string{"did not return within the bound", "(descendant)", "fix: ", "cancelpolicy.Run(ctx, cmd)"})
}

func TestWaitDelayFailsForTheSurvivor(t *testing.T) {
	check(t, WaitDelayOnly, recorder.Fail, []string{"alive after run returned: got 1, want 0", "(descendant)", "fix: "})
}

func TestFixedPasses(t *testing.T) {
	check(t, Fixed, recorder.Pass, nil)
	check(t, Fixed, recorder.Pass, nil, exectest.Launcher())
}

// A table-driven test, as users write them, cancelled at random moments.
func TestFixedTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []exectest.DescendantOption
	}{{"waiting", nil}, {"launcher", []exectest.DescendantOption{exectest.Launcher()}}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := exectest.NewDescendant(t, tc.opts...)
			exectest.AssertCancel(t, d, func(ctx context.Context) error { return Fixed(ctx, d.Argv()) },
				exectest.CancelAfterRandom(0, time.Second), exectest.ProofTimeout(30*time.Second))
		})
	}
}

func TestNeverRunSkipsOrFailsUnderStrict(t *testing.T) {
	want := recorder.Skip
	if os.Getenv("EXECTEST_STRICT") == "1" {
		want = recorder.Fail
	}
	rec := recorder.Run(t, t.Name(), func(tb testing.TB) {
		d := exectest.NewDescendant(tb)
		exectest.AssertCancel(tb, d, func(ctx context.Context) error { return Never(ctx, d.Argv()) }, exectest.ProofTimeout(time.Second))
	})
	if rec.Verdict() != want || !strings.Contains(rec.Report(), "never proved it runs") {
		t.Errorf("a runner that never runs the command: got %s:\n%s\nwant %s, saying the descendant never proved it runs", rec.Verdict(), rec.Report(), want)
	}
}

func TestVerifyNoneCatchesALeak(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	base := proctest.IgnoreCurrent()
	leak := exec.Command(exe, "-test.run=^$", "-test.bench=^BenchmarkSleep$", "-test.benchtime=30s")
	if err := leak.Start(); err != nil {
		t.Fatal(err)
	}
	defer leak.Wait()
	rec := recorder.Run(t, t.Name(), func(tb testing.TB) { proctest.VerifyNone(tb, base) })
	if rec.Verdict() != recorder.Fail || !strings.Contains(rec.Report(), "BenchmarkSleep") {
		t.Errorf("proctest.VerifyNone with a leaked process: got %s:\n%s\nwant a failure naming it", rec.Verdict(), rec.Report())
	}
}

// BenchmarkSleep is the leaked process's work.
func BenchmarkSleep(b *testing.B) {
	for b.Loop() {
		time.Sleep(10 * time.Millisecond)
	}
}
