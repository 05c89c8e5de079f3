package procstate

import "errors"

// errNoWatch says why the portable mode cannot tell how a process ended.
var errNoWatch = errors.New(noWatchText)
