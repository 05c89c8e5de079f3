package execcheck

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

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
