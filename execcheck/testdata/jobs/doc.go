// Package jobs holds exec sites in files that build only for Windows: a
// _windows.go file and a //go:build windows one. There cancelpolicy.Run
// puts the command's tree in a job object a cancel terminates, so a
// cancel that reaches only the direct child is a finding, hang or orphan,
// as on Unix; the fix is that job object, never a process group or
// Setpgid (which syscall.SysProcAttr has not there). Package jobsplain is
// the same code in a plain file, with the advice for Unix.
package jobs
