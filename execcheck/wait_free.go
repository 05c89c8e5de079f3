package execcheck

// A Wait that is never called. os/exec's copy of the output ends only at
// the pipe's EOF, and only cmd.Wait waits for it: a command started and
// never waited for (by Wait or Process.Wait) blocks no call while a
// descendant holds the pipe, and the cancel that reaches only the direct
// child is an orphan, not a hang, as with Process.Wait (procwait). A
// Wait in a goroutine still lasts while the pipe is held: by the class's
// definition that is a hang, whoever waits for the goroutine.

// waitsFree sets WaitFree on the commands started here, by no helper,
// held by no exported variable or field, whose Wait is never called.
func (ps *pkgState) waitsFree() {
	seen := map[*instance]bool{}
	for _, x := range ps.all {
		r := x.root()
		if seen[r] || len(r.p.Creations) == 0 || len(r.p.Escapes) > 0 || ps.exported(r) {
			continue
		}
		seen[r] = true
		started, here := false, true
		for _, rs := range r.runs {
			started = started || rs.kind == runStart
			here = here && rs.via == "" // a helper's Start: it, or what keeps the command, may Wait
		}
		// Waited is set by a Wait here or in a helper given the command.
		if started && here && !r.p.Waited && r.p.ProcWait == "" {
			r.p.WaitFree = "cmd.Wait is never called: nothing waits for os/exec's copy of the output"
		}
	}
}

// exported reports whether r is held by an exported package variable or
// field, whose users in other packages may call its Wait.
func (ps *pkgState) exported(r *instance) bool {
	for v, x := range ps.fields {
		if v.Exported() && x.root() == r {
			return true
		}
	}
	return false
}
