package procstate

import (
	"os"
	"strconv"

	"github.com/exectest/exectest/internal/proc"
)

// OrphanedInit returns the init of the PID namespace that the process
// named by id lives in, where that namespace is not the test's and its
// init outlived the process that started it: alive, not being killed,
// and adopted, by pid 1 or by the test process (the child subreaper) when
// startedHere says the test process did not start it. Such a sandbox was
// meant to die with its maker (bwrap --die-with-parent, unshare
// --kill-child) and did not: its parent-death signal was armed too late
// or not at all. The portable mode sees no namespaces: false.
func OrphanedInit(id proc.Identity, startedHere func(proc.Identity) bool) (proc.Identity, bool) {
	if proc.Portable() {
		return proc.Identity{}, false
	}
	s, err := id.Stat()
	if err != nil {
		return proc.Identity{}, false
	}
	own, err := pidNamespace("self")
	if err != nil {
		return proc.Identity{}, false
	}
	ns, err := pidNamespace(strconv.Itoa(id.PID))
	if err != nil || ns == own {
		return proc.Identity{}, false
	}
	top, topStat, ok := initOf(id.PID, s, ns)
	if !ok {
		return proc.Identity{}, false
	}
	init, err := proc.Identify(top)
	if err != nil || Dying(init) {
		return proc.Identity{}, false
	}
	switch topStat.PPID {
	case 1:
	case os.Getpid():
		if startedHere(init) {
			return proc.Identity{}, false
		}
	default:
		return proc.Identity{}, false // its maker, or a subreaper: cannot tell
	}
	return init, true
}
