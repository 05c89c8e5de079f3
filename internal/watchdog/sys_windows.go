package watchdog

import (
	"os"
	"path/filepath"
	"syscall"
)

// procAttr starts the watchdog with NUL as its stdio and r, the pipe's
// read end, inherited as the one handle beyond those (Windows passes
// handles, not numbered descriptors: in is r's handle, which the
// watchdog's is too). CREATE_NEW_PROCESS_GROUP disables Ctrl-C in it: a
// Ctrl-C at the console must not end it before it has cleaned up.
func procAttr(null, r *os.File) (attr *os.ProcAttr, in uintptr) {
	in = r.Fd()
	return &os.ProcAttr{
		Dir:   filepath.VolumeName(os.TempDir()) + `\`, // it holds no test's working directory
		Files: []*os.File{null, null, null},
		Sys: &syscall.SysProcAttr{
			CreationFlags:              syscall.CREATE_NEW_PROCESS_GROUP,
			AdditionalInheritedHandles: []syscall.Handle{syscall.Handle(in)},
		},
	}, in
}

// ignoreSignals does nothing more: the new process group ignores Ctrl-C,
// and nothing else is sent to a Windows process that it could ignore.
func ignoreSignals() {}

// closeInherited does nothing: a Windows process inherits only the
// handles its parent named (procAttr names one).
func closeInherited() {}

func exit(code int) { os.Exit(code) }

// executable is the test binary to start as the watchdog.
func executable() (string, error) { return os.Executable() }
