package execcheck

// A context replaced on one branch only: `if ctx == nil { ctx =
// context.Background() }` leaves a value that may be either, and one
// that may be done is what a cancel needs. The walk follows a variable
// without branches (it holds what was last assigned), so an assignment
// of a context on an arm keeps the context it replaces when that one can
// be done.

import (
	"go/ast"
	"go/types"
)

// branchCtx is the context a variable holds after l = v, where v is a
// context: v itself, unless the assignment stands on an arm of an if,
// switch or select inside the variable's scope (so that the old value
// survives the other arms) and the old value can be done while v cannot.
func (w *walker) branchCtx(l *ast.Ident, obj types.Object, v value) value {
	if !v.isCtx || cancellableCtx(v.ctx) || !w.onArmOf(obj) {
		return v
	}
	if old := w.ident(l); old.isCtx && cancellableCtx(old.ctx) {
		return old
	}
	return v
}

// cancellableCtx reports whether a context of kind k may be done.
func cancellableCtx(k ctxKind) bool { return k == ctxCancel || k == ctxParam }

// onArmOf reports whether the walk stands on an arm of a branch that lies
// inside obj's scope: obj was declared before the branch, and keeps its
// value on the other arms.
func (w *walker) onArmOf(obj types.Object) bool {
	sc := obj.Parent()
	if sc == nil {
		return false
	}
	for _, b := range w.branch {
		if !b.rest && b.node.Pos() >= sc.Pos() && b.node.End() <= sc.End() {
			return true
		}
	}
	return false
}
