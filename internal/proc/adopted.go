package proc

// ReapAdopted reaps the zombies among the main thread's children that
// nothing else can wait for, and returns them: an orphan the test process
// adopted as child subreaper (a zombie waits for its parent, and no
// os/exec Wait is for it), or a child whose starter dropped its handle.
// It reaps each by pid: never any child (wait4(-1)), never one Go holds a
// pidfd on (os.StartProcess keeps one until its Wait), never one the
// toolkit saw started by the test process (see [OriginOf]). A child that
// syscall.ForkExec started, which has no pidfd, is reaped too where it is
// the main thread's and the toolkit did not see it start.
//
// On the way it remembers what it learns of the main thread's children
// (see [OriginOf]): one Go holds a pidfd on was started by the test
// process, and stays so known once the pidfd is gone; of one without,
// the origin cannot be told, now or later, unless it was seen with
// another parent. It reads the test process's pidfds only for a child it
// has not met yet or a zombie: the steady state costs one read of the
// main thread's children and a stat each.
func ReapAdopted() []Identity {
	if Portable() {
		return nil // it cannot tell adopted from started (see OriginOf)
	}
	// Zombies first, pidfds after: a child started after the look at the
	// pidfds could be a zombie by the look at the children.
	var zombies, fresh []Identity
	for _, pid := range adoptedBy() {
		s, err := ReadStat(pid)
		if err != nil {
			continue
		}
		id := Identity{PID: pid, Start: s.Start}
		if _, known := recorded(id); !known {
			fresh = append(fresh, id)
		}
		if s.Zombie() {
			zombies = append(zombies, id)
		}
	}
	if len(zombies) == 0 && len(fresh) == 0 {
		return nil
	}
	started, ok := current().startedHere()
	if canAdopt() {
		for _, id := range fresh {
			if ok && started[id.PID] {
				record(id, Started)
			} else {
				record(id, OriginUnknown)
			}
		}
	}
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
