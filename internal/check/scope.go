package check

import (
	"context"
	"fmt"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/goroutines"
)

// labelKey is the pprof label that marks a scope's goroutines.
const labelKey = "exectest.scope"

// defaultLeakWait is how long a leak check keeps looking while goroutines
// and descriptors go away: os/exec's goroutines end a few milliseconds
// after Wait returns, not before.
const defaultLeakWait = time.Second

var scopes atomic.Uint64

// A Scope is the engine of exectest.GoroutineScope: a pprof label of its
// own on the goroutines a function starts.
type Scope struct{ id string }

// NewScope makes a scope with a label no other scope has.
func NewScope() *Scope {
	return &Scope{id: strconv.FormatUint(scopes.Add(1), 10)}
}

// Do runs fn on the calling goroutine with the scope's label: every
// goroutine started while it runs carries the label.
func (s *Scope) Do(ctx context.Context, fn func(ctx context.Context)) {
	pprof.Do(ctx, pprof.Labels(labelKey, s.id), fn)
}

// running lists the scope's goroutines now.
func (s *Scope) running() []goroutines.Group {
	gs, _ := goroutines.Labelled(labelKey, s.id)
	return gs
}

// copySampleWait caps how long copyGoroutines waits for goroutines of the
// scope that have not run yet.
const copySampleWait = 100 * time.Millisecond

// copySample is what a count of os/exec's copy goroutines saw.
type copySample struct {
	n int // os/exec's copy goroutines
	// call is how run's own goroutine was seen running the command, where
	// a fix line must say it (see runCallOf): "Output", "CombinedOutput",
	// "Start" (a cmd.Start and a cmd.Wait of its own), "cancelpolicy.Run",
	// "cancelpolicy.Start"; "" otherwise.
	call string
}

// copyGoroutines counts os/exec's copy goroutines in the scope. A goroutine
// that has not run yet has no frames in the profile (debug=1 prints no
// creator), so it cannot be told apart from any other: on a loaded machine
// the copy goroutine can stay runnable, unrun, until the cancel. Such
// goroutines get up to copySampleWait to run first.
func (s *Scope) copyGoroutines() copySample {
	var c copySample
	settling.Poll(copySampleWait, func() bool {
		gs := s.running()
		c = copySample{n: countCopyGoroutines(gs), call: runCallOf(gs)}
		// Inside its own cmd.Start, run may yet return or go on to a Wait
		// of its own: the fix line differs, so look again once it has
		// left Start (on a loaded machine it can stay there, runnable,
		// while the descendant already reports).
		return !unstarted(gs) && !inOwnStart(gs)
	})
	return c
}

// inOwnStart reports whether run's own goroutine among gs is inside a
// cmd.Start that run called itself.
func inOwnStart(gs []goroutines.Group) bool {
	g, ok := runGoroutine(gs)
	if !ok {
		return false
	}
	for i, f := range g.Frames {
		if f.Func == "os/exec.(*Cmd).Start" && calledByRun(g.Frames, i) {
			return true
		}
	}
	return false
}

// runGoroutine is run's own goroutine among gs: the scope's first, which
// runs in [pprof.Do].
func runGoroutine(gs []goroutines.Group) (goroutines.Group, bool) {
	for _, g := range gs {
		if slices.ContainsFunc(g.Frames, func(f goroutines.Frame) bool { return f.Func == "runtime/pprof.Do" }) {
			return g, true
		}
	}
	return goroutines.Group{}, false
}

// calledByRun reports whether frame i was called by run itself, not by
// os/exec nor by cancelpolicy.
func calledByRun(frames []goroutines.Frame, i int) bool {
	if i+1 >= len(frames) {
		return false
	}
	caller := frames[i+1].Func
	return !strings.HasPrefix(caller, "os/exec.") && !strings.Contains(caller, "/cancelpolicy.")
}

// sampleCopyGoroutines is how a check counts copy goroutines: a variable,
// so that a test can make the sample miss them, as a loaded machine can.
var sampleCopyGoroutines = (*Scope).copyGoroutines

// runCallOf says how run's own goroutine among gs (the scope's first,
// which runs in [pprof.Do]) runs the command, where a fix line must say
// it (see inPlaceOf): in cmd.Output() or cmd.CombinedOutput(); in
// cancelpolicy.Run, or cancelpolicy.Start or the Wait of what it returned
// (see withOptionsAdded); or between a cmd.Start() and a cmd.Wait() of
// its own, waiting in the Wait or reading or writing a file itself (a
// StdoutPipe, a StdinPipe); else "" (in cmd.Run(), or where nothing
// tells).
func runCallOf(gs []goroutines.Group) string {
	g, ok := runGoroutine(gs)
	if !ok {
		return ""
	}
	var output, combined, run, policyRun, policyStart, between bool
	for i, f := range g.Frames {
		switch {
		case strings.HasSuffix(f.Func, "/cancelpolicy.Run"):
			policyRun = true
		case strings.HasSuffix(f.Func, "/cancelpolicy.Start"), strings.HasSuffix(f.Func, "/cancelpolicy.(*Started).Wait"):
			policyStart = true
		}
		switch f.Func {
		case "os/exec.(*Cmd).Output":
			output = true
		case "os/exec.(*Cmd).CombinedOutput":
			combined = true
		case "os/exec.(*Cmd).Run":
			run = true
		case "os/exec.(*Cmd).Wait":
			// Not Start: inside it, whether a Wait of run's own follows
			// is not known yet (a runner may return once the command
			// started); copyGoroutines looks again once run left it.
			between = between || calledByRun(g.Frames, i)
		case "os.(*File).Read", "os.(*File).WriteTo", "os.(*File).Write", "os.(*File).ReadFrom":
			between = true
		}
	}
	switch {
	case output:
		return runsOutput
	case combined:
		return runsCombinedOutput
	case run:
		return ""
	case policyRun:
		return runsPolicyRun
	case policyStart:
		return runsPolicyStart
	case between:
		return runsBetween
	}
	return ""
}

// unstarted reports whether some goroutine of gs has not run yet.
func unstarted(gs []goroutines.Group) bool {
	for _, g := range gs {
		if len(g.Frames) == 0 {
			return true
		}
	}
	return false
}

// countCopyGoroutines counts os/exec's copy goroutines among gs.
func countCopyGoroutines(gs []goroutines.Group) int {
	n := 0
	for _, g := range gs {
		for _, f := range g.Frames {
			if f.Func == "os/exec.(*Cmd).writerDescriptor.func1" || f.Func == "os/exec.(*Cmd).childStdin.func1" {
				n += g.Count
				break
			}
		}
	}
	return n
}

// Find returns an error naming the scope's goroutines still running
// after up to 1s, looking again with a
// capped backoff; nil once none is left.
func (s *Scope) Find() error {
	var left []goroutines.Group
	settling.Poll(defaultLeakWait, func() bool {
		left = s.running()
		return len(left) == 0
	})
	if len(left) == 0 {
		return nil
	}
	return &leakedGoroutinesError{groups: left, after: "the scope's function returned", wait: defaultLeakWait}
}

// leakedGoroutinesError lists goroutines left running, with their stacks
// trimmed to the frames that say who started them and where they wait.
type leakedGoroutinesError struct {
	groups []goroutines.Group
	after  string // what they outlived
	wait   time.Duration
}

// Stacks returns one text per group of identical goroutines.
func (e *leakedGoroutinesError) Stacks() []string {
	out := make([]string, len(e.groups))
	for i, g := range e.groups {
		out[i] = g.String()
	}
	return out
}

func (e *leakedGoroutinesError) Error() string {
	n := 0
	for _, g := range e.groups {
		n += g.Count
	}
	var b strings.Builder
	fmt.Fprintf(&b, "exectest: goroutines left running after %s: got %d, want 0 (looked for %v)", e.after, n, e.wait)
	for _, s := range e.Stacks() {
		b.WriteString("\n\t" + s)
	}
	return b.String()
}

// settling is how the checks look again at what settles after run
// returns: os/exec's goroutines end within a millisecond of Wait, most
// often, so the first looks come soon.
var settling = backoff.Schedule{First: 100 * time.Microsecond, Max: 50 * time.Millisecond}
