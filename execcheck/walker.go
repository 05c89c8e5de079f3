package execcheck

// The walker: an abstract evaluation of a package's Go code that follows
// each *exec.Cmd from where it is made to where it is run, and gathers
// on the way what decides whether a cancel stops it (its context, its
// Cancel, its group, its WaitDelay, its pipes, the kills made by hand).
// The traversal is generic Go evaluation; what os/exec's types and calls
// mean is the exec model, which the traversal consults:
//
//	walker.go     the package state, the values tracked, walkFunc and the summary it leaves
//	walk_stmt.go  statements and assignments
//	walk_expr.go  expressions
//	walk_call.go  calls: routing, a callee's summary applied at its call
//	walk_func.go  function literals
//	cmd_fields.go the exec model's fields: exec.Cmd, SysProcAttr, Cancel
//	cmd_calls.go  the exec model's calls: os/exec, os, syscall, context, cancelpolicy
//	cmd_kills.go  the exec model's signals and kills
//	types.go      the type predicates

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"
)

// pkgState is the analysis of one package.
type pkgState struct {
	pass         *analysis.Pass
	loopKept     map[*types.Var]bool // locals assigned across a loop's turns (loop_kept.go)
	decls        map[*types.Func]*ast.FuncDecl
	sums         map[*types.Func]*summary
	busy         map[*types.Func]bool
	called       map[*types.Func]bool         // functions called in the package
	fields       map[*types.Var]*instance     // fields and package variables holding commands
	pids         map[*types.Var]*instance     // fields and package variables holding a command's pid
	pipes        map[*types.Var]*instance     // fields and package variables holding a command's output pipe (pipe_kept.go)
	pipeWhat     map[*types.Var]string        // which pipe: "stdout" or "stderr"
	pipeOuts     []pipeOut                    // pipes functions return (pipe_kept.go)
	cmdFuncs     map[*types.Var]*types.Func   // variables and fields assigned exec.Command (cmd_funcs.go)
	funcVars     map[*types.Var]*types.Func   // package variables holding the one function production runs (func_vars.go)
	fieldFuncs   map[*types.Var]fieldFunc     // fields of function type holding the one function production runs (field_funcs.go)
	litBusy      map[*ast.FuncLit]bool        // field literals being walked at a call (field_funcs.go)
	files        map[*types.Var]*fileState    // what the variables of interface type are assigned (file_vars.go)
	kept         []keptIn                     // commands whose pid a field shared by several holds (pid_shared.go)
	procChans    map[*types.Var]*types.Var    // local channels of *os.Process and the parameter they are passed as (proc_chan.go)
	goParams     map[*types.Func][]int        // the function parameters its functions run in goroutines (go_params.go)
	setInClosure map[types.Object]token.Pos   // locals a function literal sets (state_guard.go)
	constLocal   map[*types.Var]string        // locals set once to a string constant (const_locals.go)
	onceLocal    map[*types.Var]ast.Expr      // locals set once where declared, to that value (const_locals.go)
	sigLocal     map[*types.Var]localSig      // locals given only constant signals, to the weakest (sig_locals.go)
	firstResult  map[*types.Var]*ast.CallExpr // locals set once where declared, to a call's first result (const_locals.go)
	endChan      map[types.Object]bool        // channels that tell a command's end (end_chans.go)
	goFuncs      map[*types.Func]bool         // functions only a go statement calls (wait_aside.go)
	impls        map[*types.Named]types.Type  // an unexported interface's one implementation, or nil (sole_impl.go)
	ill          map[*types.Func]bool         // functions set aside: they do not type-check (ill_typed.go)
	neverDone    map[*types.Func]map[int]bool // context parameters every call fills with context.Background() (ctx_never.go)
	fieldUses    map[*types.Var]*fieldUse     // what the package stores into each field, and its reads (ctx_field_never.go)
	all          []*instance
	ignores      *ignores
	ownFix       bool     // cancelpolicy itself: only its test files' sites count
	plat         platform // the build's: what runtime.GOOS can be (goos_branch.go)
	scopes       int
}

// newInstance makes a command (or container) of the package, kept in
// ps.all: every run site is found from there.
func (ps *pkgState) newInstance() *instance {
	x := newInstance()
	ps.all = append(ps.all, x)
	return x
}

// field is the command held by a field or package variable, wherever it
// is read or written in the package.
func (ps *pkgState) field(v *types.Var) *instance {
	x := ps.fields[v]
	if x == nil {
		x = ps.newInstance()
		x.held = true
		ps.fields[v] = x
	}
	return x
}

// pidVar is the command whose pid a field or package variable holds,
// wherever it is read or written in the package.
func (ps *pkgState) pidVar(v *types.Var) *instance {
	x := ps.pids[v]
	if x == nil {
		x = ps.newInstance()
		ps.pids[v] = x
	}
	return x
}

// where names pos the way creations and reasons do: file:line.
func (ps *pkgState) where(pos token.Pos) string {
	p := ps.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// summaryOf returns fn's summary: from its body in this package, from a
// fact otherwise; nil if it does nothing execcheck tracks.
func (ps *pkgState) summaryOf(fn *types.Func) *summary {
	fn = fn.Origin()
	if fn.Pkg() == ps.pass.Pkg {
		if s, ok := ps.sums[fn]; ok {
			return s
		}
		d := ps.decls[fn]
		if d == nil || ps.busy[fn] {
			return nil
		}
		return ps.walkFunc(fn, d)
	}
	var f funcFact
	if ps.pass.ImportObjectFact(fn, &f) {
		return &f.S
	}
	return nil
}

// scope is a function body being walked: a declared function or a
// function literal.
type scope struct {
	id     int
	parent int // the scope the literal stands in (0 for a function's own)
	params map[types.Object]int
	body   *ast.BlockStmt // a function literal's body (wait_free.go)
	watch  *goWatch       // a goroutine's watch that Wait's return ends (watch_end.go)
}

// fnVal is a function value: a closure whose kills wait for its call, or
// a declared function or method.
type fnVal struct {
	sc      *scope
	effects []targeted
	named   *types.Func
	// A method value of *exec.Cmd (f := cmd.Output): its command, for
	// the run at f().
	recv     value
	recvExpr ast.Expr
	params   map[int]*instance // a closure's command parameters
	results  []value           // what a closure returns
	lit      *ast.FuncLit      // a field's literal, walked at its call (field_funcs.go)
	closes   []pipeCloseAt     // Closes of output pipes, made at its call (pipe_reads.go)
}

// targeted is a kill a closure makes, kept for its call (callFn): of
// which command (nil: one execcheck did not see), and whether its signal
// is a parameter of the closure, which the call then supplies.
type targeted struct {
	inst       *instance
	e          effect
	closureSig int // >= 0: the signal is this parameter of the closure
}

// value is what execcheck knows of an expression.
type value struct {
	inst    *instance // a command or a container of commands
	proc    *instance // the *os.Process of a command
	pid     *instance // the pid (or pgid) of a command
	neg     bool      // -pid: its group
	attr    *attrVal
	fn      *fnVal
	pipe    *instance // the reader of a command's StdoutPipe or StderrPipe
	scanner bool      // a bufio.Scanner of it: read where Scan is called
	what    string    // which: "stdout" or "stderr"

	isCtx       bool
	ctx         ctxKind
	ctxParam    int
	ctxScope    int              // for ctxTest: the scope that took it
	ctxHow      string           // for ctxTest made here: why it is done only after its scope returns (ctx_scoped.go)
	ctxField    string           // for ctxParam: this field of the parameter (ctx_field.go)
	ctxFields   map[string]value // a struct literal's context fields, by name
	ctxOwn      bool             // done only by its own CancelFunc: context.WithCancel of a never-done parent
	ctxDeadline bool             // done only at its deadline or by its own CancelFunc: WithTimeout or WithDeadline of a never-done parent

	isSig      bool
	sigMixed   bool // sig is the weakest of the constants a local is given (sig_locals.go)
	sig        sigKind
	sigParam   int // >= 0: parameter of the function summarized
	closureSig int // >= 0: parameter of the closure sigScope
	sigScope   *scope

	pgidErr *instance // the error of syscall.Getpgid of this command's pid (pgid_fallback.go)
	byPgid  bool      // the pid is syscall.Getpgid of the command's pid (pgid_reaped.go)
	waitErr bool      // the error of a command's Wait or Run (wait_result.go)
}

// walker walks one declared function, with the closures in it. The walk
// is one pass in source order, not a flow analysis: each statement is
// walked once (a loop's body once, an if's arms one after the other), a
// variable holds what was last assigned to it (env), and commands that
// may be the same one (assigned, stored in a field or a container,
// passed, returned) are joined into one instance, whose props gather
// everything done to any of them. Branches are remembered, not merged:
// each kill carries the scope and the arms it stands in (here), so that
// kills on two arms of one if are alternatives, not one after the other.
type walker struct {
	ps   *pkgState
	info *types.Info
	fn   *types.Func
	decl *ast.FuncDecl // the declaration walked (nil for a package variable's initializer)
	top  *scope
	cur  *scope
	sum  *summary
	env  map[types.Object]value

	params   map[int]*instance // command parameters
	pidParam map[int]*instance // integer parameters

	cancelOwner *instance // walking the Cancel closure of this command
	cancelSeen  []string  // calls in that closure execcheck cannot follow
	deferTo     *fnVal    // walking a closure whose kills wait for its call
	branch      []branchStep
	outerBranch []branchStep                            // the arms the function literals being walked stand in (group_branch.go)
	groupArms   map[*instance]map[ast.Node]map[int]bool // the arms each command got a group on (group_branch.go)
	pgidGone    []*instance                             // on an arm where these commands' Getpgid failed (pgid_fallback.go)
	pgidFound   []pgidCheck                             // where only these commands' Getpgid's success leads (pgid_fallback.go)
	untilDone   []string                                // after a select that returns once the command ended: the kills wait on it (state_guard.go)
	finished    []*instance                             // commands whose run or Wait came before, in the function walked (state_guard.go)
	waitedSync  []*instance                             // those whose run or Wait came before outside any goroutine (after_wait.go)
	armWaited   []*instance                             // waited on an arm of the statement walked, for after it (after_wait.go)
	returned    bool                                    // the statement last walked was a return (after_wait.go)

	joins   []joinRec // the joins walked so far (wait_aside.go)
	results []value   // returned, per result index (merged)
	retAttr []*attrVal

	curFn      *fnVal       // the closure being walked, if any: its results
	loops      int          // the loops the walk stands in, in the function or closure walked
	inGo       int          // walking the call of a go statement
	inDefer    int          // walking the call of a defer statement
	defers     []deferAt    // the defer statements being walked (wait_deferred.go)
	waitEnd    []lateWait   // Waits met in deferred calls, made late by the reads after them (wait_deferred.go)
	deferAside []deferAside // commands whose deferred Wait runs beside reads in goroutines (wait_deferred.go)
	dead       int          // walking an arm of a branch on runtime.GOOS that this build never runs (goos_branch.go)
	killFailed int          // walking the arm where a group kill failed (kill_failed.go)
	pos        token.Pos    // the statement walked

	watchAt     []effect          // receives from a context's Done (cancel_watch.go)
	callsCancel bool              // the body walked calls a context.CancelFunc
	watchNext   bool              // the next function literal walked is context.AfterFunc's
	laterNext   bool              // the next function literal walked runs later, on its own: an AfterFunc's (pipe_reads.go)
	goNext      *ast.FuncLit      // the literal a go statement calls, walked next (watch_end.go)
	goCall      *ast.CallExpr     // the call of the go statement walked (noteRead)
	later       map[int]bool      // the scopes of such literals
	boundedRecv map[ast.Expr]bool // receives on a select's arms that another arm bounds (select_bounded.go)
	paramGo     []int             // the inGo levels of goroutines another function starts with a literal (go_params.go)
	timerNext   string            // the next function literal walked is time.AfterFunc's, so called (timer_kill.go)
	timers      map[int]string    // the scopes of such literals, and their calls
	bindNext    []value           // the next function literal walked is called with these arguments, here
	reads       []readRec
	nres        int // the number of results of the function being walked

	named  []types.Object             // the function's named results
	stable map[types.Object]*instance // named results holding a command: one command however assigned
}

// walkFunc walks a declared function and records its summary: what it
// does to each command parameter, the kills of its pid and *os.Process
// parameters, what it returns (a command it makes, a parameter passed
// back, a kill function, a SysProcAttr that makes a group) and the kills
// it makes. Parameters are seeded by type (commands, signals, contexts,
// integers that may be pids, processes) so that the summary names them
// by index and each call applies it to its arguments (apply). A named
// result holding a command is one command however assigned, for a
// deferred closure sets it up. A function being walked is busy: a call
// back into it (recursion) sees no summary.
func (ps *pkgState) walkFunc(fn *types.Func, d *ast.FuncDecl) *summary {
	ps.busy[fn] = true
	defer delete(ps.busy, fn)
	w := &walker{
		ps: ps, info: ps.pass.TypesInfo, fn: fn, decl: d, sum: newSummary(),
		env: map[types.Object]value{}, params: map[int]*instance{}, pidParam: map[int]*instance{},
	}
	ps.scopes++
	w.top = &scope{id: ps.scopes, params: map[types.Object]int{}}
	w.cur = w.top
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		w.top.params[p] = i
		switch t := p.Type(); {
		case holdsCmd(t):
			x := ps.newInstance()
			x.param = i
			w.params[i] = x
			w.env[p] = value{inst: x}
		case isSignal(t):
			w.env[p] = value{isSig: true, sigParam: i, closureSig: -1, sigScope: w.top}
		case isContext(t) && ps.neverDoneParam(fn, i):
			w.env[p] = value{isCtx: true, ctx: ctxBackground}
		case isContext(t):
			w.env[p] = value{isCtx: true, ctx: ctxParam, ctxParam: i}
		case isInteger(t):
			x := ps.newInstance()
			x.param = i
			w.pidParam[i] = x
			w.env[p] = value{pid: x}
		case isProcess(t):
			x := ps.newInstance()
			x.param = i
			w.pidParam[i] = x
			w.env[p] = value{proc: x}
		case isSysProcAttr(t):
			w.env[p] = value{attr: &attrVal{param: i + 1, sum: w.sum}}
		}
	}
	w.nres = sig.Results().Len()
	w.stable = map[types.Object]*instance{}
	for i := range sig.Results().Len() {
		r := sig.Results().At(i)
		if r.Name() == "" || r.Name() == "_" {
			w.named = nil
			break
		}
		w.named = append(w.named, r)
		if holdsCmd(r.Type()) {
			// A deferred closure may set up the command before the body
			// assigns it (defer func() { harden(cmd) }()).
			x := ps.newInstance()
			w.stable[r] = x
			w.env[r] = value{inst: x}
		}
	}
	if sig.Results().Len() > 0 {
		w.results = make([]value, sig.Results().Len())
		w.retAttr = make([]*attrVal, sig.Results().Len())
	}
	if d.Body != nil {
		w.callsCancel = w.callsCancelIn(d.Body)
		w.block(d.Body.List)
	}
	w.finish(sig)
	ps.sums[fn] = w.sum
	if !cancelShaped(sig) {
		// Kills whatever the target matter to callers only where the
		// function can be a Cancel itself (cmd.Cancel = r.stop).
		w.sum.cancelKills, w.sum.Kills = w.sum.Kills, nil
	}
	return w.sum
}

// finish turns what the walk found into the function's summary: the
// props of each command parameter (and which are kept in a field), the
// kills of each pid parameter, and per result the command made here,
// with its runs, or the parameter passed back; a returned function
// value's kills; a SysProcAttr that makes a group.
func (w *walker) finish(sig *types.Signature) {
	s := w.sum
	for i, x := range w.params {
		r := x.root()
		if r.held {
			if s.held == nil {
				s.held = map[int]*instance{}
			}
			s.held[i] = r
		}
		if r.p.empty() {
			continue
		}
		if s.Params == nil {
			s.Params = map[int]*props{}
		}
		p := r.p.clone()
		p.ReadsApart = w.readsApart(r)
		s.Params[i] = &p
		if p.Waited && !r.syncWait && len(r.asyncWaits) > 0 {
			if s.goWaits == nil {
				s.goWaits = map[int][]*ast.BlockStmt{}
			}
			s.goWaits[i] = r.asyncWaits
		}
	}
	for i, x := range w.pidParam {
		if k := x.root().p.Kills; len(k) > 0 {
			if s.PidParams == nil {
				s.PidParams = map[int][]effect{}
			}
			s.PidParams[i] = append([]effect(nil), k...)
		}
	}
	var funcOn []*instance // the targets of the returned func's kills
	defer func() { s.FuncOnRes = w.killsOfResult(funcOn, s) }()
	for i, v := range w.results {
		switch {
		case v.inst != nil && isCmd(sig.Results().At(i).Type()):
			r := v.inst.root()
			if r.param >= 0 && len(r.p.Creations) == 0 {
				s.ResultArg, s.ResultIdx = r.param, i
				continue
			}
			if len(r.p.Creations) > 0 {
				p := r.p.clone()
				p.ReadsApart = w.readsApart(r)
				for _, rs := range r.runs {
					p.Runs = append(p.Runs, w.ps.runInfoOf(rs))
				}
				s.Result, s.ResultIdx = &p, i
				r.ret, r.retFn = true, w.fn
			}
		case v.fn != nil:
			var k []effect
			var on []*instance
			for _, t := range v.fn.effects {
				e := t.e
				if t.closureSig >= 0 {
					e.Sig, e.SigParam = sigUnknown, -1
				}
				k = append(k, e)
				on = append(on, t.inst)
			}
			switch {
			case isMethodNamed(v.fn.named, "os", "Process", "Kill"):
				k = append(k, effect{Sig: sigKill, SigParam: -1, Why: "Process.Kill"})
			case v.fn.named != nil:
				if ns := w.ps.summaryOf(v.fn.named); ns != nil {
					k = append(k, ns.allKills()...)
				}
			}
			if len(k) > 0 {
				s.FuncIdx, s.FuncKills = i, k
				funcOn = on
			}
			w.stopOfLocal(v.fn)
		}
		if a := w.retAttr[i]; a != nil && a.group {
			s.AttrIdx, s.AttrWhy = i, a.why
		}
	}
	w.pipeResults(s)
	w.keptPidResults(s)
}

// stopOfLocal makes the kills of a returned func that target a command
// made here, and not returned, kills by hand of that command: the func
// is how callers stop it (wails' runFrontendDevWatcherCommand returns
// only its closer). A kill of a returned command is killsOfResult's.
func (w *walker) stopOfLocal(fv *fnVal) {
	for _, t := range fv.effects {
		if t.inst == nil {
			continue
		}
		r := t.inst.root()
		if len(r.p.Creations) == 0 || r.param >= 0 || r.ret {
			continue
		}
		e := t.e
		if t.closureSig >= 0 {
			e.Sig, e.SigParam = sigUnknown, -1
		}
		if w.fn != nil {
			e.Why += " (in the func " + w.fn.Name() + " returns)"
		}
		r.p.Kills = append(r.p.Kills, e)
	}
}

// here places an effect at the current statement: the scope (function
// or closure) and the branch arms it stands in, from which alternative
// tells kills on different arms apart.
func (w *walker) here(e effect) effect {
	e.scope = w.cur.id
	e.branch = append([]branchStep(nil), w.branch...)
	if e.Locks == nil {
		e.Locks = w.heldLocks(w.pos, w.pos)
	}
	if e.OnChoice == "" {
		e.OnChoice, e.ChoiceKeys = w.onChoice()
	}
	if e.GroupTest == 0 {
		e.GroupTest = w.groupTest()
	}
	return e
}

// killsOfResult marks the kills of a returned func (targets: what each
// kills) that kill the command the function makes and returns:
// `return c, func() error { return syscall.Kill(-c.Process.Pid, ...) }`.
// Each call applies them to the command its caller got.
func (w *walker) killsOfResult(targets []*instance, s *summary) []bool {
	if s.ResultIdx < 0 || s.Result == nil || s.ResultIdx >= len(w.results) || w.results[s.ResultIdx].inst == nil {
		return nil
	}
	made := w.results[s.ResultIdx].inst.root()
	var on []bool
	hitAny := false
	for _, t := range targets {
		hit := t != nil && t.root() == made
		on = append(on, hit)
		hitAny = hitAny || hit
	}
	if !hitAny {
		return nil
	}
	return on
}
