package execcheck

// A signal held in a local variable that every assignment gives a
// constant:
//
//	sig := syscall.SIGTERM
//	if force {
//		sig = syscall.SIGKILL
//	}
//	syscall.Kill(-pid, sig)
//
// (goa's signalProcess). The kill sends one of those signals, which one
// depending on the path: it is sure to do only what the weakest of them
// does (a SIGINT background jobs ignore, then any other signal, then
// SIGKILL). A set that mixes a probe with signals is not read.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
)

// localSig is what a local given constant signals is sure to send, and
// whether it may hold others.
type localSig struct {
	sig   sigKind
	mixed bool
}

// sigLocals maps each local variable of the package that is declared
// with a constant integer, and given only constant integers after, never
// addressed, to what the weakest of them does.
func (ps *pkgState) sigLocals() map[*types.Var]localSig {
	if ps.sigLocal != nil {
		return ps.sigLocal
	}
	info := ps.pass.TypesInfo
	kinds := map[*types.Var][]sigKind{}
	declared := map[*types.Var]bool{}
	spoiled := map[*types.Var]bool{}
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.ObjectOf(id).(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == ps.pass.Pkg.Scope() || !isSignal(v.Type()) {
			return nil
		}
		return v
	}
	note := func(v *types.Var, rhs ast.Expr, define bool) {
		if v == nil {
			return
		}
		tv, ok := info.Types[rhs]
		if rhs == nil || !ok || tv.Value == nil {
			spoiled[v] = true
			return
		}
		n, ok := constant.Int64Val(constant.ToInt(tv.Value))
		if !ok {
			spoiled[v] = true
			return
		}
		declared[v] = declared[v] || define
		kinds[v] = append(kinds[v], sigNumber(n))
	}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					v := local(l)
					switch {
					case v == nil:
					case len(n.Lhs) != len(n.Rhs) || n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
						spoiled[v] = true
					default:
						note(v, n.Rhs[i], n.Tok == token.DEFINE && info.Defs[l.(*ast.Ident)] == v)
					}
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if v := local(name); v != nil && len(n.Values) == len(n.Names) {
						note(v, n.Values[i], true)
					} else if v != nil {
						spoiled[v] = true
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if v := local(n.X); v != nil {
						spoiled[v] = true
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if v := local(e); v != nil {
						spoiled[v] = true
					}
				}
			}
			return true
		})
	}
	ps.sigLocal = map[*types.Var]localSig{}
	for v, ks := range kinds {
		if spoiled[v] || !declared[v] {
			continue
		}
		if k, ok := weakest(ks); ok {
			ps.sigLocal[v] = localSig{sig: k, mixed: slices.ContainsFunc(ks, func(x sigKind) bool { return x != k })}
		}
	}
	return ps.sigLocal
}

// weakest is what the weakest of the signals ks does; false for a set
// that mixes a probe with signals.
func weakest(ks []sigKind) (sigKind, bool) {
	rank := map[sigKind]int{sigJob: 0, sigOther: 1, sigKill: 2}
	w, probes := sigKill, 0
	for _, k := range ks {
		if k == sigProbe {
			probes++
			continue
		}
		if rank[k] < rank[w] {
			w = k
		}
	}
	switch probes {
	case 0:
		return w, true
	case len(ks):
		return sigProbe, true
	}
	return sigUnknown, false
}
