package proc

import "os"

// Adopted reports whether a process whose parent is ppid is a child of
// the test process that the test process did not start: an orphan that
// came to it, the child subreaper, when its own parent exited (a double
// fork, a setsid daemon, the last process of a group another library
// killed). Only the Linux mode can tell, and only where Go starts every
// process with a pidfd (Linux 5.4 and later, as Go decides): every
// process that os.StartProcess, and so os/exec, started and that nobody
// has waited for yet has one in the test process, so a child without one
// came to it. Elsewhere it reports false.
func Adopted(id Identity, ppid int) bool {
	if ppid != os.Getpid() {
		return false
	}
	started, ok := current().startedHere()
	return ok && !started[id.PID]
}

// ReapAdopted reaps the zombies among the test process's adopted children
// (see [Adopted]) and returns them. Nobody else can: a zombie waits for
// its parent, and no os/exec Wait is for it. It never waits for any
// child (wait4(-1)) and never for a child that os.StartProcess started; a
// process started with syscall.ForkExec, which has no pidfd, counts as
// adopted, and its zombie is reaped here too.
func ReapAdopted() []Identity {
	if Portable() {
		return nil // it cannot tell adopted from started (see Adopted)
	}
	// Zombies first, pidfds after: a child started after the look at the
	// pidfds could be a zombie by the look at the children.
	var zombies []Identity
	for _, pid := range adoptedBy() {
		if id, err := Identify(pid); err == nil {
			if s, err := id.Stat(); err == nil && s.Zombie() {
				zombies = append(zombies, id)
			}
		}
	}
	if len(zombies) == 0 {
		return nil
	}
	started, ok := current().startedHere()
	if !ok {
		return nil
	}
	var reaped []Identity
	for _, id := range zombies {
		if !started[id.PID] && Reap(id) {
			reaped = append(reaped, id)
		}
	}
	return reaped
}
