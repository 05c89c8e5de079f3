package main

import (
	"fmt"
	"io"

	"golang.org/x/tools/go/packages"
)

// printLoadErrors prints the packages' load, parse and type errors to w,
// as packages.PrintErrors does to os.Stderr, and returns how many.
func printLoadErrors(pkgs []*packages.Package, w io.Writer) int {
	n := 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, err := range p.Errors {
			fmt.Fprintln(w, err)
			n++
		}
	})
	return n
}
