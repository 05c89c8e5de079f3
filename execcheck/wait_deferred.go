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

import "go/ast"

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
// the same goroutine.
func (w *walker) readBeforeDeferred(x *instance) {
	r := x.root()
	for _, lw := range w.waitEnd {
		if lw.inst == r && lw.at.scope == w.cur.id && lw.at.inGo == w.inGo && len(w.defers) == 0 && r.p.WaitLate == "" {
			r.p.WaitLate = lw.where + " is deferred: it comes only after the output is read to EOF, which lasts while any process holds the pipe"
		}
	}
}
