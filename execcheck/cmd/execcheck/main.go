// Command execcheck finds the exec sites that can hang or orphan on
// cancel: the execcheck analyzer as a command. In a module, as a tool:
//
//	go get -tool github.com/exectest/exectest/execcheck/cmd/execcheck
//	go tool execcheck ./...                report hang, orphan and launcher sites
//	go tool execcheck -fix ./...           also rewrite them to cancelpolicy.Run where mechanical
//	go tool execcheck -sites ./...         list every exec site with its class (-json: as JSON)
//	go vet -vettool="$(go tool -n execcheck)" ./...
//
// Or installed (then execcheck ./..., with the same flags), which keeps
// execcheck's module and golang.org/x/tools out of the module's go.mod:
//
//	go install github.com/exectest/exectest/execcheck/cmd/execcheck@latest
//
// -fix says on stderr what it rewrote and what is left to edit by hand.
// Paths are printed as go vet prints them: relative to the current
// directory where that is shorter (-json keeps go/analysis's format).
//
// Exit status: 0 when nothing was found; 3 when a site was reported (with
// -sites: when a site is neither ok nor ignored; with -fix: when a site is
// left that -fix could not rewrite); 1 on an error, and for a package that
// does not type-check, after what could be checked in it. Test files are
// analyzed unless -test=false. See docs/execcheck.md.
package main

import (
	"os"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	args := os.Args[1:]
	switch {
	case sitesMode(args):
		os.Exit(runSites(args, os.Stdout, os.Stderr))
	case vetMode(args):
		singlechecker.Main(execcheck.Analyzer)
	}
	os.Exit(runCheck(args, os.Stdout, os.Stderr))
}
