package execcheck

// A writer parameter the caller gives a file: a helper that makes the
// command and sets `cmd.Stdout = out` for an `out io.Writer` parameter
// copies through a pipe only if its caller passes something other than
// an *os.File (`os.Create(outFile)` for a background job's log). The
// summary keeps which parameter every copied writer is; each call reads
// its argument.

import (
	"go/ast"
	"go/types"
)

// copyParam is what CopyParam becomes once r, a writer that is no file,
// is set as the command's Stdout or Stderr: r's parameter index (1-based)
// if r is a parameter of the function walked and every writer before it
// was that one; -1 otherwise.
func (w *walker) copyParam(p *props, r ast.Expr) int {
	id, ok := ast.Unparen(r).(*ast.Ident)
	if !ok || w.cur != w.top {
		return -1
	}
	i, ok := w.top.params[w.info.ObjectOf(id)]
	switch {
	case !ok || p.CopyParam < 0:
		return -1
	case p.CopyPipe && p.CopyParam != i+1:
		return -1
	}
	return i + 1
}

// fileArg drops the copy from q, a callee's props at a call, when every
// copied writer is a parameter and the argument there is a file. A copy
// that stays is the caller's own: no parameter of the caller.
func (w *walker) fileArg(q *props, argExpr func(int) ast.Expr) {
	if !q.CopyPipe {
		return
	}
	if q.CopyParam > 0 {
		if a := argExpr(q.CopyParam - 1); a != nil {
			t := w.info.TypeOf(a)
			if t != nil && (isPointerToNamed(t, "os", "File") || types.IsInterface(t) && w.ps.holdsFile(a)) {
				q.CopyPipe, q.CopyWhy, q.CopyParam = false, "", 0
				return
			}
		}
	}
	q.CopyParam = -1
}
