package proc

// groupAndSession is 0, 0: Windows has neither.
func groupAndSession(int) (pgid, sid int) { return 0, 0 }

// ownFDs is none: Windows handles are not descriptors of this kind.
func ownFDs() []FD { return nil }

// hasGroups is false: Windows has no process groups or sessions of this
// kind, so a process's line names none (see Facts.String).
const hasGroups = false
