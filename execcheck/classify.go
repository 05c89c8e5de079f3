package execcheck

import (
	"cmp"
	"fmt"
	"strings"
)

// Class is what a cancel does to an exec site.
type Class string

const (
	// Hang: a cancel can come, the output goes through a pipe, and nothing
	// bounds Wait: it lasts as long as any descendant holding the pipe.
	Hang Class = "hang"
	// Orphan: Wait returns in bounded time, but the cancel reaches only
	// the direct child: its descendants keep running.
	Orphan Class = "orphan"
	// Launcher: the cancel reaches the group only while the direct child
	// runs (a group kill in Cancel), or sends a signal background jobs
	// ignore: a child that exits at once leaves its group running.
	Launcher Class = "launcher"
	// OK: cancelpolicy.Run or Start, a group kill with a WaitDelay for a
	// program that is no launcher, a group kill by hand, or no cancel.
	OK Class = "ok"
	// Unknown: execcheck cannot follow the command to what stops it.
	Unknown Class = "unknown"
)

// reach is what one way of cancelling (Cancel, or a kill by hand)
// reaches.
type reach struct {
	direct    string // why it reaches only the direct child, or ""
	nothing   bool
	groupKill string // why it kills the group
	watch     bool   // a group kill comes with the cancel of a context
	afterWait bool   // a group SIGKILL comes after every Wait returned
	quiet     bool   // a Cancel set that kills nothing
	job       string // why it sends the group a signal background jobs ignore
	unknown   string
}

func reachOf(effs []effect, p *props) reach {
	var r reach
	var groupKills, directs, jobs []effect
	ends := map[string]bool{}
	for _, e := range effs {
		if e.GroupTest == 2 && p.Group && p.GroupArm == "" || e.GroupTest == 1 && !p.Group && !p.GroupUnknown {
			continue // on the arm of `if cmd.SysProcAttr.Setpgid` the command does not take
		}
		if e.Group && p.GroupArm != "" && !p.GroupUnknown && !e.Unknown {
			if direct, unknown := groupAbsent(e, p); direct != "" {
				e.Why = direct
				directs = append(directs, e)
				continue
			} else if unknown != "" {
				r.unknown = cmp.Or(r.unknown, unknown)
				continue
			}
		}
		switch {
		case e.Unknown:
			if r.unknown == "" {
				r.unknown = e.Why
			}
		case e.Sig == sigProbe:
		case e.Group && !p.Group && !p.GroupUnknown:
			e.Why += ", but the command has no process group of its own (no Setpgid or Setsid)"
			directs = append(directs, e)
		case e.Group && (e.Sig == sigKill || e.Sig == sigOther):
			groupKills = append(groupKills, e)
			if e.Watch {
				// A watch that kills on one end of the context only
				// (watch_ctx_end.go) watches the cancel with the other.
				r.watch = r.watch || e.CtxEnd == "" || p.ctxEndsOnly(e.CtxEnd)
				ends[e.CtxEnd] = true
			}
			r.afterWait = r.afterWait || e.AfterWait && e.Sig == sigKill
		case e.Group && e.Sig == sigJob:
			jobs = append(jobs, e)
		case e.Group:
			if r.unknown == "" {
				r.unknown = e.Why + " (a signal execcheck cannot read)"
			}
		default:
			directs = append(directs, e)
		}
	}
	r.watch = r.watch || ends[endDeadline] && ends[endCancel]
	covered := func(d effect) bool {
		for _, g := range groupKills {
			if g.scope == d.scope && !alternative(d, g) {
				return true
			}
		}
		return false
	}
	for _, d := range directs {
		if !covered(d) {
			r.direct = d.Why
			break
		}
	}
	for _, j := range jobs {
		if !covered(j) {
			r.job = j.Why
			break
		}
	}
	if len(groupKills) > 0 {
		r.groupKill = groupKills[0].Why
		soft, mixed := true, false
		for _, g := range groupKills {
			soft = soft && g.Sig != sigKill
			mixed = mixed || g.SigMixed
		}
		switch {
		case soft && mixed:
			r.groupKill += "; no SIGKILL is sure to follow (the signal is a variable given several, the weakest counted): a process that ignores it may survive"
		case soft:
			r.groupKill += "; no SIGKILL follows: a process that ignores the signal survives"
		}
	}
	if len(effs) == 0 || (r.direct == "" && r.groupKill == "" && r.job == "" && r.unknown == "" && len(directs) == 0) {
		r.nothing = true
	}
	return r
}

// verdict is the class of one run of a command, with the reason in words
// from the code.
type verdict struct {
	class   Class
	reason  string
	handled bool // the fix is cancelpolicy (so a SuggestedFix may apply)
	job     bool // a signal background jobs ignore: Graceful
}

func classify(rs *runSite, p *props, plat platform) verdict {
	if rs.kind.policy() {
		return policyVerdict(rs, p, plat)
	}
	p = runCopy(rs, p)
	v := classifyRun(rs, p, plat)
	if v.class == Launcher || v.class == Orphan {
		v.reason += waitResultNote(p, v.reason)
	}
	if v.class == Hang || v.class == Orphan {
		v.reason += ctxEndNote(p, v.reason)
	}
	if p.ProcKept != "" {
		switch {
		case v.class == Hang || v.class == Orphan || v.class == Launcher:
			// The cancel this package sends falls short: that is the
			// finding, whatever another package may send as well.
			v.reason += "; its process is also kept in " + p.ProcKept + ", where execcheck does not follow what else kills it"
		case v.class != OK || strings.HasPrefix(v.reason, "no cancel"):
			return verdict{class: Unknown, reason: "its process is kept in " + p.ProcKept + ", where execcheck does not follow what kills it"}
		}
	}
	if v.class == Hang {
		_, note := lockedAfterWait(rs, append(p.Kills, cancelByHand(p, plat)...))
		v.reason += note + afterWaitNote(p, v.reason)
	}
	if v.class != Unknown {
		v.reason += factoryNote(p)
	}
	return v
}

func classifyRun(rs *runSite, p *props, plat platform) verdict {
	if len(p.Creations) == 0 && p.Wrapped != "" {
		return verdict{class: Unknown, reason: "the command is run by " + p.Wrapped + ": what makes and kills it is in that package, whose sites execcheck lists there"}
	}
	if len(p.Creations) == 0 {
		return verdict{class: Unknown, reason: "the command comes from where execcheck cannot follow it (a parameter, a field set elsewhere, a call it cannot see)"}
	}
	if p.Reflected != "" {
		return verdict{class: Unknown, reason: "the command's fields are set through " + p.Reflected + ", which execcheck cannot read"}
	}
	if p.Untyped != "" {
		return verdict{class: Unknown, reason: "the command is passed to " + p.Untyped + ", whose code does not type-check: execcheck cannot follow it"}
	}
	cancellable := false
	for _, c := range p.Creations {
		if c.Ctx == ctxCancel || c.Ctx == ctxParam || c.Ctx == ctxTest && !testRunsBefore(rs, c) {
			cancellable = true
		}
	}
	var hand []effect
	for _, e := range dropGroupFailed(append(p.Kills, cancelByHand(p, plat)...), p) {
		if e.Sig != sigProbe || e.Unknown {
			hand = append(hand, e)
		}
	}
	pipe := p.ReadPipe || p.CopyPipe
	unbounded := p.readUnbounded() || (p.CopyPipe && !p.WaitDelay && !p.timerBound() && !((rs.kind == runStart || rs.async) && p.copyUnwaited()))
	hand = dropWaitResultKills(dropDisposals(hand, p, cancellable), p, pipe && (unbounded || p.waitHoldsCopy()))
	hand, _ = lockedAfterWait(rs, hand)
	if pipe && unbounded {
		hand = dropAfterWait(hand)
	}
	if !cancellable && len(hand) == 0 {
		if v, ok := stateGuardedOnly(p); ok && plat != platNone {
			return v
		}
		how := "exec.Command"
		for _, c := range p.Creations {
			switch c.Ctx {
			case ctxBackground:
				how = cmp.Or(c.CtxHow, "a context that is never done")
			case ctxTest:
				how = "the test's context (done only after the test function returns; the run ends in it before that)"
				if c.CtxHow != "" {
					how = c.CtxHow + " (done only after the function that made it returns; the run ends in it before that)"
				}
			}
		}
		return verdict{class: OK, reason: "no cancel: " + how + ", and no kill by hand"}
	}

	hand, leaderOnly := splitReaped(rs, p, hand)
	hand = dropBesideReaped(hand, leaderOnly)
	if !(pipe && (unbounded || p.waitHoldsCopy() || p.closedByWatch(hand))) {
		// Wait returns when the direct child exits (nothing it waits
		// for outlasts it): a watch that ends with Wait ends there too.
		var ended []effect
		hand, ended = splitUntilWait(hand)
		leaderOnly = append(leaderOnly, ended...)
	}
	var ctxPath, handPath *reach
	if cancellable {
		var effs []effect
		switch {
		case p.Applied:
			effs = []effect{appliedCancel(plat)}
		case p.CancelSet:
			effs = dropGroupFailed(p.Cancel, p)
		default:
			effs = []effect{{Sig: sigKill, SigParam: -1, Why: "exec.CommandContext's default Cancel (Process.Kill)"}}
		}
		r := reachOf(effs, p)
		if r.nothing && p.CancelSet {
			r.direct, r.quiet = p.CancelWhy+" kills nothing", true
		}
		ctxPath = &r
	}
	if len(hand) > 0 {
		r := reachOf(hand, p)
		handPath = &r
		if v, ok := disposalOrphan(hand, r); ok && !cancellable && plat != platNone {
			return v
		}
	}
	if ctxPath != nil && handPath != nil && (handPath.watch || handPath.afterWait) && handPath.direct == "" && (!p.CancelSet && !p.Applied || ctxPath.quiet) {
		// The default Cancel's kill of the direct child (or a Cancel that
		// kills nothing, leaving the cancel to the hand: multica's) comes
		// with a group kill by hand that watches the cancel, or that
		// follows every Wait (bounded here, or dropAfterWait had dropped
		// it): the Wait the kill of the child ends is followed by the
		// group's.
		ctxPath = nil
	}

	pipeWhy := p.CopyWhy
	switch {
	case p.ReadPipe:
		pipeWhy = p.ReadWhy
	case rs.kind == runOutput || rs.kind == runCombined:
		pipeWhy = "the output is collected by " + rs.kind.String() + "()"
	}
	if len(leaderOnly) > 0 {
		l := reachOf(leaderOnly, p)
		cp := ctxPath
		if cp != nil && l.watch && !p.CancelSet && !p.Applied {
			cp = nil // as for a watch by hand, above
		}
		// A kill by hand of the direct child alone (goutils' interrupt
		// before its grace) reaches none of the group the others miss.
		handDirect := handPath != nil && handPath.direct != "" && handPath.groupKill == "" && handPath.unknown == "" && handPath.job == ""
		if plat != platNone && (cp == nil || cp.nothing) && (handPath == nil || handPath.nothing || handDirect) && l.groupKill != "" {
			why := pipeWhy
			if p.ReadPipe && p.CopyPipe && byGetpgidOnly(leaderOnly) {
				// The pipe read before Wait is read while the child is
				// unreaped, Getpgid still finding the group: the copy
				// os/exec waits for after reaping it is what the kill misses.
				why = p.CopyWhy
			}
			return leaderOnlyVerdict(p, leaderOnlyHow(leaderOnly, l.groupKill, p), pipe, unbounded, why)
		}
		switch {
		case cp != nil && cp.groupKill != "" && l.groupKill != "" && (handPath == nil || handPath.nothing):
			// Cancel kills the group too, and they come no later than
			// it does: they add nothing to it.
		default:
			// Beside other kills, or not a group kill after all: judged
			// with them, as before.
			hand = append(hand, leaderOnly...)
			r := reachOf(hand, p)
			handPath = &r
			if ctxPath != nil && handPath.watch && handPath.direct == "" && !p.CancelSet && !p.Applied {
				ctxPath = nil
			}
		}
	}

	if plat == platNone {
		return classifyNone(p)
	}

	var direct, unknown, job string
	for _, r := range []*reach{ctxPath, handPath} {
		if r == nil {
			continue
		}
		switch {
		case r.direct != "":
			if direct == "" {
				direct = r.direct
			}
		case r.unknown != "" && r.groupKill == "":
			if unknown == "" {
				unknown = r.unknown
			}
		case r.job != "":
			if job == "" {
				job = r.job
			}
		}
	}
	if direct != "" && leafOnly(p) {
		return verdict{class: OK, reason: fmt.Sprintf("a cancel kills the direct child (%s), and %s", direct, p.Creations[0].Prog.Why)}
	}
	if v, ok := watchGuardedOnly(p, pipe && (unbounded || p.waitHoldsCopy())); ok && direct != "" && ctxPath != nil && ctxPath.direct != "" && (handPath == nil || handPath.groupKill == "") {
		return v
	}
	switch {
	case direct != "":
		if unbounded {
			return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait%s; a cancel kills only the direct child (%s): Wait lasts as long as any descendant holding the pipe%s", pipeWhy, noWaitDelay(p), direct, waitOpen(p))}
		}
		return verdict{class: Orphan, handled: true, reason: fmt.Sprintf("a cancel kills only the direct child (%s); Wait returns in bounded time (%s), but the descendants keep running", direct, boundWhy(p))}
	case unknown != "":
		return verdict{class: Unknown, reason: unknown}
	case job != "" && pipe && unbounded:
		// The jobs that ignore the signal keep the pipe os/exec copies
		// from: Wait waits for them, as for a kill of the direct child.
		return verdict{class: Hang, handled: true, job: true, reason: fmt.Sprintf("%s and nothing bounds Wait%s; a cancel sends the group a signal that background jobs of sh -c ignore (%s), and no SIGKILL follows: Wait lasts as long as any of them holds the pipe", pipeWhy, noWaitDelay(p), job)}
	case job != "":
		return verdict{class: Launcher, handled: true, job: true, reason: fmt.Sprintf("a cancel sends the group a signal that background jobs of sh -c ignore (%s), and no SIGKILL follows: they keep running", job)}
	}
	if ctxPath != nil && (handPath == nil || handPath.groupKill == "") {
		prog, armed := launcherWhy(p), armedWhy(rs, p)
		if v, ok := launcherHang(p, ctxPath.groupKill, prog, armed); ok {
			return v
		}
		if prog != "" && armed == "" {
			return verdict{class: Launcher, handled: true, reason: fmt.Sprintf("Cancel kills the group (%s), but os/exec calls Cancel only while the direct child runs, and %s: its group keeps running after it exits", ctxPath.groupKill, prog)}
		}
		if v, ok := armedCopyHang(p, pipe && unbounded, ctxPath.groupKill, armed); ok {
			return v
		}
		if pipe && unbounded && !armedReads(p, armed) {
			return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait%s: Cancel kills the group (%s), but a descendant that leaves it (setsid, a daemon) keeps Wait waiting", pipeWhy, noWaitDelay(p), ctxPath.groupKill)}
		}
		if armed != "" {
			return verdict{class: OK, reason: fmt.Sprintf("Cancel kills the group (%s), also after the direct child exited: %s", ctxPath.groupKill, armed)}
		}
		return verdict{class: OK, reason: fmt.Sprintf("Cancel kills the group (%s) and Wait is bounded (%s); %s", ctxPath.groupKill, boundWhy(p), programWhy(p))}
	}
	if v, ok := armedCopyHang(p, pipe && unbounded, handPath.groupKill, armedWhy(rs, p)); ok && p.CancelSet && cancelsOwn(p) {
		return v
	}
	if v, ok := handUnbounded(rs, handPath, p, pipe && unbounded, pipeWhy); ok {
		return v
	}
	return verdict{class: OK, reason: fmt.Sprintf("a kill by hand reaches the group (%s), also after the direct child exited%s", handPath.groupKill, untilNote(hand))}
}

// waitOpen says, for a Wait that runs only in goroutines, which wait
// for them has no bound.
func waitOpen(p *props) string {
	if p.WaitOpen == "" {
		return ""
	}
	return "; " + p.WaitOpen
}

func noWaitDelay(p *props) string {
	if p.ReadPipe {
		return ""
	}
	return " (no WaitDelay)"
}

func boundWhy(p *props) string {
	switch {
	case p.readUnbounded():
		return p.ReadWhy
	case p.ReadPipe && p.CopyPipe && p.WaitDelay:
		return cmp.Or(p.PipeClosed, p.WaitAside) + "; " + p.WaitDelayWhy
	case p.ReadPipe:
		return cmp.Or(p.PipeClosed, p.WaitAside, p.ReadsFree)
	case p.WaitDelay:
		return p.WaitDelayWhy
	case p.CopyPipe && p.timerBound():
		return p.TimerKill
	case !p.CopyPipe && p.ScannedOnce != "":
		return p.ScannedOnce
	case !p.CopyPipe:
		return "no output pipe"
	case p.copyUnwaited() && p.WaitFree != "":
		return p.WaitFree
	case p.copyUnwaited():
		return "cmd.Wait is never called (" + p.ProcWait + " waits instead): nothing waits for os/exec's copy of the output"
	}
	return "not bounded"
}

// leafOnly reports whether every command made runs a program that starts
// no process.
func leafOnly(p *props) bool {
	for _, c := range p.Creations {
		if !c.Prog.Leaf {
			return false
		}
	}
	return len(p.Creations) > 0
}

// launcherWhy says why the program may be a launcher, or "".
func launcherWhy(p *props) string {
	for _, c := range p.Creations {
		if c.Prog.Launcher {
			return c.Prog.Why
		}
	}
	return ""
}

func programWhy(p *props) string {
	var w []string
	for _, c := range p.Creations {
		if c.Prog.Why != "" {
			w = append(w, c.Prog.Why)
		}
	}
	if len(w) == 0 {
		return "the program is no known launcher"
	}
	return strings.Join(w, "; ")
}

func containWhy(p *props) string {
	for _, c := range p.Creations {
		if c.Prog.Contain != "" {
			return c.Prog.Contain
		}
	}
	return ""
}
