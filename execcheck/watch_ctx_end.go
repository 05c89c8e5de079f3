package execcheck

// A watch that kills on one way a context ends only:
//
//	<-ctx.Done()
//	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
//		_ = syscall.Kill(-pid, syscall.SIGKILL)
//	}
//
// covers the timeout, not a cancel: when the command's context is
// cancelled (a caller's, snclient's HTTP request), Err is
// context.Canceled, the group kill never comes, and what stops the
// command is exec.CommandContext's default Cancel alone. Such a kill
// watches the cancel only where the command's context cannot end the
// other way: a deadline-only watch of a command whose context is a
// context.WithTimeout of a never-done parent, a cancel-only one of a
// command whose context is a context.WithCancel of one.

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

const (
	endDeadline = "deadline"
	endCancel   = "cancel"
)

// ctxEndArm says which way of a context's end the statement the walk
// stands on is limited to by its branches (endDeadline on an arm taken
// only when an error is context.DeadlineExceeded, endCancel when it is
// context.Canceled, or is not DeadlineExceeded), with the test; "", ""
// when it comes on any.
func (w *walker) ctxEndArm() (end, test string) {
	for _, b := range w.branch {
		switch s := b.node.(type) {
		case *ast.IfStmt:
			if !b.rest && b.arm > 1 {
				continue
			}
			kind, negated := w.ctxEndTest(s.Cond, true)
			if kind == "" {
				continue
			}
			// The else arm, or the statements after an if whose body
			// returns, run when the test failed.
			if negated != (b.rest || b.arm == 1) {
				kind = otherEnd(kind)
			}
			return kind, types.ExprString(s.Cond)
		case *ast.SwitchStmt:
			if b.rest || b.arm >= len(s.Body.List) {
				continue
			}
			cc, ok := s.Body.List[b.arm].(*ast.CaseClause)
			if !ok || len(cc.List) != 1 {
				continue
			}
			cond := cc.List[0]
			if s.Tag != nil {
				if kind := w.ctxEndVar(cond); kind != "" {
					return kind, types.ExprString(s.Tag) + " is " + types.ExprString(cond)
				}
				continue
			}
			if kind, negated := w.ctxEndTest(cond, false); kind != "" && !negated {
				return kind, types.ExprString(cond)
			}
		}
	}
	return "", ""
}

func otherEnd(kind string) string {
	if kind == endDeadline {
		return endCancel
	}
	return endDeadline
}

// ctxEndTest reads cond as a test of an error against
// context.DeadlineExceeded or context.Canceled: which one, and whether
// the test is negated (`!=`, `!errors.Is`). With and, a conjunction
// whose terms include one positive test counts as it.
func (w *walker) ctxEndTest(cond ast.Expr, and bool) (kind string, negated bool) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			if kind, neg := w.ctxEndTest(c.X, false); kind != "" {
				return kind, !neg
			}
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.EQL, token.NEQ:
			kind := cmp.Or(w.ctxEndVar(c.X), w.ctxEndVar(c.Y))
			return kind, kind != "" && c.Op == token.NEQ
		case token.LAND:
			if !and {
				return "", false
			}
			for _, t := range []ast.Expr{c.X, c.Y} {
				if kind, neg := w.ctxEndTest(t, true); kind != "" && !neg {
					return kind, false
				}
			}
		}
	case *ast.CallExpr:
		if isFunctionNamed(staticCallee(w.info, c), "errors", "Is") && len(c.Args) == 2 {
			return w.ctxEndVar(c.Args[1]), false
		}
	}
	return "", false
}

// ctxEndVar says which end e names: context.DeadlineExceeded or
// context.Canceled, or "".
func (w *walker) ctxEndVar(e ast.Expr) string {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.Ident:
		id = x
	default:
		return ""
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != "context" {
		return ""
	}
	switch v.Name() {
	case "DeadlineExceeded":
		return endDeadline
	case "Canceled":
		return endCancel
	}
	return ""
}

// ctxEndsOnly reports whether every context the command is made with
// that may be done can end only the way end says, so that a watch
// limited to it still comes with every cancel (with none, there is no
// Cancel for it to cover).
func (p *props) ctxEndsOnly(end string) bool {
	for _, c := range p.Creations {
		switch {
		case !cancellableCtx(c.Ctx):
		case c.Ctx == ctxCancel && (end == endDeadline && c.CtxDeadline || end == endCancel && c.CtxOwn):
		default:
			return false
		}
	}
	return true
}

// ctxEndNote says, for a verdict that credits a cancel to the direct
// child alone, which group kills by hand watch the context and yet
// come only on its other way of ending; "" if none.
func ctxEndNote(p *props, reason string) string {
	var notes []string
	seen := map[string]bool{}
	for _, e := range p.Kills {
		if e.Watch && e.Group && e.CtxEnd != "" && !p.ctxEndsOnly(e.CtxEnd) && !strings.Contains(reason, e.CtxEndWhy) && !seen[e.CtxEndWhy] {
			seen[e.CtxEndWhy] = true // the first kill on that arm names it
			how := "the deadline passed"
			if e.CtxEnd == endCancel {
				how = "the context was cancelled before its deadline"
			}
			notes = append(notes, fmt.Sprintf("the group kill by hand (%s) comes only when %s (%s)", e.Why, how, e.CtxEndWhy))
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return "; " + strings.Join(notes, "; ") + ", and the command's context can end the other way"
}
