package execcheck

// A process kept in a sync/atomic.Pointer[os.Process]:
//
//	c.osProcess.Store(cmd.Process)         // where it starts
//	if p := c.osProcess.Swap(nil); p != nil {
//		p.Kill()                           // in Stop
//	}
//
// (copilot-sdk's client). The pointer is one process for the whole
// package, as a field of type *os.Process is (proc_kept.go): Store and
// Swap keep the process given, Load and Swap give it back.

import (
	"go/types"
)

// isAtomicProc reports whether t is sync/atomic.Pointer[os.Process], or
// a pointer to one.
func isAtomicProc(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && named(n, "sync/atomic", "Pointer") && n.TypeArgs().Len() == 1 && isProcess(n.TypeArgs().At(0))
}

// atomicProcCall handles a method call on an atomic pointer holding a
// kept process (recv): it reports false for any other call.
func (w *walker) atomicProcCall(fn *types.Func, recv value, args []value) ([]value, bool) {
	// fn is the generic method (its receiver *Pointer[T]): that the
	// pointer holds a process is known from recv, a kept process.
	if recv.proc == nil || !methodOf(fn, "sync/atomic", "Pointer") {
		return nil, false
	}
	keep := func(v value) {
		if v.proc != nil {
			w.ps.keep(recv.proc, v.proc)
		}
	}
	switch fn.Name() {
	case "Store":
		if len(args) == 1 {
			keep(args[0])
		}
		return nil, true
	case "Swap":
		if len(args) == 1 {
			keep(args[0])
		}
		return []value{{proc: recv.proc}}, true
	case "CompareAndSwap":
		if len(args) == 2 {
			keep(args[1])
		}
		return []value{{}}, true
	case "Load":
		return []value{{proc: recv.proc}}, true
	}
	return nil, false
}
