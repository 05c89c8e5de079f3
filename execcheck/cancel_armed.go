package execcheck

// A Cancel that still runs after the direct child exited. os/exec
// watches the context from Start until Wait has seen the direct child
// exit: a Cancel that kills the group is called there also after the
// child exited when Wait comes late, and the launcher class (a group
// kill that only Cancel sends, "only while the direct child runs") does
// not hold. Wait comes late when it is never called (the code waits with
// Process.Wait), or only after the readers of the output pipe finished
// (they last while any process holds the pipe). And a cmd.Cancel() made
// by hand is a kill by hand, with what Cancel kills.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// readRec is a read of a command's pipe until EOF in the function
// walked: in a goroutine (async) or not, and if so whether a join (a
// WaitGroup's Wait, a receive from a channel) followed it.
type readRec struct {
	inst   *instance
	async  bool
	joined bool
	scope  int  // the scope (function or closure body) of the read
	sure   bool // a read to EOF where it stands (io.ReadAll, a Scan loop), not a call that may only hand the pipe on
}

// joinRec is a join (a WaitGroup's Wait, a receive) in the function
// walked, in the scope it stands in (wait_aside.go).
type joinRec struct {
	scope int
	what  string
}

// readOnlyAside reports whether every read of r's pipe recorded in this
// function so far runs in a goroutine, and there is one.
func (w *walker) readOnlyAside(r *instance) bool {
	found := false
	for _, rd := range w.reads {
		if rd.inst.root() != r {
			continue
		}
		if !rd.async {
			return false
		}
		found = true
	}
	return found
}

// noteRead records a read of x's pipe until EOF where the walk stands;
// sure if it reads there, not in a call that may hand the pipe on.
func (w *walker) noteRead(x *instance, sure bool) {
	w.reads = append(w.reads, readRec{inst: x, async: w.inGo > 0, scope: w.cur.id, sure: sure})
	r := x.root()
	switch {
	case w.inGo > 0 && w.cur != w.top && w.cur.body != nil:
		r.asyncReads = append(r.asyncReads, w.cur.body)
	case w.inGo > 0 && w.goCall != nil && w.ps.calledBody(w.goCall) != nil:
		// Read in the arguments of `go scan(bufio.NewScanner(stdout))`:
		// the goroutine scans it (dex's runner).
		r.asyncReads = append(r.asyncReads, w.ps.calledBody(w.goCall))
	case w.inGo == 0 && w.cur == w.top && w.fn != nil && w.ps.goStartedWithCmd(w.fn) && w.ps.decls[w.fn] != nil:
		// A function only ever started by go (`go in.read()`) reads in
		// that goroutine.
		r.asyncReads = append(r.asyncReads, w.ps.decls[w.fn].Body)
	default:
		r.syncRead = true
	}
	w.readBeforeDeferred(x)
}

// join marks the reads in goroutines so far as finished: the walk is at
// a WaitGroup's (or an errgroup's) Wait, or a receive from a channel,
// outside any goroutine.
func (w *walker) joinReads(e ast.Expr) {
	w.joins = append(w.joins, joinRec{scope: w.cur.id, what: types.ExprString(e) + " at " + w.ps.where(e.Pos())})
	// A deferred Wait of this body, in a goroutine or not, comes after
	// (unless another arm of a select lets the body go on without it).
	if !w.boundedRecv[e] {
		w.joinedBeforeDeferred(types.ExprString(e) + " at " + w.ps.where(e.Pos()))
	}
	if w.inGo > 0 {
		return
	}
	for i := range w.reads {
		w.reads[i].joined = true
	}
}

// isJoin reports whether the call c waits for goroutines: a method Wait
// of anything but a command or a process.
func isJoin(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Wait" || methodOf(fn, "os/exec", "Cmd") || methodOf(fn, "os", "Process") {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil
}

// isReceive reports whether e is a receive from a channel that is not a
// context's Done.
func (w *walker) isReceive(e *ast.UnaryExpr) bool {
	if e.Op != token.ARROW {
		return false
	}
	if c, ok := ast.Unparen(e.X).(*ast.CallExpr); ok {
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Done" && isContext(w.info.TypeOf(sel.X)) {
			return false
		}
	}
	return true
}

// waited records cmd.Wait() on x at c: after the reads of its pipe, if
// every read of it in this function came before, or was joined before.
func (w *walker) waited(x *instance, c *ast.CallExpr) {
	r := x.root()
	r.p.Waited = true
	w.finished = append(w.finished, r)
	if w.inGo == 0 {
		w.waitedSync = append(w.waitedSync, r)
	}
	w.waitPlace(r, c, "cmd.Wait")
}

// waitPlace notes where a Wait of r, at c or in the helper called at c,
// stands: in a goroutine (noteWait), apart from the reads of the pipe
// (WaitAside), or after them (WaitLate).
func (w *walker) waitPlace(r *instance, c *ast.CallExpr, what string) {
	w.noteWait(r, what)
	w.deferredWait(r, c, what)
	if r.p.WaitLate != "" {
		return
	}
	if w.inGo > 0 && w.ps.startsCmd(w.fn) || w.ps.goStartedWithCmd(w.fn) {
		w.waitedAside(r, c, what)
		return
	}
	if w.inGo > 0 {
		return
	}
	seen, aside := false, false
	for _, rd := range w.reads {
		if rd.inst.root() != r {
			continue
		}
		if rd.async && !rd.joined {
			aside = true
			continue
		}
		// Read to EOF before this Wait, here or in goroutines joined
		// first: the Wait comes after it, whatever goroutines read the
		// other pipe (Vrooli's runner: stderr scanned in a goroutine,
		// stdout scanned here, then Wait).
		seen = true
	}
	if aside && !seen {
		// The reads run in goroutines not joined yet: this Wait closes
		// the pipe once the direct child exits, which ends them
		// (os/exec closes a StdoutPipe's reading end after Wait), as a
		// Wait in a goroutine of its own does.
		if r.p.WaitAside == "" {
			r.p.WaitAside = what + " (" + w.ps.where(c.Pos()) + ") comes while the reads of the pipe run in goroutines: it closes the pipe once the direct child exits"
		}
		return
	}
	if !seen && r.p.ReadsApart != "" && r.p.WaitAside == "" {
		// Read in goroutines a helper started (reads_apart.go).
		r.p.WaitAside = what + " (" + w.ps.where(c.Pos()) + ") comes while the reads of the pipe run in goroutines (" + r.p.ReadsApart + "): it closes the pipe once the direct child exits"
		return
	}
	if seen {
		r.p.WaitLate = strings.TrimPrefix(what, "cmd.") + " (" + w.ps.where(c.Pos()) + ") comes only after the output is read to EOF, which lasts while any process holds the pipe"
	}
}

// copyUnwaited reports whether the output os/exec copies is waited for
// by nobody: cmd.Wait, which waits for the copy, is never called (the
// code waits with Process.Wait), and the command goes nowhere execcheck
// cannot follow. No call then blocks on the pipe.
func (p *props) copyUnwaited() bool {
	return p.CopyPipe && len(p.Escapes) == 0 && (p.ProcWait != "" && !p.Waited || p.WaitFree != "")
}

// procWaited records x.Process.Wait() at c.
func (w *walker) procWaited(x *instance, c *ast.CallExpr) {
	if r := x.root(); r.p.ProcWait == "" {
		r.p.ProcWait = types.ExprString(c.Fun) + " at " + w.ps.where(c.Pos())
	}
}

// cancelCalled records x.Cancel() called by hand at c.
func (w *walker) cancelCalled(x *instance, c *ast.CallExpr) {
	if r := x.root(); r.p.CancelCalled == "" {
		r.p.CancelCalled = types.ExprString(c) + " by hand at " + w.ps.where(c.Pos())
		r.p.CancelLocks = w.heldLocks(c.Pos(), c.Pos())
	}
}

// armedWhy says why os/exec still calls the Cancel of the command run at
// rs after the direct child exited, or "".
func armedWhy(rs *runSite, p *props) string {
	if rs.kind != runStart {
		return ""
	}
	switch {
	case p.ProcWait != "" && !p.Waited && len(p.Escapes) == 0:
		return "cmd.Wait is never called (" + p.ProcWait + " waits instead), so os/exec calls Cancel whenever the context is done"
	case p.WaitLate != "" && p.ReadPipe:
		return p.WaitLate + ", and os/exec calls Cancel until Wait"
	}
	return ""
}

// armedReads reports whether a group kill in Cancel that os/exec still
// calls after the direct child exited (armed says why) bounds a run whose
// output is read to EOF: whenever the cancel comes before Wait, Cancel
// kills every process of the group holding the pipe, so the reads end
// and Wait follows, as with cancelpolicy.Start, which watches the context
// until its Wait (and is ok). A descendant that left the group outlives
// both alike: only cancelpolicy.Contain() stops it. An output os/exec
// copies with no WaitDelay is still waited for by Wait itself, after the
// watch stopped: that is not bounded.
func armedReads(p *props, armed string) bool {
	return armed != "" && !(p.CopyPipe && !p.WaitDelay)
}

// armedCopyHang is the verdict of a run whose pipe is read to EOF before
// Wait, with Cancel still armed (armed says why) to kill the group
// (group), when os/exec also copies the other stream with no WaitDelay:
// the reads are covered, but Wait waits for that copy itself, after its
// watch of the context ended. ok is false otherwise.
func armedCopyHang(p *props, unboundedPipe bool, group, armed string) (v verdict, ok bool) {
	if !unboundedPipe || armed == "" || !p.ReadPipe || !p.CopyPipe || p.WaitDelay {
		return verdict{}, false
	}
	return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait (no WaitDelay): Cancel kills the group (%s), and %s, but Wait then waits for that copy after its watch of the context ended: a descendant that holds only that pipe (a job with its stdout redirected) keeps Wait waiting", p.CopyWhy, group, armed)}, true
}

// cancelByHand is what a cmd.Cancel() called by hand kills: what Cancel
// kills (for exec.CommandContext, the default Process.Kill).
func cancelByHand(p *props, plat platform) []effect {
	if p.CancelCalled == "" {
		return nil
	}
	var effs []effect
	switch {
	case p.Applied:
		effs = []effect{appliedCancel(plat)}
	case p.CancelSet:
		effs = append(effs, p.Cancel...)
	default:
		effs = []effect{{Sig: sigKill, SigParam: -1, Why: "exec.CommandContext's default Cancel (Process.Kill)"}}
	}
	for i := range effs {
		effs[i].Why = p.CancelCalled + ": " + effs[i].Why
		effs[i].Locks = p.CancelLocks
	}
	return effs
}
