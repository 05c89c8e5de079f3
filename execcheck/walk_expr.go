package execcheck

// The walk of expressions: what execcheck knows of the value of an
// identifier, a selector, a composite literal or any other expression
// (a command, its process, its pid, a context, a signal, a function).
// What the fields of exec.Cmd mean is in cmd_fields.go.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// multi evaluates an expression that yields n values.
func (w *walker) multi(e ast.Expr, n int) []value {
	var vals []value
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		vals = w.call(c)
	} else {
		vals = []value{w.eval(e)}
	}
	for len(vals) < n {
		vals = append(vals, value{})
	}
	return vals
}

// eval is what execcheck knows of the value of e. It walks the
// subexpressions, so that the calls and closures in them are walked, and
// tracks only what bears on a command: the command (or a container of
// commands) itself, its *os.Process, its pid (and -pid: its group), a
// SysProcAttr, an output pipe, a context, a signal, a function value.
// Anything else is the zero value.
func (w *walker) eval(e ast.Expr) value {
	switch e := e.(type) {
	case nil:
		return value{}
	case *ast.ParenExpr:
		return w.eval(e.X)
	case *ast.Ident:
		return w.ident(e)
	case *ast.SelectorExpr:
		return w.selector(e)
	case *ast.CallExpr:
		if vs := w.call(e); len(vs) > 0 {
			return vs[0]
		}
	case *ast.UnaryExpr:
		v := w.eval(e.X)
		switch e.Op {
		case token.SUB:
			if v.pid != nil {
				v.neg = !v.neg
				return v
			}
			return value{}
		case token.ARROW:
			if w.isReceive(e) {
				w.joinReads(e)
			}
			w.watchDone(e)
			if pv, ok := w.receivedProc(e.X); ok {
				return pv
			}
			return v
		case token.AND:
			return v
		}
	case *ast.StarExpr:
		return w.eval(e.X)
	case *ast.CompositeLit:
		return w.composite(e)
	case *ast.FuncLit:
		return w.closure(e, false)
	case *ast.IndexExpr:
		v := w.eval(e.X)
		w.eval(e.Index)
		if v.inst != nil {
			return value{inst: v.inst}
		}
		if v.proc != nil && isProcs(w.info.TypeOf(e.X)) {
			return value{proc: v.proc}
		}
	case *ast.SliceExpr:
		v := w.eval(e.X)
		w.eval(e.Low)
		w.eval(e.High)
		w.eval(e.Max)
		if v.inst != nil {
			return value{inst: v.inst}
		}
	case *ast.BinaryExpr:
		w.eval(e.X)
		w.eval(e.Y)
	case *ast.TypeAssertExpr:
		// sig.(syscall.Signal) is the signal sig is, as a conversion is:
		// the os.Signal a helper takes is asserted before syscall.Kill.
		if v := w.eval(e.X); v.isSig {
			return v
		}
	case *ast.KeyValueExpr:
		w.eval(e.Key)
		return w.eval(e.Value)
	}
	return value{}
}

// ident is the value of a name: what the walk last assigned to it; for a
// package variable, its package-wide value (globalValue); for a local
// command the walk did not see assigned, a command of unknown origin,
// kept from then on; for a context not seen, one that can be done; for
// a declared function, a function value.
func (w *walker) ident(id *ast.Ident) value {
	obj := w.info.ObjectOf(id)
	if obj == nil {
		return value{}
	}
	if x := w.loopCmd(obj); x != nil {
		return value{inst: x}
	}
	if v, ok := w.env[obj]; ok {
		if v.proc == nil && w.loopCarried(obj) {
			return w.keptValue(obj.(*types.Var))
		}
		return v
	}
	switch o := obj.(type) {
	case *types.Var:
		if isPackageLevel(o) {
			return w.globalValue(o)
		}
		if w.loopCarried(o) {
			return w.keptValue(o)
		}
		if holdsCmd(o.Type()) {
			// A command from where this walk did not see it made.
			v := value{inst: w.ps.newInstance()}
			w.env[obj] = v
			return v
		}
		if isContext(o.Type()) {
			return value{isCtx: true, ctx: ctxCancel}
		}
	case *types.Func:
		return value{fn: &fnVal{named: o}}
	}
	return value{}
}

// globalValue is the value of the package variable o: a signal
// (os.Kill, os.Interrupt), or, for a variable of this package holding a
// command or an integer, the package-wide command or pid; nothing for
// other packages' variables.
func (w *walker) globalValue(o *types.Var) value {
	if v, ok := signalVar(o); ok {
		return v
	}
	if o.Pkg() != w.ps.pass.Pkg {
		return value{}
	}
	if holdsCmd(o.Type()) {
		return value{inst: w.ps.field(o)}
	}
	if keepsProc(o.Type()) {
		return w.keptValue(o)
	}
	if v, ok := w.keptPipe(o); ok {
		return v
	}
	if v, ok := w.cmdFuncValue(o); ok {
		return v
	}
	if v, ok := w.funcVarValue(o); ok {
		return v
	}
	return value{}
}

// selector is the value of x.f: a qualified name (pkg.V, pkg.F); a field
// the exec model knows (readCmdField); a field holding a command or an
// integer, the one that field holds package-wide, whatever the struct
// value (a command kept in a runner's field is the same in all its
// methods); a method value, a function value that, for a method of
// *exec.Cmd, keeps its receiver for the run at its call.
func (w *walker) selector(e *ast.SelectorExpr) value {
	sel := w.info.Selections[e]
	if sel == nil {
		switch o := w.info.Uses[e.Sel].(type) {
		case *types.Var:
			return w.globalValue(o)
		case *types.Func:
			return value{fn: &fnVal{named: o}}
		}
		return value{}
	}
	switch sel.Kind() {
	case types.FieldVal:
		f := sel.Obj().(*types.Var)
		x := w.recvOf(e, sel)
		if v, ok := readCmdField(sel, f, x); ok {
			return v
		}
		if holdsCmd(f.Type()) {
			return value{inst: w.ps.field(f)}
		}
		if keepsProc(f.Type()) {
			return w.keptValue(f)
		}
		if v, ok := w.keptPipe(f); ok {
			return v
		}
		if v, ok := w.cmdFuncValue(f); ok {
			return v
		}
		if v, ok := w.fieldFuncValue(f); ok {
			return v
		}
		if isContext(f.Type()) {
			return w.ctxFieldRead(e, f)
		}
	case types.MethodVal:
		x := w.recvOf(e, sel)
		if fn, ok := sel.Obj().(*types.Func); ok {
			if methodOf(fn, "os/exec", "Cmd") {
				return value{fn: &fnVal{named: fn, recv: x, recvExpr: e.X}}
			}
			return value{fn: &fnVal{named: fn}}
		}
	}
	return value{}
}

// composite is the value of a composite literal: an exec.Cmd or a
// SysProcAttr literal is the exec model's (cmdLit, sysProcAttrLit); in a
// struct literal, a keyed field holding a command or a pid joins what it
// is given into that field's package-wide one; a slice, array or map
// literal holding commands is one container that all its elements join.
func (w *walker) composite(e *ast.CompositeLit) value {
	t := w.info.TypeOf(e)
	switch {
	case t == nil:
	case isCmd(t) && !isPointerType(t):
		return w.cmdLit(e)
	case isSysProcAttr(t):
		return w.sysProcAttrLit(e)
	}
	var container *instance
	if t != nil && holdsCmd(t) {
		container = w.ps.newInstance()
	}
	st, _ := derefStruct(t)
	var ctxFields map[string]value
	for _, el := range e.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok && st != nil {
			v := w.eval(kv.Value)
			if k, ok := kv.Key.(*ast.Ident); ok {
				if f, ok := w.info.ObjectOf(k).(*types.Var); ok && f.IsField() {
					ctxFields = ctxFieldSet(ctxFields, f, v)
					switch {
					case holdsCmd(f.Type()) && v.inst != nil:
						join(w.ps.field(f), v.inst)
					case w.keepPipe(f, v):
					default:
						w.keepProc(f, v)
					}
				}
			}
			continue
		}
		v := w.eval(el)
		if container != nil && v.inst != nil {
			join(container, v.inst)
		}
	}
	if container != nil {
		return value{inst: container, ctxFields: ctxFields}
	}
	return value{ctxFields: ctxFields}
}
