// Package jobs holds exec sites in files that build only for Windows: a
// _windows.go file and a //go:build windows one. There the fix is the job
// object cancelpolicy.Run puts the command in, never a process group or
// Setpgid (which syscall.SysProcAttr has not there). Package jobsplain
// is the same code in a plain file, with the advice for Unix.
package jobs
