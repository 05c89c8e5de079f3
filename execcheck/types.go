package execcheck

import (
	"go/types"
	"strings"
)

// named reports whether t (or what it points to) is the named type
// pkg.name.
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
		if isCmd(t) {
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

// funcIs reports whether fn is pkg.name (a function, not a method).
func funcIs(fn *types.Func, pkg string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkg {
		return false
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
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
