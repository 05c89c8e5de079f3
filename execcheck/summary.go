package execcheck

import (
	"fmt"
	"go/ast"
	"slices"
	"sort"
)

// summary is what a function does to the commands it is given and what it
// returns, so that its callers can be analyzed without its body: in the
// same package from the walk, in another package from a fact.
type summary struct {
	Params     map[int]*props   // effects on command parameters
	PidParams  map[int][]effect // kills of an integer parameter taken as a pid
	Result     *props           // the command returned, if made here
	ResultIdx  int
	ResultArg  int // >= 0: the command returned is this parameter (a builder)
	AttrIdx    int // >= 0: returns a *syscall.SysProcAttr that makes a group of its own
	AttrWhy    string
	AttrParams map[int]string // *syscall.SysProcAttr parameters it puts in a group of their own: how
	Kills      []effect       // every kill in the body, whatever its target: for Cancel = f
	FuncIdx    int            // >= 0: returns a func whose kills are FuncKills: for Cancel = f(cmd)
	FuncKills  []effect
	FuncOnRes  []bool       // per FuncKills: it kills the command returned at ResultIdx (a constructor's stop func)
	Pipes      []pipeResult // results that are output pipes (pipe_reads.go)

	held        map[int]*instance        // same package only: parameters the body stores (a field)
	cancelKills []effect                 // same package only: Kills of a function that is no Cancel
	pipeInsts   map[int]value            // same package only: results that are pipes (or pids: method_kills.go) of a command kept elsewhere
	keptKills   []targeted               // same package only: kills of a command the package keeps (method_kills.go)
	goWaits     map[int][]*ast.BlockStmt // same package only: parameters waited for only in goroutines the body starts: theirs
}

func newSummary() *summary {
	return &summary{ResultIdx: -1, ResultArg: -1, AttrIdx: -1, FuncIdx: -1}
}

// allKills is every kill of the body, whatever its target.
func (s *summary) allKills() []effect {
	return append(append([]effect(nil), s.Kills...), s.cancelKills...)
}

func (s *summary) empty() bool {
	return len(s.Params) == 0 && len(s.PidParams) == 0 && s.Result == nil && s.ResultArg < 0 &&
		s.AttrIdx < 0 && len(s.AttrParams) == 0 && len(s.Kills) == 0 && s.FuncIdx < 0 && len(s.Pipes) == 0
}

// funcFact carries a function's summary to the packages that import it.
type funcFact struct{ S summary }

func (*funcFact) AFact() {}

func (f *funcFact) String() string {
	var parts []string
	for _, i := range sortedKeys(f.S.Params) {
		parts = append(parts, fmt.Sprintf("param %d: %s", i, f.S.Params[i].brief()))
	}
	if f.S.Result != nil {
		parts = append(parts, "result: "+f.S.Result.brief())
	}
	if f.S.ResultArg >= 0 {
		parts = append(parts, fmt.Sprintf("returns param %d", f.S.ResultArg))
	}
	if f.S.AttrIdx >= 0 {
		parts = append(parts, "returns a group SysProcAttr")
	}
	for _, i := range sortedKeys(f.S.AttrParams) {
		parts = append(parts, fmt.Sprintf("attr param %d: group", i))
	}
	for _, i := range sortedKeys(f.S.PidParams) {
		parts = append(parts, fmt.Sprintf("pid param %d: %s", i, effects(f.S.PidParams[i])))
	}
	if len(f.S.Kills) > 0 {
		parts = append(parts, "kills: "+effects(f.S.Kills))
	}
	if f.S.FuncIdx >= 0 {
		what := "returns a func that kills: "
		if slices.Contains(f.S.FuncOnRes, true) {
			what = "returns a func that kills the command returned: "
		}
		parts = append(parts, what+effects(f.S.FuncKills))
	}
	parts = append(parts, pipesBrief(f.S.Pipes)...)
	return fmt.Sprintf("execcheck%v", parts)
}

func effects(es []effect) string {
	s := ""
	for i, e := range es {
		if i > 0 {
			s += ", "
		}
		s += e.brief()
	}
	return s
}

func (e effect) brief() string {
	if e.Unknown {
		return "unknown"
	}
	t := "child"
	if e.Group {
		t = "group"
	}
	if e.SigParam >= 0 {
		return fmt.Sprintf("%s:sig(param %d)", t, e.SigParam)
	}
	return fmt.Sprintf("%s:%s", t, [...]string{"?", "KILL", "INT", "other", "0"}[e.Sig])
}

func (p *props) brief() string {
	var s []string
	add := func(b bool, w string) {
		if b {
			s = append(s, w)
		}
	}
	add(len(p.Creations) > 0, fmt.Sprintf("made(%d)", len(p.Creations)))
	add(p.Group && p.GroupArm == "", "group")
	add(p.GroupArm != "", "group(one arm)")
	add(p.GroupUnknown, "group?")
	add(p.WaitDelay, "waitdelay")
	add(p.CopyPipe, "copypipe")
	add(p.ReadPipe, "readpipe")
	add(p.ReadsApart != "", "readsapart")
	add(p.PipeClosed != "", "pipeclosed")
	add(p.CancelSet, "cancel("+effects(p.Cancel)+")")
	add(len(p.Kills) > 0, "kills("+effects(p.Kills)+")")
	add(p.Applied, "applied")
	for _, r := range p.Runs {
		s = append(s, "runs:"+r.Kind.String())
	}
	add(len(p.Escapes) > 0, "escapes")
	add(p.Reflected != "", "reflected")
	add(p.Waited, "waited")
	add(p.WaitLate != "", "waitlate")
	add(p.WaitAside != "", "waitaside")
	add(p.ProcWait != "", "procwait")
	add(p.CancelCalled != "", "cancelcalled")
	add(p.ProcKept != "", "prockept")
	return fmt.Sprint(s)
}

func sortedKeys[V any](m map[int]V) []int {
	var k []int
	for i := range m {
		k = append(k, i)
	}
	sort.Ints(k)
	return k
}
