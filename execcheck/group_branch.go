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
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// groupArm is where the walk stands on an arm of a branch that came
// after x came into the function walked (as a parameter, a field, or
// where it was made here), for a group x gets there, with the settings
// that branch tests (condKeys); "" when it stands on none.
func (w *walker) groupArm(x *instance) (string, []string) {
	since := token.NoPos
	if d := w.ps.decls[w.fn]; d != nil {
		for _, lc := range x.root().local {
			if p := lc.call.Pos(); p > since && p >= d.Pos() && p < d.End() {
				since = p
			}
		}
	}
	for _, b := range w.branch {
		if !b.rest && b.node.Pos() > since && !w.choosesHow(b) {
			if w.everyArm(x, b) {
				return "", nil
			}
			return w.ps.where(b.node.Pos()), w.condKeys(armConds(b))
		}
	}
	return "", nil
}

// everyArm records that x gets a group on the arm b, and reports whether
// it has now got one on every arm of b's if (with an else) or switch
// (with a default): `if leader { Setsid } else { Setpgid }` is a group
// whichever arm runs.
func (w *walker) everyArm(x *instance, b branchStep) bool {
	n := 0
	switch s := b.node.(type) {
	case *ast.IfStmt:
		if s.Else != nil {
			n = 2
		}
	case *ast.SwitchStmt:
		for _, c := range s.Body.List {
			if c.(*ast.CaseClause).List == nil {
				n = len(s.Body.List)
			}
		}
	}
	if n == 0 {
		return false
	}
	r := x.root()
	if w.groupArms == nil {
		w.groupArms = map[*instance]map[ast.Node]map[int]bool{}
	}
	if w.groupArms[r] == nil {
		w.groupArms[r] = map[ast.Node]map[int]bool{}
	}
	arms := w.groupArms[r][b.node]
	if arms == nil {
		arms = map[int]bool{}
		w.groupArms[r][b.node] = arms
	}
	arms[b.arm] = true
	return len(arms) == n
}

// choosesHow reports whether the arm b tests the platform (a
// constant, runtime.GOOS), a SysProcAttr or the command itself (`if cmd
// != nil`): its arms set the group each their own way, or set it on the
// command there is, not whether there is one.
func (w *walker) choosesHow(b branchStep) bool {
	tests := armConds(b)
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
// the arm at arm ("" for always) of a branch testing keys. A group that
// is always there wins over one on an arm.
func (p *props) setGroup(why, arm string, keys []string) {
	switch {
	case !p.Group:
		p.Group, p.GroupWhy, p.GroupArm, p.GroupKeys = true, why, arm, keys
	case p.GroupArm != "" && arm == "":
		p.GroupWhy, p.GroupArm, p.GroupKeys = why, "", nil
	}
}

// groupAbsent says, for a group kill e of a command that gets its group
// on one arm only, why e may come when there is none (direct), or why
// execcheck cannot tell (unknown); both "" when the group is there
// whenever e comes: e stands on an arm of a branch testing a setting
// the group's branch tests too (a map key, a field: "timeout").
func groupAbsent(e effect, p *props) (direct, unknown string) {
	arm := "only on one arm of the branch at " + p.GroupArm + " (" + p.GroupWhy + ")"
	if e.OnChoice == "" {
		return e.Why + ", but the command gets a process group of its own " + arm + ": on the others the kill reaches nothing", ""
	}
	switch {
	case len(e.ChoiceKeys) == 0 || len(p.GroupKeys) == 0:
		return "", e.Why + " comes only on one arm of the branch at " + e.OnChoice + ", and the command gets a process group of its own " + arm + ": execcheck cannot tell whether the two go together"
	case !slices.ContainsFunc(e.ChoiceKeys, func(k string) bool { return slices.Contains(p.GroupKeys, k) }):
		return fmt.Sprintf("%s, which comes when the branch at %s tests %s, but the command gets a process group of its own %s, which tests %s: without it the kill reaches nothing", e.Why, e.OnChoice, strings.Join(e.ChoiceKeys, ", "), arm, strings.Join(p.GroupKeys, ", ")), ""
	}
	return "", ""
}

// onChoice is where the walk stands on an arm of an if or a switch on
// the program's own state (a setting, a flag), not on a context, an
// error or the platform: a kill there may come only with a group set on
// a matching arm; "" when it stands on none.
func (w *walker) onChoice() (string, []string) {
	for _, b := range append(append([]branchStep(nil), w.outerBranch...), w.branch...) {
		if b.rest || w.choosesHow(b) {
			continue
		}
		conds := armConds(b)
		if len(conds) == 0 || slices.ContainsFunc(conds, w.testsRun) {
			continue
		}
		return w.ps.where(b.node.Pos()), w.condKeys(conds)
	}
	return "", nil
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

// condKeys are the settings the conditions of an arm (armConds) read: the constant keys of the maps it indexes ("timeout") and the
// fields it selects (Timeout), followed through the locals it reads to
// what they were assigned in the function, a few steps deep.
func (w *walker) condKeys(conds []ast.Expr) []string {
	var keys []string
	seen := map[types.Object]bool{}
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr:
				if tv, ok := w.info.Types[n.Index]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
					keys = append(keys, strconv.Quote(constant.StringVal(tv.Value)))
				}
			case *ast.SelectorExpr:
				if sel := w.info.Selections[n]; sel != nil && sel.Kind() == types.FieldVal {
					keys = append(keys, n.Sel.Name)
				}
			case *ast.Ident:
				if v, ok := w.info.Uses[n].(*types.Var); ok && !v.IsField() && !seen[v] && depth > 0 {
					seen[v] = true
					for _, rhs := range w.assignedTo(v) {
						visit(rhs, depth-1)
					}
				}
			}
			return true
		})
	}
	for _, c := range conds {
		visit(c, 3)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// assignedTo lists what the local v is assigned in the declared function
// walked (for a tuple assignment from one call, that call).
func (w *walker) assignedTo(v *types.Var) []ast.Expr {
	d := w.ps.decls[w.fn]
	if d == nil || d.Body == nil || v.Pos() < d.Pos() || v.Pos() >= d.End() {
		return nil
	}
	var out []ast.Expr
	ast.Inspect(d.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok || w.info.ObjectOf(id) != v {
				continue
			}
			switch {
			case len(as.Rhs) == len(as.Lhs):
				out = append(out, as.Rhs[i])
			case len(as.Rhs) == 1:
				out = append(out, as.Rhs[0])
			}
		}
		return true
	})
	return out
}

// groupTest is, for a kill on an arm of an if that tests a SysProcAttr's
// Setpgid or Setsid (`if cmd.SysProcAttr != nil &&
// cmd.SysProcAttr.Setpgid { kill(-pid); return }; Kill()`), 1 on the
// arm taken when the command has a group, 2 on the other; 0 elsewhere.
func (w *walker) groupTest() int {
	steps := append(append([]branchStep(nil), w.outerBranch...), w.branch...)
	for i := len(steps) - 1; i >= 0; i-- {
		b := steps[i]
		ifs, ok := b.node.(*ast.IfStmt)
		if !ok || !w.testsGroupFlag(ifs.Cond) {
			continue
		}
		if b.arm == 0 && !b.rest {
			return 1
		}
		return 2
	}
	return 0
}

// testsGroupFlag reports whether cond holds only when a SysProcAttr's
// Setpgid or Setsid is set: that flag, or a && with it.
func (w *walker) testsGroupFlag(cond ast.Expr) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.SelectorExpr:
		return (c.Sel.Name == "Setpgid" || c.Sel.Name == "Setsid") && isSysProcAttr(w.info.TypeOf(c.X))
	case *ast.BinaryExpr:
		return c.Op == token.LAND && (w.testsGroupFlag(c.X) || w.testsGroupFlag(c.Y))
	}
	return false
}
