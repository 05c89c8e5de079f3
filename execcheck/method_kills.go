package execcheck

// A kill reached through methods of the type that keeps the command:
//
//	p.command.Cancel = p.onContextCancel
//	func (p *Process) onContextCancel() error { return p.Interrupt() }
//	func (p *Process) Interrupt() error { return p.signalGroup() }
//	func (p *Process) signalGroup() error { return syscall.Kill(-p.pid(), syscall.SIGTERM) }
//	func (p *Process) pid() int { return p.command.Process.Pid }
//
// Two things were lost on the way. A method that returns the pid (or the
// *os.Process) of a command the package keeps (a field's) gave its
// callers an integer, not that command's pid: its result is now that
// pid, at each call in the package. And a callee's kill of a kept
// command counted only in the callee: a Cancel that reaches the kill
// through a method saw nothing ("kills nothing execcheck can see"). Such
// kills are now the caller's too, at the call, and so its Cancel's; one
// whose signal is a parameter (signalGroup(sig)) is a kill of the
// command at the calls, with the signal each gives, not where it stands.

import (
	"fmt"
	"go/ast"
	"strings"
)

// keptPidResults records, in the summary (same package only), the
// results that are the pid or the process of a command the package keeps
// (a field's or a package variable's): applyPipes gives them at each call.
func (w *walker) keptPidResults(s *summary) {
	for i, v := range w.results {
		x := procOf(v)
		if x == nil || !w.ps.keptInst(x) {
			continue
		}
		if s.pipeInsts == nil {
			s.pipeInsts = map[int]value{}
		}
		if v.proc != nil {
			s.pipeInsts[i] = value{proc: x.root()}
			w.procHandedOut(x)
		} else {
			s.pipeInsts[i] = value{pid: x.root(), neg: v.neg}
		}
	}
}

// keptInst reports whether x is a command the package keeps: one held by
// a field or package variable of command type, or one whose pid or
// process such a variable holds.
func (ps *pkgState) keptInst(x *instance) bool {
	r := x.root()
	if r.held {
		return true
	}
	for _, p := range ps.pids {
		if p.root() == r {
			return true
		}
	}
	for _, k := range ps.kept {
		if k.cmd.root() == r || k.field.root() == r {
			return true
		}
	}
	return false
}

// noteKeptKill notes, in the summary, a kill of a command the package
// keeps, for the callers (applyKeptKills). It reports whether the kill
// waits for them: its signal is a parameter, which each call gives.
func (w *walker) noteKeptKill(target *instance, e effect) (atCalls bool) {
	if target == nil || !w.ps.keptInst(target) || w.cancelOwner != nil {
		// In a Cancel closure the kill is the Cancel's, which os/exec
		// calls: not one a call of the function walked makes.
		return false
	}
	w.sum.keptKills = append(w.sum.keptKills, targeted{inst: target, e: e, closureSig: -1})
	return e.SigParam >= 0
}

// applyKeptKills makes the callee's kills of kept commands the caller's,
// at the call: in the Cancel being walked, the closure whose call waits
// for them, the caller's own summary (a Cancel = f reads it), and, with
// the signal the call gives, on the command as a kill by hand.
func (w *walker) applyKeptKills(s *summary, via string, argExpr func(int) ast.Expr) {
	for _, t := range s.keptKills {
		e := w.resolve(t.e, argExpr)
		e.Why += " (in " + via + ")"
		w.record(t.inst, w.here(e), -1)
	}
}

// handUnbounded is the verdict on a group kill by hand that is the
// Cancel's own (Interrupt and Terminate methods the Cancel calls, which
// callers may call too) while a pipe with nothing to bound Wait is open
// and Wait waits for it: as for a group kill in Cancel, a descendant
// that leaves the group (setsid, a daemon) keeps Wait waiting. A kill by
// hand of its own (a watch of the context, a timer, a Cancel called by
// hand with no cmd.Wait after it) keeps its verdict, ok.
func handUnbounded(rs *runSite, h *reach, p *props, unboundedPipe bool, pipeWhy string) (verdict, bool) {
	waits := p.Waited || rs.kind == runRun || rs.kind == runOutput || rs.kind == runCombined
	if !unboundedPipe || !waits || h == nil || h.watch || !p.CancelSet || !cancelsOwn(p) {
		return verdict{}, false
	}
	return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait%s: the group is killed (%s), by Cancel and by the methods it calls, but a descendant that leaves it (setsid, a daemon) keeps Wait waiting", pipeWhy, noWaitDelay(p), h.groupKill)}, true
}

// cancelsOwn reports whether every group kill by hand of p is one its
// Cancel makes too: the same kill, reached through the same methods.
func cancelsOwn(p *props) bool {
	base := func(why string) string {
		if i := strings.Index(why, " (in "); i >= 0 {
			return why[:i]
		}
		return why
	}
	n := 0
	for _, k := range p.Kills {
		if !k.Group || k.Unknown {
			continue
		}
		n++
		found := false
		for _, c := range p.Cancel {
			if c.Group && base(c.Why) == base(k.Why) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return n > 0
}
