//go:build linux

package proc

import "github.com/exectest/exectest/internal/envswitch"

// linuxBackend reads /proc and uses pidfds, cgroups and the child
// subreaper.
var linuxBackend backend

// chosen is the backend of this test process: the portable one with
// EXECTEST_PORTABLE=1, so that what runs on macOS and the BSDs is tested
// on Linux too.
var chosen = &linuxBackend

// The backends are filled in at init: their functions use the package's
// own, which use current, and a variable may not depend on itself.
func init() {
	linuxBackend = backend{
		name:            "linux",
		readStat:        linuxReadStat,
		children:        linuxChildren,
		descendants:     func(pid int) []int { return walk(pid, linuxChildren) },
		tree:            func() func(int) []int { return linuxChildren },
		fds:             linuxFDs,
		pipes:           linuxPipes,
		pipeHolders:     linuxPipeHolders,
		fdTarget:        linuxFDTarget,
		fdIs:            linuxFDIs,
		signal:          linuxSignal,
		age:             linuxAge,
		nspid:           linuxNSpid,
		holds:           linuxHolds,
		resolve:         linuxResolve,
		enableSubreaper: linuxEnableSubreaper,
		isSubreaper:     linuxIsSubreaper,
		gone:            linuxGone,
		staleHolders:    linuxStaleHolders,
		fifoHolders:     linuxFIFOHolders,
		holdsFIFOIn:     linuxHoldsFIFOIn,
		pids:            linuxPIDs,
		peek:            func(pid int) (int, uint64, error) { s, err := linuxReadStat(pid); return s.PPID, s.Start, err },
		startedHere:     linuxStartedHere,
		origin:          linuxOrigin,
		ignored:         linuxIgnored,
	}
	// A bad value is the Linux mode here; exectest and proctest report
	// it as bad input where they are used.
	if on, _ := envswitch.Bool(PortableEnv); on {
		chosen = &portableBackend
	}
}

func current() *backend { return chosen }
