// Package testenv is exectest's own test support, in one place, modelled
// on golang.org/x/tools/internal/testenv: helpers that skip a test that
// cannot run here and say why (or fail it under EXECTEST_STRICT=1, see
// internal/envswitch), start the processes tests look at and reap them,
// and find and remove cgroups. It imports internal/proc and cancelpolicy,
// so their in-package tests cannot use it; their external test packages
// can.
package testenv
