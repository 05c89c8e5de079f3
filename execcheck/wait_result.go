package execcheck

// A kill by hand after Wait that runs only on some results of Wait:
//
//	err := cmd.Wait()
//	if errors.Is(err, exec.ErrWaitDelay) {
//		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
//	}
//
// Wait returns exec.ErrWaitDelay when a descendant held the output pipe
// past WaitDelay; a descendant that does not hold it (its output
// elsewhere, a daemon) outlives a direct child that exits at once, and
// Wait returns nil: the kill never comes. Such a kill, or one on an arm
// of any test of Wait's error, is no cover for the group after the
// direct child exited: classify leaves it out of the kills by hand and
// says why in the verdict.

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// waitResultArm says on which result of Wait, or state of the program,
// the walk's statement runs, or "" when it hangs on none: an arm of an
// if or switch testing exec.ErrWaitDelay or an error Wait or Run
// returned; after the command finished here, an arm testing a state
// only a function literal sets or ctx.Err() (state_guard.go); after a
// select that waits out the command (untilDone).
func (w *walker) waitResultArm(target *instance) string {
	after := w.finishedHere(target)
	for _, b := range w.branch {
		if b.rest {
			continue
		}
		for _, cond := range armConds(b) {
			if why := w.waitCond(cond); why != "" {
				return why
			}
			if after {
				if why := w.stateCond(cond); why != "" {
					return why
				}
			}
		}
	}
	if len(w.untilDone) > 0 {
		return w.untilDone[0]
	}
	return ""
}

// armConds are the expressions that choose the arm b: an if's condition,
// a switch's tag and the case's expressions.
func armConds(b branchStep) []ast.Expr {
	switch s := b.node.(type) {
	case *ast.IfStmt:
		return []ast.Expr{s.Cond}
	case *ast.SwitchStmt:
		var conds []ast.Expr
		if s.Tag != nil {
			conds = append(conds, s.Tag)
		}
		if b.arm < len(s.Body.List) {
			if cc, ok := s.Body.List[b.arm].(*ast.CaseClause); ok {
				conds = append(conds, cc.List...)
			}
		}
		return conds
	}
	return nil
}

// waitCond says what cond tests of Wait's result, or "": exec.ErrWaitDelay
// first, which says the most, then any error that Wait or Run returned.
func (w *walker) waitCond(cond ast.Expr) string {
	delay, other := false, ""
	ast.Inspect(cond, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if v, ok := w.info.Uses[n.Sel].(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "os/exec" && v.Name() == "ErrWaitDelay" {
				delay = true
			}
		case *ast.Ident:
			if v, ok := w.env[w.info.ObjectOf(n)]; ok && v.waitErr && other == "" {
				other = fmt.Sprintf("%s (%s from Wait)", types.ExprString(cond), n.Name)
			}
		}
		return true
	})
	if delay {
		return "Wait returned exec.ErrWaitDelay (a descendant held the pipe past WaitDelay)"
	}
	return other
}

// waitResultNote says, for a verdict that credits no kill after Wait,
// which group kills by hand were left out because they run only on some
// results of Wait, or only while it has not returned (a grace's kill
// the reason does not name already); "" if none.
func waitResultNote(p *props, reason string) string {
	var notes []string
	for _, e := range p.Kills {
		if e.OnResult != "" && e.Group && (!e.Until || !strings.Contains(reason, e.Why) && !strings.Contains(reason, e.OnResult)) {
			notes = append(notes, fmt.Sprintf("the group kill by hand (%s) comes only when %s", e.Why, e.OnResult))
		}
	}
	notes = uniq(notes) // one kill reached by several paths is one note
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ") + ": a descendant that does not hold the pipe outlives a direct child that exits"
}

// dropWaitResultKills leaves out of hand the kills that run only on some
// results of Wait. A kill after a select's grace for Wait's end comes
// whenever Wait has not returned, so while anything holds the pipe: it
// is kept for a program that is no launcher, which is taken to wait for
// its children (a group kill in Cancel is, likewise). For one that may
// be a launcher it is no cover once the direct child exited: where Wait
// returns then (waitHolds false), it is a watch that Wait's return ends
// (watch_end.go), which reaches the group only while the child runs;
// where Wait waits for a pipe, it is left out as a state-guarded kill
// (cc-connect's Close, openudon's Terminate), and stateGuardedOnly says
// so when nothing else cancels.
func dropWaitResultKills(hand []effect, p *props, waitHolds bool) []effect {
	var kept []effect
	guardedGroup := false
	for _, e := range hand {
		guardedGroup = guardedGroup || e.Until && e.Group
	}
	for _, e := range hand {
		switch {
		case e.OnResult == "" || e.Until && !mayLaunch(p):
			kept = append(kept, e)
		case e.Until && !e.Group && !guardedGroup:
			// A kill of the direct child alone while Wait has not
			// returned is the cancel itself, not a cover to doubt: left
			// out, the site would read as one nothing kills (mirocraft's
			// Kill). Beside a group kill so guarded, stateGuardedOnly
			// speaks for both.
			kept = append(kept, e)
		case e.Until && !waitHolds:
			if e.UntilWait == "" {
				e.UntilWait = "it comes only if " + e.OnResult
			}
			e.OnResult, e.Until = "", false
			kept = append(kept, e)
		}
	}
	return kept
}

// stateGuardedOnly is the verdict of a site with no cancel but group
// kills by hand that come only while the command has not ended (Until),
// for a program that may be a launcher: what it leaves once it exited,
// holding no pipe, is not reached. ok is false otherwise.
func stateGuardedOnly(p *props) (verdict, bool) {
	if !mayLaunch(p) {
		return verdict{}, false
	}
	for _, e := range p.Kills {
		if e.Until && e.Group && !e.Unknown {
			return verdict{class: Launcher, handled: true, reason: fmt.Sprintf("a kill by hand reaches the group (%s) only when %s, that is while Wait has not returned, and %s: what it leaves holding no pipe keeps running once it and the pipe's holders are gone", e.Why, e.OnResult, launcherWhy(p))}, true
		}
	}
	return verdict{}, false
}

// watchGuardedOnly is the verdict of a site whose cancel reaches only
// the direct child but is followed, where the cancel is made, by a
// group kill that comes whenever Wait, waiting for the pipe, has not
// returned within a grace (llmkit's Close: s.cancel(), then a SIGKILL
// to the group if done has not fired), for a program that may be a
// launcher and a context only its own CancelFunc ends: the holders of
// the pipe are killed, so Wait returns, and what the launcher leaves
// holding nothing is not reached. ok is false otherwise.
func watchGuardedOnly(p *props, waitHolds bool) (verdict, bool) {
	if !waitHolds || !mayLaunch(p) {
		return verdict{}, false
	}
	for _, c := range p.Creations {
		if c.Ctx == ctxCancel && !c.CtxOwn {
			// Its cancel may come from elsewhere (a parent's), where no
			// group kill follows.
			return verdict{}, false
		}
	}
	for _, e := range p.Kills {
		if e.Until && e.Watch && e.Group && !e.Unknown && e.Sig == sigKill {
			return verdict{class: Launcher, handled: true, reason: fmt.Sprintf("the cancel kills the direct child, and then a kill by hand reaches the group (%s) only when %s, that is while Wait, which waits for the pipe, has not returned, and %s: what it leaves holding no pipe keeps running once it and the pipe's holders are gone", e.Why, e.OnResult, launcherWhy(p))}, true
		}
	}
	return verdict{}, false
}

// mayLaunch reports whether a command made may run a launcher, which
// exits at once and leaves its group running without holding the pipe.
func mayLaunch(p *props) bool {
	for _, c := range p.Creations {
		if c.Prog.Launcher {
			return true
		}
	}
	return false
}

// untilNote says, for an ok that credits a group kill after a select's
// grace for Wait's end, when that kill comes; "" if none is credited.
// Every kill credited comes so (a kill with no such test would have
// been named first): while Wait waits for the pipe's EOF, the kill
// reaches those holding it, and a launcher's descendants that hold
// nothing are left once they are gone.
func untilNote(hand []effect) string {
	for _, e := range hand {
		if e.Until && e.Group {
			return " while Wait has not returned (it comes when " + e.OnResult + "); the program is taken to wait for its children"
		}
	}
	for _, e := range hand {
		if e.UntilWait != "" && e.Group && !e.Unknown {
			return " while Wait, which waits for the pipe's EOF, has not returned (" + e.UntilWait + "); a descendant that holds no pipe is not reached once the direct child and the pipe's holders are gone"
		}
	}
	return ""
}
