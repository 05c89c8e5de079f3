package execcheck

// A run through a type of another package that embeds *exec.Cmd and
// has its own Run, Start, Output or CombinedOutput (puppetlabs/wash's
// internal.Command, whose Start sets up a group kill on the context):
// the command runs, but what it is made with and what kills it is in
// that package, whose own sites execcheck lists there. The call is
// listed here as unknown, not skipped.

import (
	"go/ast"
	"go/types"
)

// wrapperRun records, for fn called at c, a run of a command execcheck
// does not follow, if fn is such a method.
func (w *walker) wrapperRun(c *ast.CallExpr, fn *types.Func, recvExpr ast.Expr) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || fn.Pkg() == nil || fn.Pkg() == w.ps.pass.Pkg || recvExpr == nil {
		return false
	}
	var kind runKind
	switch fn.Name() {
	case "Run":
		kind = runRun
	case "Start":
		kind = runStart
	case "Output":
		kind = runOutput
	case "CombinedOutput":
		kind = runCombined
	default:
		return false
	}
	if !embedsCmd(sig.Recv().Type()) {
		return false
	}
	x := w.ps.newInstance()
	recv := types.TypeString(sig.Recv().Type(), func(p *types.Package) string { return p.Name() })
	x.p.Wrapped = "(" + recv + ")." + fn.Name() + ", a method of a type of another package that embeds *exec.Cmd"
	w.addRun(x, &runSite{kind: kind, call: c, pos: c.Pos(), cmdExpr: recvExpr})
	return true
}

// embedsCmd reports whether t, or what it points to, is a struct with
// an embedded exec.Cmd or *exec.Cmd.
func embedsCmd(t types.Type) bool {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := types.Unalias(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range s.Fields() {
		if f.Embedded() && isCmd(f.Type()) {
			return true
		}
	}
	return false
}
