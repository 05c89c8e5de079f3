// Command execcheck finds the exec sites that can hang or orphan on
// cancel: the execcheck analyzer as a command.
//
//	execcheck ./...                 report hang, orphan and launcher sites
//	execcheck -fix ./...            also rewrite them to cancelpolicy.Run where mechanical
//	execcheck -sites ./...          list every exec site with its class (-json: as JSON)
//	go vet -vettool=$(command -v execcheck) ./...
//
// Exit status: 0 when nothing was found; 3 when a site was reported (with
// -sites: when a site is neither ok nor ignored); 1 on an error.
// Test files are analyzed unless -test=false. See docs/execcheck.md.
package main

import (
	"os"

	"github.com/exectest/exectest/execcheck"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() {
	if sitesMode(os.Args[1:]) {
		os.Exit(runSites(os.Args[1:], os.Stdout, os.Stderr))
	}
	singlechecker.Main(execcheck.Analyzer)
}
