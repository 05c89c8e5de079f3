package execcheck

// A bufio.Scanner made where the pipe is, scanned elsewhere:
//
//	scanner := bufio.NewScanner(stderr)
//	go func() {
//		for scanner.Scan() { ... }
//	}()
//
// (ddev's share test). The reads are the Scan calls, in the goroutine,
// not the NewScanner: what comes between (a Wait beside them, a join)
// is placed against them there. A scanner handed to a call is read by
// that call, as a pipe is. A scanner kept anywhere but in a local
// variable used only for its methods (a field, an argument) is read
// where it is made, as before: its Scan may be where execcheck does not
// look.

import (
	"go/ast"
	"go/types"
)

// scannerLocal reports whether the bufio.NewScanner call c is assigned
// to a local variable of the body walked whose every use calls one of
// its methods.
func (w *walker) scannerLocal(c *ast.CallExpr) bool {
	body := w.bodyWalked()
	if body == nil {
		return false
	}
	var v types.Object
	ast.Inspect(body, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == len(a.Rhs) {
			for i, r := range a.Rhs {
				if ast.Unparen(r) == c {
					if id, ok := a.Lhs[i].(*ast.Ident); ok {
						v = w.info.ObjectOf(id)
					}
				}
			}
		}
		return v == nil
	})
	if v == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return false
	}
	ok := true
	w.usesOf(body, v, func(id *ast.Ident, stack []ast.Node) {
		if len(stack) < 3 {
			ok = false
			return
		}
		sel, isSel := stack[len(stack)-2].(*ast.SelectorExpr)
		call, isCall := stack[len(stack)-3].(*ast.CallExpr)
		if !isSel || sel.X != id || !isCall || call.Fun != sel {
			ok = false
		}
	})
	return ok
}

// scanned records the read of a pipe's scanner at its Scan.
func (w *walker) scanned(recv value, fn *types.Func) {
	if recv.pipe == nil || !recv.scanner || !methodOf(fn, "bufio", "Scanner") || fn.Name() != "Scan" {
		return
	}
	w.readToEOFBy(recv, "bufio.NewScanner", w.loops > 0) // one Scan alone reads a line, not surely to EOF
}
