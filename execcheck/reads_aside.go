package execcheck

// A helper of the package that reads a pipe it is given in a goroutine
// of its own and returns (cirello-io/runner's prefixedPrinter: `scanner
// := bufio.NewScanner(rdr); go func() { for scanner.Scan() {...} }()`):
// the read runs beside its caller, as a goroutine there would, so a
// Wait or Run that follows closes the pipe once the direct child exits
// (wait_aside.go) rather than waiting for the read's EOF.

import (
	"go/ast"
	"go/types"
)

// readsInGoroutine reports whether fn, declared in the package, uses its
// parameter i (or locals made from it at the top of its body) only in
// go statements, or in a return when the caller drops the results
// (dropped).
func (ps *pkgState) readsInGoroutine(fn *types.Func, i int, dropped bool) bool {
	d := ps.decls[fn]
	if d == nil || d.Body == nil {
		return false
	}
	info := ps.pass.TypesInfo
	sig := fn.Signature()
	if i >= sig.Params().Len() {
		return false
	}
	from := map[types.Object]bool{sig.Params().At(i): true}
	derived := map[ast.Node]bool{} // the right sides that make a local from it
	for _, st := range d.Body.List {
		a, ok := st.(*ast.AssignStmt)
		if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 || !mentions(info, a.Rhs[0], from) {
			continue
		}
		if id, ok := a.Lhs[0].(*ast.Ident); ok && info.ObjectOf(id) != nil {
			from[info.ObjectOf(id)] = true
			derived[a.Rhs[0]] = true
		}
	}
	inGo, outside := false, false
	var walk func(n ast.Node, goStmt bool)
	walk = func(n ast.Node, goStmt bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.ReturnStmt:
				if dropped && !goStmt {
					return false // handed to a caller that drops it
				}
			case *ast.GoStmt:
				if !goStmt {
					walk(m.Call, true)
					return false
				}
			case *ast.Ident:
				if o := info.Uses[m]; o != nil && from[o] {
					if goStmt {
						inGo = true
					} else {
						outside = true
					}
				}
			case *ast.SelectorExpr:
				if !goStmt && (m.Sel.Name == "Buffer" || m.Sel.Name == "Split") {
					return false // a bufio.Scanner set up: no read
				}
				if derived[m] {
					return false
				}
			case ast.Expr:
				if derived[m] {
					return false
				}
			}
			return true
		})
	}
	walk(d.Body, false)
	return inGo && !outside
}

// mentions reports whether e uses one of objs.
func mentions(info *types.Info, e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}
