package execcheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// TestGoldenCompiles type-checks the package of the fixes with each
// .golden file in place of its source: a rewrite -fix makes must build
// against the real cancelpolicy.
func TestGoldenCompiles(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "fixes")
	goldens, err := filepath.Glob(filepath.Join(dir, "*.go.golden"))
	if err != nil || len(goldens) == 0 {
		t.Fatalf("golden files in %s: got %d (%v), want some", dir, len(goldens), err)
	}
	overlay := map[string][]byte{}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		overlay[strings.TrimSuffix(g, ".golden")] = b
	}
	if errs := loadErrors(t, overlay); len(errs) > 0 {
		t.Errorf("the golden files do not build:\n%s", strings.Join(errs, "\n"))
	}
	// The check itself fails on a rewrite that does not build.
	broken := map[string][]byte{}
	for f, b := range overlay {
		broken[f] = []byte(strings.ReplaceAll(string(b), "cancelpolicy.Run(", "cancelpolicy.Runs("))
	}
	if errs := loadErrors(t, broken); len(errs) == 0 {
		t.Errorf("golden files calling cancelpolicy.Runs: got no type error, want one")
	}
}

// loadErrors type-checks the fixes package with overlay in place of its
// files, and returns its errors.
func loadErrors(t *testing.T, overlay map[string][]byte) []string {
	t.Helper()
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:     analysistest.TestData(),
		Env:     append(os.Environ(), "GOPROXY=off", "GOWORK=off"),
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, "example.com/t/fixes")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("loaded %d packages, want example.com/t/fixes", len(pkgs))
	}
	var errs []string
	for _, e := range pkgs[0].Errors {
		errs = append(errs, e.Error())
	}
	return errs
}
