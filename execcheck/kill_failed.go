package execcheck

// A group kill on the arm where another group kill failed:
//
//	if err := syscall.Kill(-pgid, syscall.SIGINT); err != nil {
//		_ = syscall.Kill(-pgid, syscall.SIGKILL)
//	}
//
// The SIGKILL comes only when the SIGINT could not be sent: the group
// is gone (ESRCH) or not ours to signal. It is no escalation after the
// signal sent, and the group gets the SIGINT alone (go-go-mcp's Close).
// A kill of the direct child there stays, as the fallback for a
// command with no group (pgid_fallback.go), unless the command is in a
// group of its own on every arm: the group kill then fails only when no
// process of it is left (ESRCH), the direct child included, and the
// fallback kills nothing (goa's signalProcess).

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// groupKillFailed reports whether s's condition holds only when a group
// kill failed: `if err := kill(-pgid, sig); err != nil` or `if
// kill(-pgid, sig) != nil`.
func (w *walker) groupKillFailed(s *ast.IfStmt) bool {
	b, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ || !isNil(w.info, b.Y) {
		return false
	}
	if w.isGroupKill(b.X) {
		return true
	}
	id, ok := ast.Unparen(b.X).(*ast.Ident)
	as, isAssign := s.Init.(*ast.AssignStmt)
	if !ok || !isAssign || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	lhs, ok := as.Lhs[0].(*ast.Ident)
	return ok && w.info.ObjectOf(lhs) == w.info.ObjectOf(id) && w.isGroupKill(as.Rhs[0])
}

// isGroupKill reports whether e is a call of syscall's or unix's Kill of
// a negated pid, or of Killpg.
func (w *walker) isGroupKill(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 2 {
		return false
	}
	fn, ok := typeutil.Callee(w.info, c).(*types.Func)
	if !ok || !isUnixPkg(pkgPathOf(fn)) {
		return false
	}
	if fn.Name() == "Killpg" {
		return true
	}
	u, ok := ast.Unparen(c.Args[0]).(*ast.UnaryExpr)
	return fn.Name() == "Kill" && ok && u.Op == token.SUB
}

// dropGroupFailed leaves out the kills of the direct child made only
// where a group kill failed, for a command in a group of its own on
// every arm (p.Group, no GroupArm).
func dropGroupFailed(effs []effect, p *props) []effect {
	if !p.Group || p.GroupArm != "" {
		return effs
	}
	var out []effect
	for _, e := range effs {
		if !e.GroupFailed || e.Group {
			out = append(out, e)
		}
	}
	return out
}
