package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// linuxChildren lists the pids of pid's children, from
// /proc/PID/task/*/children (a child belongs to the thread that forked it).
func linuxChildren(pid int) []int {
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
