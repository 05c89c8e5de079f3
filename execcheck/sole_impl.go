package execcheck

// An interface the package declares so that its tests can put a fake
// where production runs the one type of its own that implements it:
//
//	type command interface{ Start() error; Terminate() error }
//	type execCommand struct{ cmd *exec.Cmd }
//	func (e *execCommand) Terminate() error { return syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL) }
//	_ = cmd.Terminate() // autopus-adk's runner, on ctx.Done()
//
// A call of such an interface's method is a call of that type's method.
// Only an unexported interface (another package cannot name it to
// implement it) with exactly one implementing type among the package's
// files, not its tests: a second type, or none, leaves the call
// unfollowed.

import (
	"go/types"
	"strings"
)

// soleImpl returns the method a call of the interface method fn runs,
// if the package gives fn's interface one implementation; else nil.
func (ps *pkgState) soleImpl(fn *types.Func) *types.Func {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != ps.pass.Pkg || named.Obj().Exported() {
		return nil
	}
	it, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if ps.impls == nil {
		ps.impls = map[*types.Named]types.Type{}
	}
	if m, seen := ps.impls[named]; seen {
		return methodNamed(m, fn)
	}
	var impl types.Type
	n := 0
	scope := ps.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) || ps.inTest(tn) {
			continue
		}
		t := tn.Type()
		if _, generic := t.(*types.Named); !generic || t.(*types.Named).TypeParams().Len() > 0 {
			continue
		}
		switch {
		case types.Implements(t, it):
			impl, n = t, n+1
		case types.Implements(types.NewPointer(t), it):
			impl, n = types.NewPointer(t), n+1
		}
	}
	if n != 1 {
		impl = nil
	}
	ps.impls[named] = impl
	return methodNamed(impl, fn)
}

// methodNamed is t's method of the interface method fn's name; nil if t
// is nil.
func methodNamed(t types.Type, fn *types.Func) *types.Func {
	if t == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
	m, _ := obj.(*types.Func)
	return m
}

// inTest reports whether obj is declared in a _test.go file.
func (ps *pkgState) inTest(obj types.Object) bool {
	f := ps.pass.Fset.File(obj.Pos())
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// soleImplOf is soleImpl of fn if fn is an interface method.
func (w *walker) soleImplOf(fn *types.Func) *types.Func {
	if fn == nil || !isInterfaceMethod(fn) {
		return nil
	}
	return w.ps.soleImpl(fn)
}
