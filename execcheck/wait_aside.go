package execcheck

// An output pipe read until EOF while cmd.Wait runs in a goroutine of
// its own:
//
//	go t.readLoop() // decodes t.stdout until an error
//	go func() { t.done <- t.cmd.Wait() }()
//
// Wait returns once the direct child exits and then closes the pipe
// (os/exec closes a StdoutPipe's reading end after Wait), which ends the
// reads: a descendant holding the pipe keeps neither Wait nor the reads
// waiting. Only a Wait that comes after the reads (in the same goroutine,
// or after a join) waits for the pipe's EOF (cancel_armed.go: WaitLate).

import (
	"go/ast"
	"go/types"
)

// waitedAside records a cmd.Wait() of r at c in a goroutine (a go
// statement's call, or a function the package only starts with go),
// unless a read of r's pipe came before it in the function walked.
func (w *walker) waitedAside(r *instance, c *ast.CallExpr) {
	for _, rd := range w.reads {
		if rd.inst.root() == r {
			return
		}
	}
	if r.p.WaitAside == "" {
		r.p.WaitAside = "cmd.Wait (" + w.ps.where(c.Pos()) + ") runs in a goroutine apart from the reads of the pipe: it closes the pipe once the direct child exits"
	}
}

// readUnbounded reports whether an output pipe read by hand keeps Wait
// (or what waits for the reads) waiting while a descendant holds it: it
// is read, and no Wait apart from the reads closes it, or a Wait comes
// only after them.
func (p *props) readUnbounded() bool {
	return p.ReadPipe && (p.WaitAside == "" || p.WaitLate != "")
}

// goOnly is the set of the package's functions that are only ever
// called by a go statement (go t.watch()), never otherwise used.
func (ps *pkgState) goOnly() map[*types.Func]bool {
	if ps.goFuncs != nil {
		return ps.goFuncs
	}
	ps.goFuncs = map[*types.Func]bool{}
	other := map[*types.Func]bool{}
	goCalls := map[*ast.Ident]bool{}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				switch fn := ast.Unparen(g.Call.Fun).(type) {
				case *ast.Ident:
					goCalls[fn] = true
				case *ast.SelectorExpr:
					goCalls[fn.Sel] = true
				}
			}
			return true
		})
	}
	for id, obj := range ps.pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() != ps.pass.Pkg {
			continue
		}
		if goCalls[id] {
			ps.goFuncs[fn] = true
		} else {
			other[fn] = true
		}
	}
	for fn := range other {
		delete(ps.goFuncs, fn)
	}
	return ps.goFuncs
}
