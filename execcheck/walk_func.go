package execcheck

// The walk of function literals: a closure's body walked in its own
// scope, its command and signal parameters, and its kills applied where
// it is called.

import (
	"go/ast"
	"go/types"
)

// closure walks a function literal. With wait, its kills are kept for
// its call (a closure bound to a name); otherwise they count at once (a
// goroutine, a timer, a deferred call).
func (w *walker) closure(fl *ast.FuncLit, wait bool) value {
	fv := &fnVal{}
	if wait {
		prev := w.deferTo
		w.deferTo = fv
		w.funcBody(fl, fv)
		w.deferTo = prev
	} else {
		w.funcBody(fl, fv)
	}
	return value{fn: fv}
}

// funcBody walks a function literal's body in a scope of its own (its
// kills neither follow nor alternate with those outside it), its
// branches counted from its start. Its signal and command parameters are seeded
// as walkFunc seeds a declared function's; fv, if not nil, records its
// command parameters and gathers its results. The body shares env with
// the function around it: a free variable is that function's variable.
func (w *walker) funcBody(fl *ast.FuncLit, fv *fnVal) {
	w.ps.scopes++
	sc := &scope{id: w.ps.scopes, parent: w.cur.id, params: map[types.Object]int{}, body: fl.Body}
	if fv != nil {
		fv.sc = sc
	}
	bind := w.bindNext
	w.bindNext = nil
	if w.laterNext {
		if w.later == nil {
			w.later = map[int]bool{}
		}
		w.later[sc.id], w.laterNext = true, false
	}
	w.timerScope(sc)
	i := 0
	for _, f := range fl.Type.Params.List {
		names := f.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, id := range names {
			if obj := w.info.ObjectOf(id); obj != nil && i < len(bind) && (bind[i].inst != nil || bind[i].proc != nil || bind[i].pid != nil || bind[i].pipe != nil || bind[i].isSig) {
				w.env[obj] = bind[i] // the argument itself
			} else if obj != nil {
				sc.params[obj] = i
				switch t := obj.Type(); {
				case isSignal(t):
					w.env[obj] = value{isSig: true, sigParam: -1, closureSig: i, sigScope: sc}
				case holdsCmd(t):
					x := w.ps.newInstance()
					w.env[obj] = value{inst: x}
					if fv != nil {
						x.param, x.closure = i, true
						if fv.params == nil {
							fv.params = map[int]*instance{}
						}
						fv.params[i] = x
					}
				}
			}
			i++
		}
	}
	nres := 0
	if fl.Type.Results != nil {
		for _, f := range fl.Type.Results.List {
			nres += max(len(f.Names), 1)
		}
	}
	prevCur, prevBranch, prevFn, prevRes, prevLoops, prevUntil := w.cur, w.branch, w.curFn, w.nres, w.loops, w.untilDone
	prevOuter := w.outerBranch
	w.outerBranch = append(append([]branchStep(nil), w.outerBranch...), w.branch...)
	defer func() { w.outerBranch = prevOuter }()
	w.startWatch(sc, fl, prevCur)
	w.cur, w.branch, w.curFn, w.nres, w.loops, w.untilDone = sc, nil, fv, nres, 0, nil
	watch := w.enterWatch(fl.Body)
	w.block(fl.Body.List)
	w.leaveWatch(watch)
	w.cur, w.branch, w.curFn, w.nres, w.loops, w.untilDone = prevCur, prevBranch, prevFn, prevRes, prevLoops, prevUntil
}

// callFn applies a closure's kills at its call c, as apply applies a
// declared function's summary: what it does to a command parameter is
// done to the argument, its kills of that parameter are retargeted to
// the argument, and each kill is placed at the call (here), a signal
// parameter replaced by the argument's signal. Called with no arguments
// (a closure passed on, time.AfterFunc), a declared function's kills
// count too.
func (w *walker) callFn(f *fnVal, args []value, argExprs []ast.Expr, c *ast.CallExpr) {
	retarget := map[*instance]*instance{}
	argExpr := func(i int) ast.Expr {
		if i < len(argExprs) {
			return argExprs[i]
		}
		return nil
	}
	for i, x := range f.params {
		if i >= len(args) || args[i].inst == nil {
			continue
		}
		r := x.root()
		p := r.p.clone()
		w.applyProps(args[i].inst, &p, c, types.ExprString(c.Fun), argExpr, nil)
		retarget[r] = args[i].inst
	}
	for _, t := range f.effects {
		if t.inst != nil {
			if a := retarget[t.inst.root()]; a != nil {
				t.inst = a
			}
		}
		e := t.e
		h := w.here(e)
		e.scope, e.branch, e.OnChoice, e.ChoiceKeys, e.GroupTest = h.scope, h.branch, h.OnChoice, h.ChoiceKeys, h.GroupTest
		cs := -1
		if t.closureSig >= 0 {
			if t.closureSig < len(argExprs) {
				cs = w.sigSource(w.sigOf(argExprs[t.closureSig]), &e)
			} else {
				e.Sig = sigUnknown
			}
		}
		w.record(t.inst, e, cs)
	}
	for _, pc := range f.closes {
		w.pipeClose(pc.pipe, pc.call)
	}
	if f.named != nil && args == nil {
		if s := w.ps.summaryOf(f.named); s != nil {
			for _, e := range s.allKills() {
				if e.SigParam >= 0 {
					e.Sig, e.SigParam = sigUnknown, -1
				}
				w.record(nil, w.here(e), -1)
			}
		}
	}
}
