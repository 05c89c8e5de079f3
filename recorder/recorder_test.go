package recorder_test

import (
	"strings"
	"testing"

	"github.com/exectest/exectest/recorder"
)

func TestVerdicts(t *testing.T) {
	cases := []struct {
		name string
		fn   func(testing.TB)
		want string
		text string
	}{
		{"pass", func(tb testing.TB) { tb.Log("fine") }, recorder.Pass, "log: fine"},
		{"error goes on", func(tb testing.TB) { tb.Errorf("bad %d", 1); tb.Log("after") }, recorder.Fail, "error: bad 1\nlog: after"},
		{"fatal stops", func(tb testing.TB) { tb.Fatal("stop"); tb.Log("never") }, recorder.Fail, "error: stop\n"},
		{"skip stops", func(tb testing.TB) { tb.Skipf("no %s", "bwrap"); tb.Error("never") }, recorder.Skip, "skip: no bwrap\n"},
		{"cleanups run last first", func(tb testing.TB) {
			tb.Cleanup(func() { tb.Log("first registered") })
			tb.Cleanup(func() { tb.Log("second registered") })
		}, recorder.Pass, "log: second registered\nlog: first registered"},
		{"a cleanup may fail", func(tb testing.TB) { tb.Cleanup(func() { tb.Fatal("in cleanup") }) }, recorder.Fail, "error: in cleanup"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := recorder.Run(t, c.name, c.fn)
			if got := rec.Verdict(); got != c.want {
				t.Errorf("verdict: got %s, want %s", got, c.want)
			}
			if !strings.Contains(rec.Report(), c.text) || strings.Contains(rec.Report(), "never") {
				t.Errorf("report: got %q, want it to contain %q and no \"never\"", rec.Report(), c.text)
			}
		})
	}
}

func TestContextDoneBeforeCleanup(t *testing.T) {
	rec := recorder.Run(nil, "ctx", func(tb testing.TB) {
		tb.Cleanup(func() {
			if tb.Context().Err() == nil {
				tb.Error("context not done in cleanup")
			}
		})
	})
	if rec.Verdict() != recorder.Pass {
		t.Errorf("verdict: got %s, want pass: %s", rec.Verdict(), rec.Report())
	}
}
