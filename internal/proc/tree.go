package proc

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
