package execcheck

// A context passed in a field of a struct: the function that makes the
// command reads it from its parameter (exec.CommandContext(sctx.Ctx,
// ...)), and its callers fill the struct (&StepContext{Ctx:
// context.Background()}). The walk keeps, for a struct literal, what its
// context fields hold, and a constructor's creation names the field of
// its parameter (creation.CtxField), read at each call like a context
// parameter. A struct execcheck did not see filled gives a context that
// can be done: a cancel is never assumed away.

import (
	"fmt"
	"go/ast"
	"go/types"
)

// ctxFieldRead is the value of x.f, f a field of context type: what the
// struct literal x holds, the field of a parameter of the function
// walked, or a context that can be done.
func (w *walker) ctxFieldRead(e *ast.SelectorExpr, f *types.Var) value {
	x := w.eval(e.X)
	if v, ok := x.ctxFields[f.Name()]; ok {
		return v
	}
	if i := w.paramAsGiven(e.X); i >= 0 {
		return value{isCtx: true, ctx: ctxParam, ctxParam: i, ctxField: f.Name()}
	}
	if w.ps.neverDoneField(f) {
		how := fmt.Sprintf("the context in field %s, never done (every store into it is context.Background() or a WithCancel of it whose cancel nothing calls)", f.Name())
		return value{isCtx: true, ctx: ctxBackground, ctxHow: how}
	}
	return value{isCtx: true, ctx: ctxCancel}
}

// paramAsGiven is the index of the parameter of the declared function
// walked that e names, if the walk has not seen it assigned; or -1.
func (w *walker) paramAsGiven(e ast.Expr) int {
	i := w.paramIndex(e)
	if i < 0 {
		return -1
	}
	if v, seen := w.env[w.objOf(e)]; seen && (v.inst == nil || v.inst != w.params[i]) {
		return -1
	}
	return i
}

// objOf is the object e names, if e is an identifier.
func (w *walker) objOf(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return w.info.ObjectOf(id)
	}
	return nil
}

// ctxAtField is the context a constructor reads from the field named
// field of its parameter, where arg is the argument given at the call.
func (w *walker) ctxAtField(arg ast.Expr, field string) (ctxKind, int, string) {
	if v, ok := w.eval(arg).ctxFields[field]; ok {
		return v.ctx, v.ctxParam, v.ctxField
	}
	if i := w.paramAsGiven(arg); i >= 0 {
		return ctxParam, i, field
	}
	return ctxCancel, -1, ""
}

// ctxFieldSet records, in a struct literal's value fields, the context
// given to its field f (a value that is no context execcheck can read
// is one that can be done).
func ctxFieldSet(fields map[string]value, f *types.Var, v value) map[string]value {
	if !isContext(f.Type()) {
		return fields
	}
	if fields == nil {
		fields = map[string]value{}
	}
	if !v.isCtx {
		v = value{isCtx: true, ctx: ctxCancel}
	}
	fields[f.Name()] = value{isCtx: true, ctx: v.ctx, ctxParam: v.ctxParam, ctxField: v.ctxField}
	return fields
}

// assignCtxField is x.f = v for a context field f: the struct the
// variable or parameter x names holds v there from now on (so a
// parameter's field set in the constructor is no longer the caller's).
// A struct reached another way (a pointer kept elsewhere, x.y.f) is not
// followed.
func (w *walker) assignCtxField(l *ast.SelectorExpr, f *types.Var, v value) {
	obj := w.objOf(l.X)
	if obj == nil {
		return
	}
	old := w.env[obj]
	fields := make(map[string]value, len(old.ctxFields)+1)
	for k, fv := range old.ctxFields {
		fields[k] = fv
	}
	old.ctxFields = ctxFieldSet(fields, f, v)
	w.env[obj] = old
}
