package proc

import "os"

// Children lists the pids of pid's children: from
// /proc/PID/task/*/children (a child belongs to the thread that forked
// it), or in the portable mode from every process's parent.
func Children(pid int) []int { return current().children(pid) }

// Descendants lists every process below pid, depth first. In the Linux
// mode its cost is the size of that tree, not of the machine; the portable
// mode reads every process's parent once.
func Descendants(pid int) []int { return current().descendants(pid) }

// walk lists every process below pid, depth first, by children.
func walk(pid int, children func(int) []int) []int {
	var out []int
	seen := map[int]bool{pid: true}
	stack := children(pid)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
		stack = append(stack, children(p)...)
	}
	return out
}

// Trees lists the live processes among seeds and below them: of the
// processes below a seed, those that started no earlier than it (a child
// is never older than its parent). The caller is never listed. Its cost
// is the size of those trees; the portable mode reads every process's
// parent once.
func Trees(seeds []Identity) []Identity { return treesBy(seeds, current().tree()) }

// treesBy is Trees with the children from children.
func treesBy(seeds []Identity, children func(int) []int) []Identity {
	var out []Identity
	seen := map[int]bool{os.Getpid(): true}
	add := func(id Identity) {
		if !seen[id.PID] && id.Alive() {
			seen[id.PID] = true
			out = append(out, id)
		}
	}
	// A seed comes more than once (a root the fixture also reported): each
	// is read once.
	looked := map[Identity]bool{}
	for _, id := range seeds {
		if looked[id] {
			continue
		}
		looked[id] = true
		if !id.Alive() {
			continue
		}
		if !seen[id.PID] {
			seen[id.PID] = true
			out = append(out, id)
		}
		for _, pid := range walk(id.PID, children) {
			s, err := ReadStat(pid)
			if err != nil || s.Start < id.Start {
				continue
			}
			d := Identity{PID: pid, Start: s.Start}
			if s.PPID != os.Getpid() {
				// Adopted, should its parent exit: see OriginOf.
				seenWithParent(d)
			}
			add(d)
		}
	}
	return out
}
