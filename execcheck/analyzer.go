package execcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer finds the exec sites that can hang or orphan on cancel.
var Analyzer = &analysis.Analyzer{
	Name:             "execcheck",
	Doc:              doc,
	URL:              "https://github.com/exectest/exectest/blob/main/docs/execcheck.md",
	Run:              run,
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(funcFact), new(goParamsFact)},
	ResultType:       reflect.TypeFor[*Result](),
}

const doc = `find exec sites that can hang or orphan on cancel

execcheck follows each *exec.Cmd from exec.Command or exec.CommandContext
to its Run, Output, CombinedOutput or Start, through helpers, constructors,
struct fields and other packages, and classifies what a cancel does:

  hang      a cancel can come, the output goes through a pipe, and nothing
            bounds Wait: it lasts as long as any descendant holding the pipe
  orphan    Wait returns in bounded time, but the cancel reaches only the
            direct child: its descendants keep running
  launcher  the group is killed only by Cancel, which os/exec calls only
            while the direct child runs (a child that exits at once leaves
            its group running), or gets a signal background jobs ignore
  ok        cancelpolicy.Run or Start, a group kill with WaitDelay for a
            program that is no launcher, a group kill by hand, or no cancel

The fix is cancelpolicy.Run(ctx, cmd) (github.com/exectest/exectest/
cancelpolicy); -fix applies it where the rewrite is mechanical. On
Windows (a windows build, or a file that builds only there) that call
puts the tree in a job object a cancel terminates, so a cancel that
reaches only the direct child is reported there as on Unix, and the
advice is the job object, never a process group or Setpgid. With
neither (Plan 9, js, wasip1) only a hang is reported. An
//execcheck:ignore <reason> comment on the line of the run or the command,
or the line above, keeps a site from being reported; the reason is
required.`

// Site is one exec site: a run of a command (or, for a command execcheck
// cannot follow to its run, where it was made), with its class.
type Site struct {
	Pos  token.Pos
	Posn token.Position
	Call string   // the run, as written: cmd.Run(), cancelpolicy.Run, helper(...)
	Made []string // where the command was made, file:line
	// Started is, for a run through a helper (Call "helper(...)"), the
	// Start or Run inside it; zero for a run written at Pos.
	Started token.Position
	Class   Class
	Reason  string
	Fix     string // the fix advised, for the classes that need one
	Ignored string // the reason of an //execcheck:ignore, if the site is ignored
}

// Result is the inventory of a package's exec sites, for -sites.
type Result struct {
	Sites []Site
}

func run(pass *analysis.Pass) (result any, err error) {
	res := &Result{}
	goParams := exportGoParams(pass)
	execPkg := execPackage(pass)
	if execPkg == nil {
		// No run here, but kills other packages may call (kill_only.go).
		execPkg = killerPackage(pass)
	}
	// cancelpolicy's own runs are the fix; its tests' runs are sites as
	// any other package's.
	ownFix := pass.Pkg.Path() == cancelpolicyPath
	if execPkg == nil || ownFix && !hasTestFile(pass) {
		return res, nil
	}
	ps := &pkgState{
		loopKept: map[*types.Var]bool{},
		ownFix:   ownFix,
		plat:     buildPlatform(execPkg),
		pass:     pass,
		decls:    map[*types.Func]*ast.FuncDecl{},
		sums:     map[*types.Func]*summary{},
		busy:     map[*types.Func]bool{},
		called:   map[*types.Func]bool{},
		fields:   map[*types.Var]*instance{},
		pids:     map[*types.Var]*instance{},
		pipes:    map[*types.Var]*instance{},
		pipeWhat: map[*types.Var]string{},
	}
	ps.goParams = goParams
	ps.ignores = readIgnores(pass)
	ps.ignores.reportBad(pass, pass.Files)
	ps.ill = map[*types.Func]bool{}
	files, ill := ps.setAsideIllTyped(pass.Files)
	if ill != nil {
		walked := *pass
		walked.Files = files
		ps.pass = &walked
		// Code that does not type-check may hold what the walk does not
		// expect: every run is then unknown, not a crash.
		defer func() {
			if r := recover(); r != nil {
				ps.pass = pass
				res.Sites = ps.unwalked(pass.Files, r)
				result, err = res, nil
			}
		}()
		if walkHook != nil {
			walkHook()
		}
	}
	var order []*types.Func
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					ps.decls[fn] = fd
					order = append(order, fn)
				}
			}
		}
	}
	ps.scanFileVars() // after decls: a function's file results are read from its body
	ps.scanCmdFuncs()
	ps.scanFuncVars()
	ps.scanFieldFuncs()
	ps.litBusy = map[*ast.FuncLit]bool{}
	for _, fn := range order {
		if _, done := ps.sums[fn]; !done {
			ps.walkFunc(fn, ps.decls[fn])
		}
	}
	ps.walkVarInits()
	if !ownFix {
		// Callers know cancelpolicy's functions by name (types.go).
		ps.exportFacts(order)
	}
	ps.applyKept()
	ps.readsUnseen()
	ps.waitsFree()
	ps.readsFree()
	res.Sites = ps.sites(platformsOf(pass, execPkg))
	if ill != nil {
		res.Sites = append(res.Sites, ps.illSites(ill)...)
		sort.Slice(res.Sites, func(i, j int) bool { return res.Sites[i].Pos < res.Sites[j].Pos })
	}
	return res, nil
}

// exportFacts exports the summaries of the package's functions, once the
// whole package is walked: a parameter kept in a field (a Session, a
// runner struct) then carries what every method does to that field, the
// kills of a Stop method included.
func (ps *pkgState) exportFacts(order []*types.Func) {
	for _, fn := range order {
		s := ps.sums[fn]
		if s == nil {
			continue
		}
		for i, h := range s.held {
			r := h.root()
			p := r.p.clone()
			p.Creations = nil
			for _, rs := range r.runs {
				p.Runs = append(p.Runs, ps.runInfoOf(rs))
			}
			if p.empty() {
				continue
			}
			if s.Params == nil {
				s.Params = map[int]*props{}
			}
			s.Params[i] = &p
		}
		if !s.empty() {
			ps.pass.ExportObjectFact(fn, &funcFact{S: *s})
		}
	}
}

// execPackage returns os/exec if the package uses it (a command can only
// be run through its names), else nil: the package is skipped.
func execPackage(pass *analysis.Pass) *types.Package {
	for _, o := range pass.TypesInfo.Uses {
		if p := o.Pkg(); p != nil && p.Path() == "os/exec" {
			return p
		}
	}
	return nil
}

// sites classifies every run of every command of the package and reports
// the findings.
func (ps *pkgState) sites(pl *platforms) []Site {
	var out []Site
	seen := map[*instance]bool{}
	for _, x := range ps.all {
		r := x.root()
		if seen[r] {
			continue
		}
		seen[r] = true
		if (r.param >= 0 || r.closure) && len(r.p.Creations) == 0 {
			continue // a helper's parameter: the site is at its callers
		}
		switch {
		case r.ret && r.retFn != nil && len(r.runs) > 0:
			// Started and returned: the site is at each call, where
			// the caller decides what stops it; uncalled here, it is
			// listed as unknown.
			if ps.called[r.retFn] {
				continue
			}
			for _, rs := range ps.runsOf(r) {
				out = append(out, ps.unknownSite(rs, r, "the command is started here and returned by "+r.retFn.Name()+": its callers decide what stops it"))
			}
		case r.fromArg && len(r.p.Creations) == 0:
			for _, rs := range ps.runsOf(r) {
				out = append(out, ps.unknownSite(rs, r, "the command is a parameter kept in a field: execcheck does not follow it from the callers"))
			}
		default:
			for _, rs := range ps.runsOf(r) {
				out = append(out, ps.site(rs, r, pl.at(ps.fileOf(rs.pos))))
			}
		}
		if len(r.runs) == 0 && len(r.p.Creations) > 0 && !r.ret && len(r.p.Escapes) > 0 {
			for _, lc := range r.local {
				if ps.ownFix && !ps.inTestFile(lc.call.Pos()) {
					continue
				}
				ig, _ := ps.ignores.at(lc.call.Pos())
				out = append(out, Site{
					Pos: lc.call.Pos(), Posn: ps.pass.Fset.Position(lc.call.Pos()),
					Call: "made, never run here", Made: []string{ps.where(lc.call.Pos())},
					Class: Unknown, Reason: "the command is " + r.p.Escapes[0], Ignored: ig,
				})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

func (ps *pkgState) site(rs *runSite, r *instance, plat platform) Site {
	v := classify(rs, &r.p, plat)
	s := Site{Pos: rs.pos, Posn: ps.pass.Fset.Position(rs.pos), Call: callText(rs), Started: rs.started(), Class: v.class, Reason: v.reason}
	for _, c := range r.p.Creations {
		s.Made = append(s.Made, c.Where)
	}
	ig, bad := ps.ignores.at(rs.pos)
	if ig == "" && !bad && len(r.p.Creations) > 0 {
		all := true
		for _, c := range r.p.Creations {
			if c.Ignore == "" {
				all = false
			}
		}
		if all {
			ig = r.p.Creations[0].Ignore
		}
	}
	s.Ignored = ig
	switch v.class {
	case Hang, Orphan, Launcher:
	default:
		return s
	}
	fx := ps.fixFor(rs, r, v, plat)
	s.Fix = fx.advice
	if ig != "" {
		return s
	}
	d := analysis.Diagnostic{
		Pos:     rs.pos,
		End:     rs.call.End(),
		Message: string(v.class) + ": " + v.reason + "; fix: " + fx.advice,
	}
	if fx.fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fx.fix}
	}
	ps.pass.Report(d)
	return s
}

func (ps *pkgState) unknownSite(rs *runSite, r *instance, why string) Site {
	ig, _ := ps.ignores.at(rs.pos)
	s := Site{Pos: rs.pos, Posn: ps.pass.Fset.Position(rs.pos), Call: callText(rs), Started: rs.started(), Class: Unknown, Reason: why, Ignored: ig}
	for _, c := range r.p.Creations {
		s.Made = append(s.Made, c.Where)
	}
	return s
}

func callText(rs *runSite) string {
	switch {
	case rs.via != "":
		return rs.via + "(...)"
	case rs.kind.policy():
		return rs.kind.String() + "(...)"
	case rs.methodValue:
		// The call as written, with the method it calls.
		m := "(...)." + rs.kind.String()
		if simpleExpr(rs.cmdExpr) {
			m = types.ExprString(rs.cmdExpr) + "." + rs.kind.String()
		}
		return types.ExprString(rs.call) + " (" + m + ")"
	case simpleExpr(rs.cmdExpr):
		return types.ExprString(rs.cmdExpr) + "." + rs.kind.String() + "()"
	}
	return "(...)." + rs.kind.String() + "()"
}

// simpleExpr reports whether e is a name or a chain of field selections
// from one: an expression a fix may repeat.
func simpleExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return simpleExpr(e.X)
	}
	return false
}

// hasTestFile reports whether the package holds a _test.go file.
func hasTestFile(pass *analysis.Pass) bool {
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			return true
		}
	}
	return false
}

// runsOf is r's runs that are sites: in cancelpolicy, only its tests'.
func (ps *pkgState) runsOf(r *instance) []*runSite {
	if !ps.ownFix {
		return r.runs
	}
	var out []*runSite
	for _, rs := range r.runs {
		if ps.inTestFile(rs.pos) {
			out = append(out, rs)
		}
	}
	return out
}

// inTestFile reports whether pos is in a _test.go file.
func (ps *pkgState) inTestFile(pos token.Pos) bool {
	return strings.HasSuffix(ps.pass.Fset.Position(pos).Filename, "_test.go")
}
