package execcheck

// Reads no call blocks on, of a command nothing waits for (ddev's WSL
// probe):
//
//	stdout, _ := cmd.StdoutPipe()
//	cmd.Start()
//	defer cmd.Process.Kill()
//	go func() { for { n, err := stdout.Read(buf); ...; lines <- s } }()
//	select { case l := <-lines: ...; case <-time.After(10 * time.Second): }
//
// The reads last while a descendant holds the pipe, but only the
// goroutine waits for them, and every wait for that goroutine has a
// timeout: as with a Wait no call blocks on (wait_free.go), a cancel
// that reaches only the direct child leaves an orphan, not a hang.

import "strings"

// readsFree sets ReadsFree on the commands started here whose pipe is
// read only in goroutine literals that nothing awaits without a bound,
// and whose Wait is never called.
func (ps *pkgState) readsFree() {
	seen := map[*instance]bool{}
	for _, x := range ps.all {
		r := x.root()
		if seen[r] {
			continue
		}
		seen[r] = true
		p := &r.p
		if !p.ReadPipe || r.syncRead || len(r.asyncReads) == 0 || p.Waited || p.ProcWait != "" ||
			r.syncWait || len(r.asyncWaits) > 0 || len(p.Escapes) > 0 || len(p.Creations) == 0 || ps.exported(r) {
			continue
		}
		started := false
		here := true
		for _, rs := range r.runs {
			started = started || rs.kind == runStart
			here = here && rs.via == "" && rs.kind == runStart
		}
		if !started || !here {
			continue
		}
		var where []string
		ok := true
		for _, body := range r.asyncReads {
			if ps.waitGroupDone(body) != "" {
				ok = false
			}
			for _, ch := range ps.signalled(body) {
				at, bounded, _ := ps.awaits(ch)
				ok = ok && bounded
				where = append(where, at...)
			}
		}
		if !ok {
			continue
		}
		why := "cmd.Wait is never called, and the pipe is read only in goroutines nothing waits for"
		if len(where) > 0 {
			why = "cmd.Wait is never called, and the pipe is read only in goroutines every wait for which has a timeout or a default (" + strings.Join(uniq(where), ", ") + ")"
		}
		p.ReadsFree = why + ": no call blocks on the reads"
	}
}
