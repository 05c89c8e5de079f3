package execcheck_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsOfTheToolkit: golang.org/x/tools is a dependency of the checker
// alone. The packages users import into tests and production code (the
// root, proctest, fixtures, cancelpolicy) never link it.
func TestDepsOfTheToolkit(t *testing.T) {
	for _, pkg := range []string{"github.com/exectest/exectest", "github.com/exectest/exectest/proctest", "github.com/exectest/exectest/fixtures", "github.com/exectest/exectest/cancelpolicy"} {
		if got := toolsDeps(t, pkg); len(got) > 0 {
			t.Errorf("go list -deps %s: got %s, want no golang.org/x/tools package", pkg, strings.Join(got, ", "))
		}
	}
	// The check sees x/tools where it is.
	if got := toolsDeps(t, "github.com/exectest/exectest/execcheck"); len(got) == 0 {
		t.Errorf("go list -deps execcheck: got no golang.org/x/tools package, want go/analysis among them")
	}
}

func toolsDeps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	var tools []string
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "golang.org/x/tools") {
			tools = append(tools, p)
		}
	}
	return tools
}
