package execcheck

// A kill that comes only after the command's Wait returned: `err :=
// cmd.Wait(); kill(-pgid)` in a helper that waits and then cleans up
// the group. It ends what the direct child left once Wait is back, but
// Wait itself waits for the pipe's EOF: while a descendant holds an
// unbounded pipe, the kill is never reached, and it bounds nothing.

// dropAfterWait leaves out the kills that come only after Wait returned:
// for a run whose Wait waits on an unbounded pipe, they never come
// while it blocks.
func dropAfterWait(hand []effect) []effect {
	var out []effect
	for _, e := range hand {
		if !e.AfterWait {
			out = append(out, e)
		}
	}
	return out
}

// waitedHere reports whether x's run or Wait came before, outside any
// goroutine, in the function walked.
func (w *walker) waitedHere(x *instance) bool { return among(w.waitedSync, x) }
