// Package execcheck finds the exec sites that can hang or orphan on
// cancel. Its [Analyzer] follows each *exec.Cmd to its Run, Output or
// Start and gives the site a [Class]: [Hang], [Orphan], [Launcher], [OK]
// or [Unknown]; the fix is [cancelpolicy.Run]. After
// go get -tool github.com/exectest/exectest/execcheck/cmd/execcheck,
// go tool execcheck ./... reports the sites to fix; -sites lists every
// site with its class, -fix rewrites to cancelpolicy.Run where mechanical.
// Classes, //execcheck:ignore, limits: [docs/execcheck.md].
//
// [cancelpolicy.Run]: https://pkg.go.dev/github.com/exectest/exectest/cancelpolicy#Run
// [docs/execcheck.md]: https://github.com/exectest/exectest/blob/main/docs/execcheck.md
package execcheck
