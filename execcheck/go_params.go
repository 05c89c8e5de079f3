package execcheck

// A function that runs its function parameter in a goroutine of its own
// (goutils' PanicCapturingGo, errgroup's Go, sync.WaitGroup's Go): a
// literal passed there runs apart, as one a go statement starts does,
// and reads in it run beside what follows the call. A function that
// may wait for its goroutines (testing.T.Run) runs none apart. Every
// package's functions are scanned for such parameters; the ones found
// are kept in a fact for the packages that call them.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// goParamsFact is the parameters of a function that it calls only in
// goroutines it starts.
type goParamsFact struct{ Params []int }

func (*goParamsFact) AFact() {}

func (f *goParamsFact) String() string { return fmt.Sprint("go params ", f.Params) }

// knownGo reports whether parameter i of fn is started in a goroutine
// by a function of a package execcheck does not walk for facts.
func knownGo(fn *types.Func, i int) bool {
	if fn == nil || i != 0 {
		return false
	}
	return methodOf(fn, "sync", "WaitGroup") && fn.Name() == "Go" ||
		methodOf(fn, "golang.org/x/sync/errgroup", "Group") && (fn.Name() == "Go" || fn.Name() == "TryGo")
}

// goParam reports whether the call c passes its argument i to a
// parameter its callee runs in a goroutine.
func goParam(pass *analysis.Pass, local map[*types.Func][]int, c *ast.CallExpr, i int) bool {
	fn, _ := typeutil.Callee(pass.TypesInfo, c).(*types.Func)
	if fn == nil {
		return false
	}
	if knownGo(fn, i) {
		return true
	}
	fn = fn.Origin()
	if fn.Pkg() == pass.Pkg {
		return slices.Contains(local[fn], i)
	}
	var f goParamsFact
	return pass.ImportObjectFact(fn, &f) && slices.Contains(f.Params, i)
}

// exportGoParams finds the functions of the package that call a function
// parameter only in goroutines they start, and exports their facts. It
// returns them for the walk of this package.
func exportGoParams(pass *analysis.Pass) map[*types.Func][]int {
	type cand struct {
		fn     *types.Func
		body   *ast.BlockStmt
		params map[*types.Var]int
	}
	var cands []cand
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			params := map[*types.Var]int{}
			sig := fn.Signature()
			for i := 0; i < sig.Params().Len(); i++ {
				if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
					params[sig.Params().At(i)] = i
				}
			}
			if len(params) > 0 {
				cands = append(cands, cand{fn, fd.Body, params})
			}
		}
	}
	local := map[*types.Func][]int{}
	for changed := true; changed; {
		changed = false
		for _, c := range cands {
			if joinsHere(pass, local, c.body) {
				continue
			}
			got := goneParams(pass, local, c.body, c.params)
			if len(got) != len(local[c.fn]) {
				local[c.fn], changed = got, true
			}
		}
	}
	for fn, ps := range local {
		if len(ps) > 0 {
			pass.ExportObjectFact(fn, &goParamsFact{Params: ps})
		}
	}
	return local
}

// goneParams is the parameters (of params) that body uses only as the
// function a goroutine it starts calls: called inside a go statement, or
// inside a literal passed to a parameter that goes.
func goneParams(pass *analysis.Pass, local map[*types.Func][]int, body *ast.BlockStmt, params map[*types.Var]int) []int {
	inGo := map[int]bool{}
	other := map[int]bool{}
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := pass.TypesInfo.Uses[id].(*types.Var)
		if !ok {
			return true
		}
		i, ok := params[v]
		if !ok {
			return true
		}
		if goesAt(pass, local, stack) {
			inGo[i] = true
		} else {
			other[i] = true
		}
		return true
	})
	var out []int
	for i := range inGo {
		if !other[i] {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

// goesAt reports whether the identifier at the top of stack is used in
// a goroutine the function starts: passed to a parameter that goes, or
// under a go statement, or in a literal passed where it goes.
func goesAt(pass *analysis.Pass, local map[*types.Func][]int, stack []ast.Node) bool {
	id := stack[len(stack)-1]
	for j := len(stack) - 2; j >= 0; j-- {
		switch n := stack[j].(type) {
		case *ast.GoStmt:
			return true
		case *ast.CallExpr:
			for i, a := range n.Args {
				if a == stack[j+1] && (a == id || isLit(a)) && goParam(pass, local, n, i) {
					return true
				}
			}
		}
	}
	return false
}

func isLit(e ast.Expr) bool {
	_, ok := e.(*ast.FuncLit)
	return ok
}

// joinsHere reports whether body, outside the goroutines it starts,
// may wait for them (a receive, a select, a range over a channel, a
// Wait): testing.T.Run starts its test in a goroutine and waits for
// it, so what the test does comes before what follows Run.
func joinsHere(pass *analysis.Pass, local map[*types.Func][]int, body *ast.BlockStmt) bool {
	joins := false
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if joins {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.CallExpr:
			for i, a := range n.Args {
				if isLit(a) && goParam(pass, local, n, i) {
					ast.Inspect(n.Fun, visit)
					for j, b := range n.Args {
						if j != i {
							ast.Inspect(b, visit)
						}
					}
					return false
				}
			}
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				joins = true
			}
		case *ast.UnaryExpr:
			joins = joins || n.Op == token.ARROW
		case *ast.SelectStmt:
			joins = true
		case *ast.RangeStmt:
			if t := pass.TypesInfo.TypeOf(n.X); t != nil {
				_, joins = t.Underlying().(*types.Chan)
			}
		}
		return !joins
	}
	ast.Inspect(body, visit)
	return joins
}
