package execcheck

// A kill by hand that takes a lock the run holds until Wait returns
// (leptonai/gpud's pkg/process):
//
//	func (p *process) Start(ctx context.Context) error {
//		p.cmdMu.Lock()
//		defer p.cmdMu.Unlock()
//		...
//		return p.cmd.Wait()
//	}
//	func (p *process) Close() error {
//		p.cmdMu.Lock()
//		defer p.cmdMu.Unlock()
//		return syscall.Kill(-pgid, syscall.SIGKILL)
//	}
//
// Close blocks until Wait returns: its kill comes only after Wait, as
// one written after it does (after_wait.go), and bounds nothing.

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// heldLocks returns the mutexes (as lockKey names them) that the
// declared function walked holds from before pos until until: locked
// before pos outside function literals, and unlocked in a defer or not
// before until. A kill or run in a function literal holds none.
func (w *walker) heldLocks(pos, until token.Pos) []string {
	if w.cur != w.top || w.fn == nil {
		return nil
	}
	d := w.ps.decls[w.fn]
	if d == nil || d.Body == nil {
		return nil
	}
	type lockAt struct {
		key string
		pos token.Pos
	}
	var locks []lockAt
	deferred := map[string]bool{}
	var unlocks []lockAt
	inDefer := map[*ast.CallExpr]bool{}
	inspectOuter(d.Body, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.DeferStmt:
			inDefer[n.Call] = true
		case *ast.CallExpr:
			key, lock := w.lockCall(n)
			switch {
			case key == "":
			case lock && n.Pos() < pos:
				locks = append(locks, lockAt{key, n.Pos()})
			case !lock && inDefer[n]:
				deferred[key] = true
			case !lock:
				unlocks = append(unlocks, lockAt{key, n.Pos()})
			}
		}
	})
	var held []string
	for _, l := range locks {
		if slices.Contains(held, l.key) {
			continue
		}
		ok := deferred[l.key]
		if !ok {
			ok = true
			for _, u := range unlocks {
				if u.key == l.key && l.pos < u.pos && u.pos < until {
					ok = false
				}
			}
		}
		if ok {
			held = append(held, l.key)
		}
	}
	return held
}

// lockCall reports whether c locks (Lock, RLock) or unlocks (Unlock,
// RUnlock) a sync.Mutex or sync.RWMutex, and which: its key, or "".
func (w *walker) lockCall(c *ast.CallExpr) (key string, lock bool) {
	fn, _ := typeutil.Callee(w.info, c).(*types.Func)
	if !isMethodNamed(fn, "sync", "Mutex", "Lock", "Unlock") && !isMethodNamed(fn, "sync", "RWMutex", "Lock", "Unlock", "RLock", "RUnlock") {
		return "", false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	key = w.lockKey(sel.X)
	if key == "" {
		return "", false
	}
	if s := w.info.Selections[sel]; s != nil && len(s.Index()) > 1 {
		// A promoted Lock: the mutex is the embedded field on the path.
		t := w.info.TypeOf(sel.X)
		for _, i := range s.Index()[:len(s.Index())-1] {
			st, ok := derefStruct(t)
			if !ok {
				return "", false
			}
			f := st.Field(i)
			key += "." + f.Name()
			t = f.Type()
		}
	}
	return key, strings.HasSuffix(fn.Name(), "Lock") && !strings.HasSuffix(fn.Name(), "Unlock")
}

// lockKey names the mutex e is (or holds) the same way in every method:
// a package variable by its name, a field by its struct type and the
// path of fields from it (process.cmdMu); "" for a local mutex.
func (w *walker) lockKey(e ast.Expr) string {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		obj := w.info.ObjectOf(e)
		if obj == nil {
			return ""
		}
		if isPackageLevel(obj) {
			return obj.Name()
		}
		if _, ok := derefStruct(obj.Type()); ok {
			return types.TypeString(derefType(obj.Type()), types.RelativeTo(w.ps.pass.Pkg))
		}
	case *ast.SelectorExpr:
		if v, ok := w.info.ObjectOf(e.Sel).(*types.Var); ok && v.IsField() {
			if base := w.lockKey(e.X); base != "" {
				return base + "." + v.Name()
			}
		}
	case *ast.StarExpr:
		return w.lockKey(e.X)
	}
	return ""
}

// runLocks returns the mutexes the function walked holds across the
// Wait of a run at c: for Start, the first Wait after it in the same
// body; none where there is no such Wait.
func (w *walker) runLocks(c *ast.CallExpr, kind runKind) []string {
	until := c.Pos()
	if kind == runStart {
		until = token.NoPos
		if d := w.ps.decls[w.fn]; w.fn != nil && d != nil && d.Body != nil {
			inspectOuter(d.Body, func(n ast.Node) {
				if cc, ok := n.(*ast.CallExpr); ok && until == token.NoPos && cc.Pos() > c.Pos() && w.waitsCmd(cc) {
					until = cc.Pos()
				}
			})
		}
		if until == token.NoPos {
			return nil
		}
	}
	return w.heldLocks(c.Pos(), until)
}

// lockedAfterWait marks as coming after Wait the kills by hand, outside
// the run's function, that take a lock the run holds until Wait
// returns; note says which, for the verdict.
func lockedAfterWait(rs *runSite, hand []effect) (out []effect, note string) {
	for _, e := range hand {
		if !e.AfterWait && e.scope != rs.scope {
			for _, k := range e.Locks {
				if slices.Contains(rs.locks, k) {
					e.AfterWait = true
					if note == "" {
						note = "; the kill by hand (" + e.Why + ") takes " + k + ", which the run holds until Wait returns: it comes only after"
					}
					break
				}
			}
		}
		out = append(out, e)
	}
	return out, note
}
