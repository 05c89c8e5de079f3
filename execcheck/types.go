package execcheck

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// named reports whether t (or what it points to) is the named type
// pkg.name: isTypeNamed or isPointerToNamed, local types included.
func named(t types.Type, pkg, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Name() == name && o.Pkg() != nil && o.Pkg().Path() == pkg
}

func isCmd(t types.Type) bool         { return t != nil && named(t, "os/exec", "Cmd") }
func isProcess(t types.Type) bool     { return t != nil && named(t, "os", "Process") }
func isSysProcAttr(t types.Type) bool { return t != nil && named(t, "syscall", "SysProcAttr") }
func isContext(t types.Type) bool     { return t != nil && named(t, "context", "Context") }

// isSignal reports whether t is a signal type: syscall.Signal (which
// x/sys/unix.Signal aliases) or os.Signal.
func isSignal(t types.Type) bool {
	return t != nil && (named(t, "syscall", "Signal") || named(t, "os", "Signal"))
}

// holdsCmd reports whether t is a command or a container of commands:
// a slice, array, map or channel of them, or a pointer to one.
func holdsCmd(t types.Type) bool {
	for range 4 {
		if t == nil {
			return false
		}
		if isCmd(t) || cmdLike(t) {
			return true
		}
		switch u := types.Unalias(t).Underlying().(type) {
		case *types.Slice:
			t = u.Elem()
		case *types.Array:
			t = u.Elem()
		case *types.Map:
			t = u.Elem()
		case *types.Chan:
			t = u.Elem()
		case *types.Pointer:
			t = u.Elem()
		default:
			return false
		}
	}
	return false
}

func isInteger(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// isString reports whether t's underlying type is string.
func isString(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Kind() == types.String
}

// isTypeNamed reports whether t is (or is an alias for) a package-level
// defined type of package pkgPath named one of names, as x/tools'
// typesinternal.IsTypeNamed does.
func isTypeNamed(t types.Type, pkgPath string, names ...string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o != nil && isPackageLevel(o) && o.Pkg().Path() == pkgPath && slices.Contains(names, o.Name())
}

// isPointerToNamed reports whether t is (or is an alias for) a pointer
// to a type isTypeNamed reports, as typesinternal.IsPointerToNamed does.
func isPointerToNamed(t types.Type, pkgPath string, names ...string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isTypeNamed(p.Elem(), pkgPath, names...)
}

// isPointerType reports whether t is (or is an alias for) a pointer.
func isPointerType(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// derefType returns the type t points to, or t if it is not a pointer.
func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// derefStruct returns the struct t is, or points to.
func derefStruct(t types.Type) (*types.Struct, bool) {
	if t == nil {
		return nil, false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}

// isPackageLevel reports whether obj is a package-level object: a
// package variable rather than a local or a field, as
// typesinternal.IsPackageLevel does.
func isPackageLevel(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// pkgPathOf is the path of fn's package; "" for a nil fn or one of no
// package (a builtin's, the universe's).
func pkgPathOf(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path()
}

// staticCallee is the function or method c calls statically, or nil.
func staticCallee(info *types.Info, c *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, c).(*types.Func)
	return fn
}

// isFunctionNamed reports whether fn is a function (not a method) of
// package pkgPath named one of names, as typesinternal.IsFunctionNamed
// does, for a *types.Func that may be nil.
func isFunctionNamed(fn *types.Func, pkgPath string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkgPath {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() == nil && slices.Contains(names, fn.Name())
}

// methodOf reports whether fn is a method of the named type pkg.typ.
func methodOf(fn *types.Func, pkg, typ string) bool {
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	return named(sig.Recv().Type(), pkg, typ)
}

// isMethodNamed reports whether fn is a method of the named type pkg.typ
// (or of a pointer to it) named one of names, as
// typesinternal.IsMethodNamed does, for a *types.Func that may be nil.
func isMethodNamed(fn *types.Func, pkg, typ string, names ...string) bool {
	return methodOf(fn, pkg, typ) && slices.Contains(names, fn.Name())
}

// isInterfaceMethod reports whether fn is a method of an interface.
func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// isFalse reports whether e is the constant false.
func isFalse(info *types.Info, e ast.Expr) bool {
	if e == nil {
		return false
	}
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// isNil reports whether e is the predeclared nil.
func isNil(info *types.Info, e ast.Expr) bool {
	if e == nil {
		return false
	}
	tv, ok := info.Types[e]
	return ok && tv.IsNil()
}

// cancelpolicyPath is the package whose Run, Start and Apply fix a site.
const cancelpolicyPath = "github.com/exectest/exectest/cancelpolicy"

// isUnixPkg reports whether path is a package whose Kill takes a pid
// that, negated, names a process group.
func isUnixPkg(path string) bool {
	return path == "syscall" || path == "golang.org/x/sys/unix"
}

// shortType names t as a reader of the code would: *bytes.Buffer.
func shortType(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func trimExe(name string) string { return strings.TrimSuffix(strings.ToLower(name), ".exe") }

// unconvert strips conversions to an interface type from e
// (`io.Writer(os.Stdout)`): what it holds is the operand.
func unconvert(info *types.Info, e ast.Expr) ast.Expr {
	for {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return e
		}
		tv, ok := info.Types[c.Fun]
		if !ok || !tv.IsType() || !types.IsInterface(tv.Type) {
			return e
		}
		e = c.Args[0]
	}
}
