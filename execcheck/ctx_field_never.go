package execcheck

// A context kept in a field whose cancel nothing calls:
//
//	ctx, cfn := context.WithCancel(context.Background())
//	return &AssettoServerProcess{ctx: ctx, cfn: cfn} // cfn never called
//	...
//	as.cmd = exec.CommandContext(as.ctx, path) // in another method
//
// (assetto-server-manager). The field is read where the walk cannot see
// what was stored, and so was taken for a context that can be done; but
// every store into it is a context that is never done: context.Background
// or TODO, or a WithCancel of one whose CancelFunc is dropped or kept
// only in fields that nothing in the package reads. Only unexported
// fields of the package's own types are read so: no other package
// writes them, nor calls what they hold.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// neverDoneField reports whether every store into f, a field of context
// type, is a context that is never done.
func (ps *pkgState) neverDoneField(f *types.Var) bool {
	if ps.fieldUses == nil {
		ps.fieldUses = ps.scanFieldUses()
	}
	u := ps.fieldUses[f]
	if u == nil || u.unknown || len(u.stores) == 0 || !ownField(ps, f) {
		return false
	}
	for _, v := range u.stores {
		if !ps.neverDoneStore(v) {
			return false
		}
	}
	return true
}

// fieldUse is what the package does with one field: the values stored
// into it, how often it is read, and whether it is written in a way the
// scan does not read (an unkeyed literal, a tuple assignment, &x.f).
type fieldUse struct {
	stores  []ast.Expr
	reads   int
	unknown bool
}

// ownField reports whether f is an unexported field of a struct type of
// the package analyzed.
func ownField(ps *pkgState, f *types.Var) bool {
	return f.IsField() && !f.Exported() && f.Pkg() == ps.pass.Pkg
}

func (ps *pkgState) scanFieldUses() map[*types.Var]*fieldUse {
	info := ps.pass.TypesInfo
	uses := map[*types.Var]*fieldUse{}
	use := func(f *types.Var) *fieldUse {
		u := uses[f]
		if u == nil {
			u = &fieldUse{}
			uses[f] = u
		}
		return u
	}
	written := map[*ast.Ident]bool{}
	for _, file := range ps.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				st, ok := info.TypeOf(n).Underlying().(*types.Struct)
				if !ok {
					if p, ok := info.TypeOf(n).Underlying().(*types.Pointer); ok {
						st, _ = p.Elem().Underlying().(*types.Struct)
					}
				}
				for _, el := range n.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						if st != nil {
							for i := 0; i < st.NumFields(); i++ {
								use(st.Field(i)).unknown = true
							}
						}
						break
					}
					if id, ok := kv.Key.(*ast.Ident); ok {
						if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() {
							use(f).stores = append(use(f).stores, kv.Value)
							written[id] = true
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
					if !ok {
						continue
					}
					f, ok := info.Uses[sel.Sel].(*types.Var)
					if !ok || !f.IsField() {
						continue
					}
					written[sel.Sel] = true
					if len(n.Lhs) == len(n.Rhs) && n.Tok == token.ASSIGN {
						use(f).stores = append(use(f).stores, n.Rhs[i])
					} else {
						use(f).unknown = true
					}
				}
			case *ast.UnaryExpr:
				if sel, ok := ast.Unparen(n.X).(*ast.SelectorExpr); ok && n.Op == token.AND {
					if f, ok := info.Uses[sel.Sel].(*types.Var); ok && f.IsField() {
						use(f).unknown = true
					}
				}
			}
			return true
		})
	}
	for id, obj := range info.Uses {
		if f, ok := obj.(*types.Var); ok && f.IsField() && !written[id] {
			use(f).reads++
		}
	}
	return uses
}

// neverDoneStore reports whether v, stored into a context field, is a
// context that is never done: context.Background() or TODO(), or a
// local set once by `ctx, cancel := context.WithCancel(parent)` of such
// a parent, whose cancel is `_` or only stored into fields nothing reads.
func (ps *pkgState) neverDoneStore(v ast.Expr) bool {
	info := ps.pass.TypesInfo
	if neverDoneCall(info, v) {
		return true
	}
	id, ok := ast.Unparen(v).(*ast.Ident)
	if !ok {
		return false
	}
	obj, ok := info.Uses[id].(*types.Var)
	if !ok || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		return false
	}
	def := ps.soleDefinition(obj)
	if def == nil || len(def.Lhs) != 2 || len(def.Rhs) != 1 || def.Tok != token.DEFINE {
		return false
	}
	call, ok := ast.Unparen(def.Rhs[0]).(*ast.CallExpr)
	if !ok || !isFunctionNamed(staticCallee(info, call), "context", "WithCancel", "WithCancelCause") || len(call.Args) != 1 || !neverDoneCall(info, call.Args[0]) {
		return false
	}
	if l, ok := def.Lhs[0].(*ast.Ident); !ok || info.Defs[l] != obj {
		return false
	}
	c, ok := def.Lhs[1].(*ast.Ident)
	if !ok {
		return false
	}
	if c.Name == "_" {
		return true
	}
	cancel, ok := info.Defs[c].(*types.Var)
	return ok && ps.onlyStoredUnread(cancel)
}

// neverDoneCall reports whether e is context.Background() or TODO().
func neverDoneCall(info *types.Info, e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && isFunctionNamed(staticCallee(info, c), "context", "Background", "TODO")
}

// soleDefinition is the assignment that declares obj, a local, if
// nothing assigns it again nor takes its address; nil otherwise.
func (ps *pkgState) soleDefinition(obj *types.Var) *ast.AssignStmt {
	info := ps.pass.TypesInfo
	var def *ast.AssignStmt
	again := false
	for _, file := range ps.pass.Files {
		if file.Pos() > obj.Pos() || obj.Pos() >= file.End() {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					id, ok := ast.Unparen(l).(*ast.Ident)
					if !ok {
						continue
					}
					if info.Defs[id] == obj {
						def = n
					} else if info.Uses[id] == obj {
						again = true
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && info.Uses[id] == obj {
					again = true
				}
			}
			return !again
		})
	}
	if again {
		return nil
	}
	return def
}

// onlyStoredUnread reports whether every use of cancel, a local, stores
// it into an unexported field of the package that nothing reads (a
// keyed literal's value, or the right of `x.f = cancel`).
func (ps *pkgState) onlyStoredUnread(cancel *types.Var) bool {
	info := ps.pass.TypesInfo
	ok, seen := true, false
	for _, file := range ps.pass.Files {
		if file.Pos() > cancel.Pos() || cancel.Pos() >= file.End() {
			continue
		}
		inspectStack(file, func(stack []ast.Node) {
			id, isID := stack[len(stack)-1].(*ast.Ident)
			if !isID || info.Uses[id] != cancel || len(stack) < 2 {
				return
			}
			seen = true
			var f *types.Var
			switch p := stack[len(stack)-2].(type) {
			case *ast.KeyValueExpr:
				if k, isKey := p.Key.(*ast.Ident); isKey && p.Value == id {
					f, _ = info.Uses[k].(*types.Var)
				}
			case *ast.AssignStmt:
				if len(p.Lhs) == 1 && len(p.Rhs) == 1 && p.Rhs[0] == id {
					if sel, isSel := ast.Unparen(p.Lhs[0]).(*ast.SelectorExpr); isSel {
						f, _ = info.Uses[sel.Sel].(*types.Var)
					}
				}
			}
			if f == nil || !ownField(ps, f) || ps.fieldUses[f] == nil || ps.fieldUses[f].reads > 0 {
				ok = false
			}
		})
	}
	return ok && seen
}
