package cancelpolicy

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// groupSys is the command's Job Object: Start's commands only, since only
// Start resumes the child it created suspended (Apply has no job).
type groupSys struct {
	job      windows.Handle // 0: none, or closed
	assigned bool           // the child is in the job: stop terminates the job
	resume   bool           // the caller did not ask for CREATE_SUSPENDED
}

func newGroupSys() groupSys { return groupSys{} }

// setGroup, for Start, makes the Job Object, with kill-on-close so that a
// caller that dies takes the tree with it, and has the child created
// suspended: adopt puts it in the job before it runs, so that every
// descendant starts inside. Apply gets no job: nobody would resume the
// child (see Apply).
func (g *group) setGroup(started bool) error {
	if !started {
		return nil
	}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("cancelpolicy.Start: CreateJobObject: %w", err)
	}
	if err := setKillOnClose(job, true); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("cancelpolicy.Start: job object: set JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: %w", err)
	}
	cmd := g.cmd
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	g.sys = groupSys{job: job, resume: cmd.SysProcAttr.CreationFlags&windows.CREATE_SUSPENDED == 0}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	return nil
}

// adopt assigns the suspended child to the job and resumes it. Until its
// Wait, os/exec holds a handle on the child, so its pid names it and no
// other process; suspended, it cannot exit or start anything meanwhile.
// A cancel that came first (os/exec's Cancel, during Start) has killed the
// child already: nothing is left to adopt.
func (g *group) adopt() error {
	if g.stopped || g.sys.job == 0 {
		return nil
	}
	pid := uint32(g.cmd.Process.Pid)
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("cancelpolicy.Start: open the new process %d for its job object: %w; it was killed", pid, err)
	}
	err = windows.AssignProcessToJobObject(g.sys.job, h)
	windows.CloseHandle(h)
	if err != nil {
		return fmt.Errorf("cancelpolicy.Start: AssignProcessToJobObject of the new process %d: %w; it was killed", pid, err)
	}
	g.sys.assigned = true
	g.keep = true // the job, until Wait
	if !g.sys.resume {
		return nil // the caller resumes it, as it asked with CREATE_SUSPENDED
	}
	if err := resumeThreads(pid); err != nil {
		return fmt.Errorf("cancelpolicy.Start: resume the new process %d in its job object: %w; it was killed", pid, err)
	}
	return nil
}

// resumeThreads resumes the threads of process pid. os/exec closes the
// thread handle CreateProcess returns, so they are found in a Toolhelp32
// snapshot, as Rust's command-group does; a process created suspended has
// one thread.
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, terr := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if terr != nil {
			return fmt.Errorf("OpenThread %d: %w", te.ThreadID, terr)
		}
		_, terr = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if terr != nil {
			return fmt.Errorf("ResumeThread %d: %w", te.ThreadID, terr)
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return fmt.Errorf("Thread32Next: %w", err)
	}
	if resumed == 0 {
		return errors.New("thread snapshot: got no thread of it, want its first")
	}
	return nil
}

// checkGraceful: Windows has no signal to send first. Its nearest, a
// console's CTRL_BREAK_EVENT, reaches only processes that share the
// caller's console, and Wine 8, where this package's Windows tests run,
// does not deliver it (GenerateConsoleCtrlEvent fails), so it is not offered.
func checkGraceful(os.Signal) error {
	return errors.New("cancelpolicy.Graceful: not supported on windows: a process there can only be terminated (a console's CTRL_BREAK_EVENT, the nearest to a signal, is not offered); drop Graceful there")
}

// pin: the job is the pin here, made by setGroup and filled by adopt.
func (g *group) pin(started bool) {}

// unpin ends the job when the command is done. With Contain it
// terminates the job and waits until it is empty; after a stop it keeps
// kill-on-close, so that closing the handle kills what is left; a command
// that finished by itself leaves its descendants running, as on Linux, so
// kill-on-close is lifted before the close.
func (g *group) unpin() {
	job := g.sys.job
	if job == 0 {
		return
	}
	g.sys.job = 0
	switch {
	case !g.sys.assigned:
	case g.contain:
		if err := terminate(job); err != nil {
			g.releaseErr = fmt.Errorf("cancelpolicy.Contain: %w", err)
		} else if !pollUntil(containEmptyLimit, func() bool { return active(job) == 0 }) {
			g.releaseErr = fmt.Errorf("cancelpolicy.Contain: job object: got %d processes still active %v after TerminateJobObject, want none", active(job), containEmptyLimit)
		}
	case g.stopped:
		// Terminated already: closing the handle, with kill-on-close,
		// ends whatever the termination has not ended yet.
	default:
		if err := setKillOnClose(job, false); err != nil {
			g.releaseErr = fmt.Errorf("cancelpolicy: job object: lift JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: %w; the command's descendants die with the job's handle", err)
		}
	}
	windows.CloseHandle(job)
}

// containEmptyLimit bounds how long Wait waits, with Contain, for the
// terminated job to have no active process left: Windows ends a
// terminated process asynchronously, in milliseconds.
const containEmptyLimit = 5 * time.Second

// signal terminates the job: the whole tree, also after the direct child
// exited. Before adopt there is no tree: the suspended child is killed.
// sig is always SIGKILL here (no Graceful on Windows).
func (g *group) signal(syscall.Signal) error {
	if !g.sys.assigned || g.sys.job == 0 {
		return g.cmd.Process.Kill()
	}
	if active(g.sys.job) == 0 {
		return os.ErrProcessDone
	}
	return terminate(g.sys.job)
}

// empty reports whether the job has no active process left.
func (g *group) empty() bool {
	return !g.sys.assigned || g.sys.job == 0 || active(g.sys.job) == 0
}

func terminate(job windows.Handle) error {
	if err := windows.TerminateJobObject(job, 1); err != nil {
		return fmt.Errorf("TerminateJobObject: %w", err)
	}
	return nil
}

// setKillOnClose sets or lifts JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, the job's
// only limit.
func setKillOnClose(job windows.Handle, on bool) error {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if on {
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	}
	_, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	return err
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which
// golang.org/x/sys/windows does not define.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// active is the number of live processes in the job; -1 where the job
// cannot be read, which counts as not empty.
func active(job windows.Handle) int {
	var info jobAccounting
	err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation, uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	if err != nil {
		return -1
	}
	return int(info.ActiveProcesses)
}
