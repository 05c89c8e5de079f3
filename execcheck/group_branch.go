package execcheck

// A group set on one arm only: `if su != "" { cmd.SysProcAttr =
// &syscall.SysProcAttr{Setpgid: true} }` leaves the command in the
// caller's group on the other arm, where kill(-pid) reaches nothing. A
// Setpgid on an arm of a branch the command came into (after it was
// made here, or in a helper given it) is that: the group kills count
// only with a group that is always there. Branches on the platform
// (runtime.GOOS, a constant), on the SysProcAttr (`if cmd.SysProcAttr
// == nil`) and on the command (`if cmd != nil`) choose how, not whether.

import (
	"go/ast"
	"go/token"
	"go/types"
)

// groupArm is where the walk stands on an arm of a branch that came
// after x came into the function walked (as a parameter, a field, or
// where it was made here), for a group x gets there; "" when it stands
// on none.
func (w *walker) groupArm(x *instance) string {
	since := token.NoPos
	if d := w.ps.decls[w.fn]; d != nil {
		for _, lc := range x.root().local {
			if p := lc.call.Pos(); p > since && p >= d.Pos() && p < d.End() {
				since = p
			}
		}
	}
	for _, b := range w.branch {
		if !b.rest && b.node.Pos() > since && !w.choosesHow(b.node) {
			return w.ps.where(b.node.Pos())
		}
	}
	return ""
}

// choosesHow reports whether the branch at node tests the platform (a
// constant, runtime.GOOS), a SysProcAttr or the command itself (`if cmd
// != nil`): its arms set the group each their own way, or set it on the
// command there is, not whether there is one.
func (w *walker) choosesHow(node ast.Node) bool {
	var tests []ast.Expr
	switch s := node.(type) {
	case *ast.IfStmt:
		tests = []ast.Expr{s.Cond}
	case *ast.SwitchStmt:
		if s.Tag != nil {
			tests = []ast.Expr{s.Tag}
		}
		for _, c := range s.Body.List {
			tests = append(tests, c.(*ast.CaseClause).List...)
		}
	default:
		return false
	}
	for _, t := range tests {
		if tv, ok := w.info.Types[t]; ok && tv.Value != nil {
			return true
		}
		found := false
		ast.Inspect(t, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "SysProcAttr" || n.Sel.Name == "GOOS" && isPkgName(w.info, n.X, "runtime") {
					found = true
				}
			case ast.Expr:
				if t := w.info.TypeOf(n); isSysProcAttr(t) || isCmd(t) {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// isPkgName reports whether e names the imported package path.
func isPkgName(info *types.Info, e ast.Expr, path string) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	return ok && pn.Imported().Path() == path
}

// setGroup records that the command gets a group of its own (why), on
// the arm at arm ("" for always). A group that is always there wins
// over one on an arm.
func (p *props) setGroup(why, arm string) {
	switch {
	case !p.Group:
		p.Group, p.GroupWhy, p.GroupArm = true, why, arm
	case p.GroupArm != "" && arm == "":
		p.GroupWhy, p.GroupArm = why, ""
	}
}

// onChoice is where the walk stands on an arm of an if or a switch on
// the program's own state (a setting, a flag), not on a context, an
// error or the platform: a kill there may come only with a group set on
// a matching arm; "" when it stands on none.
func (w *walker) onChoice() string {
	for _, b := range append(append([]branchStep(nil), w.outerBranch...), w.branch...) {
		if b.rest || w.choosesHow(b.node) {
			continue
		}
		var cond ast.Expr
		switch s := b.node.(type) {
		case *ast.IfStmt:
			cond = s.Cond
		case *ast.SwitchStmt:
			cond = s.Tag
		default:
			continue
		}
		if cond == nil || w.testsRun(cond) {
			continue
		}
		return w.ps.where(b.node.Pos())
	}
	return ""
}

// testsRun reports whether e reads a context, an error or a command's
// state: a test of how the run goes, not of a setting.
func (w *walker) testsRun(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok {
			t := w.info.TypeOf(x)
			if isContext(t) || isCmd(t) || isProcess(t) || t != nil && types.Identical(t, types.Universe.Lookup("error").Type()) {
				found = true
			}
		}
		return !found
	})
	return found
}
