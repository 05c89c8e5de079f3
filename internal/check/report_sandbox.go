package check

import (
	"os"
	"slices"
	"strings"

	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/proctest"
)

// orphanedInits describes, once each, the inits of the PID namespaces
// that ps live in where such an init outlived the process that started
// it (see [procstate.OrphanedInit]): the reason a sandbox meant to die
// with its maker kept its members running.
func orphanedInits(ps []described, s monitor.Snapshot) []described {
	var out []described
	for _, p := range ps {
		init, ok := procstate.OrphanedInit(proc.Identity{PID: p.PID, Start: p.Start}, func(init proc.Identity) bool { return startedHere(init, s) })
		if !ok || slices.ContainsFunc(out, func(q described) bool { return q.PID == init.PID && q.Start == init.Start }) {
			continue
		}
		// One of ps: as described there, at the same moment.
		if i := slices.IndexFunc(ps, func(q described) bool { return q.PID == init.PID && q.Start == init.Start }); i >= 0 {
			d := ps[i]
			d.Role += ", the init of their PID namespace"
			out = append(out, d)
			continue
		}
		if d, ok := proc.Describe(init, "the init of their PID namespace"); ok {
			out = append(out, described{Process: proctest.Process(d.Facts)})
		}
	}
	return out
}

// startedHere says whether the test process may have started id itself:
// for a process the fixture reported, what its parent was at the report,
// which holds whatever run did with its Cmd since (a Process.Release
// drops Go's pidfd on it); for another, unless the toolkit knows it was
// adopted (see [proc.OriginOf]): an init is said to have outlived its
// maker only where that is known.
func startedHere(id proc.Identity, s monitor.Snapshot) bool {
	for _, k := range s.Known {
		if k.ID == id {
			return k.ExecChild
		}
	}
	return proc.OriginOf(id, os.Getpid()) != proc.Adopted
}

// writeOrphanedInits says why a sandbox did not die with the process that
// started it, where it did not: nothing when inits is empty.
func writeOrphanedInits(b *strings.Builder, inits []described) {
	if len(inits) == 0 {
		return
	}
	writeList(b, "PID namespaces whose init outlived the process that started it, so the kernel killed none of their members (a parent-death signal armed too late or not at all: bwrap arms --die-with-parent only once the command runs, containers/bubblewrap#633):", inits)
}
