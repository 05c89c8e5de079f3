//go:build unix && !linux

package exectest_test

const onLinux = false
