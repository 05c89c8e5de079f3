package execcheck

// An output pipe read until EOF while cmd.Wait runs in a goroutine of
// its own:
//
//	go t.readLoop() // decodes t.stdout until an error
//	go func() { t.done <- t.cmd.Wait() }()
//
// When the goroutine is started where the command is (so Wait runs for
// the command's whole life), Wait returns once the direct child exits
// and then closes the pipe (os/exec closes a StdoutPipe's reading end
// after Wait), which ends the reads: a descendant holding the pipe keeps
// neither Wait nor the reads waiting. A Wait that comes after the reads
// (in the same goroutine, or after a join) waits for the pipe's EOF
// (cancel_armed.go: WaitLate), and so does one the goroutine reaches
// only after a join (a WaitGroup's Wait, a receive: it may wait for the
// readers); one started later (in a Close) leaves the reads waiting
// until then, as if there were none.

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// waitedAside records a cmd.Wait() of r at c in a goroutine started
// where a command is started (a go statement in such a function, or a
// function the package only starts with go from one), unless a read of
// r's pipe came before it in the function walked, other than one in a
// goroutine of its own not joined yet. what names the Wait: cmd.Wait, or
// the helper's that waits for it.
func (w *walker) waitedAside(r *instance, c *ast.CallExpr, what string) {
	for _, rd := range w.reads {
		// A read in a goroutine of its own, not joined, runs beside
		// this Wait, which ends it by closing the pipe.
		if rd.inst.root() == r && !(rd.async && !rd.joined && rd.scope != w.cur.id) {
			// Read before it, to EOF: this Wait comes after the reads.
			// Whether a call waits for them is wait_free.go's; the
			// child stays unreaped until then (pgid_reaped.go).
			if r.p.ReadsFirst == "" {
				r.p.ReadsFirst = strings.TrimPrefix(what, "cmd.") + " (" + w.ps.where(c.Pos()) + ")"
			}
			return
		}
	}
	for _, j := range w.joins {
		if j.scope == w.cur.id && r.p.WaitLate == "" {
			r.p.WaitLate = what + " (" + w.ps.where(c.Pos()) + ") runs in a goroutine, but only after a join (" + j.what + ") that may wait for the reads: taken as a Wait after them, which last while any process holds the pipe"
			return
		}
	}
	if r.p.WaitAside == "" {
		r.p.WaitAside = what + " (" + w.ps.where(c.Pos()) + ") runs in a goroutine apart from the reads of the pipe: it closes the pipe once the direct child exits"
		if len(w.defers) > 0 {
			// Deferred: it runs when its body ends, after any join the
			// body makes first (joinedBeforeDeferred).
			w.deferAside = append(w.deferAside, deferAside{inst: r, scope: w.defers[len(w.defers)-1].scope})
		}
	}
}

// readUnbounded reports whether an output pipe read by hand keeps Wait
// (or what waits for the reads) waiting while a descendant holds it: it
// is read, and no Wait apart from the reads closes it, or a Wait comes
// only after them.
func (p *props) readUnbounded() bool {
	return p.ReadPipe && p.PipeClosed == "" && p.ReadsFree == "" && (p.WaitAside == "" || p.WaitLate != "")
}

// goStartedWithCmd reports whether fn is only ever called by go
// statements (go t.watch()), never otherwise used, and each of those
// stands in a function that starts a command.
func (ps *pkgState) goStartedWithCmd(fn *types.Func) bool {
	if ps.goFuncs == nil {
		ps.goFuncs = ps.goOnlyFuncs()
	}
	return ps.goFuncs[fn]
}

func (ps *pkgState) goOnlyFuncs() map[*types.Func]bool {
	goCalls := map[*ast.Ident]bool{} // the function named by a go statement in a function that starts a command
	for _, f := range ps.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			starts := ps.startsCmd(ps.pass.TypesInfo.Defs[fd.Name])
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					switch fn := ast.Unparen(g.Call.Fun).(type) {
					case *ast.Ident:
						goCalls[fn] = starts
					case *ast.SelectorExpr:
						goCalls[fn.Sel] = starts
					}
				}
				return true
			})
		}
	}
	only, other := map[*types.Func]bool{}, map[*types.Func]bool{}
	for id, obj := range ps.pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() != ps.pass.Pkg {
			continue
		}
		if starts, isGo := goCalls[id]; isGo && starts {
			only[fn] = true
		} else {
			other[fn] = true
		}
	}
	for fn := range other {
		delete(only, fn)
	}
	return only
}

// startsCmd reports whether the declared function fn calls Start of an
// *exec.Cmd in its body, or calls (not in a go statement) a function of
// the package that does (jcode-go's startProcess(cmd), which sets the
// group and calls Start).
func (ps *pkgState) startsCmd(obj types.Object) bool {
	fn, _ := obj.(*types.Func)
	return ps.startsIn(fn, map[*types.Func]bool{})
}

func (ps *pkgState) startsIn(fn *types.Func, seen map[*types.Func]bool) bool {
	d := ps.decls[fn]
	if d == nil || d.Body == nil || seen[fn] {
		return false
	}
	seen[fn] = true
	found := false
	goCalls := map[*ast.CallExpr]bool{} // a helper a go statement runs starts nothing here (tilt's go processRun(...))
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			goCalls[g.Call] = true
		}
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Start" && isCmd(ps.pass.TypesInfo.TypeOf(sel.X)) {
			found = true
		} else if callee := typeutil.StaticCallee(ps.pass.TypesInfo, c); callee != nil && callee.Pkg() == ps.pass.Pkg && !goCalls[c] && ps.startsIn(callee, seen) {
			found = true
		}
		return !found
	})
	return found
}
