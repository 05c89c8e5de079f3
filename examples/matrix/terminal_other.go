//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd || windows)

package main

import "os"

// isTerminal is false where the matrix cannot tell: no progress line.
func isTerminal(*os.File) bool { return false }
