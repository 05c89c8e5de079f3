//go:build !linux

package proc

// threadCmdline is "": off Linux, the portable mode reads no thread.
func threadCmdline(int) string { return "" }

// liveThread is 0: off Linux, the portable mode reads no thread, and a
// zombie counts as dead.
func liveThread(int) int { return 0 }
