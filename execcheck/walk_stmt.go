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
