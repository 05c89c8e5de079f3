package execcheck

// One command run two ways (goutils' one-shot process: CombinedOutput
// when its output is logged, Run otherwise): the copy CombinedOutput
// makes is that run's alone. A Run or Start of the same command, with no
// writer set, copies nothing.

// runCopy is p as the run rs sees it: with no copy when the only copy
// is another run's Output or CombinedOutput.
func runCopy(rs *runSite, p *props) *props {
	if !p.OutputOnly || rs.kind == runOutput || rs.kind == runCombined {
		return p
	}
	q := *p
	q.CopyPipe, q.CopyWhy, q.CopyParam, q.OutputOnly = false, "", 0, false
	return &q
}
