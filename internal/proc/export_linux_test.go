package proc

// ProcFDs and ProcPipes read the descriptors from /proc alone, as for any
// process other than the test process: what its fast path must agree with.
var (
	ProcFDs   = procFDs
	ProcPipes = procPipes
)

// WithoutPipefs makes the pipes' device unknown until the test ends, as
// where no pipe can be made: the test process's pipes are then told by
// their links.
func WithoutPipefs(t interface{ Cleanup(func()) }) {
	old := pipefs
	pipefs = func() (uint64, bool) { return 0, false }
	t.Cleanup(func() { pipefs = old })
}
