package execcheck

// A bufio.Scanner kept in a field and scanned one token a call:
//
//	t := &transport{scanner: bufio.NewScanner(stdout), cmd: cmd}
//	...
//	func (t *transport) Recv() ([]byte, error) {
//		if !t.scanner.Scan() { ... } // one response per request
//	}
//
// (go-go-mcp's stdio client). No call reads the pipe to its EOF: each
// reads one line, and the Wait of Close, which no read precedes, closes
// the pipe once the direct child exits. A Scan in a loop anywhere, or
// the field used other than for its methods, keeps the old reading: the
// pipe is read to EOF where the scanner is made (scanned.go).

import (
	"go/ast"
	"go/types"
)

// scannedOnce reports whether the bufio.NewScanner call c is kept in a
// field whose every use in the package calls a method of the scanner,
// with no Scan in a loop.
func (w *walker) scannedOnce(c *ast.CallExpr) bool {
	f := w.fieldGiven(c)
	if f == nil {
		return false
	}
	ok, uses := true, 0
	for _, file := range w.ps.pass.Files {
		w.usesOf(file, f, func(_ *ast.Ident, stack []ast.Node) {
			uses++
			ok = ok && scanOnceUse(stack)
		})
	}
	return ok && uses > 0
}

// fieldGiven is the field that the call c is stored in where it is
// made: a composite literal's `field: c` or an assignment `x.field = c`.
func (w *walker) fieldGiven(c *ast.CallExpr) *types.Var {
	body := w.bodyWalked()
	if body == nil {
		return nil
	}
	var f *types.Var
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok && ast.Unparen(n.Value) == c {
				f, _ = w.info.Uses[id].(*types.Var)
			}
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				if sel, ok := n.Lhs[i].(*ast.SelectorExpr); ok && len(n.Lhs) == len(n.Rhs) && ast.Unparen(r) == c {
					f, _ = w.info.Uses[sel.Sel].(*types.Var)
				}
			}
		}
		return f == nil
	})
	if f == nil || !f.IsField() {
		return nil
	}
	return f
}

// scanOnceUse reports whether the field's use at the top of stack (its
// name in x.field) calls one of the scanner's methods, and a Scan only
// outside any loop of the function it is in.
func scanOnceUse(stack []ast.Node) bool {
	n := len(stack)
	if n < 4 {
		return false
	}
	sel, ok := stack[n-2].(*ast.SelectorExpr)
	if !ok || sel.Sel != stack[n-1] {
		return true // the composite literal's key, where it is given
	}
	m, ok := stack[n-3].(*ast.SelectorExpr)
	call, isCall := stack[n-4].(*ast.CallExpr)
	if !ok || m.X != sel || !isCall || call.Fun != m {
		return false
	}
	if m.Sel.Name != "Scan" {
		return true
	}
	for i := n - 5; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.FuncDecl, *ast.FuncLit:
			return true
		}
	}
	return true
}
