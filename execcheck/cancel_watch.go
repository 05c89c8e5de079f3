package execcheck

// A kill by hand that watches the cancel: a goroutine that kills after
// `<-ctx.Done()` (on the same arm), the function given to
// context.AfterFunc, or a kill in a function that also calls a
// context.CancelFunc (a Close that cancels the command's context and
// kills the group, in either order: the group outlives its leader while
// any member runs, so a group kill after the default Cancel killed the
// direct child still reaches the rest). Such a kill comes with every
// cancel, so the kill of the direct child that exec.CommandContext's
// default Cancel adds takes nothing from it: the group is killed, also
// after the direct child exited.

import (
	"go/ast"
	"go/token"
)

// watchDone notes a receive from a context's Done where the walk stands:
// a kill after it, not on another arm, watches the context.
func (w *walker) watchDone(e *ast.UnaryExpr) {
	if e.Op == token.ARROW && !w.isReceive(e) {
		w.watchAt = append(w.watchAt, w.here(effect{}))
	}
}

// watching reports whether a kill recorded now, e (placed by here),
// watches the cancel.
func (w *walker) watching(e effect) bool {
	for _, a := range w.watchAt {
		if a.scope == e.scope && !alternative(a, e) {
			return true
		}
	}
	return w.callsCancel
}

// callsCancelIn reports whether body calls a context.CancelFunc, outside
// the function literals inside it.
func (w *walker) callsCancelIn(body *ast.BlockStmt) bool {
	found := false
	if body == nil {
		return false
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if t := w.info.TypeOf(n.Fun); t != nil && isTypeNamed(t, "context", "CancelFunc") {
				found = true
			}
		}
		return !found
	})
	return found
}

// scopeWatch is the watch state of the function or closure walked,
// saved while a closure inside it is walked.
type scopeWatch struct {
	at    []effect
	calls bool
}

// enterWatch starts the watch state of a body: nothing watched yet, or,
// for the function given to context.AfterFunc (watchNext), all of it.
func (w *walker) enterWatch(body *ast.BlockStmt) scopeWatch {
	prev := scopeWatch{w.watchAt, w.callsCancel}
	w.watchAt, w.callsCancel = nil, w.callsCancelIn(body)
	if w.watchNext {
		w.watchAt = []effect{w.here(effect{})}
		w.watchNext = false
	}
	return prev
}

func (w *walker) leaveWatch(prev scopeWatch) { w.watchAt, w.callsCancel = prev.at, prev.calls }
