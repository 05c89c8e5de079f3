package execcheck

// A test that re-executes its own test binary as the child:
//
//	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=TestHelperProcess")
//
// The binary runs TestMain, if the package has one, and only the tests
// -test.run names. If none of those starts a process, itself or through
// a function of the package, the child is a leaf: killing it ends every
// holder of its pipes. Any call execcheck cannot see into (another
// module's package, a method of an interface) may start one, and then
// the child is not taken as a leaf.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// testBinaryLeaf says why the program of progArgs is a re-executed test
// binary that starts no process, or "".
func (w *walker) testBinaryLeaf(progArgs []ast.Expr) string {
	if len(progArgs) == 0 || !w.isOsArgs0(progArgs[0]) {
		return ""
	}
	pattern, ok := "", false
	for i, a := range progArgs[1:] {
		s, isConst := constString(w.info, a)
		if !isConst {
			continue
		}
		flag, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "-"), "=")
		if flag != "test.run" {
			continue
		}
		if !hasVal {
			if i+2 >= len(progArgs) {
				return ""
			}
			if val, isConst = constString(w.info, progArgs[i+2]); !isConst {
				return ""
			}
		}
		pattern, ok = val, true
		break
	}
	if !ok {
		return ""
	}
	// -test.run matches a test's name by the pattern's first element
	// (split at the slashes that are not in brackets: rare, not handled).
	first, _, _ := strings.Cut(pattern, "/")
	re, err := regexp.Compile(first)
	if err != nil {
		return ""
	}
	var runs []string
	for fn, d := range w.ps.decls {
		name := fn.Name()
		isTest := strings.HasPrefix(name, "Test") && d.Recv == nil && name != "TestMain" && re.MatchString(name)
		if !isTest && name != "TestMain" && !(name == "init" && d.Recv == nil) {
			continue
		}
		if why := w.ps.startsProcess(fn, map[*types.Func]bool{}); why != "" {
			return ""
		}
		if isTest {
			runs = append(runs, name)
		}
	}
	what := "no test"
	if len(runs) > 0 {
		slices.Sort(runs)
		what = strings.Join(runs, ", ")
	}
	return fmt.Sprintf("the test binary re-executed with -test.run=%s runs %s (and TestMain), which starts no process: nothing outlives its kill", pattern, what)
}

// isOsArgs0 reports whether e is os.Args[0].
func (w *walker) isOsArgs0(e ast.Expr) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := w.info.Uses[sel.Sel].(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != "os" || v.Name() != "Args" {
		return false
	}
	tv := w.info.Types[ix.Index]
	return tv.Value != nil && tv.Value.Kind() == constant.Int && tv.Value.ExactString() == "0"
}

// startsProcess says how fn may start a process, or "": a call of
// os/exec, os.StartProcess or an exec or fork of syscall or x/sys/unix,
// in its body or in a function of the package it calls; or a call
// execcheck cannot see into (a function of another module, a method of
// an interface).
func (ps *pkgState) startsProcess(fn *types.Func, seen map[*types.Func]bool) string {
	if seen[fn] {
		return ""
	}
	seen[fn] = true
	d := ps.decls[fn]
	if d == nil || d.Body == nil {
		return ""
	}
	why := ""
	ast.Inspect(d.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		callee, _ := typeutil.Callee(ps.pass.TypesInfo, c).(*types.Func)
		if callee == nil || callee.Pkg() == nil {
			return true // a conversion, a builtin, a func value (a literal here is inspected)
		}
		path := callee.Pkg().Path()
		sig, _ := callee.Type().(*types.Signature)
		switch {
		case path == "os/exec" || path == "os" && callee.Name() == "StartProcess" ||
			isUnixPkg(path) && (strings.Contains(callee.Name(), "Exec") || strings.Contains(callee.Name(), "Fork") || callee.Name() == "StartProcess"):
			why = callee.FullName()
		case callee.Pkg() == ps.pass.Pkg && sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()):
			why = "a method of an interface: " + callee.FullName()
		case callee.Pkg() == ps.pass.Pkg:
			why = ps.startsProcess(callee, seen)
		case !isStd(path):
			why = "a function execcheck cannot see into: " + callee.FullName()
		}
		return why == ""
	})
	return why
}

// isStd reports whether path is a package of the standard library: its
// first element has no dot.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
