package execcheck

// A process kept in a local variable across the turns of a loop:
//
//	var current *os.Process
//	for range builds {
//		if current != nil {
//			stop(current) // the command the turn before started
//		}
//		cmd := start()
//		current = cmd.Process
//	}
//
// The walk goes through a loop's body once, in source order, so the kill
// comes before the assignment it kills. A local *os.Process variable
// declared outside a loop and assigned inside it is one process for the
// whole function, as a field is for the package (proc_kept.go); a local
// *exec.Cmd so kept is one command (every command assigned to it joined).

import (
	"go/ast"
	"go/types"
)

// loopCarried reports whether obj is a local *os.Process variable
// assigned (=) inside a loop that it was declared outside of.
func (w *walker) loopCarried(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	if !ok || !isProcess(v.Type()) {
		return false
	}
	return w.assignedInLoop(v)
}

// loopCmd is, for a local *exec.Cmd variable assigned (=) inside a loop
// it was declared outside of, the one command it holds for the whole
// function: sst's restart loop kills `cmd.Process` of the turn before,
// then assigns the next command. Nil for any other name.
func (w *walker) loopCmd(obj types.Object) *instance {
	v, ok := obj.(*types.Var)
	if !ok || !isCmd(v.Type()) || !w.assignedInLoop(v) {
		return nil
	}
	if x := w.stable[v]; x != nil {
		return x
	}
	x := w.ps.newInstance()
	w.stable[v] = x
	return x
}

// assignedInLoop reports whether the local v is assigned (=) inside a
// loop that it was declared outside of.
func (w *walker) assignedInLoop(v *types.Var) bool {
	if v.IsField() || isPackageLevel(v) {
		return false
	}
	if c, ok := w.ps.loopKept[v]; ok {
		return c
	}
	carried := false
	sc, f := v.Parent(), w.ps.fileOf(v.Pos())
	if sc != nil && f != nil {
		ast.Inspect(f, func(n ast.Node) bool {
			if carried || n == nil || n.End() < sc.Pos() || n.Pos() > sc.End() {
				return false
			}
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			}
			if body != nil && body.Pos() > v.Pos() {
				carried = assignsIn(w.info, body, v)
			}
			return !carried
		})
	}
	w.ps.loopKept[v] = carried
	return carried
}

// assignsIn reports whether body assigns v with =.
func assignsIn(info *types.Info, body ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok {
			for _, l := range a.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.Uses[id] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
