package execcheck

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// fixed is the fix of a finding: the advice in words, and the rewrite
// where it is mechanical.
type fixed struct {
	advice string
	fix    *analysis.SuggestedFix
}

// fixFor says what to change at a finding and, where the rewrite is
// mechanical and right, makes it: a Run, Output or CombinedOutput of a
// command from exec.CommandContext whose context is in scope at the run,
// with no kill by hand, becomes cancelpolicy.Run. On Windows (plat) the
// advice is the job object cancelpolicy makes, never a process group;
// where cancelpolicy does not build (platNone), a WaitDelay.
func (ps *pkgState) fixFor(rs *runSite, r *instance, v verdict, plat platform) fixed {
	ctxText, cmdText := "ctx", "cmd"
	ctxExpr := ps.uniqueCtx(r)
	if ctxExpr != nil && simpleExpr(ctxExpr) {
		ctxText = types.ExprString(ctxExpr)
	}
	if simpleExpr(rs.cmdExpr) {
		cmdText = types.ExprString(rs.cmdExpr)
	}
	if plat == platNone {
		return fixed{advice: noneAdvice(rs, cmdText)}
	}
	var opts []string
	if v.job {
		opts = append(opts, "cancelpolicy.Graceful(sig, grace)")
	}
	contain := containWhy(&r.p)
	if plat == platJobs {
		contain = "" // the job allows no breakaway: nothing leaves it
	}
	if contain != "" {
		opts = append(opts, "cancelpolicy.Contain()")
	}
	call := fmt.Sprintf("cancelpolicy.Run(%s, %s%s)", ctxText, cmdText, joinOpts(opts))
	var advice string
	switch rs.kind {
	case runStart:
		advice = fmt.Sprintf("start it with cancelpolicy.Start(%s, %s%s) and call the Wait it returns", ctxText, cmdText, joinOpts(opts))
	case runOutput, runCombined:
		advice = fmt.Sprintf("collect the output in a bytes.Buffer set as %s.Stdout and run %s", cmdText, call)
	default:
		advice = "run it with " + call
	}
	if rs.via != "" {
		advice = "in " + rs.via + ", " + advice
	}
	if hasHandKill(&r.p) {
		advice += ", in place of the kill by hand"
	}
	if v.job {
		advice += ": the group gets sig, then SIGKILL after the grace"
	}
	if contain != "" {
		advice += " (" + contain + ": only a cgroup of its own stops what leaves the group; Linux)"
	}
	if plat == platJobs {
		advice += jobAdvice
	}
	f := fixed{advice: advice}
	if len(opts) == 0 {
		f.fix = ps.rewrite(rs, r, ctxExpr)
	}
	if plat == platJobs {
		f.fix = forJobs(f.fix)
	}
	return f
}

func joinOpts(opts []string) string {
	if len(opts) == 0 {
		return ""
	}
	return ", " + strings.Join(opts, ", ")
}

func hasHandKill(p *props) bool {
	for _, e := range p.Kills {
		if e.Sig != sigProbe || e.Unknown {
			return true
		}
	}
	return false
}

// uniqueCtx returns the context every creation of the command was given,
// as written in this package, or nil.
func (ps *pkgState) uniqueCtx(r *instance) ast.Expr {
	if len(r.local) != len(r.p.Creations) || len(r.local) == 0 {
		return nil
	}
	for _, c := range r.p.Creations {
		if c.Ctx != ctxCancel && c.Ctx != ctxParam {
			return nil
		}
	}
	var e ast.Expr
	for _, lc := range r.local {
		if lc.ctxExpr == nil {
			return nil
		}
		if e != nil && types.ExprString(e) != types.ExprString(lc.ctxExpr) {
			return nil
		}
		e = lc.ctxExpr
	}
	return e
}

// rewrite makes the SuggestedFix, or returns nil where it would not be
// mechanical or right.
func (ps *pkgState) rewrite(rs *runSite, r *instance, ctxExpr ast.Expr) *analysis.SuggestedFix {
	if rs.via != "" || rs.methodValue || hasHandKill(&r.p) || ctxExpr == nil || !simpleExpr(ctxExpr) {
		return nil
	}
	switch rs.kind {
	case runRun, runOutput, runCombined:
	default:
		return nil
	}
	if !ps.visible(ctxExpr, rs.pos) {
		return nil
	}
	_, inlineCmd := ast.Unparen(rs.cmdExpr).(*ast.CallExpr)
	if !inlineCmd && !simpleExpr(rs.cmdExpr) {
		return nil
	}
	if rs.kind != runRun && r.p.StdoutSet {
		return nil // Output and CombinedOutput fail when Stdout is set
	}
	if rs.kind == runCombined && r.p.StderrSet {
		return nil
	}
	var opts string
	if r.p.Applied {
		if len(r.applies) != 1 {
			return nil // applied in a helper: its options are not here to keep
		}
		for _, a := range r.applies[0].Args[1:] {
			if !pure(a) {
				return nil
			}
			opts += ", " + ps.text(a)
		}
	}
	file := ps.fileOf(rs.pos)
	if file == nil {
		return nil
	}
	imp := &importer{ps: ps, file: file, pos: rs.pos}
	cp := imp.name(cancelpolicyPath, "cancelpolicy")
	ctx := ps.text(ctxExpr)
	cmd := ps.text(rs.cmdExpr)
	what := callText(rs)
	if inlineCmd {
		what = types.ExprString(ast.Unparen(rs.cmdExpr).(*ast.CallExpr).Fun) + "(...)." + rs.kind.String() + "()"
	}
	edit := analysis.TextEdit{Pos: rs.call.Pos(), End: rs.call.End()}
	var msg string
	switch rs.kind {
	case runRun:
		run := fmt.Sprintf("%s.Run(%s, %s%s)", cp, ctx, cmd, opts)
		edit.NewText = []byte(run)
		msg = "rewrite " + what + " to " + run
	case runCombined, runOutput:
		used := idents(ctxExpr, rs.cmdExpr)
		for _, a := range r.applies {
			for _, x := range a.Args[1:] {
				for k := range idents(x) {
					used[k] = true
				}
			}
		}
		o := &outputRewrite{
			ps: ps, rs: rs, r: r, imp: imp, file: file, used: used,
			cp: cp, ctx: ctx, cmd: cmd, opts: opts, inline: inlineCmd,
		}
		var cmdName string
		edit, cmdName = o.edit()
		if edit.NewText == nil {
			return nil
		}
		run := fmt.Sprintf("%s.Run(%s, %s%s)", cp, ctx, cmdName, opts)
		if rs.kind == runCombined {
			msg = "rewrite " + what + " to " + run + " with a bytes.Buffer as Stdout and Stderr"
		} else {
			msg = "rewrite " + what + " to " + run + " with a bytes.Buffer as Stdout"
		}
		if o.exprStmt {
			msg = "rewrite " + what + " to " + run
		}
	}
	if imp.failed {
		return nil
	}
	edits := []analysis.TextEdit{edit}
	edits = append(edits, imp.edits()...)
	// The message says what the rewrite does, as "rewrite X to Y": the
	// command's -fix summary prints it as "rewrote X to Y".
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
}
