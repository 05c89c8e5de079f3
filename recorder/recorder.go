// Package recorder runs a check against a [testing.TB] that records what
// it reports instead of reporting it: for a test that shows a check fails
// on a broken runner and passes on a sound one (as goleak's own tests
// do), an Example that prints a failure, or a program that tabulates
// verdicts, as examples/matrix does.
//
//	rec := recorder.Run(t, "default cancel", func(tb testing.TB) {
//		d := exectest.NewDescendant(tb)
//		exectest.AssertCancel(tb, d, run(d.Argv()))
//	})
//	if rec.Verdict() != recorder.Fail { ... }
package recorder

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Verdicts.
const (
	Pass = "pass"
	Fail = "fail"
	Skip = "skip"
)

// T is a [testing.TB] that records. FailNow and SkipNow (and so Fatal and
// Skip) end the calling goroutine, as they do in a test.
type T struct {
	testing.TB // unused but for its private method; nil is fine

	name   string
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	errors   []string
	skips    []string
	logs     []string
	failed   bool
	skipped  bool
	cleanups []func()
}

// Run calls fn with a recording T on a goroutine of its own, then runs the
// cleanups fn registered, last first, and returns the T. The parent, if
// not nil, is only marked as a helper's caller.
func Run(parent testing.TB, name string, fn func(tb testing.TB)) *T {
	if parent != nil {
		parent.Helper()
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &T{name: name, ctx: ctx, cancel: cancel}
	onGoroutine(func() { fn(t) })
	cancel() // as testing does: Context is done before the cleanups run
	for {
		t.mu.Lock()
		if len(t.cleanups) == 0 {
			t.mu.Unlock()
			break
		}
		f := t.cleanups[len(t.cleanups)-1]
		t.cleanups = t.cleanups[:len(t.cleanups)-1]
		t.mu.Unlock()
		onGoroutine(f) // a cleanup may call FailNow too
	}
	return t
}

func onGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// Recording reports that t records what is reported instead of reporting
// it: exectest leaves the checks skipped on t out of the count of skipped
// checks that [github.com/exectest/exectest.VerifyTestMain] prints.
func (t *T) Recording() bool { return true }

// Verdict is how the recorded test ended: [Fail], [Skip] or [Pass].
func (t *T) Verdict() string {
	switch {
	case t.Failed():
		return Fail
	case t.Skipped():
		return Skip
	}
	return Pass
}

// Errors, Skips and Logs return what was reported, in order.
func (t *T) Errors() []string { return t.copyOf(&t.errors) }
func (t *T) Skips() []string  { return t.copyOf(&t.skips) }
func (t *T) Logs() []string   { return t.copyOf(&t.logs) }

func (t *T) copyOf(s *[]string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), *s...)
}

// Report is everything recorded, one "kind: text" entry per report.
func (t *T) Report() string {
	var b strings.Builder
	for _, kind := range []struct {
		name string
		list []string
	}{{"error", t.Errors()}, {"skip", t.Skips()}, {"log", t.Logs()}} {
		for _, s := range kind.list {
			fmt.Fprintf(&b, "%s: %s\n", kind.name, s)
		}
	}
	return b.String()
}

func (t *T) record(list *[]string, s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	*list = append(*list, s)
}

// The testing.TB methods.

func (t *T) Helper()      {}
func (t *T) Name() string { return t.name }
func (t *T) Fail() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failed = true
}
func (t *T) Failed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.failed
}
func (t *T) FailNow() {
	t.Fail()
	runtime.Goexit()
}
func (t *T) Errorf(format string, args ...any) {
	t.record(&t.errors, fmt.Sprintf(format, args...))
	t.Fail()
}
func (t *T) Error(args ...any) { t.Errorf("%s", fmt.Sprint(args...)) }
func (t *T) Fatalf(format string, args ...any) {
	t.Errorf(format, args...)
	runtime.Goexit()
}
func (t *T) Fatal(args ...any) { t.Fatalf("%s", fmt.Sprint(args...)) }
func (t *T) Skipf(format string, args ...any) {
	t.record(&t.skips, fmt.Sprintf(format, args...))
	t.SkipNow()
}
func (t *T) Skip(args ...any) { t.Skipf("%s", fmt.Sprint(args...)) }
func (t *T) SkipNow() {
	t.mu.Lock()
	t.skipped = true
	t.mu.Unlock()
	runtime.Goexit()
}
func (t *T) Skipped() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.skipped
}
func (t *T) Logf(format string, args ...any) { t.record(&t.logs, fmt.Sprintf(format, args...)) }
func (t *T) Log(args ...any)                 { t.Logf("%s", fmt.Sprint(args...)) }
func (t *T) Cleanup(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cleanups = append(t.cleanups, f)
}

// PendingCleanups is how many cleanups are registered and not run yet.
func (t *T) PendingCleanups() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.cleanups)
}

func (t *T) Context() context.Context { return t.ctx }
func (t *T) Output() io.Writer        { return logWriter{t} }
func (t *T) Attr(key, value string)   { t.Logf("attr %s=%s", key, value) }

// TempDir, ArtifactDir, Setenv and Chdir do what testing.T's do, undone
// by a cleanup.
func (t *T) TempDir() string {
	dir, err := os.MkdirTemp("", "recorder-")
	if err != nil {
		t.Fatalf("recorder: TempDir: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
func (t *T) ArtifactDir() string { return t.TempDir() }
func (t *T) Setenv(key, value string) {
	old, had := os.LookupEnv(key)
	os.Setenv(key, value)
	t.Cleanup(func() {
		if had {
			os.Setenv(key, old)
		} else {
			os.Unsetenv(key)
		}
	})
}
func (t *T) Chdir(dir string) {
	old, err := os.Getwd()
	if err == nil {
		err = os.Chdir(dir)
	}
	if err != nil {
		t.Fatalf("recorder: Chdir: %v", err)
	}
	t.Cleanup(func() { os.Chdir(old) })
}

type logWriter struct{ t *T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}
