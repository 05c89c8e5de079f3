package execcheck

// The exec model's calls: what a call of os/exec, os, syscall, context or
// cancelpolicy does to a command (makes it, runs it, kills it, hands out
// its pipe). The walker's call routes every call it knows here.

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// knownCall handles a call whose meaning execcheck knows, by what the
// callee is: a method of *exec.Cmd or *os.Process, exec.Command and
// exec.CommandContext, a context constructor, a kill of a pid
// (syscall.Kill, unix.Kill, Killpg), cancelpolicy's Run, Start and
// Apply, reflect.ValueOf and time.AfterFunc; and a command's output pipe
// passed to a reader. It reports false for any other call, which call
// then follows through the callee's summary or as a call it cannot
// follow.
func (w *walker) knownCall(c *ast.CallExpr, fn *types.Func, recv value, recvExpr ast.Expr, methodExpr bool, args []value) ([]value, bool) {
	if methodExpr && methodOf(fn, "os/exec", "Cmd") {
		return w.cmdMethod(c, fn.Name(), args[0], c.Args[0], true), true
	}
	if recv.pipe != nil && fn != nil && fn.Name() == "WriteTo" {
		w.readToEOF(recv, fn)
	}
	w.readInLoop(recv, fn, c)
	w.scanned(recv, fn)
	w.closedByHand(recv, fn, c)
	for i, a := range args {
		if a.pipe == nil {
			continue
		}
		switch {
		case isFunctionNamed(fn, "bufio", "NewReader", "NewReaderSize") || isFunctionNamed(fn, "io", "TeeReader", "LimitReader", "NopCloser"):
			return []value{{pipe: a.pipe, what: a.what}}, true
		case isFunctionNamed(fn, "bufio", "NewScanner") && w.scannerLocal(c):
			// Read where it is scanned: in a goroutine, maybe, though
			// made outside it (scanned.go).
			return []value{{pipe: a.pipe, what: a.what, scanner: true}}, true
		case isFunctionNamed(fn, "bufio", "NewScanner") && w.scannedOnce(c):
			// One token a call, in a field: no read to EOF (scanned_once.go).
			if r := a.pipe.root(); r.p.ScannedOnce == "" {
				r.p.ScannedOnce = fmt.Sprintf("its %s pipe is scanned one token a call (the scanner made at %s), never to EOF: Wait closes it once the direct child exits", cmp.Or(a.what, "output"), w.ps.where(c.Pos()))
			}
		case w.storedPipeParam(fn, i) != nil:
			// Only stored in a field: read where the field is (pipe_stored.go).
			w.keepPipe(w.storedPipeParam(fn, i), a)
		case isFunctionNamed(fn, "io", "ReadFull", "ReadAtLeast"):
		case fn != nil && w.ps.readsInGoroutine(fn, i, w.pos == c.Pos()):
			// Read in a goroutine the helper starts (reads_aside.go).
			w.inGo++
			w.readToEOF(a, fn)
			w.inGo--
		default:
			w.readToEOF(a, fn)
		}
	}
	if vals, ok := w.atomicProcCall(fn, recv, args); ok {
		return vals, true
	}
	switch {
	case methodOf(fn, "os/exec", "Cmd"):
		return w.cmdMethod(c, fn.Name(), recv, recvExpr, false), true
	case fn != nil && isInterfaceMethod(fn) && recv.inst != nil && cmdLike(fn.Signature().Recv().Type()):
		return w.cmdMethod(c, fn.Name(), recv, recvExpr, false), true
	case methodOf(fn, "os", "Process"):
		if recv.proc != nil || w.cancelOwner != nil || w.deferTo != nil {
			switch fn.Name() {
			case "Kill":
				w.killBy(recv.proc, recv.neg, w.byPgid(recv.proc, recv.neg, recv.byPgid, c), value{isSig: true, sig: sigKill, sigParam: -1, closureSig: -1}, types.ExprString(c))
			case "Signal":
				if len(c.Args) == 1 {
					w.killBy(recv.proc, recv.neg, w.byPgid(recv.proc, recv.neg, recv.byPgid, c), w.sigOf(c.Args[0]), types.ExprString(c))
				}
			case "Wait":
				if recv.proc != nil {
					w.procWaited(recv.proc, c)
				}
			}
		}
		return nil, true
	case isFunctionNamed(fn, "os/exec", "Command"):
		x := w.ps.newInstance()
		w.made(x, c, nil, c.Args, c.Ellipsis.IsValid())
		return []value{{inst: x}}, true
	case isFunctionNamed(fn, "os/exec", "CommandContext"):
		x := w.ps.newInstance()
		if len(c.Args) > 0 {
			w.made(x, c, c.Args[0], c.Args[1:], c.Ellipsis.IsValid())
		}
		return []value{{inst: x}}, true
	case isTestContext(fn):
		return []value{{isCtx: true, ctx: ctxTest, ctxScope: w.cur.id}}, true
	case isFunctionNamed(fn, "context", "Background", "TODO"):
		return []value{{isCtx: true, ctx: ctxBackground}}, true
	case isFunctionNamed(fn, "context", "WithCancel", "WithCancelCause") && len(args) == 1:
		if how := w.cancelledAtEnd(c, args[0]); how != "" {
			return []value{{isCtx: true, ctx: ctxTest, ctxScope: w.cur.id, ctxHow: how}}, true
		}
		return []value{{isCtx: true, ctx: ctxCancel, ctxOwn: args[0].isCtx && args[0].ctx == ctxBackground}}, true
	case isFunctionNamed(fn, "context", "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause") && len(args) > 0:
		never := args[0].isCtx && (args[0].ctx == ctxBackground || args[0].ctx == ctxTest)
		return []value{{isCtx: true, ctx: ctxCancel, ctxDeadline: never}}, true
	case pkgPathOf(fn) == "context" && len(fn.Name()) > 4 && fn.Name()[:4] == "With":
		return []value{{isCtx: true, ctx: ctxCancel}}, true
	case isUnixPkg(pkgPathOf(fn)) && (fn.Name() == "Kill" || fn.Name() == "Killpg"):
		if len(c.Args) == 2 {
			t := args[0]
			group := t.neg || fn.Name() == "Killpg"
			if u, ok := ast.Unparen(c.Args[0]).(*ast.UnaryExpr); ok && u.Op == token.SUB {
				group = true
			}
			w.killBy(t.pid, group, w.byPgid(t.pid, group, t.byPgid, c), w.sigOf(c.Args[1]), types.ExprString(c))
		}
		return nil, true
	case isUnixPkg(pkgPathOf(fn)) && fn.Name() == "Getpgid":
		if len(args) == 1 {
			return []value{{pid: args[0].pid, byPgid: args[0].pid != nil}, {pgidErr: args[0].pid}}, true
		}
		return nil, true
	case pkgPathOf(fn) == cancelpolicyPath:
		return w.policy(c, fn, args), true
	case isFunctionNamed(fn, "reflect", "ValueOf"):
		if len(args) == 1 && args[0].inst != nil {
			r := args[0].inst.root()
			if r.p.Reflected == "" {
				r.p.Reflected = types.ExprString(c) + " at " + w.ps.where(c.Pos())
			}
		}
		return []value{{}}, true
	case isFunctionNamed(fn, "os", "FindProcess"):
		// The process of a pid: on Unix it always succeeds and is that
		// pid's process, whose kills are the pid's; of -pid, its group's
		// (kitproj/kit: os.FindProcess(-pgid).Signal(syscall.SIGTERM)).
		if len(args) == 1 && args[0].pid != nil {
			return []value{{proc: args[0].pid, neg: args[0].neg, byPgid: args[0].byPgid}, {}}, true
		}
		return []value{{}, {}}, true
	case isFunctionNamed(fn, "time", "AfterFunc"):
		if len(args) == 2 && args[1].fn != nil {
			w.callFn(args[1].fn, nil, nil, c)
		}
		return []value{{}}, true
	}
	return nil, false
}

// cmdMethod handles a method of *exec.Cmd, called at c, or through a
// method value at c (methodValue: f := cmd.Output; f()).
func (w *walker) cmdMethod(c *ast.CallExpr, name string, recv value, recvExpr ast.Expr, methodValue bool) []value {
	x := recv.inst
	if x == nil {
		x = w.ps.newInstance()
	}
	r := x.root()
	switch name {
	case "Wait":
		w.waited(x, c)
		return []value{{waitErr: true}}
	case "Run":
		w.addRun(x, &runSite{kind: runRun, call: c, pos: c.Pos(), cmdExpr: recvExpr, methodValue: methodValue})
		return []value{{waitErr: true}}
	case "Start":
		w.addRun(x, &runSite{kind: runStart, call: c, pos: c.Pos(), cmdExpr: recvExpr, methodValue: methodValue})
		return []value{{}}
	case "Output", "CombinedOutput":
		if !r.p.CopyPipe {
			r.p.CopyPipe, r.p.CopyWhy, r.p.OutputOnly = true, fmt.Sprintf("the output is collected by %s()", name), true
		}
		k := runOutput
		if name == "CombinedOutput" {
			k = runCombined
		}
		w.addRun(x, &runSite{kind: k, call: c, pos: c.Pos(), cmdExpr: recvExpr, methodValue: methodValue})
		return []value{{}, {waitErr: true}}
	case "StdoutPipe", "StderrPipe":
		what := "stdout"
		if name == "StdoutPipe" {
			r.p.StdoutSet = true
		} else {
			r.p.StderrSet = true
			what = "stderr"
		}
		return []value{{pipe: x, what: what}, {}}
	}
	return []value{{}, {}}
}

// readToEOF records that a command's output pipe is read until EOF (by
// io.ReadAll, io.Copy, a bufio.Scanner, or a call execcheck does not
// follow): that read lasts as long as any descendant holds the pipe.
func (w *walker) readToEOF(v value, fn *types.Func) {
	by := "a function value"
	if fn != nil {
		by = fn.Name()
		if fn.Pkg() != nil {
			by = fn.Pkg().Name() + "." + by
		}
	}
	sure := isFunctionNamed(fn, "io", "ReadAll", "Copy", "CopyBuffer") || isFunctionNamed(fn, "io/ioutil", "ReadAll") || fn != nil && fn.Name() == "WriteTo"
	w.readToEOFBy(v, by, sure)
}

// readToEOFBy records that v's pipe is read until EOF, by what by says;
// sure if the read is where the walk stands (readRec).
func (w *walker) readToEOFBy(v value, by string, sure bool) {
	r := v.pipe.root()
	// A read here, after reads only in goroutines, is the one the run
	// waits on: it names the pipe.
	inline := w.inGo == 0 && w.readOnlyAside(r)
	w.noteRead(v.pipe, sure)
	if r.p.ReadPipe && !inline {
		return
	}
	what, name := v.what, "StdoutPipe()"
	switch what {
	case "stderr":
		name = "StderrPipe()"
	case "":
		// A field read before the walk came to what was stored in it.
		what, name = "the output", "StdoutPipe() or StderrPipe()"
	}
	r.p.ReadPipe = true
	r.p.ReadWhy = fmt.Sprintf("%s is read from %s until EOF (%s), which WaitDelay does not close", what, name, by)
}

// policy handles cancelpolicy.Run, Start and Apply.
func (w *walker) policy(c *ast.CallExpr, fn *types.Func, args []value) []value {
	switch fn.Name() {
	case "Run", "Start":
		if len(args) < 2 {
			return nil
		}
		x := args[1].inst
		if x == nil {
			x = w.ps.newInstance()
		}
		k := runPolicyRun
		if fn.Name() == "Start" {
			k = runPolicyStart
		}
		w.addRun(x, &runSite{kind: k, call: c, pos: c.Pos(), cmdExpr: c.Args[1], opts: len(c.Args) > 2})
		if k == runPolicyStart {
			return []value{{}, {}}
		}
		return []value{{}}
	case "Apply":
		if len(args) < 1 || args[0].inst == nil {
			return []value{{}}
		}
		r := args[0].inst.root()
		if !r.p.Applied {
			r.p.Applied, r.p.AppliedWhy = true, types.ExprString(c)
		}
		r.applies = append(r.applies, c)
		if !r.p.WaitDelay {
			r.p.WaitDelay, r.p.WaitDelayWhy = true, "cancelpolicy.Apply's WaitDelay"
		}
		if !r.p.Group {
			r.p.Group, r.p.GroupWhy = true, "cancelpolicy.Apply's Setpgid"
		}
		return []value{{}}
	}
	return nil
}

// addRun records a run of x, the site classified once the package is
// walked; for a parameter, the run also goes to the summary (props.Runs)
// and counts at each call of the helper (runAt).
func (w *walker) addRun(x *instance, rs *runSite) {
	r := x.root()
	rs.scope, rs.inline = w.cur.id, w.inGo == 0 && w.inDefer == 0
	if rs.call != nil && rs.via == "" {
		rs.locks = w.runLocks(rs.call, rs.kind)
	}
	r.runs = append(r.runs, rs)
	if rs.kind == runRun || rs.kind == runOutput || rs.kind == runCombined {
		if rs.via == "" {
			// Run is Start and Wait: its Wait stands where it does.
			rs.async = w.inGo > 0 || w.ps.goStartedWithCmd(w.fn)
			w.waitPlace(r, rs.call, "cmd."+rs.kind.String())
		}
		w.finished = append(w.finished, r)
		if w.inGo == 0 {
			w.waitedSync = append(w.waitedSync, r)
		}
	}
	if r.param >= 0 {
		r.p.Runs = append(r.p.Runs, w.ps.runInfoOf(rs))
	}
}

// runAt records, at the call c of the helper via, a run the helper makes
// (or its own helper, ri.Via).
func (w *walker) runAt(x *instance, ri runInfo, c *ast.CallExpr, via string) {
	if ri.Via != "" {
		via += " → " + ri.Via
	}
	w.addRun(x, &runSite{kind: ri.Kind, call: c, pos: c.Pos(), via: via, opts: ri.Opts, at: ri.At})
}

// started is the Start or Run inside the helper rs runs through; zero for
// a run written where it stands.
func (rs *runSite) started() token.Position {
	if rs.via == "" {
		return token.Position{}
	}
	return rs.at
}

// runInfoOf is rs as a summary's run: at a helper's call, its Start or
// Run is the one inside (the innermost, through helpers of helpers).
func (ps *pkgState) runInfoOf(rs *runSite) runInfo {
	at := rs.at
	if !at.IsValid() {
		at = ps.pass.Fset.Position(rs.pos)
	}
	return runInfo{Kind: rs.kind, Via: rs.via, Opts: rs.opts, At: at}
}

// made records a creation of x at call.
func (w *walker) made(x *instance, call ast.Expr, ctxExpr ast.Expr, progArgs []ast.Expr, variadic bool) {
	c := creation{Where: w.ps.where(call.Pos()), Ctx: ctxNone, CtxParam: -1, Prog: program(w.constOf, w.progNameOf, w.scriptOf, progArgs, variadic)}
	if why := w.testBinaryLeaf(progArgs); why != "" {
		c.Prog = progInfo{Leaf: true, Why: why}
	}
	if why := w.flagLeafWhy(c.Prog.Name, progArgs, variadic); why != "" && !c.Prog.Leaf {
		c.Prog.Leaf, c.Prog.Why = true, why
	}
	if why := w.subcommandLeafWhy(c.Prog.Name, progArgs, variadic); why != "" && !c.Prog.Leaf {
		c.Prog.Leaf, c.Prog.Why = true, why
	}
	if ctxExpr != nil {
		v := w.ctxValue(ctxExpr)
		c.Ctx, c.CtxParam, c.CtxField, c.CtxScope, c.CtxHow, c.CtxOwn, c.CtxDeadline = v.ctx, v.ctxParam, v.ctxField, v.ctxScope, v.ctxHow, v.ctxOwn, v.ctxDeadline
	}
	w.progParams(&c, progArgs, variadic)
	c.Ignore, c.Bad = w.ps.ignores.at(call.Pos())
	r := x.root()
	if r.madeIn == nil {
		r.madeIn = w.deferTo
	}
	r.p.Creations = append(r.p.Creations, c)
	r.local = append(r.local, &localCreation{call: call, ctxExpr: ctxExpr})
}

// ctxValue is the context value of e: a context that may be done where
// the walk cannot tell.
func (w *walker) ctxValue(e ast.Expr) value {
	if v := w.eval(e); v.isCtx {
		return v
	}
	return value{isCtx: true, ctx: ctxCancel, ctxParam: -1}
}
