package proc

// ProcFDs and ProcPipes read the descriptors from /proc alone, as for any
// process other than the test process: what its fast path must agree with.
var (
	ProcFDs   = procFDs
	ProcPipes = procPipes
)
