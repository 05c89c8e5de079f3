package execcheck

// A field (or package variable) that keeps the pid or *os.Process of
// several commands: a table of running jobs, `&job{pid: cmd.Process.Pid}`
// in one function and `j.pid = cmd.Process.Pid` in another. A kill
// through the field may reach any of them, so each command gets the
// kills made through it; but the commands are not one: what a function
// does to its own command by its own variable (a watch that kills its
// group, a Cancel) is not done to the other. Joining them (as a field of
// type *exec.Cmd is joined with every command stored in it) took the
// group kill of one for the cancel of the other.

// keptIn is a command made in the package whose pid or process the
// field's instance holds.
type keptIn struct{ field, cmd *instance }

// keep notes that the field's instance holds x's pid or process. A
// command made here (one with creations) is linked to the field, its
// kills given at the end (applyKept); anything else (a parameter, a
// command from where execcheck cannot see) is joined with it, as before,
// so that a helper's summary carries what is done through the field.
func (ps *pkgState) keep(field, x *instance) {
	if len(x.root().p.Creations) == 0 {
		join(field, x)
		return
	}
	ps.kept = append(ps.kept, keptIn{field, x})
}

// applyKept gives each command linked to a field what was done through
// the field: its kills, and where its process was waited for or kept.
func (ps *pkgState) applyKept() {
	type pair struct{ f, x *instance }
	seen := map[pair]bool{}
	for _, k := range ps.kept {
		f, x := k.field.root(), k.cmd.root()
		if f == x || seen[pair{f, x}] {
			continue
		}
		seen[pair{f, x}] = true
		x.p.Kills = append(x.p.Kills, f.p.Kills...)
		if x.p.ProcWait == "" {
			x.p.ProcWait = f.p.ProcWait
		}
		if x.p.ProcKept == "" {
			x.p.ProcKept = f.p.ProcKept
		}
	}
}
