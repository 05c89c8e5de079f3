package execcheck

// A group kill a timer makes, armed beside the run:
//
//	timer := time.AfterFunc(30*time.Second, func() {
//		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
//	})
//	defer timer.Stop()
//	out, err := cmd.CombinedOutput()
//
// (BlueDoraemon/kite's bash tool). It is no watch of the cancel, but it
// bounds Wait as WaitDelay does, and more: by the timer's time whatever
// in the group still holds the copied pipe is killed. A cancel that
// kills only the direct child then leaves an orphan, not a hang.

// timerScope marks the scope of a function literal walked as
// time.AfterFunc's.
func (w *walker) timerScope(sc *scope) {
	if w.timerNext == "" {
		return
	}
	if w.timers == nil {
		w.timers = map[int]string{}
	}
	w.timers[sc.id], w.timerNext = w.timerNext, ""
}

// timerKill records, for a SIGKILL of target's group made in a timer's
// literal, the timer: it bounds the copy of target's output.
func (w *walker) timerKill(target *instance, e effect) {
	t := w.timers[w.cur.id]
	if t == "" || target == nil || !e.Group || e.Sig != sigKill || e.Unknown || e.ByGetpgid || w.waitedHere(target) {
		return // a timer armed once Wait returned bounds no Wait
	}
	if r := target.root(); r.p.TimerKill == "" {
		r.p.TimerKill = e.Why + " in " + t + " kills the group, and whatever still holds the pipe, by then"
	}
}

// timerBound reports whether a timer's group kill bounds the copy: the
// command is in a group of its own on every arm, so -pid is its group.
func (p *props) timerBound() bool {
	return p.TimerKill != "" && p.Group && p.GroupArm == ""
}
