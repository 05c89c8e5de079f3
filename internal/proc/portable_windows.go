package proc

// groupAndSession is 0, 0: Windows has neither.
func groupAndSession(int) (pgid, sid int) { return 0, 0 }
