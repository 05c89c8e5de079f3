package execcheck

// A kill on a select's arm beside the arm that takes Start's result from
// a goroutine (dimmerz92/eavesdrop's ExecAndWait):
//
//	go func() { errCh <- s.cmd.Start() }()
//	select {
//	case <-ctx.Done():
//		return s.KillProcessGroup()
//	case err := <-errCh:
//	}
//	return s.cmd.Wait()
//
// The arm runs only while Start has not returned, and the select is
// left before the run waits: the kill is not what a cancel of the
// running command does (that is Cancel's, or another watch's).

import (
	"go/ast"
	"go/token"
	"go/types"
)

// beforeStarted reports whether pos stands on an arm of a select of the
// function walked, outside loops, beside an arm that receives from a
// channel a goroutine started in the same declaration sends Start's
// result to.
func (w *walker) beforeStarted(pos token.Pos) bool {
	decl := w.ps.decls[w.fn]
	if w.fn == nil || decl == nil || decl.Body == nil || w.inGo > 0 {
		return false
	}
	started := map[string]bool{}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		if fl, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
			for _, st := range fl.Body.List {
				if s, ok := st.(*ast.SendStmt); ok && w.startsCmdCall(s.Value) {
					started[types.ExprString(ast.Unparen(s.Chan))] = true
				}
			}
		}
		return true
	})
	if len(started) == 0 {
		return false
	}
	found := false
	inspectOuter(decl.Body, func(n ast.Node) {
		s, ok := n.(*ast.SelectStmt)
		if !ok || found || pos < s.Pos() || pos >= s.End() || inLoop(decl.Body, s) {
			return
		}
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if cc.Pos() <= pos && pos < cc.End() {
				continue // the kill's own arm
			}
			found = found || started[w.recvChan(cc.Comm)]
		}
	})
	return found
}

// startsCmdCall reports whether e is a call of Start of an *exec.Cmd.
func (w *walker) startsCmdCall(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Start" {
		return false
	}
	fn, _ := w.info.Uses[sel.Sel].(*types.Func)
	return methodOf(fn, "os/exec", "Cmd")
}
