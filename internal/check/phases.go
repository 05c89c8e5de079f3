package check

import "sync/atomic"

// phaseHook, when set (by a benchmark, through export_test.go), hears
// each phase of a check as it begins: "start" (run is called), "waited"
// (the moment to cancel came, or run returned), "cancel" (the context is
// cancelled), "returned" (the check has run's return), "end" (the verdict
// is made); and, on run's own goroutine, "run ends" and "run end sent"
// around the send of its return. Unset, it costs a nil check.
// Atomic: a run that returns late, of a check that gave up on it, calls
// it from its own goroutine whenever it returns.
var phaseHook atomic.Pointer[func(phase string)]

// phase tells phaseHook, if any, that a phase begins.
func phase(name string) {
	if h := phaseHook.Load(); h != nil {
		(*h)(name)
	}
}
