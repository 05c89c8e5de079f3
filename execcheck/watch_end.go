package execcheck

// A watch by hand that the run itself ends once Wait returns:
//
//	go func() {
//		select {
//		case <-ctx.Done():
//			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
//		case <-done:
//		}
//	}()
//	err := cmd.Wait()
//	close(done)
//
// or one message taken from a channel the run sends its own end to
// (crawlab: `signal := <-ch; if signal == TaskCancel { kill }`, and `ch
// <- TaskFinish` after Wait). Such a kill comes only until Wait
// returns. With no pipe, or one WaitDelay bounds, Wait returns when the
// direct child exits: the kill reaches the group only while it runs, as
// a group kill in Cancel does, and a launcher that exits at once leaves
// its group. With a copied pipe nothing bounds, Wait lasts while a
// descendant holds it, and so does the watch.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// goWatch is a goroutine's function literal and the body that starts
// it, kept on the literal's scope.
type goWatch struct {
	lit   *ast.FuncLit
	encl  *ast.BlockStmt
	ended map[string]endSend // channel (as written) -> how the run ends it after Wait
}

// endSend is what the starting body does to a channel after Wait: a
// close, or sends of these constants (nil: a value that is not one).
type endSend struct {
	closed bool
	result bool // a send of Wait's own result: the channel's one message
	sent   []constant.Value
	how    string
}

// startWatch notes, for the literal of a go statement, where it was
// started: its kills may belong to a watch that Wait's return ends.
func (w *walker) startWatch(sc *scope, fl *ast.FuncLit, prev *scope) {
	if w.goNext != fl {
		return
	}
	w.goNext = nil
	encl := prev.body
	if prev == w.top {
		if d := w.ps.decls[w.fn]; w.fn != nil && d != nil {
			encl = d.Body
		}
	}
	if encl == nil {
		return
	}
	ended := w.endedAfterWait(encl, fl)
	if len(ended) > 0 {
		sc.watch = &goWatch{lit: fl, encl: encl, ended: ended}
	}
}

// untilWait returns how the watch of the goroutine walked ends once Wait
// returns, if a kill at pos belongs to such a watch: it stands on a
// select's arm beside one that receives from an ended channel, or after
// a receive of one message from it, under a test that the message is a
// constant the run never sends when it ends. Outside such a goroutine,
// the watch may be the run's own select (watch_beside.go).
func (w *walker) untilWait(pos token.Pos) string {
	g := w.cur.watch
	if g == nil || w.inGo == 0 {
		return w.besideWait(pos)
	}
	how := ""
	ast.Inspect(g.lit.Body, func(n ast.Node) bool {
		if how != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			how = w.selectEnds(g.lit.Body, g.ended, n, pos)
		case *ast.AssignStmt:
			how = w.messageEnds(g, n, pos)
		}
		return true
	})
	return how
}

// selectEnds: pos stands on an arm of s, a select of body, and another
// arm receives from one of the ended channels.
func (w *walker) selectEnds(body *ast.BlockStmt, ended map[string]endSend, s *ast.SelectStmt, pos token.Pos) string {
	var on *ast.CommClause
	for _, c := range s.Body.List {
		if cc := c.(*ast.CommClause); cc.Pos() <= pos && pos < cc.End() {
			on = cc
		}
	}
	if on == nil {
		return ""
	}
	for _, c := range s.Body.List {
		cc := c.(*ast.CommClause)
		if cc == on {
			continue
		}
		if ch := w.recvChan(cc.Comm); ch != "" {
			// In a loop the watch takes a second message: a closed
			// channel is ready at every turn, and Wait's own result
			// is its one message, so an arm on it that returns ends
			// the loop.
			if e, ok := ended[ch]; ok && (!inLoop(body, s) || (e.closed || e.result) && endsInReturn(cc.Body)) {
				return e.how
			}
		}
	}
	return ""
}

// messageEnds: a := <-ch takes one message from an ended channel, and
// pos stands in an if whose condition requires a == K, for a constant K
// that no send after Wait sends.
func (w *walker) messageEnds(g *goWatch, a *ast.AssignStmt, pos token.Pos) string {
	if len(a.Rhs) != 1 || len(a.Lhs) == 0 || a.Pos() > pos {
		return ""
	}
	u, ok := ast.Unparen(a.Rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return ""
	}
	e, ok := g.ended[types.ExprString(ast.Unparen(u.X))]
	if !ok || e.closed || inLoop(g.lit.Body, a) {
		return "" // a close is a message too: what follows it runs after Wait
	}
	id, ok := a.Lhs[0].(*ast.Ident)
	if !ok {
		return ""
	}
	v := w.info.ObjectOf(id)
	how := ""
	ast.Inspect(g.lit.Body, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok || how != "" || is.Pos() < a.End() || !(is.Body.Pos() <= pos && pos < is.Body.End()) {
			return how == ""
		}
		if k := w.requiresEqual(is.Cond, v); k != nil && !sendsValue(e.sent, k) {
			how = e.how
		}
		return how == ""
	})
	return how
}

// requiresEqual returns K where cond holds only if v == K (alone or on
// a side of &&).
func (w *walker) requiresEqual(cond ast.Expr, v types.Object) constant.Value {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch b.Op {
	case token.LAND:
		if k := w.requiresEqual(b.X, v); k != nil {
			return k
		}
		return w.requiresEqual(b.Y, v)
	case token.EQL:
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if id, ok := ast.Unparen(pair[0]).(*ast.Ident); ok && w.info.ObjectOf(id) == v {
				if tv, ok := w.info.Types[pair[1]]; ok && tv.Value != nil {
					return tv.Value
				}
			}
		}
	}
	return nil
}

// sendsValue reports whether one of sent may equal k (nil: a value that
// is not a constant).
func sendsValue(sent []constant.Value, k constant.Value) bool {
	for _, s := range sent {
		if s == nil || s.Kind() != k.Kind() || constant.Compare(s, token.EQL, k) {
			return true
		}
	}
	return false
}

// recvChan is the channel (as written) a select arm's comm receives
// from, or "" for a context's Done or a send.
func (w *walker) recvChan(comm ast.Stmt) string {
	u := commRecv(comm)
	if u == nil || !w.isReceive(u) {
		return ""
	}
	return types.ExprString(ast.Unparen(u.X))
}

// endedAfterWait finds the channels that body closes, or sends to, after
// a Wait (or Run) of a command outside any function literal, or closes
// in a defer, where such a Wait stands: the run's own end, which a
// watch taking one message stops at.
func (w *walker) endedAfterWait(body *ast.BlockStmt, skip *ast.FuncLit) map[string]endSend {
	waitAt := token.NoPos
	inspectOuter(body, func(n ast.Node) {
		if c, ok := n.(*ast.CallExpr); ok && waitAt == token.NoPos && w.waitsCmd(c) {
			waitAt = c.Pos()
		}
	})
	if waitAt == token.NoPos {
		return nil
	}
	ended := map[string]endSend{}
	deferred := map[ast.Node]bool{}
	inspectOuter(body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.DeferStmt:
			deferred[n.Call] = true
			if ch := closeOf(w.info, n.Call); ch != "" {
				e := ended[ch]
				e.closed, e.how = true, "defer close("+ch+")"
				ended[ch] = e
			}
		case *ast.CallExpr:
			if ch := closeOf(w.info, n); ch != "" && !deferred[n] && n.Pos() > waitAt {
				e := ended[ch]
				e.closed, e.how = true, "close("+ch+") after Wait"
				ended[ch] = e
			}
		case *ast.SendStmt:
			// A send of Wait's own result (ch <- cmd.Wait()) ends the
			// channel as one after it does.
			if n.End() > waitAt {
				ch := types.ExprString(ast.Unparen(n.Chan))
				e := ended[ch]
				var k constant.Value
				if tv, ok := w.info.Types[n.Value]; ok {
					k = tv.Value
				}
				e.sent = append(e.sent, k)
				if e.how == "" {
					e.how = types.ExprString(n.Chan) + " <- " + types.ExprString(n.Value)
					if n.Pos() > waitAt {
						e.how += " after Wait"
					}
				}
				e.result = len(e.sent) == 1 && n.Pos() < waitAt
				ended[ch] = e
			}
		}
	})
	return ended
}

// waitsCmd reports whether c is Wait, Run, Output or CombinedOutput of
// an *exec.Cmd.
func (w *walker) waitsCmd(c *ast.CallExpr) bool {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, _ := w.info.Uses[sel.Sel].(*types.Func)
	switch sel.Sel.Name {
	case "Wait", "Run", "Output", "CombinedOutput":
		return methodOf(fn, "os/exec", "Cmd")
	}
	return false
}

// closeOf returns the channel c closes, if c is close(ch).
func closeOf(info *types.Info, c *ast.CallExpr) string {
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok || len(c.Args) != 1 {
		return ""
	}
	if b, ok := info.Uses[id].(*types.Builtin); !ok || b.Name() != "close" {
		return ""
	}
	return types.ExprString(ast.Unparen(c.Args[0]))
}

// inspectOuter calls f for the nodes of body outside function literals.
func inspectOuter(body *ast.BlockStmt, f func(ast.Node)) {
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if n != nil {
			f(n)
		}
		return true
	})
}

// inLoop reports whether n stands in a for or range statement of body,
// outside function literals.
func inLoop(body *ast.BlockStmt, n ast.Node) bool {
	found := false
	inspectOuter(body, func(m ast.Node) {
		switch m.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			found = found || m.Pos() <= n.Pos() && n.End() <= m.End()
		}
	})
	return found
}

// splitUntilWait takes out of hand the kills of a watch Wait's return
// ends, for a run whose Wait is bounded, where one of them kills the
// group: they come only while the direct child runs, and a kill of the
// child beside the group's adds nothing to it.
func splitUntilWait(hand []effect) (rest, ended []effect) {
	group := false
	for _, e := range hand {
		group = group || e.UntilWait != "" && e.Group && !e.Unknown
	}
	if !group {
		return hand, nil
	}
	for _, e := range hand {
		if e.UntilWait != "" && !e.Unknown {
			ended = append(ended, e)
		} else {
			rest = append(rest, e)
		}
	}
	return rest, ended
}

// waitHoldsCopy reports whether Wait itself waits for a pipe's EOF (a
// copy WaitDelay does not bound, or a read to EOF before it), whether or
// not a call waits for Wait: a watch that ends with Wait lasts as long.
func (p *props) waitHoldsCopy() bool {
	return p.readUnbounded() || p.CopyPipe && !p.WaitDelay
}

// closedByWatch reports whether the reads of the pipe, read until EOF
// before Wait, end early only by a Close the watch in hand makes after
// its kills (multica's: SIGTERM the group, SIGKILL it after a grace,
// then close stdout): until a cancel, the reads last as long as any
// descendant holds the pipe, and so do Wait and the watch.
func (p *props) closedByWatch(hand []effect) bool {
	if !p.ReadPipe || p.PipeClosed == "" || p.ReadsFree != "" || p.WaitAside != "" && p.WaitLate == "" {
		return false
	}
	for _, e := range hand {
		if e.UntilWait != "" && e.Group && e.scope == p.PipeClosedIn {
			return true
		}
	}
	return false
}
