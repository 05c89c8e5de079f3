package execcheck

// Output pipes read by hand, and pipes handed back by the helper that
// starts the command. A loop of Read (or of a bufio.Reader's ReadString,
// ReadBytes, ...) on a StdoutPipe until an error reads it until EOF, as
// io.Copy and a bufio.Scanner do: it lasts as long as any descendant
// holds the pipe. A pipe a function returns is followed to its caller
// (summary.Pipes), where it is read.

import (
	"fmt"
	"go/ast"
	"go/types"
)

// readMethods are the methods of a reader that read a piece of it: in a
// loop, they read until EOF.
var readMethods = map[string]bool{
	"Read": true, "ReadString": true, "ReadBytes": true, "ReadLine": true,
	"ReadSlice": true, "ReadRune": true, "ReadByte": true,
}

// readInLoop records a read of a command's pipe by a method of the pipe
// (or of a bufio.Reader on it) called in a loop: a read until EOF.
func (w *walker) readInLoop(recv value, fn *types.Func, c *ast.CallExpr) {
	if recv.pipe == nil || fn == nil || w.loops == 0 || !readMethods[fn.Name()] {
		return
	}
	w.readToEOFBy(recv, "a loop of "+types.ExprString(c.Fun), true)
}

// closedByHand records a Close of a command's output pipe (recv) made
// in a function literal that runs apart from the reads (a goroutine's, a
// timer's or context.AfterFunc's: not a deferred call, not a callback
// called where it stands, not after a read in the same literal): the
// reads end when it comes, as they do when Wait closes the pipe. In a
// closure bound to a name, the Close waits for the closure's call
// (agentsdk-go's closePipes, called by the goroutine that watches the
// context).
func (w *walker) closedByHand(recv value, fn *types.Func, c *ast.CallExpr) {
	if recv.pipe == nil || fn == nil || fn.Name() != "Close" {
		return
	}
	w.pipeClose(recv.pipe, c)
}

// pipeClose records the Close c of the pipe x where the walk stands.
func (w *walker) pipeClose(x *instance, c *ast.CallExpr) {
	if w.cur == w.top || w.inDefer > 0 {
		return
	}
	r := x.root()
	for _, rd := range w.reads {
		if rd.inst.root() == r && rd.scope == w.cur.id {
			return
		}
	}
	if w.inGo == 0 && !w.later[w.cur.id] {
		if w.deferTo != nil {
			w.deferTo.closes = append(w.deferTo.closes, pipeCloseAt{x, c})
		}
		return
	}
	if r.p.PipeClosed == "" {
		r.p.PipeClosed = fmt.Sprintf("%s (%s), in a function literal apart from the reads, closes the pipe by hand: the reads end then", types.ExprString(c), w.ps.where(c.Pos()))
		r.p.PipeClosedIn = w.cur.id
	}
}

// pipeCloseAt is a Close of an output pipe a closure makes, kept for the
// closure's call.
type pipeCloseAt struct {
	pipe *instance
	call *ast.CallExpr
}

// pipeResult is a result of a function that is an output pipe of a
// command (of the command it returns, Param < 0, or of a parameter), or
// the pid or process group of a command or pid parameter (What "pid": a
// function that returns syscall.Getpgid(cmd.Process.Pid), or
// syscall.Getpgid(pid)).
type pipeResult struct {
	Idx   int
	What  string // "stdout", "stderr" or "pid"
	Param int
}

// pipeResults records, in the summary, the results that are pipes: of
// the command returned, of a command parameter, or (same package only)
// of any command the package keeps, such as a field's.
func (w *walker) pipeResults(s *summary) {
	var made *instance
	if s.ResultIdx >= 0 && s.ResultIdx < len(w.results) && w.results[s.ResultIdx].inst != nil {
		made = w.results[s.ResultIdx].inst.root()
	}
	for i, v := range w.results {
		if v.pid != nil && v.pipe == nil && v.inst == nil {
			if r := v.pid.root(); r.param >= 0 && !r.closure {
				s.Pipes = append(s.Pipes, pipeResult{Idx: i, What: "pid", Param: r.param})
			}
			continue
		}
		if v.pipe == nil {
			continue
		}
		r := v.pipe.root()
		if w.curFn == nil {
			w.ps.pipeOuts = append(w.ps.pipeOuts, pipeOut{pipe: r, what: v.what, fn: w.fn})
		}
		switch {
		case r == made:
			s.Pipes = append(s.Pipes, pipeResult{Idx: i, What: v.what, Param: -1})
		case r.param >= 0 && !r.closure:
			s.Pipes = append(s.Pipes, pipeResult{Idx: i, What: v.what, Param: r.param})
		default:
			if s.pipeInsts == nil {
				s.pipeInsts = map[int]value{}
			}
			s.pipeInsts[i] = value{pipe: r, what: v.what}
		}
	}
}

// applyPipes sets, at a call, the results that are pipes: res holds the
// results so far (the command made at the call, at ResultIdx).
func (s *summary) applyPipes(res []value, argVal func(int) value) {
	for _, p := range s.Pipes {
		if p.Idx >= len(res) {
			continue
		}
		var x *instance
		if p.Param < 0 {
			if s.ResultIdx >= 0 && s.ResultIdx < len(res) {
				x = res[s.ResultIdx].inst
			}
		} else {
			x = argVal(p.Param).inst
			if a := argVal(p.Param); x == nil && p.What == "pid" && a.inst == nil {
				// A pid given, its group returned (pipelock's
				// captureChildPgid(cmd.Process.Pid), taken right after
				// Start): the group of that pid's command.
				x = procOf(a)
			}
		}
		switch {
		case x == nil:
		case p.What == "pid":
			res[p.Idx] = value{pid: x}
		default:
			res[p.Idx] = value{pipe: x, what: p.What}
		}
	}
	for i, v := range s.pipeInsts {
		if i < len(res) {
			res[i] = v
		}
	}
}

// pipesBrief is the Pipes of a fact, as its String shows them.
func pipesBrief(ps []pipeResult) []string {
	var out []string
	for _, p := range ps {
		of := "the command returned"
		if p.Param >= 0 {
			of = fmt.Sprintf("param %d", p.Param)
		}
		out = append(out, fmt.Sprintf("result %d: %s of %s", p.Idx, p.What, of))
	}
	return out
}
