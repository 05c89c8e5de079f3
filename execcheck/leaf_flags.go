package execcheck

// Programs that start a process only when a flag asks for one: ripgrep
// runs a preprocessor (--pre), decompressors (-z) and a hostname
// program (--hostname-bin); fd runs a command per result (-x, -X) and
// ls (-l). Given none of those, killing one leaves nothing behind. An
// argument execcheck cannot read is taken as data, the pattern or a
// path (rg's first positional argument), not as a flag that starts a
// process: real code passes a search term there (round 17's r1-agent and
// claudio, round 7's P80), and a flag is written as a constant, or by
// fmt.Sprintf with a constant format ("-C%d"), which is read as one. A
// RIPGREP_CONFIG_PATH config may add flags too, which a reason says.
// Arguments spread from a slice are read where the slice is made: a
// local's literals and appends, a function of the package returning one
// at each of its returns, and a parameter of a function only the
// package calls at each call (eigen's runRipgrep(ctx, args...)).

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

type flagLeaf struct {
	spawnLong  []string // long flags that start a process
	spawnShort string   // short flag letters that do
	values     []string // flags whose next argument is their value
	note       string   // what else may make it start one
}

var rgFlags = flagLeaf{
	spawnLong:  []string{"--pre", "--search-zip", "--hostname-bin"},
	spawnShort: "z",
	values: []string{"-e", "--regexp", "-g", "--glob", "--iglob", "-t", "--type", "-T", "--type-not",
		"-C", "--context", "-A", "--after-context", "-B", "--before-context", "-m", "--max-count",
		"-M", "--max-columns", "-j", "--threads", "--sort", "--sortr", "-f", "--file", "-d",
		"--max-depth", "--max-filesize", "--type-add", "-r", "--replace", "--ignore-file", "-E",
		"--encoding", "--engine", "--color", "--colors", "--path-separator"},
	note: " (unless a RIPGREP_CONFIG_PATH config adds --pre or -z)",
}

var fdFlags = flagLeaf{
	spawnLong:  []string{"--exec", "--exec-batch", "--list-details"},
	spawnShort: "xXl",
	values: []string{"-e", "--extension", "-t", "--type", "-E", "--exclude", "-d", "--max-depth",
		"--min-depth", "--exact-depth", "-S", "--size", "--changed-within", "--changed-before",
		"-j", "--threads", "--max-results", "--base-directory", "--search-path", "-c", "--color",
		"--ignore-file", "-o", "--owner", "--format"},
}

// flagLeaves are the programs that are leaves unless a flag says
// otherwise, by name.
var flagLeaves = map[string]*flagLeaf{"rg": &rgFlags, "fd": &fdFlags, "fdfind": &fdFlags}

// flagLeafWhy says why the command made with progArgs (the program and
// its arguments, variadic if the last is spread) starts no process, or
// "" if it may.
func (w *walker) flagLeafWhy(name string, progArgs []ast.Expr, variadic bool) string {
	fl := flagLeaves[name]
	if fl == nil || len(progArgs) == 0 {
		return ""
	}
	groups := [][]ast.Expr{progArgs[1:]}
	if variadic {
		groups = [][]ast.Expr{progArgs[1 : len(progArgs)-1]}
		spread, ok := w.sliceGroups(progArgs[len(progArgs)-1])
		if !ok {
			return ""
		}
		groups = append(groups, spread...)
	}
	for _, g := range groups {
		if !fl.quiet(w.info, g) {
			return ""
		}
	}
	return fmt.Sprintf("%s starts no process without %s: nothing outlives its kill%s", name, fl.spawns(), fl.note)
}

func (fl *flagLeaf) spawns() string {
	all := slices.Clone(fl.spawnLong)
	for _, c := range fl.spawnShort {
		all = append(all, "-"+string(c))
	}
	return strings.Join(all, ", ")
}

// quiet reports whether the arguments of one group (a literal's or an
// append's, in order) ask for no process: no constant, and no
// fmt.Sprintf of a constant format, is a spawning flag; every other
// argument is data (a pattern, a path, a flag's value).
func (fl *flagLeaf) quiet(info *types.Info, args []ast.Expr) bool {
	value, positional := false, false
	for _, a := range args {
		s, ok := constString(info, a)
		if !ok {
			s, ok = sprintfFlag(info, a)
		}
		switch {
		case !ok:
			value = false
		case positional || value:
			value = false
		case s == "--":
			positional = true
		case strings.HasPrefix(s, "--"):
			name, _, hasValue := strings.Cut(s, "=")
			if slices.Contains(fl.spawnLong, name) {
				return false
			}
			value = !hasValue && slices.Contains(fl.values, name)
		case strings.HasPrefix(s, "-") && len(s) > 1:
			// A bundle of short flags (-iz) or one with its value
			// attached (-g*.zip): any spawning letter in it counts.
			if strings.ContainsAny(s[1:], fl.spawnShort) {
				return false
			}
			value = len(s) == 2 && slices.Contains(fl.values, s)
		}
	}
	return true
}

// sliceGroups reads the elements of a local []string variable e spread
// into a command: the groups of its composite literals and appends, in
// the function walked. ok is false where it is used any other way
// (passed, indexed, sliced, appended from a slice execcheck cannot
// read), or is not a local variable of a declared function.
func (w *walker) sliceGroups(e ast.Expr) (groups [][]ast.Expr, ok bool) {
	if w.fn == nil {
		return nil, false
	}
	return w.ps.sliceGroupsIn(w.fn, e, 0)
}

// sliceGroupsIn is sliceGroups in the function fn. A parameter of fn,
// which the package alone calls, is read at each call: the arguments a
// variadic one is given there, or the slice passed, read in the caller
// (runRipgrep(ctx, args...) called with constant flags).
func (ps *pkgState) sliceGroupsIn(fn *types.Func, e ast.Expr, depth int) (groups [][]ast.Expr, ok bool) {
	info := ps.pass.TypesInfo
	fn0 := fn
	id, isIdent := ast.Unparen(e).(*ast.Ident)
	d := ps.decls[fn]
	if !isIdent || d == nil || d.Body == nil || depth > 3 {
		return nil, false
	}
	v, isVar := info.Uses[id].(*types.Var)
	body := d.Body
	if !isVar {
		return nil, false
	}
	param := v.Pos() >= d.Type.Pos() && v.Pos() < d.Type.End()
	if !param && (v.Pos() < body.Pos() || v.Pos() >= body.End()) {
		return nil, false
	}
	ok = true
	if param {
		groups, ok = ps.paramGroups(fn, v, depth)
		if !ok {
			return nil, false
		}
	}
	// lits holds the right sides that are v's values: composite
	// literals and appends to v; uses of v inside them are accounted.
	accounted := map[*ast.Ident]bool{id: true}
	addLit := func(x ast.Expr) {
		switch x := ast.Unparen(x).(type) {
		case *ast.CompositeLit:
			groups = append(groups, x.Elts)
		case *ast.CallExpr:
			fn, isId := ast.Unparen(x.Fun).(*ast.Ident)
			if !isId || fn.Name != "append" || len(x.Args) == 0 {
				ok = false
				return
			}
			if _, isB := info.Uses[fn].(*types.Builtin); !isB {
				ok = false
				return
			}
			first, isId := ast.Unparen(x.Args[0]).(*ast.Ident)
			if !isId || info.Uses[first] != v {
				ok = false
				return
			}
			accounted[first] = true
			if x.Ellipsis.IsValid() {
				g, good := ps.spreadGroups(fn0, x.Args[len(x.Args)-1], depth)
				if !good || len(x.Args) != 2 {
					ok = false
					return
				}
				groups = append(groups, g...)
				return
			}
			groups = append(groups, x.Args[1:])
		default:
			ok = false
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				lid, isId := ast.Unparen(l).(*ast.Ident)
				if !isId || info.ObjectOf(lid) != v {
					continue
				}
				accounted[lid] = true
				switch {
				case n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
					ok = false
				case len(n.Rhs) == len(n.Lhs):
					addLit(n.Rhs[i])
				case len(n.Rhs) == 1 && i == 0:
					// args, err := modeArgs(mode): the first result.
					g, good := ps.spreadGroups(fn0, n.Rhs[0], depth)
					ok = ok && good
					groups = append(groups, g...)
				default:
					ok = false
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] != v {
					continue
				}
				accounted[name] = true
				if i < len(n.Values) {
					addLit(n.Values[i])
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		if u, isId := n.(*ast.Ident); isId && info.Uses[u] == v && !accounted[u] {
			ok = false
		}
		return ok
	})
	return groups, ok
}

// spreadGroups reads a slice appended with ... in fn: a composite
// literal, another local of fn, or the call of a function of the
// package each of whose returns is one of those (grepModeArgs(mode)).
func (ps *pkgState) spreadGroups(fn *types.Func, e ast.Expr, depth int) (groups [][]ast.Expr, ok bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return [][]ast.Expr{x.Elts}, true
	case *ast.Ident:
		return ps.sliceGroupsIn(fn, x, depth+1)
	case *ast.CallExpr:
		callee := staticCallee(ps.pass.TypesInfo, x)
		if callee == nil || depth > 3 {
			return nil, false
		}
		d := ps.decls[callee.Origin()]
		if d == nil || d.Body == nil {
			return nil, false
		}
		ok = true
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) == 0 || isNil(ps.pass.TypesInfo, n.Results[0]) {
					return true
				}
				g, good := ps.spreadGroups(callee.Origin(), n.Results[0], depth+1)
				ok = ok && good
				groups = append(groups, g...)
			}
			return ok
		})
		return groups, ok
	}
	return nil, false
}

// paramGroups reads the parameter v of fn, a function (not a method),
// at every call of fn: false if fn may be called where execcheck does
// not see (exported, or used as a value), or an argument cannot be read.
func (ps *pkgState) paramGroups(fn *types.Func, v *types.Var, depth int) (groups [][]ast.Expr, ok bool) {
	info := ps.pass.TypesInfo
	sig := fn.Type().(*types.Signature)
	idx := -1
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == v {
			idx = i
		}
	}
	if idx < 0 || fn.Exported() || sig.Recv() != nil {
		return nil, false // called elsewhere, or through an interface
	}
	variadic := sig.Variadic() && idx == sig.Params().Len()-1
	ok, calls := true, 0
	for _, f := range ps.pass.Files {
		inspectStack(f, func(stack []ast.Node) {
			n := stack[len(stack)-1]
			u, isId := n.(*ast.Ident)
			if !ok || !isId || info.Uses[u] != fn {
				return
			}
			var c *ast.CallExpr
			for i := len(stack) - 2; i >= 0 && c == nil; i-- {
				switch p := stack[i].(type) {
				case *ast.CallExpr:
					if ast.Unparen(p.Fun) == n || isSelOf(p.Fun, u) {
						c = p
					} else {
						i = -1
					}
				case *ast.SelectorExpr, *ast.ParenExpr:
				default:
					i = -1
				}
			}
			if c == nil {
				ok = false // a value of fn, called where execcheck does not see
				return
			}
			calls++
			switch {
			case variadic && !c.Ellipsis.IsValid():
				if idx <= len(c.Args) {
					groups = append(groups, c.Args[idx:])
				}
			case idx < len(c.Args):
				arg := ast.Unparen(c.Args[idx])
				if lit, isLit := arg.(*ast.CompositeLit); isLit {
					groups = append(groups, lit.Elts)
					return
				}
				caller := ps.enclosing(c.Pos())
				g, good := ps.sliceGroupsIn(caller, arg, depth+1)
				if caller == nil || !good {
					ok = false
					return
				}
				groups = append(groups, g...)
			default:
				ok = false
			}
		})
	}
	return groups, ok && calls > 0
}

// isSelOf reports whether e is a selector whose Sel is id (r.fn).
func isSelOf(e ast.Expr, id *ast.Ident) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && sel.Sel == id
}

// enclosing is the declared function whose body holds pos, or nil.
func (ps *pkgState) enclosing(pos token.Pos) *types.Func {
	for fn, d := range ps.decls {
		if d.Body != nil && pos >= d.Body.Pos() && pos < d.Body.End() {
			return fn
		}
	}
	return nil
}

// sprintfFlag is the flag that fmt.Sprintf(format, ...) makes, when the
// format is a constant that begins with "-": the format with each verb
// a value attached ("-C%d" reads as "-C0", "--glob=%s" as "--glob=0").
func sprintfFlag(info *types.Info, e ast.Expr) (string, bool) {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) == 0 {
		return "", false
	}
	fn, ok := typeutil.Callee(info, c).(*types.Func)
	if !ok || !isFunctionNamed(fn, "fmt", "Sprintf") {
		return "", false
	}
	format, ok := constString(info, c.Args[0])
	if !ok || !strings.HasPrefix(format, "-") {
		return "", false
	}
	return sprintfVerb.ReplaceAllString(format, "0"), true
}

// sprintfVerb matches a verb of a fmt format.
var sprintfVerb = regexp.MustCompile(`%[-+# 0-9.*\[\]]*[a-zA-Z%]`)
