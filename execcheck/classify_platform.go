package execcheck

import "fmt"

// What a platform changes in the classes (platform.go says which one a
// file builds for). With process groups (Unix) and with job objects
// (Windows) a site is classified alike: a cancel that reaches only the
// direct child is a finding (hang or orphan), because cancelpolicy.Run
// and Start reach the whole tree there, a group or a job. Only the
// policy's own reach differs, and Apply's, which makes no job object.
// With neither (Plan 9, js, wasip1) nothing reaches more than the direct
// child: only a Wait that nothing bounds is a finding.

// policyVerdict classifies a run by cancelpolicy.Run or Start: ok, for
// what a cancel reaches on plat.
func policyVerdict(rs *runSite, p *props, plat platform) verdict {
	switch plat {
	case platJobs:
		return verdict{class: OK, reason: rs.kind.String() + jobPolicyReason}
	case platNone:
		return verdict{class: OK, reason: rs.kind.String() + ": " + noGroups + " (nor job objects): nothing reaches more than the direct child"}
	}
	v := verdict{class: OK, reason: rs.kind.String() + ": a cancel kills the command's process group, also after the direct child exited"}
	if c := containWhy(p); c != "" && !rs.opts {
		v.reason += "; " + c + ": only cancelpolicy.Contain() stops what leaves the group"
	}
	return v
}

// appliedCancel is what the Cancel of cancelpolicy.Apply does on plat. On
// Windows Apply makes no job object (it does not start the command, so
// nothing would resume a child created suspended): its Cancel terminates
// the direct child only, as os/exec's own does.
func appliedCancel(plat platform) effect {
	if plat == platJobs {
		return effect{Sig: sigKill, SigParam: -1, Why: "cancelpolicy.Apply's Cancel, which terminates the direct child only on Windows: Apply makes no job object"}
	}
	return effect{Group: true, Sig: sigKill, SigParam: -1, Why: "cancelpolicy.Apply's Cancel kills the group"}
}

// noGroups is the reason of a site on a system without process groups or
// job objects.
const noGroups = "no process groups on this system"

// classifyNone classifies a site that cancelpolicy does not run with
// neither process groups nor job objects (Plan 9, js, wasip1): a cancel
// reaches the direct child whatever the code does, so only a Wait that
// nothing bounds is a finding, and a WaitDelay is its fix.
func classifyNone(p *props) verdict {
	if p.CopyPipe && !p.WaitDelay {
		return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait (no WaitDelay): a descendant holding the pipe keeps Wait waiting after the cancel", p.CopyWhy)}
	}
	return verdict{class: OK, reason: noGroups + ": a cancel reaches the direct child only, and Wait is bounded (" + boundWhy(p) + ")"}
}

// noneAdvice is the fix of a hang with neither process groups nor job
// objects: a WaitDelay. cancelpolicy does not build there (it has no
// group or job to start the command in), so no rewrite to it is made.
func noneAdvice(rs *runSite, cmdText string) string {
	a := "set " + cmdText + ".WaitDelay: os/exec then stops waiting for the pipe that long after the cancel (cancelpolicy does not build for this system, and nothing reaches more than the direct child here)"
	if rs.via != "" {
		a = "in " + rs.via + ", " + a
	}
	return a
}
