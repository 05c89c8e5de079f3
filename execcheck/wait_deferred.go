package execcheck

// A Wait in a deferred call of the function that reads the pipe:
//
//	func (t *stdioTransport) readLoop() {
//		defer func() { t.cmd.Wait(); close(t.done) }()
//		br := bufio.NewReader(t.stdout)
//		for { if _, err := br.ReadString('\n'); err != nil { return } }
//	}
//
// (codehalter's MCP transport). The walk meets the Wait at the defer,
// before the reads; it runs when the function returns, after them, and
// so waits for the pipe's EOF, which lasts while any process holds it.

import (
	"go/ast"
	"go/types"
)

// deferAt is a defer statement being walked: the scope it stands in
// (whose end runs it) and how deep in go statements.
type deferAt struct {
	scope int
	inGo  int
}

// lateWait is a Wait in a deferred call, kept until the walk meets a
// read of the pipe in the same function body, which it then comes after.
type lateWait struct {
	inst  *instance
	at    deferAt
	where string // "cmd.Wait (file:line)"
}

// deferredWait keeps a Wait of r at c met inside a deferred call.
func (w *walker) deferredWait(r *instance, c *ast.CallExpr, what string) {
	if len(w.defers) == 0 {
		return
	}
	w.waitEnd = append(w.waitEnd, lateWait{inst: r, at: w.defers[len(w.defers)-1], where: what + " (" + w.ps.where(c.Pos()) + ")"})
}

// readBeforeDeferred marks a deferred Wait of x's command as late when
// the read of x's pipe walked now stands in the body the defer ends, in
// the same goroutine; and as one beside the reads when the read stands
// in a goroutine started in that body (ddev's share test: the Wait in a
// t.Cleanup, the reads in a goroutine nothing joins), unless a join of
// the body waits for them first (joinedBeforeDeferred).
func (w *walker) readBeforeDeferred(x *instance) {
	r := x.root()
	for _, lw := range w.waitEnd {
		if lw.inst != r || len(w.defers) > 0 || r.p.WaitLate != "" {
			continue
		}
		switch {
		case lw.at.scope == w.cur.id && lw.at.inGo == w.inGo:
			r.p.WaitLate = lw.where + " is deferred: it comes only after the output is read to EOF, which lasts while any process holds the pipe"
		case w.cur.parent == lw.at.scope && w.inGo == lw.at.inGo+1 && r.p.WaitAside == "":
			r.p.WaitAside = lw.where + " runs when the function ends, beside the reads in a goroutine: it closes the pipe once the direct child exits"
			w.deferAside = append(w.deferAside, deferAside{inst: r, scope: lw.at.scope})
		}
	}
}

// deferAside is a command whose deferred Wait was taken to run beside
// the reads of its pipe in goroutines of the body scope.
type deferAside struct {
	inst  *instance
	scope int
}

// joinedBeforeDeferred: a join in the body, outside goroutines, waits
// for the reads before the deferred Wait runs, and so for the pipe's
// EOF.
func (w *walker) joinedBeforeDeferred(what string) {
	for _, d := range w.deferAside {
		if r := d.inst.root(); d.scope == w.cur.id && r.p.WaitLate == "" {
			r.p.WaitLate = "the deferred Wait comes after a join (" + what + ") that may wait for the reads, which last while any process holds the pipe"
		}
	}
}

// isCleanup reports whether e calls the Cleanup method of a testing.T,
// B, F or TB.
func (w *walker) isCleanup(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Cleanup" {
		return false
	}
	fn, _ := w.info.Uses[sel.Sel].(*types.Func)
	return fn != nil && pkgPathOf(fn) == "testing"
}
