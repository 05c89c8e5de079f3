package execcheck

// The exec model's fields: what setting or reading a field of an
// exec.Cmd (Cancel, WaitDelay, SysProcAttr, Stdout, Stderr, Process) or
// of a syscall.SysProcAttr means for the command, and what a Cancel
// kills. The walker's assignments, selectors and composite literals
// route those fields here.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
)

// attrVal is a *syscall.SysProcAttr: whether it makes a group of its own,
// and the commands it was given to.
type attrVal struct {
	group   bool
	unknown bool
	why     string
	insts   []*instance
	param   int      // >= 1: the parameter (index+1) of the function walked that this is
	sum     *summary // that function's summary, which records the group it makes
}

// setGroup records that the SysProcAttr makes a group of its own (why:
// how), on the commands it was given to as well.
func (a *attrVal) setGroup(why string) {
	if a.group {
		return
	}
	a.group, a.why = true, why
	if a.param > 0 && a.sum != nil {
		if a.sum.AttrParams == nil {
			a.sum.AttrParams = map[int]string{}
		}
		a.sum.AttrParams[a.param-1] = why
	}
	for _, x := range a.insts {
		r := x.root()
		if !r.p.Group {
			r.p.Group, r.p.GroupWhy = true, why
		}
	}
}

// cancelShaped reports whether a function fits exec.Cmd's Cancel:
// func() error.
func cancelShaped(sig *types.Signature) bool {
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// isCmdField reports whether the field selection sel, of field f, is a
// field of exec.Cmd.
func isCmdField(sel *types.Selection, f *types.Var) bool {
	return (isCmd(sel.Recv()) || embeddedCmd(sel) != nil) && f.Pkg() != nil && f.Pkg().Path() == "os/exec"
}

// assignCmdField handles l = v (r: the expression assigned, if one) for
// a field the exec model knows: a field of exec.Cmd, or the Setpgid or
// Setsid of a SysProcAttr, which puts the commands it is given to in a
// group of their own. It reports false for any other field.
func (w *walker) assignCmdField(l *ast.SelectorExpr, sel *types.Selection, f *types.Var, v value, r ast.Expr) bool {
	switch {
	case isCmdField(sel, f):
		if x := w.recvOf(l, sel).inst; x != nil {
			w.setField(x, f.Name(), v, r)
		}
		return true
	case isSysProcAttr(sel.Recv()) && (f.Name() == "Setpgid" || f.Name() == "Setsid"):
		if isFalse(w.info, r) {
			return true
		}
		why := fmt.Sprintf("%s = true", types.ExprString(l))
		if in, ok := ast.Unparen(l.X).(*ast.SelectorExpr); ok && in.Sel.Name == "SysProcAttr" {
			if x := w.recvOf(in, w.info.Selections[in]).inst; x != nil {
				arm, keys := w.groupArm(x)
				x.root().p.setGroup(why, arm, keys)
				return true
			}
		}
		if a := w.eval(l.X).attr; a != nil {
			a.setGroup(why)
		}
		return true
	}
	return false
}

// readCmdField is the value of x.f (x: the value of the operand) for a
// field the exec model knows: exec.Cmd's Process and SysProcAttr, and
// os.Process's Pid; nothing for exec.Cmd's other fields. It reports
// false for any other field.
func readCmdField(sel *types.Selection, f *types.Var, x value) (value, bool) {
	if isCmdField(sel, f) {
		if x.inst == nil {
			return value{}, true
		}
		switch f.Name() {
		case "Process":
			return value{proc: x.inst}, true
		case "SysProcAttr":
			a := &attrVal{insts: []*instance{x.inst}}
			if r := x.inst.root(); r.p.Group {
				a.group, a.why = true, r.p.GroupWhy
			}
			return value{attr: a}, true
		}
		return value{}, true
	}
	if f.Name() == "Pid" && isProcess(sel.Recv()) {
		if x.proc != nil {
			return value{pid: x.proc}, true
		}
		return value{}, true
	}
	return value{}, false
}

// cmdField reports whether l is x.name for a command x, and x's command.
func (w *walker) cmdField(l ast.Expr, name string) (*instance, bool) {
	sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return nil, false
	}
	s := w.info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || !(isCmd(s.Recv()) || embeddedCmd(s) != nil) {
		return nil, false
	}
	x := w.recvOf(sel, s).inst
	if x == nil {
		x = w.ps.newInstance()
	}
	return x, true
}

// setField records cmd.name = v.
func (w *walker) setField(x *instance, name string, v value, r ast.Expr) {
	rt := x.root()
	p := &rt.p
	switch name {
	case "SysProcAttr":
		switch {
		case v.attr != nil:
			v.attr.insts = append(v.attr.insts, x)
			if v.attr.group {
				arm, keys := w.groupArm(x)
				p.setGroup(v.attr.why, arm, keys)
			}
			p.GroupUnknown = p.GroupUnknown || v.attr.unknown
		case r != nil && isNil(w.info, r):
		default:
			p.GroupUnknown = true
		}
	case "Cancel":
		p.CancelSet = true
		if p.CancelWhy == "" && r != nil {
			p.CancelWhy = "Cancel = " + types.ExprString(r)
		}
		switch {
		case r != nil && isNil(w.info, r):
		case v.fn != nil:
			p.Cancel = append(p.Cancel, w.fnKills(v.fn, r)...)
		default:
			p.Cancel = append(p.Cancel, w.here(effect{Unknown: true, SigParam: -1, Why: p.CancelWhy + ", which execcheck cannot follow"}))
		}
	case "WaitDelay":
		if r != nil {
			if tv, ok := w.info.Types[r]; ok && tv.Value != nil && constant.Sign(tv.Value) == 0 {
				return
			}
		}
		if !p.WaitDelay {
			p.WaitDelay = true
			p.WaitDelayWhy = "WaitDelay"
			if r != nil {
				p.WaitDelayWhy = "WaitDelay = " + types.ExprString(r)
			}
		}
	case "Stdout", "Stderr":
		if r == nil || isNil(w.info, r) {
			return
		}
		if name == "Stdout" {
			p.StdoutSet = true
		} else {
			p.StderrSet = true
		}
		t := w.info.TypeOf(r)
		if u := unconvert(w.info, r); t != nil && u != r {
			if ut := w.ps.resultType(u, 0, w.info.TypeOf(u)); ut != nil && isPointerToNamed(ut, "os", "File") || w.ps.holdsFile(u) {
				return
			}
		}
		if t == nil || isPointerToNamed(t, "os", "File") || (types.IsInterface(t) && w.ps.holdsFile(r)) {
			return
		}
		if sel, ok := ast.Unparen(r).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Stdout" || sel.Sel.Name == "Stderr") && isCmd(w.info.TypeOf(sel.X)) {
			// cmd.Stderr = cmd.Stdout: what that field holds (the write
			// end of a StdoutPipe, an *os.File, or a writer whose copy
			// its own assignment already counted).
			return
		}
		p.CopyParam = w.copyParam(p, r)
		p.OutputOnly = false
		if !p.CopyPipe {
			p.CopyPipe = true
			what := "stdout"
			if name == "Stderr" {
				what = "stderr"
			}
			if types.IsInterface(t) {
				p.CopyWhy = fmt.Sprintf("%s is an %s (%s), a pipe unless it holds an *os.File", what, shortType(t), types.ExprString(r))
			} else {
				p.CopyWhy = fmt.Sprintf("%s is a %s", what, shortType(t))
			}
		}
	}
}

// cmdLit makes the command of an exec.Cmd composite literal: its
// fields set as by assignments, a Cancel closure walked as its Cancel,
// its Path the program.
func (w *walker) cmdLit(e *ast.CompositeLit) value {
	x := w.ps.newInstance()
	var progArgs []ast.Expr
	for _, el := range e.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, _ := kv.Key.(*ast.Ident)
		if k == nil {
			continue
		}
		if k.Name == "Path" {
			progArgs = append([]ast.Expr{kv.Value}, progArgs...)
		}
		if k.Name == "Cancel" {
			if fl, ok := ast.Unparen(kv.Value).(*ast.FuncLit); ok {
				w.cancelClosure(x, fl)
				continue
			}
		}
		w.setField(x, k.Name, w.eval(kv.Value), kv.Value)
	}
	w.made(x, e, nil, progArgs, false)
	return value{inst: x}
}

// sysProcAttrLit is the value of a syscall.SysProcAttr composite
// literal: whether it sets Setpgid or Setsid.
func (w *walker) sysProcAttrLit(e *ast.CompositeLit) value {
	a := &attrVal{}
	for _, el := range e.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		w.eval(kv.Value)
		if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Setpgid" || k.Name == "Setsid") && !isFalse(w.info, kv.Value) {
			a.setGroup(fmt.Sprintf("SysProcAttr{%s: %s}", k.Name, types.ExprString(kv.Value)))
		}
	}
	return value{attr: a}
}

// cancelClosure walks a closure assigned to x.Cancel: its kills are what
// a cancel does.
func (w *walker) cancelClosure(x *instance, fl *ast.FuncLit) {
	rt := x.root()
	rt.p.CancelSet = true
	if rt.p.CancelWhy == "" {
		rt.p.CancelWhy = "Cancel = func() ..."
	}
	before := len(rt.p.Cancel)
	prevOwner, prevSeen := w.cancelOwner, w.cancelSeen
	w.cancelOwner, w.cancelSeen = x, nil
	w.funcBody(fl, nil)
	seen := w.cancelSeen
	w.cancelOwner, w.cancelSeen = prevOwner, prevSeen
	rt = x.root()
	if len(rt.p.Cancel) == before && len(seen) > 0 {
		rt.p.Cancel = append(rt.p.Cancel, effect{Unknown: true, SigParam: -1, Why: fmt.Sprintf("Cancel calls %s, which execcheck cannot follow", seen[0])})
	}
}

// fnKills is what a function value assigned to Cancel kills.
func (w *walker) fnKills(f *fnVal, r ast.Expr) []effect {
	var k []effect
	for _, t := range f.effects {
		e := t.e
		if t.closureSig >= 0 {
			e.Sig, e.SigParam = sigUnknown, -1
		}
		k = append(k, e)
	}
	if isMethodNamed(f.named, "os", "Process", "Kill") {
		return append(k, w.here(effect{Sig: sigKill, SigParam: -1, Why: types.ExprString(r)}))
	}
	if f.named != nil {
		if s := w.ps.summaryOf(f.named); s != nil {
			for _, e := range s.allKills() {
				if e.SigParam >= 0 {
					e.Sig, e.SigParam = sigUnknown, -1
				}
				k = append(k, w.here(e))
			}
		}
		if len(k) == 0 {
			why := types.ExprString(r)
			k = append(k, w.here(effect{Unknown: true, SigParam: -1, Why: "Cancel = " + why + ", which kills nothing execcheck can see"}))
		}
	}
	return k
}
