package execcheck

// A program named through a local variable set once to a constant:
//
//	cmdName := "/bin/sleep"
//	cmd := exec.CommandContext(ctx, cmdName, cmdArgs...)
//
// (mgmt's exec test). The variable is the constant wherever it is read,
// as long as nothing else assigns it or takes its address.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// onceLocals maps each local variable of the package that is given a
// value where it is declared, and never assigned again nor addressed,
// to the expression it is given.
func (ps *pkgState) onceLocals() map[*types.Var]ast.Expr {
	if ps.onceLocal != nil {
		return ps.onceLocal
	}
	info := ps.pass.TypesInfo
	set := map[*types.Var]ast.Expr{}
	first := map[*types.Var]*ast.CallExpr{}
	spoiled := map[*types.Var]bool{}
	note := func(lhs, rhs ast.Expr, define bool) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == ps.pass.Pkg.Scope() {
			return
		}
		if define && info.Defs[id] == v && rhs != nil {
			if _, seen := set[v]; !seen {
				set[v] = rhs
				return
			}
		}
		spoiled[v] = true
	}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && n.Tok == token.DEFINE && len(n.Rhs) == 1 && len(n.Lhs) > 1 {
					// v, err := f(): v is f's first result, kept apart
					// from set, whose values are whole expressions.
					if id, ok := ast.Unparen(n.Lhs[0]).(*ast.Ident); ok {
						if v, ok := info.Defs[id].(*types.Var); ok {
							first[v] = c
						}
					}
					for _, l := range n.Lhs {
						if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Defs[id] != nil {
							continue // declared here
						}
						note(l, nil, false)
					}
					return true
				}
				for i, l := range n.Lhs {
					var r ast.Expr
					if len(n.Lhs) == len(n.Rhs) {
						r = n.Rhs[i]
					}
					note(l, r, n.Tok == token.DEFINE && r != nil)
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					var r ast.Expr
					if len(n.Values) == len(n.Names) {
						r = n.Values[i]
					}
					note(name, r, r != nil)
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok {
							spoiled[v] = true
						}
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						note(e, nil, false)
					}
				}
			}
			return true
		})
	}
	for v := range spoiled {
		delete(set, v)
		delete(first, v)
	}
	ps.onceLocal, ps.firstResult = set, first
	return set
}

// firstResults maps each local variable of the package declared as the
// first of the results of one call (v, err := f()), and never assigned
// again nor addressed, to that call.
func (ps *pkgState) firstResults() map[*types.Var]*ast.CallExpr {
	ps.onceLocals()
	return ps.firstResult
}

// constLocals maps each local string variable of the package that is
// given a constant where it is declared, and never assigned again nor
// addressed, to that constant.
func (ps *pkgState) constLocals() map[*types.Var]string {
	if ps.constLocal != nil {
		return ps.constLocal
	}
	set := map[*types.Var]string{}
	for v, rhs := range ps.onceLocals() {
		if tv, ok := ps.pass.TypesInfo.Types[rhs]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			set[v] = constant.StringVal(tv.Value)
		}
	}
	ps.constLocal = set
	return set
}

// constOf reads e as a string constant: a constant expression, or a
// local variable constLocals knows.
func (w *walker) constOf(e ast.Expr) (string, bool) {
	if s, ok := constString(w.info, e); ok {
		return s, true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return "", false
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	s, ok := w.ps.constLocals()[v]
	return s, ok
}
