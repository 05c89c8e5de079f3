package execcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
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

// outputRewrite writes the rewrite of an Output or CombinedOutput: the
// statements a person would write, where the call is a whole statement
// of a block (return cmd.Output(), out, err := cmd.Output(), or the call
// alone), or else a function literal called in place of the call.
type outputRewrite struct {
	ps     *pkgState
	rs     *runSite
	r      *instance
	imp    *importer
	file   *ast.File
	used   map[string]bool // names the rewrite must not take
	cp     string          // cancelpolicy's name in the file
	ctx    string
	cmd    string // the command as written; in an inline command, its creation
	opts   string
	inline bool // the command is made in the call's receiver

	exprStmt bool // the call was a statement of its own: it became cancelpolicy.Run
}

// edit returns the edit and the name of the command in the new code; an
// edit with no NewText means no rewrite.
func (o *outputRewrite) edit() (analysis.TextEdit, string) {
	call := o.rs.call
	stmt, block := o.statement()
	if es, ok := stmt.(*ast.ExprStmt); ok && block != nil {
		// Output()'s results are dropped: Run is the whole of it.
		o.exprStmt = true
		return analysis.TextEdit{Pos: es.X.Pos(), End: es.X.End(),
			NewText: fmt.Appendf(nil, "%s.Run(%s, %s%s)", o.cp, o.ctx, o.cmd, o.opts)}, o.cmd
	}
	sc := o.ps.pass.Pkg.Scope().Innermost(call.Pos())
	if sc == nil {
		return analysis.TextEdit{}, ""
	}
	// In a function literal called in place of the call, a name is
	// declared in its scope: only the names of the call's own
	// expressions are taken. A statement declares its names in the
	// block: a name declared there is taken, and so, where statements
	// follow, is one they might see from outside (a return ends the
	// block: what follows it does not run).
	var taken func(string) bool
	ret := false
	switch stmt.(type) {
	case *ast.ReturnStmt:
		ret = true
		taken = func(n string) bool { return sc.Lookup(n) != nil }
	case *ast.AssignStmt:
		taken = func(n string) bool {
			if sc.Lookup(n) != nil {
				return true
			}
			_, obj := sc.LookupParent(n, call.Pos())
			return obj != nil
		}
	default:
		block = nil
	}
	if block == nil {
		taken = func(string) bool { return false }
	}
	fresh := func(n string, taken func(string) bool) string {
		for i := 2; o.used[n] || taken(n); i++ {
			n = fmt.Sprintf("%s%d", strings.TrimRight(n, "0123456789"), i)
		}
		o.used[n] = true
		return n
	}

	// The lines, each with its depth in the new code.
	type codeLine struct {
		depth int
		text  string
	}
	var lines []codeLine
	depth := 0
	line := func(format string, args ...any) {
		t := fmt.Sprintf(format, args...)
		if t == "}" {
			depth--
		}
		lines = append(lines, codeLine{depth, t})
		if strings.HasSuffix(t, "{") {
			depth++
		}
	}
	cmd := o.cmd
	if o.inline {
		cmd = fresh("cmd", taken)
		line("%s := %s", cmd, o.cmd)
	}
	// Where the results go.
	outLHS, outDef, errLHS, errDef := "", false, "", true
	if as, ok := stmt.(*ast.AssignStmt); ok && block != nil {
		outLHS, outDef = o.lhs(as, 0)
		errLHS, errDef = o.lhs(as, 1)
	}
	if block == nil || ret {
		errLHS = "err"
		if ret && sc.Lookup("err") != nil && o.reusable(sc, "err") {
			errDef = false // the same error variable, about to be returned
		} else {
			errLHS = fresh("err", taken)
		}
	}
	assign := func(lhs string, def bool) string {
		if def {
			return lhs + " :="
		}
		return lhs + " ="
	}
	bytesName := o.imp.name("bytes", "bytes")
	run := fmt.Sprintf("%s.Run(%s, %s%s)", o.cp, o.ctx, cmd, o.opts)
	var buf string
	if o.rs.kind == runCombined {
		if outLHS != "out" && !o.used["out"] && !taken("out") {
			buf = fresh("out", taken)
		} else {
			buf = fresh("buf", taken)
		}
		line("var %s %s.Buffer", buf, bytesName)
		line("%s.Stdout, %s.Stderr = &%s, &%s", cmd, cmd, buf, buf)
		line("%s %s", assign(errLHS, errDef), run)
	} else {
		buf = fresh("stdout", taken)
		// Output keeps the stderr of a failed command in ExitError.Stderr
		// where Stderr was not set: so does the rewrite, unless the error
		// is dropped.
		if o.r.p.StderrSet || errLHS == "_" {
			line("var %s %s.Buffer", buf, bytesName)
			line("%s.Stdout = &%s", cmd, buf)
			line("%s %s", assign(errLHS, errDef), run)
		} else {
			stderr := fresh("stderr", taken)
			line("var %s, %s %s.Buffer", buf, stderr, bytesName)
			line("%s.Stdout, %s.Stderr = &%s, &%s", cmd, cmd, buf, stderr)
			line("%s %s", assign(errLHS, errDef), run)
			errorsName := o.imp.name("errors", "errors")
			execName := o.imp.name("os/exec", "exec")
			if o.asType() {
				// Names of the if statement's own scope.
				none := func(string) bool { return false }
				ee, ok := fresh("ee", none), fresh("ok", none)
				line("if %s, %s := %s.AsType[*%s.ExitError](%s); %s {", ee, ok, errorsName, execName, errLHS, ok)
				line("%s.Stderr = %s.Bytes()", ee, stderr)
			} else {
				ee := fresh("ee", taken)
				line("var %s *%s.ExitError", ee, execName)
				line("if %s.As(%s, &%s) {", errorsName, errLHS, ee)
				line("%s.Stderr = %s.Bytes()", ee, stderr)
			}
			line("}")
		}
	}
	switch {
	case block == nil || ret:
		line("return %s.Bytes(), %s", buf, errLHS)
	case outLHS != "_":
		line("%s %s.Bytes()", assign(outLHS, outDef), buf)
	}
	// Indented as the statement's line is (gofmt's indentation, so that
	// the edit reads right also where no formatter runs after it).
	indent := o.indent(call.Pos())
	if block == nil {
		lines = append([]codeLine{{0, "func() ([]byte, error) {"}}, lines...)
		for i := 1; i < len(lines); i++ {
			lines[i].depth++
		}
		lines = append(lines, codeLine{0, "}()"})
	} else {
		indent = o.indent(stmt.Pos())
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n" + indent + strings.Repeat("\t", l.depth))
		}
		b.WriteString(l.text)
	}
	if block == nil {
		return analysis.TextEdit{Pos: call.Pos(), End: call.End(), NewText: []byte(b.String())}, cmd
	}
	text := b.String()
	return analysis.TextEdit{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}, cmd
}

// statement returns the statement the call is the whole value of
// (return cmd.Output(), out, err := cmd.Output(), or the call alone) and
// the block or clause whose list holds it; nil where the call is part of
// something else, or the statement is in no list (an if's or a switch's
// init, a labeled statement): a function literal is called there.
func (o *outputRewrite) statement() (ast.Stmt, ast.Node) {
	path, _ := astutil.PathEnclosingInterval(o.file, o.rs.call.Pos(), o.rs.call.End())
	i := 0
	for i < len(path) && path[i] != ast.Node(o.rs.call) {
		i++
	}
	for i++; i < len(path); i++ {
		if _, ok := path[i].(*ast.ParenExpr); !ok {
			break
		}
	}
	if i+1 >= len(path) {
		return nil, nil
	}
	stmt, ok := path[i].(ast.Stmt)
	if !ok {
		return nil, nil
	}
	switch s := stmt.(type) {
	case *ast.ReturnStmt:
		if len(s.Results) != 1 {
			return nil, nil
		}
	case *ast.AssignStmt:
		if len(s.Lhs) != 2 || len(s.Rhs) != 1 || (s.Tok != token.DEFINE && s.Tok != token.ASSIGN) {
			return nil, nil
		}
		for _, l := range s.Lhs {
			if !simpleExpr(l) {
				return nil, nil // an index, evaluated before the run today
			}
		}
	case *ast.ExprStmt:
	default:
		return nil, nil
	}
	var list []ast.Stmt
	switch p := path[i+1].(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	}
	for _, x := range list {
		if x == stmt {
			return stmt, path[i+1]
		}
	}
	return nil, nil
}

// lhs returns the i-th left side of as as written, and whether as
// declares it ("_" for the blank identifier).
func (o *outputRewrite) lhs(as *ast.AssignStmt, i int) (string, bool) {
	e := as.Lhs[i]
	id, isIdent := e.(*ast.Ident)
	if isIdent && id.Name == "_" {
		return "_", false
	}
	def := as.Tok == token.DEFINE && isIdent && o.ps.pass.TypesInfo.Defs[id] != nil
	return o.ps.text(e), def
}

// reusable reports whether a return may assign its error to name, a
// variable of the block declared before it: a result of the function
// (the return would assign it anyway), or a variable of type error no
// function literal sees (nothing reads it after the return).
func (o *outputRewrite) reusable(sc *types.Scope, name string) bool {
	v, ok := sc.Lookup(name).(*types.Var)
	if !ok || v.Pos() >= o.rs.call.Pos() || !types.Identical(v.Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	path, _ := astutil.PathEnclosingInterval(o.file, o.rs.call.Pos(), o.rs.call.End())
	var sig *types.Signature
	var body *ast.BlockStmt
	for _, n := range path {
		switch f := n.(type) {
		case *ast.FuncLit:
			sig, _ = o.ps.pass.TypesInfo.TypeOf(f).(*types.Signature)
			body = f.Body
		case *ast.FuncDecl:
			if fn, ok := o.ps.pass.TypesInfo.Defs[f.Name].(*types.Func); ok {
				sig, _ = fn.Type().(*types.Signature)
			}
			body = f.Body
		default:
			continue
		}
		break
	}
	if sig == nil || body == nil {
		return false
	}
	for i := range sig.Results().Len() {
		if sig.Results().At(i) == v {
			return true
		}
	}
	seen := false
	ast.Inspect(body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			ast.Inspect(lit.Body, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && o.ps.pass.TypesInfo.Uses[id] == v {
					seen = true
				}
				return !seen
			})
			return false
		}
		return !seen
	})
	return !seen
}

// asType reports whether the file's Go version has errors.AsType (1.26).
func (o *outputRewrite) asType() bool {
	v := o.ps.pass.TypesInfo.FileVersions[o.file]
	if v == "" {
		v = o.ps.pass.Pkg.GoVersion()
	}
	return version.IsValid(v) && version.Compare(v, "go1.26") >= 0
}

// indent returns the blanks that begin pos's line.
func (o *outputRewrite) indent(pos token.Pos) string {
	tf := o.ps.pass.Fset.File(pos)
	if tf == nil {
		return ""
	}
	src, err := o.ps.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	start, off := tf.Offset(tf.LineStart(tf.Line(pos))), tf.Offset(pos)
	i := start
	for i < off && i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return string(src[start:i])
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
// a group of their own after the standard library's. Each import is an
// edit of its own, so that the rewrites of two sites of a file, applied
// together, add it once: a driver coalesces identical edits (and keeps
// both of two insertions at one place).
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
	insert := func(pos token.Pos, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text)}
	}
	if last == nil {
		text := "\n\nimport (\n"
		for _, p := range append(std, other...) {
			text += "\t" + p + "\n"
		}
		text += ")"
		return []analysis.TextEdit{insert(im.file.Name.End(), text)}
	}
	var edits []analysis.TextEdit
	if !last.Lparen.IsValid() {
		for _, p := range append(std, other...) {
			edits = append(edits, insert(last.End(), "\nimport "+p))
		}
		return edits
	}
	// The standard library's after its last import, in its group.
	var lastStd *ast.ImportSpec
	for _, sp := range last.Specs {
		is := sp.(*ast.ImportSpec)
		if p, err := strconv.Unquote(is.Path.Value); err == nil && !hasDot(p) {
			lastStd = is
		}
	}
	for _, p := range std {
		if lastStd != nil {
			edits = append(edits, insert(lastStd.End(), "\n\t"+p))
		} else {
			edits = append(edits, insert(last.Rparen, "\t"+p+"\n"))
		}
	}
	// The others at the end, after a blank line if the block ends with
	// the standard library.
	blank := ""
	if n := len(last.Specs); n == 0 || !hasDot(importPath(last.Specs[n-1])) {
		blank = "\n"
	}
	for _, p := range other {
		edits = append(edits, insert(last.Rparen, blank+"\t"+p+"\n"))
	}
	return edits
}

func importPath(s ast.Spec) string {
	p, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value)
	return p
}
