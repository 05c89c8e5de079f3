package execcheck

// A launcher whose output os/exec copies, with no WaitDelay. Its group
// kill is in Cancel, which os/exec calls only until Wait has seen the
// direct child exit; Wait, called at once, sees it, stops watching the
// context, and then waits for its copying goroutines, that is for every
// process still holding the pipe. A program that exits and leaves a
// descendant on the pipe (a script's Popen, sh -c 'job &') so keeps Wait
// waiting for that descendant's lifetime, and a cancel then calls no
// Cancel: a hang, not only a launcher whose group outlives it. With a
// WaitDelay, Wait closes the pipe and returns: the launcher class. When
// Wait comes only after the output was read (cancel_armed.go), Cancel is
// still armed while the pipe is held, and when no call blocks on Wait (a
// goroutine's, awaited with a timeout: wait_free.go), nothing waits for
// that descendant: neither applies.

import "fmt"

// launcherHang is the verdict of a site whose only cancel is a group
// kill in Cancel (ctxGroup says which), for a program that may be a
// launcher (prog says why), when Wait copies the output with nothing to
// bound it; ok is false otherwise.
func launcherHang(p *props, ctxGroup, prog, armed string) (v verdict, ok bool) {
	if prog == "" || armed != "" || !p.CopyPipe || p.WaitDelay || p.copyUnwaited() {
		return verdict{}, false
	}
	return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait (no WaitDelay): Cancel kills the group (%s), but os/exec calls Cancel only while the direct child runs, and %s; when it exits, Wait stops watching the context and waits for the descendants still holding the pipe, which a cancel no longer reaches", p.CopyWhy, ctxGroup, prog)}, true
}
