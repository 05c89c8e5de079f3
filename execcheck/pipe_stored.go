package execcheck

// An output pipe passed to a function of the package that only stores it
// in a field (dify-plugin-daemon's constructor:
// `newPluginInstance(id, e, stdin, stdout, stderr, cfg)` returning
// `&PluginInstance{outReader: reader, ...}`). A pipe passed to a function
// is taken as read to EOF at the call, where execcheck does not see what
// the function does with it; one that is only stored is the pipe the
// field holds package-wide (pipe_kept.go), read where the field is.

import (
	"go/ast"
	"go/types"
)

// storedPipeParam returns the field fn stores its i'th parameter in, if
// fn is declared in the package, the parameter can hold a pipe, and
// every use of it in fn's body is that store.
func (w *walker) storedPipeParam(fn *types.Func, i int) *types.Var {
	if fn == nil || fn.Pkg() != w.ps.pass.Pkg {
		return nil
	}
	d := w.ps.decls[fn.Origin()]
	params := fn.Signature().Params()
	if d == nil || d.Body == nil || i >= params.Len() || fn.Signature().Variadic() && i >= params.Len()-1 {
		return nil
	}
	p := params.At(i)
	if !holdsPipe(p.Type()) {
		return nil
	}
	var field *types.Var
	ok := true
	w.usesOf(d.Body, p, func(id *ast.Ident, stack []ast.Node) {
		f := storedIn(w.info, stack)
		if f == nil || field != nil && f != field {
			ok = false
			return
		}
		field = f
	})
	if !ok || field == nil || !holdsPipe(field.Type()) {
		return nil
	}
	return field
}
