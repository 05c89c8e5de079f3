package check

import "github.com/exectest/exectest/internal/monitor"

// jobsOnly says that a Job Object is the one way to stop a whole tree:
// Windows has no process groups to kill, and cancelpolicy.Run puts the
// command's tree in a job and terminates it on cancel.
const jobsOnly = true

// The fix lines on Windows, where a cancel reaches the tree only through a
// Job Object that holds it from its first instruction.
const (
	fixJob         = "fix: start the command suspended in a Job Object of its own, resume it once assigned, and terminate the job on cancel (Process.Kill ends the direct child alone): " + runInstead
	fixJobLauncher = "fix: the command's direct child had exited when the cancel came, and os/exec calls Cancel only while it runs: " + runInstead + "; it puts the tree in a Job Object and terminates the job also after the child exited"
)

// fixJobFor is fixFor on Windows: the launcher's orphan needs a cancel
// that outlives the direct child, any other survivor the job.
func fixJobFor(ps []described) string {
	for _, p := range ps {
		if p.role == monitor.OrphanedDescendant {
			return fixJobLauncher
		}
	}
	return fixJob
}
