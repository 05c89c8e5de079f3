package execcheck

// A context parameter that every call in the package fills with
// context.Background() or context.TODO():
//
//	defer func() { x.runCleanup(context.Background()) }() // kubectl-ai's k8s-bench
//	func (x *TaskExecution) runCleanup(ctx context.Context) error { ... exec.CommandContext(ctx, ...) }
//
// is a context that is never done, as the argument is. Only for a
// function of the package whose name is not exported (no caller
// elsewhere), that is only ever called, by name (never a value, nor a
// method an interface of the package names: a call through it is not
// seen), and called at least once. A parameter of such a function,
// passed on as it is, is never done where it goes.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// neverDoneParam reports whether every call of fn in the package gives
// its context parameter i a context that is never done.
func (ps *pkgState) neverDoneParam(fn *types.Func, i int) bool {
	if ps.neverDone == nil {
		ps.neverDone = ps.neverDoneParams()
	}
	return ps.neverDone[fn][i]
}

func (ps *pkgState) neverDoneParams() map[*types.Func]map[int]bool {
	info := ps.pass.TypesInfo
	calls := map[*types.Func][]*ast.CallExpr{}
	callee := map[*ast.Ident]bool{}       // the names calls are made by
	in := map[*ast.CallExpr]*types.Func{} // the declared function each call stands in
	var encl *types.Func
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.FuncDecl); ok {
				encl, _ = info.Defs[d.Name].(*types.Func)
			}
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			in[c] = encl
			fn := typeutil.StaticCallee(info, c)
			if fn == nil || fn.Pkg() != ps.pass.Pkg || fn.Exported() {
				return true
			}
			switch f := ast.Unparen(c.Fun).(type) {
			case *ast.Ident:
				callee[f] = true
			case *ast.SelectorExpr:
				callee[f.Sel] = true
			default:
				return true
			}
			calls[fn] = append(calls[fn], c)
			return true
		})
	}
	for id, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && !callee[id] {
			delete(calls, fn) // used as a value too
		}
	}
	ifaceNames := ps.interfaceMethodNames()
	out := map[*types.Func]map[int]bool{}
	// To a fixed point: an argument that is a context parameter of the
	// function the call stands in, itself never done (go-minizinc's
	// d.run(ctx, ...) in listSolvers, every call of which gives
	// context.Background()), is never done.
	for changed := true; changed; {
		changed = false
		for fn, cs := range calls {
			sig := fn.Type().(*types.Signature)
			if sig.Recv() != nil && ifaceNames[fn.Name()] {
				continue
			}
			for i := range sig.Params().Len() {
				if !isContext(sig.Params().At(i).Type()) || out[fn][i] {
					continue
				}
				never := true
				for _, c := range cs {
					never = never && i < len(c.Args) && (ps.neverDoneArg(c.Args[i]) || neverDoneParamArg(info, c.Args[i], in[c], out))
				}
				if never {
					if out[fn] == nil {
						out[fn] = map[int]bool{}
					}
					out[fn][i] = true
					changed = true
				}
			}
		}
	}
	return out
}

// neverDoneParamArg reports whether e names a context parameter of encl
// that out already holds never done.
func neverDoneParamArg(info *types.Info, e ast.Expr, encl *types.Func, out map[*types.Func]map[int]bool) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || encl == nil {
		return false
	}
	params := encl.Signature().Params()
	for i := range params.Len() {
		if params.At(i) == info.Uses[id] {
			return out[encl][i]
		}
	}
	return false
}

// neverDoneArg reports whether e is context.Background() or
// context.TODO().
func (ps *pkgState) neverDoneArg(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, _ := typeutil.Callee(ps.pass.TypesInfo, c).(*types.Func)
	return isFunctionNamed(fn, "context", "Background", "TODO")
}

// interfaceMethodNames is the set of method names the package's
// interface types declare: a method of that name may be called through
// one, a call execcheck does not see.
func (ps *pkgState) interfaceMethodNames() map[string]bool {
	names := map[string]bool{}
	for _, tv := range ps.pass.TypesInfo.Types {
		if tv.Type == nil {
			continue
		}
		if it, ok := tv.Type.Underlying().(*types.Interface); ok {
			for m := range it.Methods() {
				names[m.Name()] = true
			}
		}
	}
	for _, obj := range ps.pass.TypesInfo.Defs {
		if tn, ok := obj.(*types.TypeName); ok {
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				for m := range it.Methods() {
					names[m.Name()] = true
				}
			}
		}
	}
	return names
}
