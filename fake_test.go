package exectest_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fakeTB records what a check reports instead of reporting it, so that a
// test can show the check fails on a broken runner. FailNow and SkipNow end
// the calling goroutine, as testing.T's do.
type fakeTB struct {
	testing.TB // the real test, for Name, TempDir and the like

	mu       sync.Mutex
	errors   []string
	skips    []string
	logs     []string
	failed   bool
	skipped  bool
	cleanups []func()
}

// runFake runs fn as a test on a fakeTB, then its cleanups.
func runFake(t testing.TB, fn func(tb testing.TB)) *fakeTB {
	t.Helper()
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		done := make(chan struct{})
		go func() {
			defer close(done)
			f.cleanups[i]()
		}()
		<-done
	}
	return f
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
	f.failed = true
}

func (f *fakeTB) Error(args ...any) { f.Errorf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}
func (f *fakeTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Fail() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
}
func (f *fakeTB) FailNow() {
	f.Fail()
	runtime.Goexit()
}
func (f *fakeTB) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.mu.Lock()
	f.skips = append(f.skips, fmt.Sprintf(format, args...))
	f.skipped = true
	f.mu.Unlock()
	runtime.Goexit()
}
func (f *fakeTB) Skip(args ...any) { f.Skipf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) SkipNow()         { f.Skipf("") }
func (f *fakeTB) Skipped() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.skipped
}
func (f *fakeTB) Logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Log(args ...any) { f.Logf("%s", fmt.Sprint(args...)) }
func (f *fakeTB) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

// verdict is how the fake test ended: "fail", "skip" or "pass".
func (f *fakeTB) verdict() string {
	switch {
	case f.Failed():
		return "fail"
	case f.Skipped():
		return "skip"
	}
	return "pass"
}

// report is everything the fake recorded, for a test's own failure message.
func (f *fakeTB) report() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, e := range f.errors {
		b.WriteString("\n  error: " + e)
	}
	for _, s := range f.skips {
		b.WriteString("\n  skip: " + s)
	}
	for _, l := range f.logs {
		b.WriteString("\n  log: " + l)
	}
	return b.String()
}

// wantVerdict fails t unless the fake ended as want and its messages hold
// every one of wantText.
func (f *fakeTB) wantVerdict(t *testing.T, want string, wantText ...string) {
	t.Helper()
	if got := f.verdict(); got != want {
		t.Fatalf("verdict: got %s, want %s; recorded:%s", got, want, f.report())
	}
	rep := f.report()
	// Under -v this is the verdict matrix: what each runner got, and why.
	t.Logf("verdict: %s, as expected%s", want, rep)
	for _, w := range wantText {
		if !strings.Contains(rep, w) {
			t.Errorf("message: got %s\nwant it to contain %q", rep, w)
		}
	}
}
