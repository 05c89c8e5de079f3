package execcheck

// A command's *os.Process (or pid) kept elsewhere: `current =
// cmd.Process` in one function, `current.Kill()` in another (a Stop or
// Cancel method). A package variable or a field of type *os.Process is
// one process for the whole package, as one holding a pid is (ps.pids):
// a kill through it is a kill of the command whose process it was given.
// A slice or map of *os.Process is one process too: appended to or
// indexed, ranged over and killed (gopls' trace viewers, killed for
// tests). A process or pid kept where execcheck does not follow it (a
// channel, a slice of pids) may be killed there: the site is then
// unknown rather than "no cancel" or a finding.

import (
	"go/ast"
	"go/types"
)

// keepsProc reports whether t holds a process or a pid execcheck follows
// package-wide: *os.Process, an integer, a slice or map of *os.Process
// (every element one process, as a field is), or an atomic pointer to
// one (atomic_proc.go).
func keepsProc(t types.Type) bool {
	return isProcess(t) || isInteger(t) || isProcs(t) || isAtomicProc(t)
}

// isProcs reports whether t is a slice, array or map of *os.Process:
// processes kept to be killed together (a registry of viewers).
func isProcs(t types.Type) bool {
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Slice:
		return isProcess(u.Elem())
	case *types.Array:
		return isProcess(u.Elem())
	case *types.Map:
		return isProcess(u.Elem())
	}
	return false
}

// procOf is v's process or pid, if it has one.
func procOf(v value) *instance {
	if v.proc != nil {
		return v.proc
	}
	return v.pid
}

// keepProc keeps v's process in the one the variable or field f holds
// package-wide (keep); it reports false when f holds neither.
func (w *walker) keepProc(f *types.Var, v value) bool {
	switch {
	case (isProcess(f.Type()) || isProcs(f.Type())) && v.proc != nil:
		w.ps.keep(w.ps.pidVar(f), v.proc)
	case isInteger(f.Type()) && v.pid != nil:
		w.ps.keep(w.ps.pidVar(f), v.pid)
	default:
		return false
	}
	return true
}

// keptValue is the value of the variable or field f, which holds a
// process or a pid package-wide.
func (w *walker) keptValue(f *types.Var) value {
	if isProcess(f.Type()) || isProcs(f.Type()) || isAtomicProc(f.Type()) {
		return value{proc: w.ps.pidVar(f)}
	}
	return value{pid: w.ps.pidVar(f)}
}

// procHandedOut notes that the process of the kept command x is the
// result of an exported function or method (gitlab-runner's
// `func (c *osCmd) Process() *os.Process`): other packages get it, and
// what they do with it, a kill or none, execcheck does not see.
func (w *walker) procHandedOut(x *instance) {
	if w.fn == nil || !w.fn.Exported() {
		return
	}
	if r := x.root(); r.p.ProcKept == "" {
		name := w.fn.Name()
		if sig, ok := w.fn.Type().(*types.Signature); ok && sig.Recv() != nil {
			name = "(" + types.TypeString(sig.Recv().Type(), types.RelativeTo(w.ps.pass.Pkg)) + ")." + name
		}
		r.p.ProcKept = "the result of " + name + " (" + w.ps.where(w.fn.Pos()) + "), which other packages get"
	}
}

// procLost notes that v's process or pid is kept at l, where execcheck
// does not follow it.
func (w *walker) procLost(l ast.Expr, v value) {
	x := procOf(v)
	if x == nil {
		return
	}
	if r := x.root(); r.p.ProcKept == "" {
		r.p.ProcKept = types.ExprString(l) + " at " + w.ps.where(l.Pos())
	}
}
