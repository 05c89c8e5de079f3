package execcheck

// A command made through a function value or an interface method of
// exec.CommandContext's (or exec.Command's) very type, whose value
// execcheck cannot see:
//
//	type ExecContext = func(ctx context.Context, name string, arg ...string) *exec.Cmd
//	cmd := c.execContext(ctx, "sudo", args...) // exec.CommandContext in main
//
// Such a seam is there for tests to put a fake in; what production
// puts there is, by its type, exec.CommandContext. The command is taken
// as made by it, with the arguments the call gives, and every verdict
// says so: were the value to set Cancel, WaitDelay or a group, the
// verdict would not hold.

import (
	"go/ast"
	"go/types"
)

// factoryKind returns "CommandContext" or "Command" where sig is the
// type of that function of os/exec, and "" otherwise.
func factoryKind(sig *types.Signature) string {
	if sig == nil || !sig.Variadic() || sig.Results().Len() != 1 || !isPointerToNamed(sig.Results().At(0).Type(), "os/exec", "Cmd") {
		return ""
	}
	ps := sig.Params()
	variadicStrings := func(i int) bool {
		s, ok := ps.At(i).Type().(*types.Slice)
		return ok && isString(s.Elem())
	}
	switch {
	case ps.Len() == 3 && isContext(ps.At(0).Type()) && isString(ps.At(1).Type()) && variadicStrings(2):
		return "CommandContext"
	case ps.Len() == 2 && isString(ps.At(0).Type()) && variadicStrings(1):
		return "Command"
	}
	return ""
}

// factoryCall makes the command of a call through such a value, if c is
// one; ok is false otherwise.
func (w *walker) factoryCall(c *ast.CallExpr) ([]value, bool) {
	sig, _ := w.info.TypeOf(c.Fun).Underlying().(*types.Signature)
	kind := factoryKind(sig)
	if kind == "" || !c.Ellipsis.IsValid() && len(c.Args) < fixedArgs(kind) {
		return nil, false
	}
	x := w.ps.newInstance()
	if kind == "CommandContext" {
		w.made(x, c, c.Args[0], c.Args[1:], c.Ellipsis.IsValid())
	} else {
		w.made(x, c, nil, c.Args, c.Ellipsis.IsValid())
	}
	r := x.root()
	r.p.Creations[len(r.p.Creations)-1].Factory = types.ExprString(c.Fun) + ", of exec." + kind + "'s type, whose value execcheck cannot see, taken as exec." + kind
	return []value{{inst: x}}, true
}

// fixedArgs is how many arguments a call of kind names before the
// variadic ones.
func fixedArgs(kind string) int {
	if kind == "CommandContext" {
		return 2
	}
	return 1
}

// factoryNote is what a verdict on a command made through such a value
// adds to its reason.
func factoryNote(p *props) string {
	for _, c := range p.Creations {
		if c.Factory != "" {
			return "; the command is made by " + c.Factory
		}
	}
	return ""
}
