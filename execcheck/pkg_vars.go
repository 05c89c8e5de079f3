package execcheck

// Package variables' initial values: `var runTool = func(ctx
// context.Context, ...) error { ... }` holds exec sites in a function
// literal that no declared function contains. They are walked once, as
// the body of no function: a literal bound to the variable is a closure
// whose kills wait for its call (as one bound to a local name), any
// other value is evaluated, literals in it walked where they stand.
// Nothing in the package is left unwalked, so every site is listed.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// walkVarInits walks the values of the package's var declarations.
func (ps *pkgState) walkVarInits() {
	for _, f := range ps.pass.Files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				if vs := sp.(*ast.ValueSpec); len(vs.Values) > 0 {
					ps.initWalker().valueSpec(vs)
				}
			}
		}
	}
}

// initWalker is a walker for a package variable's initial value: the
// body of no function, whose summary nobody reads.
func (ps *pkgState) initWalker() *walker {
	w := &walker{
		ps: ps, info: ps.pass.TypesInfo, sum: newSummary(),
		env: map[types.Object]value{}, params: map[int]*instance{}, pidParam: map[int]*instance{},
		stable: map[types.Object]*instance{},
	}
	ps.scopes++
	w.top = &scope{id: ps.scopes, params: map[types.Object]int{}}
	w.cur = w.top
	return w
}
