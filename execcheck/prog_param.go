package execcheck

// A program passed through a constructor's parameter:
// `newHardenedCommand(ctx, dir, "git", args...)` makes
// exec.CommandContext(ctx, name, args...) with name a parameter. The
// creation records which parameters the program and its arguments are,
// and each call of the constructor reads the program from its own
// arguments, where it may be a constant (git, a shell and its script).

import (
	"go/ast"
	"go/types"
)

// progParams records, on the creation c made with progArgs in the
// function walked, the parameters its program and arguments are: the
// program a parameter of the declared function (not of a closure), the
// arguments a variadic parameter spread (args...).
func (w *walker) progParams(c *creation, progArgs []ast.Expr, variadic bool) {
	c.ProgParam, c.ArgsParam = 0, 0
	if len(progArgs) == 0 || w.cur != w.top {
		return
	}
	i := w.paramIndex(progArgs[0])
	if i < 0 {
		return
	}
	c.ProgParam = i + 1
	if variadic && len(progArgs) == 2 {
		if j := w.paramIndex(progArgs[1]); j >= 0 {
			c.ArgsParam = j + 1
		}
	}
}

// paramIndex is the index of the parameter of the declared function
// walked that e names, or -1.
func (w *walker) paramIndex(e ast.Expr) int {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if i, ok := w.top.params[w.info.ObjectOf(id)]; ok {
			return i
		}
	}
	return -1
}

// reparam makes a creation whose program a constructor took as a
// parameter, made at its call c, the creation of the function walked:
// its program and arguments are parameters of this function if the
// arguments at c are, and are read no further otherwise.
func (w *walker) reparam(cr *creation, c *ast.CallExpr) {
	i, j := cr.ProgParam-1, cr.ArgsParam-1
	if i < 0 || i >= len(c.Args) {
		return
	}
	var args []ast.Expr
	variadic := false
	if j > i && j < len(c.Args) {
		args = append(args, c.Args[i], c.Args[j])
		variadic = c.Ellipsis.IsValid() && j == len(c.Args)-1
	} else {
		args = append(args, c.Args[i])
	}
	w.progParams(cr, args, variadic)
}

// progAt reads, at the call c of a constructor, the program of a
// creation whose program is its parameter; ok is false if it is not.
func (w *walker) progAt(cr *creation, c *ast.CallExpr) (progInfo, bool) {
	i := cr.ProgParam - 1
	if i < 0 || i >= len(c.Args) {
		return progInfo{}, false
	}
	if sig, ok := w.info.TypeOf(c.Fun).(*types.Signature); ok && sig.Variadic() && i >= sig.Params().Len()-1 {
		return progInfo{}, false
	}
	args := []ast.Expr{c.Args[i]}
	variadic := true // what follows the program is not known
	if j := cr.ArgsParam - 1; j > i && j <= len(c.Args) {
		args = append(args, c.Args[j:]...)
		variadic = c.Ellipsis.IsValid()
	}
	return program(w.constOf, w.progNameOf, w.scriptOf, args, variadic), true
}
