package proc

import (
	"os"
	"strconv"
	"strings"
)

// linuxChildren lists the pids of pid's children, from
// /proc/PID/task/*/children (a child belongs to the thread that forked it).
// The task folder is listed and each file read directly: filepath.Glob
// would also stat every match, and sort them, for every process of every
// walk.
func linuxChildren(pid int) []int {
	dir := procPath(pid, "task")
	tasks, _ := os.ReadDir(dir)
	var kids []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for f := range strings.FieldsSeq(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				kids = append(kids, n)
			}
		}
	}
	return kids
}
