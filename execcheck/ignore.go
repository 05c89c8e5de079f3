package execcheck

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ignorePrefix marks an exec site that may hang or orphan on purpose; a
// reason must follow.
const ignorePrefix = "//execcheck:ignore"

// directive is one //execcheck:ignore comment.
type directive struct {
	pos    token.Pos
	reason string
}

// ignores are the directives of a package, by file and line.
type ignores struct {
	fset  *token.FileSet
	lines map[string]map[int]*directive
}

func readIgnores(pass *analysis.Pass) *ignores {
	ig := &ignores{fset: pass.Fset, lines: map[string]map[int]*directive{}}
	for _, f := range pass.Files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				rest, ok := strings.CutPrefix(c.Text, ignorePrefix)
				if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
					continue
				}
				p := pass.Fset.Position(c.Pos())
				m := ig.lines[p.Filename]
				if m == nil {
					m = map[int]*directive{}
					ig.lines[p.Filename] = m
				}
				reason := strings.TrimSpace(rest)
				if strings.HasPrefix(reason, "//") {
					reason = "" // another comment follows, not a reason
				}
				m[p.Line] = &directive{pos: c.Pos(), reason: reason}
			}
		}
	}
	return ig
}

// at returns the reason of a directive on pos's line or the line above;
// bad says a directive without a reason stands there.
func (ig *ignores) at(pos token.Pos) (reason string, bad bool) {
	if ig == nil || !pos.IsValid() {
		return "", false
	}
	p := ig.fset.Position(pos)
	m := ig.lines[p.Filename]
	for _, l := range []int{p.Line, p.Line - 1} {
		if d := m[l]; d != nil {
			if d.reason == "" {
				return "", true
			}
			return d.reason, false
		}
	}
	return "", false
}

// reportBad reports every directive without a reason.
func (ig *ignores) reportBad(pass *analysis.Pass, files []*ast.File) {
	for _, m := range ig.lines {
		for _, d := range m {
			if d.reason == "" {
				pass.Report(analysis.Diagnostic{
					Pos:     d.pos,
					End:     d.pos + token.Pos(len(ignorePrefix)),
					Message: "execcheck:ignore needs a reason: write //execcheck:ignore <why this exec site may hang or orphan on cancel>",
				})
			}
		}
	}
}
