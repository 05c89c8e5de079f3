package execcheck

// A program named by a path that a constant names:
//
//	ffmpeg, err := exec.LookPath("ffmpeg")
//	cmd := exec.CommandContext(ctx, ffmpeg, "-i", in, out)
//
//	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "rg"), args...)
//
// LookPath finds the file the name names (or returns the name itself when
// it has a slash), and Join's last element is the file's name: the
// program is that name, read as the constant would be (a leaf, a shell
// with its script, a shim). A variable set again, or a name execcheck
// cannot read, leaves the program unknown, as before.

import (
	"go/ast"
	"go/types"
	"path"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
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
	if depth > 4 {
		return "", false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		switch calleeName(w.info, x) {
		case "path/filepath.Join", "path.Join":
			if n := len(x.Args); n > 0 && !x.Ellipsis.IsValid() {
				if s, ok := w.progName(x.Args[n-1], depth+1); ok && s != "" {
					return path.Base(strings.ReplaceAll(s, `\`, "/")), true
				}
			}
		}
	case *ast.Ident:
		v, ok := w.info.Uses[x].(*types.Var)
		if !ok {
			return "", false
		}
		if rhs, ok := w.ps.onceLocals()[v]; ok {
			return w.progName(rhs, depth+1)
		}
		if call, ok := w.ps.firstResults()[v]; ok && calleeName(w.info, call) == "os/exec.LookPath" && len(call.Args) == 1 {
			return w.progName(call.Args[0], depth+1)
		}
	}
	return "", false
}

// calleeName is the package path and name of the function c calls
// statically ("os/exec.LookPath"), or "".
func calleeName(info *types.Info, c *ast.CallExpr) string {
	fn, ok := typeutil.Callee(info, c).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return ""
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
		return ""
	}
	return fn.Pkg().Path() + "." + fn.Name()
}
