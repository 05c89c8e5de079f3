package execcheck

// exec.Command kept in a variable or a field of function type, so that
// tests can put a fake there: `var execCommand = exec.Command`, or
// `OSCommand{command: exec.Command}` and `c.command(name, args...)` in
// its methods. A call through a variable or field the package assigns
// exec.Command (or exec.CommandContext) makes a command as that function
// does: the one production runs.

import (
	"go/ast"
	"go/types"
)

// scanCmdFuncs finds the package-level variables and the fields of
// function type the package assigns exec.Command or exec.CommandContext
// (a declaration, an assignment, a keyed struct literal).
func (ps *pkgState) scanCmdFuncs() {
	info := ps.pass.TypesInfo
	ps.cmdFuncs = map[*types.Var]*types.Func{}
	note := func(l ast.Expr, r ast.Expr) {
		fn := execMaker(info, r)
		if fn == nil {
			return
		}
		var v *types.Var
		switch l := ast.Unparen(l).(type) {
		case *ast.Ident:
			v, _ = info.ObjectOf(l).(*types.Var)
		case *ast.SelectorExpr:
			v, _ = info.ObjectOf(l.Sel).(*types.Var)
		}
		if v != nil && (v.IsField() || isPackageLevel(v)) {
			ps.cmdFuncs[v] = fn
		}
	}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						note(name, n.Values[i])
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						note(n.Lhs[i], n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok {
					note(k, n.Value)
				}
			}
			return true
		})
	}
}

// execMaker is exec.Command or exec.CommandContext if e names it.
func execMaker(info *types.Info, e ast.Expr) *types.Func {
	if fn := funcNamed(info, e); isFunctionNamed(fn, "os/exec", "Command", "CommandContext") {
		return fn
	}
	return nil
}

// funcNamed is the function (not a method) that e names, if it names
// one: f or pkg.F.
func funcNamed(info *types.Info, e ast.Expr) *types.Func {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn == nil || fn.Signature().Recv() != nil {
		return nil
	}
	return fn
}

// cmdFuncValue is the value of a read of v, if the package assigns it
// exec.Command or exec.CommandContext.
func (w *walker) cmdFuncValue(v *types.Var) (value, bool) { return namedFuncValue(w.ps.cmdFuncs[v]) }

// namedFuncValue is a function value of fn, if fn is not nil.
func namedFuncValue(fn *types.Func) (value, bool) {
	if fn == nil {
		return value{}, false
	}
	return value{fn: &fnVal{named: fn}}, true
}
