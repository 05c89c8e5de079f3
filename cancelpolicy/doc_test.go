package cancelpolicy_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// go doc cancelpolicy.Run is where a reader decides: it must say which
// commands Run takes, what its ctx does next to the command's own context,
// and when to pick Run, Start or Apply. Before, it said "Run is Start
// followed by Started.Wait" and nothing else.
func TestRunDocSaysWhatCtxDoesAndWhichEntryPoint(t *testing.T) {
	got := strings.Join(strings.Fields(funcDoc(t, "Run")), " ")
	for _, want := range []string{
		"[exec.Command] or [exec.CommandContext]", // which commands
		"ctx is what stops the tree",              // Run's ctx
		"The command's own context",               // exec.CommandContext's
		"in place of cmd.Run",                     // when Run
		"[Start] and then [Started.Wait]",         // when Start
		"[Apply], only where",                     // when Apply
	} {
		if !strings.Contains(got, want) {
			t.Errorf("doc of Run: got\n%s\nwant it to say %q", got, want)
		}
	}
}

// funcDoc is the doc comment of the package's function name.
func funcDoc(t *testing.T, name string) string {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/exectest/exectest/cancelpolicy")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pkg.Funcs {
		if f.Name == name {
			return f.Doc
		}
	}
	t.Fatalf("no function %s in the package", name)
	return ""
}
