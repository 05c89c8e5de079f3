package proc

import (
	"slices"
	"strconv"
	"strings"
)

// linuxChildren lists the pids of pid's children, from
// /proc/PID/task/*/children (a child belongs to the thread that forked it).
// The task folder is listed and each file read directly: filepath.Glob
// would also stat every match, and sort them, for every process of every
// walk.
func linuxChildren(pid int) []int {
	tasks, _ := ReadDirNames(procPath(pid, "task"))
	slices.Sort(tasks)
	var kids []int
	for _, t := range tasks {
		if tid, err := strconv.Atoi(t); err == nil {
			kids = append(kids, childrenOfThread(pid, tid)...)
		}
	}
	return kids
}

// childrenOfThread lists the children of one thread of pid.
func childrenOfThread(pid, tid int) []int {
	b, err := ReadFile(procPath(pid, "task/"+strconv.Itoa(tid)+"/children"))
	if err != nil {
		return nil
	}
	var kids []int
	for f := range strings.FieldsSeq(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			kids = append(kids, n)
		}
	}
	return kids
}
