package execcheck

// A bufio.Scanner made where the pipe is, scanned elsewhere:
//
//	scanner := bufio.NewScanner(stderr)
//	go func() {
//		for scanner.Scan() { ... }
//	}()
//
// (ddev's share test). The reads are the Scan calls, in the goroutine,
// not the NewScanner: what comes between (a Wait beside them, a join)
// is placed against them there. A scanner handed to a call is read by
// that call, as a pipe is.

import "go/types"

// scanned records the read of a pipe's scanner at its Scan.
func (w *walker) scanned(recv value, fn *types.Func) {
	if recv.pipe == nil || !recv.scanner || !methodOf(fn, "bufio", "Scanner") || fn.Name() != "Scan" {
		return
	}
	w.readToEOFBy(recv, "bufio.NewScanner")
}
