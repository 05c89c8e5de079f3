package execcheck

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
)

// sigKind is what a signal does to the processes it reaches.
type sigKind uint8

const (
	sigUnknown sigKind = iota // not a constant execcheck can read
	sigKill                   // SIGKILL, os.Kill, Process.Kill
	sigJob                    // SIGINT or SIGQUIT: background jobs of sh -c ignore them
	sigOther                  // any other signal (SIGTERM, SIGHUP, ...)
	sigProbe                  // signal 0: only asks whether the process is there
)

// effect is one kill or signal: to the direct child (Group false) or to a
// process group (kill(-pid)). Unknown says a call execcheck cannot follow
// stands where a kill might be.
type effect struct {
	Group         bool
	Sig           sigKind
	SigParam      int // >= 0: the signal is this parameter of the function summarized; Sig unused
	Unknown       bool
	Why           string
	Watch         bool     // it comes with the cancel of a context: cancel_watch.go
	Disposal      bool     // the cleanup of a failed set-up step, not a cancel: setup_kill.go
	NoWait        bool     // a disposal whose arm returns without waiting for the command
	OnResult      string   // it runs only on this result of Wait, not after every Wait: wait_result.go
	Until         bool     // OnResult is a select's grace for Wait's end: it comes whenever Wait has not returned (state_guard.go)
	OnChoice      string   // it comes only on an arm of a branch on the program's own state, here (group_branch.go)
	ChoiceKeys    []string // the settings that branch tests
	GroupTest     int      // on an arm of an if testing the command's Setpgid: 1 the arm with a group, 2 the other (group_branch.go)
	AfterWait     bool     // it comes only after the command's Wait (or Run) returned, in the same function (after_wait.go)
	AfterRead     bool     // AfterWait because it comes after a read of the output to EOF, before Wait (cancel_armed.go)
	ByGetpgid     bool     // a group kill whose group is syscall.Getpgid of the command's pid (pgid_reaped.go)
	PgidWaitAfter bool     // ByGetpgid but for a Wait after it in its function: only while a Wait beside the command has not reaped it
	UntilWait     string   // it comes only until Wait returns: how (watch_end.go, wait_result.go)
	CtxEnd        string   // a watch's kill that comes only on this end of the context: endDeadline or endCancel (watch_ctx_end.go)
	CtxEndWhy     string   // the test that limits it so
	Locks         []string // the mutexes its function holds where it stands (lock_held.go)
	GroupFailed   bool     // a kill of the direct child on the arm where a group kill failed (kill_failed.go)
	SigMixed      bool     // Sig is the weakest of the signals a local may hold (sig_locals.go)

	// Where the kill stands in the package analyzed, to tell a kill that
	// follows another (Cancel kills the group, then the child) from one
	// on another branch (if armed { group } else { child }).
	scope  int
	branch []branchStep
}

// branchStep is one branch taken on the way to a statement: the i'th
// arm of the if, switch or select at node. A step with rest set is the
// rest of a block after an if with no else whose body returns: its
// statements run only when the if's body did not (arm 1); only
// alternative reads such steps.
type branchStep struct {
	node ast.Node
	arm  int
	rest bool
}

// alternative reports whether a and b stand on different arms of one
// if, switch or select of one function: at most one of them runs.
func alternative(a, b effect) bool {
	if a.scope != b.scope || a.scope == 0 {
		return false
	}
	for i := 0; i < len(a.branch) && i < len(b.branch); i++ {
		if a.branch[i].node != b.branch[i].node {
			return false
		}
		if a.branch[i].arm != b.branch[i].arm {
			return true
		}
	}
	return false
}

// runKind is how a command is run.
type runKind uint8

const (
	runRun runKind = iota + 1
	runOutput
	runCombined
	runStart
	runPolicyRun   // cancelpolicy.Run
	runPolicyStart // cancelpolicy.Start
)

func (k runKind) String() string {
	switch k {
	case runRun:
		return "Run"
	case runOutput:
		return "Output"
	case runCombined:
		return "CombinedOutput"
	case runStart:
		return "Start"
	case runPolicyRun:
		return "cancelpolicy.Run"
	case runPolicyStart:
		return "cancelpolicy.Start"
	}
	return "?"
}

func (k runKind) policy() bool { return k == runPolicyRun || k == runPolicyStart }

// ctxKind says whether a command's context can be cancelled.
type ctxKind uint8

const (
	ctxNone       ctxKind = iota // exec.Command or an exec.Cmd literal: no context
	ctxBackground                // context.Background() or context.TODO(): never done
	ctxCancel                    // a context that can be done
	ctxParam                     // the CtxParam'th parameter of the function summarized
	ctxTest                      // a test's t.Context(): done only after the test function returns (test_context.go)
)

// progInfo is what execcheck read of the program a command runs.
type progInfo struct {
	Name     string // the program, if a constant
	Launcher bool   // it may exit at once and leave its work running
	Why      string // why it may, or why not
	Contain  string // why a descendant may leave the group (setsid, daemons), or ""
	Leaf     bool   // it starts no process: nothing outlives its kill
}

// creation is where a command was made, as facts carry it.
type creation struct {
	Where    string // file:line
	Ctx      ctxKind
	CtxParam int
	CtxField string // for ctxParam: the context is this field of the parameter (ctx_field.go)
	CtxScope int    // for ctxTest: the scope (function or literal body) that took it
	CtxHow   string // for ctxTest not of a test: why it is done only after that scope returns
	CtxOwn   bool   // for ctxCancel: done only by its own CancelFunc (context.WithCancel of a never-done parent)
	// for ctxCancel: done only at its deadline or by its own CancelFunc
	// (context.WithTimeout or WithDeadline of a never-done parent)
	CtxDeadline bool
	Prog        progInfo
	Ignore      string // the reason of an //execcheck:ignore at the creation
	// The program and its arguments as parameters of the constructor
	// (1-based; 0: not a parameter), read at its calls: prog_param.go.
	ProgParam, ArgsParam int
	Bad                  bool   // an //execcheck:ignore without a reason stands there
	Factory              string // made through a value of exec.CommandContext's type execcheck cannot see (cmd_factory.go)
}

// runInfo is a run of a command inside a helper, as a parameter effect.
type runInfo struct {
	Kind runKind
	Via  string // the helper that runs it
	Opts bool   // cancelpolicy options were given
	// At is the Start or Run inside the helper (or its own helper): the
	// line a reader of the helper looks for, named beside the call.
	At token.Position
}

// props is everything execcheck knows of one command. It is the state of
// a command inside a function and, for parameters and results, the
// function's summary exported as a fact: only plain data.
type props struct {
	Creations []creation

	Group        bool // Setpgid or Setsid
	GroupUnknown bool // SysProcAttr from where execcheck cannot see
	GroupWhy     string
	GroupArm     string   // the group is set only on an arm of the branch here (group_branch.go)
	GroupKeys    []string // the settings that branch tests

	WaitDelay    bool
	WaitDelayWhy string
	TimerKill    string // a group SIGKILL in a time.AfterFunc: it bounds a copy as WaitDelay does (timer_kill.go)

	CopyPipe     bool // os/exec copies output through a pipe: Wait waits for EOF
	OutputOnly   bool // CopyPipe only from Output or CombinedOutput runs: not another run's (output_only.go)
	CopyWhy      string
	CopyParam    int  // > 0: every copied writer is this parameter (1-based), read at each call (copy_param.go); < 0: not one
	ReadPipe     bool // StdoutPipe/StderrPipe read by the caller: WaitDelay does not close it
	ReadWhy      string
	PipeClosed   string // the pipe is closed by hand apart from the reads (a timer, a watch): where (pipe_reads.go)
	PipeClosedIn int    // the scope of the function literal that closes it

	StdoutSet, StderrSet bool

	CancelSet bool // Cancel assigned
	Cancel    []effect
	CancelWhy string

	Kills []effect // kills by hand: a watch of a context, a timer, a Stop method

	Applied    bool // cancelpolicy.Apply (or a helper that calls it)
	AppliedWhy string

	Runs    []runInfo // for parameters: how the helper runs the command
	Escapes []string  // where the command went that execcheck cannot follow

	Reflected string // its fields are set through reflect, where: execcheck cannot read them
	Untyped   string // it is passed to a function that does not type-check, where (ill_typed.go)
	Wrapped   string // run through a method of another package's type that embeds it (wrapper_run.go)

	// When os/exec stops calling Cancel (cancel_armed.go).
	Waited       bool     // cmd.Wait is called
	WaitLate     string   // cmd.Wait comes only after the output is read to EOF: where
	ReadsFirst   string   // cmd.Wait comes after the reads in a goroutine of their own: where (wait_aside.go)
	WaitAside    string   // cmd.Wait runs in a goroutine apart from the reads, which it ends: where (wait_aside.go)
	ProcWait     string   // cmd.Process.Wait is called: where
	CancelCalled string   // cmd.Cancel() is called by hand: where
	CancelLocks  []string // the mutexes its function holds there (lock_held.go)
	ProcKept     string   // its process or pid is kept where execcheck does not follow it: where (proc_kept.go)
	WaitFree     string   // no call blocks on cmd.Wait: why (wait_free.go)
	ReadsFree    string   // no call blocks on the reads of the pipe, nor Wait on them: why (reads_free.go)
	ReadsApart   string   // the pipe is read only in goroutines a function that returned started, not joined: which (reads_apart.go)
	ScannedOnce  string   // the pipe is scanned one token a call, never to EOF: how (scanned_once.go)
	WaitOpen     string   // cmd.Wait runs only in goroutines, one of whose signals may be awaited with no bound: how
}

func (p *props) empty() bool {
	return len(p.Creations) == 0 && !p.Group && !p.GroupUnknown && !p.WaitDelay && !p.CopyPipe &&
		!p.ReadPipe && p.PipeClosed == "" && !p.StdoutSet && !p.StderrSet && !p.CancelSet && len(p.Kills) == 0 &&
		!p.Applied && len(p.Runs) == 0 && len(p.Escapes) == 0 && p.Reflected == "" && p.Untyped == "" &&
		!p.Waited && p.WaitLate == "" && p.ReadsFirst == "" && p.WaitAside == "" && p.ProcWait == "" && p.CancelCalled == "" && p.ProcKept == ""
}

// merge adds q's knowledge to p.
func (p *props) merge(q *props) {
	p.Creations = append(p.Creations, q.Creations...)
	if q.Group {
		p.setGroup(q.GroupWhy, q.GroupArm, q.GroupKeys)
	}
	p.GroupUnknown = p.GroupUnknown || q.GroupUnknown
	if q.WaitDelay && !p.WaitDelay {
		p.WaitDelay, p.WaitDelayWhy = true, q.WaitDelayWhy
	}
	p.TimerKill = cmp.Or(p.TimerKill, q.TimerKill)
	outputOnly := (!p.CopyPipe || p.OutputOnly) && (!q.CopyPipe || q.OutputOnly)
	switch {
	case q.CopyPipe && !p.CopyPipe:
		p.CopyPipe, p.CopyWhy, p.CopyParam = true, q.CopyWhy, q.CopyParam
	case q.CopyPipe && p.CopyParam != q.CopyParam:
		p.CopyParam = -1
	}
	p.OutputOnly = p.CopyPipe && outputOnly
	switch {
	case q.ReadPipe && !p.ReadPipe:
		p.ReadPipe, p.ReadWhy, p.ReadsApart = true, q.ReadWhy, q.ReadsApart
	case q.ReadPipe && q.ReadsApart == "":
		p.ReadsApart = "" // read where it stands too
	}
	if p.PipeClosed == "" {
		p.PipeClosed, p.PipeClosedIn = q.PipeClosed, q.PipeClosedIn
	}
	p.ScannedOnce = cmp.Or(p.ScannedOnce, q.ScannedOnce)
	p.StdoutSet = p.StdoutSet || q.StdoutSet
	p.StderrSet = p.StderrSet || q.StderrSet
	if q.CancelSet {
		if !p.CancelSet {
			p.CancelWhy = q.CancelWhy
		}
		p.CancelSet = true
		p.Cancel = append(p.Cancel, q.Cancel...)
	}
	p.Kills = append(p.Kills, q.Kills...)
	if q.Applied && !p.Applied {
		p.Applied, p.AppliedWhy = true, q.AppliedWhy
	}
	p.Runs = append(p.Runs, q.Runs...)
	p.Escapes = append(p.Escapes, q.Escapes...)
	if p.Reflected == "" {
		p.Reflected = q.Reflected
	}
	if p.Untyped == "" {
		p.Untyped = q.Untyped
	}
	if p.Wrapped == "" {
		p.Wrapped = q.Wrapped
	}
	p.Waited = p.Waited || q.Waited
	p.WaitLate = cmp.Or(p.WaitLate, q.WaitLate)
	p.ReadsFirst = cmp.Or(p.ReadsFirst, q.ReadsFirst)
	p.WaitAside = cmp.Or(p.WaitAside, q.WaitAside)
	p.ProcWait = cmp.Or(p.ProcWait, q.ProcWait)
	if p.CancelCalled == "" {
		p.CancelCalled, p.CancelLocks = q.CancelCalled, q.CancelLocks
	}
	p.ProcKept = cmp.Or(p.ProcKept, q.ProcKept)
}

// clone is a deep enough copy for merge and append not to alias.
func (p *props) clone() props {
	q := *p
	q.Creations = append([]creation(nil), p.Creations...)
	q.Cancel = append([]effect(nil), p.Cancel...)
	q.Kills = append([]effect(nil), p.Kills...)
	q.Runs = append([]runInfo(nil), p.Runs...)
	q.Escapes = append([]string(nil), p.Escapes...)
	return q
}

// instance is one command (or a container of commands: a field, a slice)
// while a package is analyzed. Instances that alias are joined
// (union-find): a command stored in a field is the field's command.
type instance struct {
	parent  *instance
	p       props
	runs    []*runSite
	local   []*localCreation
	applies []*ast.CallExpr // cancelpolicy.Apply calls on it
	param   int             // >= 0: the parameter of the function walked that this stands for
	fromArg bool            // a parameter of a declared function is among what was joined into it
	closure bool            // a parameter of a closure: its calls apply what it does
	held    bool            // stored in a field, a global or a container
	ret     bool            // returned by its function
	retFn   *types.Func     // the function that returns it
	madeIn  *fnVal          // made in the body of this closure, whose kills otherwise wait for its call

	syncWait   bool             // cmd.Wait is called outside any goroutine (wait_free.go)
	asyncWaits []*ast.BlockStmt // the bodies of the goroutines that call it (nil: none to read)
	asyncCall  string           // the first call waiting for it in a goroutine: cmd.Wait, cmd.Run, ...
	syncRead   bool             // its pipe is read outside a goroutine's literal (reads_free.go)
	asyncReads []*ast.BlockStmt // the bodies of the goroutine literals that read its pipe
}

func newInstance() *instance { return &instance{param: -1} }

func (x *instance) root() *instance {
	for x.parent != nil {
		if x.parent.parent != nil {
			x.parent = x.parent.parent
		}
		x = x.parent
	}
	return x
}

// among reports whether x is one command with any of xs.
func among(xs []*instance, x *instance) bool {
	if x == nil {
		return false
	}
	r := x.root()
	for _, y := range xs {
		if y.root() == r {
			return true
		}
	}
	return false
}

// join makes x and y one command.
func join(x, y *instance) *instance {
	x, y = x.root(), y.root()
	if x == y {
		return x
	}
	y.parent = x
	x.p.merge(&y.p)
	x.runs = append(x.runs, y.runs...)
	x.local = append(x.local, y.local...)
	x.applies = append(x.applies, y.applies...)
	x.held = x.held || y.held
	x.fromArg = x.fromArg || y.fromArg || (y.param >= 0 && !y.closure)
	x.closure = x.closure || y.closure
	x.ret = x.ret || y.ret
	if x.retFn == nil {
		x.retFn = y.retFn
	}
	if x.madeIn == nil {
		x.madeIn = y.madeIn
	}
	x.syncWait = x.syncWait || y.syncWait
	x.asyncWaits = append(x.asyncWaits, y.asyncWaits...)
	x.asyncCall = cmp.Or(x.asyncCall, y.asyncCall)
	x.syncRead = x.syncRead || y.syncRead
	x.asyncReads = append(x.asyncReads, y.asyncReads...)
	y.p, y.runs, y.local, y.applies = props{}, nil, nil, nil
	return x
}

// localCreation is a creation in the package analyzed, with its syntax:
// the context expression a fix passes to cancelpolicy.
type localCreation struct {
	call    ast.Expr // the exec.Command call or constructor call
	ctxExpr ast.Expr // the context given, if any
}

// runSite is one run of a command: the place a diagnostic goes.
type runSite struct {
	kind    runKind
	call    *ast.CallExpr
	pos     token.Pos
	cmdExpr ast.Expr       // the command as written at the run (x in x.Run())
	via     string         // a helper that runs it
	at      token.Position // for a run through a helper: its Start or Run
	// methodValue: run through a method value (f := cmd.Output; f()),
	// whose call is not where the command is written: no rewrite.
	methodValue bool
	opts        bool     // cancelpolicy options given
	scope       int      // the scope (function or literal body) the run stands in
	inline      bool     // not in a goroutine or a deferred call: the scope waits for it
	async       bool     // a Run, Output or CombinedOutput in a goroutine (wait_free.go)
	locks       []string // the mutexes its function holds until Wait returns (lock_held.go)
}
