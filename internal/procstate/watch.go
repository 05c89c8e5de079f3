package procstate

import "errors"

// errNoWatch says why the portable mode cannot tell how a process ended.
var errNoWatch = errors.New("portable mode: no pidfd to watch the descendant by, so how it ended cannot be told")
