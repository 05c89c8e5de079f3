package execcheck

// A helper that makes (or is given) a command and reads its output pipe
// in goroutines of its own, which it does not join, then returns:
//
//	cmd := exec.CommandContext(ctx, name, args...)
//	stdout, _ := cmd.StdoutPipe()
//	go logOutput(stdout) // until EOF
//	return cmd, nil
//
// Its caller's Run or Wait comes while those reads run (gotenberg's
// xexec): it closes the pipe once the direct child exits, which ends
// them, as a Wait beside reads in goroutines of the caller's own does
// (cancel_armed.go). The summary carries the fact (props.ReadsApart),
// to callers in the package and, as a fact, in other packages.

import "fmt"

// readsApart says, for the summary of r (a parameter or a result of the
// function walked), in which goroutines its pipe is read when every read
// of it is in a goroutine the function started and did not join, and no
// read stands outside one; "" otherwise.
func (w *walker) readsApart(r *instance) string {
	if !r.p.ReadPipe || r.syncRead {
		return ""
	}
	apart := false
	for _, rd := range w.reads {
		if rd.inst.root() != r {
			continue
		}
		if !rd.async || rd.joined {
			return ""
		}
		apart = true
	}
	switch {
	case apart && w.fn != nil:
		return fmt.Sprintf("started by %s.%s, which returned", w.fn.Pkg().Name(), w.fn.Name())
	case apart:
		return "started by a function that returned"
	}
	// Read in a helper this function called, which returned.
	return r.p.ReadsApart
}
