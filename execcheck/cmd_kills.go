package execcheck

// The exec model's kills: what signal an expression is, and where a kill
// of a command, its process or its pid is recorded (the Cancel being
// walked, the closure whose call it waits for, or the command).

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// sigOf reads a signal argument.
func (w *walker) sigOf(e ast.Expr) value {
	if e == nil {
		return value{isSig: true, sig: sigUnknown, sigParam: -1, closureSig: -1}
	}
	if tv, ok := w.info.Types[e]; ok && tv.Value != nil {
		if n, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return value{isSig: true, sig: sigNumber(n), sigParam: -1, closureSig: -1}
		}
	}
	if n, ok := w.ps.constResult(e); ok {
		return value{isSig: true, sig: sigNumber(n), sigParam: -1, closureSig: -1}
	}
	v := w.eval(e)
	if v.isSig {
		return v
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if lv, ok := w.info.ObjectOf(id).(*types.Var); ok {
			if k, ok := w.ps.sigLocals()[lv]; ok {
				return value{isSig: true, sig: k.sig, sigMixed: k.mixed, sigParam: -1, closureSig: -1}
			}
		}
	}
	return value{isSig: true, sig: sigUnknown, sigParam: -1, closureSig: -1}
}

// constResult is the integer constant that e, a call of a function of
// the package taking no argument whose body only returns it, evaluates
// to: kata's `syscallSignal0()`, a probe written `return syscall.Signal(0)`
// for its build, is the signal 0 and kills nothing.
func (ps *pkgState) constResult(e ast.Expr) (int64, bool) {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return 0, false
	}
	fn := staticCallee(ps.pass.TypesInfo, c)
	if fn == nil {
		return 0, false
	}
	d := ps.decls[fn.Origin()]
	if d == nil || d.Body == nil || len(d.Body.List) != 1 {
		return 0, false
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return 0, false
	}
	tv, ok := ps.pass.TypesInfo.Types[ret.Results[0]]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

// sigNumber is what the constant signal n does.
func sigNumber(n int64) sigKind {
	switch n {
	case 0:
		return sigProbe
	case 17, 18, 19, 20, 21, 22, 28:
		// SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU and
		// SIGWINCH on Linux; SIGSTOP, SIGTSTP, SIGCONT, SIGCHLD, SIGTTIN,
		// SIGTTOU and SIGWINCH on darwin and the BSDs: they stop, resume
		// or are ignored, and end no process. Like a probe, they kill
		// nothing (minecraft-server-hibernation's ProcTreeResume, a
		// group SIGCONT, was taken for a group kill).
		return sigProbe
	case 9:
		return sigKill
	case 2, 3:
		return sigJob
	}
	return sigOther
}

// signalVar is the signal a package variable is: os.Kill and
// os.Interrupt. It reports false for any other variable.
func signalVar(o *types.Var) (value, bool) {
	if o.Pkg() != nil && o.Pkg().Path() == "os" {
		switch o.Name() {
		case "Kill":
			return value{isSig: true, sig: sigKill, sigParam: -1, closureSig: -1}, true
		case "Interrupt":
			return value{isSig: true, sig: sigJob, sigParam: -1, closureSig: -1}, true
		}
	}
	return value{}, false
}

// killBy records a kill or signal of target (a command, its process or
// its pid), where the walk stands: into the Cancel being walked, into the
// closure whose call it waits for, or onto the command; pg says whether
// the group was found by syscall.Getpgid (pgid_fallback.go).
func (w *walker) killBy(target *instance, group bool, pg pgidHow, sv value, why string) {
	if w.killsNothing(target, group) {
		return
	}
	e := effect{Group: group, ByGetpgid: pg == pgidReaped, PgidWaitAfter: pg == pgidWaitAfter, Why: why}
	closureSig := w.sigSource(sv, &e)
	w.record(target, w.here(e), closureSig)
}

// sigSource sets e's signal from sv, a signal value, by where it comes
// from: a parameter of the function walked (e.SigParam, known at each
// call), a parameter of the closure whose deferred call is walked (the
// closure's argument index, returned; -1 otherwise), or another scope,
// whose signal cannot be known here (sigUnknown).
func (w *walker) sigSource(sv value, e *effect) (closureSig int) {
	e.Sig, e.SigParam, e.SigMixed = sv.sig, -1, sv.sigMixed
	switch {
	case sv.closureSig >= 0 && w.deferTo != nil && sv.sigScope == w.deferTo.sc:
		return sv.closureSig
	case sv.sigParam >= 0 && sv.sigScope == w.top:
		e.SigParam = sv.sigParam
	case sv.sigParam >= 0 || sv.closureSig >= 0:
		e.Sig = sigUnknown
	}
	return -1
}

// record records the kill e of target (nil: none execcheck saw) in the
// function's summary, and where the walk stands: while a Cancel closure
// is walked, in that command's Cancel; while a closure whose call is
// waited for is walked, in the closure (callFn applies it at the call);
// otherwise on the command, as a kill by hand. A probe (signal 0) kills
// nothing and is dropped, and so is a kill made before Start returned.
func (w *walker) record(target *instance, e effect, closureSig int) {
	if w.dead > 0 || w.beforeStarted(w.pos) || w.killFailed > 0 && e.Group {
		// On an arm this build never runs (goos_branch.go), made only
		// while Start has not returned (start_beside.go), or a group
		// kill only where one failed (kill_failed.go).
		return
	}
	if e.Sig == sigProbe && e.SigParam < 0 && closureSig < 0 && !e.Unknown {
		return
	}
	e.GroupFailed = e.GroupFailed || w.killFailed > 0
	e.Watch = e.Watch || w.watching(e)
	if e.Watch && e.CtxEnd == "" {
		e.CtxEnd, e.CtxEndWhy = w.ctxEndArm()
	}
	if !e.Disposal {
		e.Disposal, e.NoWait = w.disposing()
	}
	if e.OnResult == "" {
		e.OnResult = w.waitResultArm(target)
		e.Until = len(w.untilDone) > 0 && e.OnResult == w.untilDone[0]
	}
	if !e.AfterWait {
		// A kill of the direct child after the read is still the cancel
		// (dify's plugin instance: Stop closes the pipe, the scan ends,
		// then Process.Kill); only a group kill there is no cover.
		waited := w.waitedHere(target)
		e.AfterRead = w.inGo == 0 && !waited && e.Group && w.readHere(target)
		e.AfterWait = w.inGo == 0 && waited || e.AfterRead
	}
	if e.UntilWait == "" {
		if how := w.untilWait(w.pos); how != "" {
			e.UntilWait = "the watch ends with " + how
		}
	}
	w.timerKill(target, e)
	se := e
	if closureSig >= 0 {
		se.Sig = sigUnknown
	}
	w.sum.Kills = append(w.sum.Kills, se)
	if w.noteKeptKill(target, se) && w.cancelOwner == nil && w.deferTo == nil {
		return // a kill of a kept command with the signal its calls give: at the calls
	}
	switch {
	case w.cancelOwner != nil:
		r := w.cancelOwner.root()
		r.p.Cancel = append(r.p.Cancel, se)
	case w.deferTo != nil && (target == nil || target.root().madeIn != w.deferTo):
		w.deferTo.effects = append(w.deferTo.effects, targeted{inst: target, e: e, closureSig: closureSig})
	case target != nil:
		r := target.root()
		r.p.Kills = append(r.p.Kills, e)
	}
}
