package execcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
)

// pkgState is the analysis of one package.
type pkgState struct {
	pass    *analysis.Pass
	decls   map[*types.Func]*ast.FuncDecl
	sums    map[*types.Func]*summary
	busy    map[*types.Func]bool
	called  map[*types.Func]bool     // functions called in the package
	fields  map[*types.Var]*instance // fields and package variables holding commands
	pids    map[*types.Var]*instance // fields and package variables holding a command's pid
	all     []*instance
	ignores *ignores
	scopes  int
}

func (ps *pkgState) newInstance() *instance {
	x := newInstance()
	ps.all = append(ps.all, x)
	return x
}

// field is the command held by a field or package variable, wherever it
// is read or written in the package.
func (ps *pkgState) field(v *types.Var) *instance {
	x := ps.fields[v]
	if x == nil {
		x = ps.newInstance()
		x.held = true
		ps.fields[v] = x
	}
	return x
}

// pidVar is the command whose pid a field or package variable holds,
// wherever it is read or written in the package.
func (ps *pkgState) pidVar(v *types.Var) *instance {
	x := ps.pids[v]
	if x == nil {
		x = ps.newInstance()
		ps.pids[v] = x
	}
	return x
}

func (ps *pkgState) where(pos token.Pos) string {
	p := ps.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// summaryOf returns fn's summary: from its body in this package, from a
// fact otherwise; nil if it does nothing execcheck tracks.
func (ps *pkgState) summaryOf(fn *types.Func) *summary {
	fn = fn.Origin()
	if fn.Pkg() == ps.pass.Pkg {
		if s, ok := ps.sums[fn]; ok {
			return s
		}
		d := ps.decls[fn]
		if d == nil || ps.busy[fn] {
			return nil
		}
		return ps.walkFunc(fn, d)
	}
	var f funcFact
	if ps.pass.ImportObjectFact(fn, &f) {
		return &f.S
	}
	return nil
}

// scope is a function body being walked: a declared function or a
// function literal.
type scope struct {
	id     int
	params map[types.Object]int
}

// fnVal is a function value: a closure whose kills wait for its call, or
// a declared function or method.
type fnVal struct {
	sc      *scope
	effects []targeted
	named   *types.Func
	// A method value of *exec.Cmd (f := cmd.Output): its command, for
	// the run at f().
	recv     value
	recvExpr ast.Expr
	params   map[int]*instance // a closure's command parameters
	results  []value           // what a closure returns
}

type targeted struct {
	inst       *instance
	e          effect
	closureSig int // >= 0: the signal is this parameter of the closure
}

// value is what execcheck knows of an expression.
type value struct {
	inst *instance // a command or a container of commands
	proc *instance // the *os.Process of a command
	pid  *instance // the pid (or pgid) of a command
	neg  bool      // -pid: its group
	attr *attrVal
	fn   *fnVal
	pipe *instance // the reader of a command's StdoutPipe or StderrPipe
	what string    // which: "stdout" or "stderr"

	isCtx    bool
	ctx      ctxKind
	ctxParam int

	isSig      bool
	sig        sigKind
	sigParam   int // >= 0: parameter of the function summarized
	closureSig int // >= 0: parameter of the closure sigScope
	sigScope   *scope
}

// walker walks one declared function, with the closures in it.
type walker struct {
	ps   *pkgState
	info *types.Info
	fn   *types.Func
	top  *scope
	cur  *scope
	sum  *summary
	env  map[types.Object]value

	params   map[int]*instance // command parameters
	pidParam map[int]*instance // integer parameters

	cancelOwner *instance // walking the Cancel closure of this command
	cancelSeen  []string  // calls in that closure execcheck cannot follow
	deferTo     *fnVal    // walking a closure whose kills wait for its call
	branch      []branchStep

	results []value // returned, per result index (merged)
	retAttr []*attrVal

	curFn *fnVal // the closure being walked, if any: its results
	nres  int    // the number of results of the function being walked

	named  []types.Object             // the function's named results
	stable map[types.Object]*instance // named results holding a command: one command however assigned
}

// walkFunc walks a declared function and records its summary.
func (ps *pkgState) walkFunc(fn *types.Func, d *ast.FuncDecl) *summary {
	ps.busy[fn] = true
	defer delete(ps.busy, fn)
	w := &walker{
		ps: ps, info: ps.pass.TypesInfo, fn: fn, sum: newSummary(),
		env: map[types.Object]value{}, params: map[int]*instance{}, pidParam: map[int]*instance{},
	}
	ps.scopes++
	w.top = &scope{id: ps.scopes, params: map[types.Object]int{}}
	w.cur = w.top
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		w.top.params[p] = i
		switch t := p.Type(); {
		case holdsCmd(t):
			x := ps.newInstance()
			x.param = i
			w.params[i] = x
			w.env[p] = value{inst: x}
		case isSignal(t):
			w.env[p] = value{isSig: true, sigParam: i, closureSig: -1, sigScope: w.top}
		case isContext(t):
			w.env[p] = value{isCtx: true, ctx: ctxParam, ctxParam: i}
		case isInteger(t):
			x := ps.newInstance()
			x.param = i
			w.pidParam[i] = x
			w.env[p] = value{pid: x}
		case isProcess(t):
			x := ps.newInstance()
			x.param = i
			w.pidParam[i] = x
			w.env[p] = value{proc: x}
		}
	}
	w.nres = sig.Results().Len()
	w.stable = map[types.Object]*instance{}
	for i := range sig.Results().Len() {
		r := sig.Results().At(i)
		if r.Name() == "" || r.Name() == "_" {
			w.named = nil
			break
		}
		w.named = append(w.named, r)
		if holdsCmd(r.Type()) {
			// A deferred closure may set up the command before the body
			// assigns it (defer func() { harden(cmd) }()).
			x := ps.newInstance()
			w.stable[r] = x
			w.env[r] = value{inst: x}
		}
	}
	if sig.Results().Len() > 0 {
		w.results = make([]value, sig.Results().Len())
		w.retAttr = make([]*attrVal, sig.Results().Len())
	}
	if d.Body != nil {
		w.block(d.Body.List)
	}
	w.finish(sig)
	ps.sums[fn] = w.sum
	if !cancelShaped(sig) {
		// Kills whatever the target matter to callers only where the
		// function can be a Cancel itself (cmd.Cancel = r.stop).
		w.sum.cancelKills, w.sum.Kills = w.sum.Kills, nil
	}
	return w.sum
}

// finish turns what the walk found into the function's summary.
func (w *walker) finish(sig *types.Signature) {
	s := w.sum
	for i, x := range w.params {
		r := x.root()
		if r.held {
			if s.held == nil {
				s.held = map[int]*instance{}
			}
			s.held[i] = r
		}
		if r.p.empty() {
			continue
		}
		if s.Params == nil {
			s.Params = map[int]*props{}
		}
		p := r.p.clone()
		s.Params[i] = &p
	}
	for i, x := range w.pidParam {
		if k := x.root().p.Kills; len(k) > 0 {
			if s.PidParams == nil {
				s.PidParams = map[int][]effect{}
			}
			s.PidParams[i] = append([]effect(nil), k...)
		}
	}
	for i, v := range w.results {
		switch {
		case v.inst != nil && isCmd(sig.Results().At(i).Type()):
			r := v.inst.root()
			if r.param >= 0 && len(r.p.Creations) == 0 {
				s.ResultArg, s.ResultIdx = r.param, i
				continue
			}
			if len(r.p.Creations) > 0 {
				p := r.p.clone()
				for _, rs := range r.runs {
					p.Runs = append(p.Runs, runInfo{Kind: rs.kind, Via: rs.via, Opts: rs.opts})
				}
				s.Result, s.ResultIdx = &p, i
				r.ret, r.retFn = true, w.fn
			}
		case v.fn != nil:
			var k []effect
			for _, t := range v.fn.effects {
				e := t.e
				if t.closureSig >= 0 {
					e.Sig, e.SigParam = sigUnknown, -1
				}
				k = append(k, e)
			}
			switch {
			case isMethodNamed(v.fn.named, "os", "Process", "Kill"):
				k = append(k, effect{Sig: sigKill, SigParam: -1, Why: "Process.Kill"})
			case v.fn.named != nil:
				if ns := w.ps.summaryOf(v.fn.named); ns != nil {
					k = append(k, ns.allKills()...)
				}
			}
			if len(k) > 0 {
				s.FuncIdx, s.FuncKills = i, k
			}
		}
		if a := w.retAttr[i]; a != nil && a.group {
			s.AttrIdx, s.AttrWhy = i, a.why
		}
	}
}

// block walks statements in order.
func (w *walker) block(list []ast.Stmt) {
	for _, s := range list {
		w.stmt(s)
	}
}

func (w *walker) arm(node ast.Node, i int, f func()) {
	w.branch = append(w.branch, branchStep{node, i})
	f()
	w.branch = w.branch[:len(w.branch)-1]
}

func (w *walker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.BlockStmt:
		w.block(s.List)
	case *ast.ExprStmt:
		w.eval(s.X)
	case *ast.AssignStmt:
		w.assignStmt(s)
	case *ast.DeclStmt:
		if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				w.valueSpec(sp.(*ast.ValueSpec))
			}
		}
	case *ast.IfStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		w.eval(s.Cond)
		w.arm(s, 0, func() { w.block(s.Body.List) })
		if s.Else != nil {
			w.arm(s, 1, func() { w.stmt(s.Else) })
		}
	case *ast.ForStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		if s.Cond != nil {
			w.eval(s.Cond)
		}
		if s.Post != nil {
			w.stmt(s.Post)
		}
		w.block(s.Body.List)
	case *ast.RangeStmt:
		v := w.eval(s.X)
		if v.inst != nil {
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					if obj := w.info.ObjectOf(id); obj != nil && holdsCmd(obj.Type()) {
						w.env[obj] = value{inst: v.inst}
					}
				}
			}
		}
		w.block(s.Body.List)
	case *ast.SwitchStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		if s.Tag != nil {
			w.eval(s.Tag)
		}
		w.clauses(s, s.Body)
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		w.stmt(s.Assign)
		w.clauses(s, s.Body)
	case *ast.SelectStmt:
		w.clauses(s, s.Body)
	case *ast.LabeledStmt:
		w.stmt(s.Stmt)
	case *ast.GoStmt:
		w.call(s.Call)
	case *ast.DeferStmt:
		w.call(s.Call)
	case *ast.ReturnStmt:
		w.ret(s)
	case *ast.SendStmt:
		c := w.eval(s.Chan)
		v := w.eval(s.Value)
		if v.inst != nil {
			if c.inst != nil {
				join(c.inst, v.inst)
			} else {
				w.escape(v.inst, "sent on a channel")
			}
		}
	case *ast.IncDecStmt:
		w.eval(s.X)
	}
}

func (w *walker) clauses(node ast.Node, body *ast.BlockStmt) {
	for i, c := range body.List {
		w.arm(node, i, func() {
			switch c := c.(type) {
			case *ast.CaseClause:
				for _, e := range c.List {
					w.eval(e)
				}
				w.block(c.Body)
			case *ast.CommClause:
				if c.Comm != nil {
					w.stmt(c.Comm)
				}
				w.block(c.Body)
			}
		})
	}
}

func (w *walker) ret(s *ast.ReturnStmt) {
	var vals []value
	if len(s.Results) == 0 && w.cur == w.top && len(w.named) > 0 {
		for _, o := range w.named {
			vals = append(vals, w.env[o])
		}
	} else if len(s.Results) == 1 && w.nres > 1 {
		vals = w.multi(s.Results[0], w.nres)
	} else {
		for _, e := range s.Results {
			if fl, ok := ast.Unparen(e).(*ast.FuncLit); ok {
				vals = append(vals, w.closure(fl, true)) // called by whoever gets it
				continue
			}
			vals = append(vals, w.eval(e))
		}
	}
	if w.cur != w.top {
		if f := w.curFn; f != nil {
			for i, v := range vals {
				for len(f.results) <= i {
					f.results = append(f.results, value{})
				}
				if v.inst != nil && f.results[i].inst != nil {
					join(f.results[i].inst, v.inst)
				} else if f.results[i].inst == nil {
					f.results[i] = v
				}
			}
		}
		return
	}
	if w.deferTo != nil || w.cancelOwner != nil {
		return
	}
	for i, v := range vals {
		if i >= len(w.results) {
			break
		}
		if i < len(w.named) && v.inst != nil {
			if x := w.stable[w.named[i]]; x != nil {
				// return e assigns the named result, which deferred
				// calls then see.
				v.inst = join(x, v.inst)
			}
		}
		switch {
		case v.inst != nil:
			v.inst.root().ret = true
			if w.results[i].inst == nil {
				w.results[i] = v
			} else {
				join(w.results[i].inst, v.inst)
			}
		case v.fn != nil && w.results[i].fn == nil:
			w.results[i] = v
		case v.attr != nil:
			w.retAttr[i] = v.attr
		}
	}
}

func (w *walker) valueSpec(vs *ast.ValueSpec) {
	if len(vs.Values) == 0 {
		for _, id := range vs.Names {
			if obj := w.info.ObjectOf(id); obj != nil && holdsCmd(obj.Type()) && !isCmd(obj.Type()) {
				w.env[obj] = value{inst: w.ps.newInstance()} // a container, empty
			}
		}
		return
	}
	if len(vs.Values) == 1 && len(vs.Names) > 1 {
		vals := w.multi(vs.Values[0], len(vs.Names))
		for i, id := range vs.Names {
			w.assign(id, vals[i], nil)
		}
		return
	}
	for i, id := range vs.Names {
		if i < len(vs.Values) {
			w.assignOne(id, vs.Values[i])
		}
	}
}

func (w *walker) assignStmt(s *ast.AssignStmt) {
	if len(s.Rhs) == 1 && len(s.Lhs) > 1 {
		vals := w.multi(s.Rhs[0], len(s.Lhs))
		for i, l := range s.Lhs {
			w.assign(l, vals[i], nil)
		}
		return
	}
	if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
		for _, e := range s.Rhs {
			w.eval(e)
		}
		return
	}
	for i, l := range s.Lhs {
		if i < len(s.Rhs) {
			w.assignOne(l, s.Rhs[i])
		}
	}
}

// assignOne assigns one expression: a closure assigned to Cancel is
// walked as the command's Cancel, one bound to a name waits for its call.
func (w *walker) assignOne(l, r ast.Expr) {
	if fl, ok := ast.Unparen(r).(*ast.FuncLit); ok {
		if x, ok := w.cmdField(l, "Cancel"); ok {
			w.cancelClosure(x, fl)
			return
		}
		if _, ok := l.(*ast.Ident); ok {
			w.assign(l, w.closure(fl, true), r)
			return
		}
	}
	w.assign(l, w.eval(r), r)
}

func (w *walker) assign(l ast.Expr, v value, r ast.Expr) {
	switch l := ast.Unparen(l).(type) {
	case *ast.Ident:
		if l.Name == "_" {
			return
		}
		obj := w.info.ObjectOf(l)
		if obj == nil {
			return
		}
		if gv, ok := obj.(*types.Var); ok && isPackageLevel(gv) {
			w.global(gv, v)
			return
		}
		if x := w.stable[obj]; x != nil {
			if v.inst != nil {
				join(x, v.inst)
			}
			return
		}
		w.env[obj] = v
	case *ast.SelectorExpr:
		sel := w.info.Selections[l]
		if sel == nil {
			if gv, ok := w.info.Uses[l.Sel].(*types.Var); ok {
				w.global(gv, v)
			}
			return
		}
		if sel.Kind() != types.FieldVal {
			return
		}
		f := sel.Obj().(*types.Var)
		if w.assignCmdField(l, sel, f, v, r) {
			return
		}
		switch {
		case holdsCmd(f.Type()):
			w.eval(l.X)
			if v.inst != nil {
				join(w.ps.field(f), v.inst)
			}
		case isInteger(f.Type()) && v.pid != nil:
			w.eval(l.X)
			join(w.ps.pidVar(f), v.pid)
		default:
			w.eval(l.X)
		}
	case *ast.IndexExpr:
		c := w.eval(l.X)
		w.eval(l.Index)
		if c.inst != nil && v.inst != nil {
			join(c.inst, v.inst)
		}
	case *ast.StarExpr:
		w.assign(l.X, v, r)
	}
}

func (w *walker) global(gv *types.Var, v value) {
	switch {
	case holdsCmd(gv.Type()) && v.inst != nil:
		if gv.Pkg() == w.ps.pass.Pkg {
			join(w.ps.field(gv), v.inst)
		} else {
			w.escape(v.inst, "stored in "+gv.Pkg().Name()+"."+gv.Name())
		}
	case isInteger(gv.Type()) && v.pid != nil:
		join(w.ps.pidVar(gv), v.pid)
	}
}

func (w *walker) escape(x *instance, why string) {
	r := x.root()
	r.p.Escapes = append(r.p.Escapes, why)
}

// here places an effect at the current statement.
func (w *walker) here(e effect) effect {
	e.scope = w.cur.id
	e.branch = append([]branchStep(nil), w.branch...)
	return e
}

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

func (w *walker) funcBody(fl *ast.FuncLit, fv *fnVal) {
	w.ps.scopes++
	sc := &scope{id: w.ps.scopes, params: map[types.Object]int{}}
	if fv != nil {
		fv.sc = sc
	}
	i := 0
	for _, f := range fl.Type.Params.List {
		names := f.Names
		if len(names) == 0 {
			i++
			continue
		}
		for _, id := range names {
			if obj := w.info.ObjectOf(id); obj != nil {
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
	prevCur, prevBranch, prevFn, prevRes := w.cur, w.branch, w.curFn, w.nres
	w.cur, w.branch, w.curFn, w.nres = sc, nil, fv, nres
	w.block(fl.Body.List)
	w.cur, w.branch, w.curFn, w.nres = prevCur, prevBranch, prevFn, prevRes
}

// callFn applies a closure's kills at its call.
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
		w.applyProps(args[i].inst, &p, c, types.ExprString(c.Fun), argExpr)
		retarget[r] = args[i].inst
	}
	for _, t := range f.effects {
		if t.inst != nil {
			if a := retarget[t.inst.root()]; a != nil {
				t.inst = a
			}
		}
		e := t.e
		e.scope, e.branch = w.here(e).scope, w.here(e).branch
		cs := -1
		if t.closureSig >= 0 {
			if t.closureSig < len(argExprs) {
				sv := w.sigOf(argExprs[t.closureSig])
				e.Sig, e.SigParam = sv.sig, -1
				switch {
				case sv.closureSig >= 0 && w.deferTo != nil && sv.sigScope == w.deferTo.sc:
					cs = sv.closureSig
				case sv.sigParam >= 0 && sv.sigScope == w.top:
					e.SigParam = sv.sigParam
				case sv.sigParam >= 0 || sv.closureSig >= 0:
					e.Sig = sigUnknown
				}
			} else {
				e.Sig = sigUnknown
			}
		}
		w.record(t.inst, e, cs)
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
