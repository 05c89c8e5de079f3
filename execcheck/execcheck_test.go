package execcheck_test

import (
	"testing"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/analysistest"
)

// The testdata packages are one module (testdata/go.mod) that requires
// exectest through a replace to this checkout: the fixes are checked
// against the real cancelpolicy.
var classes = []string{
	"example.com/t/hang",
	"example.com/t/orphan",
	"example.com/t/launcher",
	"example.com/t/ok",
	"example.com/t/indirect",
	"example.com/t/peros",
	"example.com/t/facts/lib",
	"example.com/t/facts/killer",
	"example.com/t/facts/use",
	"example.com/t/ignore",
	"example.com/t/jobsplain",
}

// TestClasses pins every diagnostic of the testdata with its want
// comment: each class positive and negative, each kind of indirection,
// facts across packages, and the suppression directive.
func TestClasses(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), execcheck.Analyzer, classes...)
}

// TestFixes pins the rewrites of -fix in .golden files (for Windows:
// TestJobObjects).
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), execcheck.Analyzer, "example.com/t/fixes", "example.com/t/jobsplain")
}
