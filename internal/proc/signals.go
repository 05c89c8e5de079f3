package proc

import (
	"strings"
	"syscall"
)

// A SignalSet is a set of signals as the kernel keeps it: bit n-1 for
// signal n (the SigIgn line of /proc/PID/status).
type SignalSet uint64

// Has reports whether sig is in the set.
func (s SignalSet) Has(sig syscall.Signal) bool {
	return sig > 0 && sig <= 64 && s&(1<<(sig-1)) != 0
}

// SignalsOf is the set of the signals sigs.
func SignalsOf(sigs ...syscall.Signal) SignalSet {
	var s SignalSet
	for _, sig := range sigs {
		if sig > 0 && sig <= 64 {
			s |= 1 << (sig - 1)
		}
	}
	return s
}

// Names names the signals of the set among among, in that order:
// "SIGINT, SIGQUIT".
func (s SignalSet) Names(among ...syscall.Signal) string {
	var names []string
	for _, sig := range among {
		if s.Has(sig) {
			names = append(names, SignalName(sig))
		}
	}
	return strings.Join(names, ", ")
}

// SignalName is sig's name as code spells it: "SIGINT".
func SignalName(sig syscall.Signal) string {
	if name := signalNames[sig]; name != "" {
		return name
	}
	return "signal " + sig.String()
}

// signalNames are the signals a runner sends to stop a command, and the
// one that cannot be ignored.
var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP:  "SIGHUP",
	syscall.SIGINT:  "SIGINT",
	syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGKILL: "SIGKILL",
	syscall.SIGTERM: "SIGTERM",
}

// IgnoredSignals is the set of signals the process pid ignores (its
// SigIgn): a signal set to SIG_IGN is dropped when sent, and stays
// ignored across fork and exec. False where that cannot be read: the
// portable mode reads no /proc, and no other system says it.
func IgnoredSignals(pid int) (SignalSet, bool) { return current().ignored(pid) }
