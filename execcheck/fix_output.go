package execcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
)

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
