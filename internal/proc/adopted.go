package proc

// ReapAdopted reaps the zombies among the main thread's children that
// nothing else can wait for, and returns them: an orphan the test process
// adopted as child subreaper (a zombie waits for its parent, and no
// os/exec Wait is for it), or a child whose starter dropped its handle.
// It reaps each by pid: never any child (wait4(-1)), never one Go holds a
// pidfd on (os.StartProcess keeps one until its Wait), never one the
// toolkit knows the test process started (see [OriginOf]). A child that
// syscall.ForkExec started, which has no pidfd, is reaped too where it is
// the main thread's and the toolkit did not see it start. It first
// records what it knows of every child ([NoteChildren]).
func ReapAdopted() []Identity {
	if Portable() {
		return nil // it cannot tell adopted from started (see OriginOf)
	}
	NoteChildren()
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
		if o, _ := recorded(id); o != Started && !started[id.PID] && Reap(id) {
			reaped = append(reaped, id)
		}
	}
	return reaped
}
