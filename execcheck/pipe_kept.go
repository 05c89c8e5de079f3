package execcheck

// Output pipes that leave the function that made them. A StdoutPipe
// kept in a field or a package variable (a server's outPipe, a result
// struct's Stdout) is one pipe for the whole package, as a command kept
// there is (ps.fields): a read through the field is a read of the pipe
// of the command it was given. A pipe returned by a function no call in
// the package reaches (a method called through an interface, a function
// value, another package's caller) is read where execcheck does not
// see; os/exec has every read of a pipe end before Wait, so those reads
// last until EOF.

import (
	"fmt"
	"go/types"
)

// holdsPipe reports whether t can hold a command's output pipe and
// nothing execcheck would need to tell from it: an interface with only
// Read and Close (io.Reader, io.ReadCloser, or the like).
func holdsPipe(t types.Type) bool {
	it, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok || it.NumMethods() == 0 {
		return false
	}
	for m := range it.Methods() {
		if m.Name() != "Read" && m.Name() != "Close" {
			return false
		}
	}
	return true
}

// pipeVar is the pipe a field or package variable holds, wherever it is
// read or written in the package: the command whose pipe it is, once
// one is stored there.
func (ps *pkgState) pipeVar(f *types.Var) value {
	x := ps.pipes[f]
	if x == nil {
		x = ps.newInstance()
		ps.pipes[f] = x
	}
	return value{pipe: x, what: ps.pipeWhat[f]}
}

// keepPipe stores v, if it is a pipe, in the field or package variable
// f; it reports whether it did.
func (w *walker) keepPipe(f *types.Var, v value) bool {
	if v.pipe == nil || f.Pkg() != w.ps.pass.Pkg {
		return false
	}
	join(w.ps.pipeVar(f).pipe, v.pipe)
	if w.ps.pipeWhat[f] == "" {
		w.ps.pipeWhat[f] = v.what
	}
	return true
}

// keptPipe is the value of a read of the field or package variable f:
// the pipe it holds package-wide, if it can hold one.
func (w *walker) keptPipe(f *types.Var) (value, bool) {
	if f.Pkg() != w.ps.pass.Pkg || !holdsPipe(f.Type()) {
		return value{}, false
	}
	return w.ps.pipeVar(f), true
}

// pipeOut is a pipe a function returns, for readsUnseen.
type pipeOut struct {
	pipe *instance
	what string
	fn   *types.Func
}

// readsUnseen marks the pipes returned by functions no call in the
// package reaches as read until EOF: their callers read them where
// execcheck does not see, and by os/exec's contract before Wait.
func (ps *pkgState) readsUnseen() {
	for _, o := range ps.pipeOuts {
		r := o.pipe.root()
		if r.p.ReadPipe || ps.called[o.fn] || len(r.p.Creations) == 0 {
			continue
		}
		name := "StdoutPipe"
		if o.what == "stderr" {
			name = "StderrPipe"
		}
		r.p.ReadPipe = true
		r.p.ReadWhy = fmt.Sprintf("%s from %s() is returned by %s, whose callers execcheck does not see (no call in the package reaches it): os/exec has them end their reads before Wait, so they read until EOF, which WaitDelay does not close", o.what, name, funcName(o.fn))
	}
}

// funcName is fn as a reader finds it: F, or (T).M for a method.
func funcName(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return fn.Name()
	}
	return "(" + types.TypeString(sig.Recv().Type(), func(*types.Package) string { return "" }) + ")." + fn.Name()
}
