package execcheck

// A group kill whose group comes from syscall.Getpgid of the command's
// pid, while the command is waited for:
//
//	pgid, err := syscall.Getpgid(p.cmd.Process.Pid) // go-paths-helper
//	...
//	syscall.Kill(-pgid, syscall.SIGKILL)
//
// Wait reaps the direct child as soon as it exits (os/exec's Wait calls
// Process.Wait before it waits for the copy of the output), and getpgid
// of a reaped pid fails (ESRCH): the kill then reaches nothing. So it
// reaches the group only while the direct child runs, as a group kill
// in Cancel does: a launcher that exits at once leaves its group, and a
// copied pipe they hold keeps Wait waiting. kill(-pid) with the pid
// itself has no such limit: the group lives while any member does.

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// splitReaped takes out of hand the group kills found by Getpgid, where
// the command is waited for (a Wait of this run, or elsewhere, in a
// goroutine or not): once the direct child exits, that Wait reaps it,
// and they come only while it runs. A child nothing waits for stays a
// zombie whose pid still names its group; so does one whose only reaper
// follows the kill (waitFollows), unless a Wait beside the command, for
// its whole life, reaps it first (WaitAside).
func splitReaped(rs *runSite, p *props, hand []effect) (rest, leaderOnly []effect) {
	if !(p.Waited || p.ProcWait != "" || rs.kind != runStart) {
		return hand, nil // never reaped: the pid stays the group's
	}
	if rs.kind == runStart && (p.WaitLate != "" || p.ReadsFirst != "") && p.ReadPipe && !p.CopyPipe && p.ProcWait == "" {
		// Wait comes only once the output is read to EOF, and copies
		// none it would wait for after reaping: the child stays an
		// unreaped zombie, its pid the group's, while any holder of the
		// pipe runs (gokcehan/lf's shellKill), as os/exec still calls
		// Cancel then (armedWhy).
		return hand, nil
	}
	for _, e := range hand {
		if e.PgidWaitAfter && p.WaitAside != "" {
			// The Wait after the kill is not the first: one beside the
			// command reaps the child as soon as it exits (enma's
			// stopDaemon, with `go cmd.Wait()` where it was started).
			e.ByGetpgid = true
		}
		if e.ByGetpgid && e.Group && !e.Unknown {
			leaderOnly = append(leaderOnly, e)
		} else {
			rest = append(rest, e)
		}
	}
	return rest, leaderOnly
}

// dropBesideReaped leaves out the kills of the direct child that come
// with a group kill found by Getpgid (in the same function, not on
// another arm): while the child runs, the group kill reaches it too,
// and once Wait has reaped it neither reaches anything (kubectl-ai's
// killProcessGroup: Getpgid, kill(-pgid), then Process.Kill).
func dropBesideReaped(hand, leaderOnly []effect) []effect {
	if len(leaderOnly) == 0 {
		return hand
	}
	var out []effect
	for _, e := range hand {
		beside := false
		for _, l := range leaderOnly {
			beside = beside || !e.Group && !e.Unknown && l.scope == e.scope && l.scope != 0 && !alternative(e, l)
		}
		if !beside {
			out = append(out, e)
		}
	}
	return out
}

// leaderOnlyVerdict classes a run whose only group kill comes only while
// the direct child runs (found by Getpgid of a pid Wait reaps, or in a
// watch that ends when a bounded Wait returns), as a group kill in
// Cancel is classed.
// how says why the kill comes only while the direct child runs
// (leaderOnlyHow).
func leaderOnlyVerdict(p *props, how string, pipe, unbounded bool, pipeWhy string) verdict {
	prog := launcherWhy(p)
	switch {
	case prog != "" && pipe && unbounded:
		return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait%s: %s, and %s; when it exits, Wait waits for the descendants still holding the pipe, which a cancel no longer reaches", pipeWhy, noWaitDelay(p), how, prog)}
	case prog != "":
		return verdict{class: Launcher, handled: true, reason: fmt.Sprintf("%s, and %s: its group keeps running after it exits", how, prog)}
	case pipe && unbounded:
		return verdict{class: Hang, handled: true, reason: fmt.Sprintf("%s and nothing bounds Wait%s: %s, and a descendant that leaves the group (setsid, a daemon) keeps Wait waiting", pipeWhy, noWaitDelay(p), how)}
	}
	if strings.Contains(how, "only until Wait returns") {
		return verdict{class: OK, reason: fmt.Sprintf("%s; %s", how, programWhy(p))} // how says Wait is bounded
	}
	return verdict{class: OK, reason: fmt.Sprintf("%s, and Wait is bounded (%s); %s", how, boundWhy(p), programWhy(p))}
}

// waitFollows reports whether a Wait of an *exec.Cmd or an *os.Process
// comes after the kill c in the function (or literal) it stands in, as
// air's killCmd does (Getpgid, kill the group, then Process.Wait): the
// child is not reaped before that kill.
func (w *walker) waitFollows(c *ast.CallExpr) bool {
	var body *ast.BlockStmt
	if w.cur != nil && w.cur.body != nil {
		body = w.cur.body
	} else if d := w.ps.decls[w.fn]; d != nil {
		body = d.Body
	}
	if body == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found || call.Pos() <= c.End() {
			return !found
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
			if fn, _ := w.info.Uses[sel.Sel].(*types.Func); methodOf(fn, "os/exec", "Cmd") || methodOf(fn, "os", "Process") {
				found = true
			}
		}
		return !found
	})
	return found
}

// leaderOnlyHow says why the group kills es, of group g, come only while
// the direct child runs.
func leaderOnlyHow(es []effect, g string, p *props) string {
	for _, e := range es {
		if e.UntilWait != "" && !e.ByGetpgid {
			return fmt.Sprintf("a kill by hand reaches the group (%s) only until Wait returns (%s), and nothing holds Wait long after the direct child exits (%s)", g, e.UntilWait, boundWhy(p))
		}
	}
	return fmt.Sprintf("a kill by hand reaches the group (%s) only while the direct child runs: it finds the group by syscall.Getpgid of the child's pid, which fails once Wait has reaped it", g)
}

// byGetpgidOnly reports whether every kill of es finds its group by
// Getpgid.
func byGetpgidOnly(es []effect) bool {
	for _, e := range es {
		if !e.ByGetpgid {
			return false
		}
	}
	return len(es) > 0
}
