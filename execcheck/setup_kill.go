package execcheck

// A kill that disposes of a command whose set-up failed after Start:
//
//	if err != nil {
//		_ = cmd.Process.Kill()
//		_ = cmd.Wait()
//		return nil, err
//	}
//
// It comes only when a step of the set-up (a pipe, a handshake, a
// containment) returns an error, before the command is handed on; it is
// not what a cancel does. Where the command has a cancel, os/exec's
// (a context that can be done) or a group kill by hand that watches a
// context (cancel_watch.go), such a disposal is left out of the kills by
// hand: otherwise it would be taken for the cancel, and the site
// reported an orphan or a hang where the cancel kills the group, or ok
// where it does not. Without a cancel the disposal still counts: a kill
// on an error path may be the only way the command is ever stopped.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// disposing reports whether the walk stands on the arm of `if err != nil`
// (err an error) whose last statement returns: the error path of a
// set-up step; and whether that arm returns without a Wait (noWait).
func (w *walker) disposing() (ok, noWait bool) {
	steps := w.branch
	for len(steps) > 0 && steps[len(steps)-1].rest {
		steps = steps[:len(steps)-1]
	}
	if len(steps) == 0 {
		return false, false
	}
	b := steps[len(steps)-1]
	s, isIf := b.node.(*ast.IfStmt)
	if !isIf || b.arm != 0 || len(s.Body.List) == 0 {
		return false, false
	}
	if _, ok := s.Body.List[len(s.Body.List)-1].(*ast.ReturnStmt); !ok {
		return false, false
	}
	if !w.errNotNil(s.Cond) {
		return false, false
	}
	return true, !callsWait(s.Body)
}

// callsWait reports whether body calls a method named Wait (of a
// command, a process, or anything that may wait for one).
func callsWait(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				found = true
			}
		}
		return !found
	})
	return found
}

// disposalOrphan is the verdict of a command with no cancel whose only
// kills by hand are disposals that return without waiting for it and
// reach only the direct child: nothing waits on those paths, so no pipe
// blocks, but the descendants keep running.
func disposalOrphan(hand []effect, r reach) (verdict, bool) {
	if len(hand) == 0 || r.direct == "" || r.groupKill != "" {
		return verdict{}, false
	}
	for _, e := range hand {
		if !e.Disposal || !e.NoWait {
			return verdict{}, false
		}
	}
	return verdict{class: Orphan, reason: fmt.Sprintf("a kill by hand on an error path that returns without waiting (%s) kills only the direct child: its descendants keep running; the command has no other cancel", r.direct)}, true
}

// errNotNil reports whether cond is `x != nil` with x of type error.
func (w *walker) errNotNil(cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if isNil(w.info, x) {
		x, y = y, x
	}
	if !isNil(w.info, y) {
		return false
	}
	t := w.info.TypeOf(x)
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// dropDisposals leaves the disposals out of hand, the kills by hand of a
// command p, when the command has a cancel of its own: a context that
// can be done (cancellable: os/exec's Cancel is that cancel), or another
// kill by hand that is a group kill watching a context.
func dropDisposals(hand []effect, p *props, cancellable bool) []effect {
	var kept []effect
	for _, e := range hand {
		if !e.Disposal {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(hand) {
		return hand
	}
	if cancellable {
		return kept
	}
	if r := reachOf(kept, p); r.groupKill != "" && r.watch {
		return kept
	}
	return hand
}
