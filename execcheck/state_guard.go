package execcheck

// Group kills by hand that come only while the program's state allows:
//
//	err := cmd.Run()
//	if ctx.Err() != nil && pgid > 0 { // pgid is set in cmd.Cancel
//		_ = syscall.Kill(-pgid, syscall.SIGKILL)
//	}
//
//	select {
//	case <-s.done: // closed once Wait returned
//		return nil
//	case <-time.After(grace):
//	}
//	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
//
// A direct child that exits at once, before any cancel, leaves the
// context not done, Cancel never run and done closed: none of these
// kills comes, and the rest of its group keeps running. Like a kill on
// some results of Wait (wait_result.go), such a kill is no cover for the
// group after the direct child exited.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// stateCond says what cond tests of the state after a run of the
// command that finished in the function walked, or "": whether the
// context is done (a context's Err), or a variable that only a function
// literal sets (a flag or a pgid set in Cancel).
func (w *walker) stateCond(cond ast.Expr) string {
	why := ""
	ast.Inspect(cond, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Err" && isContext(w.info.TypeOf(sel.X)) {
				why = types.ExprString(cond) + " (the context was done when it was tested)"
			}
		case *ast.Ident:
			if at, ok := w.ps.closureSet()[w.info.Uses[n]]; ok {
				what := types.ExprString(cond) + " ("
				if what != n.Name+" (" {
					what += n.Name + " "
				}
				why = fmt.Sprintf("%sset only in the function literal at %s: only if it ran)", what, w.ps.where(at))
			}
		}
		return true
	})
	return why
}

// closureSet is, for each local variable that a function literal
// assigns and does not declare, where the first such literal is.
func (ps *pkgState) closureSet() map[types.Object]token.Pos {
	if ps.setInClosure != nil {
		return ps.setInClosure
	}
	ps.setInClosure = map[types.Object]token.Pos{}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			fl, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			ast.Inspect(fl.Body, func(n ast.Node) bool {
				var lhs []ast.Expr
				switch s := n.(type) {
				case *ast.AssignStmt:
					lhs = s.Lhs
				case *ast.IncDecStmt:
					lhs = []ast.Expr{s.X}
				}
				for _, e := range lhs {
					id, ok := ast.Unparen(e).(*ast.Ident)
					if !ok {
						continue
					}
					v, ok := ps.pass.TypesInfo.Uses[id].(*types.Var)
					if !ok || v.IsField() || v.Parent() == nil || v.Parent() == ps.pass.Pkg.Scope() || v.Pos() >= fl.Pos() && v.Pos() < fl.End() {
						continue
					}
					if _, seen := ps.setInClosure[v]; !seen {
						ps.setInClosure[v] = fl.Pos()
					}
				}
				return true
			})
			return true
		})
	}
	return ps.setInClosure
}

// finishedHere reports whether a run of x that waits for it (Run,
// Output, CombinedOutput, Wait) came before, in the function walked.
func (w *walker) finishedHere(x *instance) bool { return w.amongRuns(w.finished, x) }

// untilFinished says, for a select walked, what the statements after it
// in its block run only on: a select with an arm that receives from a
// channel (not a context's Done, not a timer) and returns, and an arm
// that waits for a timer, or a default that goes on (openudon's
// Terminate: `case <-child.done: return child.err; default:`), where
// the channel is one the package closes or sends to once a Wait
// returned (end_chans.go). The kills after it come only if the channel
// (a command's end) did not fire within the grace, or had not fired
// yet. "" otherwise.
func (w *walker) untilFinished(s *ast.SelectStmt) string {
	var done string
	timer, poll, endCh := false, false, false
	for _, c := range s.Body.List {
		cc, ok := c.(*ast.CommClause)
		if !ok {
			continue
		}
		if cc.Comm == nil {
			poll = poll || !endsInReturn(cc.Body)
			continue
		}
		recv := commRecv(cc.Comm)
		if recv == nil {
			continue
		}
		switch {
		case w.isTimer(recv.X):
			timer = timer || !endsInReturn(cc.Body)
		case w.isReceive(recv) && endsInReturn(cc.Body) && done == "":
			done = types.ExprString(recv)
			endCh = w.endChans()[chanObj(w.info, recv.X)]
		}
	}
	switch {
	case done == "":
		return ""
	case timer:
		return fmt.Sprintf("%s did not fire within the grace (the select at %s returns on it)", done, w.ps.where(s.Pos()))
	case poll && endCh:
		return fmt.Sprintf("%s had not fired (the select at %s returns on it, and goes on by its default)", done, w.ps.where(s.Pos()))
	}
	return ""
}

// graceArms says, for a select walked, which of its arms run only when
// a command had not ended within a grace: those that wait for a timer,
// beside an arm that receives from a channel the package closes or sends
// to once a Wait returned (end_chans.go), in a function that signalled
// or cancelled a context before (the escalation after a first signal)
// and starts no command: a
// stop that may come once the command ended. goutils' Stop kills the
// group on such an arm, and not once the direct child exited on its
// interrupt. In the function that runs the command (mimixbox's timeout
// applet), the timer's arm is the run's own timeout, which comes
// whenever Wait has not returned: the cancel, not a grace.
// The string says why; nil and "" if no arm is such.
func (w *walker) graceArms(s *ast.SelectStmt) (map[int]bool, string) {
	if w.decl == nil || w.startsIn(w.decl.Body) || len(w.sum.Kills) == 0 && !w.cancelsBefore(s.Pos()) {
		return nil, ""
	}
	var timers []int
	done := ""
	for i, c := range s.Body.List {
		cc, ok := c.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			continue
		}
		recv := commRecv(cc.Comm)
		switch {
		case recv == nil:
		case w.isTimer(recv.X):
			timers = append(timers, i)
		case done == "" && w.isReceive(recv) && w.endChans()[chanObj(w.info, recv.X)]:
			done = types.ExprString(recv)
		}
	}
	if done == "" || len(timers) == 0 {
		return nil, ""
	}
	arms := map[int]bool{}
	for _, i := range timers {
		arms[i] = true
	}
	return arms, fmt.Sprintf("%s did not fire within the grace (the select at %s waits for it on another arm)", done, w.ps.where(s.Pos()))
}

// cancelsBefore reports whether the function walked calls a
// context.CancelFunc before pos (llmkit's Close: `s.cancel()`, whose
// default Cancel kills the direct child, then a grace): a signal, as a
// kill by hand is.
func (w *walker) cancelsBefore(pos token.Pos) bool {
	found := false
	inspectOuter(w.decl.Body, func(n ast.Node) {
		if c, ok := n.(*ast.CallExpr); ok && c.Pos() < pos {
			if t := w.info.TypeOf(c.Fun); t != nil && isTypeNamed(t, "context", "CancelFunc") {
				found = true
			}
		}
	})
	return found
}

// startsIn reports whether body starts or runs a command, outside the
// function literals inside it.
func (w *walker) startsIn(body *ast.BlockStmt) bool {
	found := false
	inspectOuter(body, func(n ast.Node) {
		if c, ok := n.(*ast.CallExpr); ok && !found {
			found = w.startsCmdCall(c) || w.waitsCmd(c) && !isWaitCall(c)
		}
	})
	return found
}

// isWaitCall reports whether c calls a method named Wait.
func isWaitCall(c *ast.CallExpr) bool {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Wait"
}

// commRecv is the receive of a select's case: <-ch, v := <-ch, v = <-ch.
func commRecv(s ast.Stmt) *ast.UnaryExpr {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return u
}

// isTimer reports whether ch is a timer's channel: time.After(d),
// time.Tick(d), or the C of a *time.Timer or *time.Ticker.
func (w *walker) isTimer(ch ast.Expr) bool {
	switch e := ast.Unparen(ch).(type) {
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(w.info, e).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "time" && (fn.Name() == "After" || fn.Name() == "Tick") {
			return true
		}
	case *ast.SelectorExpr:
		if e.Sel.Name == "C" {
			t := w.info.TypeOf(e.X)
			return named(t, "time", "Timer") || named(t, "time", "Ticker")
		}
	}
	return false
}

// endsInReturn reports whether a case's body ends in a return.
func endsInReturn(body []ast.Stmt) bool {
	if len(body) == 0 {
		return false
	}
	_, ok := body[len(body)-1].(*ast.ReturnStmt)
	return ok
}
