package execcheck

// A program named by a path that a constant names:
//
//	ffmpeg, err := exec.LookPath("ffmpeg")
//	cmd := exec.CommandContext(ctx, ffmpeg, "-i", in, out)
//
// LookPath finds the installed program the name names (or returns the
// name itself when it has a slash): the program is that name, read as
// the constant would be (a leaf, a shell with its script, a shim). A
// variable set again, or a name execcheck cannot read, leaves the
// program unknown, as before. A path joined to a directory
// (filepath.Join(dir, "codex")) is not read: the directory may hold a
// script the package wrote itself (kilroy's test writes a bash script
// named codex that starts a background job).

import (
	"go/ast"
	"go/types"
)

// progNameOf reads e, a command's program, as a constant, or as a path
// the constant it names stands for.
func (w *walker) progNameOf(e ast.Expr) (string, bool) {
	return w.progName(e, 0)
}

func (w *walker) progName(e ast.Expr, depth int) (string, bool) {
	if s, ok := w.constOf(e); ok {
		return s, true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || depth > 4 {
		return "", false
	}
	v, ok := w.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	if rhs, ok := w.ps.onceLocals()[v]; ok {
		return w.progName(rhs, depth+1)
	}
	if call, ok := w.ps.firstResults()[v]; ok && isFunctionNamed(staticCallee(w.info, call), "os/exec", "LookPath") && len(call.Args) == 1 {
		return w.progName(call.Args[0], depth+1)
	}
	return "", false
}
