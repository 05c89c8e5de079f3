package execcheck

// A Wait no call blocks on. os/exec's copy of the output ends only at
// the pipe's EOF, and only cmd.Wait waits for it: when Wait is never
// called, or called only in a goroutine whose end every waiter awaits
// with a timeout (a select with time.After, a timer, ctx.Done() or a
// default), a descendant holding the pipe blocks no call, and the
// cancel that reaches only the direct child is an orphan, not a hang. A
// channel the goroutine signals that goes where execcheck cannot see
// its receivers (returned, passed, kept in an exported field) may be
// awaited without one.

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// noteWait records where r's cmd.Wait, or call, a run that waits (Run,
// Output, CombinedOutput), is called: in a goroutine (a go statement's
// literal, or a function only go statements call), with its body, or
// not. It reports whether it is in a goroutine.
func (w *walker) noteWait(r *instance, call string) bool {
	switch {
	case len(w.paramGo) > 0 && w.paramGo[len(w.paramGo)-1] == w.inGo:
		// In a goroutine another function starts (a task runner), whose
		// end it may wait for where execcheck does not see: a call that
		// waits, as where it stands.
		r.syncWait = true
		return false
	case w.inGo > 0 && w.cur != w.top:
		r.asyncWaits = append(r.asyncWaits, w.cur.body)
	case w.inGo > 0:
		r.asyncWaits = append(r.asyncWaits, nil) // go cmd.Wait(): nothing to await
	case w.ps.goStartedWithCmd(w.fn):
		r.asyncWaits = append(r.asyncWaits, w.ps.decls[w.fn].Body)
	default:
		r.syncWait = true
		return false
	}
	r.asyncCall = cmp.Or(r.asyncCall, call)
	return true
}

// waitsFree sets WaitFree on the commands started here whose Wait no
// call blocks on.
func (ps *pkgState) waitsFree() {
	seen := map[*instance]bool{}
	for _, x := range ps.all {
		r := x.root()
		if seen[r] || len(r.p.Creations) == 0 || r.syncWait || len(r.p.Escapes) > 0 {
			continue
		}
		// A Wait from another package blocks only while this package's
		// Wait has not reaped the child: after that it returns "Wait was
		// already called" at once. Held where others can reach it, a
		// command this package never waits for may be waited there.
		if len(r.asyncWaits) == 0 && ps.exported(r) {
			continue
		}
		seen[r] = true
		started, here := false, true
		for _, rs := range r.runs {
			started = started || rs.kind == runStart || rs.async
			here = here && rs.via == "" // a helper's Start: it, or what keeps the command, may Wait
		}
		if !started || !here {
			continue
		}
		if len(r.asyncWaits) == 0 {
			if r.p.ProcWait == "" && !r.p.Waited { // Waited with no call seen here: a helper's Wait
				r.p.WaitFree = "cmd.Wait is never called: nothing waits for os/exec's copy of the output"
			}
			continue
		}
		var where []string
		ok := true
		for _, body := range r.asyncWaits {
			if done := ps.waitGroupDone(body); done != "" {
				ok = false
				if r.p.WaitOpen == "" {
					r.p.WaitOpen = r.asyncCall + " runs only in a goroutine, and " + done + " lets a sync.WaitGroup's Wait wait for it, with no timeout"
				}
			}
			for _, ch := range ps.signalled(body) {
				at, bounded, open := ps.awaits(ch)
				ok = ok && bounded
				where = append(where, at...)
				if !bounded && r.p.WaitOpen == "" {
					r.p.WaitOpen = r.asyncCall + " runs only in a goroutine, and " + open
				}
			}
		}
		if ok {
			why := r.asyncCall + " runs only in a goroutine, and nothing waits for it"
			if len(where) > 0 {
				why = r.asyncCall + " runs only in a goroutine, and every wait for it has a timeout or a default (" + strings.Join(uniq(where), ", ") + ")"
			}
			r.p.WaitFree = why + ": no call blocks on os/exec's copy of the output"
		}
	}
}

// exported reports whether r is held by an exported package variable or
// field, whose users in other packages may call its Wait.
func (ps *pkgState) exported(r *instance) bool {
	for v, x := range ps.fields {
		if v.Exported() && x.root() == r {
			return true
		}
	}
	return false
}

// signalled lists the channels body closes or sends on (variables or
// fields), outside the function literals inside it, and in what it
// calls (deferred or not) that the package declares: a function, or a
// local variable set once to a function literal (kcp's `cleanup :=
// func() { cancel(); close(shutdownComplete) }`, `defer cleanup()` in
// the goroutine that waits).
func (ps *pkgState) signalled(body *ast.BlockStmt) []*types.Var {
	return ps.signalledSeen(body, map[ast.Node]bool{})
}

func (ps *pkgState) signalledSeen(body *ast.BlockStmt, seen map[ast.Node]bool) []*types.Var {
	if body == nil || seen[body] {
		return nil
	}
	seen[body] = true
	info := ps.pass.TypesInfo
	var out []*types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		var ch ast.Expr
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			ch = n.Chan
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 {
				if _, ok := info.Uses[id].(*types.Builtin); ok {
					ch = n.Args[0]
				}
			}
			out = append(out, ps.signalledSeen(ps.calledBody(n), seen)...)
		}
		if v := varOf(info, ch); v != nil {
			out = append(out, v)
		}
		return true
	})
	return out
}

// calledBody returns the body c runs, where the package holds it: a
// function it declares, or the literal a local variable is set to once.
func (ps *pkgState) calledBody(c *ast.CallExpr) *ast.BlockStmt {
	info := ps.pass.TypesInfo
	if fn := typeutil.StaticCallee(info, c); fn != nil {
		if d := ps.decls[fn]; d != nil {
			return d.Body
		}
		return nil
	}
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil || v.Parent() == nil || v.Parent() == ps.pass.Pkg.Scope() {
		return nil
	}
	if fl := ps.litOfLocal(v); fl != nil {
		return fl.Body
	}
	return nil
}

// litOfLocal returns the function literal the local variable v is
// declared with, if it is never assigned again.
func (ps *pkgState) litOfLocal(v *types.Var) *ast.FuncLit {
	info := ps.pass.TypesInfo
	var lit *ast.FuncLit
	stores := 0
	for _, f := range ps.pass.Files {
		if f.Pos() > v.Pos() || v.Pos() >= f.End() {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			a, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for i, l := range a.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || info.ObjectOf(id) != v {
					continue
				}
				stores++
				if len(a.Rhs) == len(a.Lhs) {
					lit, _ = ast.Unparen(a.Rhs[i]).(*ast.FuncLit)
				}
			}
			return true
		})
	}
	if stores != 1 {
		return nil
	}
	return lit
}

// varOf is the variable or field e names, if it names one.
func varOf(info *types.Info, e ast.Expr) *types.Var {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := info.ObjectOf(e).(*types.Var)
		return v
	case *ast.SelectorExpr:
		v, _ := info.ObjectOf(e.Sel).(*types.Var)
		return v
	}
	return nil
}

// awaits lists where the package waits on the channel v, and reports
// whether every such wait is bounded: a receive in a select that also
// has a timer, a context's Done or a default. Any other use of v (a
// plain receive, a range, passing or returning it) is not.
func (ps *pkgState) awaits(v *types.Var) (where []string, bounded bool, open string) {
	return ps.awaitsSeen(v, map[*types.Var]bool{})
}

// awaitsSeen is awaits, following the channel into the fields it is
// stored in (startedProcess{waitCh: waitCh}, p.done = done): their
// receives wait on it too. seen guards against a cycle.
func (ps *pkgState) awaitsSeen(v *types.Var, seen map[*types.Var]bool) (where []string, bounded bool, open string) {
	seen[v] = true
	info := ps.pass.TypesInfo
	bounded = !v.Exported() || !v.IsField() && v.Parent() != v.Pkg().Scope() // a parameter named Done is no one else's
	if !bounded {
		open = v.Name() + " is exported: its receivers elsewhere are not seen"
	}
	for _, f := range ps.pass.Files {
		inspectStack(f, func(stack []ast.Node) {
			e, ok := stack[len(stack)-1].(ast.Expr)
			if !ok || varOf(info, e) != v || isDefOrStore(stack) {
				return
			}
			if sel, ok := stack[max(len(stack)-2, 0)].(*ast.SelectorExpr); ok && sel.Sel == e {
				return // counted as the selector
			}
			if kv, ok := stack[max(len(stack)-2, 0)].(*ast.KeyValueExpr); ok && kv.Key == e {
				return // a composite literal's key: the store of its value
			}
			if f := cmp.Or(storedIn(info, stack), ps.passedTo(stack)); f != nil {
				if !seen[f] {
					w, b, o := ps.awaitsSeen(f, seen)
					where = append(where, w...)
					if !b && bounded {
						bounded, open = false, o
					}
				}
				return
			}
			switch use := useOf(info, stack); use {
			case useSignal:
			case useBoundedRecv:
				where = append(where, ps.where(e.Pos()))
			default:
				bounded = false
				if open == "" {
					open = openUse(info, stack, v.Name(), ps.where(e.Pos()))
				}
			}
		})
	}
	return where, bounded, open
}

// openUse says how the channel name, at where, may be waited on with no
// bound: a receive without a timeout, or a use that hands it to
// receivers execcheck does not read.
func openUse(info *types.Info, stack []ast.Node, name, where string) string {
	if len(stack) >= 2 {
		switch p := stack[len(stack)-2].(type) {
		case *ast.UnaryExpr:
			if p.Op == token.ARROW && inTimedSelect(info, stack[:len(stack)-1]) {
				return "its signal (" + name + ") is received in a select whose timeout only goes round its loop again (" + where + ")"
			}
			if p.Op == token.ARROW {
				return "its signal (" + name + ") is received with no timeout (" + where + ")"
			}
		case *ast.RangeStmt:
			return "its signal (" + name + ") is ranged over with no timeout (" + where + ")"
		}
	}
	return "its signal (" + name + ") goes where execcheck does not read its receivers (" + where + "): one may wait with no timeout"
}

type chanUse int

const (
	useOther chanUse = iota
	useSignal
	useBoundedRecv
)

// useOf says how the channel expression at the top of stack is used:
// sent on or closed (the goroutine's signal), received in a bounded
// select, or otherwise.
func useOf(info *types.Info, stack []ast.Node) chanUse {
	e := stack[len(stack)-1]
	if len(stack) < 2 {
		return useOther
	}
	switch p := stack[len(stack)-2].(type) {
	case *ast.SendStmt:
		if p.Chan == e {
			return useSignal
		}
	case *ast.CallExpr:
		if id, ok := ast.Unparen(p.Fun).(*ast.Ident); ok && id.Name == "close" {
			return useSignal
		}
	case *ast.UnaryExpr:
		if p.Op == token.ARROW && boundedSelect(info, stack[:len(stack)-1]) {
			return useBoundedRecv
		}
	}
	return useOther
}

// boundedSelect reports whether the receive at the top of stack is the
// comm of a select case in a select that also has a timer, a context's
// Done or a default.
func boundedSelect(info *types.Info, stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 1; i-- {
		cc, ok := stack[i].(*ast.CommClause)
		if !ok {
			continue
		}
		if i+1 < len(stack) && !within(stack[i+1], cc.Comm) {
			return false // in the case's body, not its comm
		}
		for j := i - 1; j >= 0; j-- {
			if sel, ok := stack[j].(*ast.SelectStmt); ok {
				for _, c := range sel.Body.List {
					if other := c.(*ast.CommClause); other != cc && timeoutComm(info, other) && !goesRound(other, sel, stack[:j]) {
						return true
					}
				}
				return false
			}
		}
		return false
	}
	return false
}

// goesRound reports whether the timeout arm cc of sel only goes round
// a loop with no other way out back to sel (k0s's shutdown loop: `case
// <-time.After(d): continue`, in a `for {}` that leaves only on the
// Wait's signal): the wait is not bounded. stack leads to sel.
func goesRound(cc *ast.CommClause, sel *ast.SelectStmt, stack []ast.Node) bool {
	var loop *ast.ForStmt
	for i := len(stack) - 1; i >= 0 && loop == nil; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl, *ast.RangeStmt:
			return false
		case *ast.ForStmt:
			loop = n
		}
	}
	if loop == nil || loop.Cond != nil {
		return false
	}
	n := len(cc.Body)
	switch {
	case n > 0:
		br, ok := cc.Body[n-1].(*ast.BranchStmt)
		if !ok || br.Tok != token.CONTINUE || br.Label != nil {
			return false
		}
	case loop.Body.List[len(loop.Body.List)-1] != sel:
		return false
	}
	// Any return, break or goto outside the select, or in the arm
	// itself, may leave the loop another way.
	out := false
	leaves := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			return n != sel
		case *ast.ReturnStmt:
			out = true
		case *ast.BranchStmt:
			out = out || n.Tok == token.BREAK || n.Tok == token.GOTO
		}
		return !out
	}
	ast.Inspect(loop.Body, leaves)
	for _, st := range cc.Body {
		ast.Inspect(st, leaves)
	}
	return !out
}

// inTimedSelect reports whether the receive at the top of stack is the
// comm of a select case beside a case that would end the wait but goes
// round a loop instead (goesRound).
func inTimedSelect(info *types.Info, stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 2; i-- {
		cc, ok := stack[i].(*ast.CommClause)
		if !ok {
			continue
		}
		sel, ok := stack[i-2].(*ast.SelectStmt) // CommClause's parent is the select's body
		if !ok || i+1 < len(stack) && !within(stack[i+1], cc.Comm) {
			return false
		}
		for _, c := range sel.Body.List {
			if other := c.(*ast.CommClause); other != cc && timeoutComm(info, other) && goesRound(other, sel, stack[:i-2]) {
				return true
			}
		}
		return false
	}
	return false
}

// within reports whether n is c or inside it.
func within(n, c ast.Node) bool {
	return c != nil && n.Pos() >= c.Pos() && n.End() <= c.End()
}

// timeoutComm reports whether a select case ends the wait by itself: a
// default, or a receive from time.After, a timer or ticker's C, a Done
// channel, or any channel of time.Time (a timer kept in a variable).
func timeoutComm(info *types.Info, cc *ast.CommClause) bool {
	if cc.Comm == nil {
		return true
	}
	found := false
	ast.Inspect(cc.Comm, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if n.Sel.Name == "After" || n.Sel.Name == "C" || n.Sel.Name == "Done" {
				found = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && timeChan(info.TypeOf(n.X)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// timeChan reports whether t is a channel of time.Time.
func timeChan(t types.Type) bool {
	ch, ok := types.Unalias(t).(*types.Chan)
	if !ok {
		return false
	}
	n, ok := types.Unalias(ch.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Time"
}

// isDefOrStore reports whether the expression at the top of stack is
// the left side of an assignment or a declaration: making the channel,
// not using it.
func isDefOrStore(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	e := stack[len(stack)-1]
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.SelectorExpr:
			continue
		case *ast.AssignStmt:
			for _, l := range p.Lhs {
				if within(e, l) {
					return true
				}
			}
			return false
		case *ast.ValueSpec, *ast.Field:
			return true
		default:
			return false
		}
	}
	return false
}

// waitGroupDone returns the call in body, outside the function literals
// inside it, of a sync.WaitGroup's Done, if any: a Wait of that group
// waits for the goroutine, with no timeout.
func (ps *pkgState) waitGroupDone(body *ast.BlockStmt) string {
	if body == nil {
		return ""
	}
	found := ""
	inspectOuter(body, func(n ast.Node) {
		c, ok := n.(*ast.CallExpr)
		if !ok || found != "" {
			return
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Done" {
			return
		}
		if fn, _ := ps.pass.TypesInfo.Uses[sel.Sel].(*types.Func); methodOf(fn, "sync", "WaitGroup") {
			found = types.ExprString(c.Fun) + " at " + ps.where(c.Pos())
		}
	})
	return found
}

// passedTo is the parameter of a function the package declares that the
// expression at the top of stack is passed to as an argument (devspace's
// `reap(done)`, a select with time.After inside): its receives there are
// the channel's. nil otherwise, or for a variadic parameter.
func (ps *pkgState) passedTo(stack []ast.Node) *types.Var {
	if len(stack) < 2 {
		return nil
	}
	c, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := staticCallee(ps.pass.TypesInfo, c)
	if fn == nil || ps.decls[fn.Origin()] == nil {
		return nil
	}
	sig := fn.Origin().Type().(*types.Signature)
	for i, a := range c.Args {
		if a != stack[len(stack)-1] {
			continue
		}
		if sig.Variadic() && i >= sig.Params().Len()-1 || i >= sig.Params().Len() {
			return nil
		}
		return sig.Params().At(i)
	}
	return nil
}

// storedIn returns the field the expression at the top of stack is
// stored in, as a composite literal's keyed value or the right side of
// an assignment to a field, if it is.
func storedIn(info *types.Info, stack []ast.Node) *types.Var {
	if len(stack) < 2 {
		return nil
	}
	e := stack[len(stack)-1]
	switch p := stack[len(stack)-2].(type) {
	case *ast.KeyValueExpr:
		if p.Value != e {
			return nil
		}
		if id, ok := p.Key.(*ast.Ident); ok {
			if f, ok := info.ObjectOf(id).(*types.Var); ok && f.IsField() {
				return f
			}
		}
	case *ast.AssignStmt:
		if len(p.Lhs) != len(p.Rhs) {
			return nil
		}
		for i, r := range p.Rhs {
			if r != e {
				continue
			}
			if sel, ok := ast.Unparen(p.Lhs[i]).(*ast.SelectorExpr); ok {
				if f, ok := info.ObjectOf(sel.Sel).(*types.Var); ok && f.IsField() {
					return f
				}
			}
		}
	}
	return nil
}

// uniq drops the repeats of ss, keeping the first of each in order.
func uniq(ss []string) []string {
	var out []string
	for _, s := range ss {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
