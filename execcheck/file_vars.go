package execcheck

// An *os.File behind an interface: `var logw io.WriteCloser = f`, or a
// field `out io.Writer` that only ever holds what os.Create returned.
// os/exec hands an *os.File to the child as it is, with no pipe and no
// copy goroutine, so such a Stdout is a file, not a pipe. What a
// variable holds is read from every assignment to it in the package, in
// any order: a variable or field is file-only when each value assigned
// to it is an *os.File (or nil), none is of another type, its address
// is never taken, and no other package can assign it (a local, or an
// unexported package variable or field).

import (
	"go/ast"
	"go/token"
	"go/types"
)

// fileState is what the assignments to one variable hold.
type fileState struct{ file, other bool }

// scanFileVars reads every assignment of the package into ps.files.
func (ps *pkgState) scanFileVars() {
	info := ps.pass.TypesInfo
	ps.files = map[*types.Var]*fileState{}
	note := func(v *types.Var, t types.Type, nilValue bool) {
		if v == nil || !types.IsInterface(v.Type()) {
			return
		}
		s := ps.files[v]
		if s == nil {
			s = &fileState{}
			ps.files[v] = s
		}
		switch {
		case nilValue:
		case t != nil && isPointerToNamed(t, "os", "File"):
			s.file = true
		default:
			s.other = true
		}
	}
	spread := func(lhs []*types.Var, rhs []ast.Expr) {
		if len(rhs) == 1 && len(lhs) > 1 {
			tup, _ := info.TypeOf(rhs[0]).(*types.Tuple)
			for i, v := range lhs {
				var t types.Type
				if tup != nil && i < tup.Len() {
					t = ps.resultType(rhs[0], i, tup.At(i).Type())
				}
				note(v, t, false)
			}
			return
		}
		for i, v := range lhs {
			if i < len(rhs) {
				note(v, ps.resultType(rhs[i], 0, info.TypeOf(rhs[i])), isNil(info, rhs[i]))
			}
		}
	}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
					return true
				}
				lhs := make([]*types.Var, len(n.Lhs))
				for i, l := range n.Lhs {
					lhs[i] = ps.assignedVar(l)
				}
				spread(lhs, n.Rhs)
			case *ast.ValueSpec:
				lhs := make([]*types.Var, len(n.Names))
				for i, id := range n.Names {
					lhs[i], _ = info.Defs[id].(*types.Var)
				}
				spread(lhs, n.Values)
			case *ast.CompositeLit:
				st, _ := derefStruct(info.TypeOf(n))
				for i, el := range n.Elts {
					switch {
					case st == nil:
					case isKeyValue(el):
						kv := el.(*ast.KeyValueExpr)
						if k, ok := kv.Key.(*ast.Ident); ok {
							v, _ := info.ObjectOf(k).(*types.Var)
							note(v, info.TypeOf(kv.Value), isNil(info, kv.Value))
						}
					case i < st.NumFields():
						note(st.Field(i), info.TypeOf(el), isNil(info, el))
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					note(ps.assignedVar(n.X), nil, false) // assigned through the pointer
				}
			}
			return true
		})
	}
}

func isKeyValue(e ast.Expr) bool { _, ok := e.(*ast.KeyValueExpr); return ok }

// assignedVar is the variable or field e names, if any.
func (ps *pkgState) assignedVar(e ast.Expr) *types.Var {
	info := ps.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.ObjectOf(e).(*types.Var)
		return v
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() == types.FieldVal {
				v, _ := sel.Obj().(*types.Var)
				return v
			}
			return nil
		}
		v, _ := info.Uses[e.Sel].(*types.Var)
		return v
	}
	return nil
}

// holdsFile reports whether e, of interface type, names a variable or
// field that only ever holds an *os.File (see the top of this file).
func (ps *pkgState) holdsFile(e ast.Expr) bool {
	v := ps.assignedVar(e)
	if v == nil || v.Pkg() != ps.pass.Pkg {
		return false
	}
	switch v.Kind() {
	case types.LocalVar:
	case types.PackageVar, types.FieldVar:
		if v.Exported() {
			return false
		}
	default:
		return false // a parameter or result: its callers assign it
	}
	s := ps.files[v]
	return s != nil && s.file && !s.other
}
