package execcheck

// A kill on the arm where syscall.Getpgid of the command's pid failed.
// The common idiom is
//
//	if pgid, err := syscall.Getpgid(cmd.Process.Pid); err == nil {
//		syscall.Kill(-pgid, syscall.SIGKILL)
//	} else {
//		cmd.Process.Kill()
//	}
//
// getpgid fails only when no process has that pid (ESRCH; Linux and the
// BSDs report nothing else for a child of the caller, which shares its
// session unless it called setsid): the direct child has already been
// reaped, as a zombie still has its group. Its Process.Kill then kills
// nothing (os.ErrProcessDone), so it is no cancel that reaches only the
// direct child, and taking it for one made the group kill on the other
// arm an orphan or a hang. Such a kill is dropped, as a probe is; a
// group kill on that arm (kill(-pid)) still counts.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// pgidFailed is, for the if statement at node and its arm i, the command
// whose Getpgid failed if the arm runs only then (the arm of err != nil,
// or the else of err == nil, err being Getpgid's error, alone or with
// tests that a pgid is positive: err == nil && pgid > 0); nil otherwise.
func (w *walker) pgidFailed(node ast.Node, i int) *instance {
	s, ok := node.(*ast.IfStmt)
	if !ok {
		return nil
	}
	cond := ast.Unparen(s.Cond)
	if i == 1 {
		for {
			b, ok := cond.(*ast.BinaryExpr)
			if !ok || b.Op != token.LAND {
				break
			}
			switch {
			case positive(b.Y):
				cond = ast.Unparen(b.X)
			case positive(b.X):
				cond = ast.Unparen(b.Y)
			default:
				return nil
			}
		}
	}
	b, ok := cond.(*ast.BinaryExpr)
	if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
		return nil
	}
	x := b.X
	if w.isNil(x) {
		x = b.Y
	} else if !w.isNil(b.Y) {
		return nil
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := w.env[w.info.ObjectOf(id)]
	if !ok || v.pgidErr == nil {
		return nil
	}
	if (b.Op == token.NEQ) == (i == 0) {
		return v.pgidErr
	}
	return nil
}

// positive reports whether e tests that a name is positive: x > 0,
// x != 0 or x >= 1 (a pgid getpgid returned, when it did not fail).
func positive(e ast.Expr) bool {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if _, ok := ast.Unparen(b.X).(*ast.Ident); !ok {
		return false
	}
	lit, ok := ast.Unparen(b.Y).(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return false
	}
	return (b.Op == token.GTR || b.Op == token.NEQ) && lit.Value == "0" || b.Op == token.GEQ && lit.Value == "1"
}

// isNil reports whether e is the predeclared nil.
func (w *walker) isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := w.info.Uses[id].(*types.Nil)
	return isNil
}

// killsNothing reports whether a kill of target's direct child (not its
// group) made where the walk stands comes only after target's Getpgid
// failed: the child is gone, and the kill reaches nothing.
func (w *walker) killsNothing(target *instance, group bool) bool {
	if group || target == nil {
		return false
	}
	for _, x := range w.pgidGone {
		if x.root() == target.root() {
			return true
		}
	}
	return false
}

// pgidCheck is a command whose Getpgid succeeded, in the scope (function
// or function literal) that tested it.
type pgidCheck struct {
	inst  *instance
	scope int
}

// killsUnreaped reports whether a group kill of target made where the
// walk stands comes only after target's Getpgid, tested in the same
// function or literal, succeeded (kitproj/kit: `pgid, err :=
// syscall.Getpgid(pid); if err != nil { return nil }`, then a kill of
// -pid): as a kill of the group Getpgid found, it comes only while the
// direct child is unreaped. A test in the function around a goroutine's
// literal was made before the goroutine ran, and proves nothing when it
// kills.
func (w *walker) killsUnreaped(target *instance, group bool) bool {
	if !group || target == nil {
		return false
	}
	for _, c := range w.pgidFound {
		if c.inst.root() == target.root() && c.scope == w.cur.id {
			return true
		}
	}
	return false
}

// pgidHow says how a group kill of a command finds its group.
type pgidHow uint8

const (
	pgidNone      pgidHow = iota // by the pid, or not a group kill
	pgidReaped                   // by Getpgid: only while the direct child is unreaped
	pgidWaitAfter                // by Getpgid, with a Wait after it in the same function
)

// byPgid says whether the group kill of target at c (group: a kill of
// -pid) comes only while the direct child is unreaped: its group found by
// Getpgid (ofGetpgid: the kill is of Getpgid's result), or found only
// after a test that Getpgid succeeded. A Wait that follows the kill in
// the same function leaves the child unreaped until then, unless a Wait
// beside the command reaps it first (splitReaped).
func (w *walker) byPgid(target *instance, group, ofGetpgid bool, c *ast.CallExpr) pgidHow {
	switch {
	case !group || !ofGetpgid && !w.killsUnreaped(target, group):
		return pgidNone
	case w.waitFollows(c):
		return pgidWaitAfter
	}
	return pgidReaped
}
