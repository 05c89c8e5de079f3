package execcheck

// A shell script built from constants and the paths of temporary files:
//
//	pidFile := filepath.Join(t.TempDir(), "pid")
//	command := "sleep 30 & echo $! > " + pidFile + "; wait"
//	cmd := exec.CommandContext(ctx, "sh", "-c", command)
//
// (rimba's and porter's process-group tests). A path made of a temporary
// directory and constant names holds no &, ; or newline: it is read as
// one word, and the script's shape (background jobs, a final wait) around
// it. Any other value the script is built from leaves it unreadable.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// scriptOf reads e as the text of a shell script: a constant, or a
// concatenation or fmt.Sprintf (of a constant format) of constants and
// temporary paths, each path written as {name}.
func (w *walker) scriptOf(e ast.Expr) (string, bool) {
	return w.scriptText(e, 0)
}

func (w *walker) scriptText(e ast.Expr, depth int) (string, bool) {
	if s, ok := w.constOf(e); ok {
		return s, true
	}
	if depth > 4 {
		return "", false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := w.info.Uses[x].(*types.Var); ok {
			if rhs, ok := w.ps.onceLocals()[v]; ok {
				if w.tempPath(rhs, depth+1) {
					return "{" + x.Name + "}", true
				}
				return w.scriptText(rhs, depth+1)
			}
		}
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		// A chain of + nests as deep as it is long: depth counts only
		// the locals followed.
		l, ok := w.scriptPart(x.X, depth)
		if !ok {
			return "", false
		}
		r, ok := w.scriptPart(x.Y, depth)
		return l + r, ok
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(w.info, x).(*types.Func)
		if !ok || !isFunctionNamed(fn, "fmt", "Sprintf") || len(x.Args) == 0 || x.Ellipsis.IsValid() {
			return "", false
		}
		format, ok := constString(w.info, x.Args[0])
		if !ok {
			return "", false
		}
		args := x.Args[1:]
		var b strings.Builder
		for _, loc := range sprintfVerb.FindAllStringIndex(format, -1) {
			b.WriteString(format[:loc[0]])
			verb := format[loc[0]:loc[1]]
			format = format[loc[1]:]
			if verb == "%%" {
				b.WriteByte('%')
				continue
			}
			if len(args) == 0 || strings.ContainsAny(verb, "*[") {
				return "", false
			}
			part, ok := w.scriptPart(args[0], depth)
			if !ok {
				return "", false
			}
			b.WriteString(part)
			args = args[1:]
		}
		b.WriteString(format)
		return b.String(), len(args) == 0
	}
	return "", false
}

// scriptPart reads one operand of a script: text, or a temporary path.
func (w *walker) scriptPart(e ast.Expr, depth int) (string, bool) {
	if w.tempPath(e, depth) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			return "{" + id.Name + "}", true
		}
		return "{path}", true
	}
	return w.scriptText(e, depth)
}

// shellSpecial are the bytes a path must not hold to be read as one word
// that starts no job and ends no command.
const shellSpecial = "&;|\n`$<>(){}'\""

// tempPath reports whether e is a path made only of temporary directories
// (a testing TB's TempDir, os.TempDir) and constant names without shell
// specials, through filepath.Join, path.Join and locals set once.
func (w *walker) tempPath(e ast.Expr, depth int) bool {
	if depth > 6 {
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := w.info.Uses[x].(*types.Var)
		if !ok {
			return false
		}
		rhs, ok := w.ps.onceLocals()[v]
		return ok && w.tempPath(rhs, depth+1)
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(w.info, x).(*types.Func)
		if !ok || x.Ellipsis.IsValid() {
			return false
		}
		switch {
		case fn.Name() == "TempDir" && len(x.Args) == 0 && (isFunctionNamed(fn, "os", "TempDir") || pkgPathOf(fn) == "testing"):
			return true
		case isFunctionNamed(fn, "path/filepath", "Join") || isFunctionNamed(fn, "path", "Join"):
			temp := false
			for _, a := range x.Args {
				if s, ok := constString(w.info, a); ok {
					if strings.ContainsAny(s, shellSpecial) {
						return false
					}
					continue
				}
				if !w.tempPath(a, depth+1) {
					return false
				}
				temp = true
			}
			return temp
		}
	}
	return false
}
