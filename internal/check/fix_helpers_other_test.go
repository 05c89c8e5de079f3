//go:build unix && !linux

package check_test

// sandboxFixRows: the sandboxes are bubblewrap's, Linux only.
func sandboxFixRows() []fixRow { return nil }
