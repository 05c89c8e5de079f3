package execcheck

// A branch on the system the build is for: on a Unix build the arm of
// `if runtime.GOOS == "windows"` never runs (enma's stopDaemon kills
// the direct child there, the group on the other arm), so its kills are
// not what a cancel does here, and on a Windows build the other arm's
// are not. Only the tests platform.go can answer are decided: whether
// GOOS is "windows" (or plan9, js, wasip1); a Unix build may be linux
// or darwin, which the analysis does not tell apart, so both arms of
// `runtime.GOOS == "linux"` count. The arm that never runs is still
// walked, for its sites, without its kills.

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// deadArm walks f, an arm of a branch on runtime.GOOS, as one that never
// runs on this build if dead: its runs are still sites (nothing is
// skipped in silence), but its kills are not recorded (record).
func (w *walker) deadArm(dead bool, f func()) {
	if dead {
		w.dead++
		defer func() { w.dead-- }()
	}
	f()
}

// goosHolds reports whether cond, a comparison of runtime.GOOS with a
// string constant (==, !=, or ! of one), holds on the build analyzed;
// known is false for any other condition, or a GOOS the build's
// platform does not decide.
func (w *walker) goosHolds(cond ast.Expr) (holds, known bool) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			h, k := w.goosHolds(c.X)
			return !h, k
		}
	case *ast.BinaryExpr:
		if c.Op != token.EQL && c.Op != token.NEQ {
			return false, false
		}
		goos, ok := w.goosConst(c.X, c.Y)
		if !ok {
			goos, ok = w.goosConst(c.Y, c.X)
		}
		if !ok {
			return false, false
		}
		is, known := w.ps.isGOOS(goos)
		return is == (c.Op == token.EQL), known
	}
	return false, false
}

// goosConst returns the string constant k when x is runtime.GOOS.
func (w *walker) goosConst(x, k ast.Expr) (string, bool) {
	if !w.isGOOSExpr(x) {
		return "", false
	}
	tv, ok := w.info.Types[k]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// isGOOS reports whether the build analyzed is for goos, where its
// platform decides it.
func (ps *pkgState) isGOOS(goos string) (is, known bool) {
	var on string
	switch ps.plat {
	case platJobs:
		on = "windows"
	case platGroups:
		switch goos {
		case "windows", "plan9", "js", "wasip1":
			return false, true
		}
		return false, false
	default:
		return false, false
	}
	return goos == on, true
}

// goosCase returns which clause of a switch on runtime.GOOS runs on the
// build analyzed (-1: the switch is not one, or it is not decided).
func (w *walker) goosCase(s *ast.SwitchStmt) int {
	if s.Tag == nil {
		return -1
	}
	if !w.isGOOSExpr(s.Tag) {
		return -1
	}
	def := -1
	for i, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if n := len(cc.Body); n > 0 {
			if b, ok := cc.Body[n-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				return -1
			}
		}
		if cc.List == nil {
			def = i
			continue
		}
		for _, e := range cc.List {
			tv, ok := w.info.Types[e]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				return -1
			}
			is, known := w.ps.isGOOS(constant.StringVal(tv.Value))
			if !known {
				return -1
			}
			if is {
				return i
			}
		}
	}
	if def < 0 {
		return len(s.Body.List) // no clause runs
	}
	return def
}

// isGOOSExpr reports whether x is runtime.GOOS.
func (w *walker) isGOOSExpr(x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "GOOS" && isPkgName(w.info, sel.X, "runtime")
}
