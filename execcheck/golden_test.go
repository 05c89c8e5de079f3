package execcheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// TestGoldenCompiles type-checks each package of fixes with its .golden
// files in place of its sources: a rewrite -fix makes must build against
// the real cancelpolicy, for Windows too (package jobs).
func TestGoldenCompiles(t *testing.T) {
	for _, c := range []struct{ dir, goos string }{
		{"fixes", ""}, // the host's
		{"jobsplain", ""},
		{"jobs", "windows"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			pkg := "example.com/t/" + c.dir
			dir := filepath.Join(analysistest.TestData(), c.dir)
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
			if errs := loadErrors(t, pkg, c.goos, overlay); len(errs) > 0 {
				t.Errorf("the golden files do not build:\n%s", strings.Join(errs, "\n"))
			}
			// The check itself fails on a rewrite that does not build.
			broken := map[string][]byte{}
			for f, b := range overlay {
				broken[f] = []byte(strings.ReplaceAll(string(b), "cancelpolicy.Run(", "cancelpolicy.Runs("))
			}
			if errs := loadErrors(t, pkg, c.goos, broken); len(errs) == 0 {
				t.Errorf("golden files calling cancelpolicy.Runs: got no type error, want one")
			}
		})
	}
}

// loadErrors type-checks pkg, for goos ("": the host's), with overlay in
// place of its files, and returns its errors.
func loadErrors(t *testing.T, pkg, goos string, overlay map[string][]byte) []string {
	t.Helper()
	env := append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	if goos != "" {
		env = append(env, "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
	}
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:     analysistest.TestData(),
		Env:     env,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, pkg)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("loaded %d packages, want %s", len(pkgs), pkg)
	}
	var errs []string
	for _, e := range pkgs[0].Errors {
		errs = append(errs, e.Error())
	}
	return errs
}
