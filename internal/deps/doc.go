// Package deps holds no code: its tests keep the toolkit's module to the
// dependencies the design names (goleak, gopsutil/v4 and x/sys). The
// checker, execcheck, is a module of its own for that: golang.org/x/tools
// is its dependency, and no module that requires exectest for its tests
// gets it, or has its version of it raised, by minimal version selection.
package deps
