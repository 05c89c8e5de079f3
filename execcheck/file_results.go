package execcheck

// An *os.File returned behind an interface: a function of the package
// that opens log files and returns them as io.WriteCloser
// (`out, errw, err := c.logFiles(id)`). Each of its return statements
// gives that result an *os.File (os.OpenFile's, or a local that holds
// one) or nil, so what the caller assigns from it is a file, not a pipe,
// as an *os.File assigned directly is (file_vars.go). A function that
// returns anything else there, or whose body execcheck does not read (a
// bare return of named results, another package's), is not taken so.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// resultType is the type the i'th result of the call e gives what it is
// assigned to: t (its declared type), or the *os.File type when t is an
// interface and e calls a function of the package that only ever returns
// an *os.File (or nil) there.
func (ps *pkgState) resultType(e ast.Expr, i int, t types.Type) types.Type {
	if t == nil || !types.IsInterface(t) {
		return t
	}
	if u := unconvert(ps.pass.TypesInfo, e); u != e {
		return ps.resultType(u, 0, ps.pass.TypesInfo.TypeOf(u))
	}
	if f := ps.fileResult(e, i, map[*types.Func]bool{}); f != nil {
		return f
	}
	return t
}

// fileResult is the *os.File type if the call e's i'th result is only
// ever an *os.File or nil, else nil. seen stops a recursion.
func (ps *pkgState) fileResult(e ast.Expr, i int, seen map[*types.Func]bool) types.Type {
	info := ps.pass.TypesInfo
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn, _ := typeutil.Callee(info, c).(*types.Func)
	if fn == nil || fn.Pkg() != ps.pass.Pkg || seen[fn] {
		return nil
	}
	seen[fn] = true
	d := ps.decls[fn.Origin()]
	sig, _ := fn.Type().(*types.Signature)
	if d == nil || d.Body == nil || sig == nil || i >= sig.Results().Len() {
		return nil
	}
	var file types.Type
	bad := false
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if bad {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			var t types.Type
			switch {
			case len(n.Results) == sig.Results().Len():
				r := n.Results[i]
				if isNil(info, r) {
					return true
				}
				t = info.TypeOf(r)
				if !isPointerToNamed(t, "os", "File") {
					t = ps.fileResult(r, 0, seen)
				}
			case len(n.Results) == 1:
				// return f(...): f's results are this function's.
				if tup, ok := info.TypeOf(n.Results[0]).(*types.Tuple); ok && i < tup.Len() {
					t = tup.At(i).Type()
					if !isPointerToNamed(t, "os", "File") {
						t = ps.fileResult(n.Results[0], i, seen)
					}
				}
			}
			if t == nil || !isPointerToNamed(t, "os", "File") {
				bad = true
				return false
			}
			file = t
		}
		return true
	})
	if bad {
		return nil
	}
	return file
}
