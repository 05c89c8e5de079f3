package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/proctest"
)

// Outcome is what a check saw: exectest.Result, field for field, where
// each field is documented.
type Outcome struct {
	Failed           bool
	Elapsed          time.Duration
	Err              error
	CancelDelay      time.Duration
	Proved           bool
	DescendantPID    int
	Early            bool
	Hung             bool
	Holders          []proctest.Process
	Survivors        []proctest.Process
	OrphanedInits    []proctest.Process
	Tracker          string
	CopyGoroutines   int
	Goroutines       []string
	LeakedGoroutines int
	Descriptors      []string
	Panic            any
	Returned         bool
}

// result is what the check saw, as its Result says it.
func (c *check) result() Outcome {
	r := Outcome{
		Failed:         c.failed,
		Elapsed:        c.elapsed,
		Err:            c.out.err,
		CancelDelay:    c.cancelDelay,
		Proved:         c.proved,
		DescendantPID:  c.descendantPID,
		Early:          c.early,
		Hung:           c.hung,
		Holders:        processes(c.holders),
		Survivors:      processes(c.survivors),
		OrphanedInits:  processes(c.orphanedInits),
		Tracker:        c.d.tracking(), // as the fixture child's cgroup made it
		CopyGoroutines: c.copyGoroutines,
		Descriptors:    c.fds,
		Panic:          c.out.panic,
		Returned:       c.returned,
	}
	for _, g := range c.leaked {
		r.Goroutines = append(r.Goroutines, g.String())
		r.LeakedGoroutines += g.Count
	}
	return r
}

// passLine is what a pass says it proved, in one line (logged: go test
// -v shows it): how soon run returned after the cancel, that nothing
// survived or leaked, and when the descendant proved it runs; or that the
// cancel came before that, in the start-up.
func (c *check) passLine(snap monitor.Snapshot) string {
	var b strings.Builder
	b.WriteString("exectest: pass: ")
	if c.early {
		fmt.Fprintf(&b, "run returned before the cancel, %v after start", short(c.out.at.Sub(c.start)))
	} else {
		fmt.Fprintf(&b, "cancel→return %v (bound %v)", short(c.elapsed), c.cfg.Bound)
	}
	b.WriteString(", 0 survivors")
	switch {
	case c.cfg.NoGoroutines:
		b.WriteString(", goroutines not checked (WithoutGoroutineCheck)")
	case c.nothingToCheck != "":
		fmt.Fprintf(&b, ", 0 leaked goroutines (%s)", c.nothingToCheck)
	default:
		b.WriteString(", 0 leaked goroutines")
	}
	switch {
	case c.cfg.NoFDs:
		b.WriteString(", pipe ends not checked (WithoutDescriptorCheck)")
	case !proc.Portable():
		b.WriteString(", 0 pipe ends left open")
	}
	switch p := snap.Proof; {
	case c.proved && c.cfg.Mode == CancelWhenAlive:
		fmt.Fprintf(&b, ", proved %v after start", short(p.At.Sub(c.start)))
	case c.proved:
		fmt.Fprintf(&b, ", proved %v after start, cancelled %v after start", short(p.At.Sub(c.start)), short(c.cancelDelay))
	case c.raced != "":
		fmt.Fprintf(&b, ", cancelled %v after start, before the descendant proved it runs (%s)", short(c.cancelDelay), c.raced)
	case p != nil:
		fmt.Fprintf(&b, ", cancelled %v after start, proved %v after start (after the cancel)", short(c.cancelDelay), short(p.At.Sub(c.start)))
	}
	if p := portableLine(); p != "" {
		fmt.Fprintf(&b, "; in the %s", p)
	}
	return b.String()
}
