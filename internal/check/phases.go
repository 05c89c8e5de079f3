package check

// phaseHook, when set (by a benchmark, through export_test.go), hears
// each phase of a check as it begins: "start" (run is called), "cancel"
// (the context is cancelled), "returned" (run returned), "end" (the
// verdict is made). Unset, it costs a nil check.
var phaseHook func(phase string)

// phase tells phaseHook, if any, that a phase begins.
func phase(name string) {
	if phaseHook != nil {
		phaseHook(name)
	}
}
