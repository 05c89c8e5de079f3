package execcheck

// The walk of calls: which callee a call reaches, and how what it does
// comes back to the caller (the callee's summary applied at the call,
// a closure's kills, or a call execcheck cannot follow). What calls of
// os/exec and its kin mean is in cmd_calls.go.

import (
	"cmp"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// call walks a call and returns its results, one value per result (nil
// when it knows none). A conversion passes its operand through, a
// builtin is builtin's, and a function literal called at once is walked
// in place, its kills counting at once. Otherwise call evaluates the
// receiver, then the arguments, and routes the call by its callee: one
// the exec model knows is knownCall's; a declared function with a
// summary (walked first, if of this package and not walked yet) has it
// applied to the arguments (apply); a function value is a method value
// of *exec.Cmd run at the call (cmdMethod), a declared function whose
// summary is applied, or a closure whose kills are applied (callFn) and
// whose results call returns; any other call (an interface method, a
// function with no summary, a value execcheck does not know) is
// passedOn.
func (w *walker) call(c *ast.CallExpr) []value {
	fun := ast.Unparen(c.Fun)
	if tv, ok := w.info.Types[fun]; ok && tv.IsType() {
		if len(c.Args) == 1 {
			return []value{w.eval(c.Args[0])}
		}
		return nil
	}
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := w.info.Uses[id].(*types.Builtin); ok {
			return w.builtin(b, c)
		}
	}
	if fl, ok := fun.(*ast.FuncLit); ok {
		// Called here and only here (go func(cmd *exec.Cmd) {...}(cmd)):
		// its parameters are the arguments.
		args := make([]value, len(c.Args))
		for i, a := range c.Args {
			args[i] = w.eval(a)
		}
		w.bindNext = args
		w.closure(fl, false)
		return nil
	}
	if x, ok := w.cmdField(fun, "Cancel"); ok {
		for _, a := range c.Args {
			w.eval(a)
		}
		w.cancelCalled(x, c)
		return []value{{}}
	}
	fn, _ := typeutil.Callee(w.info, c).(*types.Func)
	if isJoin(fn) {
		defer w.joinReads(c)
	}
	var recv value
	var recvExpr ast.Expr
	methodExpr := false
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if s := w.info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			recvExpr = sel.X
			recv = w.recvOf(sel, s)
		} else if s != nil && s.Kind() == types.MethodExpr && len(c.Args) > 0 {
			methodExpr = true // (*exec.Cmd).Run(cmd): the receiver is the first argument
		}
	}
	args := make([]value, len(c.Args))
	for i, a := range c.Args {
		w.watchNext = isFunctionNamed(fn, "context", "AfterFunc") && i == 1
		w.laterNext = (isFunctionNamed(fn, "context", "AfterFunc") || isFunctionNamed(fn, "time", "AfterFunc")) && i == 1
		if isFunctionNamed(fn, "time", "AfterFunc") && i == 1 {
			w.timerNext = "time.AfterFunc(" + types.ExprString(c.Args[0]) + ", ...) (" + w.ps.where(c.Pos()) + ")"
		}
		if fl, ok := ast.Unparen(a).(*ast.FuncLit); ok && goParam(w.ps.pass, w.ps.goParams, c, i) {
			// Run in a goroutine the callee starts: as `go func() {...}()`.
			w.goNext = fl
			w.inGo++
			w.paramGo = append(w.paramGo, w.inGo)
			args[i] = w.eval(a)
			w.paramGo = w.paramGo[:len(w.paramGo)-1]
			w.inGo--
		} else {
			args[i] = w.eval(a)
		}
		w.watchNext, w.laterNext, w.timerNext = false, false, ""
	}
	if vals, ok := w.knownCall(c, fn, recv, recvExpr, methodExpr, args); ok {
		return vals
	}
	if w.ps.ill[fn] {
		w.untypedCall(c, fn, args)
		return nil
	}
	if fn != nil && !isInterfaceMethod(fn) {
		if w.wrapperRun(c, fn, recvExpr) {
			return nil
		}
		if s := w.ps.summaryOf(fn); s != nil {
			return w.apply(s, fn, c, args)
		}
		w.passedOn(c, fn, args, false)
		return nil
	}
	if m := w.soleImplOf(fn); m != nil {
		if s := w.ps.summaryOf(m); s != nil {
			return w.apply(s, m, c, args)
		}
	}
	// A function value or an interface method.
	if fn == nil {
		if v := w.eval(fun); v.fn != nil {
			if methodOf(v.fn.named, "os/exec", "Cmd") && v.fn.recvExpr != nil {
				return w.cmdMethod(c, v.fn.named.Name(), v.fn.recv, v.fn.recvExpr, true)
			}
			if isFunctionNamed(v.fn.named, "os/exec", "Command", "CommandContext") {
				// exec.Command kept in a variable or field (cmd_funcs.go).
				vals, _ := w.knownCall(c, v.fn.named, value{}, nil, false, args)
				return vals
			}
			if v.fn.lit != nil {
				w.callFieldLit(v.fn.lit, args, c)
				return nil
			}
			if v.fn.named != nil {
				if s := w.ps.summaryOf(v.fn.named); s != nil {
					return w.apply(s, v.fn.named, c, args)
				}
				return nil
			}
			w.callFn(v.fn, args, c.Args, c)
			return v.fn.results
		}
	}
	if vals, ok := w.factoryCall(c); ok {
		return vals
	}
	w.passedOn(c, fn, args, true)
	return nil
}

// passedOn handles a call execcheck does not follow: commands passed to
// it escape (dynamic: a function value or an interface method), closures
// passed to it are called, and a Cancel being walked notes it.
func (w *walker) passedOn(c *ast.CallExpr, fn *types.Func, args []value, dynamic bool) {
	name := types.ExprString(c.Fun)
	for _, a := range args {
		if a.fn != nil && a.fn.sc != nil && (len(a.fn.effects) > 0 || len(a.fn.closes) > 0) {
			w.callFn(a.fn, nil, nil, c)
		}
		if a.inst != nil && dynamic {
			w.escape(a.inst, "passed to "+name+", which execcheck cannot follow")
		}
		if x := a.pid; x == nil && a.proc != nil {
			a.pid = a.proc
		}
		if a.pid != nil && dynamic && takesSignal(w.info.TypeOf(c.Fun)) {
			// A kill through a function value execcheck does not know
			// (field_funcs.go follows those the package fills once).
			w.record(a.pid, w.here(effect{Unknown: true, SigParam: -1, Why: "its pid goes with a signal to " + name + ", which execcheck cannot follow"}), -1)
		}
	}
	if w.cancelOwner != nil && (dynamic || fn == nil || !quietPkg(fn.Pkg())) {
		w.cancelSeen = append(w.cancelSeen, name)
	}
}

// quietPkg reports whether calls into pkg never kill a process: a Cancel
// calling only those kills nothing but what execcheck saw.
func quietPkg(p *types.Package) bool {
	if p == nil {
		return false
	}
	switch p.Path() {
	case "syscall", "golang.org/x/sys/unix", "golang.org/x/sys/windows", "os", "os/exec":
		return false
	}
	return !hasDot(p.Path())
}

// hasDot reports whether the first element of path has a dot: a module's
// package, not the standard library's.
func hasDot(path string) bool {
	for i := 0; i < len(path) && path[i] != '/'; i++ {
		if path[i] == '.' {
			return true
		}
	}
	return false
}

// builtin walks a call of a builtin: its arguments are evaluated, and
// append's result is the container all its command arguments join.
func (w *walker) builtin(b *types.Builtin, c *ast.CallExpr) []value {
	var vals []value
	for _, a := range c.Args {
		vals = append(vals, w.eval(a))
	}
	if b.Name() == "append" && len(vals) > 0 {
		var into *instance
		for _, v := range vals {
			if v.inst == nil {
				continue
			}
			if into == nil {
				into = v.inst
			} else {
				into = join(into, v.inst)
			}
		}
		if into != nil {
			return []value{{inst: into}}
		}
		if isProcs(w.info.TypeOf(c)) {
			// append(procs, cmd.Process): the slice now holds that process.
			for _, v := range vals[1:] {
				if v.proc != nil {
					return []value{{proc: v.proc}}
				}
			}
		}
	}
	return []value{{}}
}

// apply applies a callee's summary at the call c: what it does to a
// command parameter is done to the command passed (applyProps; a helper
// of this package that keeps the parameter in a field joins the two),
// its kills of a pid or *os.Process parameter kill the one passed (of
// its group for -pid), and its results become the command it makes
// (fromResult) or passes back, the kill function or the SysProcAttr it
// returns. The effects are placed at the call (here), a signal
// parameter replaced by the argument (resolve).
func (w *walker) apply(s *summary, fn *types.Func, c *ast.CallExpr, args []value) []value {
	argExpr := func(i int) ast.Expr {
		if i < len(c.Args) {
			return c.Args[i]
		}
		return nil
	}
	argVal := func(i int) value {
		if i < len(args) {
			return args[i]
		}
		return value{}
	}
	via := fn.Name()
	w.ps.called[fn.Origin()] = true
	w.applyKeptKills(s, via, argExpr)
	for i, p := range s.Params {
		a := argVal(i)
		if a.inst == nil {
			continue
		}
		if h := s.held[i]; h != nil && fn.Pkg() == w.ps.pass.Pkg {
			join(h, a.inst)
			continue
		}
		w.applyProps(a.inst, p, c, via, argExpr, s.goWaits[i])
	}
	if fn.Pkg() == w.ps.pass.Pkg {
		// A parameter only stored in a field (a constructor's
		// &PluginInstance{cmd: e}): what the package does through the
		// field is done to the command passed.
		for i, h := range s.held {
			if a := argVal(i); a.inst != nil && s.Params[i] == nil {
				join(h, a.inst)
			}
		}
	}
	for i, ks := range s.PidParams {
		a := argVal(i)
		if a.pid == nil {
			a.pid = a.proc
		}
		for _, e := range ks {
			e = w.resolve(e, argExpr)
			e.Why += " (in " + via + ")"
			e.Group = e.Group != a.neg
			w.record(a.pid, w.here(e), -1)
		}
	}
	sig, _ := fn.Type().(*types.Signature)
	n := 1
	if sig != nil {
		n = max(sig.Results().Len(), 1)
	}
	res := make([]value, n)
	if s.Result != nil && s.ResultIdx < n {
		res[s.ResultIdx] = value{inst: w.fromResult(s.Result, c, argExpr, via)}
	}
	if s.ResultArg >= 0 && s.ResultIdx >= 0 && s.ResultIdx < n {
		res[s.ResultIdx] = value{inst: argVal(s.ResultArg).inst}
	}
	if s.AttrIdx >= 0 && s.AttrIdx < n {
		a := &attrVal{}
		a.setGroup(s.AttrWhy + " (from " + via + ")")
		res[s.AttrIdx] = value{attr: a}
	}
	for i, why := range s.AttrParams {
		if a := argVal(i).attr; a != nil {
			a.setGroup(why + " (in " + via + ")")
		}
	}
	s.applyPipes(res, argVal)
	if s.FuncIdx >= 0 && s.FuncIdx < n {
		fv := &fnVal{}
		for i, e := range s.FuncKills {
			t := targeted{e: w.here(w.resolve(e, argExpr)), closureSig: -1}
			if i < len(s.FuncOnRes) && s.FuncOnRes[i] && s.ResultIdx < n {
				t.inst = res[s.ResultIdx].inst
			}
			fv.effects = append(fv.effects, t)
		}
		res[s.FuncIdx] = value{fn: fv}
	}
	return res
}

// resolve replaces a signal parameter by the argument at the call.
func (w *walker) resolve(e effect, argExpr func(int) ast.Expr) effect {
	if e.SigParam < 0 {
		return e
	}
	sv := w.sigOf(argExpr(e.SigParam))
	e.Sig, e.SigParam = sv.sig, -1
	if sv.sigParam >= 0 && sv.sigScope == w.top {
		e.SigParam = sv.sigParam
	} else if sv.sigParam >= 0 || sv.closureSig >= 0 {
		e.Sig = sigUnknown
	}
	return e
}

// applyProps applies what a callee does to its command parameter to the
// command passed.
func (w *walker) applyProps(x *instance, p *props, c *ast.CallExpr, via string, argExpr func(int) ast.Expr, goWaits []*ast.BlockStmt) {
	q := p.clone()
	w.fileArg(&q, argExpr)
	kills, runs := q.Kills, q.Runs
	q.Kills, q.Runs = nil, nil
	for i := range q.Cancel {
		q.Cancel[i] = w.here(w.resolve(q.Cancel[i], argExpr))
	}
	if q.CancelSet && q.CancelWhy != "" {
		q.CancelWhy += " (in " + via + ")"
	}
	if q.GroupWhy != "" {
		q.GroupWhy += " (in " + via + ")"
	}
	if q.WaitDelayWhy != "" {
		q.WaitDelayWhy += " (in " + via + ")"
	}
	if w.waitedHere(x) {
		q.TimerKill = "" // armed once Wait returned: it bounds no Wait (zot's killProcessGroup)
	}
	r := x.root()
	r.p.merge(&q)
	switch {
	case p.Waited && p.WaitLate == "" && len(goWaits) > 0 && w.inGo > 0:
		// The helper, called in a goroutine, waits only in goroutines
		// it starts itself (k0s's processWaitQuit): who awaits those is
		// who awaits the Wait, not who awaits the caller's.
		r.asyncWaits = append(r.asyncWaits, goWaits...)
		r.asyncCall = cmp.Or(r.asyncCall, "cmd.Wait (in "+via+")")
	case p.Waited && p.WaitLate == "":
		// The helper waits for the command: where the call stands is
		// where its Wait does (monitorCommand(cmd) in a goroutine).
		w.waitPlace(r, c, "cmd.Wait (in "+via+")")
	}
	for _, e := range kills {
		e = w.resolve(e, argExpr)
		e.Why += " (in " + via + ")"
		w.record(x, w.here(e), -1)
	}
	for _, ri := range runs {
		w.runAt(x, ri, c, via)
	}
}

// fromResult makes the command a constructor returns, at its call.
func (w *walker) fromResult(res *props, c *ast.CallExpr, argExpr func(int) ast.Expr, via string) *instance {
	x := w.ps.newInstance()
	q := res.clone()
	w.fileArg(&q, argExpr)
	runs := q.Runs
	q.Runs = nil
	defer func() {
		for _, ri := range runs {
			w.runAt(x, ri, c, via)
		}
	}()
	for i := range q.Kills {
		q.Kills[i] = w.here(w.resolve(q.Kills[i], argExpr))
	}
	for i := range q.Cancel {
		q.Cancel[i] = w.here(w.resolve(q.Cancel[i], argExpr))
	}
	for i := range q.Creations {
		cr := &q.Creations[i]
		var ctxExpr ast.Expr
		if cr.Ctx == ctxParam {
			ctxExpr = argExpr(cr.CtxParam)
			switch {
			case ctxExpr == nil:
				cr.Ctx, cr.CtxParam, cr.CtxField = ctxCancel, -1, ""
			case cr.CtxField != "":
				field := cr.CtxField
				cr.Ctx, cr.CtxParam, cr.CtxField = w.ctxAtField(ctxExpr, field)
				ctxExpr = &ast.SelectorExpr{X: ctxExpr, Sel: ast.NewIdent(field)}
			default:
				v := w.ctxValue(ctxExpr)
				cr.Ctx, cr.CtxParam, cr.CtxField, cr.CtxScope, cr.CtxHow = v.ctx, v.ctxParam, v.ctxField, v.ctxScope, v.ctxHow
				cr.CtxOwn, cr.CtxDeadline = v.ctxOwn, v.ctxDeadline
			}
		}
		if pi, ok := w.progAt(cr, c); ok {
			cr.Prog = pi
		}
		w.reparam(cr, c)
		if ig, bad := w.ps.ignores.at(c.Pos()); ig != "" || bad {
			cr.Ignore, cr.Bad = ig, bad
		}
		x.local = append(x.local, &localCreation{call: c, ctxExpr: ctxExpr})
	}
	x.p = q
	return x
}

// takesSignal reports whether t is a function type with a signal
// parameter: a kill.
func takesSignal(t types.Type) bool {
	sig, ok := types.Unalias(t).(*types.Signature)
	if t != nil && !ok {
		sig, ok = t.Underlying().(*types.Signature)
	}
	if !ok {
		return false
	}
	for i := range sig.Params().Len() {
		if isSignal(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}
