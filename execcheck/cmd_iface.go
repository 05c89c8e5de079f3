package execcheck

// An interface the package declares so that a test can fake the
// command: `type command interface{ Wait() error }`, and a helper
// `monitorCommand(ctx, cmd command)` that calls cmd.Wait(). Such an
// interface, whose methods are all *exec.Cmd's and which runs or waits
// for it, holds a command as *exec.Cmd does: the helper's calls are the
// command's.

import "go/types"

// cmdMethods are *exec.Cmd's methods, by name, with their signatures.
var cmdMethods = map[string]string{
	"Wait":           "func() error",
	"Run":            "func() error",
	"Start":          "func() error",
	"Output":         "func() ([]byte, error)",
	"CombinedOutput": "func() ([]byte, error)",
	"String":         "func() string",
	"Environ":        "func() []string",
	"StdoutPipe":     "func() (io.ReadCloser, error)",
	"StderrPipe":     "func() (io.ReadCloser, error)",
	"StdinPipe":      "func() (io.WriteCloser, error)",
}

// cmdLike reports whether t is an interface every method of which is
// one of *exec.Cmd's, among them one that runs or waits for it.
func cmdLike(t types.Type) bool {
	it, ok := types.Unalias(t).Underlying().(*types.Interface)
	if !ok || it.NumMethods() == 0 {
		return false
	}
	runs := false
	for m := range it.Methods() {
		sig := types.TypeString(m.Type(), func(p *types.Package) string { return p.Name() })
		if cmdMethods[m.Name()] != sig {
			return false
		}
		switch m.Name() {
		case "Wait", "Run", "Start", "Output", "CombinedOutput":
			runs = true
		}
	}
	return runs
}
