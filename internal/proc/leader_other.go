//go:build !linux

package proc

// threadCmdline is "": off Linux, the portable mode reads no thread.
func threadCmdline(int) string { return "" }
