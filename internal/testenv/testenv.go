// Package testenv is exectest's own test support, in one place, modelled
// on golang.org/x/tools/internal/testenv: helpers that skip a test that
// cannot run here and say why (or fail it under EXECTEST_STRICT=1, see
// internal/envswitch), and start the processes tests look at and reap
// them. It imports internal/proc, so proc's in-package tests cannot use
// it; its external test package can.
package testenv
