package execcheck

// A process sent on a channel (mittnite's `process <- job.cmd.Process`,
// received by the job that waits for it to start and kept in a field
// its Stop kills through): every channel of *os.Process the package's
// own unexported functions send on holds one process for the package,
// as a field does, and a receive from it is the commands sent. A send
// from an exported function may be received in another package: the
// process is lost there (proc_kept.go).

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// isProcChan reports whether t is a channel of *os.Process.
func isProcChan(t types.Type) bool {
	if t == nil {
		return false
	}
	c, ok := types.Unalias(t).Underlying().(*types.Chan)
	return ok && isProcess(c.Elem())
}

// chanVar is the variable whose process a receive from or send on ch
// stands for: a local channel passed to a function of the package is
// that function's parameter (mittnite's Start makes p and passes it to
// the startOnce that sends on it); nil if ch is no variable.
func (w *walker) chanVar(ch ast.Expr) *types.Var {
	id, ok := ast.Unparen(ch).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := w.info.ObjectOf(id).(*types.Var)
	for seen := map[*types.Var]bool{}; v != nil && !seen[v]; {
		seen[v] = true
		p, ok := w.ps.chanParams()[v]
		if !ok {
			break
		}
		v = p
	}
	return v
}

// chanParams maps each local channel of *os.Process passed to a function
// of the package to the parameter it is passed as; a channel passed to
// two is left out (its process is lost).
func (ps *pkgState) chanParams() map[*types.Var]*types.Var {
	if ps.procChans != nil {
		return ps.procChans
	}
	ps.procChans = map[*types.Var]*types.Var{}
	twice := map[*types.Var]bool{}
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(ps.pass.TypesInfo, call).(*types.Func)
			if !ok || fn.Pkg() != ps.pass.Pkg {
				return true
			}
			params := fn.Signature().Params()
			for i, a := range call.Args {
				id, ok := ast.Unparen(a).(*ast.Ident)
				if !ok || i >= params.Len() || fn.Signature().Variadic() && i >= params.Len()-1 {
					continue
				}
				v, ok := ps.pass.TypesInfo.Uses[id].(*types.Var)
				if !ok || !isProcChan(v.Type()) || v.Parent() == ps.pass.Pkg.Scope() {
					continue
				}
				if p, ok := ps.procChans[v]; ok && p != params.At(i) {
					twice[v] = true
				}
				ps.procChans[v] = params.At(i)
			}
			return true
		})
	}
	for v := range twice {
		delete(ps.procChans, v)
	}
	return ps.procChans
}

// sendProc keeps v's process in the channel's for a send on ch; it
// reports false where the receive may be in another package.
func (w *walker) sendProc(ch ast.Expr, v value) bool {
	if v.proc == nil || !isProcChan(w.info.TypeOf(ch)) || w.fn == nil || w.fn.Exported() {
		return false
	}
	c := w.chanVar(ch)
	if c == nil || c.Exported() && c.Parent() == w.ps.pass.Pkg.Scope() {
		return false // an exported package variable: others receive
	}
	w.ps.keep(w.ps.pidVar(c), v.proc)
	return true
}

// receivedProc is what a receive from ch (or a range over it) gives: the
// processes sent on it, if ch carries processes.
func (w *walker) receivedProc(ch ast.Expr) (value, bool) {
	if !isProcChan(w.info.TypeOf(ch)) {
		return value{}, false
	}
	c := w.chanVar(ch)
	if c == nil {
		return value{}, false
	}
	return value{proc: w.ps.pidVar(c)}, true
}
