//go:build unix && !linux

package exectest_test

// sandboxFixRows: the sandboxes are bubblewrap's, Linux only.
func sandboxFixRows() []fixRow { return nil }
