package execcheck

// A package that does not type-check (a generated package not committed,
// a dependency the proxy refuses) is still checked: the declarations
// whose code has no type are set aside, and the rest is walked as usual.
// A call of a function set aside is one execcheck cannot follow (what it
// is given is unknown), and a run inside one is listed as unknown with
// the reason, never skipped.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// illDecl is a declaration set aside: where, and the first type error in
// it or the first expression execcheck cannot type.
type illDecl struct {
	decl ast.Decl
	why  string
}

// setAsideIllTyped removes from the files the package walks the
// declarations that do not type-check, and returns them. It returns the
// files unchanged when the package type-checks.
func (ps *pkgState) setAsideIllTyped(files []*ast.File) ([]*ast.File, []illDecl) {
	if len(ps.pass.TypeErrors) == 0 {
		return files, nil
	}
	info := ps.pass.TypesInfo
	var ill []illDecl
	out := make([]*ast.File, len(files))
	for i, f := range files {
		var keep []ast.Decl
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				keep = append(keep, d)
				continue
			}
			if why := ps.illWhy(info, d); why != "" {
				ill = append(ill, illDecl{decl: d, why: why})
				if fd, ok := d.(*ast.FuncDecl); ok {
					if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
						ps.ill[fn] = true
					}
				}
				continue
			}
			keep = append(keep, d)
		}
		cp := *f
		cp.Decls = keep
		out[i] = &cp
	}
	return out, ill
}

// illWhy says why d cannot be walked: a type error in it, or the
// innermost expression with no type in the first that has none; "" if
// it can.
func (ps *pkgState) illWhy(info *types.Info, d ast.Decl) string {
	for _, e := range ps.pass.TypeErrors {
		if e.Pos >= d.Pos() && e.Pos < d.End() {
			return e.Msg
		}
	}
	var first ast.Node
	why := ""
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if n == nil || first != nil && (n.Pos() < first.Pos() || n.End() > first.End()) {
			return false
		}
		if e, ok := n.(ast.Expr); ok && untyped(info, e) {
			if first == nil {
				first = n
			}
			why = types.ExprString(e) + " has no type"
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, visit) // x.f names f by x's type: say x.f
			return false
		}
		return true
	}
	ast.Inspect(d, visit)
	return why
}

// untyped reports whether e, a use, has no type where it should have one.
func untyped(info *types.Info, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		o := info.Uses[e]
		if _, pkg := o.(*types.PkgName); pkg || o == nil {
			return false // a package name has no type, rightly
		}
		return o.Type() == types.Typ[types.Invalid]
	case *ast.CallExpr, *ast.SelectorExpr:
		if tv, ok := info.Types[e]; ok && tv.IsVoid() {
			return false
		}
		t := info.TypeOf(e)
		if sel, ok := e.(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
			t = info.Selections[sel].Type() // a field or method whose type is missing
		}
		return t == nil || t == types.Typ[types.Invalid]
	}
	return false
}

// illSites lists the runs of commands in the declarations set aside, as
// unknown.
func (ps *pkgState) illSites(ill []illDecl) []Site {
	var out []Site
	for _, d := range ill {
		ast.Inspect(d.decl, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Run", "Start", "Output", "CombinedOutput":
			default:
				return true
			}
			if s := ps.pass.TypesInfo.Selections[sel]; s == nil || !isCmd(s.Recv()) {
				return true
			}
			ig, _ := ps.ignores.at(c.Pos())
			out = append(out, Site{Pos: c.Pos(), Posn: ps.pass.Fset.Position(c.Pos()), Call: types.ExprString(c), Class: Unknown,
				Reason: declName(d.decl) + " does not type-check (" + d.why + "): execcheck does not follow it", Ignored: ig})
			return true
		})
	}
	return out
}

// untypedCall handles a call of a function set aside: the commands it is
// given are unknown from there on, and it is otherwise a call execcheck
// cannot follow.
func (w *walker) untypedCall(c *ast.CallExpr, fn *types.Func, args []value) {
	for _, a := range args {
		if a.inst != nil && a.inst.root().p.Untyped == "" {
			a.inst.root().p.Untyped = fn.Name() + " (" + w.ps.where(c.Pos()) + ")"
		}
	}
	w.passedOn(c, fn, args, true)
}

// declName names a declaration set aside, for a reason.
func declName(d ast.Decl) string {
	if fd, ok := d.(*ast.FuncDecl); ok {
		return "the function " + fd.Name.Name
	}
	return "the declaration"
}

// walkHook, if set, is called before the walk of a package that does
// not type-check: a test makes the walk fail with it.
var walkHook func()

// unwalked lists every run of a command in the package as unknown: the
// package does not type-check and its walk failed.
func (ps *pkgState) unwalked(files []*ast.File, failure any) []Site {
	why := fmt.Sprintf("%s (walking it failed: %v)", ps.pass.TypeErrors[0].Msg, failure)
	var ill []illDecl
	for _, f := range files {
		for _, d := range f.Decls {
			ill = append(ill, illDecl{decl: d, why: why})
		}
	}
	out := ps.illSites(ill)
	for i := range out {
		out[i].Reason = "the package does not type-check (" + why + "): execcheck does not follow it"
	}
	return out
}
