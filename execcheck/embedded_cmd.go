package execcheck

// A type that embeds *exec.Cmd (`type Command struct{ *exec.Cmd; ... }`,
// puppetlabs/wash): its promoted fields and methods (c.SysProcAttr,
// c.Process.Pid, c.Wait()) are the embedded command's, the one that
// field holds package-wide.

import (
	"go/ast"
	"go/types"
)

// embeddedCmd returns the embedded *exec.Cmd field through which s
// reaches its field or method, if it is promoted from one.
func embeddedCmd(s *types.Selection) *types.Var {
	idx := s.Index()
	if len(idx) < 2 {
		return nil
	}
	t := s.Recv()
	for i, k := range idx[:len(idx)-1] {
		if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := types.Unalias(t).Underlying().(*types.Struct)
		if !ok || k >= st.NumFields() {
			return nil
		}
		f := st.Field(k)
		if i == len(idx)-2 {
			if f.Embedded() && isCmd(f.Type()) {
				return f
			}
			return nil
		}
		t = f.Type()
	}
	return nil
}

// recvOf is the value of e.X as the receiver of e's field or method:
// for one promoted from an embedded *exec.Cmd, the command that field
// holds.
func (w *walker) recvOf(e *ast.SelectorExpr, s *types.Selection) value {
	x := w.eval(e.X)
	if s == nil {
		return x
	}
	if f := embeddedCmd(s); f != nil {
		return value{inst: w.ps.field(f)}
	}
	return x
}
