package check

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/exectest/exectest/internal/backoff"
	"github.com/exectest/exectest/internal/monitor"
	"github.com/exectest/exectest/internal/proc"
	"github.com/exectest/exectest/internal/procstate"
	"github.com/exectest/exectest/proctest"
)

// described is a process as a message describes it, with its role, by
// which the check decides what it is (never by the message's words).
type described struct {
	proctest.Process
	role monitor.Role
	// ignores is the set of signals it ignored when described, if
	// ignoresKnown (the portable mode cannot read it).
	ignores      proc.SignalSet
	ignoresKnown bool
}

// describeAs describes a live process in role r, with which of pipes
// (target -> name) it holds a write end of.
func describeAs(id proc.Identity, r monitor.Role, pipes map[string]string) (described, bool) {
	p, ok := proc.Describe(id, r.String())
	if !ok {
		return described{}, false
	}
	p.Label(pipes)
	ignores, known := proc.IgnoredSignals(id.PID)
	return described{proctest.Process(p.Facts), r, ignores, known}, true
}

// describe describes the live processes among ids.
func describe(ids []proc.Identity, s monitor.Snapshot) []described {
	var ps []described
	for _, id := range ids {
		if p, ok := describeAs(id, s.Role(id), s.Pipes); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// processes is what a Result says of ps.
func processes(ps []described) []proctest.Process {
	var out []proctest.Process
	for _, p := range ps {
		out = append(out, p.Process)
	}
	return out
}

// notDying describes the fixture's processes that are alive and not on
// their way out: no fatal signal pending, not exiting (see
// [procstate.Dying]).
func (c *check) notDying(s monitor.Snapshot) []described {
	var (
		ids   []proc.Identity
		first []described
	)
	if proc.Portable() {
		// The reported processes first, described at once: the portable
		// mode reads every process's parent to find the rest, which takes
		// long enough for a late kill to land before the look.
		for _, id := range s.IDs() {
			if id.Alive() && !procstate.DyingSoon(id) {
				ids = append(ids, id)
			}
		}
		first = describe(ids, s)
	}
	fast := len(ids)
	for _, id := range c.d.tracker.Members(s.IDs()) {
		if slices.Contains(ids, id) {
			continue
		}
		if !procstate.DyingSoon(id) {
			ids = append(ids, id)
		}
	}
	return union(first, describe(ids[fast:], s))
}

// union is a and those of b not in a, by identity.
func union(a, b []described) []described {
	out := slices.Clone(a)
	for _, p := range b {
		if !slices.ContainsFunc(a, func(q described) bool { return q.PID == p.PID && q.Start == p.Start }) {
			out = append(out, p)
		}
	}
	return out
}

// relabel gives each of ps described as a mere fixture process the role
// the fixture has reported for it by s: a process described when run
// returned, before its report (a descendant a launcher started just
// before, on a loaded machine), is what its late report says, while the
// facts stay as they were seen then.
//
// So too a command line that could not be read then (shown as [comm]): a
// process caught in the middle of its exec, as a shell's child becoming
// /bin/sleep is, shows the one it runs now, if it is the same process.
func relabel(ps []described, s monitor.Snapshot) []described {
	for i, p := range ps {
		id := proc.Identity{PID: p.PID, Start: p.Start}
		if strings.HasPrefix(p.Cmdline, "[") {
			if d, ok := proc.Describe(id, p.Role); ok && !strings.HasPrefix(d.Cmdline, "[") {
				ps[i].Cmdline = d.Cmdline
			}
		}
		if p.role != monitor.FixtureProcess {
			continue
		}
		if r := s.Role(id); r != monitor.FixtureProcess {
			ps[i].role, ps[i].Role = r, r.String()
		}
	}
	return ps
}

// aliveAfter returns the fixture's processes still alive after up to
// grace, polling with a capped backoff, and after up to dyingGrace more
// while one of them is visibly being killed (see [awaitKilled]).
func (c *check) aliveAfter(grace time.Duration, s monitor.Snapshot) []described {
	live := awaitDead(c.d.tracker, s.IDs(), grace)
	if len(live) > 0 {
		live = awaitKilled(dyingGrace, func() []proc.Identity { return c.d.tracker.Members(s.IDs()) })
	}
	return describe(live, s)
}

// dyingGrace bounds how long, past the survivor grace, the check waits
// for processes that are being killed to be gone. A killed process is
// gone within milliseconds on an idle machine; on a loaded one (load
// average 25 on 2 cores) a SIGKILLed process can wait longer than the
// grace for a processor to run its exit, and a PID namespace's init, in
// exit(2), waits for every member to finish theirs. Such a process was
// being killed: it is no survivor.
const dyingGrace = 5 * time.Second

// awaitKilled returns members() once none of them is being killed
// ([procstate.Dying]: in exit(2), a fatal signal pending, or its PID
// namespace's init so), or after limit: a process alive and not being
// killed stops the wait at once, and it and any other left are returned.
func awaitKilled(limit time.Duration, members func() []proc.Identity) []proc.Identity {
	var live []proc.Identity
	backoff.Poll(limit, time.Millisecond, 50*time.Millisecond, func() bool {
		live = members()
		return len(live) == 0 || slices.ContainsFunc(live, func(id proc.Identity) bool { return !procstate.Dying(id) })
	})
	return live
}

// pipeHolders adds to the fixture's live processes every other process
// that holds a write end of the command's output pipes: the answer to
// "why does Wait not return". The test process itself is one when run
// kept a write end open. It scans /proc: failures only.
func (c *check) pipeHolders(s monitor.Snapshot) []described {
	ps := describe(c.d.tracker.Members(s.IDs()), s)
	if len(s.Pipes) == 0 {
		return ps
	}
	if p, ok := selfHolder(s); ok {
		ps = append(ps, p)
	}
	skip := []int{os.Getpid()}
	for _, p := range ps {
		skip = append(skip, p.PID)
	}
	for _, id := range proc.PipeHolders(s.Pipes, skip...) {
		if p, ok := describeAs(id, monitor.Stranger, s.Pipes); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// selfHolder describes the test process if it holds a write end of the
// command's stdout or stderr: os/exec closes its own copies after Start,
// so the copy is run's, an *os.File it gave the command and never closed.
// (A write end of stdin is the test's to hold: it writes there.) The test
// process is never killed.
func selfHolder(s monitor.Snapshot) (described, bool) {
	out := map[string]string{}
	for target, name := range s.Pipes {
		if strings.Contains(name, "stdout") || strings.Contains(name, "stderr") {
			out[target] = name
		}
	}
	if !slices.ContainsFunc(proc.FDsOn(os.Getpid(), out), func(fd proc.FD) bool { return fd.Write }) {
		return described{}, false
	}
	id, err := proc.Identify(os.Getpid())
	if err != nil {
		return described{}, false
	}
	return describeAs(id, monitor.TestProcess, out)
}

func writeList(b *strings.Builder, header string, ps []described) {
	if len(ps) == 0 {
		fmt.Fprintf(b, "\n%s none (all had exited)", header)
		return
	}
	b.WriteString("\n" + header)
	for _, p := range ps {
		b.WriteString("\n\t" + p.String())
	}
}
