package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Children lists the pids of pid's children, from
// /proc/PID/task/*/children (a child belongs to the thread that forked it).
func Children(pid int) []int {
	tasks, _ := filepath.Glob(procPath(pid, "task/*/children"))
	var kids []int
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids
}

// Descendants lists every process below pid, depth first. Its cost is the
// size of that tree, not of the machine.
func Descendants(pid int) []int {
	var out []int
	seen := map[int]bool{pid: true}
	stack := Children(pid)
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
		stack = append(stack, Children(p)...)
	}
	return out
}
