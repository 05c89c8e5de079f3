package execcheck

// A field of function type that a constructor fills with the one
// function production runs, so that tests can put a fake there:
//
//	type processDeps struct{ kill func(pid int, sig syscall.Signal) error }
//	func newProcessDeps() processDeps {
//		return processDeps{kill: func(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }}
//	}
//	p.deps.kill(-p.pid, syscall.SIGKILL) // go-microvm's runner
//
// A call through the field is a call of that function: a named one's
// summary is applied, a literal's body is walked at the call with the
// call's arguments. Only where the package's files (not its tests) give
// the field one value, a named function or a literal that captures no
// local variable and makes no command; a second value, a positional
// struct literal or the field's address taken leaves it unfollowed.

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// fieldFunc is the one function a field of function type holds.
type fieldFunc struct {
	named *types.Func
	lit   *ast.FuncLit
}

// scanFieldFuncs finds the fields of function type the package's files
// fill with one function.
func (ps *pkgState) scanFieldFuncs() {
	info := ps.pass.TypesInfo
	vals := map[*types.Var][]ast.Expr{}
	lost := map[*types.Var]bool{}
	funcField := func(v *types.Var) bool {
		if v == nil || !v.IsField() || v.Pkg() != ps.pass.Pkg {
			return false
		}
		_, ok := v.Type().Underlying().(*types.Signature)
		return ok
	}
	fieldOf := func(e ast.Expr) *types.Var {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(sel.Sel).(*types.Var)
		if !funcField(v) {
			return nil
		}
		return v
	}
	for _, f := range ps.pass.Files {
		if strings.HasSuffix(ps.pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue // a test's fake is not what production runs
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				st, _ := info.TypeOf(n).Underlying().(*types.Struct)
				if st == nil {
					break
				}
				for i, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok {
							if v, _ := info.ObjectOf(k).(*types.Var); funcField(v) {
								vals[v] = append(vals[v], kv.Value)
							}
						}
					} else if i < st.NumFields() && funcField(st.Field(i)) {
						lost[st.Field(i)] = true
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if v := fieldOf(l); v != nil {
						if len(n.Lhs) == len(n.Rhs) {
							vals[v] = append(vals[v], n.Rhs[i])
						} else {
							lost[v] = true
						}
					}
				}
			case *ast.UnaryExpr:
				if v := fieldOf(n.X); v != nil && n.Op.String() == "&" {
					lost[v] = true
				}
			}
			return true
		})
	}
	ps.fieldFuncs = map[*types.Var]fieldFunc{}
	for v, es := range vals {
		if lost[v] || len(es) != 1 {
			continue
		}
		if fn := funcNamed(info, es[0]); fn != nil {
			ps.fieldFuncs[v] = fieldFunc{named: fn}
		} else if fl, ok := ast.Unparen(es[0]).(*ast.FuncLit); ok && selfContained(info, fl) {
			ps.fieldFuncs[v] = fieldFunc{lit: fl}
		}
	}
}

// selfContained reports whether fl reads no variable of a function
// around it and makes no command: walked at each call through its
// field, it then means the same there as where it was written.
func selfContained(info *types.Info, fl *ast.FuncLit) bool {
	ok := true
	ast.Inspect(fl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			v, _ := info.Uses[n].(*types.Var)
			if v != nil && !v.IsField() && !isPackageLevel(v) && (v.Pos() < fl.Pos() || v.Pos() >= fl.End()) {
				ok = false
			}
		case *ast.CallExpr:
			if fn, _ := typeutil.Callee(info, n).(*types.Func); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "os/exec" {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// fieldFuncValue is the value of a read of field v, if the package fills
// it with one function.
func (w *walker) fieldFuncValue(v *types.Var) (value, bool) {
	ff, ok := w.ps.fieldFuncs[v]
	switch {
	case !ok:
		return value{}, false
	case ff.named != nil:
		return namedFuncValue(ff.named)
	}
	return value{fn: &fnVal{lit: ff.lit}}, true
}

// callFieldLit walks the literal a field holds at the call c through it,
// its parameters the call's arguments, as a literal called where it is
// written; its kills say which field's function made them. A literal
// that calls itself through its field is walked once.
func (w *walker) callFieldLit(fl *ast.FuncLit, args []value, c *ast.CallExpr) {
	if w.ps.litBusy[fl] {
		return
	}
	w.ps.litBusy[fl] = true
	defer delete(w.ps.litBusy, fl)
	bind := make([]value, len(args))
	for i, a := range args {
		bind[i] = a
		if i < len(c.Args) && !a.isSig && isSignal(w.info.TypeOf(c.Args[i])) {
			bind[i] = w.sigOf(c.Args[i]) // a constant: syscall.SIGTERM
		}
	}
	w.bindNext = bind
	n0 := len(w.sum.Kills)
	fv := w.closure(fl, true).fn
	n1 := len(w.sum.Kills)
	for i := range fv.effects {
		fv.effects[i].e.Why += " (in the function " + types.ExprString(c.Fun) + " holds)"
	}
	w.callFn(fv, args, c.Args, c)
	// The summary has each kill twice, kept for the call and made at it:
	// once, as made at the call.
	w.sum.Kills = append(w.sum.Kills[:n0], w.sum.Kills[n1:]...)
}
