package execcheck_test

import (
	"testing"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestFamilies pins the families of misses found on real fix commits
// (issue 31), each reduced from real code to a package of testdata.
func TestFamilies(t *testing.T) {
	for _, pkg := range []string{
		"ctxbranch",
		"pkgfunc",
		"filewriter",
		"readloop",
		"armed",
		"watch",
	} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/"+pkg)
		})
	}
}
