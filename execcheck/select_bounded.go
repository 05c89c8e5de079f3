package execcheck

// A receive on an arm of a select that another arm bounds (a timer, a
// context's Done, a default): multica's drain, `select { case
// <-readerDone: case <-drainCtx.Done(): }`. It is no join a deferred
// Wait comes after: the select goes on without the readers.

import (
	"go/ast"
)

// boundSelect marks the receives of s's arms when another arm bounds
// the select.
func (w *walker) boundSelect(s *ast.SelectStmt) {
	var recvs []*ast.UnaryExpr
	bounded := false
	for _, st := range s.Body.List {
		cc, ok := st.(*ast.CommClause)
		if !ok {
			continue
		}
		if cc.Comm == nil {
			bounded = true // default
			continue
		}
		u := commRecv(cc.Comm)
		if u == nil {
			continue
		}
		if w.isTimer(u.X) || w.isDone(u.X) {
			bounded = true
			continue
		}
		recvs = append(recvs, u)
	}
	if !bounded {
		return
	}
	if w.boundedRecv == nil {
		w.boundedRecv = map[ast.Expr]bool{}
	}
	for _, u := range recvs {
		w.boundedRecv[u] = true
	}
}

// isDone reports whether ch is a context's Done().
func (w *walker) isDone(ch ast.Expr) bool {
	c, ok := ast.Unparen(ch).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done" && isContext(w.info.TypeOf(sel.X))
}
