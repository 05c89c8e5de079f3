package execcheck

// The channels that tell a command's end: closed, or sent to, after a
// Wait (or Run) in the same body, or closed in a defer of a body that
// waits (`go func() { child.err = cmd.Wait(); close(child.done) }()`),
// directly or in a deferred function literal.
// A select that polls one of them with a default (state_guard.go) tests
// whether the command ended; one that polls a stop channel
// (`case <-r.stopCh: return; default:`) tests nothing of the command.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// endChans is the set of channel variables and fields of the package that
// its bodies close or send to once a command's Wait returned.
func (w *walker) endChans() map[types.Object]bool {
	if w.ps.endChan != nil {
		return w.ps.endChan
	}
	set := map[types.Object]bool{}
	note := func(ch ast.Expr) {
		if obj := chanObj(w.info, ch); obj != nil {
			set[obj] = true
		}
	}
	scan := func(body *ast.BlockStmt) {
		if body == nil {
			return
		}
		waitAt := token.NoPos
		inspectOuter(body, func(n ast.Node) {
			if c, ok := n.(*ast.CallExpr); ok && waitAt == token.NoPos && w.waitsCmd(c) {
				waitAt = c.Pos()
			}
		})
		if waitAt == token.NoPos {
			return
		}
		inspectOuter(body, func(n ast.Node) {
			switch n := n.(type) {
			case *ast.DeferStmt:
				if closeOf(w.info, n.Call) != "" {
					note(n.Call.Args[0])
				}
				// defer func() { if !restarted { close(p.managingCh) } }()
				if fl, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
					inspectOuter(fl.Body, func(m ast.Node) {
						if c, ok := m.(*ast.CallExpr); ok && closeOf(w.info, c) != "" {
							note(c.Args[0])
						}
					})
				}
			case *ast.CallExpr:
				if closeOf(w.info, n) != "" && n.Pos() > waitAt {
					note(n.Args[0])
				}
			case *ast.SendStmt:
				if n.End() > waitAt {
					note(n.Chan)
				}
			}
		})
	}
	for _, f := range w.ps.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				scan(n.Body)
			case *ast.FuncLit:
				scan(n.Body)
			}
			return true
		})
	}
	w.ps.endChan = set
	return set
}

// chanObj is the variable or field a channel expression names.
func chanObj(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}
