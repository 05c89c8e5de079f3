package execcheck

// A watch the run keeps itself, beside a goroutine that waits:
//
//	waitCh := make(chan error, 1)
//	go func() { waitCh <- cmd.Wait() }()
//	select {
//	case <-ctx.Done():
//		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
//	case err := <-waitCh:
//	}
//
// (autodev's runner). The select leaves the cancel's arm once Wait's
// result comes, so the kill comes only until Wait returns, as a watch
// in a goroutine that the run ends after Wait (watch_end.go) does. So
// do the kills after such a select whose arm for Wait's result returns
// (sparkwing's waitForCommand: SIGTERM on the cancel's arm, then a
// second select that SIGKILLs the group when Wait returns or after a
// grace): they come only where the cancel came before Wait returned.

import (
	"go/ast"
	"go/token"
)

// besideWait returns how a select of the function walked, with the kill
// at pos on one arm, stops watching once Wait returns: another arm
// receives from a channel that a goroutine started in the same
// declaration sends Wait's result to, or closes or sends to after Wait.
func (w *walker) besideWait(pos token.Pos) string {
	decl := w.ps.decls[w.fn]
	if w.fn == nil || decl == nil || decl.Body == nil {
		return ""
	}
	body := w.cur.body
	if w.cur == w.top || body == nil {
		body = decl.Body
	}
	ended := map[string]endSend{}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		if fl, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
			for ch, e := range w.endedAfterWait(fl.Body, nil) {
				if _, seen := ended[ch]; !seen {
					e.how += " in a goroutine"
					ended[ch] = e
				}
			}
		}
		return true
	})
	if len(ended) == 0 {
		return ""
	}
	how := ""
	inspectOuter(body, func(n ast.Node) {
		if s, ok := n.(*ast.SelectStmt); ok && how == "" && s.Pos() <= pos && pos < s.End() {
			how = w.selectEnds(body, ended, s, pos)
		}
	})
	if how == "" {
		how = w.returnedBefore(body, ended, pos)
	}
	return how
}

// returnedBefore returns how a select before pos, in a block of body
// that holds pos and outside loops, returns once Wait's result comes:
// pos is reached only through another of its arms.
func (w *walker) returnedBefore(body *ast.BlockStmt, ended map[string]endSend, pos token.Pos) string {
	how := ""
	inspectOuter(body, func(n ast.Node) {
		b, ok := n.(*ast.BlockStmt)
		if !ok || how != "" || pos < b.Pos() || pos >= b.End() {
			return
		}
		for _, st := range b.List {
			s, ok := st.(*ast.SelectStmt)
			if !ok || s.End() > pos || inLoop(body, s) {
				continue
			}
			for _, c := range s.Body.List {
				cc := c.(*ast.CommClause)
				if e, ok := ended[w.recvChan(cc.Comm)]; ok && endsInReturn(cc.Body) {
					how = e.how + " (the select at " + w.ps.where(s.Pos()) + " returns on it)"
				}
			}
		}
	})
	return how
}
