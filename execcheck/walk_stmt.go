package execcheck

// The walk of statements: statements in order, with the branch each one
// is in, and assignments, which carry a value into a variable, a field,
// a package variable or a container. What assigning a field of exec.Cmd
// means is in cmd_fields.go.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// block walks statements in order.
func (w *walker) block(list []ast.Stmt) {
	guards, steps, gone, found := len(w.untilDone), len(w.branch), len(w.pgidGone), len(w.pgidFound)
	for _, s := range list {
		w.stmt(s)
		if ifs, ok := s.(*ast.IfStmt); ok && ifs.Else == nil && endsInReturn(ifs.Body.List) {
			// What follows runs only where the if's body did not.
			w.branch = append(w.branch, branchStep{node: ifs, arm: 1, rest: true})
			if x := w.pgidFailed(ifs, 1); x != nil {
				w.pgidGone = append(w.pgidGone, x)
			}
			if x := w.pgidFailed(ifs, 0); x != nil {
				w.pgidFound = append(w.pgidFound, pgidCheck{x, w.cur.id})
			}
		}
	}
	w.untilDone = w.untilDone[:guards]
	w.branch = w.branch[:steps]
	w.pgidGone = w.pgidGone[:gone]
	w.pgidFound = w.pgidFound[:found]
}

// arm walks f as the i'th arm of the if, switch or select at node: the
// kills recorded in it carry that arm (see here and alternative).
func (w *walker) arm(node ast.Node, i int, f func()) {
	w.branch = append(w.branch, branchStep{node: node, arm: i})
	gone, found, waited := len(w.pgidGone), len(w.pgidFound), len(w.waitedSync)
	w.returned = false
	if x := w.pgidFailed(node, i); x != nil {
		w.pgidGone = append(w.pgidGone, x)
	}
	if x := w.pgidFailed(node, 1-i); x != nil && i < 2 {
		w.pgidFound = append(w.pgidFound, pgidCheck{x, w.cur.id})
	}
	f()
	w.armDone(waited)
	w.pgidGone = w.pgidGone[:gone]
	w.pgidFound = w.pgidFound[:found]
	w.branch = w.branch[:len(w.branch)-1]
}

// stmt walks one statement. Every statement is walked once, in source
// order, whatever the control flow: a loop's body once, the arms of an
// if, a switch or a select one after the other, each under arm; a go or
// defer statement's call where it stands. What stmt tracks comes from
// the expressions (eval) and assignments (assign) in the statement, and
// two of its own: a range over a container of commands binds the key
// and value to the container's command, and a command sent on a channel
// joins the channel's command, or escapes if the channel is not one
// execcheck follows.
func (w *walker) stmt(s ast.Stmt) {
	w.pos = s.Pos()
	defer w.stmtDone(s, len(w.armWaited))
	switch s := s.(type) {
	case *ast.BlockStmt:
		w.block(s.List)
	case *ast.ExprStmt:
		if w.isCleanup(s.X) {
			// t.Cleanup(f): f runs when the test ends, as a deferred
			// call of this body does (wait_deferred.go).
			w.defers = append(w.defers, deferAt{scope: w.cur.id, inGo: w.inGo})
			w.eval(s.X)
			w.defers = w.defers[:len(w.defers)-1]
			break
		}
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
		holds, known := w.goosHolds(s.Cond)
		// A test of the system the build is for: one arm runs; the
		// other's kills are not this build's (goos_branch.go).
		failed := w.groupKillFailed(s)
		w.deadArm(known && !holds, func() {
			w.arm(s, 0, func() {
				if failed {
					w.killFailed++
					defer func() { w.killFailed-- }()
				}
				w.block(s.Body.List)
			})
		})
		if s.Else != nil {
			w.deadArm(known && holds, func() { w.arm(s, 1, func() { w.stmt(s.Else) }) })
		}
	case *ast.ForStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		// The condition and the post statement run every turn, as the
		// body does: `for sc.Scan() {` reads in a loop.
		w.loops++
		if s.Cond != nil {
			w.eval(s.Cond)
		}
		if s.Post != nil {
			w.stmt(s.Post)
		}
		w.block(s.Body.List)
		w.loops--
	case *ast.RangeStmt:
		v := w.eval(s.X)
		if id, ok := s.Key.(*ast.Ident); ok {
			if pv, ok := w.receivedProc(s.X); ok {
				if obj := w.info.ObjectOf(id); obj != nil {
					w.env[obj] = pv // for p := range procs, a channel
				}
			}
		}
		if id, ok := s.Value.(*ast.Ident); ok && v.proc != nil && isProcs(w.info.TypeOf(s.X)) {
			// for _, p := range procs: each p is a process kept there.
			if obj := w.info.ObjectOf(id); obj != nil && isProcess(obj.Type()) {
				w.env[obj] = value{proc: v.proc}
			}
		}
		if v.inst != nil {
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					if obj := w.info.ObjectOf(id); obj != nil && holdsCmd(obj.Type()) {
						w.env[obj] = value{inst: v.inst}
					}
				}
			}
		}
		w.loops++
		w.block(s.Body.List)
		w.loops--
	case *ast.SwitchStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		if s.Tag != nil {
			w.eval(s.Tag)
		}
		if i := w.goosCase(s); i >= 0 {
			for j, c := range s.Body.List {
				cc := c.(*ast.CaseClause)
				w.deadArm(j != i, func() { w.arm(s, j, func() { w.block(cc.Body) }) })
			}
			break
		}
		w.clauses(s, s.Body)
	case *ast.TypeSwitchStmt:
		if s.Init != nil {
			w.stmt(s.Init)
		}
		w.stmt(s.Assign)
		w.clauses(s, s.Body)
	case *ast.SelectStmt:
		w.boundSelect(s)
		w.clauses(s, s.Body)
		if g := w.untilFinished(s); g != "" {
			w.untilDone = append(w.untilDone, g)
		}
	case *ast.LabeledStmt:
		w.stmt(s.Stmt)
	case *ast.GoStmt:
		w.goNext, _ = ast.Unparen(s.Call.Fun).(*ast.FuncLit)
		w.inGo++
		prevGo := w.goCall
		w.goCall = s.Call
		w.call(s.Call)
		w.goCall = prevGo
		w.inGo--
	case *ast.DeferStmt:
		w.inDefer++
		w.defers = append(w.defers, deferAt{scope: w.cur.id, inGo: w.inGo})
		w.call(s.Call)
		w.defers = w.defers[:len(w.defers)-1]
		w.inDefer--
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
		if !w.sendProc(s.Chan, v) {
			w.procLost(s.Value, v)
		}
	case *ast.IncDecStmt:
		w.eval(s.X)
	}
}

// clauses walks the clauses of a switch, type switch or select, each as
// an arm of node.
func (w *walker) clauses(node ast.Node, body *ast.BlockStmt) {
	var grace map[int]bool
	why := ""
	if s, ok := node.(*ast.SelectStmt); ok {
		grace, why = w.graceArms(s)
	}
	for i, c := range body.List {
		if grace[i] {
			w.untilDone = append(w.untilDone, why)
		}
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
		if grace[i] {
			w.untilDone = w.untilDone[:len(w.untilDone)-1]
		}
	}
}

// ret walks a return statement, gathering what the function returns for
// its summary (finish): per result index, a command (those of all the
// returns joined into one, and marked as returned), a function value,
// or a SysProcAttr. A bare return returns
// the named results; a function literal returned is walked as a closure
// whose kills wait for its call. In a closure, the values go to the
// closure's results (curFn), which a call of it gives back.
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
		case v.pipe != nil && w.results[i].pipe == nil:
			w.results[i] = v // a pipe returned: pipeResults
		case procOf(v) != nil && procOf(w.results[i]) == nil:
			w.results[i] = v // a pid or process returned: keptPidResults
		case v.attr != nil:
			w.retAttr[i] = v.attr
		}
	}
}

// valueSpec walks a var declaration: its values are assigned as by =;
// a container of commands declared without a value starts as an empty
// container of its own.
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

// assignStmt walks an assignment: a single multi-valued right side (a
// call, a comma-ok) is spread over the left side; an operator assignment
// (+=, |=, ...) only evaluates its right side.
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

// assign carries the value v into l (r: the expression v came from, if
// one: the reasons and the constant checks of exec.Cmd's fields read
// it). A local variable takes v, except a named result holding a
// command, which joins it (a deferred closure sees that command). A
// package variable or a field joins v's command (or pid) into the one
// it holds package-wide, so that a command stored by one function is
// the one another function runs or kills; an element of a container
// joins the container's command. A field of exec.Cmd, or a SysProcAttr's
// Setpgid or Setsid, is the exec model's (assignCmdField).
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
		x := w.stable[obj]
		if x == nil {
			x = w.loopCmd(obj)
		}
		if x != nil {
			if v.inst != nil {
				join(x, v.inst)
			}
			return
		}
		w.env[obj] = w.branchCtx(l, obj, v)
		if w.loopCarried(obj) {
			w.keepProc(obj.(*types.Var), v)
		}
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
		case isContext(f.Type()):
			w.assignCtxField(l, f, v)
		case holdsCmd(f.Type()):
			w.eval(l.X)
			if v.inst != nil {
				join(w.ps.field(f), v.inst)
			}
		default:
			w.eval(l.X)
			if !w.keepPipe(f, v) {
				w.keepProc(f, v)
			}
		}
	case *ast.IndexExpr:
		c := w.eval(l.X)
		w.eval(l.Index)
		if c.inst != nil && v.inst != nil {
			join(c.inst, v.inst)
		}
		if x := procOf(v); c.proc != nil && x != nil && v.proc != nil && isProcs(w.info.TypeOf(l.X)) {
			w.ps.keep(c.proc, x) // procs[id] = cmd.Process
			return
		}
		w.procLost(l, v)
	case *ast.StarExpr:
		w.assign(l.X, v, r)
	}
}

// global carries v into the package variable gv: a command joins the one
// gv holds package-wide (one of another package's variables escapes),
// a pid joins gv's pid.
func (w *walker) global(gv *types.Var, v value) {
	switch {
	case holdsCmd(gv.Type()) && v.inst != nil:
		if gv.Pkg() == w.ps.pass.Pkg {
			join(w.ps.field(gv), v.inst)
		} else {
			w.escape(v.inst, "stored in "+gv.Pkg().Name()+"."+gv.Name())
		}
	case gv.Pkg() == w.ps.pass.Pkg:
		if !w.keepPipe(gv, v) {
			w.keepProc(gv, v)
		}
	}
}

// escape notes that a command went where execcheck cannot follow it: a
// command made here and never run here is then listed as unknown, with
// why, rather than left out.
func (w *walker) escape(x *instance, why string) {
	r := x.root()
	r.p.Escapes = append(r.p.Escapes, why)
}
