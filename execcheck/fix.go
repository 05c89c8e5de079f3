package execcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
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
	var text string
	switch rs.kind {
	case runRun:
		text = fmt.Sprintf("%s.Run(%s, %s%s)", cp, ctx, cmd, opts)
	case runCombined, runOutput:
		used := idents(ctxExpr, rs.cmdExpr)
		for _, a := range r.applies {
			for _, x := range a.Args[1:] {
				for k := range idents(x) {
					used[k] = true
				}
			}
		}
		fresh := func(n string) string {
			for i := 2; used[n]; i++ {
				n = fmt.Sprintf("%s%d", strings.TrimRight(n, "0123456789"), i)
			}
			used[n] = true
			return n
		}
		bytesName := imp.name("bytes", "bytes")
		var b strings.Builder
		b.WriteString("func() ([]byte, error) {\n")
		if inlineCmd {
			c := fresh("cmd")
			fmt.Fprintf(&b, "%s := %s\n", c, cmd)
			cmd = c
		}
		errName := fresh("err")
		if rs.kind == runCombined {
			out := fresh("out")
			fmt.Fprintf(&b, "var %s %s.Buffer\n", out, bytesName)
			fmt.Fprintf(&b, "%s.Stdout, %s.Stderr = &%s, &%s\n", cmd, cmd, out, out)
			fmt.Fprintf(&b, "%s := %s.Run(%s, %s%s)\n", errName, cp, ctx, cmd, opts)
			fmt.Fprintf(&b, "return %s.Bytes(), %s\n", out, errName)
		} else {
			stdout := fresh("stdout")
			if r.p.StderrSet {
				fmt.Fprintf(&b, "var %s %s.Buffer\n", stdout, bytesName)
				fmt.Fprintf(&b, "%s.Stdout = &%s\n", cmd, stdout)
				fmt.Fprintf(&b, "%s := %s.Run(%s, %s%s)\n", errName, cp, ctx, cmd, opts)
			} else {
				// Output keeps the stderr of a failed command in
				// ExitError.Stderr: so does the rewrite.
				stderr, ee := fresh("stderr"), fresh("ee")
				errorsName := imp.name("errors", "errors")
				execName := imp.name("os/exec", "exec")
				fmt.Fprintf(&b, "var %s, %s %s.Buffer\n", stdout, stderr, bytesName)
				fmt.Fprintf(&b, "%s.Stdout, %s.Stderr = &%s, &%s\n", cmd, cmd, stdout, stderr)
				fmt.Fprintf(&b, "%s := %s.Run(%s, %s%s)\n", errName, cp, ctx, cmd, opts)
				fmt.Fprintf(&b, "var %s *%s.ExitError\n", ee, execName)
				fmt.Fprintf(&b, "if %s.As(%s, &%s) {\n%s.Stderr = %s.Bytes()\n}\n", errorsName, errName, ee, ee, stderr)
			}
			fmt.Fprintf(&b, "return %s.Bytes(), %s\n", stdout, errName)
		}
		b.WriteString("}()")
		text = b.String()
	}
	if imp.failed {
		return nil
	}
	edits := []analysis.TextEdit{{Pos: rs.call.Pos(), End: rs.call.End(), NewText: []byte(text)}}
	edits = append(edits, imp.edits()...)
	return &analysis.SuggestedFix{
		Message:   "run the command with cancelpolicy.Run",
		TextEdits: edits,
	}
}

// pure reports whether e may be evaluated once more: names, selections,
// constants and calls of package functions on such (cancelpolicy's
// options).
func pure(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return pure(e.X)
	case *ast.BinaryExpr:
		return pure(e.X) && pure(e.Y)
	case *ast.CallExpr:
		for _, a := range e.Args {
			if !pure(a) {
				return false
			}
		}
		return pure(e.Fun)
	}
	return false
}

func idents(es ...ast.Expr) map[string]bool {
	m := map[string]bool{}
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				m[id.Name] = true
			}
			return true
		})
	}
	return m
}

// visible reports whether e (a name or a selection from one) means the
// same at pos as where it was written.
func (ps *pkgState) visible(e ast.Expr, pos token.Pos) bool {
	for {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		e = sel.X
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := ps.pass.TypesInfo.ObjectOf(id)
	if obj == nil {
		return false
	}
	sc := ps.pass.Pkg.Scope().Innermost(pos)
	if sc == nil {
		return false
	}
	_, found := sc.LookupParent(id.Name, pos)
	return found == obj
}

func (ps *pkgState) fileOf(pos token.Pos) *ast.File {
	for _, f := range ps.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// text returns the source of e as written.
func (ps *pkgState) text(e ast.Expr) string {
	tf := ps.pass.Fset.File(e.Pos())
	if tf != nil {
		if src, err := ps.pass.ReadFile(tf.Name()); err == nil {
			start, end := tf.Offset(e.Pos()), tf.Offset(e.End())
			if 0 <= start && start <= end && end <= len(src) {
				return string(src[start:end])
			}
		}
	}
	return types.ExprString(e)
}

// importer finds or adds the imports a rewrite needs.
type importer struct {
	ps     *pkgState
	file   *ast.File
	pos    token.Pos
	add    []string
	failed bool
}

// name returns the name under which path is (or will be) imported in the
// file; it fails where that name means something else at the rewrite.
func (im *importer) name(path, want string) string {
	for _, s := range im.file.Imports {
		p, err := strconv.Unquote(s.Path.Value)
		if err != nil || p != path {
			continue
		}
		n := want
		if s.Name != nil {
			n = s.Name.Name
		}
		if n == "_" || n == "." {
			continue
		}
		if _, obj := im.ps.pass.Pkg.Scope().Innermost(im.pos).LookupParent(n, im.pos); obj != nil {
			if _, ok := obj.(*types.PkgName); !ok {
				im.failed = true
			}
		}
		return n
	}
	if sc := im.ps.pass.Pkg.Scope().Innermost(im.pos); sc != nil {
		if _, obj := sc.LookupParent(want, im.pos); obj != nil {
			im.failed = true
		}
	}
	for _, a := range im.add {
		if a == path {
			return want
		}
	}
	im.add = append(im.add, path)
	return want
}

// edits inserts the imports to add: into the file's last import block,
// a group of their own after the standard library's.
func (im *importer) edits() []analysis.TextEdit {
	if len(im.add) == 0 {
		return nil
	}
	var std, other []string
	for _, p := range im.add {
		if hasDot(p) {
			other = append(other, strconv.Quote(p))
		} else {
			std = append(std, strconv.Quote(p))
		}
	}
	var last *ast.GenDecl
	for _, d := range im.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			last = g
		}
	}
	if last == nil {
		text := "\n\nimport (\n"
		for _, p := range append(std, other...) {
			text += "\t" + p + "\n"
		}
		text += ")"
		return []analysis.TextEdit{{Pos: im.file.Name.End(), End: im.file.Name.End(), NewText: []byte(text)}}
	}
	if !last.Lparen.IsValid() {
		text := ""
		for _, p := range append(std, other...) {
			text += "\nimport " + p
		}
		return []analysis.TextEdit{{Pos: last.End(), End: last.End(), NewText: []byte(text)}}
	}
	var edits []analysis.TextEdit
	if len(std) > 0 {
		// After the last import of the standard library, in its group.
		var lastStd *ast.ImportSpec
		for _, sp := range last.Specs {
			is := sp.(*ast.ImportSpec)
			if p, err := strconv.Unquote(is.Path.Value); err == nil && !hasDot(p) {
				lastStd = is
			}
		}
		if lastStd != nil {
			text := ""
			for _, p := range std {
				text += "\n\t" + p
			}
			edits = append(edits, analysis.TextEdit{Pos: lastStd.End(), End: lastStd.End(), NewText: []byte(text)})
			std = nil
		}
	}
	text := ""
	for _, p := range std {
		text += "\t" + p + "\n"
	}
	if len(other) > 0 {
		lastStd := true
		if n := len(last.Specs); n > 0 {
			if p, err := strconv.Unquote(last.Specs[n-1].(*ast.ImportSpec).Path.Value); err == nil && hasDot(p) {
				lastStd = false
			}
		}
		if lastStd {
			text += "\n"
		}
		for _, p := range other {
			text += "\t" + p + "\n"
		}
	}
	if text != "" {
		edits = append(edits, analysis.TextEdit{Pos: last.Rparen, End: last.Rparen, NewText: []byte(text)})
	}
	return edits
}
