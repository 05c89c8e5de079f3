package execcheck

// A package that kills processes but runs none: deref/exo's osutil,
//
//	func KillProcessGroup(pgid int) error { return syscall.Kill(-pgid, syscall.SIGKILL) }
//
// which its command's package calls with the child's pid. It does not
// use os/exec, so it was skipped, and its functions carried no fact: the
// group kill by hand in the caller was "no kill by hand". Such a package
// is walked for its facts alone; it has no site.

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// killerPackage returns the syscall package the build uses, if the
// package analyzed kills a process: it calls syscall's or x/sys/unix's
// Kill or Killpg, a method of *os.Process, or a function of another
// package that carries a fact. Otherwise it returns nil.
func killerPackage(pass *analysis.Pass) *types.Package {
	kills := false
	for _, o := range pass.TypesInfo.Uses {
		fn, ok := o.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
			continue
		}
		switch {
		case isUnixPkg(fn.Pkg().Path()) && (fn.Name() == "Kill" || fn.Name() == "Killpg"),
			methodOf(fn, "os", "Process"),
			pass.ImportObjectFact(fn.Origin(), new(funcFact)):
			kills = true
		}
		if kills {
			break
		}
	}
	if !kills {
		return nil
	}
	return importedPackage(pass.Pkg, "syscall", map[*types.Package]bool{})
}

// importedPackage finds the package of the given path among those p
// imports, directly or not.
func importedPackage(p *types.Package, path string, seen map[*types.Package]bool) *types.Package {
	for _, q := range p.Imports() {
		if q.Path() == path {
			return q
		}
		if !seen[q] {
			seen[q] = true
			if r := importedPackage(q, path, seen); r != nil {
				return r
			}
		}
	}
	return nil
}
