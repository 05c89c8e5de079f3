package execcheck

// Reads in a named function started by go, of a command nothing waits
// for, reduced from emu's runner:
//
//	wg := sync.WaitGroup{}
//	wg.Add(2)
//	go r.read(stderr, Stderr, &wg) // read: a Read loop; each chunk sent to a hub; wg.Done() at the error
//	go r.read(stdout, Stdout, &wg)
//	go func() { wg.Wait(); r.onStop() }()
//	r.cmd.Start()
//
// The group's address goes only to the readers, and its Wait stands in
// a goroutine nothing awaits: no call blocks on the reads (reads_free.go).
// A chunk sent on a channel from inside the read loop, with the loop
// going on after it, is the output, not the reads' end: its receivers
// do not wait for the reads.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// groupsGoneIn reads param, a *sync.WaitGroup parameter of the
// unexported function whose body is body, as the locals every call of
// that function gives it: each call must be a go statement's, passing
// `&wg` of a local WaitGroup whose address goes nowhere else.
func (ps *pkgState) groupsGoneIn(body *ast.BlockStmt, param *types.Var) ([]*types.Var, bool) {
	info := ps.pass.TypesInfo
	var fn *types.Func
	for f, d := range ps.decls {
		if d.Body == body {
			fn = f
		}
	}
	if fn == nil || fn.Exported() {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	idx := -1
	for i := 0; i < sig.Params().Len(); i++ {
		if sig.Params().At(i) == param {
			idx = i
		}
	}
	if idx < 0 {
		return nil, false
	}
	var locals []*types.Var
	passed := map[*ast.UnaryExpr]bool{}
	ok, calls := true, 0
	for _, f := range ps.pass.Files {
		inspectStack(f, func(stack []ast.Node) {
			id, isID := stack[len(stack)-1].(*ast.Ident)
			if !isID || info.Uses[id] != fn {
				return
			}
			c, at := callOfName(stack)
			var g *ast.GoStmt
			if c != nil && at > 0 {
				g, _ = stack[at-1].(*ast.GoStmt)
			}
			if g == nil || g.Call != c || idx >= len(c.Args) {
				ok = false // a value, a plain call, or a go of another shape
				return
			}
			calls++
			u, isAddr := ast.Unparen(c.Args[idx]).(*ast.UnaryExpr)
			if !isAddr || u.Op != token.AND {
				ok = false
				return
			}
			l := varOf(info, u.X)
			if l == nil || l.IsField() {
				ok = false
				return
			}
			passed[u] = true
			locals = append(locals, l)
		})
	}
	if !ok || calls == 0 {
		return nil, false
	}
	for _, l := range locals {
		if !ps.addressOnlyIn(l, passed) {
			return nil, false
		}
	}
	return locals, true
}

// callOfName is the call whose function the identifier at the top of
// stack names (f(...) or x.f(...)), with its index in stack; nil if none.
func callOfName(stack []ast.Node) (*ast.CallExpr, int) {
	n := len(stack)
	if n >= 2 {
		if c, ok := stack[n-2].(*ast.CallExpr); ok && c.Fun == stack[n-1] {
			return c, n - 2
		}
	}
	if n >= 3 {
		if sel, ok := stack[n-2].(*ast.SelectorExpr); ok && sel.Sel == stack[n-1] {
			if c, ok := stack[n-3].(*ast.CallExpr); ok && c.Fun == sel {
				return c, n - 3
			}
		}
	}
	return nil, 0
}

// addressOnlyIn reports whether l is a local declared in a function
// body whose address is taken only by the expressions of passed.
func (ps *pkgState) addressOnlyIn(l *types.Var, passed map[*ast.UnaryExpr]bool) bool {
	if l.Parent() == nil || l.Parent() == ps.pass.Pkg.Scope() {
		return false
	}
	info := ps.pass.TypesInfo
	ok := true
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if u, isU := n.(*ast.UnaryExpr); isU && u.Op == token.AND && !passed[u] {
				if id, isID := ast.Unparen(u.X).(*ast.Ident); isID && info.Uses[id] == l {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// dataOnly reports whether every signal body itself gives on ch is a
// send from inside a loop that goes on after it (the output, chunk by
// chunk), and body neither closes ch nor sends on it elsewhere. A
// channel body only reaches through a call is not read so.
func (ps *pkgState) dataOnly(body *ast.BlockStmt, ch *types.Var) bool {
	info := ps.pass.TypesInfo
	sends, data := 0, true
	inspectStack(body, func(stack []ast.Node) {
		switch n := stack[len(stack)-1].(type) {
		case *ast.SendStmt:
			if varOf(info, n.Chan) != ch || inLit(stack) {
				return
			}
			sends++
			data = data && sendGoesOn(stack)
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "close" && len(n.Args) == 1 && varOf(info, n.Args[0]) == ch {
				data = false
			}
		}
	})
	return sends > 0 && data
}

// inLit reports whether the node at the top of stack stands in a
// function literal below stack[0].
func inLit(stack []ast.Node) bool {
	for _, n := range stack[1 : len(stack)-1] {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// sendGoesOn reports whether the send at the top of stack stands in a
// for loop, in a block where no return, break or goto follows it.
func sendGoesOn(stack []ast.Node) bool {
	inLoop := false
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			inLoop = true
		}
	}
	if !inLoop || len(stack) < 2 {
		return false
	}
	block, ok := stack[len(stack)-2].(*ast.BlockStmt)
	if !ok {
		return false
	}
	after := false
	for _, st := range block.List {
		if st == stack[len(stack)-1] {
			after = true
			continue
		}
		if !after {
			continue
		}
		switch s := st.(type) {
		case *ast.ReturnStmt:
			return false
		case *ast.BranchStmt:
			if s.Tok == token.BREAK || s.Tok == token.GOTO {
				return false
			}
		}
	}
	return true
}
