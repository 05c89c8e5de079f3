package execcheck

// A package variable that holds a function of the package, so that a
// system or a test can put another there:
//
//	var runCmdContext = runCmdContextDefault // gitmirror.go
//	func init() { runCmdContext = runCmdContextLinux } // gitmirror_linux.go
//
// A call through it is a call of the function production runs: the one
// an init function of the files analysed assigns (init runs before any
// call), else the declaration's. An assignment anywhere else in the
// package's files (not its tests), a second init's, or the variable's
// address taken makes it a function value execcheck does not follow.

import (
	"go/ast"
	"go/types"
	"strings"
)

// scanFuncVars finds the package-level variables of function type whose
// value production runs is one named function.
func (ps *pkgState) scanFuncVars() {
	info := ps.pass.TypesInfo
	decl := map[*types.Var]*types.Func{}
	inits := map[*types.Var][]*types.Func{}
	lost := map[*types.Var]bool{}
	funcVar := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || !isPackageLevel(v) || v.Pkg() != ps.pass.Pkg {
			return nil
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			return nil
		}
		return v
	}
	for _, f := range ps.pass.Files {
		test := strings.HasSuffix(ps.pass.Fset.File(f.Pos()).Name(), "_test.go")
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					vs, ok := s.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, name := range vs.Names {
						if v := funcVar(name); v != nil && i < len(vs.Values) {
							if fn := funcNamed(info, vs.Values[i]); fn != nil {
								decl[v] = fn
							} else {
								lost[v] = true
							}
						}
					}
				}
			case *ast.FuncDecl:
				isInit := d.Name.Name == "init" && d.Recv == nil && !test
				if d.Body == nil {
					continue
				}
				if isInit {
					// Top-level statements of init run once, before any call.
					for _, st := range d.Body.List {
						if as, ok := st.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
							for i, l := range as.Lhs {
								if v := funcVar(l); v != nil {
									if fn := funcNamed(info, as.Rhs[i]); fn != nil {
										inits[v] = append(inits[v], fn)
									} else {
										lost[v] = true
									}
								}
							}
						}
					}
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.AssignStmt:
						for _, l := range n.Lhs {
							if v := funcVar(l); v != nil && !test && !(isInit && topLevel(d.Body, n)) {
								lost[v] = true
							}
						}
					case *ast.UnaryExpr:
						if v := funcVar(n.X); v != nil && n.Op.String() == "&" {
							lost[v] = true
						}
					}
					return true
				})
			}
		}
	}
	ps.funcVars = map[*types.Var]*types.Func{}
	for v, fn := range decl {
		switch {
		case lost[v] || len(inits[v]) > 1:
		case len(inits[v]) == 1:
			ps.funcVars[v] = inits[v][0]
		default:
			ps.funcVars[v] = fn
		}
	}
}

// topLevel reports whether st is one of body's own statements.
func topLevel(body *ast.BlockStmt, st ast.Stmt) bool {
	for _, s := range body.List {
		if s == st {
			return true
		}
	}
	return false
}

// funcVarValue is the value of a read of v, if it holds one named
// function production runs.
func (w *walker) funcVarValue(v *types.Var) (value, bool) { return namedFuncValue(w.ps.funcVars[v]) }
