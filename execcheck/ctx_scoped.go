package execcheck

// A context cancelled only when the function that made it is over:
//
//	ctx, cancel := context.WithCancel(context.Background())
//	t.Cleanup(cancel) // or: defer cancel()
//	out, err := exec.CommandContext(ctx, "kubectl", args...).CombinedOutput()
//
// (kcp's e2e framework). Its parent is never done, and its cancel runs
// only deferred or after the test: a Run, Output or CombinedOutput
// inline in that function ends before, as one in a test's t.Context()
// does (test_context.go), so it is taken as one.

import (
	"go/ast"
	"go/types"
)

// cancelledAtEnd returns how the context WithCancel makes at c, of the
// parent context, is done only after the function walked returns: its
// parent is never done (or is this scope's test context) and its cancel
// function is only deferred (in this body, not a literal in it) or
// handed to the Cleanup of a testing.T, B, F or TB. It returns "" when
// not.
func (w *walker) cancelledAtEnd(c *ast.CallExpr, parent value) string {
	if !parent.isCtx || !(parent.ctx == ctxBackground || parent.ctx == ctxTest && parent.ctxScope == w.cur.id) {
		return ""
	}
	body := w.bodyWalked()
	if body == nil {
		return ""
	}
	var cancel types.Object
	inspectOuter(body, func(n ast.Node) {
		if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == 2 && len(a.Rhs) == 1 && ast.Unparen(a.Rhs[0]) == c {
			if id, ok := a.Lhs[1].(*ast.Ident); ok && id.Name != "_" {
				cancel = w.info.ObjectOf(id)
			}
		}
	})
	if cancel == nil {
		return ""
	}
	how, ok := "", true
	w.usesOf(body, cancel, func(id *ast.Ident, stack []ast.Node) {
		switch u := w.cancelUse(stack); u {
		case "":
			ok = false
		default:
			if how == "" {
				how = "a context whose cancel " + u + " (" + w.ps.where(id.Pos()) + ")"
			}
		}
	})
	if !ok {
		return ""
	}
	return how
}

// bodyWalked is the body of the function or function literal walked.
func (w *walker) bodyWalked() *ast.BlockStmt {
	if w.cur != w.top && w.cur.body != nil {
		return w.cur.body
	}
	if d := w.ps.decls[w.fn]; w.fn != nil && d != nil {
		return d.Body
	}
	return nil
}

// usesOf calls f for each use of obj in body (a function's body or a
// whole file), with the nodes from body down to it.
func (w *walker) usesOf(body ast.Node, obj types.Object, f func(id *ast.Ident, stack []ast.Node)) {
	inspectStack(body, func(stack []ast.Node) {
		if id, ok := stack[len(stack)-1].(*ast.Ident); ok && w.info.Uses[id] == obj {
			f(id, stack)
		}
	})
}

// inspectStack calls f for every node under root, with the path from
// root to it (the node last).
func inspectStack(root ast.Node, f func(stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		f(stack)
		return true
	})
}

// cancelUse says how the cancel function at the top of stack is used, if
// it runs only after the function: "is only deferred" or "only
// t.Cleanup calls"; "" for any other use.
func (w *walker) cancelUse(stack []ast.Node) string {
	id := stack[len(stack)-1]
	if len(stack) < 3 {
		return ""
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok {
		return ""
	}
	for _, n := range stack[:len(stack)-2] {
		if _, ok := n.(*ast.FuncLit); ok {
			return "" // in a literal: it runs when that is called
		}
	}
	if d, ok := stack[len(stack)-3].(*ast.DeferStmt); ok && d.Call == call && call.Fun == id {
		return "is only deferred"
	}
	if len(call.Args) == 1 && call.Args[0] == id && w.isCleanup(call) {
		return "only t.Cleanup calls"
	}
	return ""
}
