package execcheck

// A kill that comes only after the command's Wait returned: `err :=
// cmd.Wait(); kill(-pgid)` in a helper that waits and then cleans up
// the group. It ends what the direct child left once Wait is back, but
// Wait itself waits for the pipe's EOF: while a descendant holds an
// unbounded pipe, the kill is never reached, and it bounds nothing.

import (
	"go/ast"
	"strings"
)

// dropAfterWait leaves out the kills that come only after Wait returned:
// for a run whose Wait waits on an unbounded pipe, they never come
// while it blocks.
func dropAfterWait(hand []effect) []effect {
	var out []effect
	for _, e := range hand {
		if !e.AfterWait {
			out = append(out, e)
		}
	}
	return out
}

// waitedHere reports whether x's run or Wait came before, outside any
// goroutine, in the function walked.
func (w *walker) waitedHere(x *instance) bool { return w.amongRuns(w.waitedSync, x) }

// readHere reports whether x's pipe was read to EOF before, where the
// walk stands or in goroutines joined since, by a read execcheck knows
// blocks there (not a call of another package that may hand the pipe
// to a goroutine: magic-cli-remote's acp connection): a group kill after that
// read comes only once every holder of the pipe let go, as one after
// Wait does (Vrooli's runner: its select that kills the group on the
// cancel stands after the loop that scans stdout).
func (w *walker) readHere(x *instance) bool {
	if x == nil {
		return false
	}
	r := x.root()
	for _, rd := range w.reads {
		if rd.inst.root() == r && rd.sure && (!rd.async && rd.scope == w.cur.id || rd.joined) {
			return true
		}
	}
	return false
}

// amongRuns reports whether x is one of xs, or a field keeping the
// process of one of them (pid_shared.go): OliveTin's executor kills
// through `req.logEntry.Process` after the Wait of the command whose
// process it keeps.
func (w *walker) amongRuns(xs []*instance, x *instance) bool {
	if among(xs, x) {
		return true
	}
	if x == nil {
		return false
	}
	r := x.root()
	for _, k := range w.ps.kept {
		if k.field.root() == r && among(xs, k.cmd) {
			return true
		}
	}
	return false
}

// armDone ends an arm whose walk began with waited runs or Waits before
// it: the ones the arm added come after the whole statement, not before
// its other arms, which the walk visits next (dex's idle timer kills on
// the arm beside the one that calls Wait and returns); an arm that ends
// in a return adds none.
func (w *walker) armDone(waited int) {
	if !w.returned {
		w.armWaited = append(w.armWaited, w.waitedSync[waited:]...)
	}
	w.waitedSync = w.waitedSync[:waited]
}

// stmtDone ends the statement s, whose walk began with pending arm
// Waits: its arms' Waits now come before what follows.
func (w *walker) stmtDone(s ast.Stmt, pending int) {
	w.waitedSync = append(w.waitedSync, w.armWaited[pending:]...)
	w.armWaited = w.armWaited[:pending]
	_, w.returned = s.(*ast.ReturnStmt)
}

// afterWaitNote names, for a hang, the group kills by hand that come only
// after Wait returned or after the output was read to EOF: the reader
// sees the kill and should know why it is no cover. "" if none.
func afterWaitNote(p *props, reason string) string {
	for _, e := range p.Kills {
		if e.AfterWait && e.Group && !e.Unknown && e.Sig == sigKill && !strings.Contains(reason, e.Why) {
			after := "after Wait returned"
			if e.AfterRead {
				after = "after the output was read to EOF"
			}
			return "; the group kill by hand (" + e.Why + ") comes only " + after + ", which a descendant holding the pipe keeps from ending"
		}
	}
	return ""
}
