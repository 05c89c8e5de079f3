package execcheck

// Reads no call blocks on, of a command nothing waits for (ddev's WSL
// probe):
//
//	stdout, _ := cmd.StdoutPipe()
//	cmd.Start()
//	defer cmd.Process.Kill()
//	go func() { for { n, err := stdout.Read(buf); ...; lines <- s } }()
//	select { case l := <-lines: ...; case <-time.After(10 * time.Second): }
//
// The reads last while a descendant holds the pipe, but only the
// goroutine waits for them, and every wait for that goroutine has a
// timeout: as with a Wait no call blocks on (wait_free.go), a cancel
// that reaches only the direct child leaves an orphan, not a hang. So
// too where cmd.Wait is called outside goroutines with nothing to copy
// (dex's idle timer: `case <-timer.C: cmd.Process.Kill(); cmd.Wait()`):
// Wait returns once the direct child exits and closes the pipe. A
// reading goroutine's WaitGroup counts as its signal where each Wait of
// the group stands in a goroutine of its own whose signals are awaited
// with a bound.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// readsFree sets ReadsFree on the commands started here whose pipe is
// read only in goroutine literals that nothing awaits without a bound,
// and whose Wait is never called.
func (ps *pkgState) readsFree() {
	seen := map[*instance]bool{}
	for _, x := range ps.all {
		r := x.root()
		if seen[r] {
			continue
		}
		seen[r] = true
		p := &r.p
		// A Wait outside goroutines, with nothing to copy, returns once the
		// direct child exits and closes the pipe: it does not wait for
		// the reads (dex's idle timer: Kill, then Wait).
		waitNoCopy := p.Waited && r.syncWait && len(r.asyncWaits) == 0 && !p.CopyPipe
		// cmd.Process.Wait waits for the process alone.
		if !p.ReadPipe || r.syncRead || len(r.asyncReads) == 0 || p.Waited && !waitNoCopy ||
			len(r.asyncWaits) > 0 || len(p.Escapes) > 0 || len(p.Creations) == 0 || ps.exported(r) {
			continue
		}
		started := false
		here := true
		for _, rs := range r.runs {
			started = started || rs.kind == runStart
			here = here && rs.via == "" && rs.kind == runStart
		}
		if !started || !here {
			continue
		}
		var where []string
		ok := true
		for _, body := range r.asyncReads {
			at, bounded := ps.groupAwaits(body)
			ok = ok && bounded
			where = append(where, at...)
			for _, ch := range ps.signalled(body) {
				at, bounded, _ := ps.awaits(ch)
				if !bounded && ps.dataOnly(body, ch) {
					continue // the output, chunk by chunk: its receivers do not wait for the reads' end (reads_gone.go)
				}
				ok = ok && bounded
				where = append(where, at...)
			}
		}
		if !ok {
			continue
		}
		why := "the pipe is read only in goroutines nothing waits for"
		if len(where) > 0 {
			why = "the pipe is read only in goroutines every wait for which has a timeout or a default (" + strings.Join(uniq(where), ", ") + ")"
		}
		if waitNoCopy {
			why += ", and cmd.Wait, with nothing to copy, closes it once the direct child exits"
		} else {
			why = "cmd.Wait is never called, and " + why
		}
		p.ReadsFree = why + ": no call blocks on the reads"
	}
}

// groupAwaits follows the WaitGroups whose Done body calls (a reading
// goroutine's `defer wg.Done()`) to their Waits: each must stand in a
// goroutine literal of its own (`go func() { wg.Wait(); close(lines) }()`)
// whose signals are awaited with a bound. A Wait anywhere else waits
// for the reads with none.
func (ps *pkgState) groupAwaits(body *ast.BlockStmt) (where []string, bounded bool) {
	info := ps.pass.TypesInfo
	bounded = true
	inspectOuter(body, func(n ast.Node) {
		wg := waitGroupCall(info, n, "Done")
		if wg == nil || !bounded {
			return
		}
		groups := []*types.Var{wg}
		if !ps.privateLocal(wg) {
			// A parameter, a field, or a local whose address is passed
			// on (che's `go streamPipe(&wg, ...)`): its Waits may be
			// anywhere, unless the parameter is given only a local's
			// address at go statements (emu's `go r.read(pipe, ..., &wg)`).
			var ok bool
			if groups, ok = ps.groupsGoneIn(body, wg); !ok {
				bounded = false
				return
			}
		}
		for _, g := range groups {
			at, b := ps.groupWaitsBounded(g)
			bounded = bounded && b
			where = append(where, at...)
		}
	})
	return where, bounded
}

// groupWaitsBounded follows the Waits of the WaitGroup wg: each must
// stand in a goroutine literal of its own whose signals are awaited
// with a bound.
func (ps *pkgState) groupWaitsBounded(wg *types.Var) (where []string, bounded bool) {
	info := ps.pass.TypesInfo
	bounded = true
	for _, f := range ps.pass.Files {
		inspectStack(f, func(stack []ast.Node) {
			if waitGroupCall(info, stack[len(stack)-1], "Wait") != wg {
				return
			}
			lit := goLit(stack)
			if lit == nil {
				bounded = false
				return
			}
			for _, ch := range ps.signalled(lit.Body) {
				at, b, _ := ps.awaits(ch)
				bounded = bounded && b
				where = append(where, at...)
			}
		})
	}
	return where, bounded
}

// waitGroupCall returns the WaitGroup variable (or field) whose method
// name n calls, if it is one.
func waitGroupCall(info *types.Info, n ast.Node, name string) *types.Var {
	c, ok := n.(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return nil
	}
	if fn, _ := info.Uses[sel.Sel].(*types.Func); !methodOf(fn, "sync", "WaitGroup") {
		return nil
	}
	return varOf(info, sel.X)
}

// goLit returns the function literal a go statement starts that
// encloses the node at the top of stack, if the innermost literal
// around it is one.
func goLit(stack []ast.Node) *ast.FuncLit {
	for i := len(stack) - 2; i >= 0; i-- {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		if i >= 2 {
			if c, ok := stack[i-1].(*ast.CallExpr); ok && c.Fun == lit {
				if _, ok := stack[i-2].(*ast.GoStmt); ok {
					return lit
				}
			}
		}
		return nil
	}
	return nil
}

// privateLocal reports whether v is a local variable declared in a
// function body (var or :=), never a parameter, whose address is never
// taken: all its uses are in the package's files, by that name.
func (ps *pkgState) privateLocal(v *types.Var) bool {
	if v == nil || v.IsField() || v.Parent() == nil || v.Parent() == ps.pass.Pkg.Scope() {
		return false
	}
	info := ps.pass.TypesInfo
	declared, addressed := false, false
	for _, f := range ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for _, id := range n.Names {
					declared = declared || info.Defs[id] == v
				}
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && n.Tok == token.DEFINE {
						declared = declared || info.Defs[id] == v
					}
				}
			case *ast.UnaryExpr:
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
					addressed = addressed || info.Uses[id] == v
				}
			}
			return true
		})
	}
	return declared && !addressed
}
